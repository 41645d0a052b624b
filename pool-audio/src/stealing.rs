//! Which real voice a full cap gives up for a new play of a sound that does not
//! virtualize: the policy a game picks, and the choice it makes.

use crate::audibility::distance;
use crate::handles::VoiceKey;

/// How a full voice cap picks the voice to steal.
///
/// ```
/// use pool_audio::{SoundEffectsSettings, Stealing};
///
/// let settings = SoundEffectsSettings { stealing: Stealing::Quietest, ..Default::default() };
/// assert!(settings.validate().is_ok());
/// assert_eq!(SoundEffectsSettings::default().stealing, Stealing::Oldest);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Stealing {
    /// The voice started longest ago (the default).
    #[default]
    Oldest,
    /// The voice playing at the lowest volume.
    Quietest,
    /// The positioned voice furthest from the listener (unpositioned voices count
    /// as at the listener).
    Furthest,
    /// The voice of the lowest-priority sound; the oldest among equals.
    LowestPriority,
    /// Refuse the new play (the word `pool_core` uses for a pool that refuses) with [`PlayError::VoiceCap`](crate::PlayError::VoiceCap).
    Strict,
}

/// A real voice as a stealing policy compares it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Candidate {
    pub(crate) key: VoiceKey,
    /// Its start order: lower is older.
    pub(crate) order: u64,
    pub(crate) priority: i32,
    pub(crate) position: Option<[f32; 3]>,
    /// Its level now (for [`Stealing::Quietest`]).
    pub(crate) level: f64,
}

/// The voice a full cap (global or group) gives up for a new play of a
/// [`Virtualization::Kill`](crate::Virtualization::Kill) sound, among
/// `candidates` in any order (`order` decides ties); `None` if `stealing` is
/// [`Stealing::Strict`] or there is no candidate.
pub(crate) fn steal(
    stealing: Stealing,
    listener: [f32; 3],
    candidates: impl Iterator<Item = Candidate>,
) -> Option<VoiceKey> {
    let score = |c: &Candidate| -> f64 {
        match stealing {
            Stealing::Strict | Stealing::Oldest => c.order as f64,
            Stealing::Quietest => c.level,
            Stealing::LowestPriority => f64::from(c.priority),
            Stealing::Furthest => -f64::from(c.position.map_or(0.0, |p| distance(p, listener))),
        }
    };
    if stealing == Stealing::Strict {
        return None;
    }
    // Lowest score; the oldest among equals.
    candidates
        .min_by(|a, b| score(a).total_cmp(&score(b)).then(a.order.cmp(&b.order)))
        .map(|c| c.key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(key: VoiceKey, order: u64, priority: i32, x: f32, level: f64) -> Candidate {
        Candidate {
            key,
            order,
            priority,
            position: Some([x, 0.0, 0.0]),
            level,
        }
    }

    #[test]
    fn each_policy_picks_its_voice_and_the_oldest_among_equals() {
        let mut pool = pool_core::Pool::builder(|| 0u8)
            .max_objects(4)
            .handle::<VoiceKey>()
            .build()
            .unwrap();
        let mut key = || pool.try_acquire().unwrap();
        let voices = [
            candidate(key(), 5, 1, 10.0, 0.5),
            candidate(key(), 3, 0, 2.0, 0.1),
            candidate(key(), 4, 0, 30.0, 0.1),
            candidate(key(), 9, 2, 1.0, 0.9),
        ];
        let pick = |stealing| steal(stealing, [0.0; 3], voices.into_iter());
        assert_eq!(pick(Stealing::Oldest), Some(voices[1].key));
        assert_eq!(
            pick(Stealing::Quietest),
            Some(voices[1].key),
            "a tie: the older"
        );
        assert_eq!(pick(Stealing::LowestPriority), Some(voices[1].key));
        assert_eq!(pick(Stealing::Furthest), Some(voices[2].key));
        assert_eq!(pick(Stealing::Strict), None);
        assert_eq!(steal(Stealing::Oldest, [0.0; 3], std::iter::empty()), None);
    }
}

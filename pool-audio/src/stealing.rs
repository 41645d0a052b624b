//! Which real voice a full cap gives up for a new play of a sound that does not
//! virtualize: the policy a game picks, and the choice it makes.

use crate::audibility::distance;
use crate::handles::VoiceKey;

/// How a full voice cap picks the voice to steal.
///
/// ```
/// use pool_audio::{SoundEffectsSettings, voices::Stealing};
///
/// let settings = SoundEffectsSettings { stealing: Stealing::Quietest, ..Default::default() };
/// assert!(settings.validate().is_ok());
/// assert_eq!(SoundEffectsSettings::default().stealing, Stealing::Oldest);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Stealing {
    /// The voice started longest ago (the default).
    #[default]
    Oldest,
    /// The voice playing at the lowest volume.
    Quietest,
    /// The positioned voice furthest from the listener (unpositioned voices count
    /// as at the listener).
    Furthest,
    /// The voice of the lowest priority (as heard now: a sound's
    /// [`distance_priority_offset`](crate::SoundSettings::distance_priority_offset)
    /// lowers a far voice's), if it is below the new play's; at equal
    /// priority the new play's sound's [`Tie`] decides which loses. A play
    /// below every real voice is refused (or starts virtual).
    LowestPriority,
    /// Refuse the new play (the word `pool_core` uses for a pool that refuses) with [`PlayError::VoiceCap`](crate::PlayError::VoiceCap).
    Strict,
}

/// Which loses when a new play and the lowest real voice are equal in
/// priority under [`Stealing::LowestPriority`] (Wwise's "when priority is
/// equal: discard oldest / discard newest instance"), a setting of the new
/// play's sound.
///
/// ```
/// use pool_audio::{SoundSettings, voices::Tie};
///
/// assert_eq!(SoundSettings::default().tie, Tie::OldestLoses);
/// let announcer = SoundSettings::default().priority(5).tie(Tie::NewestLoses);
/// assert_eq!(announcer.tie, Tie::NewestLoses);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Tie {
    /// The oldest of the equals gives way to the new play (the default).
    #[default]
    OldestLoses,
    /// The new play loses: refused, or started virtual by a sound that
    /// virtualizes.
    NewestLoses,
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
/// [`Virtualization::Kill`](crate::Virtualization::Kill) sound of priority
/// `priority` (as heard) and tie rule `tie`, among `candidates` in any order
/// (`order` decides ties); `None` if `stealing` is [`Stealing::Strict`], there
/// is no candidate, or [`Stealing::LowestPriority`] finds none the play
/// outranks.
pub(crate) fn steal(
    stealing: Stealing,
    listener: [f32; 3],
    (priority, tie): (i32, Tie),
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
    let victim =
        candidates.min_by(|a, b| score(a).total_cmp(&score(b)).then(a.order.cmp(&b.order)))?;
    let outranked = match victim.priority.cmp(&priority) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Equal => tie == Tie::OldestLoses,
        std::cmp::Ordering::Greater => false,
    };
    (stealing != Stealing::LowestPriority || outranked).then_some(victim.key)
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
        let pick = |stealing| {
            steal(
                stealing,
                [0.0; 3],
                (1, Tie::OldestLoses),
                voices.into_iter(),
            )
        };
        assert_eq!(pick(Stealing::Oldest), Some(voices[1].key));
        assert_eq!(
            pick(Stealing::Quietest),
            Some(voices[1].key),
            "a tie: the older"
        );
        assert_eq!(pick(Stealing::LowestPriority), Some(voices[1].key));
        assert_eq!(pick(Stealing::Furthest), Some(voices[2].key));
        assert_eq!(pick(Stealing::Strict), None);
        let none = std::iter::empty();
        assert_eq!(
            steal(Stealing::Oldest, [0.0; 3], (0, Tie::OldestLoses), none),
            None
        );
    }

    #[test]
    fn lowest_priority_steals_only_below_the_play_and_ties_follow_the_rule() {
        let mut pool = pool_core::Pool::builder(|| 0u8)
            .max_objects(2)
            .handle::<VoiceKey>()
            .build()
            .unwrap();
        let (old, young) = (pool.try_acquire().unwrap(), pool.try_acquire().unwrap());
        let voices = [
            candidate(old, 1, 3, 0.0, 1.0),
            candidate(young, 2, 3, 0.0, 1.0),
        ];
        let pick = |priority, tie| {
            steal(
                Stealing::LowestPriority,
                [0.0; 3],
                (priority, tie),
                voices.into_iter(),
            )
        };
        assert_eq!(pick(4, Tie::NewestLoses), Some(old), "below the play");
        assert_eq!(
            pick(3, Tie::OldestLoses),
            Some(old),
            "a tie: the oldest loses"
        );
        assert_eq!(pick(3, Tie::NewestLoses), None, "a tie: the play loses");
        assert_eq!(
            pick(2, Tie::OldestLoses),
            None,
            "every voice outranks the play"
        );
    }
}

//! A voice: one playing copy of a sound, pooled; the ids a manager hands out; and
//! the policy that picks which voice a full cap gives up.

use std::sync::atomic::{AtomicU32, Ordering};

use kira::sound::static_sound::StaticSoundHandle;
use pool_core::{ExhaustionPolicy, Key, LiveObjects};

use crate::settings::Stealing;

pool_core::new_handle_type! {
    /// The voice pool's own key.
    pub(crate) struct VoiceKey;
}

/// Which [`SoundEffects`](crate::SoundEffects) issued an id: ids and handles carry
/// it, so one manager refuses another's instead of acting on its own sound.
pub(crate) fn next_owner() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A handle to a playing voice: generational, so once the voice ends, is stolen or
/// is stopped, the handle is stale and can never touch the voice's next sound; and
/// tagged with its manager, so another manager refuses it.
///
/// ```
/// assert_eq!(std::mem::size_of::<pool_audio::VoiceHandle>(), 12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VoiceHandle {
    pub(crate) key: VoiceKey,
    pub(crate) owner: u32,
}

/// A sound registered with [`SoundEffects`](crate::SoundEffects): a small id,
/// resolved from its name once, valid only with the manager that issued it.
///
/// ```
/// # use pool_audio::SoundId;
/// fn takes(sound: SoundId) -> usize { sound.index() }
/// assert_eq!(std::mem::size_of::<SoundId>(), 8);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SoundId {
    pub(crate) index: u32,
    pub(crate) owner: u32,
}

impl SoundId {
    /// Its position in the order sounds were added.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let first = sfx.add_sound("click", click.clone(), SoundSettings::default())?;
    /// let second = sfx.add_sound("clack", click, SoundSettings::default())?;
    /// assert_eq!((first.index(), second.index()), (0, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn index(self) -> usize {
        self.index as usize
    }
}

/// One playing copy. Pooled: created when the manager starts, reused forever.
pub(crate) struct Voice {
    pub(crate) sound: u32,
    pub(crate) copy: u8,
    pub(crate) kira: Option<StaticSoundHandle>,
    /// The copy's volume with the pan law compensated: what the play's volume
    /// multiplies.
    pub(crate) base_volume: f64,
    /// Linear amplitude it plays at (`base_volume` times the play's volume).
    pub(crate) volume: f64,
    pub(crate) priority: i32,
    pub(crate) position: Option<[f32; 3]>,
    /// The emitter a positioned voice plays through.
    pub(crate) emitter: Option<u16>,
    /// The manager's update count when it started: "started this frame" means no
    /// audio of it has been rendered yet.
    pub(crate) frame: u64,
    /// Start order, to find a sound's oldest copy.
    pub(crate) order: u64,
}

impl Voice {
    pub(crate) fn idle() -> Self {
        Self {
            sound: 0,
            copy: 0,
            kira: None,
            base_volume: 0.0,
            volume: 0.0,
            priority: 0,
            position: None,
            emitter: None,
            frame: 0,
            order: 0,
        }
    }
}

/// The voice pool's exhaustion policy: [`Stealing`] plus the listener position.
pub(crate) struct StealPolicy {
    pub(crate) stealing: Stealing,
    pub(crate) listener: [f32; 3],
}

impl StealPolicy {
    fn distance_squared(&self, voice: &Voice) -> f32 {
        voice.position.map_or(0.0, |p| {
            p.iter()
                .zip(self.listener)
                .map(|(a, b)| (a - b) * (a - b))
                .sum()
        })
    }
}

impl ExhaustionPolicy<Voice> for StealPolicy {
    fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, Voice, K>) -> Option<K> {
        // Live voices come oldest first: strict comparisons keep the oldest of equals.
        let mut best: Option<(K, f64)> = None;
        let mut consider = |handle: K, score: f64| {
            if best.is_none_or(|(_, lowest)| score < lowest) {
                best = Some((handle, score));
            }
        };
        match self.stealing {
            Stealing::Strict => return None,
            Stealing::Oldest => return live.oldest(),
            Stealing::Quietest => live.iter().for_each(|(h, v)| consider(h, v.volume)),
            Stealing::LowestPriority => live
                .iter()
                .for_each(|(h, v)| consider(h, f64::from(v.priority))),
            Stealing::Furthest => live
                .iter()
                .for_each(|(h, v)| consider(h, -f64::from(self.distance_squared(v)))),
        }
        best.map(|(handle, _)| handle)
    }
}

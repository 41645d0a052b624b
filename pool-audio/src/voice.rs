//! A voice: one playing copy of a sound, real or virtual, pooled; the ids a
//! manager hands out; what a play did; and the policies that pick which voice a
//! full cap gives up.

use std::sync::atomic::{AtomicU32, Ordering};

use pool_core::{ExhaustionPolicy, Key, LiveObjects};

use crate::audibility::{Rank, compare, distance};
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

/// Where a voice plays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Place {
    /// Mixed by the voice bank on `slot`, as the slot's voice `ticket`.
    Real { slot: u32, ticket: u32 },
    /// Not mixed: only its playhead runs on.
    Virtual(Playhead),
}

/// Where a virtual voice is in its sound.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Playhead {
    /// At this transport position, in frames.
    At(f64),
    /// It has just gone virtual: the mixer reports where it stopped (on `slot`,
    /// as `ticket`), and `elapsed` seconds of game time have passed since.
    Awaiting {
        slot: u32,
        ticket: u32,
        elapsed: f64,
    },
}

/// One voice: a playing copy of a sound, real (mixed by the voice bank) or
/// virtual (a record only). Pooled: created when the manager starts, reused
/// forever; the handle stays the same across real and virtual.
#[derive(Debug, Clone)]
pub(crate) struct Voice {
    pub(crate) sound: u32,
    pub(crate) place: Place,
    /// The play's own volume, in `[0, 1]`.
    pub(crate) play_volume: f64,
    pub(crate) playback_rate: f64,
    pub(crate) panning: f32,
    pub(crate) spatial_blend: f32,
    pub(crate) priority: i32,
    pub(crate) position: Option<[f32; 3]>,
    /// Start order, to find a sound's oldest copy.
    pub(crate) order: u64,
    /// Paused by the game.
    pub(crate) paused: bool,
    /// Its level before distance: the sound's first-copy volume times the play's
    /// volume (see `audibility.rs`).
    pub(crate) reference: f32,
    /// Its priority and audibility, as of the last play or update.
    pub(crate) rank: Rank,
}

impl Voice {
    pub(crate) fn idle() -> Self {
        Self {
            sound: 0,
            place: Place::Virtual(Playhead::At(0.0)),
            play_volume: 0.0,
            playback_rate: 1.0,
            panning: 0.0,
            spatial_blend: 1.0,
            priority: 0,
            position: None,
            order: 0,
            paused: false,
            reference: 0.0,
            rank: Rank::SILENT,
        }
    }

    pub(crate) fn is_real(&self) -> bool {
        matches!(self.place, Place::Real { .. })
    }

    /// Its rank as a candidate to give up its place: a paused voice is heard by
    /// no one and goes first.
    pub(crate) fn holding_rank(&self) -> Rank {
        if self.paused { Rank::SILENT } else { self.rank }
    }
}

/// What a voice is doing now, from [`SoundEffects::state`](crate::SoundEffects::state).
///
/// ```
/// use pool_audio::VoiceState;
/// assert!(VoiceState::Virtual.is_live() && !VoiceState::Gone.is_live());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum VoiceState {
    /// Mixed by the voice bank: heard.
    Real,
    /// Tracked but not mixed: its playhead runs on, and it becomes real again when
    /// it is among the most audible voices.
    Virtual,
    /// Paused by the game (real or virtual); it keeps its place.
    Paused,
    /// Real, fading towards a pause or back from one.
    Fading,
    /// Ended, stopped, stolen, or another manager's handle: the handle is stale.
    Gone,
}

impl VoiceState {
    /// `true` unless [`Gone`](Self::Gone).
    ///
    /// ```
    /// assert!(pool_audio::VoiceState::Paused.is_live());
    /// ```
    pub fn is_live(self) -> bool {
        self != Self::Gone
    }
}

/// What a play did, from [`SoundEffects::play_detailed`](crate::SoundEffects::play_detailed).
///
/// ```
/// # use kira::{AudioManager, AudioManagerSettings};
/// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings, VoiceState};
/// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 480].into(), settings: Default::default(), slice: None };
/// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
/// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
/// let id = sfx.add_sound("click", click, SoundSettings::default())?;
/// let played = sfx.play_detailed(id, PlayParams::default())?;
/// assert_eq!((played.state, played.displaced), (VoiceState::Real, None));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Played {
    /// The new voice.
    pub voice: VoiceHandle,
    /// [`VoiceState::Real`] or [`VoiceState::Virtual`].
    pub state: VoiceState,
    /// The voice that gave up its place for it, if any, and what became of it:
    /// [`VoiceState::Virtual`] (it virtualizes) or [`VoiceState::Gone`] (stopped
    /// with the steal fade, recycled, taken over, or a virtual voice dropped
    /// because the virtual voices were all taken).
    pub displaced: Option<(VoiceHandle, VoiceState)>,
}

/// The voice pool's exhaustion policy: when every record is taken (the virtual
/// voices are all in use), the least audible virtual voice gives its record up.
/// Real voices are never chosen here: the voice cap is enforced before a record
/// is asked for.
pub(crate) struct DropLeastAudible;

impl ExhaustionPolicy<Voice> for DropLeastAudible {
    fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, Voice, K>) -> Option<K> {
        live.iter()
            .filter(|(_, v)| !v.is_real())
            .min_by(|(_, a), (_, b)| compare(a.holding_rank(), b.holding_rank()))
            .map(|(key, _)| key)
    }
}

/// The voice a full cap (global or group) gives up for a new play of a
/// [`Virtualization::Kill`](crate::Virtualization::Kill) sound, among
/// `candidates`: real voices with their level now (for
/// [`Stealing::Quietest`]), in any order (`order` decides ties).
pub(crate) fn steal<'a>(
    stealing: Stealing,
    listener: [f32; 3],
    candidates: impl Iterator<Item = (VoiceKey, &'a Voice, f64)>,
) -> Option<VoiceKey> {
    let score = |v: &Voice, level: f64| -> f64 {
        match stealing {
            Stealing::Strict | Stealing::Oldest => v.order as f64,
            Stealing::Quietest => level,
            Stealing::LowestPriority => f64::from(v.priority),
            Stealing::Furthest => -f64::from(v.position.map_or(0.0, |p| distance(p, listener))),
        }
    };
    if stealing == Stealing::Strict {
        return None;
    }
    // Lowest score; the oldest among equals.
    candidates
        .min_by(|(_, a, la), (_, b, lb)| {
            score(a, *la)
                .total_cmp(&score(b, *lb))
                .then(a.order.cmp(&b.order))
        })
        .map(|(key, _, _)| key)
}

#[cfg(test)]
mod tests {
    use std::cmp::Ordering;

    use pool_core::testing::PoolTest;

    use super::*;

    /// The voice pool's policy, through `pool_core`'s property-test kit: on a
    /// full pool of virtual voices with random ranks, paused or not, the victim is
    /// always one no other voice ranks below.
    #[test]
    fn drop_least_audible_keeps_the_pool_invariants_and_drops_the_least_audible() {
        PoolTest::new(Voice::idle)
            .mutate(|voice, value| {
                voice.rank = Rank {
                    priority: (value % 3) as i32,
                    level: (value / 3 % 11) as f32 / 10.0,
                };
                voice.paused = value % 7 == 0;
            })
            .on_release(|voice| *voice = Voice::idle())
            .expect_victim(|live, victim| {
                let Some(victim) = victim.and_then(|v| live.iter().find(|(h, _)| *h == v)) else {
                    return Err("refused or chose a voice that is not live".into());
                };
                let beaten = live.iter().any(|(_, other)| {
                    compare(other.holding_rank(), victim.1.holding_rank()) == Ordering::Less
                });
                if beaten {
                    Err("a live voice ranks below the victim".into())
                } else {
                    Ok(())
                }
            })
            .run(|| DropLeastAudible);
    }
}

/// Why a voice ended: its handle is stale from then on.
///
/// ```
/// use pool_audio::EndReason;
/// assert_ne!(EndReason::Finished, EndReason::Stopped);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EndReason {
    /// It played to its end (a one-shot, real or virtual).
    Finished,
    /// The game stopped it (`stop`, `stop_sound`, `stop_all`).
    Stopped,
    /// Its sound's copies were all playing and a new copy took its place
    /// (`WhenFull::RecycleOldest`).
    Recycled,
    /// A cap was reached or a more audible voice took its place, and its sound
    /// does not virtualize.
    Stolen,
    /// It was virtual, and every virtual voice was taken: the least audible one
    /// gave its record up for a new play.
    Dropped,
}

/// A voice that ended, as [`SoundEffects::ended`](crate::SoundEffects::ended)
/// reports it once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ended {
    /// Its (now stale) handle.
    pub voice: VoiceHandle,
    /// Its sound.
    pub sound: SoundId,
    /// Why it ended.
    pub reason: EndReason,
}

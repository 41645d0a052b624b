//! A voice: one playing copy of a sound, real or virtual, pooled; the ids a
//! manager hands out; what a play did; and the policies that pick which voice a
//! full cap gives up.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use kira::sound::static_sound::StaticSoundHandle;
use kira::{Decibels, Easing, Panning, StartTime, Tween};
use pool_core::{ExhaustionPolicy, Key, LiveObjects};

use crate::audibility::{Rank, compare, distance};
use crate::copies::linear;
use crate::level::kira_volume;
use crate::settings::Stealing;
use crate::spatial::heard;

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

/// One voice: a playing copy of a sound, real (a kira sound behind it) or
/// virtual (a record only). Pooled: created when the manager starts, reused
/// forever; the handle stays the same across real and virtual.
pub(crate) struct Voice {
    pub(crate) sound: u32,
    /// The copy index, while real.
    pub(crate) copy: u8,
    /// `Some` while real.
    pub(crate) kira: Option<StaticSoundHandle>,
    /// The copy's volume with the pan law compensated: what the play's volume
    /// multiplies (while real).
    pub(crate) base_volume: f64,
    /// The play's own volume, in `[0, 1]`.
    pub(crate) play_volume: f64,
    /// Linear amplitude it plays at (`base_volume` times the play's volume).
    pub(crate) volume: f64,
    pub(crate) playback_rate: f64,
    pub(crate) panning: f32,
    pub(crate) spatial_blend: f32,
    /// A volume fade in progress: when it ends (game clock, microseconds) and
    /// its easing, so that hearing the voice from elsewhere keeps fading.
    pub(crate) fade: Option<(u64, Easing)>,
    pub(crate) priority: i32,
    pub(crate) position: Option<[f32; 3]>,
    /// The manager's update count when it started: "started this frame" means no
    /// audio of it has been rendered yet.
    pub(crate) frame: u64,
    /// Start order, to find a sound's oldest copy.
    pub(crate) order: u64,
    /// Its transport position in frames, while virtual (see `playhead.rs`).
    pub(crate) playhead: f64,
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
            copy: 0,
            kira: None,
            base_volume: 0.0,
            play_volume: 0.0,
            volume: 0.0,
            playback_rate: 1.0,
            panning: 0.0,
            spatial_blend: 1.0,
            fade: None,
            priority: 0,
            position: None,
            frame: 0,
            order: 0,
            playhead: 0.0,
            paused: false,
            reference: 0.0,
            rank: Rank::SILENT,
        }
    }

    /// What its kira sound is set to when it plays at `volume`: that volume as
    /// heard from `listener` (see `spatial.rs`), and the panning.
    pub(crate) fn kira_mix(&self, volume: f64, listener: [f32; 3]) -> (Decibels, Panning) {
        let heard = heard(self.panning, self.position, self.spatial_blend, listener);
        (kira_volume(volume * heard.gain), Panning(heard.panning))
    }

    /// Sets its kira sound (if real) to be heard from `listener`: after it or the
    /// listener moved. kira spreads the change over its next processing chunk, or
    /// over what is left of a volume fade in progress at `now` (game clock,
    /// microseconds), which then ends where and when it would have.
    pub(crate) fn respatialize(&mut self, listener: [f32; 3], now: u64) {
        if self.position.is_none() {
            return;
        }
        let (volume, panning) = self.kira_mix(self.volume, listener);
        let fade = match self.fade {
            Some((end, easing)) if end > now => Tween {
                start_time: StartTime::Immediate,
                duration: Duration::from_micros(end - now),
                easing,
            },
            _ => linear(Duration::ZERO),
        };
        if let Some(kira) = &mut self.kira {
            kira.set_volume(volume, fade);
            kira.set_panning(panning, linear(Duration::ZERO));
        }
    }

    pub(crate) fn is_real(&self) -> bool {
        self.kira.is_some()
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
    /// Playing in kira: mixed and heard.
    Real,
    /// Tracked but not mixed: its playhead runs on, and it becomes real again when
    /// it is among the most audible voices.
    Virtual,
    /// Paused by the game (real or virtual); it keeps its place.
    Paused,
    /// Real, with its kira sound fading towards a pause or back from one.
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
/// `candidates` (real voices, oldest first or in any order: `order` decides ties).
pub(crate) fn steal<'a>(
    stealing: Stealing,
    listener: [f32; 3],
    candidates: impl Iterator<Item = (VoiceKey, &'a Voice)>,
) -> Option<VoiceKey> {
    let score = |v: &Voice| -> f64 {
        match stealing {
            Stealing::Strict | Stealing::Oldest => v.order as f64,
            Stealing::Quietest => v.volume,
            Stealing::LowestPriority => f64::from(v.priority),
            Stealing::Furthest => -f64::from(v.position.map_or(0.0, |p| distance(p, listener))),
        }
    };
    if stealing == Stealing::Strict {
        return None;
    }
    // Lowest score; the oldest among equals.
    candidates
        .min_by(|(_, a), (_, b)| score(a).total_cmp(&score(b)).then(a.order.cmp(&b.order)))
        .map(|(key, _)| key)
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

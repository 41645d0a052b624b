//! A registered sound and its copy slots; the kira sounds that are fading out;
//! and the one way a voice ends.
//!
//! Copy index `i` of a sound has a budget: `volume(i)` times the sound's peak. A
//! copy that plays there stays inside it (the pan law compensated, see
//! `SoundPeak::pan_gain`). When a copy at `i` ends while still audible (stopped,
//! stolen, recycled), its kira sound fades out and is remembered as the index's
//! *outgoing* sound. The next copy at `i` starts only once the outgoing one has
//! faded out (it is re-stopped with the steal fade, and the new copy is delayed by
//! that fade plus one kira chunk), so the two never sum above the budget, however
//! many recycles happen in one frame. Indices with nothing audible are used first,
//! so a delay is only paid when the sound has no clean index left.

use std::time::Duration;

use arrayvec::ArrayVec;
use kira::sound::PlaybackState;
use kira::sound::static_sound::{StaticSoundData, StaticSoundHandle};
use kira::{Easing, StartTime, Tween};
use pool_core::{Pool, Strict};

use crate::attenuation::{CopyVolumes, MAX_VOICES_PER_SOUND};
use crate::peak::SoundPeak;
use crate::playhead::Timeline;
use crate::settings::SoundSettings;
use crate::voice::{Voice, VoiceKey};

pool_core::new_handle_type! {
    /// A kira sound fading out, in the fading pool.
    pub(crate) struct FadingKey;
}

/// A kira sound that no voice owns any more (stopped, stolen, recycled or ended)
/// but that may still be audible, or still hold a slot on kira's track.
pub(crate) struct Fading {
    pub(crate) kira: Option<StaticSoundHandle>,
    /// The processing pass at which it was first seen stopped.
    pub(crate) seen_stopped: Option<u64>,
    /// The copy index's previous outgoing sound, if it was still audible when
    /// this one was stopped (this one may have been stopped before it started).
    pub(crate) before: Option<FadingKey>,
}

impl Fading {
    pub(crate) fn idle() -> Self {
        Self {
            kira: None,
            seen_stopped: None,
            before: None,
        }
    }
}

pub(crate) type FadingPool = Pool<Fading, Strict, FadingKey>;

/// One copy index of a sound.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CopySlot {
    /// The voice playing here.
    pub(crate) voice: Option<VoiceKey>,
    /// The last kira sound that played here and was stopped.
    pub(crate) outgoing: Option<FadingKey>,
}

/// `true` while an outgoing kira sound, or one before it at the same index, may
/// still be heard. Every sound in the chain was re-stopped with the steal fade when
/// the next copy was placed, so the chain is short; a sound forgotten by the pool
/// (its key stale) has long been silent.
pub(crate) fn audible(fading: &FadingPool, outgoing: Option<FadingKey>) -> bool {
    let mut next = outgoing;
    for _ in 0..MAX_CHAIN {
        let Some(sound) = next.and_then(|key| fading.get(key)) else {
            return false;
        };
        if sound
            .kira
            .as_ref()
            .is_some_and(|kira| kira.state() != PlaybackState::Stopped)
        {
            return true;
        }
        next = sound.before;
    }
    // Longer than any chain the steal fade allows: count it as audible.
    true
}

/// The longest chain of outgoing sounds `audible` follows.
const MAX_CHAIN: usize = 64;

/// A sound added to the manager.
pub(crate) struct Sound {
    pub(crate) name: String,
    pub(crate) data: StaticSoundData,
    pub(crate) settings: SoundSettings,
    pub(crate) peak: SoundPeak,
    pub(crate) volumes: CopyVolumes,
    pub(crate) min_retrigger: u64,
    pub(crate) copies: ArrayVec<CopySlot, { MAX_VOICES_PER_SOUND as usize }>,
    /// Game time (microseconds), update count and place of the latest plays,
    /// newest last: one without a retrigger radius, up to `RECENT_PLAYS` with one.
    pub(crate) recent: ArrayVec<RecentPlay, RECENT_PLAYS>,
    /// Where its voices are in time (see `playhead.rs`).
    pub(crate) timeline: Timeline,
    /// The audibility floor as an amplitude (0 for a floor of -infinity).
    pub(crate) floor: f32,
}

/// A play remembered for the retrigger interval.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RecentPlay {
    pub(crate) micros: u64,
    pub(crate) frame: u64,
    pub(crate) position: [f32; 3],
}

/// Plays remembered per sound with a retrigger radius: a play is held back by any
/// of them within the radius and the interval. Beyond 16 places at once in one
/// interval, the oldest is forgotten (and may let one more play through).
pub(crate) const RECENT_PLAYS: usize = 16;

/// Where a new copy goes.
pub(crate) enum Placement {
    /// A copy index with no voice; `after` is its outgoing sound, still audible.
    Free {
        copy: usize,
        after: Option<FadingKey>,
    },
    /// Every index is busy: the oldest copy gives way.
    Recycle { copy: usize, victim: VoiceKey },
}

impl Sound {
    /// The lowest index with nothing audible; else the lowest index with no voice
    /// (its outgoing sound must fade first); else the oldest copy, by `order`
    /// (the start order of a live voice).
    pub(crate) fn place(
        &self,
        fading: &FadingPool,
        order: impl Fn(VoiceKey) -> Option<u64>,
    ) -> Option<Placement> {
        let mut fading_free = None;
        for (copy, slot) in self.copies.iter().enumerate() {
            if slot.voice.is_none() {
                if !audible(fading, slot.outgoing) {
                    return Some(Placement::Free { copy, after: None });
                }
                fading_free.get_or_insert(Placement::Free {
                    copy,
                    after: slot.outgoing,
                });
            }
        }
        fading_free.or_else(|| {
            self.copies
                .iter()
                .enumerate()
                .filter_map(|(copy, slot)| Some((copy, slot.voice?)))
                .min_by_key(|(_, voice)| order(*voice).unwrap_or(0))
                .map(|(copy, victim)| Placement::Recycle { copy, victim })
        })
    }
}

/// The parts of the manager an ending voice touches, borrowed apart from the
/// voice pool.
pub(crate) struct Retire<'a> {
    pub(crate) sounds: &'a mut [Sound],
    pub(crate) fading: &'a mut FadingPool,
    /// The real voices (those with a kira sound).
    pub(crate) real: &'a mut Vec<VoiceKey>,
}

impl Retire<'_> {
    /// Ends `voice` (known as `key`) as a real voice: its kira sound is stopped
    /// with `fade` (or has stopped by itself: `None`) and counted as fading until
    /// kira lets it go, and its copy index
    /// is freed with the sound as the index's outgoing one. The caller gives the
    /// voice back to the pool, keeps it as a virtual voice, or reuses it. A virtual
    /// voice has nothing to end here.
    pub(crate) fn voice(&mut self, key: VoiceKey, voice: &mut Voice, fade: Option<Tween>) {
        let slot = self
            .sounds
            .get(voice.sound as usize)
            .and_then(|s| s.copies.get(usize::from(voice.copy)))
            .filter(|slot| slot.voice == Some(key));
        let before = slot
            .and_then(|slot| slot.outgoing)
            .filter(|previous| audible(self.fading, Some(*previous)));
        let mut outgoing = before;
        if let Some(mut kira) = voice.kira.take() {
            if let Some(at) = self.real.iter().position(|k| *k == key) {
                self.real.swap_remove(at);
            }
            if let Some(fade) = fade {
                kira.stop(fade);
            }
            // The fading pool holds every kira sound the track may still count:
            // the capacity check in `play` keeps it from filling up.
            if let Ok((fading_key, fading)) = self.fading.try_acquire_mut() {
                fading.kira = Some(kira);
                fading.seen_stopped = None;
                fading.before = before;
                outgoing = Some(fading_key);
            }
        }
        if let Some(slot) = self
            .sounds
            .get_mut(voice.sound as usize)
            .and_then(|s| s.copies.get_mut(usize::from(voice.copy)))
            && slot.voice == Some(key)
        {
            slot.voice = None;
            slot.outgoing = outgoing;
        }
    }
}

/// A linear fade (linear in decibels, as kira fades) starting now.
pub(crate) fn linear(duration: Duration) -> Tween {
    Tween {
        start_time: StartTime::Immediate,
        duration,
        easing: Easing::Linear,
    }
}

//! A voice's record: one playing copy of a sound, real or virtual, pooled
//! (created when the manager starts, reused forever), and the policy that gives a
//! record up when every one is taken.

use pool_core::{ExhaustionPolicy, Key, LiveObjects};

use crate::audibility::{Distances, Rank, attenuation, compare, heard_priority};
use crate::cues::VoiceCues;
use crate::params::PlayParams;
use crate::variations::Variation;

/// Where a voice plays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Place {
    /// Mixed by the voice bank on `slot`, as the slot's voice `ticket`.
    Real { slot: u32, ticket: u32 },
    /// Not mixed: only its playhead runs on.
    Virtual(Playhead),
}

/// What a voice waits for before it begins: its play's start time, as the
/// game side follows it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum StartWait {
    /// It has begun (or begins at once).
    Begun,
    /// This many seconds of game time more.
    Seconds(f64),
    /// A kira clock's time: over once the mixer says the voice plays (a
    /// virtual voice waits for it until it is real).
    Clock(kira::clock::ClockTime),
}

impl StartWait {
    pub(crate) fn of(start_time: kira::StartTime) -> Self {
        match start_time {
            kira::StartTime::Immediate => Self::Begun,
            kira::StartTime::Delayed(delay) if delay.is_zero() => Self::Begun,
            kira::StartTime::Delayed(delay) => Self::Seconds(delay.as_secs_f64()),
            kira::StartTime::ClockTime(time) => Self::Clock(time),
        }
    }

    /// The start time the mixer is told for what is left of the wait.
    pub(crate) fn start_time(self) -> kira::StartTime {
        match self {
            Self::Begun => kira::StartTime::Immediate,
            Self::Seconds(left) => {
                kira::StartTime::Delayed(std::time::Duration::from_secs_f64(left))
            }
            Self::Clock(time) => kira::StartTime::ClockTime(time),
        }
    }

    /// `seconds` of game time pass: the part of them after the wait, the
    /// time its playhead moves.
    pub(crate) fn pass(&mut self, seconds: f64) -> f64 {
        match *self {
            Self::Begun => seconds,
            Self::Clock(_) => 0.0,
            Self::Seconds(left) if left > seconds => {
                *self = Self::Seconds(left - seconds);
                0.0
            }
            Self::Seconds(left) => {
                *self = Self::Begun;
                seconds - left
            }
        }
    }
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
pub(crate) struct VoiceRecord {
    pub(crate) sound: u32,
    pub(crate) place: Place,
    /// The play's own volume, in `[0, 1]`.
    pub(crate) play_volume: f64,
    pub(crate) playback_rate: f64,
    pub(crate) panning: f32,
    pub(crate) spatial_blend: f32,
    /// Its sound's priority at the listener and the offset at the maximum
    /// distance (see [`heard_priority`]).
    pub(crate) priority: (i32, i32),
    /// Which of its sound's recordings it plays.
    pub(crate) recording: u16,
    /// What its play's variation drew, applied to every later volume and
    /// rate it is given.
    pub(crate) variation: Variation,
    pub(crate) position: Option<[f32; 3]>,
    /// How it fades with distance.
    pub(crate) distances: Distances,
    /// Who plays it (see `PlayParams::owner`).
    pub(crate) owner: Option<u64>,
    /// Start order, to find a sound's oldest copy.
    pub(crate) order: u64,
    /// Paused by the game.
    pub(crate) paused: bool,
    /// Its level before distance: the sound's first-copy volume times the play's
    /// volume (see `audibility.rs`).
    pub(crate) reference: f32,
    /// Its priority and audibility, as of the last play or update.
    pub(crate) rank: Rank,
    /// Its loudness in the window as an amplitude, relative to the window's
    /// floor (1 outside a window; see `mix/window.rs`).
    pub(crate) loudness: f32,
    /// Its loudness in dB, if it plays in the loudness window.
    pub(crate) window_db: Option<f64>,
    /// Its velocity, doppler, obstruction and occlusion.
    pub(crate) cues: VoiceCues,
    /// What it waits for before it begins.
    pub(crate) wait: StartWait,
    /// Its sends' levels (dB), in its sound's order of sends: what the game
    /// set last, which a voice made real again resumes at.
    pub(crate) send_levels: [f32; crate::MAX_SENDS],
    /// What its sound's curves give at its game parameters' values (see
    /// `game.rs`): on top of the play's volume and rate, its muffle's
    /// cutoff and its sends' levels.
    pub(crate) curve: crate::game::CurveOutput,
    /// Why it is virtual, while it is.
    pub(crate) why: Option<crate::voice_info::WhyVirtual>,
    /// The game parameters it has a value of its own of.
    pub(crate) own:
        [Option<(crate::game::GameParamId, crate::game::Follow)>; crate::game::MAX_OWN_VALUES],
}

impl VoiceRecord {
    /// Its volume as the mixer plays it: the play's, through its curves.
    pub(crate) fn volume(&self) -> f64 {
        self.play_volume * self.curve.gain
    }

    /// What its sound's curves (of `settings`) give at its game
    /// parameters' values: its own where it has one, else the game's.
    pub(crate) fn curve_output(
        &self,
        settings: &crate::SoundSettings,
        params: &crate::game::GameParams,
    ) -> crate::game::CurveOutput {
        let value = |id| {
            (self.own.iter().flatten())
                .find(|(o, _)| *o == id)
                .map_or_else(|| params.global(id), |(_, f)| f.value)
        };
        settings.curves.outputs(value, &settings.sends)
    }

    /// Its muffle as the mixer plays it: obstruction and occlusion's volume,
    /// and the lowest of their cutoff and its curves'.
    pub(crate) fn muffle(&self) -> (f32, Option<f32>) {
        let muffled = self.cues.muffled;
        let cutoff = match (muffled.cutoff, self.curve.cutoff) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        (muffled.gain, cutoff)
    }

    /// The level of its send `index` as the mixer plays it: the game's,
    /// through its curves, within `MIN_MIX..=MAX_MIX`.
    pub(crate) fn send_level(&self, index: usize) -> kira::Decibels {
        let level = self.send_levels[index] + self.curve.sends[index];
        kira::Decibels(level.clamp(crate::MIN_MIX.0, crate::MAX_MIX.0))
    }

    /// Its rate as the mixer plays it: the play's, through its curves.
    pub(crate) fn rate(&self) -> f64 {
        (self.playback_rate * self.curve.rate)
            .clamp(crate::MIN_PLAYBACK_RATE, crate::MAX_PLAYBACK_RATE)
    }

    /// `dt` seconds of game time pass: the part of them its playhead moves
    /// (none while paused or waiting for its start time).
    pub(crate) fn passed(&mut self, dt: f64) -> f64 {
        if self.paused { 0.0 } else { self.wait.pass(dt) }
    }

    pub(crate) fn idle() -> Self {
        Self {
            sound: 0,
            place: Place::Virtual(Playhead::At(0.0)),
            play_volume: 0.0,
            playback_rate: 1.0,
            panning: 0.0,
            spatial_blend: 1.0,
            priority: (0, 0),
            recording: 0,
            variation: Variation::NONE,
            position: None,
            distances: Distances::default(),
            owner: None,
            order: 0,
            paused: false,
            reference: 0.0,
            rank: Rank::SILENT,
            loudness: 1.0,
            window_db: None,
            cues: VoiceCues::NONE,
            wait: StartWait::Begun,
            send_levels: [0.0; crate::MAX_SENDS],
            curve: crate::game::CurveOutput::NONE,
            own: [None; crate::game::MAX_OWN_VALUES],
            why: None,
        }
    }

    /// The record of a new play of sound `sound` (its table index) with
    /// `params` (varied) of recording `recording`, its sound's `priority` and
    /// distance offset, ranked `rank`: `reference` is its level before distance (see
    /// [`SoundEntry::reference`](crate::sound_table::SoundEntry::reference)),
    /// `order` its place in the start order, `place` where it plays.
    pub(crate) fn new(
        (sound, recording): (u32, u16),
        params: &PlayParams,
        priority: (i32, i32),
        rank: Rank,
        reference: f32,
        order: u64,
        place: Place,
    ) -> Self {
        Self {
            sound,
            place,
            play_volume: crate::level::amplitude_of(params.volume),
            playback_rate: params.playback_rate,
            panning: params.panning,
            spatial_blend: params.spatial_blend,
            priority,
            recording,
            variation: Variation::NONE,
            position: params.position.map(Into::into),
            // The play's, or its sound's: set by the play.
            distances: Distances::default(),
            owner: params.owner,
            order,
            paused: false,
            reference,
            rank,
            loudness: 1.0,
            window_db: None,
            cues: VoiceCues::NONE,
            wait: StartWait::Begun,
            // Its sound's: set by the play.
            send_levels: [0.0; crate::MAX_SENDS],
            curve: crate::game::CurveOutput::NONE,
            own: [None; crate::game::MAX_OWN_VALUES],
            why: None,
        }
    }

    /// Its priority and audibility heard from `listener` (see
    /// `audibility.rs`), and its distance attenuation there.
    #[inline]
    pub(crate) fn heard_from(&self, listener: [f32; 3]) -> (Rank, f32) {
        let blend = (self.spatial_blend, &self.distances);
        let gain = attenuation(self.position, blend, listener) * self.cues.muffled.audibility;
        let blend = (self.spatial_blend, self.distances.max);
        let priority = heard_priority(self.priority, self.position, blend, listener);
        (Rank::heard(priority, self.reference, gain), gain)
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

/// The least audible of `voices` (a paused one first), if any.
pub(crate) fn least_audible<'a, K>(
    voices: impl Iterator<Item = (K, &'a VoiceRecord)>,
) -> Option<K> {
    voices
        .min_by(|(_, a), (_, b)| compare(a.holding_rank(), b.holding_rank()))
        .map(|(key, _)| key)
}

/// The voice pool's exhaustion policy: when every record is taken (the virtual
/// voices are all in use), the least audible virtual voice gives its record up.
/// Real voices are never chosen here: the voice cap is enforced before a record
/// is asked for.
pub(crate) struct DropLeastAudible;

impl ExhaustionPolicy<VoiceRecord> for DropLeastAudible {
    fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, VoiceRecord, K>) -> Option<K> {
        least_audible(live.iter().filter(|(_, v)| !v.is_real()))
    }
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
        PoolTest::new(VoiceRecord::idle)
            .mutate(|voice, value| {
                voice.rank = Rank {
                    priority: (value % 3) as i32,
                    level: (value / 3 % 11) as f32 / 10.0,
                };
                voice.paused = value % 7 == 0;
            })
            .on_release(|voice| *voice = VoiceRecord::idle())
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

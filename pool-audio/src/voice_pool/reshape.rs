//! A changed sound's voices (a bank's reload, see `sound_effects/reload.rs`):
//! each keeps its place in the sound's ranges and its parameters' values, and
//! a real one glides to its new volume and rate.

use kira::Tween;

use super::{Place, Voices};
use crate::bank::Command;
use crate::game::GameParams;
use crate::level::{amplitude, decibels, kira_volume};
use crate::settings::SoundSettings;
use crate::sound_table::SoundEntry;
use crate::variations::{Variation, semitones};

impl Voices {
    /// How many commands [`reshape`](Self::reshape) may send for the voices
    /// of sound `sound` (its table index).
    pub(crate) fn reshape_commands(&self, sound: u32) -> usize {
        1 + 2 * self.count_real(|record| record.sound == sound)
    }

    /// The voices of `entry`'s sound, whose settings were `was`, take its
    /// new settings: the same place in its volume and pitch ranges, its
    /// curves at their parameters' values, its new budget; a real one glides
    /// there over `fade`. The caller made room for
    /// [`reshape_commands`](Self::reshape_commands).
    pub(crate) fn reshape(
        &mut self,
        entry: &SoundEntry,
        was: &SoundSettings,
        params: &GameParams,
        fade: Tween,
    ) {
        let now = &entry.settings;
        let index = entry.id.index;
        for (_, record) in self.records.iter_mut() {
            if record.sound != index {
                continue;
            }
            let (volume, rate) = (record.volume(), record.rate());
            let varied = Variation {
                gain: moved(record.variation.gain, was.volume_range, now.volume_range),
                shift: shifted(
                    record.variation.shift,
                    was.pitch_semitones,
                    now.pitch_semitones,
                ),
            };
            record.play_volume *= varied.gain / record.variation.gain;
            record.playback_rate *= varied.shift / record.variation.shift;
            record.variation = varied;
            record.curve = record.curve_output(now, params);
            if usize::from(record.recording) >= entry.recordings() {
                record.recording = 0;
            }
            record.priority.0 = now.priority;
            record.reference = entry.reference(record.volume());
            let Place::Real { slot, ticket } = record.place else {
                continue;
            };
            if (record.volume() - volume).abs() > f64::EPSILON {
                let volume = kira_volume(record.volume());
                let _ = (self.bank).send(Command::SetVolume {
                    slot,
                    ticket,
                    volume,
                    fade,
                });
            }
            if (record.rate() - rate).abs() > f64::EPSILON {
                let rate = record.rate();
                let _ = (self.bank).send(Command::SetPlaybackRate {
                    slot,
                    ticket,
                    rate,
                    fade,
                });
            }
        }
        if let Some(recording) = entry.recording(0) {
            let _ = self.bank.send(Command::SetBudget {
                sound: entry.id.bank_key(),
                budget: recording.source.budget,
                fade: fade.duration,
            });
        }
    }
}

/// The place of `value` (a fraction of the way from its low end to its
/// high) in `from`, at the same place in `to`: the middle for a range of
/// no width.
fn place_in((low, high): (f64, f64), value: f64, (to_low, to_high): (f64, f64)) -> f64 {
    let fraction = if high > low {
        ((value - low) / (high - low)).clamp(0.0, 1.0)
    } else {
        0.5
    };
    to_low + (to_high - to_low) * fraction
}

/// A drawn gain from the volume range `from`, moved to `to`.
fn moved(
    gain: f64,
    from: (kira::Decibels, kira::Decibels),
    to: (kira::Decibels, kira::Decibels),
) -> f64 {
    let db = |(a, b): (kira::Decibels, kira::Decibels)| (f64::from(a.0), f64::from(b.0));
    if db(to) == (0.0, 0.0) {
        return 1.0;
    }
    amplitude(place_in(db(from), decibels(gain), db(to)))
}

/// A drawn rate factor from the pitch range `from` (semitones), moved to `to`.
fn shifted(shift: f64, from: (f64, f64), to: (f64, f64)) -> f64 {
    if to == (0.0, 0.0) {
        return 1.0;
    }
    semitones(place_in(from, 12.0 * shift.log2(), to))
}

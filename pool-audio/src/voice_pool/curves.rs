//! Game parameters' curves on the voices (see `game.rs`): each update, every
//! live voice of a sound with curves gets the curves' gain and rate factor
//! at its parameters' values (its own, or the game's), and a real one whose
//! gain or rate moved is told, gliding over the update.

use kira::Tween;

use super::{Place, Voices};
use crate::bank::Command;
use crate::game::GameParams;
use crate::level::kira_volume;
use crate::sound_table::SoundTable;

/// A change of gain or rate smaller than this is not sent.
const STILL: f64 = 1e-6;

impl Voices {
    /// Follows the curves `dt` seconds on, every real voice's change gliding
    /// over `glide`: every voice of a sound with curves if `all` (the game's
    /// values moved, or changes were left behind), else only those whose own
    /// values moved. Returns how many changes had no room in the queue (a
    /// later update sends them).
    pub(crate) fn follow_curves(
        &mut self,
        sounds: &SoundTable,
        params: &GameParams,
        (dt, all): (f64, bool),
        glide: Tween,
    ) -> u64 {
        let mut deferred = 0;
        for (_, record) in self.records.iter_mut() {
            let Some(entry) = sounds.entry(record.sound) else {
                continue;
            };
            if entry.settings.curves.is_empty() {
                continue;
            }
            let mut own_moved = false;
            for (id, own) in record.own.iter_mut().flatten() {
                if let Ok(settings) = params.settings(*id) {
                    own_moved |= own.advance(settings, dt);
                }
            }
            if !all && !own_moved {
                continue;
            }
            let now = record.curve_output(&entry.settings, params);
            if now.same(&record.curve) {
                continue;
            }
            let real = matches!(record.place, Place::Real { .. });
            if real && self.bank.room() < 3 + crate::MAX_SENDS {
                deferred += 1;
                continue;
            }
            let was = std::mem::replace(&mut record.curve, now);
            record.reference = entry.reference(record.volume());
            if let Place::Real { slot, ticket } = record.place {
                tell(&mut self.bank, record, &was, (slot, ticket), glide);
            }
        }
        deferred
    }
}

/// Tells the mixer what of `record`'s curves' output moved from `was`, on
/// `slot` as `ticket`: its volume and rate gliding over `glide`, its
/// muffle's cutoff, its sends' levels.
fn tell(
    bank: &mut crate::bank::BankHandle,
    record: &super::VoiceRecord,
    was: &crate::game::CurveOutput,
    (slot, ticket): (u32, u32),
    glide: Tween,
) {
    let now = &record.curve;
    let commands = [
        ((now.gain - was.gain).abs() >= STILL).then(|| Command::SetVolume {
            slot,
            ticket,
            volume: kira_volume(record.volume()),
            fade: glide,
        }),
        ((now.rate - was.rate).abs() >= STILL).then(|| Command::SetPlaybackRate {
            slot,
            ticket,
            rate: record.rate(),
            fade: glide,
        }),
        (now.cutoff != was.cutoff).then(|| {
            let (gain, cutoff) = record.muffle();
            Command::SetMuffle {
                slot,
                ticket,
                gain,
                cutoff,
            }
        }),
    ];
    for command in commands.into_iter().flatten() {
        let _ = bank.send(command);
    }
    for index in 0..crate::MAX_SENDS {
        if now.sends[index] != was.sends[index] {
            let _ = bank.send(Command::SetSend {
                slot,
                ticket,
                index: index as u8,
                level: record.send_level(index),
                tween: glide,
            });
        }
    }
}

//! The update's pass over every voice: real voices the mixer reports over go
//! back to the pool, real voices that fell under their sound's audibility floor
//! go virtual, virtual playheads run on by the game's time step (a one-shot
//! whose time is up ends), every voice is ranked again, and the virtual voices
//! that could become real are listed.

use kira::Tween;

use super::{Place, Playhead, Slots, StartWait, VoiceRecord, Voices};
use crate::audibility::Rank;
use crate::bank::{BankHandle, Command, Phase};
use crate::cues::Motion;
use crate::handles::{EndReason, VoiceKey};
use crate::mix_core::WindowNow;
use crate::sound_table::SoundTable;

use super::reports::Reports;

/// A virtual voice that may become real: its rank, key and sound.
pub(crate) type Promotable = (Rank, VoiceKey, u32);

/// What one pass did.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Advanced {
    /// Virtual one-shots that ended.
    pub(crate) ended: u64,
    /// Real voices sent virtual under their floor.
    pub(crate) virtualized: u64,
    /// Of those, the ones put off because the queue was full.
    pub(crate) deferred: u64,
    /// Real voices of sounds that kill, ended below the loudness window.
    pub(crate) ended_below: u64,
    /// The loudest voice in the loudness window, paused or not, as heard
    /// (its loudness and its distance attenuation), an amplitude relative to
    /// the window's floor (0 for none).
    pub(crate) loudest: f32,
    /// The loudest voice in the window that played to its end since the last
    /// pass, as heard (as `loudest`), and how long ago it ended in the audio
    /// (seconds); 0 and 0 for none.
    pub(crate) ended_loudest: (f32, f64),
}

/// The parts of the voices a pass touches beside the records.
struct Pass<'a> {
    slots: &'a mut Slots,
    bank: &'a mut BankHandle,
    reports: &'a mut Reports,
    sounds: &'a mut SoundTable,
    candidates: &'a mut Vec<Promotable>,
    ends: &'a mut Vec<(u32, f64)>,
    /// Room left in the queue for voices going virtual.
    room: usize,
    listener: [f32; 3],
    /// The loudness window (read only when it is on: see `voice`).
    window: WindowNow,
    fade: Tween,
    dt: f64,
    /// Faster than this (m/s), a move is a teleport (see `cues.rs`).
    teleport: f32,
    done: Advanced,
}

impl Voices {
    /// One pass over every voice (see the module's docs) heard from `listener`
    /// in `window` (if on), `dt` seconds after the last; voices going virtual
    /// fade out with `fade`. A voice with doppler whose velocity is derived
    /// gets the velocity of its move (unless faster than `teleport`).
    /// Then the slots whose fades the mixer finished are free again (a leaving
    /// voice's slot is reused only once its playhead is known), and removed
    /// sounds the mixer can no longer hold are dropped.
    pub(crate) fn advance(
        &mut self,
        dt: f64,
        (listener, window): ([f32; 3], Option<WindowNow>),
        (fade, teleport): (Tween, f32),
        sounds: &mut SoundTable,
    ) -> Advanced {
        self.candidates.clear();
        self.ends.clear();
        let mut pass = Pass {
            room: self.bank.room(),
            slots: &mut self.slots,
            bank: &mut self.bank,
            reports: &mut self.reports,
            sounds,
            candidates: &mut self.candidates,
            ends: &mut self.ends,
            listener,
            window: window.unwrap_or(WindowNow::OFF),
            fade,
            dt,
            teleport,
            done: Advanced {
                ended: 0,
                virtualized: 0,
                deferred: 0,
                ended_below: 0,
                loudest: 0.0,
                ended_loudest: (0.0, 0.0),
            },
        };
        // Without a window the pass is compiled without its checks.
        if window.is_some() {
            self.records
                .reclaim(|key, record| pass.voice::<true>(key, record));
        } else {
            self.records
                .reclaim(|key, record| pass.voice::<false>(key, record));
        }
        let done = pass.done;
        self.slots.sweep(self.bank.shared());
        self.let_go();
        done
    }

    /// The candidates the last [`advance`](Self::advance) listed, taken out
    /// (give them back with [`restore_candidates`](Self::restore_candidates)).
    pub(crate) fn take_candidates(&mut self) -> Vec<Promotable> {
        std::mem::take(&mut self.candidates)
    }

    pub(crate) fn restore_candidates(&mut self, candidates: Vec<Promotable>) {
        self.candidates = candidates;
    }

    /// The real voices the last [`advance`](Self::advance) found played to
    /// their end: their group (`u32::MAX` for none) and how long ago, in
    /// audio seconds, each ended.
    pub(crate) fn ends(&self) -> &[(u32, f64)] {
        &self.ends
    }
}

impl Pass<'_> {
    /// One voice; `true` if it ended (its record goes back to the pool).
    /// `WINDOW`: the loudness window is on.
    #[inline]
    fn voice<const WINDOW: bool>(&mut self, key: VoiceKey, record: &mut VoiceRecord) -> bool {
        let Some(sound) = self.sounds.entry(record.sound) else {
            // A removed sound's records are released with it.
            debug_assert!(false, "a live voice of a removed sound");
            return false;
        };
        let Some(timeline) = sound.recording(record.recording).map(|r| r.timeline) else {
            debug_assert!(false, "a voice of a recording its sound does not have");
            return false;
        };
        let floor = sound.floor;
        let (virtualizes, id) = (sound.settings.virtualization.virtualizes(), sound.id);
        if record.cues.doppler != 0.0 {
            self.derive_velocity(record);
        }
        let (rank, gain) = record.heard_from(self.listener);
        record.rank = rank;
        if let Place::Real { slot, ticket } = record.place
            && self.played_out(slot, ticket)
        {
            // It played to its end: no longer counted in the window.
            self.finished((key, id), record, slot, WINDOW.then_some(gain));
            return true;
        }
        let below = WINDOW && self.weigh_in_window(record, gain);
        match record.place {
            Place::Real { slot, ticket } => {
                self.follow_wait(record, slot, ticket);
                if below {
                    // Out of the window: virtual, or over if its sound kills.
                    if record.paused {
                        return false;
                    }
                    if virtualizes {
                        self.under_floor(key, record);
                    } else if self.room > 0 {
                        self.end_below(key, record, id);
                        return true;
                    }
                } else if record.rank.level < floor && !record.paused && virtualizes {
                    self.under_floor(key, record);
                }
                false
            }
            Place::Virtual(playhead) => {
                let seconds = record.passed(self.dt);
                let next = match playhead {
                    Playhead::At(at) => timeline.advance(at, seconds, record.rate()),
                    Playhead::Awaiting {
                        slot,
                        ticket,
                        elapsed,
                    } => match self.stopped_at(slot, ticket) {
                        // Where the mixer stopped it, and on by the game time since.
                        Some(at) => timeline.advance(at, elapsed + seconds, record.rate()),
                        None => {
                            record.place = Place::Virtual(Playhead::Awaiting {
                                slot,
                                ticket,
                                elapsed: elapsed + seconds,
                            });
                            return false;
                        }
                    },
                };
                let Some(at) = next else {
                    self.done.ended += 1;
                    self.reports.push(key, id, EndReason::Finished);
                    return true;
                };
                record.place = Place::Virtual(Playhead::At(at));
                if !record.paused && !below && record.rank.level >= floor && record.rank.level > 0.0
                {
                    self.candidates.push((record.rank, key, record.sound));
                }
                false
            }
        }
    }

    /// A real voice (`ticket` on `slot`) waits on for its start time: a
    /// frame of its delay passes, or the mixer has seen its clock's time.
    fn follow_wait(&self, record: &mut VoiceRecord, slot: u32, ticket: u32) {
        record.passed(self.dt);
        if matches!(record.wait, StartWait::Clock(_)) && self.begun(slot, ticket) {
            record.wait = StartWait::Begun;
        }
    }

    /// The voice `ticket` on `slot` no longer waits for its start time (the
    /// mixer says so).
    fn begun(&self, slot: u32, ticket: u32) -> bool {
        let status = self.bank.status(slot);
        status.ticket == ticket
            && !matches!(status.phase, Phase::Queued | Phase::Waiting | Phase::Paused)
    }

    /// The voice `ticket` on `slot` played to its end (the mixer says so).
    fn played_out(&self, slot: u32, ticket: u32) -> bool {
        let status = self.bank.status(slot);
        status.ticket == ticket && status.phase == Phase::Done
    }

    /// The real voice `key` (of sound `id`, on `slot`) played to its end:
    /// retired, and when it ended in the audio kept for the mix (for the
    /// loudness window, through a distance attenuation of `gain`).
    fn finished(
        &mut self,
        (key, id): (VoiceKey, crate::SoundId),
        record: &VoiceRecord,
        slot: u32,
        gain: Option<f32>,
    ) {
        let ago = self.bank.shared().ended_ago(slot);
        let group = self
            .sounds
            .entry(record.sound)
            .and_then(|sound| sound.settings.group)
            .map_or(u32::MAX, |g| g.index);
        Voices::retire(self.slots, self.bank, self.sounds, key, record, None);
        self.reports.push(key, id, EndReason::Finished);
        // At most one end per slot between two passes: no allocation.
        if self.ends.len() < self.ends.capacity() {
            self.ends.push((group, ago));
        }
        if let Some(gain) = gain.filter(|_| record.window_db.is_some()) {
            let heard = record.loudness * gain;
            if heard > self.done.ended_loudest.0 {
                self.done.ended_loudest = (heard, ago);
            }
        }
    }

    /// A voice with doppler: its velocity from its move since the last
    /// update (unless the game gives it), sent to the mixer if it changed
    /// and the voice is real (if the queue is full, it is tried again at
    /// the next update).
    #[cold]
    fn derive_velocity(&mut self, record: &mut VoiceRecord) {
        let Some(position) = record.position else {
            return;
        };
        let motion = record.cues.motion;
        if !record.cues.motion.step(position, self.dt, self.teleport) {
            return;
        }
        let velocity = record.cues.motion.velocity;
        if let Place::Real { slot, ticket } = record.place {
            let command = Command::SetVelocity {
                slot,
                ticket,
                velocity,
            };
            if self.room > 0 && self.bank.send(command).is_ok() {
                self.room -= 1;
            } else {
                record.cues.motion = Motion {
                    was_at: Some(position),
                    ..motion
                };
            }
        }
    }

    /// A voice in the loudness window, heard through a distance attenuation
    /// of `gain`: its rank weighed by the window's gain, the loudest voice
    /// counted; `true` if it is out of the window. Amplitudes relative to the
    /// window's floor: one multiplication and two comparisons.
    #[inline]
    fn weigh_in_window(&mut self, record: &mut VoiceRecord, gain: f32) -> bool {
        if record.window_db.is_none() {
            return false;
        }
        let heard = record.loudness * gain;
        record.rank.level *= self.window.scale * record.loudness;
        // A paused voice keeps its place: resumed, it is heard against a top
        // that still counts it.
        if heard > self.done.loudest {
            self.done.loudest = heard;
        }
        heard < self.window.bottom_gain
    }

    /// A real voice out of the loudness window whose sound does not
    /// virtualize ends with the fade (the queue has room for its stop).
    fn end_below(&mut self, key: VoiceKey, record: &mut VoiceRecord, id: crate::SoundId) {
        self.room -= 1;
        let fade = Some(self.fade);
        Voices::retire(self.slots, self.bank, self.sounds, key, record, fade);
        self.reports.push(key, id, EndReason::Stolen);
        self.done.ended_below += 1;
    }

    /// A real virtualizing voice under its floor goes virtual, if the queue has
    /// room for its stop.
    fn under_floor(&mut self, key: VoiceKey, record: &mut VoiceRecord) {
        if self.room == 0 {
            self.done.deferred += 1;
            return;
        }
        self.room -= 1;
        record.why = Some(crate::voice_info::WhyVirtual::Inaudible);
        (self.reports).moved(key, Some(crate::voice_info::WhyVirtual::Inaudible));
        Voices::send_virtual(self.slots, self.bank, self.sounds, key, record, self.fade);
        self.done.virtualized += 1;
    }

    /// Where the mixer stopped the voice `ticket` on `slot`, once it says so.
    fn stopped_at(&self, slot: u32, ticket: u32) -> Option<f64> {
        let status = self.bank.status(slot);
        let stopped =
            status.ticket == ticket && matches!(status.phase, Phase::Stopping | Phase::Done);
        stopped.then(|| self.bank.shared().stopped_at(slot))
    }
}

//! The capture under way (see `capture.rs`): what each call and decision
//! adds to it.

use super::SoundEffects;
use crate::capture::{Capture, Event, Recorder, VoiceNumber, What};
use crate::handles::VoiceKey;
use crate::{PlayError, PlayParams, Played, SoundId, VoiceHandle};

impl SoundEffects {
    /// Starts a capture of the session (see [`capture`](crate::capture)),
    /// with room for `events` events, made now: recording allocates nothing
    /// after this call, and past `events` it counts what it drops. A capture
    /// under way is replaced.
    pub fn start_capture(&mut self, events: usize) {
        self.capture = Some(Box::new(Recorder::new(events)));
        self.voices.log_moves(true);
    }

    /// Stops the capture and returns it (`None` if none was under way).
    pub fn stop_capture(&mut self) -> Option<Capture> {
        let recorder = self.capture.take()?;
        self.voices.log_moves(false);
        let names = self.sounds.named().map(|(id, name)| (id, name.to_string()));
        Some(recorder.finish(names.collect()))
    }

    /// The id every id of this manager carries (a replay makes a capture's
    /// ids this manager's).
    pub(crate) fn owner_id(&self) -> u32 {
        self.owner
    }

    /// Sets a switch to `state` (a replay's, its ids this manager's).
    pub(crate) fn set_switch_state(
        &mut self,
        state: crate::sound::SwitchState,
    ) -> Result<(), crate::sound::SwitchError> {
        self.switches.set(state)?;
        self.note(|_| Some(What::Switch(state)));
        Ok(())
    }

    /// Adds `what` to the capture, if one is under way.
    #[inline]
    pub(super) fn note(&mut self, what: impl FnOnce(&Self) -> Option<What>) {
        if self.capture.is_none() {
            return;
        }
        let Some(what) = what(self) else {
            return;
        };
        let event = Event {
            rendered: self.voices.clock(),
            time: self.now.micros as f64 / 1e6,
            what,
        };
        if let Some(capture) = &mut self.capture {
            capture.push(event);
        }
    }

    /// The number of the voice `key` in a capture: its handle's bits.
    pub(super) fn number_of_key(key: VoiceKey) -> VoiceNumber {
        use pool_core::Key;
        VoiceNumber(key.data().as_ffi())
    }

    /// The number of the voice `voice` in a capture.
    pub(super) fn number(voice: VoiceHandle) -> VoiceNumber {
        VoiceNumber(voice.number())
    }

    /// A play and its outcome.
    pub(super) fn note_play(
        &mut self,
        sound: SoundId,
        params: &PlayParams,
        result: &Result<Played, PlayError>,
    ) {
        self.note(|_| {
            let outcome = match result {
                Ok(played) => Ok((Self::number(played.voice), played.state)),
                Err(refusal) => Err(*refusal),
            };
            Some(What::Play {
                sound,
                params: *params,
                outcome,
            })
        });
    }

    /// The voices this update reports ended, each with its reason.
    pub(super) fn note_ended(&mut self) {
        let Some(mut capture) = self.capture.take() else {
            return;
        };
        let (rendered, time) = (self.voices.clock(), self.now.micros as f64 / 1e6);
        for ended in self.ended() {
            capture.push(Event {
                rendered,
                time,
                what: What::Ended {
                    voice: Self::number(ended.voice),
                    reason: ended.reason,
                },
            });
        }
        self.capture = Some(capture);
    }

    /// The voices the manager made real or virtual since the last update,
    /// and the mix, if it changed.
    pub(super) fn note_decisions(&mut self) {
        let Some(mut capture) = self.capture.take() else {
            return;
        };
        let (rendered, time) = (self.voices.clock(), self.now.micros as f64 / 1e6);
        let mut push = |what| {
            capture.push(Event {
                rendered,
                time,
                what,
            })
        };
        let dropped = self.voices.drain_moves(|key, why| {
            let voice = Self::number_of_key(key);
            push(match why {
                None => What::Promoted { voice },
                Some(why) => What::Virtualized { voice, why },
            });
        });
        capture.count_dropped(dropped);
        let stats = self.mix().stats();
        let top = stats.window_top.map(|top| top.0);
        let (last_top, ducks, snapshots) = capture.mix;
        let moved = match (top, last_top) {
            (Some(a), Some(b)) => (a - b).abs() >= 0.5,
            (a, b) => a.is_some() != b.is_some(),
        };
        if moved || ducks != stats.ducks_active || snapshots != stats.snapshots_active {
            capture.mix = (top, stats.ducks_active, stats.snapshots_active);
            capture.push(Event {
                rendered,
                time,
                what: What::Mix {
                    window_top: stats.window_top,
                    ducks: stats.ducks_active,
                    snapshots: stats.snapshots_active,
                },
            });
        }
        self.capture = Some(capture);
    }
}

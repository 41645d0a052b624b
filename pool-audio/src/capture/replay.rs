//! A capture played back into a fresh manager (see `capture.rs`): the same
//! calls, with the same audio rendered between them, give the same samples.

use std::collections::HashMap;
use std::fmt;

use kira::AudioManager;

use super::{Capture, ListenerCall, VoiceCall, VoiceNumber, What};
use crate::game::GameParamId;
use crate::mix::SnapshotId;
use crate::{OfflineBackend, SoundEffects, VoiceHandle};

/// Why a replay stopped.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ReplayError {
    /// The manager has no sound of a name the capture plays.
    UnknownSound(String),
    /// The replay went another way than the session at this event (a play
    /// refused that was not, or the reverse; a call refused): the manager
    /// was not set up as the captured one was.
    Diverged {
        /// The event's place in the capture.
        event: usize,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownSound(name) => write!(f, "the manager has no sound named {name:?}"),
            Self::Diverged { event } => write!(
                f,
                "the replay went another way than the session at event {event}: set the manager up as the captured one was"
            ),
        }
    }
}

impl std::error::Error for ReplayError {}

impl Capture {
    /// Plays the capture back into `sfx`, a fresh manager on `manager`'s
    /// offline backend set up as the captured one was (the same settings and
    /// seed; the same sounds, groups, buses, game parameters and snapshots,
    /// added in the same order): each event's call is made after rendering
    /// the audio up to where the session had rendered, the audio between two
    /// events in one piece. Returns the audio rendered, interleaved stereo.
    /// A session that rendered in one piece between two calls (the showcase,
    /// the Bevy plugin) replays to the same samples, bit for bit.
    ///
    /// # Errors
    /// [`ReplayError::UnknownSound`], [`ReplayError::Diverged`].
    pub fn replay(
        &self,
        sfx: &mut SoundEffects,
        manager: &mut AudioManager<OfflineBackend>,
    ) -> Result<Vec<f32>, ReplayError> {
        let rate = f64::from(manager.backend_mut().sample_rate());
        let mut voices: HashMap<VoiceNumber, VoiceHandle> = HashMap::new();
        let mut audio = Vec::new();
        let mut frames = 0u64;
        for (i, event) in self.events.iter().enumerate() {
            let target = (event.rendered * rate).round() as u64;
            if target > frames {
                let start = audio.len();
                audio.resize(start + 2 * (target - frames) as usize, 0.0);
                manager.backend_mut().render_into(&mut audio[start..]);
                frames = target;
            }
            let diverged = ReplayError::Diverged { event: i };
            self.apply(sfx, &event.what, &mut voices)
                .map_err(|error| error.unwrap_or(diverged))?;
        }
        Ok(audio)
    }

    /// Makes the call `what` on `sfx`; `Err(None)` if it went another way.
    fn apply(
        &self,
        sfx: &mut SoundEffects,
        what: &What,
        voices: &mut HashMap<VoiceNumber, VoiceHandle>,
    ) -> Result<(), Option<ReplayError>> {
        let owner = sfx.owner_id();
        match *what {
            What::Play {
                sound,
                params,
                outcome,
            } => {
                let mut params = params;
                if let Some(state) = &mut params.state {
                    state.switch.owner = owner;
                }
                let name = self.name(sound);
                let id = sfx
                    .sound(name)
                    .ok_or_else(|| Some(ReplayError::UnknownSound(name.to_string())))?;
                match (sfx.play(id, params), outcome) {
                    (Ok(voice), Ok((number, _))) => {
                        voices.insert(number, voice);
                    }
                    (Err(_), Err(_)) => {}
                    _ => return Err(None),
                }
            }
            What::Voice { voice, call } => {
                // A voice started before the capture: the call is not made.
                if let Some(&handle) = voices.get(&voice) {
                    call_voice(sfx, handle, call, owner).map_err(|()| None)?;
                }
            }
            What::Listener(ListenerCall::Position(at)) => {
                sfx.listener().set_position(at).map_err(|_| None)?;
            }
            What::Listener(ListenerCall::Orientation(q)) => {
                let q = mint::Quaternion {
                    v: [q[0], q[1], q[2]].into(),
                    s: q[3],
                };
                sfx.listener().set_orientation(q).map_err(|_| None)?;
            }
            What::Update { dt } => sfx.update(dt).map_err(|_| None)?,
            What::GameParam { param, value } => {
                let param = GameParamId { owner, ..param };
                sfx.set_game_param(param, value).map_err(|_| None)?;
            }
            What::Snapshot {
                snapshot,
                intensity,
                tween,
            } => {
                let snapshot = SnapshotId { owner, ..snapshot };
                let mut mix = sfx.mix_mut();
                match intensity {
                    Some(i) => mix.apply_snapshot(snapshot, i as f32, tween),
                    None => mix.release_snapshot(snapshot, tween),
                }
                .map_err(|_| None)?;
            }
            What::Switch(state) => {
                let mut state = state;
                state.switch.owner = owner;
                sfx.set_switch_state(state).map_err(|_| None)?;
            }
            What::Reseed(seed) => sfx.reseed(seed),
            What::Ended { .. } => {}
        }
        Ok(())
    }
}

/// Makes `call` on `voice`, its ids made `owner`'s.
fn call_voice(
    sfx: &mut SoundEffects,
    voice: VoiceHandle,
    call: VoiceCall,
    owner: u32,
) -> Result<(), ()> {
    let mut v = sfx.voice(voice);
    let done = match call {
        VoiceCall::Stop(fade) => v.stop(fade),
        VoiceCall::Pause(fade) => v.pause(fade),
        VoiceCall::Resume(fade) => v.resume(fade),
        VoiceCall::Volume(volume, fade) => v.set_volume(volume, fade),
        VoiceCall::Rate(rate, fade) => v.set_playback_rate(rate, fade),
        VoiceCall::Panning(panning, fade) => v.set_panning(panning, fade),
        VoiceCall::Position(at) => v.set_position(at),
        VoiceCall::Velocity(velocity) => v.set_velocity(velocity),
        VoiceCall::Obstruction(amount) => v.set_obstruction(amount),
        VoiceCall::Occlusion(amount) => v.set_occlusion(amount),
        VoiceCall::Send(bus, level, tween) => {
            v.set_send(crate::TrackId { owner, ..bus }, level, tween)
        }
        VoiceCall::GameParam(param, value) => {
            v.set_game_param(GameParamId { owner, ..param }, value)
        }
    };
    done.map_err(|_| ())
}

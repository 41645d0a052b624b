//! A capture played back into a fresh manager (see `capture.rs`): the same
//! calls, with the same audio rendered between them, give the same samples.

use std::collections::HashMap;
use std::fmt;

use kira::AudioManager;

use super::{Capture, Event, ListenerCall, VoiceCall, VoiceNumber, What};
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
    /// the Bevy plugin) replays to the same samples, bit for bit. To stop on
    /// the way and look, step a [`Replay`].
    ///
    /// # Errors
    /// [`ReplayError::UnknownSound`], [`ReplayError::Diverged`].
    pub fn replay(
        &self,
        sfx: &mut SoundEffects,
        manager: &mut AudioManager<OfflineBackend>,
    ) -> Result<Vec<f32>, ReplayError> {
        let mut replay = Replay::new(self);
        let mut audio = Vec::new();
        while replay.step(sfx, manager, &mut audio)?.is_some() {}
        Ok(audio)
    }
}

/// A capture played back one event at a time, to stop at a moment and look
/// at the manager there (its [`voices`](SoundEffects::voices), its mix).
///
/// ```
/// # use kira::{AudioManager, AudioManagerSettings};
/// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
/// use pool_audio::capture::{Capture, Replay};
///
/// # let tone = || kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 48_000].into(), settings: Default::default(), slice: None };
/// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
/// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
/// let hum = sfx.add_sound("hum", tone(), SoundSettings::default())?;
/// sfx.start_capture(100);
/// for frame in 0..30 {
///     if frame == 10 {
///         sfx.play(hum, PlayParams::default())?;
///     }
///     manager.backend_mut().render(0.01)?;
///     sfx.update(0.01)?;
/// }
/// let mut file = Vec::new();
/// sfx.stop_capture().expect("on").write(&mut file)?;
///
/// // Elsewhere: the same sounds, and the capture read back.
/// let capture = Capture::read(std::str::from_utf8(&file)?)?;
/// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
/// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
/// sfx.add_sound("hum", tone(), SoundSettings::default())?;
/// let mut replay = Replay::new(&capture);
/// let mut audio = Vec::new();
/// replay.run_until(&mut sfx, &mut manager, &mut audio, 0.05)?;
/// assert_eq!(sfx.voices().count(), 0);
/// replay.run_until(&mut sfx, &mut manager, &mut audio, 0.2)?;
/// assert_eq!(sfx.voices().count(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Replay<'a> {
    capture: &'a Capture,
    next: usize,
    frames: u64,
    voices: HashMap<VoiceNumber, VoiceHandle>,
}

impl<'a> Replay<'a> {
    /// A replay of `capture`, at its start.
    pub fn new(capture: &'a Capture) -> Self {
        Self {
            capture,
            next: 0,
            frames: 0,
            voices: HashMap::new(),
        }
    }

    /// Renders the audio up to the next event (appended to `audio`,
    /// interleaved stereo) and makes its call on `sfx`; returns the event,
    /// or `None` at the end. See [`Capture::replay`] for what `sfx` and
    /// `manager` must be.
    ///
    /// # Errors
    /// [`ReplayError::UnknownSound`], [`ReplayError::Diverged`].
    pub fn step(
        &mut self,
        sfx: &mut SoundEffects,
        manager: &mut AudioManager<OfflineBackend>,
        audio: &mut Vec<f32>,
    ) -> Result<Option<&'a Event>, ReplayError> {
        let capture = self.capture;
        let Some(event) = capture.events.get(self.next) else {
            return Ok(None);
        };
        let rate = f64::from(manager.backend_mut().sample_rate());
        let target = (event.rendered * rate).round() as u64;
        if target > self.frames {
            let start = audio.len();
            audio.resize(start + 2 * (target - self.frames) as usize, 0.0);
            manager.backend_mut().render_into(&mut audio[start..]);
            self.frames = target;
        }
        let diverged = ReplayError::Diverged { event: self.next };
        capture
            .apply(sfx, &event.what, &mut self.voices)
            .map_err(|error| error.unwrap_or(diverged))?;
        self.next += 1;
        Ok(Some(event))
    }

    /// Steps through every event up to the game's time `seconds` (those at
    /// it too), as the capture's [`Event::time`] counts it.
    ///
    /// # Errors
    /// As [`step`](Self::step).
    pub fn run_until(
        &mut self,
        sfx: &mut SoundEffects,
        manager: &mut AudioManager<OfflineBackend>,
        audio: &mut Vec<f32>,
        seconds: f64,
    ) -> Result<(), ReplayError> {
        while (self.capture.events.get(self.next)).is_some_and(|e| e.time <= seconds) {
            self.step(sfx, manager, audio)?;
        }
        Ok(())
    }

    /// The event the next [`step`](Self::step) makes, if any.
    pub fn next_event(&self) -> Option<&'a Event> {
        self.capture.events.get(self.next)
    }

    /// The replay's handle of the capture's voice `number`, once its play
    /// was made.
    pub fn voice(&self, number: VoiceNumber) -> Option<VoiceHandle> {
        self.voices.get(&number).copied()
    }
}

impl Capture {
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
                let name = self.sound_name(sound);
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
            What::BusVolume { bus, volume, tween } => {
                let bus = crate::TrackId { owner, ..bus };
                (sfx.mix_mut().set_bus_volume(bus, volume, tween)).map_err(|_| None)?;
            }
            What::Ended { .. }
            | What::Virtualized { .. }
            | What::Promoted { .. }
            | What::Mix { .. } => {}
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

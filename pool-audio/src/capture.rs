//! A capture of a session: every call the game makes into the manager that
//! changes what is heard (plays with their outcome, refusals with their
//! reason, voice and listener changes, game parameters, switches,
//! snapshots, updates with their time step) and what the manager decides on
//! its own (ends with their reason), each stamped with the game's time and
//! the audio rendered so far, into a buffer sized once by the game that
//! allocates nothing while it records and counts what it could not hold.
//!
//! The manager's render is deterministic: the same calls with the same
//! audio rendered between them give the same samples. So a capture
//! replayed into a fresh manager set up as the captured one was
//! ([`Capture::replay`]) renders the session again, bit for bit: a bug
//! report that can be heard, and a regression test.
//!
//! ```
//! # use kira::{AudioManager, AudioManagerSettings};
//! # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
//! use pool_audio::capture::What;
//!
//! # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 480].into(), settings: Default::default(), slice: None };
//! # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
//! let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
//! let click = sfx.add_sound("click", click, SoundSettings::default())?;
//! sfx.start_capture(1_000);
//! sfx.play(click, PlayParams::default())?;
//! manager.backend_mut().render(0.1)?;
//! sfx.update(0.1)?;
//! let capture = sfx.stop_capture().expect("it was on");
//! assert!(matches!(capture.events()[0].what, What::Play { outcome: Ok(_), .. }));
//! assert!(matches!(capture.events()[1].what, What::Update { .. }));
//! let mut file = Vec::new();
//! capture.write(&mut file)?;
//! let text = String::from_utf8(file)?;
//! assert!(text.starts_with("pool-audio capture 1\n"));
//! assert!(text.contains("play \"click\""));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The file
//! A capture is written as text, one line per event after a header:
//!
//! ```text
//! pool-audio capture 1
//! events 3 dropped 0
//! 0.000000 0.000000 play "click" volume=0 rate=1 panning=0 blend=1 position=- -> voice 4294967297 real
//! 0.100000 0.000000 update dt=0.1
//! 0.100000 0.100000 ended voice 4294967297 finished
//! ```
//!
//! Each line starts with the audio rendered so far and the game's time, in
//! seconds; then the event's name and its fields. A play names its sound and
//! its parameters and ends with what became of it: `-> voice N real` (or
//! `virtual`), or `-> refused` and the reason. Voices are numbered by their
//! handles (unique in the session). A capture that filled its buffer says how
//! many events it dropped: they are the last ones, so what it holds is the
//! session's beginning, whole.

use std::io::{self, Write};

mod replay;
pub use replay::ReplayError;

use kira::{Decibels, Tween};

use crate::game::GameParamId;
use crate::handles::EndReason;
use crate::mix::SnapshotId;
use crate::{PlayError, PlayParams, SoundId, VoiceState};

/// A voice in a capture: its handle's number, unique in the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VoiceNumber(pub u64);

/// One event of a capture.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Event {
    /// The audio the voice bank had rendered, seconds.
    pub rendered: f64,
    /// The game's time (the sum of the updates' time steps), seconds.
    pub time: f64,
    /// What happened.
    pub what: What,
}

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum What {
    /// A play, and what became of it: its voice, real or virtual, or why it
    /// was refused.
    Play {
        /// The sound.
        sound: SoundId,
        /// Its parameters, as given.
        params: PlayParams,
        /// Its voice and state, or the refusal.
        outcome: Result<(VoiceNumber, VoiceState), PlayError>,
    },
    /// A call on a voice that the manager took.
    Voice {
        /// The voice.
        voice: VoiceNumber,
        /// The call.
        call: VoiceCall,
    },
    /// The listener moved or turned.
    Listener(ListenerCall),
    /// An update.
    Update {
        /// Its time step, seconds.
        dt: f64,
    },
    /// A game parameter set for every voice.
    GameParam {
        /// The parameter.
        param: GameParamId,
        /// Its value.
        value: f64,
    },
    /// A snapshot applied (`intensity`) or released (`None`).
    Snapshot {
        /// The snapshot.
        snapshot: SnapshotId,
        /// Its intensity, or `None` for a release.
        intensity: Option<f64>,
        /// Its tween.
        tween: Tween,
    },
    /// A switch set to a state for every voice.
    Switch(crate::sound::SwitchState),
    /// The random choices started over from a seed.
    Reseed(u64),
    /// A voice ended, and why (as [`SoundEffects::ended`](crate::SoundEffects::ended) says).
    Ended {
        /// The voice.
        voice: VoiceNumber,
        /// Why.
        reason: EndReason,
    },
}

/// A call on a voice.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum VoiceCall {
    /// Stopped with this fade.
    Stop(Tween),
    /// Paused with this fade.
    Pause(Tween),
    /// Resumed with this fade.
    Resume(Tween),
    /// Its volume.
    Volume(Decibels, Tween),
    /// Its playback rate.
    Rate(f64, Tween),
    /// Its panning.
    Panning(f32, Tween),
    /// Its position.
    Position([f32; 3]),
    /// Its velocity, m/s.
    Velocity([f32; 3]),
    /// Its obstruction, `0..=1`.
    Obstruction(f32),
    /// Its occlusion, `0..=1`.
    Occlusion(f32),
    /// Its send to a bus.
    Send(crate::TrackId, Decibels, Tween),
    /// Its own value of a game parameter.
    GameParam(GameParamId, f64),
}

/// A call on the listener.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum ListenerCall {
    /// Its position.
    Position([f32; 3]),
    /// Its orientation, a unit quaternion `[x, y, z, w]`.
    Orientation([f32; 4]),
}

/// A finished capture: its events, and how many it could not hold.
#[derive(Debug, Clone, PartialEq)]
pub struct Capture {
    pub(crate) events: Vec<Event>,
    pub(crate) dropped: u64,
    /// The sounds' names, by the index of their ids.
    pub(crate) names: Vec<(SoundId, String)>,
}

impl Capture {
    /// Its events, in the order they happened.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The events it could not hold (the last ones of the session).
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Writes it in the capture format (see the [module](self)).
    ///
    /// # Errors
    /// The writer's.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "pool-audio capture 1")?;
        writeln!(out, "events {} dropped {}", self.events.len(), self.dropped)?;
        for event in &self.events {
            write!(out, "{:.6} {:.6} ", event.rendered, event.time)?;
            self.write_what(out, &event.what)?;
            writeln!(out)?;
        }
        Ok(())
    }

    fn name(&self, sound: SoundId) -> &str {
        (self.names.iter())
            .find(|(id, _)| *id == sound)
            .map_or("?", |(_, name)| name.as_str())
    }

    fn write_what(&self, out: &mut impl Write, what: &What) -> io::Result<()> {
        match what {
            What::Play {
                sound,
                params,
                outcome,
            } => {
                write!(out, "play {:?} ", self.name(*sound))?;
                write_params(out, params)?;
                match outcome {
                    Ok((voice, state)) => {
                        let state = if *state == VoiceState::Real {
                            "real"
                        } else {
                            "virtual"
                        };
                        write!(out, " -> voice {} {state}", voice.0)
                    }
                    Err(refusal) => write!(out, " -> refused {refusal:?}"),
                }
            }
            What::Voice { voice, call } => write!(out, "voice {} {}", voice.0, call_text(call)),
            What::Listener(ListenerCall::Position(p)) => {
                write!(out, "listener position={},{},{}", p[0], p[1], p[2])
            }
            What::Listener(ListenerCall::Orientation(q)) => {
                write!(
                    out,
                    "listener orientation={},{},{},{}",
                    q[0], q[1], q[2], q[3]
                )
            }
            What::Update { dt } => write!(out, "update dt={dt}"),
            What::GameParam { param, value } => {
                write!(out, "game_param {} value={value}", param.index)
            }
            What::Snapshot {
                snapshot,
                intensity,
                tween,
            } => match intensity {
                Some(i) => write!(
                    out,
                    "snapshot {} apply={i} tween={}",
                    snapshot.index,
                    secs(tween)
                ),
                None => write!(
                    out,
                    "snapshot {} release tween={}",
                    snapshot.index,
                    secs(tween)
                ),
            },
            What::Switch(state) => {
                write!(out, "switch {} state={}", state.switch.index, state.state)
            }
            What::Reseed(seed) => write!(out, "reseed {seed}"),
            What::Ended { voice, reason } => {
                write!(
                    out,
                    "ended voice {} {}",
                    voice.0,
                    format!("{reason:?}").to_lowercase()
                )
            }
        }
    }
}

fn secs(tween: &Tween) -> f64 {
    tween.duration.as_secs_f64()
}

fn write_params(out: &mut impl Write, p: &PlayParams) -> io::Result<()> {
    write!(
        out,
        "volume={} rate={} panning={} blend={}",
        p.volume.0, p.playback_rate, p.panning, p.spatial_blend
    )?;
    match p.position {
        Some(at) => write!(out, " position={},{},{}", at.x, at.y, at.z)?,
        None => write!(out, " position=-")?,
    }
    if let Some(owner) = p.owner {
        write!(out, " owner={owner}")?;
    }
    Ok(())
}

fn call_text(call: &VoiceCall) -> String {
    match call {
        VoiceCall::Stop(t) => format!("stop fade={}", secs(t)),
        VoiceCall::Pause(t) => format!("pause fade={}", secs(t)),
        VoiceCall::Resume(t) => format!("resume fade={}", secs(t)),
        VoiceCall::Volume(v, t) => format!("volume={} fade={}", v.0, secs(t)),
        VoiceCall::Rate(r, t) => format!("rate={r} fade={}", secs(t)),
        VoiceCall::Panning(p, t) => format!("panning={p} fade={}", secs(t)),
        VoiceCall::Position(p) => format!("position={},{},{}", p[0], p[1], p[2]),
        VoiceCall::Velocity(v) => format!("velocity={},{},{}", v[0], v[1], v[2]),
        VoiceCall::Obstruction(a) => format!("obstruction={a}"),
        VoiceCall::Occlusion(a) => format!("occlusion={a}"),
        VoiceCall::Send(bus, level, t) => {
            format!("send bus={} level={} fade={}", bus.index, level.0, secs(t))
        }
        VoiceCall::GameParam(param, value) => {
            format!("game_param {} value={value}", param.index)
        }
    }
}

/// The capture under way, inside the manager: a buffer made once.
#[derive(Debug)]
pub(crate) struct Recorder {
    events: Vec<Event>,
    dropped: u64,
}

impl Recorder {
    /// Room for `events` events.
    pub(crate) fn new(events: usize) -> Self {
        Self {
            events: Vec::with_capacity(events),
            dropped: 0,
        }
    }

    /// Keeps `event`, or counts it dropped: never grows.
    pub(crate) fn push(&mut self, event: Event) {
        if self.events.len() < self.events.capacity() {
            self.events.push(event);
        } else {
            self.dropped += 1;
        }
    }

    /// The capture, with the sounds' names.
    pub(crate) fn finish(self, names: Vec<(SoundId, String)>) -> Capture {
        Capture {
            events: self.events,
            dropped: self.dropped,
            names,
        }
    }
}

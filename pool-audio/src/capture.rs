//! A capture of a session: every call the game makes into the manager that
//! changes what is heard (plays with their outcome, refusals with their
//! reason, voice and listener changes, game parameters, switches,
//! snapshots, updates with their time step) and what the manager decides on
//! its own (ends with their reason, voices made virtual or real again, the
//! mix's ducks, snapshots and loudness window), each stamped with the
//! game's time and the audio rendered so far, into a buffer sized once by
//! the game that allocates nothing while it records and counts what it
//! could not hold.
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
//! A capture is written as text, one line per event after a header, and
//! read back with [`Capture::read`]:
//!
//! ```text
//! pool-audio capture 1
//! events 6 dropped 0
//! 0 0 play "click" volume=-3 position=2,0,1 -> voice 4294967297 real
//! 0 0 play "click" -> refused sound_limit
//! 0 0 voice 4294967297 volume=-6 fade=0.05
//! 0.1 0 update dt=0.1
//! 0.1 0.1 ended voice 4294967297 finished
//! 0.1 0.1 mix top=-12.5 ducks=1 snapshots=0
//! ```
//!
//! Each line starts with the audio rendered so far and the game's time, in
//! seconds; then the event and its fields, `key=value`. A play names its
//! sound, gives the parameters that are not [`PlayParams::default`]'s, and
//! ends with what became of it: `-> voice N real` (or `virtual`), or
//! `-> refused` and the reason (the [`PlayError`] in snake case:
//! `sound_limit`, `voice_cap`, `inaudible`, `invalid_param`...). A fade is
//! `fade=` seconds, with `easing=` (`in_powi:2`...) and `delay=` when they
//! are not linear and immediate. Voices are numbered by their handles
//! (unique in the session).
//!
//! The events: `play`, `voice N <call>` (`stop`, `pause`, `resume`,
//! `volume=`, `rate=`, `panning=`, `position=x,y,z`, `velocity=`,
//! `obstruction=`, `occlusion=`, `send bus=N level=`, `game_param N value=`),
//! `listener position=` or `orientation=x,y,z,w`, `update dt=`,
//! `game_param N value=`, `snapshot N apply=I` or `release`, `bus N
//! volume=` (a bus's fader), `switch N state=S`, `reseed N`; and what the manager decided: `ended voice N
//! <reason>` (as [`EndReason`], snake case), `virtual voice N <why>` (as
//! [`WhyVirtual`]), `real voice N` (made real
//! again), and `mix top= ducks= snapshots=` when a duck or snapshot starts
//! or ends, or the loudness window's top moves by half a decibel. Groups,
//! buses, game parameters, switches and snapshots are numbered in the order
//! they were added. Every number is written exactly (the shortest text that
//! reads back to the same value), so a file read back replays as the
//! session did.
//!
//! A capture that filled its buffer says how many events it dropped: they
//! are the last ones, so what it holds is the session's beginning, whole.
//!
//! Not in a capture yet: zones added, moved or removed while the game runs,
//! a duck rule changed, sounds added or a bank reloaded after the capture
//! started, and music. A session that makes those calls replays without
//! them (its samples differ from there on); set them up before the capture
//! starts, as the replay's manager will be.

mod replay;
mod text;
pub use replay::{Replay, ReplayError};
pub use text::{ReadError, refusal_name};

use kira::{Decibels, Tween};

use crate::game::GameParamId;
use crate::handles::EndReason;
use crate::mix::SnapshotId;
use crate::voices::WhyVirtual;
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
    /// The game's time, seconds: the manager's clock, the sum of the
    /// updates' time steps, each counted in whole microseconds (so a step
    /// of 1/60 s counts as 16,667 µs: after 180 such steps, 3.00006 s).
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
    /// A bus's volume moved (the game's fader).
    BusVolume {
        /// The bus.
        bus: crate::TrackId,
        /// Its volume.
        volume: Decibels,
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
    /// The manager made a real voice virtual, and why.
    Virtualized {
        /// The voice.
        voice: VoiceNumber,
        /// Why.
        why: WhyVirtual,
    },
    /// The manager made a virtual voice real.
    Promoted {
        /// The voice.
        voice: VoiceNumber,
    },
    /// The mix changed: a duck or snapshot started or ended, or the loudness
    /// window's top moved by half a decibel or more.
    Mix {
        /// The loudness window's top, if the window is on.
        window_top: Option<Decibels>,
        /// Ducks whose source sounds, or that are holding.
        ducks: usize,
        /// Snapshots applied and not released.
        snapshots: usize,
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

    /// The name of the sound `sound` of a play of this capture (`"?"` for
    /// an id it does not know).
    pub fn sound_name(&self, sound: SoundId) -> &str {
        (self.names.iter())
            .find(|(id, _)| *id == sound)
            .map_or("?", |(_, name)| name.as_str())
    }
}

/// The capture under way, inside the manager: a buffer made once.
#[derive(Debug)]
pub(crate) struct Recorder {
    events: Vec<Event>,
    dropped: u64,
    /// The mix as last noted: the window's top, ducks, snapshots.
    pub(crate) mix: (Option<f32>, usize, usize),
}

impl Recorder {
    /// Room for `events` events.
    pub(crate) fn new(events: usize) -> Self {
        Self {
            events: Vec::with_capacity(events),
            dropped: 0,
            mix: (None, 0, 0),
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

    /// Counts `dropped` events more that were not kept.
    pub(crate) fn count_dropped(&mut self, dropped: u64) {
        self.dropped += dropped;
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

//! The mix that makes room: ducking, snapshots and (see `mix_core/window.rs`) the
//! loudness window. A copy budget and a limiter keep the mix under its ceiling;
//! these decide what the player hears first.
//!
//! - A **duck** lowers a target (a voice group, a named kira track, or every
//!   sound effect) while any voice of its source group sounds: Wwise's
//!   auto-ducking, with its attack (fade out), hold (recovery time), release
//!   (fade in) and curve.
//! - A **snapshot** is a mix state (a pause menu, underwater, a boss fight):
//!   volumes of groups and tracks, applied with an intensity and a tween and
//!   released with a tween; FMOD's snapshots, overriding or blending by
//!   priority.
//!
//! The game side decides the values at each [`update`](crate::SoundEffects::update)
//! (ducks) or call (snapshots); the mixer applies them: a group's gains are
//! kira parameters inside the voice bank, tweened block by block; a named
//! track's gain is a kira volume-control effect on that track. A target's
//! ducking and its snapshots' volume add in decibels.

mod engine;
mod params;
mod window;

use std::fmt;
use std::time::Duration;

use kira::{Decibels, Easing, Tween};

use crate::handles::GroupId;

pub(crate) use engine::{MixEngine, Target};
pub use params::ParamId;
pub(crate) use params::{Param, valid as valid_param};
pub use window::{LoudnessWindow, MAX_LOUDNESS};
pub(crate) use window::{Saved, Window, WindowNow, heard_db};

/// The deepest a duck lowers its target, and the quietest a snapshot, a bus,
/// a send or a zone is set: -60 dB, kira's silence.
pub const MIN_MIX: Decibels = Decibels(-60.0);
/// The loudest a snapshot, a bus, a send or a zone is set: +12 dB.
pub const MAX_MIX: Decibels = Decibels(12.0);
/// The longest attack, hold, release or snapshot tween.
pub const MAX_MIX_TIME: Duration = Duration::from_secs(3600);
/// The most named tracks, ducks and snapshots a manager holds, each.
pub const MAX_MIX_ITEMS: usize = 256;

/// What a duck or a snapshot sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MixTarget {
    /// A voice group's voices.
    Group(GroupId),
    /// A track of the mix: a music or ambience track
    /// ([`Music::track`](crate::Music::track)) or a kira track of the
    /// game's ([`MixMut::add_track`](crate::mix::MixMut::add_track)).
    Track(TrackId),
    /// Every sound effect (the sound-effects track).
    SoundEffects,
    /// Every send (and zone) into a bus: a return's level as the voices feed
    /// it, not the bus's own volume.
    Sends(TrackId),
}

impl From<GroupId> for MixTarget {
    fn from(group: GroupId) -> Self {
        Self::Group(group)
    }
}

impl From<TrackId> for MixTarget {
    fn from(track: TrackId) -> Self {
        Self::Track(track)
    }
}

/// A track of a manager's mix, named once: a music or ambience track, or a
/// kira track of the game's. Resolve a name once with
/// [`Mix::track`](crate::mix::Mix::track) (or
/// [`Music::track`](crate::Music::track)); an id is valid only with the
/// manager that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TrackId {
    pub(crate) index: u32,
    pub(crate) owner: u32,
}

/// How a duck lowers its target while its source group sounds. Fields are
/// public, with builder methods of the same names.
///
/// ```
/// use std::time::Duration;
/// use pool_audio::{linear_fade, mix::DuckSettings};
///
/// let under_dialogue = DuckSettings::default()
///     .amount(-12.0)
///     .attack(linear_fade(Duration::from_millis(200)))
///     .release(linear_fade(Duration::from_millis(800)));
/// assert_eq!(under_dialogue.hold, Duration::from_millis(250));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct DuckSettings {
    /// How far the target goes down, `MIN_MIX..=0 dB` (default -12 dB).
    pub amount: Decibels,
    /// How it gets there (Wwise's fade out; default 0.1 s, linear in dB).
    /// It starts when the source sounds: a start time of its own is refused.
    pub attack: Tween,
    /// How long the target stays down after the source's last voice ends
    /// (Wwise's recovery time; default 0.25 s), counted from the sample the
    /// voice bank reports that voice's sound ended on when it played to its
    /// end (from the update that learns of it when it was stopped, stolen or
    /// went virtual). The release then starts within one 16-frame step of
    /// that time; a hold shorter than the time an update took to learn of the
    /// end (at most one frame of the game) releases at once.
    pub hold: Duration,
    /// How it comes back (Wwise's fade in; default 0.5 s, linear in dB). It
    /// starts when the hold is over: a start time of its own is refused.
    pub release: Tween,
}

impl Default for DuckSettings {
    fn default() -> Self {
        Self {
            amount: Decibels(-12.0),
            attack: linear_tween(Duration::from_millis(100)),
            hold: Duration::from_millis(250),
            release: linear_tween(Duration::from_millis(500)),
        }
    }
}

/// A tween of `duration`, linear, starting now.
const fn linear_tween(duration: Duration) -> Tween {
    Tween {
        start_time: kira::StartTime::Immediate,
        duration,
        easing: Easing::Linear,
    }
}

impl DuckSettings {
    /// How far the target goes down (an `f32` is decibels).
    pub fn amount(mut self, amount: impl Into<Decibels>) -> Self {
        self.amount = amount.into();
        self
    }

    /// How it gets there.
    pub fn attack(mut self, attack: Tween) -> Self {
        self.attack = attack;
        self
    }

    /// How long the target stays down after the source's last voice.
    pub fn hold(mut self, hold: Duration) -> Self {
        self.hold = hold;
        self
    }

    /// How it comes back.
    pub fn release(mut self, release: Tween) -> Self {
        self.release = release;
        self
    }
}

/// How the ducks on one target combine.
///
/// The default is [`Deepest`](Self::Deepest): a target ducked by dialogue
/// (-12 dB) and by an explosion (-6 dB) goes to -12 dB, so a second duck never
/// makes the first one deeper and the target never drops out of the mix.
/// [`Sum`](Self::Sum) is Wwise's rule, for a game that wants every reason to
/// duck to count.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum DuckRule {
    /// The deepest active duck.
    #[default]
    Deepest,
    /// The sum of the active ducks, down to `max` (Wwise's maximum ducking
    /// volume), `MIN_MIX..=0 dB`.
    Sum {
        /// The deepest the sum goes.
        max: Decibels,
    },
}

/// How a snapshot combines with the lower-priority ones active on a target
/// (FMOD's two modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum SnapshotMode {
    /// Moves the target from what the lower snapshots set towards its own
    /// volume, by its intensity.
    #[default]
    Override,
    /// Adds its volume, times its intensity, to what the lower snapshots set.
    Blend,
}

/// A mix state: volumes for groups, tracks and buses, the sends into returns
/// and effect parameters' values, applied with
/// [`apply_snapshot`](crate::MixMut::apply_snapshot).
///
/// Active snapshots are combined on each target from the lowest priority to the
/// highest (ties: the earlier added first), starting at 0 dB:
/// an [`Override`](SnapshotMode::Override) snapshot of intensity `i` moves the
/// value to `value + (its_db - value) * i`, a [`Blend`](SnapshotMode::Blend)
/// one to `value + its_db * i`.
///
/// ```
/// # use pool_audio::kira::{AudioManager, AudioManagerSettings};
/// # use pool_audio::{music::Music, music::MusicSettings, OfflineBackend, SoundEffects, SoundEffectsSettings};
/// use pool_audio::{mix::MixTarget, mix::Snapshot, mix::SnapshotMode};
/// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
/// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
/// # let music = Music::new(&mut sfx, MusicSettings::default())?;
///
/// let music = music.track("music")?;
/// let storm = Snapshot::new("storm")
///     .priority(1)
///     .mode(SnapshotMode::Blend)
///     .set(MixTarget::SoundEffects, -3.0)
///     .set(MixTarget::Track(music), -9.0);
/// assert_eq!(storm.volumes.len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[must_use]
pub struct Snapshot {
    /// Its name, unique in its manager.
    pub name: String,
    /// Higher priorities combine later (default 0).
    pub priority: i32,
    /// How it combines (default [`SnapshotMode::Override`]).
    pub mode: SnapshotMode,
    /// The volume it sets per target, `MIN_MIX..=MAX_MIX`.
    pub volumes: Vec<(MixTarget, Decibels)>,
    /// The value it sets per effect parameter, in the parameter's range.
    pub params: Vec<(ParamId, f64)>,
}

impl Snapshot {
    /// An empty snapshot of priority 0 that overrides.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            priority: 0,
            mode: SnapshotMode::Override,
            volumes: Vec::new(),
            params: Vec::new(),
        }
    }

    /// Its priority.
    pub fn priority(mut self, priority: i32) -> Self {
        self.priority = priority;
        self
    }

    /// How it combines.
    pub fn mode(mut self, mode: SnapshotMode) -> Self {
        self.mode = mode;
        self
    }

    /// Sets `target` to `volume` (an `f32` is decibels).
    pub fn set(mut self, target: impl Into<MixTarget>, volume: impl Into<Decibels>) -> Self {
        self.volumes.push((target.into(), volume.into()));
        self
    }

    /// Sets effect parameter `param` to `value` (in its own unit: hertz for a
    /// cutoff, a fraction for a reverb's mix).
    pub fn set_param(mut self, param: ParamId, value: f64) -> Self {
        self.params.push((param, value));
        self
    }
}

/// A duck added to a manager.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DuckId {
    pub(crate) index: u32,
    pub(crate) owner: u32,
}

/// A snapshot added to a manager.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SnapshotId {
    pub(crate) index: u32,
    pub(crate) owner: u32,
}

/// What the mix is doing, from [`Mix::stats`](crate::Mix::stats).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub struct MixStats {
    /// Ducks whose source sounds, or that are holding.
    pub ducks_active: usize,
    /// Snapshots applied and not released.
    pub snapshots_active: usize,
    /// The loudness window's top, on the game's loudness scale, if the
    /// window is on.
    pub window_top: Option<Decibels>,
    /// Mix commands waiting for room in the voice bank's queue.
    pub pending: usize,
}

/// Why a mix call changed nothing.
///
/// ```
/// # use pool_audio::mix::MixError;
/// # use pool_audio::kira::Decibels;
/// assert!(MixError::Amount(Decibels(f32::NAN)).to_string().contains("NaN"));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum MixError {
    /// The group id is another manager's.
    UnknownGroup,
    /// No track of the mix has that name.
    UnknownTrack(String),
    /// The track id is another manager's.
    ForeignTrack(TrackId),
    /// A track of that name was added already.
    DuplicateTrack(String),
    /// A snapshot of that name was added already.
    DuplicateSnapshot(String),
    /// The duck or snapshot id is another manager's.
    Unknown,
    /// A duck's amount or a rule's maximum is not in `MIN_MIX..=0 dB`.
    Amount(Decibels),
    /// A snapshot's or a bus's volume is not in `MIN_MIX..=MAX_MIX`.
    Volume(Decibels),
    /// A time is longer than [`MAX_MIX_TIME`].
    Time(Duration),
    /// An easing kira cannot compute (a negative or non-finite power).
    Easing(Easing),
    /// An intensity is not in `0..=1`.
    Intensity(f32),
    /// A tween that starts on a kira clock: the mix's gains start now or
    /// after a delay (at most [`MAX_MIX_TIME`]).
    ClockStart,
    /// A duck's attack or release with a start time of its own: they start
    /// when the source sounds and when the hold is over.
    DuckStart,
    /// The manager holds [`MAX_MIX_ITEMS`] of these already.
    TooMany,
    /// The track is a music track or a kira track of the game's, not a bus.
    NotBus(TrackId),
    /// Voice groups route to [`MAX_VOICE_BUSES`](crate::mix::MAX_VOICE_BUSES)
    /// buses already.
    TooManyVoiceBuses,
    /// A bus's curves (more than [`MAX_CURVES`](crate::game::MAX_CURVES), a
    /// target other than [`Volume`](crate::game::CurveTarget::Volume)) or a
    /// parameter's (a target other than
    /// [`Param`](crate::game::CurveTarget::Param)), or a curve of a game
    /// parameter not of this manager, or an easing kira cannot compute.
    Curves,
    /// A parameter of that name was added already.
    DuplicateParam(String),
    /// A parameter's range is not finite and ordered with its default in it.
    ParamRange(f64),
    /// A snapshot's value for a parameter is not in the parameter's range.
    ParamValue(f64),
    /// A zone's shape is not finite with a positive size.
    ZoneShape(crate::ZoneShape),
    /// A zone's fade distance is not finite and at least 0.
    ZoneFade(f32),
    /// The manager holds [`MAX_ZONES`](crate::mix::MAX_ZONES) zones already.
    TooManyZones,
    /// A side-chain's settings out of range (see
    /// [`SideChainSettings`](crate::mix::SideChainSettings)).
    SideChain(crate::SideChainSettings),
    /// A kira track of the game's: the mix sets its volume only, through the
    /// volume control the game handed over.
    GameTrack(TrackId),
}

impl fmt::Display for MixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownGroup => f.write_str("the group id belongs to another SoundEffects"),
            Self::UnknownTrack(name) => write!(f, "no mix track named {name:?}"),
            Self::ForeignTrack(id) => write!(f, "the track id {id:?} belongs to another SoundEffects"),
            Self::DuplicateTrack(name) => write!(f, "a mix track named {name:?} exists"),
            Self::DuplicateSnapshot(name) => write!(f, "a snapshot named {name:?} exists"),
            Self::Unknown => f.write_str("the duck or snapshot id belongs to another SoundEffects"),
            Self::Amount(db) => write!(
                f,
                "ducking amount {} dB is not in {}..=0 dB",
                db.0, MIN_MIX.0
            ),
            Self::Volume(db) => write!(
                f,
                "volume {} dB is not in {}..={} dB",
                db.0, MIN_MIX.0, MAX_MIX.0
            ),
            Self::Time(time) => write!(f, "mix time {time:?} is longer than {MAX_MIX_TIME:?}"),
            Self::Easing(easing) => write!(f, "easing {easing:?} has a negative or NaN power"),
            Self::Intensity(i) => write!(f, "snapshot intensity {i} is not in 0..=1"),
            Self::ClockStart => {
                f.write_str("a mix tween starts now or after a delay, not on a clock")
            }
            Self::DuckStart => f.write_str(
                "a duck's attack and release start when their time comes: no start time of their own",
            ),
            Self::TooMany => write!(f, "a manager holds at most {MAX_MIX_ITEMS} of each"),
            Self::NotBus(id) => write!(f, "the track {id:?} is not a bus"),
            Self::DuplicateParam(name) => write!(f, "a mix parameter named {name:?} exists"),
            Self::ParamRange(default) => write!(
                f,
                "a parameter's range must be finite and ordered, its default {default} in it"
            ),
            Self::ParamValue(value) => write!(f, "parameter value {value} is outside its range"),
            Self::ZoneShape(shape) => write!(f, "zone shape {shape:?} is not finite and sized"),
            Self::ZoneFade(fade) => write!(f, "zone fade {fade} m is not finite and >= 0"),
            Self::TooManyZones => write!(f, "a manager holds at most {} zones", crate::MAX_ZONES),
            Self::SideChain(s) => write!(f, "side-chain settings {s:?} out of range"),
            Self::GameTrack(id) => write!(f, "the track {id:?} is a kira track of the game's"),
            Self::Curves => write!(
                f,
                "a bus has at most {} curves, each on its volume, and an effect parameter curves on itself, of this manager's game parameters",
                crate::game::MAX_CURVES
            ),
            Self::TooManyVoiceBuses => write!(
                f,
                "voice groups route to at most {} buses",
                crate::MAX_VOICE_BUSES
            ),
        }
    }
}

impl std::error::Error for MixError {}

/// `amount` if in `MIN_MIX..=0 dB`.
pub(crate) fn check_amount(amount: Decibels) -> Result<Decibels, MixError> {
    if (MIN_MIX.0..=0.0).contains(&amount.0) {
        Ok(amount)
    } else {
        Err(MixError::Amount(amount))
    }
}

/// `time` if not longer than `MAX_MIX_TIME`.
pub(crate) fn check_time(time: Duration) -> Result<Duration, MixError> {
    if time <= MAX_MIX_TIME {
        Ok(time)
    } else {
        Err(MixError::Time(time))
    }
}

/// A tween kira can compute, no longer than `MAX_MIX_TIME`, starting now or
/// after a delay no longer than that.
pub(crate) fn check_tween(tween: Tween) -> Result<Tween, MixError> {
    check_time(tween.duration)?;
    match tween.start_time {
        kira::StartTime::Immediate => {}
        kira::StartTime::Delayed(delay) => {
            check_time(delay)?;
        }
        kira::StartTime::ClockTime(_) => return Err(MixError::ClockStart),
    }
    if crate::sound_error::easing_is_safe(tween) {
        Ok(tween)
    } else {
        Err(MixError::Easing(tween.easing))
    }
}

/// Every field of a duck's settings in range.
pub(crate) fn check_duck(settings: DuckSettings) -> Result<DuckSettings, MixError> {
    check_amount(settings.amount)?;
    check_time(settings.hold)?;
    for tween in [settings.attack, settings.release] {
        if tween.start_time != kira::StartTime::Immediate {
            return Err(MixError::DuckStart);
        }
        check_tween(tween)?;
    }
    Ok(settings)
}

//! What can go wrong at run time, each with what was wrong: a play that did not
//! happen, a per-voice call on a voice that is gone, a number out of range.

use std::fmt;

pub use crate::attenuation::AttenuationError;
pub use crate::params::ParamError;
pub use crate::settings::SettingsError;
pub use crate::sound_error::SoundError;
// The workspace's shared errors, from `pool_core`: a stale handle (inside
// `VoiceError::Stale`) and a bad time step (from `SoundEffects::update`).
// Not inlined: their docs stay on pool_core's pages, whose links they use.
#[doc(no_inline)]
pub use pool_core::{StaleHandle, TimeError};

use crate::limits::{MAX_GROUPS, MAX_VOICE_CAP};

/// Why [`SoundEffects::play`](crate::SoundEffects::play) started nothing. Each
/// refusal is also counted in [`SoundEffectsStats`](crate::SoundEffectsStats) (see
/// [`SoundEffectsStats::refused`](crate::SoundEffectsStats::refused)).
///
/// ```
/// use pool_audio::PlayError;
///
/// assert_eq!(PlayError::VoiceCap.to_string(), "the voice cap is reached and no voice may give way");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum PlayError {
    /// The sound was removed, or the id was issued by another
    /// [`SoundEffects`](crate::SoundEffects).
    UnknownSound,
    /// A play parameter out of range.
    InvalidParam(ParamError),
    /// All the sound's copies are playing and it refuses when full.
    SoundLimit,
    /// All the copies the play's owner may have of the sound are playing
    /// ([`SoundSettings::max_voices_per_owner`](crate::SoundSettings::max_voices_per_owner))
    /// and the sound refuses when full.
    OwnerLimit,
    /// The voice cap is reached and no voice may give way: stealing is
    /// [`Stealing::Strict`](crate::stealing::Stealing::Strict), or
    /// [`Stealing::LowestPriority`](crate::stealing::Stealing::LowestPriority) finds every
    /// voice outranking the play.
    VoiceCap,
    /// Every voice of the voice bank is playing or still fading out (stopped or
    /// stolen voices keep theirs for their fade): a later frame has one free.
    NoFreeVoice,
    /// The sound's group is at its cap and none of its voices may give way
    /// (as for [`VoiceCap`](Self::VoiceCap), by the group's stealing).
    GroupCap,
    /// The sound was played less than its `min_retrigger` ago (within its
    /// retrigger radius, if it has one).
    Retrigger,
    /// The copy would start quieter than the sound's audibility floor (its
    /// volume, its distance): not started.
    Inaudible,
    /// The copy would be heard more than the loudness window's height under
    /// its top ([`LoudnessWindow`](crate::mix_core::LoudnessWindow)): not started (this
    /// reason wins when it is under the audibility floor too). (A
    /// voice already playing that falls out of the window goes virtual, or
    /// ends [`EndReason::Stolen`](crate::EndReason::Stolen) if its sound does
    /// not virtualize.)
    OutOfWindow,
    /// The voice bank's command queue is full: the mixer has not read what was
    /// sent since its last block (is it running?).
    QueueFull,
    /// The play names a recording the sound does not have
    /// ([`PlayParams::recording`](crate::PlayParams::recording)).
    UnknownRecording(usize),
    /// The play names a state of another switch than its sound's, or of
    /// another manager's.
    WrongState,
    /// The voice bank refused (it should not: its slots cover every voice).
    Backend,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownSound => f.write_str(
                "the sound id is a removed sound's or belongs to another SoundEffects",
            ),
            Self::InvalidParam(error) => write!(f, "play parameter out of range: {error}"),
            Self::SoundLimit => {
                f.write_str("all copies of this sound are playing and it refuses when full")
            }
            Self::OwnerLimit => f.write_str(
                "all copies of this sound its owner may have are playing and it refuses when full",
            ),
            Self::VoiceCap => f.write_str("the voice cap is reached and no voice may give way"),
            Self::NoFreeVoice => f.write_str(
                "every voice of the voice bank is playing or still fading out: none is free this frame",
            ),
            Self::GroupCap => {
                f.write_str("the sound's group is full and none of its voices may give way")
            }
            Self::Retrigger => {
                f.write_str("the sound was played more recently than its retrigger interval")
            }
            Self::Inaudible => f.write_str("the copy would be below the audibility floor"),
            Self::OutOfWindow => {
                f.write_str("the copy would be heard below the loudness window's bottom")
            }
            Self::QueueFull => f.write_str(
                "the voice bank's command queue is full: the mixer has not read it since its last block",
            ),
            Self::UnknownRecording(r) => write!(f, "the sound has no recording {r}"),
            Self::WrongState => f.write_str("the state is not of the sound's switch"),
            Self::Backend => f.write_str("the voice bank refused to play the sound"),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<ParamError> for PlayError {
    fn from(error: ParamError) -> Self {
        Self::InvalidParam(error)
    }
}

/// Why a call that controls voices (stop, pause, volume, position, the
/// listener) did nothing.
///
/// ```
/// use pool_audio::{error::StaleHandle, VoiceError};
///
/// assert!(VoiceError::Stale(StaleHandle).to_string().contains("stale"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum VoiceError {
    /// The voice ended, was stolen or was stopped, or the handle was issued by
    /// another [`SoundEffects`](crate::SoundEffects): it is stale here for good
    /// (the workspace's one stale-handle error, as `pool_core` returns it for a
    /// released object or another pool's handle).
    Stale(StaleHandle),
    /// The value given is out of range; the voice is unchanged.
    InvalidParam(ParamError),
    /// The voice bank's command queue has no room for what the call sends: the
    /// mixer has not read it since its last block (is it running?). Nothing
    /// changed.
    QueueFull,
    /// The voice's sound has no send to that bus.
    NoSend(crate::TrackId),
    /// Not a game parameter of this manager, or a value that is not finite.
    GameParam,
    /// The voice has values of its own of
    /// [`MAX_OWN_VALUES`](crate::game::MAX_OWN_VALUES) parameters already.
    TooManyOwnValues,
}

impl VoiceError {
    /// `true` for [`Stale`](Self::Stale): the voice is gone for good, and the
    /// game can forget its handle. A game that moves or changes voices it may
    /// have lost matches on this instead of ending its frame with `?`:
    ///
    /// ```
    /// # use pool_audio::{error::StaleHandle, VoiceError};
    /// fn forget_if_gone(result: Result<(), VoiceError>) -> Result<(), VoiceError> {
    ///     match result {
    ///         Err(error) if error.is_stale() => Ok(()),
    ///         other => other,
    ///     }
    /// }
    /// assert_eq!(forget_if_gone(Err(VoiceError::Stale(StaleHandle))), Ok(()));
    /// assert_eq!(forget_if_gone(Err(VoiceError::QueueFull)), Err(VoiceError::QueueFull));
    /// ```
    pub fn is_stale(&self) -> bool {
        matches!(self, Self::Stale(_))
    }
}

impl fmt::Display for VoiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Stale(_) => {
                f.write_str("stale voice handle: the voice ended, was stolen or was stopped, or the handle is another SoundEffects'")
            }
            Self::InvalidParam(error) => error.fmt(f),
            Self::QueueFull => f.write_str(
                "the voice bank's command queue is full: the mixer has not read it since its last block",
            ),
            Self::NoSend(bus) => write!(f, "the voice's sound has no send to the bus {bus:?}"),
            Self::GameParam => {
                f.write_str("not a game parameter of this manager, or a value that is not finite")
            }
            Self::TooManyOwnValues => write!(
                f,
                "a voice has values of its own of at most {} game parameters",
                crate::game::MAX_OWN_VALUES
            ),
        }
    }
}

impl std::error::Error for VoiceError {}

impl From<StaleHandle> for VoiceError {
    fn from(error: StaleHandle) -> Self {
        Self::Stale(error)
    }
}

impl From<ParamError> for VoiceError {
    fn from(error: ParamError) -> Self {
        Self::InvalidParam(error)
    }
}

/// Why a sound could not be added.
///
/// ```
/// # use pool_audio::{error::AddSoundError, error::SettingsError};
/// let err = AddSoundError::Settings(SettingsError::MaxVoices(0));
/// assert!(err.to_string().contains("max_voices"));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum AddSoundError {
    /// A sound of that name exists.
    DuplicateName(String),
    /// Its settings are out of range.
    Settings(SettingsError),
    /// Its data (its only recording) cannot be played safely.
    Sound(SoundError),
    /// One of its several recordings cannot be played safely.
    Recording {
        /// Which, counted from 0 in the order given.
        recording: usize,
        /// What is wrong with it.
        error: SoundError,
    },
    /// It was given no recording.
    NoRecordings,
    /// It was given more than [`MAX_RECORDINGS`](crate::limits::MAX_RECORDINGS) recordings.
    TooManyRecordings(usize),
    /// A recording's weight is NaN, infinite or negative.
    Weight {
        /// Which, counted from 0 in the order given.
        recording: usize,
        /// The weight.
        weight: f64,
    },
    /// Every recording's weight is 0: nothing could be picked.
    NoWeight,
    /// Its settings name a group this manager did not add.
    UnknownGroup,
    /// A send's bus is no bus of this manager.
    NotBus(crate::TrackId),
    /// Its sends would take the buses voices reach past
    /// [`MAX_VOICE_BUSES`](crate::mix::MAX_VOICE_BUSES).
    TooManyBuses,
    /// A curve's game parameter is not this manager's, or more than
    /// [`MAX_CURVES`](crate::game::MAX_CURVES) curves, or an easing that is
    /// not safe.
    Curves,
    /// A [`Send`](crate::game::CurveTarget::Send) curve's bus is not one of
    /// the sound's sends.
    CurveSend(crate::TrackId),
    /// The sound's switch or its recordings' states were refused.
    Switch(crate::sound::SwitchError),
}

impl fmt::Display for AddSoundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DuplicateName(name) => write!(f, "a sound named {name:?} already exists"),
            Self::Settings(error) => error.fmt(f),
            Self::Sound(error) => error.fmt(f),
            Self::Recording { recording, error } => write!(f, "recording {recording}: {error}"),
            Self::NoRecordings => f.write_str("a sound needs at least one recording"),
            Self::TooManyRecordings(n) => write!(
                f,
                "{n} recordings are more than a sound holds ({})",
                crate::MAX_RECORDINGS
            ),
            Self::Weight { recording, weight } => write!(
                f,
                "recording {recording}'s weight {weight} is not a finite number >= 0"
            ),
            Self::NoWeight => f.write_str("every recording's weight is 0: none can be picked"),
            Self::UnknownGroup => f.write_str("the sound's group was not added to this manager"),
            Self::NotBus(id) => write!(f, "the send's bus {id:?} is not a bus of this manager"),
            Self::TooManyBuses => write!(
                f,
                "the sends would take the buses voices reach past {}",
                crate::MAX_VOICE_BUSES
            ),
            Self::Switch(error) => write!(f, "{error}"),
            Self::CurveSend(bus) => write!(
                f,
                "a send curve's bus {bus:?} is not one of the sound's sends: give the sound a send to it"
            ),
            Self::Curves => write!(
                f,
                "a curve follows no game parameter of this manager, or more than {} curves, or an unsafe easing",
                crate::game::MAX_CURVES
            ),
        }
    }
}

impl std::error::Error for AddSoundError {}

/// Why [`SoundEffects::add_group`](crate::SoundEffects::add_group) added nothing.
///
/// ```
/// # use pool_audio::error::AddGroupError;
/// assert!(AddGroupError::MaxVoices(0).to_string().contains("1..=4096"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AddGroupError {
    /// A group of that name exists.
    DuplicateName(String),
    /// Its cap is not in `1..=`[`MAX_VOICE_CAP`].
    MaxVoices(usize),
    /// The manager holds [`MAX_GROUPS`] groups already.
    TooMany,
    /// Its bus is no bus of this manager.
    NotBus(crate::TrackId),
    /// Groups route to [`MAX_VOICE_BUSES`](crate::mix::MAX_VOICE_BUSES) buses
    /// already, none of them this one.
    TooManyBuses,
}

impl fmt::Display for AddGroupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DuplicateName(name) => write!(f, "a group named {name:?} already exists"),
            Self::MaxVoices(n) => write!(f, "group max_voices {n} is not in 1..={MAX_VOICE_CAP}"),
            Self::TooMany => write!(f, "a manager holds at most {MAX_GROUPS} groups"),
            Self::NotBus(id) => write!(f, "the group's bus {id:?} is not a bus of this manager"),
            Self::TooManyBuses => write!(
                f,
                "groups route to at most {} buses",
                crate::MAX_VOICE_BUSES
            ),
        }
    }
}

impl std::error::Error for AddGroupError {}

/// Why [`SoundEffects::remove_sound`](crate::SoundEffects::remove_sound)
/// removed nothing.
///
/// ```
/// # use pool_audio::error::RemoveSoundError;
/// assert!(RemoveSoundError::UnknownSound.to_string().contains("removed"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum RemoveSoundError {
    /// The id is a removed sound's, or another manager's.
    UnknownSound,
    /// The fade is not one kira can compute.
    InvalidParam(ParamError),
    /// The voice bank's queue has no room for a stop per real voice of the
    /// sound: the mixer has not read it since its last block.
    QueueFull,
}

impl fmt::Display for RemoveSoundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownSound => f.write_str(
                "the sound id is a removed sound's or belongs to another SoundEffects",
            ),
            Self::InvalidParam(error) => error.fmt(f),
            Self::QueueFull => f.write_str(
                "the voice bank's command queue has no room to stop the sound's voices: the mixer has not read it since its last block",
            ),
        }
    }
}

impl std::error::Error for RemoveSoundError {}

impl From<ParamError> for RemoveSoundError {
    fn from(error: ParamError) -> Self {
        Self::InvalidParam(error)
    }
}

/// Why [`SoundEffects::new`](crate::SoundEffects::new) failed.
///
/// ```
/// # use pool_audio::error::SetupError;
/// assert!(SetupError::TrackLimit.to_string().contains("track"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum SetupError {
    /// The settings are out of range.
    Settings(SettingsError),
    /// kira has no room for another sub-track or listener.
    TrackLimit,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Settings(error) => error.fmt(f),
            Self::TrackLimit => f.write_str("kira has no room for the sound-effects sub-track"),
        }
    }
}

impl std::error::Error for SetupError {}

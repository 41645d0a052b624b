//! Why a play did not happen, and other run-time errors.

use std::fmt;

/// Why [`SoundEffects::play`](crate::SoundEffects::play) started nothing. Each
/// refusal is also counted in [`AudioStats`](crate::AudioStats).
///
/// ```
/// use pool_audio::PlayError;
///
/// assert_eq!(PlayError::VoiceCap.to_string(), "every voice is busy and stealing is off");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayError {
    /// The sound id was not issued by this manager.
    UnknownSound,
    /// Volume outside `[0, 1]`, playback rate not above 0, panning outside
    /// `[-1, 1]`, or a non-finite number.
    InvalidParams,
    /// All the sound's copies are playing and it refuses when full.
    SoundLimit,
    /// The voice cap is reached and stealing is [`Stealing::Refuse`](crate::Stealing::Refuse),
    /// or so many voices are still fading out that kira has no room.
    VoiceCap,
    /// The sound was played less than its `min_retrigger` ago.
    Retrigger,
    /// The copy would be quieter than the sound's audibility floor: not started.
    Inaudible,
    /// A positioned play found every emitter busy (see
    /// [`SoundEffectsSettings::emitters`](crate::SoundEffectsSettings::emitters)).
    NoEmitter,
    /// kira refused (it should not: the track's capacity covers every voice).
    Backend,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::UnknownSound => "no such sound in this manager",
            Self::InvalidParams => "play parameters out of range",
            Self::SoundLimit => "all copies of this sound are playing and it refuses when full",
            Self::VoiceCap => "every voice is busy and stealing is off",
            Self::Retrigger => "the sound was played more recently than its retrigger interval",
            Self::Inaudible => "the copy would be below the audibility floor",
            Self::NoEmitter => "every emitter for positioned sounds is busy",
            Self::Backend => "kira refused to play the sound",
        })
    }
}

impl std::error::Error for PlayError {}

/// A voice handle whose voice has ended, been stolen or been stopped.
///
/// ```
/// use pool_audio::StaleVoice;
///
/// assert!(StaleVoice.to_string().contains("stale"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StaleVoice;

impl fmt::Display for StaleVoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("stale voice handle: the voice ended, was stolen or was stopped")
    }
}

impl std::error::Error for StaleVoice {}

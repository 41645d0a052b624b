//! Why music could not do what it was asked.

use std::fmt;
use std::time::Duration;

use kira::{Decibels, Tween};

use super::settings::{BUFFER_RANGE, MAX_FADE, MAX_TRACK};
use crate::mix_core::TrackId;

/// Why music could not do what it was asked; nothing changed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum MusicError {
    /// No music track has this name.
    UnknownTrack(String),
    /// The id is not one of this [`Music`](super::Music)'s tracks (another
    /// manager's, or a track the game added to the mix itself).
    NotMusicTrack(TrackId),
    /// The `SoundEffects` passed is not the one this
    /// [`Music`](super::Music) was made with.
    OtherSoundEffects,
    /// A track of the mix already has this name.
    DuplicateTrack(String),
    /// The track's bus is no bus of the mix.
    NotBus(TrackId),
    /// The mix holds [`MAX_MIX_ITEMS`](crate::mix::MAX_MIX_ITEMS) tracks
    /// already.
    TooManyTracks,
    /// A fade longer than [`MAX_FADE`], with an easing kira cannot compute,
    /// or with a start time of its own (music fades start now).
    Fade(Tween),
    /// A volume that is NaN or over [`MAX_TRACK`].
    Volume(Decibels),
    /// A buffer outside [`BUFFER_RANGE`].
    Buffer(Duration),
    /// A position past the piece's end.
    Position {
        /// The position asked for.
        at: Duration,
        /// The piece's length, if its header says.
        length: Option<Duration>,
    },
    /// The piece could not be opened or decoded.
    Piece {
        /// The piece's name.
        piece: String,
        /// What the decoder said.
        reason: String,
    },
    /// kira refused: too many tracks or sounds.
    Kira(String),
    /// The decoding thread could not be started.
    Thread(String),
}

impl fmt::Display for MusicError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownTrack(name) => write!(f, "no music track is named {name:?}"),
            Self::NotMusicTrack(id) => write!(f, "track {id:?} is not one of this Music's tracks"),
            Self::OtherSoundEffects => {
                f.write_str("these sound effects are not the ones this Music was made with")
            }
            Self::DuplicateTrack(name) => write!(f, "a mix track is already named {name:?}"),
            Self::NotBus(id) => write!(f, "the track's bus {id:?} is not a bus of the mix"),
            Self::TooManyTracks => f.write_str("the mix holds as many tracks as it can"),
            Self::Fade(tween) => write!(
                f,
                "fade {tween:?}: expected at most {MAX_FADE:?}, an easing with a finite power from 0, starting now"
            ),
            Self::Volume(db) => write!(
                f,
                "track volume {} dB: expected at most {} dB",
                db.0, MAX_TRACK.0
            ),
            Self::Buffer(buffer) => write!(
                f,
                "music buffer of {buffer:?}: expected {:?} to {:?}",
                BUFFER_RANGE.start(),
                BUFFER_RANGE.end()
            ),
            Self::Position {
                at,
                length: Some(length),
            } => write!(f, "position {at:?}: expected 0 to {length:?}"),
            Self::Position { at, length: None } => {
                write!(f, "position {at:?}: past the piece's end")
            }
            Self::Piece { piece, reason } => write!(f, "music {piece:?}: {reason}"),
            Self::Kira(reason) => write!(f, "kira refused: {reason}"),
            Self::Thread(reason) => write!(f, "the decoding thread did not start: {reason}"),
        }
    }
}

impl std::error::Error for MusicError {}

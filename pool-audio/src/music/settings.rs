//! How music is set up and how a piece plays.

use std::time::Duration;

use kira::{Decibels, Tween};

use crate::params::linear_fade;

/// The longest fade or crossfade.
pub const MAX_FADE: Duration = Duration::from_secs(3600);
/// The loudest a music track may be set.
pub const MAX_TRACK: Decibels = Decibels(12.0);
/// The crossfade a seek makes between the piece where it was and where it goes.
pub const SEEK_FADE: Duration = Duration::from_millis(10);
/// The shortest and the longest [`MusicSettings::buffer`].
pub const BUFFER_RANGE: std::ops::RangeInclusive<Duration> =
    Duration::from_millis(50)..=Duration::from_secs(60);

/// Where pieces are decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Decode {
    /// As the backend needs: [`Caller`](Self::Caller) when the
    /// [`SoundEffects`](crate::SoundEffects) renders offline
    /// ([`OfflineBackend`](crate::OfflineBackend)), [`Thread`](Self::Thread)
    /// otherwise.
    #[default]
    Auto,
    /// On a thread per piece, as kira's own streaming sounds: for a sound card,
    /// where the mixer runs on its own time.
    Thread,
    /// When the game calls [`Music::fill`](super::Music::fill): for offline
    /// renders, which must fill before each render of at most
    /// [`MusicSettings::buffer`]; the same frames in the same blocks on every
    /// run.
    Caller,
}

/// A named track for music or ambience.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackSettings {
    /// Its name in the mix: unique among the mix's tracks.
    pub name: String,
    /// Its volume (at most [`MAX_TRACK`]).
    pub volume: Decibels,
    /// Paused by [`Music::pause_game`](super::Music::pause_game) (an ambience
    /// bed) or not (the menu's music).
    pub pause_with_game: bool,
    /// The bus it plays into (default `None`: the output, under the
    /// limiter). See [`MixMut::add_bus`](crate::mix::MixMut::add_bus).
    pub bus: Option<crate::TrackId>,
}

impl TrackSettings {
    /// A track at 0 dB that keeps playing when the game pauses.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            volume: Decibels::IDENTITY,
            pause_with_game: false,
            bus: None,
        }
    }

    /// Its volume (an `f32` is decibels).
    pub fn volume(mut self, volume: impl Into<Decibels>) -> Self {
        self.volume = volume.into();
        self
    }

    /// Paused with the game.
    pub fn pause_with_game(mut self) -> Self {
        self.pause_with_game = true;
        self
    }

    /// Plays into `bus` (a bus of the mix the track is added to).
    pub fn bus(mut self, bus: crate::TrackId) -> Self {
        self.bus = Some(bus);
        self
    }
}

/// How [`Music`](super::Music) is set up.
#[derive(Debug, Clone, PartialEq)]
pub struct MusicSettings {
    /// The tracks made at the start: by default `"music"` (plays on when the
    /// game pauses) and `"ambience"` (pauses with it).
    pub tracks: Vec<TrackSettings>,
    /// How far ahead each piece is decoded ([`BUFFER_RANGE`]): 16 bytes per
    /// frame, so 1 s of a 48 kHz piece is 768 KiB.
    pub buffer: Duration,
    /// Where pieces are decoded (by default as the backend needs).
    pub decode: Decode,
}

impl Default for MusicSettings {
    fn default() -> Self {
        Self {
            tracks: vec![
                TrackSettings::new("music"),
                TrackSettings::new("ambience").pause_with_game(),
            ],
            buffer: Duration::from_secs(1),
            decode: Decode::Auto,
        }
    }
}

/// How a piece plays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MusicParams {
    /// The crossfade: the piece fades in, the one playing on the track fades
    /// out, with equal power along the tween's easing (by default none: a
    /// cut).
    pub fade: Tween,
    /// Where in the piece it starts.
    pub start_at: Duration,
    /// Where it starts again after its end; `None` plays it once.
    pub loop_from: Option<Duration>,
}

impl Default for MusicParams {
    fn default() -> Self {
        Self {
            fade: linear_fade(Duration::ZERO),
            start_at: Duration::ZERO,
            loop_from: None,
        }
    }
}

impl MusicParams {
    /// Crossfades with `fade` ([`linear_fade`](crate::linear_fade) makes a
    /// plain one).
    pub fn fade(mut self, fade: Tween) -> Self {
        self.fade = fade;
        self
    }

    /// Starts `at` into the piece.
    pub fn start_at(mut self, at: Duration) -> Self {
        self.start_at = at;
        self
    }

    /// Loops the whole piece.
    pub fn looped(self) -> Self {
        self.loop_from(Duration::ZERO)
    }

    /// Loops back to `at` at the end.
    pub fn loop_from(mut self, at: Duration) -> Self {
        self.loop_from = Some(at);
        self
    }
}

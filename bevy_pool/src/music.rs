//! Music and ambience in Bevy: the [`MusicTracks`] resource (the plain
//! [`pool_audio::music::Music`]), [`PlayMusic`] and [`StopMusic`] messages, refusals as
//! [`MusicRefused`], and tracks that pause with the game's virtual time.

use bevy::prelude::*;
use pool_audio::{music::Music, music::MusicError, music::MusicParams, music::MusicSource};

/// The music and ambience tracks (`"music"` and `"ambience"` by default: the
/// plugin's `music` settings): play, crossfade, stop, seek, pause and set
/// volumes from any system (`ResMut<MusicTracks>`). Derefs to
/// [`pool_audio::music::Music`]. Tracks set to `pause_with_game` pause while
/// `Time<Virtual>` is paused. Offline, the plugin decodes each piece ahead of
/// every render (the same mix on every run); on a sound card, on a thread per
/// piece.
#[derive(Resource)]
pub struct MusicTracks(pub(crate) Music);

impl std::ops::Deref for MusicTracks {
    type Target = Music;
    fn deref(&self) -> &Music {
        &self.0
    }
}

impl std::ops::DerefMut for MusicTracks {
    fn deref_mut(&mut self) -> &mut Music {
        &mut self.0
    }
}

/// Plays a piece on a track, crossfading from the one there over
/// `params.fade` seconds.
#[derive(Message, Debug, Clone)]
pub struct PlayMusic {
    /// The track's name: `"music"`, `"ambience"` or one of the game's.
    pub track: String,
    /// The piece.
    pub source: MusicSource,
    /// Crossfade, start and loop.
    pub params: MusicParams,
}

/// Fades out the piece on a track.
#[derive(Message, Debug, Clone)]
pub struct StopMusic {
    /// The track's name.
    pub track: String,
    /// The fade-out in seconds.
    pub fade: f64,
}

/// A [`PlayMusic`] or [`StopMusic`] refused (nothing changed), or a piece whose
/// decoding failed as it played.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct MusicRefused {
    /// The track named.
    pub track: String,
    /// Why.
    pub error: MusicError,
}

pub(crate) fn music_messages(
    mut music: ResMut<MusicTracks>,
    mut plays: MessageReader<PlayMusic>,
    mut stops: MessageReader<StopMusic>,
    mut refused: MessageWriter<MusicRefused>,
) {
    for stop in stops.read() {
        if let Err(error) = music.stop(&stop.track, stop.fade) {
            refused.write(MusicRefused {
                track: stop.track.clone(),
                error,
            });
        }
    }
    for play in plays.read() {
        if let Err(error) = music.play(&play.track, &play.source, play.params) {
            refused.write(MusicRefused {
                track: play.track.clone(),
                error,
            });
        }
    }
}

/// The fade of a pause or resume that follows virtual time.
const PAUSE_FADE: f64 = 0.05;

pub(crate) fn music_with_virtual_time(
    mut music: ResMut<MusicTracks>,
    time: Res<Time<Virtual>>,
    mut was_paused: Local<bool>,
) {
    if time.is_paused() != *was_paused && music.pause_game(time.is_paused(), PAUSE_FADE).is_ok() {
        *was_paused = time.is_paused();
    }
}

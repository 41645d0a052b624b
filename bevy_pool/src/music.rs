//! Music and ambience in Bevy: the [`MusicTracks`] resource (the plain
//! [`pool_audio::music::Music`]), [`PlayMusic`] and [`StopMusic`] messages, refusals as
//! [`MusicRefused`], and tracks that pause with the game's virtual time.

use bevy::prelude::*;
use pool_audio::kira::Tween;
use pool_audio::mix::TrackId;
use pool_audio::{music::Music, music::MusicError, music::MusicParams, music::MusicSource};

/// The plugin's [`pool_audio::music::Music`] as a resource: it derefs to it,
/// and every method is `Music`'s own, documented in `pool_audio`. Its tracks
/// are `"music"` and `"ambience"` by default (the plugin's `music` settings):
/// play, crossfade, stop, seek, pause and set volumes from any system
/// (`ResMut<MusicTracks>`; `play`, `seek` and `track_handle` also take the
/// [`Sfx`](crate::Sfx), where a track's first piece makes its kira track),
/// or send [`PlayMusic`] and [`StopMusic`]. Resolve a track's
/// name once with `music.track("music")`; the id also names the track for
/// ducks and snapshots. Tracks set to `pause_with_game` pause while
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

/// Plays a piece on a track, crossfading from the one there with
/// `params.fade`.
#[derive(Message, Debug, Clone)]
pub struct PlayMusic {
    /// The track ([`MusicTracks`]' `track("music")`).
    pub track: TrackId,
    /// The piece.
    pub source: MusicSource,
    /// Crossfade, start and loop.
    pub params: MusicParams,
}

/// Fades out the piece on a track.
#[derive(Message, Debug, Clone)]
pub struct StopMusic {
    /// The track.
    pub track: TrackId,
    /// The fade-out.
    pub fade: Tween,
}

/// A [`PlayMusic`] or [`StopMusic`] refused (nothing changed), or a piece whose
/// decoding failed as it played.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct MusicRefused {
    /// The track.
    pub track: TrackId,
    /// Why.
    pub error: MusicError,
}

pub(crate) fn music_messages(
    mut music: ResMut<MusicTracks>,
    mut sfx: ResMut<crate::Sfx>,
    mut plays: MessageReader<PlayMusic>,
    mut stops: MessageReader<StopMusic>,
    mut refused: MessageWriter<MusicRefused>,
) {
    for stop in stops.read() {
        if let Err(error) = music.stop(stop.track, stop.fade) {
            refused.write(MusicRefused {
                track: stop.track,
                error,
            });
        }
    }
    for play in plays.read() {
        if let Err(error) = music.play(&mut sfx, play.track, &play.source, play.params) {
            refused.write(MusicRefused {
                track: play.track,
                error,
            });
        }
    }
}

/// The fade of a pause or resume that follows virtual time.
const PAUSE_FADE: std::time::Duration = std::time::Duration::from_millis(50);

pub(crate) fn music_with_virtual_time(
    mut music: ResMut<MusicTracks>,
    time: Res<Time<Virtual>>,
    mut was_paused: Local<bool>,
) {
    if time.is_paused() != *was_paused
        && music
            .pause_game(time.is_paused(), pool_audio::linear_fade(PAUSE_FADE))
            .is_ok()
    {
        *was_paused = time.is_paused();
    }
}

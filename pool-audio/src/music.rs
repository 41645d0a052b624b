//! Music and ambience: pieces streamed from files (or any reader) on named
//! tracks of the mix, beside the sound effects and under the same limiter,
//! crossfaded with equal power, looped, sought, paused, with a volume per track.
//!
//! Each piece is decoded a packet at a time into a ring of
//! [`MusicSettings::buffer`] of frames ahead of the mixer (`music/feed.rs`), on
//! a thread of its own ([`Decode::Thread`], for a sound card) or when the game
//! calls [`Music::fill`] ([`Decode::Caller`], for offline renders: the same
//! frames in the same blocks on every run); by default as the backend needs.
//! The mixer reads the ring, resamples with kira's interpolation and fades
//! (`music/stream.rs`); it allocates and frees nothing.
//!
//! By default there are two tracks: `"music"`, which plays on when the game
//! pauses, and `"ambience"`, which pauses with it ([`Music::pause_game`]);
//! [`Music::add_track`] adds more. [`Music::track_handle`] hands kira's track
//! to the game for its own effects. Every bad request is a typed
//! [`MusicError`] and changes nothing.
//!
//! A track is made in kira when its first piece plays (or when the game asks
//! for its handle), in the `SoundEffects` [`Music::play`] is given: kira mixes
//! a track frame by frame whether anything plays on it or not, so a game's
//! idle tracks cost the mixer nothing. What a track was told before (its
//! volume, a pause, a duck or snapshot's level) holds from its first frame; a
//! duck or snapshot's fade under way then is heard at its end value.
//!
//! Not yet: pieces play at their own rate (no pitch), and Bevy's asset
//! server does not load pieces (in `bevy_pool`, a [`MusicSource::file`] path
//! does).

mod error;
mod feed;
mod settings;
mod source;
mod stream;

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kira::track::{TrackBuilder, TrackHandle};
use kira::{Decibels, StartTime, Tween};

pub use error::MusicError;
pub use settings::{
    BUFFER_RANGE, Decode, MAX_FADE, MAX_TRACK, MusicParams, MusicSettings, SEEK_FADE, TrackSettings,
};
pub use source::MusicSource;

use crate::SoundEffects;
use crate::mix_core::{MixError, TrackId};
use feed::{Feed, Fill, open_at};
use stream::{Fade, Shared, StreamData};

/// A piece decoding on its track.
struct Stream {
    shared: Arc<Shared>,
    source: MusicSource,
    params: MusicParams,
    sample_rate: u32,
}

struct Track {
    id: TrackId,
    settings: TrackSettings,
    /// kira's track, made when a piece first plays on it or the game asks for
    /// its handle: kira mixes a track frame by frame, playing or not, and a
    /// new track is heard from its first frame (a paused one, resumed, fades
    /// in over its first block).
    handle: Option<TrackHandle>,
    /// The piece playing, and pieces fading out.
    playing: Option<Stream>,
    fading: Vec<Stream>,
    paused: bool,
    paused_by_game: bool,
}

/// What music is doing, for a debug overlay or a test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct MusicStats {
    /// Pieces decoding or sounding (fading ones included).
    pub streams: usize,
    /// Frames the mixer waited for a decoder, summed over live pieces.
    pub late_frames: u64,
}

/// Music and ambience on named tracks of a [`SoundEffects`]' mix: under its
/// limiter, reached by its ducks and snapshots.
///
/// A piece starts in the mixer's next block, its first output sample the
/// frame at its start position, heard through the output's limiter (1.5 ms of
/// look-ahead, as the sound effects are). Keep the `SoundEffects` alive while
/// music plays: its output holds the music tracks.
///
/// ```
/// use std::time::Duration;
/// use pool_audio::kira::{AudioManager, AudioManagerSettings};
/// use pool_audio::music::{Music, MusicParams, MusicSettings, MusicSource};
/// use pool_audio::{linear_fade, OfflineBackend, SoundEffects, SoundEffectsSettings};
/// # let wav = |hz: f32| { let mut c = std::io::Cursor::new(Vec::new()); let mut w = hound::WavWriter::new(&mut c, hound::WavSpec { channels: 1, sample_rate: 48_000, bits_per_sample: 16, sample_format: hound::SampleFormat::Int }).unwrap(); for i in 0..48_000 { w.write_sample(((i as f32 * hz * std::f32::consts::TAU / 48_000.0).sin() * 16_000.0) as i16).unwrap(); } w.finalize().unwrap(); c.into_inner() };
///
/// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
/// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
/// let mut music = Music::new(&mut sfx, MusicSettings::default())?;
/// let track = music.track("music")?; // names resolve once
/// music.play(&mut sfx, track, &MusicSource::encoded("calm", wav(220.0)), MusicParams::default().looped())?;
/// music.fill(); // offline, before each render
/// manager.backend_mut().render(0.5)?;
/// // The boss appears: a two-second crossfade.
/// let boss = MusicSource::encoded("boss", wav(330.0));
/// music.play(&mut sfx, track, &boss, MusicParams::default().fade(linear_fade(Duration::from_secs(2))))?;
/// assert_eq!(music.piece(track)?, Some("boss"));
/// music.fill();
/// let audio = manager.backend_mut().render(0.5)?;
/// assert!(audio.peak() > 0.3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Music {
    tracks: Vec<Track>,
    /// The feeds the game fills ([`Decode::Caller`]); in a mutex only so that
    /// `Music` is `Sync` (a ring's writing end is not): reached by `get_mut`,
    /// never locked.
    feeds: Mutex<Vec<Feed>>,
    buffer: Duration,
    /// Resolved: never `Auto`.
    decode: Decode,
}

/// A fade music can make: no longer than `MAX_FADE`, an easing kira computes,
/// starting now.
fn check_fade(fade: Tween) -> Result<Fade, MusicError> {
    let now = fade.start_time == StartTime::Immediate;
    if fade.duration <= MAX_FADE && now && crate::sound_error::easing_is_safe(fade) {
        Ok(Fade {
            seconds: fade.duration.as_secs_f64(),
            easing: fade.easing,
        })
    } else {
        Err(MusicError::Fade(fade))
    }
}

fn check_volume(volume: Decibels) -> Result<Decibels, MusicError> {
    if volume.0.is_nan() || volume.0 > MAX_TRACK.0 {
        Err(MusicError::Volume(volume))
    } else {
        Ok(volume)
    }
}

/// A kira tween for a validated fade.
fn tween(fade: Fade) -> Tween {
    Tween {
        duration: Duration::from_secs_f64(fade.seconds),
        easing: fade.easing,
        start_time: StartTime::Immediate,
    }
}

impl Music {
    /// Names the settings' tracks in `sfx`'s mix (kira makes each when its
    /// first piece plays).
    ///
    /// # Errors
    /// [`MusicError::Buffer`], a track's [`MusicError::Volume`],
    /// [`MusicError::DuplicateTrack`] or [`MusicError::NotBus`],
    /// [`MusicError::TooManyTracks`].
    pub fn new(sfx: &mut SoundEffects, settings: MusicSettings) -> Result<Self, MusicError> {
        if !BUFFER_RANGE.contains(&settings.buffer) {
            return Err(MusicError::Buffer(settings.buffer));
        }
        let decode = match settings.decode {
            Decode::Auto if sfx.is_offline() => Decode::Caller,
            Decode::Auto => Decode::Thread,
            decode => decode,
        };
        let mut music = Self {
            tracks: Vec::new(),
            feeds: Mutex::new(Vec::new()),
            buffer: settings.buffer,
            decode,
        };
        for track in settings.tracks {
            music.add_track(sfx, track)?;
        }
        Ok(music)
    }

    /// Adds a track to `sfx`'s mix (the one this `Music` was made with;
    /// kira makes it at its first piece), named there: ducks and snapshots
    /// can set it by its id.
    ///
    /// # Errors
    /// [`MusicError::DuplicateTrack`] (any track of the mix),
    /// [`MusicError::Volume`], [`MusicError::NotBus`],
    /// [`MusicError::TooManyTracks`]; nothing is added.
    pub fn add_track(
        &mut self,
        sfx: &mut SoundEffects,
        settings: TrackSettings,
    ) -> Result<TrackId, MusicError> {
        if sfx.mix().track(&settings.name).is_ok() {
            return Err(MusicError::DuplicateTrack(settings.name));
        }
        check_volume(settings.volume)?;
        if let (Some(bus), Err(_)) = (settings.bus, sfx.music_parent(settings.bus)) {
            return Err(MusicError::NotBus(bus));
        }
        let id = match sfx.add_music_track(&settings.name) {
            Ok(id) => id,
            Err(MixError::DuplicateTrack(name)) => return Err(MusicError::DuplicateTrack(name)),
            Err(_) => return Err(MusicError::TooManyTracks),
        };
        self.tracks.push(Track {
            id,
            settings,
            handle: None,
            playing: None,
            fading: Vec::new(),
            paused: false,
            paused_by_game: false,
        });
        Ok(id)
    }

    /// The id of the music track named `name` (the same id
    /// [`Mix::track`](crate::mix::Mix::track) gives). Resolve names once.
    ///
    /// # Errors
    /// [`MusicError::UnknownTrack`].
    pub fn track(&self, name: &str) -> Result<TrackId, MusicError> {
        self.tracks
            .iter()
            .find(|t| t.settings.name == name)
            .map(|t| t.id)
            .ok_or_else(|| MusicError::UnknownTrack(name.into()))
    }

    /// The music tracks, in order: their ids and names.
    pub fn tracks(&self) -> impl Iterator<Item = (TrackId, &str)> {
        self.tracks.iter().map(|t| (t.id, t.settings.name.as_str()))
    }

    fn feeds_mut(&mut self) -> &mut Vec<Feed> {
        // Never locked, so never poisoned; a poisoned one is still the feeds.
        self.feeds
            .get_mut()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn get_mut(&mut self, track: TrackId) -> Result<&mut Track, MusicError> {
        self.tracks
            .iter_mut()
            .find(|t| t.id == track)
            .ok_or(MusicError::NotMusicTrack(track))
    }

    /// `track`, made in kira (in `sfx`, the `SoundEffects` this `Music` was
    /// made with) if it was not: at its volume, paused if the game or the
    /// track is.
    fn made(&mut self, sfx: &mut SoundEffects, id: TrackId) -> Result<&mut Track, MusicError> {
        let track = self.get_mut(id)?;
        if sfx.mix().track(&track.settings.name) != Ok(id) {
            return Err(MusicError::OtherSoundEffects);
        }
        if track.handle.is_none() {
            let builder = TrackBuilder::new()
                .volume(track.settings.volume)
                .sound_capacity(16);
            let mut handle = sfx.make_music_track(id, track.settings.bus, builder)?;
            if track.paused || track.paused_by_game {
                handle.pause(crate::bus::INSTANT);
            }
            track.handle = Some(handle);
        }
        Ok(track)
    }

    fn get(&self, track: TrackId) -> Result<&Track, MusicError> {
        self.tracks
            .iter()
            .find(|t| t.id == track)
            .ok_or(MusicError::NotMusicTrack(track))
    }

    /// Plays `source` on `track`, crossfading from the piece playing there
    /// with `params.fade`. The piece is opened (and its first packets probed)
    /// on the calling thread. `sfx` is the `SoundEffects` this `Music` was
    /// made with: a track's first piece makes its kira track there.
    ///
    /// # Errors
    /// [`MusicError::NotMusicTrack`], [`MusicError::OtherSoundEffects`],
    /// [`MusicError::Fade`], [`MusicError::Position`] (a start or loop point
    /// past the end the header gives), [`MusicError::Piece`] (the piece cannot
    /// be opened), [`MusicError::Kira`], [`MusicError::Thread`]; nothing
    /// changes.
    pub fn play(
        &mut self,
        sfx: &mut SoundEffects,
        track: TrackId,
        source: &MusicSource,
        params: MusicParams,
    ) -> Result<(), MusicError> {
        let fade = check_fade(params.fade)?;
        self.get(track)?;
        let (mut feed, data) = self.open(source, params, fade)?;
        let (shared, rate) = (data.shared.clone(), data.sample_rate);
        // Decoding starts first: a thread that cannot start changes nothing.
        let caller_feed = match self.decode {
            Decode::Caller => {
                feed.fill();
                Some(feed)
            }
            Decode::Thread | Decode::Auto => {
                std::thread::Builder::new()
                    .name(format!("music {}", source.name()))
                    .spawn(move || {
                        while feed.fill() == Fill::More {
                            std::thread::sleep(Duration::from_millis(5));
                        }
                    })
                    .map_err(|error| MusicError::Thread(error.to_string()))?;
                None
            }
        };
        // A piece that does not play ends its decoding (the thread sees it).
        let refused = |error| {
            shared.finished.store(true, Ordering::Release);
            Err(error)
        };
        let track = match self.made(sfx, track) {
            Ok(track) => track,
            Err(error) => return refused(error),
        };
        // `made` made the handle.
        let Some(handle) = &mut track.handle else {
            return refused(MusicError::NotMusicTrack(track.id));
        };
        if let Err(error) = handle.play(data) {
            return refused(MusicError::Kira(error.to_string()));
        }
        if let Some(old) = track.playing.take() {
            old.shared.stop(fade);
            track.fading.push(old);
        }
        track.fading.retain(|s| !s.shared.finished());
        track.playing = Some(Stream {
            shared,
            source: source.clone(),
            params,
            sample_rate: rate,
        });
        if let Some(feed) = caller_feed {
            self.feeds_mut().push(feed);
        }
        Ok(())
    }

    /// Opens `source` where `params` start it: its feed and what kira plays.
    fn open(
        &self,
        source: &MusicSource,
        params: MusicParams,
        fade: Fade,
    ) -> Result<(Feed, StreamData), MusicError> {
        let piece = |reason| MusicError::Piece {
            piece: source.name().into(),
            reason,
        };
        let probe = source.open().map_err(piece)?;
        let rate = probe.sample_rate;
        let length = probe.header_frames;
        let frame_at = |at: Duration| {
            let frame =
                u64::try_from(at.as_nanos() * u128::from(rate) / 1_000_000_000).unwrap_or(u64::MAX);
            if length.is_none_or(|n| frame < n || at.is_zero()) {
                Ok(frame)
            } else {
                Err(MusicError::Position {
                    at,
                    length: length.map(|n| Duration::from_secs_f64(n as f64 / f64::from(rate))),
                })
            }
        };
        let start = frame_at(params.start_at)?;
        let loop_start = params.loop_from.map(frame_at).transpose()?;
        let opened = if start == 0 {
            (probe, 0)
        } else {
            drop(probe);
            open_at(source, start).map_err(piece)?
        };
        let capacity = (self.buffer.as_secs_f64() * f64::from(rate)).ceil() as usize + 1;
        let (producer, consumer) = rtrb::RingBuffer::new(capacity);
        let shared = Arc::new(Shared::new(start));
        let feed = Feed::new(
            source.clone(),
            opened,
            producer,
            Arc::clone(&shared),
            start,
            loop_start,
        );
        let data = StreamData {
            consumer,
            shared,
            sample_rate: rate,
            fade_in: fade,
        };
        Ok((feed, data))
    }

    /// Fades out the piece on `track` with `fade`.
    ///
    /// # Errors
    /// [`MusicError::NotMusicTrack`], [`MusicError::Fade`].
    pub fn stop(&mut self, track: TrackId, fade: Tween) -> Result<(), MusicError> {
        let fade = check_fade(fade)?;
        let track = self.get_mut(track)?;
        if let Some(old) = track.playing.take() {
            old.shared.stop(fade);
            track.fading.push(old);
        }
        Ok(())
    }

    /// Moves the piece on `track` to `at`, with a crossfade of [`SEEK_FADE`]
    /// from where it was; a track with no piece is left alone.
    ///
    /// # Errors
    /// As [`play`](Self::play).
    pub fn seek(
        &mut self,
        sfx: &mut SoundEffects,
        track: TrackId,
        at: Duration,
    ) -> Result<(), MusicError> {
        let Some(playing) = &self.get(track)?.playing else {
            return Ok(());
        };
        let (source, params) = (playing.source.clone(), playing.params);
        let params = params.fade(crate::linear_fade(SEEK_FADE)).start_at(at);
        self.play(sfx, track, &source, params)
    }

    /// Pauses `track` (kira's track pause: its pieces stop where they are).
    ///
    /// # Errors
    /// [`MusicError::NotMusicTrack`], [`MusicError::Fade`].
    pub fn pause(&mut self, track: TrackId, fade: Tween) -> Result<(), MusicError> {
        let fade = check_fade(fade)?;
        let track = self.get_mut(track)?;
        track.paused = true;
        if let Some(handle) = &mut track.handle {
            handle.pause(tween(fade));
        }
        Ok(())
    }

    /// Resumes `track` where it was paused (unless the game keeps it paused).
    ///
    /// # Errors
    /// [`MusicError::NotMusicTrack`], [`MusicError::Fade`].
    pub fn resume(&mut self, track: TrackId, fade: Tween) -> Result<(), MusicError> {
        let fade = check_fade(fade)?;
        let track = self.get_mut(track)?;
        track.paused = false;
        if let (false, Some(handle)) = (track.paused_by_game, &mut track.handle) {
            handle.resume(tween(fade));
        }
        Ok(())
    }

    /// Pauses (`true`) or resumes every track set to pause with the game.
    ///
    /// # Errors
    /// [`MusicError::Fade`].
    pub fn pause_game(&mut self, paused: bool, fade: Tween) -> Result<(), MusicError> {
        let fade = check_fade(fade)?;
        for track in self
            .tracks
            .iter_mut()
            .filter(|t| t.settings.pause_with_game)
        {
            if let (true, false, Some(handle)) = (
                track.paused_by_game != paused,
                track.paused,
                &mut track.handle,
            ) {
                if paused {
                    handle.pause(tween(fade));
                } else {
                    handle.resume(tween(fade));
                }
            }
            track.paused_by_game = paused;
        }
        Ok(())
    }

    /// Sets `track`'s volume (an `f32` is decibels) with `fade`. Ducks and
    /// snapshots add to it; they do not change it.
    ///
    /// # Errors
    /// [`MusicError::NotMusicTrack`], [`MusicError::Volume`],
    /// [`MusicError::Fade`].
    pub fn set_volume(
        &mut self,
        track: TrackId,
        volume: impl Into<Decibels>,
        fade: Tween,
    ) -> Result<(), MusicError> {
        let volume = check_volume(volume.into())?;
        let fade = check_fade(fade)?;
        let track = self.get_mut(track)?;
        track.settings.volume = volume;
        if let Some(handle) = &mut track.handle {
            handle.set_volume(volume, tween(fade));
        }
        Ok(())
    }

    /// The name of the piece playing on `track` (not one fading out), until it
    /// ends.
    ///
    /// # Errors
    /// [`MusicError::NotMusicTrack`].
    pub fn piece(&self, track: TrackId) -> Result<Option<&str>, MusicError> {
        let playing = self.get(track)?.playing.as_ref();
        Ok(playing
            .filter(|s| !s.shared.finished())
            .map(|s| s.source.name()))
    }

    /// Where the piece playing on `track` is in the piece (loops wrap it), as
    /// of the mixer's last block, to the frame.
    ///
    /// # Errors
    /// [`MusicError::NotMusicTrack`].
    pub fn position(&self, track: TrackId) -> Result<Option<Duration>, MusicError> {
        let playing = self.get(track)?.playing.as_ref();
        Ok(playing.filter(|s| !s.shared.finished()).map(|s| {
            let frame = s.shared.position.load(Ordering::Relaxed);
            Duration::from_secs_f64(frame as f64 / f64::from(s.sample_rate))
        }))
    }

    /// Why the piece playing on `track` stopped early, if decoding failed.
    ///
    /// # Errors
    /// [`MusicError::NotMusicTrack`].
    pub fn failure(&self, track: TrackId) -> Result<Option<MusicError>, MusicError> {
        let playing = self.get(track)?.playing.as_ref();
        Ok(playing.and_then(|s| {
            let reason = s.shared.error.lock().ok()?.clone()?;
            Some(MusicError::Piece {
                piece: s.source.name().into(),
                reason,
            })
        }))
    }

    /// kira's handle of `track`: to play the game's own kira sounds on it or
    /// add a sub-track under it (`play`, `add_sub_track`), made in `sfx` if
    /// no piece has played there yet. kira fixes a track's effects when it is
    /// built, and a music track is built with a volume control only: a meter
    /// on the music goes on a sub-track the game plays its own sounds
    /// through, or on kira's main track.
    ///
    /// # Errors
    /// [`MusicError::NotMusicTrack`], [`MusicError::OtherSoundEffects`],
    /// [`MusicError::Kira`].
    pub fn track_handle(
        &mut self,
        sfx: &mut SoundEffects,
        track: TrackId,
    ) -> Result<&mut TrackHandle, MusicError> {
        let track = self.made(sfx, track)?;
        track
            .handle
            .as_mut()
            .ok_or(MusicError::NotMusicTrack(track.id))
    }

    /// How far ahead each piece is decoded.
    pub fn buffer(&self) -> Duration {
        self.buffer
    }

    /// Where pieces are decoded: [`Decode::Thread`] or [`Decode::Caller`]
    /// (`Auto` resolved for the backend).
    pub fn decode(&self) -> Decode {
        self.decode
    }

    /// Decodes every piece ahead until its ring is full ([`Decode::Caller`];
    /// nothing with [`Decode::Thread`]). Offline, call it before each render of
    /// at most [`MusicSettings::buffer`]: the mix is then the same on every
    /// run.
    pub fn fill(&mut self) {
        self.feeds_mut()
            .retain_mut(|feed| feed.fill() == Fill::More);
        for track in &mut self.tracks {
            track.fading.retain(|s| !s.shared.finished());
        }
    }

    /// What music is doing.
    pub fn stats(&self) -> MusicStats {
        let live = self
            .tracks
            .iter()
            .flat_map(|t| t.playing.iter().chain(&t.fading))
            .filter(|s| !s.shared.finished());
        let mut stats = MusicStats::default();
        for stream in live {
            stats.streams += 1;
            stats.late_frames += stream.shared.underruns.load(Ordering::Relaxed);
        }
        stats
    }
}

impl Drop for Music {
    fn drop(&mut self) {
        // Decoding threads end with their pieces.
        for stream in self
            .tracks
            .iter()
            .flat_map(|t| t.playing.iter().chain(&t.fading))
        {
            stream.shared.finished.store(true, Ordering::Release);
        }
    }
}

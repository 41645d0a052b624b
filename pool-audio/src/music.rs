//! Music and ambience: pieces streamed from files (or any reader) on named kira
//! tracks beside the sound effects, crossfaded with equal power, looped,
//! sought, paused, with a volume per track.
//!
//! Each piece is decoded a packet at a time into a ring of
//! [`MusicSettings::buffer_seconds`] of frames ahead of the mixer (`music/feed.rs`),
//! on a thread of its own ([`Decode::Thread`], for a sound card) or when the game
//! calls [`Music::fill`] ([`Decode::Caller`], for offline renders: the same
//! frames in the same blocks on every run). The mixer reads the ring, resamples
//! with kira's interpolation and fades (`music/stream.rs`); it allocates and frees
//! nothing.

mod feed;
mod source;
mod stream;

use std::fmt;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use kira::backend::Backend;
use kira::effect::volume_control::{VolumeControlBuilder, VolumeControlHandle};
use kira::track::{TrackBuilder, TrackHandle};
use kira::{AudioManager, Decibels, Tween};

pub use source::MusicSource;

use feed::{Feed, Fill, open_at};
use stream::{Shared, StreamData};

/// The longest fade or crossfade, in seconds.
pub const MAX_FADE_SECONDS: f64 = 3600.0;
/// The loudest a music track may be set, in dB.
pub const MAX_TRACK_DB: f32 = 12.0;
/// The crossfade a seek makes between the piece where it was and where it goes.
pub const SEEK_FADE_SECONDS: f64 = 0.01;

/// Where pieces are decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Decode {
    /// On a thread per piece, as kira's own streaming sounds: for a sound card,
    /// where the mixer runs on its own time.
    #[default]
    Thread,
    /// When the game calls [`Music::fill`]: for offline renders, which must fill
    /// before each render of at most [`MusicSettings::buffer_seconds`].
    Caller,
}

/// A named track for music or ambience.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackSettings {
    /// Its name: how the game and a ducking rule name it.
    pub name: String,
    /// Its volume in dB (at most [`MAX_TRACK_DB`]).
    pub volume_db: f32,
    /// Paused by [`Music::pause_game`] (an ambience bed) or not (the menu's music).
    pub pause_with_game: bool,
}

impl TrackSettings {
    /// A track at 0 dB that keeps playing when the game pauses.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            volume_db: 0.0,
            pause_with_game: false,
        }
    }

    /// Its volume in dB.
    pub fn volume_db(mut self, volume_db: f32) -> Self {
        self.volume_db = volume_db;
        self
    }

    /// Paused with the game.
    pub fn pause_with_game(mut self) -> Self {
        self.pause_with_game = true;
        self
    }
}

/// How [`Music`] is set up.
#[derive(Debug, Clone, PartialEq)]
pub struct MusicSettings {
    /// The tracks made at the start: by default `"music"` (plays on when the
    /// game pauses) and `"ambience"` (pauses with it).
    pub tracks: Vec<TrackSettings>,
    /// How far ahead each piece is decoded, in seconds of its frames (16 bytes
    /// each): 1 s of a 48 kHz piece is 768 KiB.
    pub buffer_seconds: f64,
    /// Where pieces are decoded.
    pub decode: Decode,
}

impl Default for MusicSettings {
    fn default() -> Self {
        Self {
            tracks: vec![
                TrackSettings::new("music"),
                TrackSettings::new("ambience").pause_with_game(),
            ],
            buffer_seconds: 1.0,
            decode: Decode::Thread,
        }
    }
}

/// How a piece plays.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MusicParams {
    /// The crossfade in seconds: the piece fades in, the one playing on the
    /// track fades out, with equal power (0: a cut).
    pub fade: f64,
    /// Where in the piece it starts, in seconds.
    pub start_at: f64,
    /// Where it starts again after its end, in seconds; `None` plays it once.
    pub loop_from: Option<f64>,
}

impl MusicParams {
    /// Crossfades over `seconds`.
    pub fn fade(mut self, seconds: f64) -> Self {
        self.fade = seconds;
        self
    }

    /// Starts `seconds` in.
    pub fn start_at(mut self, seconds: f64) -> Self {
        self.start_at = seconds;
        self
    }

    /// Loops the whole piece.
    pub fn looped(self) -> Self {
        self.loop_from(0.0)
    }

    /// Loops back to `seconds` at the end.
    pub fn loop_from(mut self, seconds: f64) -> Self {
        self.loop_from = Some(seconds);
        self
    }
}

/// Why music could not do what it was asked; nothing changed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum MusicError {
    /// No track has this name.
    UnknownTrack(String),
    /// A track already has this name.
    DuplicateTrack(String),
    /// A fade that is NaN, infinite, negative or over [`MAX_FADE_SECONDS`].
    Fade(f64),
    /// A volume that is NaN or over [`MAX_TRACK_DB`].
    Volume(f32),
    /// A buffer that is NaN, infinite, or outside 0.05 to 60 s.
    BufferSeconds(f64),
    /// A position that is NaN, infinite, negative or past the piece's end.
    Position {
        /// The position asked for, in seconds.
        seconds: f64,
        /// The piece's length in seconds, if its header says.
        length: Option<f64>,
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
            Self::DuplicateTrack(name) => write!(f, "a music track is already named {name:?}"),
            Self::Fade(s) => write!(f, "fade of {s} s: expected 0 to {MAX_FADE_SECONDS} s"),
            Self::Volume(db) => write!(
                f,
                "track volume {db} dB: expected at most {MAX_TRACK_DB} dB"
            ),
            Self::BufferSeconds(s) => write!(f, "music buffer of {s} s: expected 0.05 to 60 s"),
            Self::Position {
                seconds,
                length: Some(length),
            } => {
                write!(f, "position {seconds} s: expected 0 to {length} s")
            }
            Self::Position {
                seconds,
                length: None,
            } => {
                write!(f, "position {seconds} s: expected a finite time from 0")
            }
            Self::Piece { piece, reason } => write!(f, "music {piece:?}: {reason}"),
            Self::Kira(reason) => write!(f, "kira refused: {reason}"),
            Self::Thread(reason) => write!(f, "the decoding thread did not start: {reason}"),
        }
    }
}

impl std::error::Error for MusicError {}

/// A piece decoding on its track.
struct Stream {
    shared: Arc<Shared>,
    source: MusicSource,
    params: MusicParams,
    sample_rate: u32,
}

struct Track {
    settings: TrackSettings,
    handle: TrackHandle,
    /// The handle of its mix gain (a volume-control effect), until the game
    /// takes it for ducks and snapshots.
    mix_control: Option<VolumeControlHandle>,
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

/// Music and ambience on named kira tracks beside the sound effects.
///
/// A piece starts in the mixer's next block, its first output sample the
/// frame at its start position (kira's own sounds start the same way; the
/// sound-effects track is heard 1.5 ms later, through its limiter's
/// look-ahead).
///
/// ```
/// use pool_audio::kira::{AudioManager, AudioManagerSettings};
/// use pool_audio::{music::Decode, music::Music, music::MusicParams, music::MusicSettings, music::MusicSource, OfflineBackend};
/// # let wav = |hz: f32| { let mut c = std::io::Cursor::new(Vec::new()); let mut w = hound::WavWriter::new(&mut c, hound::WavSpec { channels: 1, sample_rate: 48_000, bits_per_sample: 16, sample_format: hound::SampleFormat::Int }).unwrap(); for i in 0..48_000 { w.write_sample(((i as f32 * hz * std::f32::consts::TAU / 48_000.0).sin() * 16_000.0) as i16).unwrap(); } w.finalize().unwrap(); c.into_inner() };
///
/// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
/// let settings = MusicSettings { decode: Decode::Caller, ..Default::default() };
/// let mut music = Music::new(&mut manager, settings)?;
/// music.play("music", &MusicSource::encoded("calm", wav(220.0)), MusicParams::default().looped())?;
/// music.fill(); // before each render, offline
/// manager.backend_mut().render(0.5)?;
/// // The boss appears: a two-second crossfade.
/// music.play("music", &MusicSource::encoded("boss", wav(330.0)), MusicParams::default().fade(2.0))?;
/// assert_eq!(music.piece("music")?, Some("boss"));
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
    buffer_seconds: f64,
    decode: Decode,
}

fn tween(seconds: f64) -> Tween {
    Tween {
        duration: std::time::Duration::from_secs_f64(seconds),
        ..Default::default()
    }
}

fn check_fade(seconds: f64) -> Result<f64, MusicError> {
    if (0.0..=MAX_FADE_SECONDS).contains(&seconds) {
        Ok(seconds)
    } else {
        Err(MusicError::Fade(seconds))
    }
}

fn check_volume(db: f32) -> Result<f32, MusicError> {
    if db.is_nan() || db > MAX_TRACK_DB {
        Err(MusicError::Volume(db))
    } else {
        Ok(db)
    }
}

impl Music {
    /// Makes the settings' tracks on `manager`'s main track.
    ///
    /// # Errors
    /// [`MusicError::BufferSeconds`], a track's [`MusicError::Volume`] or
    /// [`MusicError::DuplicateTrack`], [`MusicError::Kira`] when kira has no room
    /// for a track.
    pub fn new<B: Backend>(
        manager: &mut AudioManager<B>,
        settings: MusicSettings,
    ) -> Result<Self, MusicError> {
        if !(0.05..=60.0).contains(&settings.buffer_seconds) {
            return Err(MusicError::BufferSeconds(settings.buffer_seconds));
        }
        let mut music = Self {
            tracks: Vec::new(),
            feeds: Mutex::new(Vec::new()),
            buffer_seconds: settings.buffer_seconds,
            decode: settings.decode,
        };
        for track in settings.tracks {
            music.add_track(manager, track)?;
        }
        Ok(music)
    }

    /// Adds a track.
    ///
    /// # Errors
    /// [`MusicError::DuplicateTrack`], [`MusicError::Volume`],
    /// [`MusicError::Kira`].
    pub fn add_track<B: Backend>(
        &mut self,
        manager: &mut AudioManager<B>,
        settings: TrackSettings,
    ) -> Result<(), MusicError> {
        if self.tracks.iter().any(|t| t.settings.name == settings.name) {
            return Err(MusicError::DuplicateTrack(settings.name));
        }
        let volume = check_volume(settings.volume_db)?;
        let mut builder = TrackBuilder::new()
            .volume(Decibels(volume))
            .sound_capacity(16);
        let mix_control = builder.add_effect(VolumeControlBuilder::new(Decibels::IDENTITY));
        let handle = manager
            .add_sub_track(builder)
            .map_err(|error| MusicError::Kira(error.to_string()))?;
        self.tracks.push(Track {
            settings,
            handle,
            mix_control: Some(mix_control),
            playing: None,
            fading: Vec::new(),
            paused: false,
            paused_by_game: false,
        });
        Ok(())
    }

    fn feeds_mut(&mut self) -> &mut Vec<Feed> {
        // Never locked, so never poisoned; a poisoned one is still the feeds.
        self.feeds
            .get_mut()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn track(&mut self, name: &str) -> Result<&mut Track, MusicError> {
        self.tracks
            .iter_mut()
            .find(|t| t.settings.name == name)
            .ok_or_else(|| MusicError::UnknownTrack(name.into()))
    }

    fn track_ref(&self, name: &str) -> Result<&Track, MusicError> {
        self.tracks
            .iter()
            .find(|t| t.settings.name == name)
            .ok_or_else(|| MusicError::UnknownTrack(name.into()))
    }

    /// Plays `source` on `track`, crossfading from the piece playing there
    /// over `params.fade`. The piece is opened (and its first packets probed)
    /// on the calling thread.
    ///
    /// # Errors
    /// [`MusicError::UnknownTrack`], [`MusicError::Fade`],
    /// [`MusicError::Position`] (a start or loop point that is not a finite time
    /// from 0, or past the end the header gives), [`MusicError::Piece`] (the
    /// piece cannot be opened), [`MusicError::Kira`], [`MusicError::Thread`].
    pub fn play(
        &mut self,
        track: &str,
        source: &MusicSource,
        params: MusicParams,
    ) -> Result<(), MusicError> {
        let fade = check_fade(params.fade)?;
        let index = self
            .tracks
            .iter()
            .position(|t| t.settings.name == track)
            .ok_or_else(|| MusicError::UnknownTrack(track.into()))?;
        let (mut feed, data) = self.open(source, params, fade)?;
        let (shared, rate) = (data.shared.clone(), data.sample_rate);
        match self.decode {
            Decode::Caller => {
                feed.fill();
                self.feeds_mut().push(feed);
            }
            Decode::Thread => {
                std::thread::Builder::new()
                    .name(format!("music {}", source.name()))
                    .spawn(move || {
                        while feed.fill() == Fill::More {
                            std::thread::sleep(std::time::Duration::from_millis(5));
                        }
                    })
                    .map_err(|error| MusicError::Thread(error.to_string()))?;
            }
        }
        let track = &mut self.tracks[index];
        if let Err(error) = track.handle.play(data) {
            shared.finished.store(true, Ordering::Release);
            return Err(MusicError::Kira(error.to_string()));
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
        Ok(())
    }

    /// Opens `source` where `params` start it: its feed and what kira plays.
    fn open(
        &self,
        source: &MusicSource,
        params: MusicParams,
        fade: f64,
    ) -> Result<(Feed, StreamData), MusicError> {
        let piece = |reason| MusicError::Piece {
            piece: source.name().into(),
            reason,
        };
        let probe = source.open().map_err(piece)?;
        let rate = probe.sample_rate;
        let length = probe.header_frames;
        let frame_at = |seconds: f64| {
            let frame = seconds * f64::from(rate);
            let fits = length.is_none_or(|n| frame < n as f64 || seconds == 0.0);
            if seconds.is_finite() && seconds >= 0.0 && fits {
                Ok(frame as u64)
            } else {
                Err(MusicError::Position {
                    seconds,
                    length: length.map(|n| n as f64 / f64::from(rate)),
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
        let capacity = (self.buffer_seconds * f64::from(rate)).ceil() as usize + 1;
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

    /// Fades out the piece on `track` over `fade` seconds.
    ///
    /// # Errors
    /// [`MusicError::UnknownTrack`], [`MusicError::Fade`].
    pub fn stop(&mut self, track: &str, fade: f64) -> Result<(), MusicError> {
        let fade = check_fade(fade)?;
        let track = self.track(track)?;
        if let Some(old) = track.playing.take() {
            old.shared.stop(fade);
            track.fading.push(old);
        }
        Ok(())
    }

    /// Moves the piece on `track` to `seconds`, with a crossfade of
    /// [`SEEK_FADE_SECONDS`] from where it was; a track with no piece is left
    /// alone.
    ///
    /// # Errors
    /// As [`play`](Self::play).
    pub fn seek(&mut self, track: &str, seconds: f64) -> Result<(), MusicError> {
        let Some(playing) = &self.track(track)?.playing else {
            return Ok(());
        };
        let (source, params) = (playing.source.clone(), playing.params);
        let params = params.fade(SEEK_FADE_SECONDS).start_at(seconds);
        self.play(track, &source, params)
    }

    /// Pauses `track` (kira's track pause: its pieces stop where they are).
    ///
    /// # Errors
    /// [`MusicError::UnknownTrack`], [`MusicError::Fade`].
    pub fn pause(&mut self, track: &str, fade: f64) -> Result<(), MusicError> {
        let fade = check_fade(fade)?;
        let track = self.track(track)?;
        track.paused = true;
        track.handle.pause(tween(fade));
        Ok(())
    }

    /// Resumes `track` where it was paused (unless the game keeps it paused).
    ///
    /// # Errors
    /// [`MusicError::UnknownTrack`], [`MusicError::Fade`].
    pub fn resume(&mut self, track: &str, fade: f64) -> Result<(), MusicError> {
        let fade = check_fade(fade)?;
        let track = self.track(track)?;
        track.paused = false;
        if !track.paused_by_game {
            track.handle.resume(tween(fade));
        }
        Ok(())
    }

    /// Pauses (`true`) or resumes every track set to pause with the game.
    ///
    /// # Errors
    /// [`MusicError::Fade`].
    pub fn pause_game(&mut self, paused: bool, fade: f64) -> Result<(), MusicError> {
        let fade = check_fade(fade)?;
        for track in self
            .tracks
            .iter_mut()
            .filter(|t| t.settings.pause_with_game)
        {
            if track.paused_by_game != paused && !track.paused {
                if paused {
                    track.handle.pause(tween(fade));
                } else {
                    track.handle.resume(tween(fade));
                }
            }
            track.paused_by_game = paused;
        }
        Ok(())
    }

    /// Sets `track`'s volume with a tween of `fade` seconds.
    ///
    /// # Errors
    /// [`MusicError::UnknownTrack`], [`MusicError::Volume`], [`MusicError::Fade`].
    pub fn set_volume(&mut self, track: &str, volume_db: f32, fade: f64) -> Result<(), MusicError> {
        let volume = check_volume(volume_db)?;
        let fade = check_fade(fade)?;
        let track = self.track(track)?;
        track.settings.volume_db = volume;
        track.handle.set_volume(Decibels(volume), tween(fade));
        Ok(())
    }

    /// The name of the piece playing on `track` (not one fading out), until it
    /// ends.
    ///
    /// # Errors
    /// [`MusicError::UnknownTrack`].
    pub fn piece(&self, track: &str) -> Result<Option<&str>, MusicError> {
        let playing = self.track_ref(track)?.playing.as_ref();
        Ok(playing
            .filter(|s| !s.shared.finished())
            .map(|s| s.source.name()))
    }

    /// Where the piece playing on `track` is, in seconds of the piece (loops
    /// wrap it), as of the mixer's last block.
    ///
    /// # Errors
    /// [`MusicError::UnknownTrack`].
    pub fn position(&self, track: &str) -> Result<Option<f64>, MusicError> {
        let playing = self.track_ref(track)?.playing.as_ref();
        Ok(playing
            .filter(|s| !s.shared.finished())
            .map(|s| s.shared.position.load(Ordering::Relaxed) as f64 / f64::from(s.sample_rate)))
    }

    /// Why the piece playing on `track` stopped early, if decoding failed.
    ///
    /// # Errors
    /// [`MusicError::UnknownTrack`].
    pub fn failure(&self, track: &str) -> Result<Option<MusicError>, MusicError> {
        let playing = self.track_ref(track)?.playing.as_ref();
        Ok(playing.and_then(|s| {
            let reason = s.shared.error.lock().ok()?.clone()?;
            Some(MusicError::Piece {
                piece: s.source.name().into(),
                reason,
            })
        }))
    }

    /// The handle of `track`'s mix gain, a kira volume-control effect after
    /// its pieces, for [`MixMut::add_track`](crate::MixMut::add_track):
    /// ducks and snapshots then set it, and [`set_volume`](Self::set_volume)
    /// stays the game's. `None` once taken, or for an unknown track.
    ///
    /// ```
    /// # use pool_audio::kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{music::Music, music::MusicSettings, OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut music = Music::new(&mut manager, MusicSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let control = music.take_mix_control("music").expect("the default track");
    /// sfx.mix_mut().add_track("music", control)?;
    /// assert!(music.take_mix_control("music").is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn take_mix_control(&mut self, track: &str) -> Option<VolumeControlHandle> {
        self.track(track).ok()?.mix_control.take()
    }

    /// kira's handle of `track`: for effects on it, or a ducking rule.
    pub fn track_handle(&mut self, track: &str) -> Option<&mut TrackHandle> {
        self.track(track).ok().map(|t| &mut t.handle)
    }

    /// How far ahead each piece is decoded, in seconds.
    pub fn buffer_seconds(&self) -> f64 {
        self.buffer_seconds
    }

    /// The tracks' names, in order.
    pub fn track_names(&self) -> impl Iterator<Item = &str> {
        self.tracks.iter().map(|t| t.settings.name.as_str())
    }

    /// Decodes every piece ahead until its ring is full ([`Decode::Caller`];
    /// nothing with [`Decode::Thread`]). Offline, call it before each render of
    /// at most [`MusicSettings::buffer_seconds`]: the mix is then the same on
    /// every run.
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

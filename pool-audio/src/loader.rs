//! Where sounds come from: one loader gives a sound effect, the takes of a
//! varied sound, and a piece of music. [`FileLoader`] reads a folder (the
//! game's `assets/`), [`MemoryLoader`] bytes or sounds already in memory, and
//! the [`SoundLoader`] trait lets a game bring its own (a pack file, an asset
//! server). Decoded sounds are cached by key; kira's `StaticSoundData` clones
//! share their samples, so a cache hit costs a reference count. Files are
//! decoded within a budget of frames (`loader/decode.rs`); music is not decoded
//! here but streamed as it plays ([`MusicSource`]).
//!
//! ```
//! use pool_audio::loader::FileLoader;
//! # const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets");
//!
//! let mut files = FileLoader::new(ASSETS); // the game's assets folder
//! let laser = files.load("sounds/laser.wav")?; // mono, 48 kHz
//! assert_eq!((laser.sample_rate, laser.num_frames()), (48_000, 12_000));
//! let steps = files.takes(["sounds/step_1.wav", "sounds/step_2.wav", "sounds/step_3.wav"])?;
//! assert_eq!(steps.len(), 3);
//! let theme = files.music("music/theme.ogg")?; // streamed when it plays
//! assert_eq!(theme.name(), "music/theme.ogg");
//! assert!(files.music("music/missing.ogg").is_err());
//! # Ok::<(), pool_audio::loader::LoadError>(())
//! ```

mod decode;

pub(crate) use decode::Decoding;

use std::collections::HashMap;
use std::fmt;
use std::io::Cursor;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use kira::sound::static_sound::StaticSoundData;

use crate::MusicSource;
use crate::Recordings;
use crate::sound_error::{SoundError, playable_frames};

/// The most frames a loader decodes one sound to unless told otherwise
/// (`max_frames`): 8,388,608 frames, 64 MiB of decoded stereo samples, 2 min 54 s
/// at 48 kHz. A sound effect is seconds long; a file that decodes to more is
/// refused with [`LoadError::TooLong`] before its frames are allocated.
pub const DEFAULT_MAX_FRAMES: usize = 1 << 23;

/// Why a sound could not be loaded. Every variant names the key asked for.
///
/// ```
/// use pool_audio::{loader::LoadError, loader::MemoryLoader};
///
/// let mut loader = MemoryLoader::new();
/// let err = loader.load("boom").unwrap_err();
/// assert_eq!(err, LoadError::UnknownKey { key: "boom".into() });
/// assert_eq!(err.to_string(), "no sound is known as \"boom\"");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadError {
    /// No sound is registered under this key.
    UnknownKey {
        /// The key asked for.
        key: String,
    },
    /// The key would leave the loader's folder (absolute, with `..`, or through a
    /// symbolic link that points outside it).
    InvalidKey {
        /// The key asked for.
        key: String,
    },
    /// The file the key names does not exist.
    Missing {
        /// The key asked for.
        key: String,
        /// Where the file was looked for.
        path: PathBuf,
    },
    /// The data could not be decoded as audio.
    Corrupt {
        /// The key asked for.
        key: String,
        /// What the decoder said.
        reason: String,
    },
    /// The sound decodes to more frames than the loader's `max_frames` (from
    /// its header, or counted while decoding): nothing was kept.
    TooLong {
        /// The key asked for.
        key: String,
        /// The loader's limit, in frames.
        max_frames: usize,
    },
    /// Music streams an encoded file, and this key holds a sound inserted
    /// decoded ([`MemoryLoader::insert_sound`]).
    NotEncoded {
        /// The key asked for.
        key: String,
    },
    /// The sound decodes, but kira cannot play it safely (a sample rate of 0,
    /// a NaN sample, ...): the error [`SoundEffects::add_sound`](crate::SoundEffects::add_sound)
    /// would give.
    Sound {
        /// The key asked for.
        key: String,
        /// What is wrong with the data.
        error: SoundError,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownKey { key } => write!(f, "no sound is known as {key:?}"),
            Self::InvalidKey { key } => write!(f, "sound key {key:?} leaves the loader's folder"),
            Self::Missing { key, path } => {
                write!(f, "sound {key:?}: no file at {}", path.display())
            }
            Self::Corrupt { key, reason } => write!(f, "sound {key:?} cannot be decoded: {reason}"),
            Self::TooLong { key, max_frames } => write!(
                f,
                "sound {key:?} decodes to more than the loader's max_frames ({max_frames} frames)"
            ),
            Self::NotEncoded { key } => write!(
                f,
                "sound {key:?} was given decoded: music streams an encoded file"
            ),
            Self::Sound { key, error } => write!(f, "sound {key:?} cannot be played: {error}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// Loads sounds by key. Implement it for a pack file, an asset server, a
/// procedural generator.
///
/// ```
/// use pool_audio::kira::sound::static_sound::StaticSoundData;
/// use pool_audio::loader::{LoadError, SoundLoader};
///
/// /// Every key is the same click, made on the fly.
/// struct Clicks;
///
/// impl SoundLoader for Clicks {
///     fn load(&mut self, key: &str) -> Result<StaticSoundData, LoadError> {
///         Ok(StaticSoundData {
///             sample_rate: 48_000,
///             frames: vec![pool_audio::kira::Frame { left: 1.0, right: 1.0 }; 48].into(),
///             settings: Default::default(),
///             slice: None,
///         })
///     }
/// }
///
/// assert!(Clicks.load("anything").is_ok());
/// assert_eq!(Clicks.takes(["one", "two"]).unwrap().len(), 2);
/// assert!(Clicks.music("theme").is_err()); // it holds no music
/// ```
pub trait SoundLoader {
    /// The sound for `key`, decoded.
    ///
    /// # Errors
    /// A [`LoadError`] that names `key`.
    fn load(&mut self, key: &str) -> Result<StaticSoundData, LoadError>;

    /// The takes of one varied sound (footsteps, impacts), each decoded, ready
    /// for [`SoundEffects::add_sound`](crate::SoundEffects::add_sound).
    ///
    /// # Errors
    /// The first take's [`LoadError`], naming its key.
    fn takes<'k>(
        &mut self,
        keys: impl IntoIterator<Item = &'k str>,
    ) -> Result<Recordings, LoadError>
    where
        Self: Sized,
    {
        keys.into_iter().map(|key| self.load(key)).collect()
    }

    /// A piece of music or ambience under `key`, to stream with
    /// [`Music::play`](crate::Music::play). A loader that holds no music
    /// refuses every key (the default).
    ///
    /// # Errors
    /// A [`LoadError`] that names `key`.
    fn music(&mut self, key: &str) -> Result<MusicSource, LoadError> {
        Err(LoadError::UnknownKey { key: key.into() })
    }
}

/// Loads sound files (WAV, OGG, FLAC, MP3) from a folder; the key is the file's
/// path relative to it, and never reaches outside it (no `..`, no absolute path, no
/// symbolic link to elsewhere). Decoded sounds are cached.
///
/// ```
/// use pool_audio::{loader::FileLoader, loader::LoadError};
///
/// # let dir = std::env::temp_dir().join(format!("pool-audio-loader-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let spec = hound::WavSpec { channels: 1, sample_rate: 48_000, bits_per_sample: 16, sample_format: hound::SampleFormat::Int };
/// # let mut wav = hound::WavWriter::create(dir.join("click.wav"), spec)?;
/// # for i in 0..480 { wav.write_sample((i % 64 * 100) as i16)?; }
/// # wav.finalize()?;
/// // `dir` holds click.wav, 480 frames.
/// let mut sounds = FileLoader::new(&dir);
/// assert_eq!(sounds.load("click.wav")?.frames.len(), 480);
/// assert!(matches!(sounds.load("missing.ogg"), Err(LoadError::Missing { .. })));
/// assert!(matches!(sounds.load("../click.wav"), Err(LoadError::InvalidKey { .. })));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct FileLoader {
    root: PathBuf,
    max_frames: usize,
    cache: HashMap<String, StaticSoundData>,
}

impl FileLoader {
    /// A loader for the files under `root`.
    ///
    /// ```
    /// # use pool_audio::loader::FileLoader;
    /// let loader = FileLoader::new("assets/sfx");
    /// assert_eq!(loader.root(), std::path::Path::new("assets/sfx"));
    /// ```
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self {
            root: root.into(),
            max_frames: DEFAULT_MAX_FRAMES,
            cache: HashMap::new(),
        }
    }

    /// The most frames one sound may decode to (default [`DEFAULT_MAX_FRAMES`]);
    /// a longer one is refused with [`LoadError::TooLong`], from its header
    /// before decoding where the format gives its length, else while decoding.
    /// Loading holds at most the decoded frames (8 bytes each) at once, plus
    /// the decoder's own buffers.
    ///
    /// ```
    /// # use pool_audio::{loader::FileLoader, loader::LoadError};
    /// # let dir = std::env::temp_dir().join(format!("pool-audio-limit-doc-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let spec = hound::WavSpec { channels: 1, sample_rate: 48_000, bits_per_sample: 16, sample_format: hound::SampleFormat::Int };
    /// # let mut wav = hound::WavWriter::create(dir.join("hum.wav"), spec)?;
    /// # for i in 0..4800 { wav.write_sample((i % 64 * 100) as i16)?; }
    /// # wav.finalize()?;
    /// // `dir` holds hum.wav, 4,800 frames.
    /// let mut short_only = FileLoader::new(&dir).max_frames(1_000);
    /// assert!(matches!(short_only.load("hum.wav"), Err(LoadError::TooLong { max_frames: 1_000, .. })));
    /// assert_eq!(FileLoader::new(&dir).load("hum.wav")?.num_frames(), 4_800);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_frames(mut self, frames: usize) -> Self {
        self.max_frames = frames;
        self
    }

    /// The folder keys are relative to.
    ///
    /// ```
    /// # use pool_audio::loader::FileLoader;
    /// assert_eq!(FileLoader::new("sfx").root(), std::path::Path::new("sfx"));
    /// ```
    pub fn root(&self) -> &Path {
        &self.root
    }
}

impl FileLoader {
    /// The sound in the file `key` (relative to the root), decoded, or from
    /// the cache. No trait import is needed.
    ///
    /// # Errors
    /// [`LoadError::InvalidKey`] for a key that leaves the root,
    /// [`LoadError::Missing`], [`LoadError::Corrupt`], [`LoadError::TooLong`],
    /// [`LoadError::Sound`].
    pub fn load(&mut self, key: &str) -> Result<StaticSoundData, LoadError> {
        if let Some(sound) = self.cache.get(key) {
            return Ok(sound.clone());
        }
        let path = self.file(key)?;
        let sound = decode::decode(key, || std::fs::File::open(&path), self.max_frames)?;
        playable(key, &sound)?;
        self.cache.insert(key.into(), sound.clone());
        Ok(sound)
    }

    /// The takes of one varied sound, each loaded as [`load`](Self::load)
    /// does.
    ///
    /// # Errors
    /// The first failing take's [`LoadError`].
    pub fn takes<'k>(
        &mut self,
        keys: impl IntoIterator<Item = &'k str>,
    ) -> Result<Recordings, LoadError> {
        SoundLoader::takes(self, keys)
    }

    /// The file `key` as a piece of music, streamed when it plays: the file
    /// is opened and its format read now, so a missing or corrupt file is
    /// refused here rather than when it starts.
    ///
    /// # Errors
    /// [`LoadError::InvalidKey`], [`LoadError::Missing`],
    /// [`LoadError::Corrupt`].
    pub fn music(&mut self, key: &str) -> Result<MusicSource, LoadError> {
        let path = self.file(key)?;
        let file = std::fs::File::open(&path).map_err(|error| LoadError::Corrupt {
            key: key.into(),
            reason: error.to_string(),
        })?;
        Decoding::open(key, Box::new(file))?;
        Ok(MusicSource::named_file(key, path))
    }

    /// The path of `key`'s file, which must lie inside the root.
    fn file(&self, key: &str) -> Result<PathBuf, LoadError> {
        let relative = Path::new(key);
        let inside = !key.is_empty()
            && relative
                .components()
                .all(|part| matches!(part, Component::Normal(_) | Component::CurDir));
        if !inside {
            return Err(LoadError::InvalidKey { key: key.into() });
        }
        let path = self.root.join(relative);
        if !path.is_file() {
            return Err(LoadError::Missing {
                key: key.into(),
                path,
            });
        }
        // Resolve symbolic links: the file itself must lie inside the root.
        let inside_root = match (path.canonicalize(), self.root.canonicalize()) {
            (Ok(file), Ok(root)) => file.starts_with(root),
            _ => false,
        };
        if !inside_root {
            return Err(LoadError::InvalidKey { key: key.into() });
        }
        Ok(path)
    }
}

impl SoundLoader for FileLoader {
    fn load(&mut self, key: &str) -> Result<StaticSoundData, LoadError> {
        FileLoader::load(self, key)
    }

    fn music(&mut self, key: &str) -> Result<MusicSource, LoadError> {
        FileLoader::music(self, key)
    }
}

/// What a [`MemoryLoader`] holds under a key: the encoded file (kept for
/// music), and the decoded sound once it was first loaded.
#[derive(Debug, Clone, Default)]
struct Stored {
    encoded: Option<Arc<[u8]>>,
    decoded: Option<Box<StaticSoundData>>,
}

/// Sounds held in memory: encoded files (`include_bytes!`, a pack file) decoded on
/// first use and cached, or sounds already decoded or synthesized.
///
/// ```
/// use pool_audio::{loader::MemoryLoader};
///
/// let mut loader = MemoryLoader::new();
/// loader.insert_encoded("broken", b"not audio".to_vec());
/// assert!(loader.load("broken").is_err());
/// ```
#[derive(Debug, Clone)]
pub struct MemoryLoader {
    sources: HashMap<String, Stored>,
    max_frames: usize,
}

impl Default for MemoryLoader {
    fn default() -> Self {
        Self {
            sources: HashMap::new(),
            max_frames: DEFAULT_MAX_FRAMES,
        }
    }
}

impl MemoryLoader {
    /// An empty loader.
    ///
    /// ```
    /// # use pool_audio::{loader::MemoryLoader};
    /// let mut loader = MemoryLoader::new();
    /// assert!(loader.load("anything").is_err());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// The most frames one encoded sound may decode to (default
    /// [`DEFAULT_MAX_FRAMES`]), as [`FileLoader::max_frames`]. Sounds inserted
    /// decoded are not counted: they are in memory already.
    ///
    /// ```
    /// # use pool_audio::{loader::LoadError, loader::MemoryLoader};
    /// # let mut bytes = std::io::Cursor::new(Vec::new());
    /// # let spec = hound::WavSpec { channels: 2, sample_rate: 44_100, bits_per_sample: 16, sample_format: hound::SampleFormat::Int };
    /// # let mut wav = hound::WavWriter::new(&mut bytes, spec)?;
    /// # for i in 0..8820 { wav.write_sample((i % 64 * 100) as i16)?; }
    /// # wav.finalize()?;
    /// let mut loader = MemoryLoader::new().max_frames(4_000);
    /// loader.insert_encoded("long", bytes.into_inner()); // 4,410 stereo frames
    /// assert!(matches!(loader.load("long"), Err(LoadError::TooLong { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_frames(mut self, frames: usize) -> Self {
        self.max_frames = frames;
        self
    }

    /// Registers an encoded sound file's bytes under `key`, decoded on first load.
    ///
    /// ```
    /// # use pool_audio::{loader::MemoryLoader};
    /// let mut loader = MemoryLoader::new();
    /// loader.insert_encoded("click", vec![0u8; 16]);
    /// // Sixteen zero bytes are no sound file: a typed error that names the key.
    /// assert!(loader.load("click").unwrap_err().to_string().contains("click"));
    /// ```
    pub fn insert_encoded(&mut self, key: impl Into<String>, bytes: impl Into<Arc<[u8]>>) {
        let stored = Stored {
            encoded: Some(bytes.into()),
            decoded: None,
        };
        self.sources.insert(key.into(), stored);
    }

    /// Registers a decoded (or synthesized) sound under `key`.
    ///
    /// ```
    /// # use pool_audio::{loader::MemoryLoader};
    /// use pool_audio::kira::sound::static_sound::StaticSoundData;
    ///
    /// let mut loader = MemoryLoader::new();
    /// loader.insert_sound("beep", StaticSoundData {
    ///     sample_rate: 48_000,
    ///     frames: vec![pool_audio::kira::Frame::ZERO; 480].into(),
    ///     settings: Default::default(),
    ///     slice: None,
    /// });
    /// assert_eq!(loader.load("beep")?.num_frames(), 480);
    /// # Ok::<(), pool_audio::loader::LoadError>(())
    /// ```
    pub fn insert_sound(&mut self, key: impl Into<String>, sound: StaticSoundData) {
        let stored = Stored {
            encoded: None,
            decoded: Some(Box::new(sound)),
        };
        self.sources.insert(key.into(), stored);
    }
}

impl MemoryLoader {
    /// The sound under `key`, decoded on its first load. No trait import is
    /// needed.
    ///
    /// # Errors
    /// [`LoadError::UnknownKey`], [`LoadError::Corrupt`],
    /// [`LoadError::TooLong`], [`LoadError::Sound`].
    pub fn load(&mut self, key: &str) -> Result<StaticSoundData, LoadError> {
        let source = self
            .sources
            .get_mut(key)
            .ok_or_else(|| LoadError::UnknownKey { key: key.into() })?;
        let sound = match (&source.decoded, &source.encoded) {
            (Some(sound), _) => StaticSoundData::clone(sound),
            (None, Some(bytes)) => {
                let bytes = bytes.clone();
                let sound =
                    decode::decode(key, || Ok(Cursor::new(bytes.clone())), self.max_frames)?;
                source.decoded = Some(Box::new(sound.clone()));
                sound
            }
            (None, None) => return Err(LoadError::UnknownKey { key: key.into() }),
        };
        playable(key, &sound)?;
        Ok(sound)
    }

    /// The takes of one varied sound, each loaded as [`load`](Self::load)
    /// does.
    ///
    /// # Errors
    /// The first failing take's [`LoadError`].
    pub fn takes<'k>(
        &mut self,
        keys: impl IntoIterator<Item = &'k str>,
    ) -> Result<Recordings, LoadError> {
        SoundLoader::takes(self, keys)
    }

    /// The encoded file under `key` as a piece of music, streamed from memory
    /// when it plays (its format is read now). The bytes are kept encoded for
    /// music even once the key was loaded as a sound.
    ///
    /// # Errors
    /// [`LoadError::UnknownKey`], [`LoadError::NotEncoded`] for a sound
    /// inserted decoded, [`LoadError::Corrupt`].
    pub fn music(&mut self, key: &str) -> Result<MusicSource, LoadError> {
        let stored = self
            .sources
            .get(key)
            .ok_or_else(|| LoadError::UnknownKey { key: key.into() })?;
        let bytes = stored
            .encoded
            .clone()
            .ok_or_else(|| LoadError::NotEncoded { key: key.into() })?;
        Decoding::open(key, Box::new(Cursor::new(bytes.clone())))?;
        Ok(MusicSource::encoded(key, bytes))
    }
}

impl SoundLoader for MemoryLoader {
    fn load(&mut self, key: &str) -> Result<StaticSoundData, LoadError> {
        MemoryLoader::load(self, key)
    }

    fn music(&mut self, key: &str) -> Result<MusicSource, LoadError> {
        MemoryLoader::music(self, key)
    }
}

/// Refuses data kira cannot play, as `add_sound` would.
fn playable(key: &str, sound: &StaticSoundData) -> Result<(), LoadError> {
    playable_frames(sound)
        .map(|_| ())
        .map_err(|error| LoadError::Sound {
            key: key.into(),
            error,
        })
}

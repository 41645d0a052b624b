//! Where sounds come from (the loader interface a Unity sound manager injects): a trait, a loader rooted at
//! a folder, and one over bytes or sounds already in memory. Decoded sounds are
//! cached by key; kira's `StaticSoundData` clones share their samples, so a cache
//! hit costs a reference count. Files are decoded within a budget of frames
//! (`loader/decode.rs`).

mod decode;

pub(crate) use decode::Decoding;

use std::collections::HashMap;
use std::fmt;
use std::io::Cursor;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use kira::sound::static_sound::StaticSoundData;

use crate::sound_error::{SoundError, playable_frames};

/// The most frames a loader decodes one sound to unless told otherwise
/// (`max_frames`): 8,388,608 frames, 64 MiB of decoded stereo samples, 2 min 54 s
/// at 48 kHz. A sound effect is seconds long; a file that decodes to more is
/// refused with [`LoadError::TooLong`] before its frames are allocated.
pub const DEFAULT_MAX_FRAMES: usize = 1 << 23;

/// Why a sound could not be loaded. Every variant names the key asked for.
///
/// ```
/// use pool_audio::{loader::LoadError, loader::MemoryLoader, loader::SoundLoader};
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
            Self::Sound { key, error } => write!(f, "sound {key:?} cannot be played: {error}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// Loads sounds by key. Implement it for a pack file, an asset server, a
/// procedural generator.
///
/// ```
/// use kira::sound::static_sound::StaticSoundData;
/// use pool_audio::{loader::LoadError, loader::SoundLoader};
///
/// /// Every key is the same click, made on the fly.
/// struct Clicks;
///
/// impl SoundLoader for Clicks {
///     fn load(&mut self, key: &str) -> Result<StaticSoundData, LoadError> {
///         Ok(StaticSoundData {
///             sample_rate: 48_000,
///             frames: vec![kira::Frame { left: 1.0, right: 1.0 }; 48].into(),
///             settings: Default::default(),
///             slice: None,
///         })
///     }
/// }
///
/// assert!(Clicks.load("anything").is_ok());
/// ```
pub trait SoundLoader {
    /// The sound for `key`, decoded.
    ///
    /// # Errors
    /// A [`LoadError`] that names `key`.
    fn load(&mut self, key: &str) -> Result<StaticSoundData, LoadError>;
}

/// Loads sound files (WAV, OGG, FLAC, MP3) from a folder; the key is the file's
/// path relative to it, and never reaches outside it (no `..`, no absolute path, no
/// symbolic link to elsewhere). Decoded sounds are cached.
///
/// ```
/// use pool_audio::{loader::FileLoader, loader::LoadError, loader::SoundLoader};
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
    /// # use pool_audio::{loader::FileLoader, loader::LoadError, loader::SoundLoader};
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

impl SoundLoader for FileLoader {
    fn load(&mut self, key: &str) -> Result<StaticSoundData, LoadError> {
        if let Some(sound) = self.cache.get(key) {
            return Ok(sound.clone());
        }
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
        let sound = decode::decode(key, || std::fs::File::open(&path), self.max_frames)?;
        playable(key, &sound)?;
        self.cache.insert(key.into(), sound.clone());
        Ok(sound)
    }
}

/// What a [`MemoryLoader`] holds under a key: the encoded file, until its first
/// load decodes it.
#[derive(Debug, Clone)]
enum Stored {
    Encoded(Arc<[u8]>),
    Decoded(Box<StaticSoundData>),
}

/// Sounds held in memory: encoded files (`include_bytes!`, a pack file) decoded on
/// first use and cached, or sounds already decoded or synthesized.
///
/// ```
/// use pool_audio::{loader::MemoryLoader, loader::SoundLoader};
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
    /// # use pool_audio::{loader::MemoryLoader, loader::SoundLoader};
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
    /// # use pool_audio::{loader::LoadError, loader::MemoryLoader, loader::SoundLoader};
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
    /// # use pool_audio::{loader::MemoryLoader, loader::SoundLoader};
    /// let mut loader = MemoryLoader::new();
    /// loader.insert_encoded("click", vec![0u8; 16]);
    /// // Sixteen zero bytes are no sound file: a typed error that names the key.
    /// assert!(loader.load("click").unwrap_err().to_string().contains("click"));
    /// ```
    pub fn insert_encoded(&mut self, key: impl Into<String>, bytes: impl Into<Arc<[u8]>>) {
        self.sources
            .insert(key.into(), Stored::Encoded(bytes.into()));
    }

    /// Registers a decoded (or synthesized) sound under `key`.
    ///
    /// ```
    /// # use pool_audio::{loader::MemoryLoader, loader::SoundLoader};
    /// use kira::sound::static_sound::StaticSoundData;
    ///
    /// let mut loader = MemoryLoader::new();
    /// loader.insert_sound("beep", StaticSoundData {
    ///     sample_rate: 48_000,
    ///     frames: vec![kira::Frame::ZERO; 480].into(),
    ///     settings: Default::default(),
    ///     slice: None,
    /// });
    /// assert_eq!(loader.load("beep")?.num_frames(), 480);
    /// # Ok::<(), pool_audio::loader::LoadError>(())
    /// ```
    pub fn insert_sound(&mut self, key: impl Into<String>, sound: StaticSoundData) {
        self.sources
            .insert(key.into(), Stored::Decoded(Box::new(sound)));
    }
}

impl SoundLoader for MemoryLoader {
    fn load(&mut self, key: &str) -> Result<StaticSoundData, LoadError> {
        let source = self
            .sources
            .get_mut(key)
            .ok_or_else(|| LoadError::UnknownKey { key: key.into() })?;
        let sound = match source {
            Stored::Decoded(sound) => StaticSoundData::clone(sound),
            Stored::Encoded(bytes) => {
                let bytes = bytes.clone();
                let sound =
                    decode::decode(key, || Ok(Cursor::new(bytes.clone())), self.max_frames)?;
                *source = Stored::Decoded(Box::new(sound.clone()));
                sound
            }
        };
        playable(key, &sound)?;
        Ok(sound)
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

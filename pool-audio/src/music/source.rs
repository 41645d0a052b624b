//! Where a piece of music comes from: a file, encoded bytes in memory, or any
//! reader the game opens. Cheap to clone: a piece is opened again to loop or to
//! seek.

use std::fmt;
use std::io::{self, Cursor, Read, Seek};
use std::path::PathBuf;
use std::sync::Arc;

use symphonia::core::io::MediaSource;

use crate::loader::Decoding;

type Open = dyn Fn() -> io::Result<Box<dyn MediaSource>> + Send + Sync;

/// A piece of music or ambience to stream: WAV, Ogg Vorbis, FLAC or MP3,
/// decoded a packet at a time as it plays (memory does not grow with its
/// length). Cloning shares it.
///
/// ```
/// use pool_audio::music::MusicSource;
///
/// let theme = MusicSource::file("assets/music/theme.ogg");
/// assert_eq!(theme.name(), "assets/music/theme.ogg");
/// let bed = MusicSource::encoded("wind", vec![0u8; 16]);
/// assert_eq!(bed.name(), "wind");
/// ```
#[derive(Clone)]
pub struct MusicSource {
    name: Arc<str>,
    open: Arc<Open>,
}

impl fmt::Debug for MusicSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("MusicSource").field(&self.name).finish()
    }
}

/// A reader the game opens, as symphonia reads it.
struct Reader<R> {
    inner: R,
    len: Option<u64>,
}

impl<R: Read> Read for Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf)
    }
}

impl<R: Seek> Seek for Reader<R> {
    fn seek(&mut self, pos: io::SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

impl<R: Read + Seek + Send + Sync> MediaSource for Reader<R> {
    fn is_seekable(&self) -> bool {
        true
    }

    fn byte_len(&self) -> Option<u64> {
        self.len
    }
}

impl MusicSource {
    /// A file, opened when it plays (and again to loop or seek). Its name is the
    /// path.
    pub fn file(path: impl Into<PathBuf>) -> Self {
        let path: PathBuf = path.into();
        let name = path.display().to_string();
        Self::from_open(name, move || {
            let file = std::fs::File::open(&path)?;
            Ok(Box::new(file) as Box<dyn MediaSource>)
        })
    }

    /// A file under another name (a loader's key).
    pub(crate) fn named_file(name: &str, path: PathBuf) -> Self {
        Self::from_open(name.into(), move || {
            let file = std::fs::File::open(&path)?;
            Ok(Box::new(file) as Box<dyn MediaSource>)
        })
    }

    /// Encoded bytes in memory (an Ogg file the game loaded, say): the memory
    /// is the encoded size; frames are decoded as they play.
    pub fn encoded(name: impl Into<String>, bytes: impl Into<Arc<[u8]>>) -> Self {
        let bytes: Arc<[u8]> = bytes.into();
        Self::from_open(name.into(), move || {
            Ok(Box::new(Cursor::new(bytes.clone())) as Box<dyn MediaSource>)
        })
    }

    /// Any seekable reader of an encoded file, opened by `open` each time the
    /// piece starts, loops or seeks; `len` is its length in bytes if known.
    pub fn reader<R, F>(name: impl Into<String>, len: Option<u64>, open: F) -> Self
    where
        R: Read + Seek + Send + Sync + 'static,
        F: Fn() -> io::Result<R> + Send + Sync + 'static,
    {
        Self::from_open(name.into(), move || {
            let inner = open()?;
            Ok(Box::new(Reader { inner, len }) as Box<dyn MediaSource>)
        })
    }

    fn from_open(
        name: String,
        open: impl Fn() -> io::Result<Box<dyn MediaSource>> + Send + Sync + 'static,
    ) -> Self {
        Self {
            name: name.into(),
            open: Arc::new(open),
        }
    }

    /// The path, or the name it was given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Opens it for decoding; the reason as text if it cannot be.
    pub(crate) fn open(&self) -> Result<Decoding, String> {
        let source = (self.open)().map_err(|error| error.to_string())?;
        Decoding::open(&self.name, source).map_err(|error| error.to_string())
    }
}

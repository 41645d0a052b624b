//! Sound in a browser: the mix rendered ahead on the game's thread, played by an
//! AudioWorklet on the browser's audio thread.
//!
//! # Why
//!
//! A browser runs a wasm game on its main thread, beside the page's scripts,
//! layout and garbage collector, and plays sound on an audio thread of its own.
//! kira's own web output (cpal's) renders on the main thread when a buffer node
//! ends and schedules a new node for each 2,048 frames: a main thread held up
//! longer than its buffers is heard as a crackle. Here the main thread renders
//! ahead, by as much as the game chooses ([`WebSettings::buffering`]), into a
//! ring in a `SharedArrayBuffer`, and a small AudioWorklet processor
//! ([`WORKLET_JS`]) plays from the ring on the audio thread, so a stall shorter
//! than the buffering is not heard. The wasm module stays single-threaded and
//! the worklet is plain JavaScript: stable Rust builds it, no nightly, no wasm
//! threads.
//!
//! # How
//!
//! The game makes its kira manager on the [`OfflineBackend`], which renders
//! when asked, and a [`WebOutput`] on it. Each frame it asks the page's half
//! ([`OUTPUT_JS`], a JavaScript module) how many frames the worklet has
//! consumed, and calls [`WebOutput::fill`]: that renders just enough to keep
//! the buffering ahead of the worklet, into a buffer made once, and returns
//! the samples for the page to copy into the ring (`push(pointer, samples)`),
//! a copy loop that allocates nothing. The worklet counts the render quanta
//! (128 frames) it found the ring short, and the game reads that count with
//! [`WebOutput::underruns`].
//!
//! With the `web` feature, on wasm32, `WebPage` does the page's half from
//! Rust (wasm-bindgen brings `output.js` along, and nothing needs serving):
//! made at start-up, it starts the AudioContext and the worklet on the page's
//! first `pointerdown`, `keydown` or `touchend`, and its `frame` fills and
//! hands over in one call (before the first gesture it renders the frame's
//! time unheard, so the mix keeps the game's pace). A frame, in the game's
//! exported function the page calls 60 times a second (wasm32 only, so not
//! compiled here; the web example's `web/src/bindings.rs` runs it):
//!
//! ```ignore
//! // At start-up: sounds from bytes, since a browser has no files.
//! let mut loader = pool_audio::loader::MemoryLoader::new();
//! loader.insert_encoded("laser", include_bytes!("laser.wav").to_vec());
//! let laser = sfx.add_sound("laser", loader.load("laser")?, SoundSettings::default())?;
//! let mut output = WebOutput::new(manager.backend_mut(), WebSettings::default())?;
//! let page = WebPage::on_first_gesture(&output);
//!
//! // Each frame: the game's plays, then the audio, then the update.
//! sfx.play(laser, PlayParams::default())?;
//! page.frame(&mut output, manager.backend_mut(), dt)?;
//! sfx.update(dt)?;
//! let underruns = output.underruns();
//! ```
//!
//! Without the feature, a page's own script calls `PoolAudioOutput.start`
//! ([`OUTPUT_JS`]) from a click handler with the worklet served from
//! [`WORKLET_JS`], and each frame pushes what the game's exported frame
//! function returned from [`WebOutput::fill`].
//!
//! The page must be cross-origin isolated for `SharedArrayBuffer` (served with
//! `Cross-Origin-Opener-Policy: same-origin` and
//! `Cross-Origin-Embedder-Policy: require-corp`). The workspace's web example
//! (`web/` in the repository: `bash scripts/web.sh --serve`, then open
//! <http://127.0.0.1:8765/>) plays the showcase's level through `WebPage` in
//! headless Chromium, and its figures are in the benchmarks page.
//!
//! ```
//! use pool_audio::kira::{AudioManager, AudioManagerSettings};
//! use pool_audio::web::{WebOutput, WebSettings};
//! use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
//! use std::time::Duration;
//!
//! let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
//! let sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
//! let settings = WebSettings { buffering: Duration::from_millis(50) };
//! let mut output = WebOutput::new(manager.backend_mut(), settings)?;
//! assert_eq!(output.buffering_frames(), 2_400);
//!
//! // The first frame fills the buffering; the page copies the samples.
//! let samples = output.fill(manager.backend_mut(), 0, 0)?;
//! assert_eq!(samples.len(), 2 * 2_400);
//! // The worklet has played 800 frames (a 60 Hz frame): 800 more are rendered.
//! let samples = output.fill(manager.backend_mut(), 800, 0)?;
//! assert_eq!(samples.len(), 2 * 800);
//! assert_eq!(output.written(), 3_200);
//! # drop(sfx);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::Duration;

use crate::OfflineBackend;

// On wasm32, and in the docs wherever they are built.
#[cfg(all(feature = "web", any(target_arch = "wasm32", doc)))]
mod page;
#[cfg(all(feature = "web", any(target_arch = "wasm32", doc)))]
pub use page::WebPage;

/// The worklet, for `audioWorklet.addModule`: a JavaScript file that plays the
/// ring (`registerProcessor("pool-audio-output", …)`). A page that drives the
/// output from its own script serves it; `WebPage` loads it from this text.
pub const WORKLET_JS: &str = include_str!("web/worklet.js");

/// The page's half, a JavaScript module: `PoolAudioOutput.start({sampleRate,
/// ringFrames, memory, workletUrl})` from a user gesture makes the
/// AudioContext and the worklet's node; then each frame `consumed()`,
/// `underruns()` and `push(pointer, samples)`. A page that drives the output
/// from its own script serves it; `WebPage` brings it along.
pub const OUTPUT_JS: &str = include_str!("web/output.js");

/// The buffering a [`WebOutput`] keeps ahead of the worklet by default: 100 ms.
/// In headless Chromium, with the game at 60 frames a second and its main
/// thread stalled 30 ms once a second, 40 ms was the least that played without
/// an underrun (the benchmarks page); the default leaves room for longer stalls
/// and slower machines. A game that wants less latency measures its own.
pub const DEFAULT_BUFFERING: Duration = Duration::from_millis(100);

/// The most buffering a [`WebOutput`] takes: 1 s.
pub const MAX_BUFFERING: Duration = Duration::from_secs(1);

/// How a [`WebOutput`] buffers.
///
/// ```
/// use pool_audio::web::{DEFAULT_BUFFERING, WebSettings};
///
/// assert_eq!(WebSettings::default().buffering, DEFAULT_BUFFERING);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WebSettings {
    /// How far the game renders ahead of what the browser plays: the longest
    /// stall of the main thread that is not heard, and the delay from a play
    /// to its sound. More than 0, at most [`MAX_BUFFERING`].
    pub buffering: Duration,
}

impl Default for WebSettings {
    fn default() -> Self {
        Self {
            buffering: DEFAULT_BUFFERING,
        }
    }
}

/// What was wrong with a [`WebOutput`]'s settings or a frame's figures.
/// Nothing changed.
///
/// ```
/// use pool_audio::kira::{AudioManager, AudioManagerSettings};
/// use pool_audio::web::{WebError, WebOutput, WebSettings};
/// use pool_audio::OfflineBackend;
/// use std::time::Duration;
///
/// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
/// let none = WebSettings { buffering: Duration::ZERO };
/// assert_eq!(WebOutput::new(manager.backend_mut(), none).err(), Some(WebError::Buffering(Duration::ZERO)));
/// let mut output = WebOutput::new(manager.backend_mut(), WebSettings::default())?;
/// // The page says more was played than was ever written.
/// let error = output.fill(manager.backend_mut(), 10, 0).unwrap_err();
/// assert_eq!(error, WebError::Consumed { consumed: 10, written: 0 });
/// assert_eq!(output.written(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum WebError {
    /// The buffering is zero or over [`MAX_BUFFERING`].
    Buffering(Duration),
    /// The page said the worklet consumed frames that were never written
    /// (a count from another output, or one not read from this output's ring).
    Consumed {
        /// The frames the page said were consumed.
        consumed: u32,
        /// The frames written so far.
        written: u32,
    },
    /// A duration to [`skip`](WebOutput::skip) that is negative, NaN or
    /// infinite.
    Seconds(f64),
    /// The backend renders at another sample rate than the output was made for.
    SampleRate {
        /// The output's rate.
        output: u32,
        /// The backend's.
        backend: u32,
    },
}

impl std::fmt::Display for WebError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Buffering(buffering) => write!(
                f,
                "a buffering of {buffering:?} is not in (0, {MAX_BUFFERING:?}]"
            ),
            Self::Consumed { consumed, written } => write!(
                f,
                "the worklet cannot have consumed {consumed} frames: {written} were written"
            ),
            Self::Seconds(seconds) => write!(
                f,
                "cannot skip {seconds} s of audio: a duration is finite and not negative"
            ),
            Self::SampleRate { output, backend } => write!(
                f,
                "the output was made for {output} Hz, the backend renders at {backend} Hz"
            ),
        }
    }
}

impl std::error::Error for WebError {}

/// The game's side of the web output: renders ahead of the worklet, into a
/// buffer made once. See the [module](self) for the whole path.
#[derive(Debug)]
pub struct WebOutput {
    samples: Vec<f32>,
    /// Interleaved samples of the last fill.
    filled: usize,
    sample_rate: u32,
    buffering: u32,
    ring: u32,
    /// Frames handed to the page, wrapping as the worklet's counters do.
    written: u32,
    /// What [`skip`](Self::skip) was asked for beyond whole frames.
    skipped: f64,
    underruns: u32,
}

impl WebOutput {
    /// An output for the manager's `backend`, buffering as `settings` say.
    ///
    /// # Errors
    /// [`WebError::Buffering`] for a buffering of zero or over
    /// [`MAX_BUFFERING`].
    pub fn new(backend: &OfflineBackend, settings: WebSettings) -> Result<Self, WebError> {
        let buffering = settings.buffering;
        if buffering.is_zero() || buffering > MAX_BUFFERING {
            return Err(WebError::Buffering(buffering));
        }
        let sample_rate = backend.sample_rate();
        let frames = (buffering.as_secs_f64() * f64::from(sample_rate)).ceil() as u32;
        let frames = frames.max(1);
        Ok(Self {
            samples: vec![0.0; frames as usize * 2],
            filled: 0,
            sample_rate,
            buffering: frames,
            ring: frames.next_power_of_two().max(256),
            written: 0,
            skipped: 0.0,
            underruns: 0,
        })
    }

    /// Renders what keeps the buffering ahead of the worklet, which has
    /// `consumed` frames and found the ring short `underruns` times (both as
    /// the page reads them, `consumed()` and `underruns()`), and returns the
    /// samples for the page to push into the ring: interleaved stereo, none
    /// when the worklet is still far enough behind. Allocates nothing.
    ///
    /// # Errors
    /// [`WebError::Consumed`] when `consumed` is past what was written,
    /// [`WebError::SampleRate`] for a backend at another rate; nothing is
    /// rendered.
    pub fn fill(
        &mut self,
        backend: &mut OfflineBackend,
        consumed: u32,
        underruns: u32,
    ) -> Result<&[f32], WebError> {
        if backend.sample_rate() != self.sample_rate {
            return Err(WebError::SampleRate {
                output: self.sample_rate,
                backend: backend.sample_rate(),
            });
        }
        let ahead = self.written.wrapping_sub(consumed);
        if ahead > self.buffering {
            return Err(WebError::Consumed {
                consumed,
                written: self.written,
            });
        }
        let frames = (self.buffering - ahead) as usize;
        self.filled = frames * 2;
        backend.render_into(&mut self.samples[..self.filled]);
        self.written = self.written.wrapping_add(frames as u32);
        self.underruns = underruns;
        Ok(&self.samples[..self.filled])
    }

    /// Renders `seconds` of the mix unheard, before the page plays (the
    /// AudioContext starts on the first user gesture): the mix keeps the
    /// game's pace, so voices played on a title screen end as they would
    /// have instead of waiting in the voice bank and filling it. Nothing is
    /// handed to the page. Allocates nothing.
    ///
    /// ```
    /// # use pool_audio::kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::web::{WebError, WebOutput, WebSettings};
    /// # use pool_audio::OfflineBackend;
    /// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut output = WebOutput::new(manager.backend_mut(), WebSettings::default())?;
    /// output.skip(manager.backend_mut(), 1.0 / 60.0)?;
    /// assert_eq!(manager.backend_mut().rendered_seconds(), 800.0 / 48_000.0);
    /// assert_eq!(output.written(), 0);
    /// assert_eq!(output.skip(manager.backend_mut(), -1.0), Err(WebError::Seconds(-1.0)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`WebError::Seconds`] for a negative, NaN or infinite `seconds`,
    /// [`WebError::SampleRate`] for a backend at another rate; nothing is
    /// rendered.
    pub fn skip(&mut self, backend: &mut OfflineBackend, seconds: f64) -> Result<(), WebError> {
        if !seconds.is_finite() || seconds < 0.0 {
            return Err(WebError::Seconds(seconds));
        }
        if backend.sample_rate() != self.sample_rate {
            return Err(WebError::SampleRate {
                output: self.sample_rate,
                backend: backend.sample_rate(),
            });
        }
        let exact = seconds * f64::from(self.sample_rate) + self.skipped;
        let mut frames = exact.floor();
        self.skipped = exact - frames;
        while frames > 0.0 {
            let chunk = frames.min(f64::from(self.buffering));
            backend.render_into(&mut self.samples[..chunk as usize * 2]);
            frames -= chunk;
        }
        self.filled = 0;
        Ok(())
    }

    /// The samples of the last [`fill`](Self::fill).
    pub fn samples(&self) -> &[f32] {
        &self.samples[..self.filled]
    }

    /// The frames handed to the page so far (wrapping at 2^32, as the page's
    /// counters do).
    pub fn written(&self) -> u32 {
        self.written
    }

    /// The render quanta (128 frames) the worklet found the ring short since
    /// the first fill, as of the last [`fill`](Self::fill): each a gap heard.
    pub fn underruns(&self) -> u32 {
        self.underruns
    }

    /// The frames kept ahead of the worklet.
    pub fn buffering_frames(&self) -> u32 {
        self.buffering
    }

    /// The frames the page's ring must hold (`ringFrames`): a power of two,
    /// at least the buffering.
    pub fn ring_frames(&self) -> u32 {
        self.ring
    }

    /// The sample rate the page's AudioContext must run at (`sampleRate`).
    pub fn sample_rate(&self) -> u32 {
        self.sample_rate
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kira::{AudioManager, AudioManagerSettings};

    fn manager() -> AudioManager<OfflineBackend> {
        AudioManager::new(AudioManagerSettings::default()).unwrap()
    }

    #[test]
    fn the_ring_never_holds_more_than_the_buffering_and_wraps_with_the_page() {
        let mut manager = manager();
        let settings = WebSettings {
            buffering: Duration::from_millis(20),
        };
        let mut output = WebOutput::new(manager.backend_mut(), settings).unwrap();
        assert_eq!(output.buffering_frames(), 960);
        assert_eq!(output.ring_frames(), 1_024);
        // The counters start near the wrap, as after 25 hours at 48 kHz.
        output.written = u32::MAX - 100;
        let mut consumed = output.written;
        for step in 0..200u32 {
            let rendered = output
                .fill(manager.backend_mut(), consumed, 0)
                .unwrap()
                .len()
                / 2;
            let ahead = output.written().wrapping_sub(consumed);
            assert_eq!(ahead, 960, "step {step}: {rendered} rendered");
            consumed = consumed.wrapping_add(128 * (step % 8));
        }
        assert!(output.written() < 1_000_000, "wrapped");
    }

    #[test]
    fn another_rate_is_refused() {
        let mut manager = manager();
        let mut output = WebOutput::new(manager.backend_mut(), WebSettings::default()).unwrap();
        let mut other = AudioManager::<OfflineBackend>::new(AudioManagerSettings {
            backend_settings: crate::offline::OfflineSettings {
                sample_rate: 44_100,
            },
            ..Default::default()
        })
        .unwrap();
        let error = output.fill(other.backend_mut(), 0, 0).unwrap_err();
        assert_eq!(
            error,
            WebError::SampleRate {
                output: 48_000,
                backend: 44_100
            }
        );
        assert_eq!(output.written(), 0);
        let over = WebSettings {
            buffering: Duration::from_millis(1_001),
        };
        assert!(WebOutput::new(manager.backend_mut(), over).is_err());
    }
}

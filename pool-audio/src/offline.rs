//! A kira backend with no audio device: the mix is rendered on demand into memory,
//! at any sample rate, as fast as the CPU allows. Tests, CI and the demos run on it.

use std::path::Path;

use kira::backend::{Backend, Renderer};

/// The highest sample rate the [`OfflineBackend`] renders at.
pub const MAX_OFFLINE_SAMPLE_RATE: u32 = 384_000;

/// Settings for the [`OfflineBackend`].
///
/// ```
/// use pool_audio::offline::OfflineSettings;
///
/// assert_eq!(OfflineSettings::default().sample_rate, 48_000);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OfflineSettings {
    /// Frames per second of the rendered mix, `1..=384_000`.
    pub sample_rate: u32,
}

impl Default for OfflineSettings {
    fn default() -> Self {
        Self {
            sample_rate: 48_000,
        }
    }
}

/// Why the offline backend could not do what was asked.
///
/// ```
/// use pool_audio::kira::{AudioManager, AudioManagerSettings};
/// use pool_audio::{OfflineBackend, offline::OfflineError, offline::OfflineSettings};
///
/// let settings = AudioManagerSettings {
///     backend_settings: OfflineSettings { sample_rate: 0 },
///     ..Default::default()
/// };
/// assert!(matches!(AudioManager::<OfflineBackend>::new(settings), Err(OfflineError::SampleRate(0))));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum OfflineError {
    /// The sample rate is not in `1..=384_000`.
    SampleRate(u32),
    /// `render` was given a duration that is negative, NaN or infinite.
    Duration(f64),
    /// `render` was asked for more audio than fits in memory.
    TooLong {
        /// The duration asked for, in seconds.
        seconds: f64,
        /// The samples that would have been needed.
        samples: u128,
    },
    /// Writing a WAV file failed.
    Wav(hound::Error),
}

impl std::fmt::Display for OfflineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::SampleRate(rate) => write!(
                f,
                "sample rate {rate} Hz is not in 1..={MAX_OFFLINE_SAMPLE_RATE}"
            ),
            Self::Duration(seconds) => write!(f, "cannot render {seconds} seconds"),
            Self::TooLong { seconds, samples } => write!(
                f,
                "{seconds} s of audio ({samples} samples) does not fit in memory"
            ),
            Self::Wav(error) => write!(f, "writing the WAV file failed: {error}"),
        }
    }
}

impl std::error::Error for OfflineError {}

/// A kira [`Backend`](https://docs.rs/kira/0.12/kira/backend/trait.Backend.html) that renders the mix into memory when asked, instead of
/// playing it: `AudioManager<OfflineBackend>` works like any kira manager, and
/// `manager.backend_mut().render(seconds)` produces the next `seconds` of output.
///
/// ```
/// use pool_audio::kira::{AudioManager, AudioManagerSettings};
/// use pool_audio::OfflineBackend;
///
/// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
/// let silence = manager.backend_mut().render(0.5)?;
/// assert_eq!(silence.frames(), 24_000);
/// assert!(silence.samples().iter().all(|s| *s == 0.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct OfflineBackend {
    sample_rate: u32,
    renderer: Option<Renderer>,
    /// Frames rendered so far: the offline clock.
    rendered: u64,
    /// What `render` asked for beyond the whole frames it rendered, in frames
    /// (`-0.5..0.5`): carried into the next call, so that audio time follows the
    /// sum of the durations asked for, not each one rounded.
    carry: f64,
}

impl Backend for OfflineBackend {
    type Settings = OfflineSettings;
    type Error = OfflineError;

    fn setup(
        settings: OfflineSettings,
        _internal_buffer_size: usize,
    ) -> Result<(Self, u32), OfflineError> {
        if !(1..=MAX_OFFLINE_SAMPLE_RATE).contains(&settings.sample_rate) {
            return Err(OfflineError::SampleRate(settings.sample_rate));
        }
        Ok((
            Self {
                sample_rate: settings.sample_rate,
                renderer: None,
                rendered: 0,
                carry: 0.0,
            },
            settings.sample_rate,
        ))
    }

    fn start(&mut self, renderer: Renderer) -> Result<(), OfflineError> {
        self.renderer = Some(renderer);
        Ok(())
    }
}

impl OfflineBackend {
    /// Renders the next `seconds` of the mix, after kira's clamp, as interleaved
    /// stereo. Commands sent to the manager before the call (sounds played,
    /// volumes set) take effect at its start.
    ///
    /// Each call renders whole frames and carries the fraction of a frame it left
    /// over into the next call, so audio time keeps up with game time at any frame
    /// rate: 8,640 calls of 1/144 s render exactly one minute (333 or 334 frames
    /// each at 48 kHz), where rounding each call alone would lose 60 ms.
    ///
    /// # Errors
    /// [`OfflineError::Duration`] for a negative, NaN or infinite duration;
    /// [`OfflineError::TooLong`] when the samples cannot be allocated (checked
    /// before anything is rendered, so a huge request fails instead of aborting).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, offline::OfflineSettings};
    /// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings {
    ///     backend_settings: OfflineSettings { sample_rate: 1000 },
    ///     ..Default::default()
    /// })?;
    /// let audio = manager.backend_mut().render(0.25)?;
    /// assert_eq!((audio.frames(), audio.sample_rate()), (250, 1000));
    /// assert!(manager.backend_mut().render(-1.0).is_err());
    /// assert!(manager.backend_mut().render(1e15).is_err(), "a typed error, not an abort");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn render(&mut self, seconds: f64) -> Result<Rendered, OfflineError> {
        let mut samples = Vec::new();
        self.render_append(seconds, &mut samples)?;
        Ok(Rendered {
            sample_rate: self.sample_rate,
            samples,
        })
    }

    /// [`render`](Self::render), appending the samples to `samples` instead of
    /// returning them: with a buffer the caller reuses (cleared each frame, or
    /// one long recording), it allocates nothing once the buffer has grown.
    /// Returns the frames rendered.
    ///
    /// # Errors
    /// As [`render`](Self::render); `samples` is unchanged then.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, offline::OfflineSettings};
    /// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings {
    ///     backend_settings: OfflineSettings { sample_rate: 1000 },
    ///     ..Default::default()
    /// })?;
    /// let mut buffer = Vec::with_capacity(600);
    /// assert_eq!(manager.backend_mut().render_append(0.1, &mut buffer)?, 100);
    /// assert_eq!(manager.backend_mut().render_append(0.1, &mut buffer)?, 100);
    /// assert_eq!(buffer.len(), 400);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn render_append(
        &mut self,
        seconds: f64,
        samples: &mut Vec<f32>,
    ) -> Result<usize, OfflineError> {
        if !seconds.is_finite() || seconds < 0.0 {
            return Err(OfflineError::Duration(seconds));
        }
        let exact = seconds * f64::from(self.sample_rate) + self.carry;
        let frames = exact.round().max(0.0);
        let wanted = (frames as u128).saturating_mul(2);
        let too_long = OfflineError::TooLong {
            seconds,
            samples: wanted,
        };
        let Ok(len) = usize::try_from(wanted) else {
            return Err(too_long);
        };
        if samples.try_reserve(len).is_err() {
            return Err(too_long);
        }
        let start = samples.len();
        samples.resize(start + len, 0.0);
        self.carry = exact - frames;
        Ok(self.render_into(&mut samples[start..]))
    }

    /// Renders the next `samples.len() / 2` frames of the mix into `samples`
    /// (interleaved stereo, after kira's clamp), allocating nothing: for a caller
    /// that reuses one buffer. Returns the frames rendered.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::OfflineBackend;
    /// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut buffer = vec![1.0; 960];
    /// assert_eq!(manager.backend_mut().render_into(&mut buffer), 480);
    /// assert!(buffer.iter().all(|s| *s == 0.0), "silence");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn render_into(&mut self, samples: &mut [f32]) -> usize {
        let frames = samples.len() / 2;
        let samples = &mut samples[..frames * 2];
        samples.fill(0.0);
        if let Some(renderer) = &mut self.renderer {
            // kira's own backends hand the renderer a device-sized buffer at a time
            // and call `on_start_processing` before each: do the same, in blocks of
            // about 10 ms, so commands and parameter changes land on time.
            let block = (self.sample_rate as usize / 100).max(1) * 2;
            for chunk in samples.chunks_mut(block) {
                renderer.on_start_processing();
                renderer.process(chunk, 2);
            }
        }
        self.rendered += frames as u64;
        frames
    }

    /// The sample rate the mix is rendered at.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::OfflineBackend;
    /// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// assert_eq!(manager.backend_mut().sample_rate(), 48_000);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sample_rate(&self) -> u32 {
        self.sample_rate
    }

    /// Seconds of audio rendered so far: the offline clock.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::OfflineBackend;
    /// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// manager.backend_mut().render(1.5)?;
    /// assert_eq!(manager.backend_mut().rendered_seconds(), 1.5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rendered_seconds(&self) -> f64 {
        self.rendered as f64 / f64::from(self.sample_rate)
    }
}

/// Audio rendered by the [`OfflineBackend`]: interleaved stereo `f32` samples.
///
/// ```
/// # use kira::{AudioManager, AudioManagerSettings};
/// # use pool_audio::OfflineBackend;
/// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
/// let audio = manager.backend_mut().render(0.1)?;
/// assert_eq!(audio.samples().len(), 2 * audio.frames());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    sample_rate: u32,
    samples: Vec<f32>,
}

impl Rendered {
    /// Audio from interleaved stereo samples at `sample_rate`: to join renders
    /// into one, for instance. A trailing odd sample is dropped.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, offline::Rendered};
    /// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut samples = Vec::new();
    /// for _ in 0..3 {
    ///     samples.extend_from_slice(manager.backend_mut().render(0.01)?.samples());
    /// }
    /// let joined = Rendered::from_samples(48_000, samples);
    /// assert_eq!(joined.frames(), 1440);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_samples(sample_rate: u32, mut samples: Vec<f32>) -> Self {
        samples.truncate(samples.len() / 2 * 2);
        Self {
            sample_rate,
            samples,
        }
    }

    /// Interleaved left/right samples.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::OfflineBackend;
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let audio = manager.backend_mut().render(0.1)?;
    /// let left: Vec<f32> = audio.samples().iter().step_by(2).copied().collect();
    /// assert_eq!(left.len(), audio.frames());
    /// assert!(left.iter().all(|s| *s == 0.0), "nothing played: silence");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn samples(&self) -> &[f32] {
        &self.samples
    }

    /// Stereo frames (sample pairs).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::OfflineBackend;
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// assert_eq!(manager.backend_mut().render(0.01)?.frames(), 480);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn frames(&self) -> usize {
        self.samples.len() / 2
    }

    /// The sample rate.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::OfflineBackend;
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// assert_eq!(manager.backend_mut().render(0.01)?.sample_rate(), 48_000);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sample_rate(&self) -> u32 {
        self.sample_rate
    }

    /// The largest sample magnitude, after kira's clamp (so at most 1): a
    /// mix that clipped reads 1 here. The level before the clamp is what a
    /// [`MeterBuilder`](crate::MeterBuilder) last on the main track reads
    /// (its `peak()`, and `clipped_samples()`).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::OfflineBackend;
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// assert_eq!(manager.backend_mut().render(0.01)?.peak(), 0.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn peak(&self) -> f32 {
        self.samples.iter().fold(0.0, |peak, s| peak.max(s.abs()))
    }

    /// Writes a 32-bit float stereo WAV file (hound).
    ///
    /// # Errors
    /// [`OfflineError::Wav`] when the file cannot be created or written.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::OfflineBackend;
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let path = std::env::temp_dir().join(format!("pool-audio-doc-{}.wav", std::process::id()));
    /// manager.backend_mut().render(1.0)?.write_wav(&path)?;
    /// let wav = hound::WavReader::open(&path)?;
    /// assert_eq!((wav.spec().channels, wav.len()), (2, 2 * 48_000));
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_wav(&self, path: impl AsRef<Path>) -> Result<(), OfflineError> {
        self.write(path, 32, hound::SampleFormat::Float, |sample| sample)
    }

    /// Writes a 16-bit PCM stereo WAV file: what every tool reads (Python's
    /// `wave` reads only PCM). Each sample is rounded to the nearest of 65,535
    /// steps over `[-1, 1]` (already clamped by kira).
    ///
    /// # Errors
    /// [`OfflineError::Wav`] when the file cannot be created or written.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::OfflineBackend;
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let path = std::env::temp_dir().join(format!("pool-audio-doc-pcm-{}.wav", std::process::id()));
    /// manager.backend_mut().render(0.5)?.write_wav_pcm16(&path)?;
    /// let wav = hound::WavReader::open(&path)?;
    /// assert_eq!((wav.spec().bits_per_sample, wav.spec().sample_format), (16, hound::SampleFormat::Int));
    /// assert_eq!(wav.len(), 2 * 24_000);
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_wav_pcm16(&self, path: impl AsRef<Path>) -> Result<(), OfflineError> {
        self.write(path, 16, hound::SampleFormat::Int, |sample| {
            (sample.clamp(-1.0, 1.0) * f32::from(i16::MAX)).round() as i16
        })
    }

    /// Writes a stereo WAV file of `bits` per sample in `format`, each sample
    /// written as `encode` makes it.
    fn write<S: hound::Sample>(
        &self,
        path: impl AsRef<Path>,
        bits: u16,
        format: hound::SampleFormat,
        encode: impl Fn(f32) -> S,
    ) -> Result<(), OfflineError> {
        let spec = hound::WavSpec {
            channels: 2,
            sample_rate: self.sample_rate,
            bits_per_sample: bits,
            sample_format: format,
        };
        let mut writer = hound::WavWriter::create(path, spec).map_err(OfflineError::Wav)?;
        for sample in &self.samples {
            writer
                .write_sample(encode(*sample))
                .map_err(OfflineError::Wav)?;
        }
        writer.finalize().map_err(OfflineError::Wav)
    }
}

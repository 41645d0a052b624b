//! The mix ceiling: a look-ahead peak limiter as a kira effect.
//!
//! Over the workspace's ~600-line guide because its unit tests (the ceiling under
//! every look-ahead, release and sample rate; no allocation on the audio thread)
//! live beside the algorithm they pin down: the limiter itself is under 600 lines.
//!
//! The copy attenuation keeps each sound's stack under the headroom, but several
//! different sounds at once add up. The limiter is the last line: it sees every
//! peak `lookahead` before it is heard and lowers the gain smoothly so that no
//! sample leaves it above the ceiling.
//!
//! How the gain is made (a brick wall, with no overshoot by construction):
//! 1. Each frame's required gain is `min(1, ceiling / peak)`, the peak being the
//!    louder channel (both channels get one gain, so the stereo image holds).
//! 2. The smallest required gain over the last `L + 1` frames (a sliding minimum)
//!    recovers toward it at the release rate, never above it.
//! 3. The moving average of that over `L + 1` frames is the gain applied to the
//!    audio, which is delayed by `L` frames. Every value averaged for a frame's
//!    output already covers that frame's own required gain, so the average does
//!    too: the attack is a straight ramp over the look-ahead, and the peak lands
//!    exactly on the ceiling.
//!
//! Nothing is allocated on the audio thread: the buffers are sized in `init` (on
//! the game thread, when the track is added) for up to 192 kHz.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use kira::Frame;
use kira::effect::{Effect, EffectBuilder};
use kira::info::Info;

use crate::level::amplitude;

/// The sample rate the limiter's buffers are sized for at least; above it the
/// look-ahead is shortened to what fits (the ceiling still holds).
const SIZED_FOR_RATE: u32 = 192_000;

/// The limiter counts as acting below this gain (0.01 dB of reduction).
const ACTIVE_BELOW: f32 = 0.998_849;

/// How a [`LimiterBuilder`] limits: ceiling, look-ahead and release.
///
/// ```
/// use std::time::Duration;
/// use pool_audio::LimiterSettings;
///
/// let settings = LimiterSettings { ceiling_db: -0.5, ..Default::default() };
/// assert!(settings.validate().is_ok());
/// assert_eq!(settings.lookahead, Duration::from_micros(1500));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LimiterSettings {
    /// The most any sample may reach, in dBFS: `-60..=0` (default -1).
    pub ceiling_db: f64,
    /// How far ahead peaks are seen, and how long the gain takes to come down:
    /// `0.1..=20` ms (default 1.5 ms). The limited audio is delayed by as much.
    pub lookahead: Duration,
    /// How long the gain takes to recover (63% of the way): `1 ms..=5 s` (default
    /// 50 ms).
    pub release: Duration,
}

impl Default for LimiterSettings {
    fn default() -> Self {
        Self {
            ceiling_db: -1.0,
            lookahead: Duration::from_micros(1500),
            release: Duration::from_millis(50),
        }
    }
}

/// A limiter setting out of range.
///
/// ```
/// use pool_audio::{LimiterError, LimiterSettings};
///
/// let bad = LimiterSettings { ceiling_db: f64::NAN, ..Default::default() };
/// assert!(matches!(bad.validate(), Err(LimiterError::Ceiling(_))));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum LimiterError {
    /// The ceiling is NaN, infinite, above 0 dBFS or below -60.
    Ceiling(f64),
    /// The look-ahead is not in `0.1..=20` ms.
    Lookahead(Duration),
    /// The release is not in `1 ms..=5 s`.
    Release(Duration),
}

impl std::fmt::Display for LimiterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Ceiling(db) => write!(f, "limiter ceiling {db} dBFS is not in -60..=0"),
            Self::Lookahead(d) => write!(f, "limiter look-ahead {d:?} is not in 0.1..=20 ms"),
            Self::Release(d) => write!(f, "limiter release {d:?} is not in 1 ms..=5 s"),
        }
    }
}

impl std::error::Error for LimiterError {}

impl LimiterSettings {
    /// Checks every value.
    ///
    /// # Errors
    /// [`LimiterError`] naming the value out of range.
    ///
    /// ```
    /// use std::time::Duration;
    /// use pool_audio::{LimiterError, LimiterSettings};
    ///
    /// let bad = LimiterSettings { release: Duration::ZERO, ..Default::default() };
    /// assert_eq!(bad.validate(), Err(LimiterError::Release(Duration::ZERO)));
    /// ```
    pub fn validate(&self) -> Result<(), LimiterError> {
        if !(self.ceiling_db.is_finite() && (-60.0..=0.0).contains(&self.ceiling_db)) {
            return Err(LimiterError::Ceiling(self.ceiling_db));
        }
        if !(Duration::from_micros(100)..=Duration::from_millis(20)).contains(&self.lookahead) {
            return Err(LimiterError::Lookahead(self.lookahead));
        }
        if !(Duration::from_millis(1)..=Duration::from_secs(5)).contains(&self.release) {
            return Err(LimiterError::Release(self.release));
        }
        Ok(())
    }
}

#[derive(Debug, Default)]
struct Readings {
    /// `f32` bits of the gain reduction (dB, >= 0) at its deepest in the last chunk.
    now_db: AtomicU32,
    /// `f32` bits of the deepest gain reduction since the last take.
    max_db: AtomicU32,
    /// Frames output with the gain reduced by more than 0.01 dB.
    limited: AtomicU64,
    /// Frames output.
    frames: AtomicU64,
    /// NaN or infinite input samples, replaced by silence.
    non_finite: AtomicU64,
}

/// Adds a look-ahead peak limiter to a kira track. [`SoundEffects`](crate::SoundEffects)
/// puts one on its track by default; put another last on the main track
/// (`MainTrackBuilder::with_effect`, before a meter) to hold music and effects
/// together under one ceiling.
///
/// ```
/// use kira::{AudioManager, AudioManagerSettings, Frame, track::MainTrackBuilder};
/// use kira::sound::static_sound::StaticSoundData;
/// use pool_audio::{LimiterBuilder, LimiterSettings, OfflineBackend};
///
/// let limiter = LimiterBuilder::new(LimiterSettings::default())?;
/// let reading = limiter.handle();
/// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings {
///     main_track_builder: MainTrackBuilder::new().with_effect(limiter),
///     ..Default::default()
/// })?;
/// // Three copies of a full-scale tone: 3.0 before the limiter.
/// let tone = StaticSoundData { sample_rate: 48_000, frames: vec![Frame::from_mono(1.0); 4800].into(), settings: Default::default(), slice: None };
/// for _ in 0..3 {
///     manager.play(tone.clone())?;
/// }
/// let audio = manager.backend_mut().render(0.1)?;
/// assert!(audio.peak() <= 10f32.powf(-1.0 / 20.0) + 1e-6);
/// assert!(reading.take_max_gain_reduction_db() > 10.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
#[must_use = "a limiter does nothing until added to a track"]
pub struct LimiterBuilder {
    settings: LimiterSettings,
    readings: Arc<Readings>,
}

impl LimiterBuilder {
    /// A limiter with these settings.
    ///
    /// # Errors
    /// [`LimiterError`] if a setting is out of range.
    ///
    /// ```
    /// use pool_audio::{LimiterBuilder, LimiterSettings};
    ///
    /// assert!(LimiterBuilder::new(LimiterSettings { ceiling_db: 3.0, ..Default::default() }).is_err());
    /// ```
    pub fn new(settings: LimiterSettings) -> Result<Self, LimiterError> {
        settings.validate()?;
        Ok(Self {
            settings,
            readings: Arc::default(),
        })
    }

    /// The handle that reads this limiter, before the builder is moved into a track
    /// (adding it to a track returns the same handle).
    ///
    /// ```
    /// # use pool_audio::{LimiterBuilder, LimiterSettings};
    /// let limiter = LimiterBuilder::new(LimiterSettings::default())?;
    /// assert_eq!(limiter.handle().frames(), 0);
    /// # Ok::<(), pool_audio::LimiterError>(())
    /// ```
    pub fn handle(&self) -> LimiterHandle {
        LimiterHandle {
            ceiling: amplitude(self.settings.ceiling_db) as f32,
            readings: self.readings.clone(),
        }
    }
}

impl EffectBuilder for LimiterBuilder {
    type Handle = LimiterHandle;

    fn build(self) -> (Box<dyn Effect>, LimiterHandle) {
        let handle = self.handle();
        (Box::new(Limiter::new(self.settings, self.readings)), handle)
    }
}

/// Reads a limiter's gain reduction from any thread.
///
/// ```
/// # use pool_audio::{LimiterBuilder, LimiterSettings};
/// let reading = LimiterBuilder::new(LimiterSettings::default())?.handle();
/// assert_eq!((reading.gain_reduction_db(), reading.active_fraction()), (0.0, 0.0));
/// # Ok::<(), pool_audio::LimiterError>(())
/// ```
#[derive(Debug, Clone)]
pub struct LimiterHandle {
    ceiling: f32,
    readings: Arc<Readings>,
}

impl LimiterHandle {
    /// The ceiling, as a linear amplitude.
    ///
    /// ```
    /// # use pool_audio::{LimiterBuilder, LimiterSettings};
    /// let reading = LimiterBuilder::new(LimiterSettings { ceiling_db: -6.0, ..Default::default() })?.handle();
    /// assert!((reading.ceiling() - 0.501).abs() < 1e-3);
    /// # Ok::<(), pool_audio::LimiterError>(())
    /// ```
    pub fn ceiling(&self) -> f32 {
        self.ceiling
    }

    /// How far the gain was down during the last processed chunk, in dB (0 when
    /// the limiter is not acting).
    ///
    /// ```
    /// # use pool_audio::{LimiterBuilder, LimiterSettings};
    /// assert_eq!(LimiterBuilder::new(LimiterSettings::default())?.handle().gain_reduction_db(), 0.0);
    /// # Ok::<(), pool_audio::LimiterError>(())
    /// ```
    pub fn gain_reduction_db(&self) -> f32 {
        f32::from_bits(self.readings.now_db.load(Ordering::Relaxed))
    }

    /// The deepest gain reduction since the last call, in dB; starts afresh.
    ///
    /// ```
    /// # use pool_audio::{LimiterBuilder, LimiterSettings};
    /// let reading = LimiterBuilder::new(LimiterSettings::default())?.handle();
    /// assert_eq!(reading.take_max_gain_reduction_db(), 0.0);
    /// # Ok::<(), pool_audio::LimiterError>(())
    /// ```
    pub fn take_max_gain_reduction_db(&self) -> f32 {
        f32::from_bits(self.readings.max_db.swap(0, Ordering::Relaxed))
    }

    /// Frames processed since the last [`reset`](Self::reset).
    ///
    /// ```
    /// # use pool_audio::{LimiterBuilder, LimiterSettings};
    /// assert_eq!(LimiterBuilder::new(LimiterSettings::default())?.handle().frames(), 0);
    /// # Ok::<(), pool_audio::LimiterError>(())
    /// ```
    pub fn frames(&self) -> u64 {
        self.readings.frames.load(Ordering::Relaxed)
    }

    /// Frames output with the gain reduced by more than 0.01 dB, since the last
    /// [`reset`](Self::reset).
    ///
    /// ```
    /// # use pool_audio::{LimiterBuilder, LimiterSettings};
    /// assert_eq!(LimiterBuilder::new(LimiterSettings::default())?.handle().limited_frames(), 0);
    /// # Ok::<(), pool_audio::LimiterError>(())
    /// ```
    pub fn limited_frames(&self) -> u64 {
        self.readings.limited.load(Ordering::Relaxed)
    }

    /// The share of frames output with the gain reduced by more than 0.01 dB (0
    /// before any audio).
    ///
    /// ```
    /// # use pool_audio::{LimiterBuilder, LimiterSettings};
    /// assert_eq!(LimiterBuilder::new(LimiterSettings::default())?.handle().active_fraction(), 0.0);
    /// # Ok::<(), pool_audio::LimiterError>(())
    /// ```
    pub fn active_fraction(&self) -> f64 {
        match self.frames() {
            0 => 0.0,
            frames => self.limited_frames() as f64 / frames as f64,
        }
    }

    /// NaN or infinite input samples, which the limiter replaced with silence.
    ///
    /// ```
    /// # use pool_audio::{LimiterBuilder, LimiterSettings};
    /// assert_eq!(LimiterBuilder::new(LimiterSettings::default())?.handle().non_finite_samples(), 0);
    /// # Ok::<(), pool_audio::LimiterError>(())
    /// ```
    pub fn non_finite_samples(&self) -> u64 {
        self.readings.non_finite.load(Ordering::Relaxed)
    }

    /// Starts the counts afresh.
    ///
    /// ```
    /// # use pool_audio::{LimiterBuilder, LimiterSettings};
    /// let limiter = LimiterBuilder::new(LimiterSettings::default())?.handle();
    /// limiter.reset();
    /// assert_eq!((limiter.frames(), limiter.take_max_gain_reduction_db()), (0, 0.0));
    /// # Ok::<(), pool_audio::LimiterError>(())
    /// ```
    pub fn reset(&self) {
        let r = &self.readings;
        for counter in [&r.limited, &r.frames, &r.non_finite] {
            counter.store(0, Ordering::Relaxed);
        }
        r.now_db.store(0, Ordering::Relaxed);
        r.max_db.store(0, Ordering::Relaxed);
    }
}

struct Limiter {
    settings: LimiterSettings,
    readings: Arc<Readings>,
    ceiling: f32,
    /// Look-ahead in frames at the current sample rate (at least 1).
    lookahead: usize,
    /// Per-frame recovery of the held gain toward 1.
    release: f32,
    /// The last `lookahead` input frames.
    delay: Vec<Frame>,
    delay_at: usize,
    /// Sliding minimum of the required gain: a monotonic queue of (frame, gain)
    /// in a ring of `lookahead + 1`.
    queue: Vec<(u64, f32)>,
    queue_head: usize,
    queue_len: usize,
    /// The last `lookahead + 1` held gains and their sum.
    held_ring: Vec<f64>,
    held_at: usize,
    held_sum: f64,
    /// `1 / (lookahead + 1)`.
    inverse_window: f64,
    held: f32,
    frame: u64,
}

impl Limiter {
    fn new(settings: LimiterSettings, readings: Arc<Readings>) -> Self {
        Self {
            settings,
            readings,
            ceiling: amplitude(settings.ceiling_db) as f32,
            lookahead: 0,
            release: 1.0,
            delay: Vec::new(),
            delay_at: 0,
            queue: Vec::new(),
            queue_head: 0,
            queue_len: 0,
            held_ring: Vec::new(),
            held_at: 0,
            held_sum: 0.0,
            inverse_window: 1.0,
            held: 1.0,
            frame: 0,
        }
    }

    /// Sizes the state for `sample_rate` within the buffers' capacity, and
    /// starts from silence at unity gain. Allocates only if the buffers are empty.
    fn configure(&mut self, sample_rate: u32) {
        let frames_at = |rate: u32| {
            ((self.settings.lookahead.as_secs_f64() * f64::from(rate)).round() as usize).max(1)
        };
        if self.delay.is_empty() {
            let capacity = frames_at(sample_rate.max(SIZED_FOR_RATE));
            self.delay = vec![Frame::ZERO; capacity];
            self.queue = vec![(0, 1.0); capacity + 1];
            self.held_ring = vec![1.0; capacity + 1];
        }
        self.lookahead = frames_at(sample_rate).min(self.delay.len());
        let release_frames = self.settings.release.as_secs_f64() * f64::from(sample_rate);
        self.release = (1.0 - (-1.0 / release_frames.max(1.0)).exp()) as f32;
        self.delay[..self.lookahead].fill(Frame::ZERO);
        self.held_ring[..=self.lookahead].fill(1.0);
        self.delay_at = 0;
        self.queue_head = 0;
        self.queue_len = 0;
        self.held_at = 0;
        self.held_sum = (self.lookahead + 1) as f64;
        self.inverse_window = 1.0 / self.held_sum;
        self.held = 1.0;
    }

    /// The gain for the frame whose required gain is `required`: the sliding
    /// minimum, released, averaged.
    #[inline]
    fn gain(&mut self, required: f32) -> f32 {
        let window = self.lookahead + 1;
        let capacity = self.queue.len();
        // A required gain of 1 is never queued: an empty queue means a minimum of 1.
        if required < 1.0 {
            // Drop queued gains no smaller than this one: they can never be the
            // minimum again.
            while self.queue_len > 0 {
                let mut back = self.queue_head + self.queue_len - 1;
                if back >= capacity {
                    back -= capacity;
                }
                if self.queue[back].1 < required {
                    break;
                }
                self.queue_len -= 1;
            }
            let mut tail = self.queue_head + self.queue_len;
            if tail >= capacity {
                tail -= capacity;
            }
            self.queue[tail] = (self.frame, required);
            self.queue_len += 1;
        }
        // Entries have distinct frames, so at most one leaves the window per frame.
        let minimum = if self.queue_len == 0 {
            1.0
        } else {
            if self.queue[self.queue_head].0 + window as u64 <= self.frame {
                self.queue_head += 1;
                if self.queue_head == capacity {
                    self.queue_head = 0;
                }
                self.queue_len -= 1;
            }
            if self.queue_len == 0 {
                1.0
            } else {
                self.queue[self.queue_head].1
            }
        };
        self.held = if minimum < self.held {
            minimum
        } else {
            let recovered = self.held + (minimum - self.held) * self.release;
            // Snap the last 0.001 dB of recovery, which an exponential never
            // closes (and f32 steps cannot).
            if minimum - recovered < 1e-4 {
                minimum
            } else {
                recovered
            }
        };
        let held = f64::from(self.held);
        self.held_sum += held - self.held_ring[self.held_at];
        self.held_ring[self.held_at] = held;
        self.held_at += 1;
        if self.held_at == window {
            self.held_at = 0;
            // Resynchronize the running sum once per window: no drift.
            self.held_sum = self.held_ring[..window].iter().sum();
        }
        self.frame += 1;
        // Rounding may put the average an ulp above the held gains; the clamp on
        // the output takes care of that ulp.
        (self.held_sum * self.inverse_window) as f32
    }

    /// `true` when nothing is being limited or recovering: the gain is exactly 1
    /// for as long as the input stays under the ceiling.
    fn idle(&self) -> bool {
        self.queue_len == 0 && self.held == 1.0 && self.held_sum == (self.lookahead + 1) as f64
    }

    /// The idle path for a chunk under the ceiling: the audio only goes through
    /// the delay line.
    fn pass_through(&mut self, input: &mut [Frame]) {
        for frame in input.iter_mut() {
            std::mem::swap(frame, &mut self.delay[self.delay_at]);
            self.delay_at += 1;
            if self.delay_at == self.lookahead {
                self.delay_at = 0;
            }
        }
        let window = self.lookahead + 1;
        self.held_at = (self.held_at + input.len()) % window;
        self.frame += input.len() as u64;
    }
}

impl Effect for Limiter {
    fn init(&mut self, sample_rate: u32, _internal_buffer_size: usize) {
        self.configure(sample_rate);
    }

    fn on_change_sample_rate(&mut self, sample_rate: u32) {
        self.configure(sample_rate);
    }

    fn process(&mut self, input: &mut [Frame], _dt: f64, _info: &Info) {
        let ceiling = self.ceiling;
        let (mut lowest_gain, mut limited, mut non_finite) = (1.0f32, 0u64, 0u64);
        // NaN and infinities fail the comparison too, and take the full path.
        let quiet = || {
            input
                .iter()
                .all(|f| f.left.abs() <= ceiling && f.right.abs() <= ceiling)
        };
        if self.lookahead == 0 {
            // Never initialized by kira: hold the ceiling without look-ahead.
            for frame in input.iter_mut() {
                for sample in [&mut frame.left, &mut frame.right] {
                    if !sample.is_finite() {
                        *sample = 0.0;
                        non_finite += 1;
                    }
                    *sample = sample.clamp(-ceiling, ceiling);
                }
            }
        } else if self.idle() && quiet() {
            self.pass_through(input);
        } else {
            for frame in input.iter_mut() {
                let mut incoming = *frame;
                for sample in [&mut incoming.left, &mut incoming.right] {
                    if !sample.is_finite() {
                        *sample = 0.0;
                        non_finite += 1;
                    }
                }
                let peak = incoming.left.abs().max(incoming.right.abs());
                let required = if peak > ceiling { ceiling / peak } else { 1.0 };
                let gain = self.gain(required);
                let delayed = std::mem::replace(&mut self.delay[self.delay_at], incoming);
                self.delay_at += 1;
                if self.delay_at == self.lookahead {
                    self.delay_at = 0;
                }
                if gain < ACTIVE_BELOW {
                    limited += 1;
                }
                lowest_gain = lowest_gain.min(gain);
                // The gain already holds the ceiling; the clamp only absorbs the
                // last bit of f32 rounding.
                *frame = Frame {
                    left: (delayed.left * gain).clamp(-ceiling, ceiling),
                    right: (delayed.right * gain).clamp(-ceiling, ceiling),
                };
            }
        }
        let reduction_db = if lowest_gain < 1.0 {
            -20.0 * lowest_gain.max(1e-9).log10()
        } else {
            0.0
        };
        let r = &self.readings;
        r.now_db.store(reduction_db.to_bits(), Ordering::Relaxed);
        r.max_db
            .fetch_max(reduction_db.to_bits(), Ordering::Relaxed);
        r.limited.fetch_add(limited, Ordering::Relaxed);
        r.frames.fetch_add(input.len() as u64, Ordering::Relaxed);
        if non_finite > 0 {
            r.non_finite.fetch_add(non_finite, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn limiter(settings: LimiterSettings, rate: u32) -> (Limiter, LimiterHandle) {
        let builder = LimiterBuilder::new(settings).unwrap();
        let handle = builder.handle();
        let mut limiter = Limiter::new(settings, builder.readings);
        limiter.init(rate, 128);
        (limiter, handle)
    }

    fn run(limiter: &mut Limiter, input: &[f32], chunk: usize) -> Vec<f32> {
        let info = kira::info::MockInfoBuilder::new().build();
        let mut frames: Vec<Frame> = input.iter().map(|s| Frame::from_mono(*s)).collect();
        for part in frames.chunks_mut(chunk.max(1)) {
            limiter.process(part, 1.0 / 48_000.0, &info);
        }
        frames.iter().map(|f| f.left).collect()
    }

    #[test]
    fn quiet_audio_passes_through_delayed_by_the_lookahead() {
        let (mut limiter, handle) = limiter(LimiterSettings::default(), 48_000);
        let input: Vec<f32> = (0..1000).map(|i| 0.5 * (i as f32 * 0.05).sin()).collect();
        let output = run(&mut limiter, &input, 128);
        let delay = 72; // 1.5 ms at 48 kHz
        assert!(output[..delay].iter().all(|s| *s == 0.0));
        assert_eq!(&output[delay..], &input[..1000 - delay]);
        assert_eq!(handle.limited_frames(), 0);
        assert_eq!(handle.take_max_gain_reduction_db(), 0.0);
        assert_eq!(handle.frames(), 1000);
    }

    #[test]
    fn a_peak_lands_on_the_ceiling_after_a_ramp_and_recovers() {
        let (mut limiter, handle) = limiter(LimiterSettings::default(), 48_000);
        let mut input = vec![0.5f32; 24_000];
        input[1000] = 4.0;
        let output = run(&mut limiter, &input, 100);
        let ceiling = handle.ceiling();
        let delay = 72;
        assert!(
            (output[1000 + delay] - ceiling).abs() < 1e-6,
            "{}",
            output[1000 + delay]
        );
        assert!(output.iter().all(|s| s.abs() <= ceiling));
        // The gain ramps down over the look-ahead rather than jumping.
        let before: Vec<f32> = output[1000..1000 + delay].to_vec();
        assert!(before.windows(2).all(|w| w[1] <= w[0] + 1e-7));
        assert!(before[0] > 0.49 && before[delay - 1] < 0.2);
        // ...and recovers afterwards: 1 - 1/e of the way after one release time
        // (50 ms), all the way within ten.
        let after_release = output[1000 + delay + 2400];
        assert!(
            (0.5 - after_release) / (0.5 - 0.5 * 0.2228) < 0.4,
            "{after_release}"
        );
        assert_eq!(output[23_999], 0.5);
        assert!(handle.take_max_gain_reduction_db() > 12.0);
        assert!(handle.limited_frames() > 0);
    }

    #[test]
    fn non_finite_input_becomes_silence_and_is_counted() {
        let (mut limiter, handle) = limiter(LimiterSettings::default(), 48_000);
        let mut input = vec![0.25f32; 300];
        input[10] = f32::NAN;
        input[20] = f32::INFINITY;
        let output = run(&mut limiter, &input, 64);
        assert!(output.iter().all(|s| s.is_finite()));
        assert_eq!(
            handle.non_finite_samples(),
            4,
            "both channels of two frames"
        );
    }

    #[test]
    fn a_sample_rate_change_keeps_the_buffers() {
        let (mut limiter, _) = limiter(LimiterSettings::default(), 48_000);
        let capacity = limiter.delay.len();
        limiter.on_change_sample_rate(96_000);
        assert_eq!((limiter.delay.len(), limiter.lookahead), (capacity, 144));
        limiter.on_change_sample_rate(1_000_000);
        assert_eq!(limiter.lookahead, capacity, "shortened to fit, not grown");
        let output = run(&mut limiter, &[3.0; 2000], 128);
        assert!(output.iter().all(|s| s.abs() <= limiter.ceiling));
    }

    #[test]
    fn settings_out_of_range_are_refused() {
        let base = LimiterSettings::default();
        for bad in [
            LimiterSettings {
                ceiling_db: 0.5,
                ..base
            },
            LimiterSettings {
                ceiling_db: -61.0,
                ..base
            },
            LimiterSettings {
                ceiling_db: f64::INFINITY,
                ..base
            },
            LimiterSettings {
                lookahead: Duration::ZERO,
                ..base
            },
            LimiterSettings {
                lookahead: Duration::from_millis(21),
                ..base
            },
            LimiterSettings {
                release: Duration::from_secs(6),
                ..base
            },
        ] {
            assert!(LimiterBuilder::new(bad).is_err(), "{bad:?}");
        }
        assert!(LimiterError::Ceiling(0.5).to_string().contains("0.5"));
    }

    proptest! {
        #[test]
        fn no_sample_ever_leaves_above_the_ceiling(
            samples in prop::collection::vec(-8.0f32..8.0, 1..3000),
            ceiling_db in -20.0f64..=0.0,
            lookahead_us in 100u64..=20_000,
            release_ms in 1u64..=500,
            chunk in 1usize..300,
            rate in prop::sample::select(vec![8_000u32, 22_050, 44_100, 48_000, 96_000]),
        ) {
            let settings = LimiterSettings {
                ceiling_db,
                lookahead: Duration::from_micros(lookahead_us),
                release: Duration::from_millis(release_ms),
            };
            let (mut limiter, handle) = limiter(settings, rate);
            let output = run(&mut limiter, &samples, chunk);
            let ceiling = handle.ceiling();
            for (i, s) in output.iter().enumerate() {
                prop_assert!(s.abs() <= ceiling, "sample {i}: {s} above {ceiling}");
            }
            // Nothing is invented: silence in gives silence out, and below the
            // ceiling the limiter only ever lowers the level.
            let delay = limiter.lookahead;
            for (i, s) in output.iter().enumerate().skip(delay) {
                prop_assert!(s.abs() <= samples[i - delay].abs() + 1e-6);
            }
        }
    }
}

//! Reading a limiter from any thread: what the audio thread publishes, and the
//! handle that reads it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use kira::Decibels;

#[derive(Debug, Default)]
pub(super) struct LimiterReadings {
    /// `f32` bits of the gain reduction (dB, >= 0) at its deepest in the last chunk.
    pub(super) now_db: AtomicU32,
    /// `f32` bits of the deepest gain reduction since the last take.
    pub(super) max_db: AtomicU32,
    /// Frames output with the gain reduced by more than 0.01 dB.
    pub(super) limited: AtomicU64,
    /// Frames output.
    pub(super) frames: AtomicU64,
    /// NaN or infinite input samples, replaced by silence.
    pub(super) non_finite: AtomicU64,
}

/// Reads a limiter's gain reduction from any thread.
///
/// ```
/// # use pool_audio::{dsp::LimiterBuilder, dsp::LimiterSettings};
/// let reading = LimiterBuilder::new(LimiterSettings::default())?.handle();
/// assert_eq!((reading.gain_reduction().0, reading.active_fraction()), (0.0, 0.0));
/// # Ok::<(), pool_audio::dsp::LimiterError>(())
/// ```
#[derive(Debug, Clone)]
pub struct LimiterHandle {
    pub(super) ceiling: Decibels,
    pub(super) readings: Arc<LimiterReadings>,
}

impl LimiterHandle {
    /// The ceiling.
    ///
    /// ```
    /// # use pool_audio::{dsp::LimiterBuilder, dsp::LimiterSettings};
    /// # use pool_audio::kira::Decibels;
    /// let reading = LimiterBuilder::new(LimiterSettings { ceiling: Decibels(-6.0), ..Default::default() })?.handle();
    /// assert_eq!(reading.ceiling(), Decibels(-6.0));
    /// # Ok::<(), pool_audio::dsp::LimiterError>(())
    /// ```
    pub fn ceiling(&self) -> Decibels {
        self.ceiling
    }

    /// How far the gain was down during the last processed chunk (0 dB when
    /// the limiter is not acting; 6 dB is a gain of half).
    ///
    /// ```
    /// # use pool_audio::{dsp::LimiterBuilder, dsp::LimiterSettings};
    /// # use pool_audio::kira::Decibels;
    /// assert_eq!(LimiterBuilder::new(LimiterSettings::default())?.handle().gain_reduction(), Decibels(0.0));
    /// # Ok::<(), pool_audio::dsp::LimiterError>(())
    /// ```
    pub fn gain_reduction(&self) -> Decibels {
        Decibels(f32::from_bits(self.readings.now_db.load(Ordering::Relaxed)))
    }

    /// The deepest gain reduction since the last call; starts afresh.
    ///
    /// ```
    /// # use pool_audio::{dsp::LimiterBuilder, dsp::LimiterSettings};
    /// # use pool_audio::kira::Decibels;
    /// let reading = LimiterBuilder::new(LimiterSettings::default())?.handle();
    /// assert_eq!(reading.take_max_gain_reduction(), Decibels(0.0));
    /// # Ok::<(), pool_audio::dsp::LimiterError>(())
    /// ```
    pub fn take_max_gain_reduction(&self) -> Decibels {
        Decibels(f32::from_bits(
            self.readings.max_db.swap(0, Ordering::Relaxed),
        ))
    }

    /// Frames processed since the last [`reset`](Self::reset).
    ///
    /// ```
    /// # use pool_audio::{dsp::LimiterBuilder, dsp::LimiterSettings};
    /// assert_eq!(LimiterBuilder::new(LimiterSettings::default())?.handle().frames(), 0);
    /// # Ok::<(), pool_audio::dsp::LimiterError>(())
    /// ```
    pub fn frames(&self) -> u64 {
        self.readings.frames.load(Ordering::Relaxed)
    }

    /// Frames output with the gain reduced by more than 0.01 dB, since the last
    /// [`reset`](Self::reset).
    ///
    /// ```
    /// # use pool_audio::{dsp::LimiterBuilder, dsp::LimiterSettings};
    /// assert_eq!(LimiterBuilder::new(LimiterSettings::default())?.handle().limited_frames(), 0);
    /// # Ok::<(), pool_audio::dsp::LimiterError>(())
    /// ```
    pub fn limited_frames(&self) -> u64 {
        self.readings.limited.load(Ordering::Relaxed)
    }

    /// The share of frames output with the gain reduced by more than 0.01 dB (0
    /// before any audio).
    ///
    /// ```
    /// # use pool_audio::{dsp::LimiterBuilder, dsp::LimiterSettings};
    /// assert_eq!(LimiterBuilder::new(LimiterSettings::default())?.handle().active_fraction(), 0.0);
    /// # Ok::<(), pool_audio::dsp::LimiterError>(())
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
    /// # use pool_audio::{dsp::LimiterBuilder, dsp::LimiterSettings};
    /// assert_eq!(LimiterBuilder::new(LimiterSettings::default())?.handle().non_finite_samples(), 0);
    /// # Ok::<(), pool_audio::dsp::LimiterError>(())
    /// ```
    pub fn non_finite_samples(&self) -> u64 {
        self.readings.non_finite.load(Ordering::Relaxed)
    }

    /// Starts the counts afresh.
    ///
    /// ```
    /// # use pool_audio::{dsp::LimiterBuilder, dsp::LimiterSettings};
    /// let limiter = LimiterBuilder::new(LimiterSettings::default())?.handle();
    /// limiter.reset();
    /// assert_eq!((limiter.frames(), limiter.take_max_gain_reduction().0), (0, 0.0));
    /// # Ok::<(), pool_audio::dsp::LimiterError>(())
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

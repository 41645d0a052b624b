//! Reading a meter from any thread: what the audio thread publishes, and the
//! handle that reads it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

#[derive(Debug, Default)]
pub(super) struct MeterReadings {
    /// `f32` bits of the largest magnitude seen: for non-negative floats the bit
    /// patterns order like the values, so `fetch_max` on the bits is a float max.
    pub(super) peak_bits: AtomicU32,
    /// Samples (per channel) with magnitude above 1.0, or not finite: the ones the
    /// clamp changes (or turns into garbage).
    pub(super) clipped: AtomicU64,
    /// NaN or infinite samples (per channel).
    pub(super) non_finite: AtomicU64,
    /// Samples (per channel) metered.
    pub(super) samples: AtomicU64,
}

/// Reads a [`MeterBuilder`](super::MeterBuilder)'s measurements from any thread.
///
/// ```
/// # use pool_audio::dsp::MeterBuilder;
/// let reading = MeterBuilder::new().handle();
/// assert_eq!((reading.peak(), reading.clipped_samples(), reading.clipped_fraction()), (0.0, 0, 0.0));
/// ```
#[derive(Debug, Clone)]
pub struct MeterHandle {
    pub(super) readings: Arc<MeterReadings>,
}

impl MeterHandle {
    /// The largest sample magnitude since the last reset, before the clamp;
    /// infinite once a NaN or infinite sample has been seen.
    ///
    /// ```
    /// # use pool_audio::dsp::MeterBuilder;
    /// assert_eq!(MeterBuilder::new().handle().peak(), 0.0);
    /// ```
    pub fn peak(&self) -> f32 {
        f32::from_bits(self.readings.peak_bits.load(Ordering::Relaxed))
    }

    /// Samples (per channel) whose magnitude exceeded 1.0, or that were NaN or
    /// infinite: the ones kira's clamp cut (or could not make sense of).
    ///
    /// ```
    /// # use pool_audio::dsp::MeterBuilder;
    /// assert_eq!(MeterBuilder::new().handle().clipped_samples(), 0);
    /// ```
    pub fn clipped_samples(&self) -> u64 {
        self.readings.clipped.load(Ordering::Relaxed)
    }

    /// NaN or infinite samples (per channel): the worst kind of clip, counted in
    /// [`clipped_samples`](Self::clipped_samples) too.
    ///
    /// ```
    /// # use pool_audio::dsp::MeterBuilder;
    /// assert_eq!(MeterBuilder::new().handle().non_finite_samples(), 0);
    /// ```
    pub fn non_finite_samples(&self) -> u64 {
        self.readings.non_finite.load(Ordering::Relaxed)
    }

    /// Samples (per channel) metered since the last reset.
    ///
    /// ```
    /// # use pool_audio::dsp::MeterBuilder;
    /// assert_eq!(MeterBuilder::new().handle().samples(), 0);
    /// ```
    pub fn samples(&self) -> u64 {
        self.readings.samples.load(Ordering::Relaxed)
    }

    /// `clipped_samples / samples` (0 before anything was metered).
    ///
    /// ```
    /// # use pool_audio::dsp::MeterBuilder;
    /// assert_eq!(MeterBuilder::new().handle().clipped_fraction(), 0.0);
    /// ```
    pub fn clipped_fraction(&self) -> f64 {
        match self.samples() {
            0 => 0.0,
            samples => self.clipped_samples() as f64 / samples as f64,
        }
    }

    /// Starts measuring afresh.
    ///
    /// ```
    /// # use pool_audio::dsp::MeterBuilder;
    /// let reading = MeterBuilder::new().handle();
    /// reading.reset();
    /// assert_eq!((reading.peak(), reading.clipped_samples()), (0.0, 0));
    /// ```
    pub fn reset(&self) {
        self.readings.peak_bits.store(0, Ordering::Relaxed);
        self.readings.clipped.store(0, Ordering::Relaxed);
        self.readings.non_finite.store(0, Ordering::Relaxed);
        self.readings.samples.store(0, Ordering::Relaxed);
    }
}

//! A meter for the mix before kira's output clamp. kira clamps every output sample
//! to `[-1, 1]` after the main track, silently, so clipping cannot be seen in what
//! comes out; an effect placed last on the main track sees the mix just before it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use kira::Frame;
use kira::effect::{Effect, EffectBuilder};
use kira::info::Info;

#[derive(Debug, Default)]
struct Readings {
    /// `f32` bits of the largest magnitude seen: for non-negative floats the bit
    /// patterns order like the values, so `fetch_max` on the bits is a float max.
    peak_bits: AtomicU32,
    /// Samples (per channel) with magnitude above 1.0, or not finite: the ones the
    /// clamp changes (or turns into garbage).
    clipped: AtomicU64,
    /// NaN or infinite samples (per channel).
    non_finite: AtomicU64,
    /// Samples (per channel) metered.
    samples: AtomicU64,
}

/// Adds a pre-clamp meter to a kira track: put it last on the main track
/// (`MainTrackBuilder::with_effect`) to meter what kira is about to clamp. Works the
/// same on the offline backend and on a real device.
///
/// ```
/// use kira::{AudioManager, AudioManagerSettings, track::MainTrackBuilder};
/// use pool_audio::{MeterBuilder, OfflineBackend, OfflineSettings};
///
/// let meter = MeterBuilder::new();
/// let reading = meter.handle();
/// let manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings {
///     main_track_builder: MainTrackBuilder::new().with_effect(meter),
///     backend_settings: OfflineSettings::default(),
///     ..Default::default()
/// })?;
/// assert_eq!(reading.peak(), 0.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
#[must_use = "a meter does nothing until added to a track"]
pub struct MeterBuilder {
    readings: Arc<Readings>,
}

impl MeterBuilder {
    /// A meter with nothing measured yet.
    ///
    /// ```
    /// # use pool_audio::MeterBuilder;
    /// let meter = MeterBuilder::new();
    /// assert_eq!((meter.handle().peak(), meter.handle().samples()), (0.0, 0));
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// The handle that reads this meter, before the builder is moved into a track
    /// (adding it to a track returns the same handle).
    ///
    /// ```
    /// # use pool_audio::MeterBuilder;
    /// let meter = MeterBuilder::new();
    /// assert_eq!(meter.handle().samples(), 0);
    /// ```
    pub fn handle(&self) -> MeterHandle {
        MeterHandle {
            readings: self.readings.clone(),
        }
    }
}

impl EffectBuilder for MeterBuilder {
    type Handle = MeterHandle;

    fn build(self) -> (Box<dyn Effect>, Self::Handle) {
        let handle = self.handle();
        (
            Box::new(Meter {
                readings: self.readings,
            }),
            handle,
        )
    }
}

/// Reads a [`MeterBuilder`]'s measurements from any thread.
///
/// ```
/// # use pool_audio::MeterBuilder;
/// let reading = MeterBuilder::new().handle();
/// assert_eq!((reading.peak(), reading.clipped_samples(), reading.clipped_fraction()), (0.0, 0, 0.0));
/// ```
#[derive(Debug, Clone)]
pub struct MeterHandle {
    readings: Arc<Readings>,
}

impl MeterHandle {
    /// The largest sample magnitude since the last reset, before the clamp;
    /// infinite once a NaN or infinite sample has been seen.
    ///
    /// ```
    /// # use pool_audio::MeterBuilder;
    /// assert_eq!(MeterBuilder::new().handle().peak(), 0.0);
    /// ```
    pub fn peak(&self) -> f32 {
        f32::from_bits(self.readings.peak_bits.load(Ordering::Relaxed))
    }

    /// Samples (per channel) whose magnitude exceeded 1.0, or that were NaN or
    /// infinite: the ones kira's clamp cut (or could not make sense of).
    ///
    /// ```
    /// # use pool_audio::MeterBuilder;
    /// assert_eq!(MeterBuilder::new().handle().clipped_samples(), 0);
    /// ```
    pub fn clipped_samples(&self) -> u64 {
        self.readings.clipped.load(Ordering::Relaxed)
    }

    /// NaN or infinite samples (per channel): the worst kind of clip, counted in
    /// [`clipped_samples`](Self::clipped_samples) too.
    ///
    /// ```
    /// # use pool_audio::MeterBuilder;
    /// assert_eq!(MeterBuilder::new().handle().non_finite_samples(), 0);
    /// ```
    pub fn non_finite_samples(&self) -> u64 {
        self.readings.non_finite.load(Ordering::Relaxed)
    }

    /// Samples (per channel) metered since the last reset.
    ///
    /// ```
    /// # use pool_audio::MeterBuilder;
    /// assert_eq!(MeterBuilder::new().handle().samples(), 0);
    /// ```
    pub fn samples(&self) -> u64 {
        self.readings.samples.load(Ordering::Relaxed)
    }

    /// `clipped_samples / samples` (0 before anything was metered).
    ///
    /// ```
    /// # use pool_audio::MeterBuilder;
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
    /// # use pool_audio::MeterBuilder;
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

struct Meter {
    readings: Arc<Readings>,
}

impl Effect for Meter {
    fn process(&mut self, input: &mut [Frame], _dt: f64, _info: &Info) {
        let (mut peak, mut clipped, mut non_finite) = (0.0f32, 0u64, 0u64);
        for frame in input.iter() {
            for sample in [frame.left, frame.right] {
                // NaN compares false with everything: test for it first, and
                // report it as an infinite peak.
                let magnitude = if sample.is_finite() {
                    sample.abs()
                } else {
                    non_finite += 1;
                    f32::INFINITY
                };
                if magnitude > peak {
                    peak = magnitude;
                }
                if magnitude > 1.0 {
                    clipped += 1;
                }
            }
        }
        // Once per chunk, not per sample: the audio thread stays cheap.
        self.readings
            .peak_bits
            .fetch_max(peak.to_bits(), Ordering::Relaxed);
        self.readings.clipped.fetch_add(clipped, Ordering::Relaxed);
        if non_finite > 0 {
            self.readings
                .non_finite
                .fetch_add(non_finite, Ordering::Relaxed);
        }
        self.readings
            .samples
            .fetch_add(2 * input.len() as u64, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_and_infinite_samples_are_the_worst_clip() {
        let meter = MeterBuilder::new();
        let reading = meter.handle();
        let (mut effect, _) = meter.build();
        let info = kira::info::MockInfoBuilder::new().build();
        let mut frames = vec![Frame::from_mono(0.5); 8];
        frames[3].left = f32::NAN;
        frames[5].right = f32::NEG_INFINITY;
        effect.process(&mut frames, 1.0 / 48_000.0, &info);
        assert_eq!(reading.non_finite_samples(), 2);
        assert_eq!(reading.clipped_samples(), 2);
        assert_eq!(
            reading.peak(),
            f32::INFINITY,
            "NaN reports as an infinite peak, not 0"
        );
        reading.reset();
        assert_eq!((reading.non_finite_samples(), reading.peak()), (0, 0.0));
    }
}

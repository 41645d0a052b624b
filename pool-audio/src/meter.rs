//! A meter for the mix before kira's output clamp. kira clamps every output sample
//! to `[-1, 1]` after the main track, silently, so clipping cannot be seen in what
//! comes out; an effect placed last on the main track sees the mix just before it.

mod builder;
mod handle;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use kira::Frame;
use kira::effect::Effect;
use kira::info::Info;

pub use builder::MeterBuilder;
pub use handle::MeterHandle;

use handle::MeterReadings;

struct Meter {
    pub(super) readings: Arc<MeterReadings>,
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
    use kira::effect::EffectBuilder;

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

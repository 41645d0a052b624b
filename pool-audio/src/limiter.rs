//! The mix ceiling: a look-ahead peak limiter as a kira effect.
//!
//! Its settings, builder and handle are in `limiter/`; this file holds the
//! effect itself and the tests that pin it down (the ceiling under every
//! look-ahead, release and sample rate; no allocation on the audio thread).
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

mod builder;
mod handle;
mod settings;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use kira::Frame;
use kira::effect::Effect;
use kira::info::Info;

pub use builder::LimiterBuilder;
pub use handle::LimiterHandle;
pub use settings::{LimiterError, LimiterSettings};

use crate::level::amplitude;
use handle::LimiterReadings;

/// The sample rate the limiter's buffers are sized for at least; above it the
/// look-ahead is shortened to what fits (the ceiling still holds).
const SIZED_FOR_RATE: u32 = 192_000;

/// The limiter counts as acting below this gain (0.01 dB of reduction).
const ACTIVE_BELOW: f32 = 0.998_849;

struct Limiter {
    settings: LimiterSettings,
    readings: Arc<LimiterReadings>,
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
    fn new(settings: LimiterSettings, readings: Arc<LimiterReadings>) -> Self {
        Self {
            settings,
            readings,
            ceiling: amplitude(f64::from(settings.ceiling.0)) as f32,
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
    use std::time::Duration;

    use super::*;
    use kira::Decibels;
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
        assert_eq!(handle.take_max_gain_reduction().0, 0.0);
        assert_eq!(handle.frames(), 1000);
    }

    #[test]
    fn a_peak_lands_on_the_ceiling_after_a_ramp_and_recovers() {
        let (mut limiter, handle) = limiter(LimiterSettings::default(), 48_000);
        let mut input = vec![0.5f32; 24_000];
        input[1000] = 4.0;
        let output = run(&mut limiter, &input, 100);
        let ceiling = limiter.ceiling;
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
        assert!(handle.take_max_gain_reduction().0 > 12.0);
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
                ceiling: Decibels(0.5),
                ..base
            },
            LimiterSettings {
                ceiling: Decibels(-61.0),
                ..base
            },
            LimiterSettings {
                ceiling: Decibels(f32::INFINITY),
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
        assert!(
            LimiterError::Ceiling(Decibels(0.5))
                .to_string()
                .contains("0.5")
        );
    }

    proptest! {
        #[test]
        fn no_sample_ever_leaves_above_the_ceiling(
            samples in prop::collection::vec(-8.0f32..8.0, 1..3000),
            ceiling_db in -20.0f32..=0.0,
            lookahead_us in 100u64..=20_000,
            release_ms in 1u64..=500,
            chunk in 1usize..300,
            rate in prop::sample::select(vec![8_000u32, 22_050, 44_100, 48_000, 96_000]),
        ) {
            let settings = LimiterSettings {
                ceiling: Decibels(ceiling_db),
                lookahead: Duration::from_micros(lookahead_us),
                release: Duration::from_millis(release_ms),
            };
            let (mut limiter, handle) = limiter(settings, rate);
            prop_assert_eq!(handle.ceiling(), Decibels(ceiling_db));
            let output = run(&mut limiter, &samples, chunk);
            let ceiling = limiter.ceiling;
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

//! What a sound can really output through kira: its sample peak and the peak of
//! kira's resampling, measured once when the sound is added.
//!
//! kira plays every sound through a 4-point cubic (Catmull-Rom) interpolator,
//! whatever its playback rate or sample rate: between two samples the curve can
//! overshoot them, by up to 1.25x on sharp edges. The copy volumes are budgeted
//! against the largest value that curve can take anywhere between any two samples,
//! found exactly per window (the cubic's extremes are the roots of a quadratic), not
//! against 1.0 and not against the samples alone.

use kira::Frame;
use kira::sound::static_sound::StaticSoundData;

use crate::sound_error::{SoundError, loop_region, samples};

/// The loudest a sound can come out of kira, per channel, measured when the sound
/// is added.
///
/// `left` and `right` bound the channel's output at any playback rate and sample
/// rate (kira's cubic resampling included), at volume 1 and centred.
///
/// ```
/// use pool_audio::kira::{Frame, sound::static_sound::StaticSoundData};
/// use pool_audio::sound::SoundPeak;
///
/// // A full-scale square wave: its samples never exceed 1.0, kira's resampling does.
/// let frames: Vec<Frame> = (0..480).map(|i| Frame::from_mono(if i % 8 < 4 { 1.0 } else { -1.0 })).collect();
/// let square = StaticSoundData { sample_rate: 48_000, frames: frames.into(), settings: Default::default(), slice: None };
/// let peak = SoundPeak::measure(&square)?;
/// assert_eq!(peak.sample(), 1.0);
/// assert!(peak.max() > 1.1);
/// # Ok::<(), pool_audio::error::SoundError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SoundPeak {
    sample: f32,
    left: f32,
    right: f32,
}

/// kira interpolates in `f32`; the exact maximum is computed in `f64`. This margin
/// covers `f32` rounding of the four-term polynomial.
const ROUNDING_MARGIN: f32 = 1.0 + 1e-5;

impl SoundPeak {
    /// Measures `data` as kira will play it: its slice, its start position and its
    /// loop region (the windows across the loop point included), with the silence
    /// kira's resampler reads before the first and after the last frame.
    ///
    /// # Errors
    /// [`SoundError`] if kira could not play the data safely: a sample rate outside
    /// `1..=192_000`, no frames, a slice outside the frames, a non-finite sample, an
    /// empty loop region, a reverse start outside the frames, or a fade-in easing
    /// that is not a finite, non-negative power.
    ///
    /// ```
    /// use pool_audio::kira::{Frame, sound::static_sound::StaticSoundData};
    /// use pool_audio::{error::SoundError, sound::SoundPeak};
    ///
    /// let bad = StaticSoundData { sample_rate: 0, frames: vec![Frame::ZERO; 4].into(), settings: Default::default(), slice: None };
    /// assert_eq!(SoundPeak::measure(&bad), Err(SoundError::SampleRate(0)));
    /// ```
    pub fn measure(data: &StaticSoundData) -> Result<Self, SoundError> {
        let frames = crate::sound_error::playable_frames(data)?;
        let loop_region = loop_region(data, frames.len());
        let start = if data.settings.reverse {
            // Reversed, the resampler reads the same windows back to front; the
            // cubic is symmetric, so the windows measured forwards bound them.
            0
        } else {
            samples(data.settings.start_position, data.sample_rate).min(frames.len())
        };
        let mut peak = Self {
            sample: 0.0,
            left: 0.0,
            right: 0.0,
        };
        for frame in frames {
            peak.sample = peak.sample.max(frame.left.abs()).max(frame.right.abs());
        }
        let (left, right) = (
            channel_peak(frames, |f| f.left, start, loop_region),
            channel_peak(frames, |f| f.right, start, loop_region),
        );
        // A window's peak includes its two middle samples, so these bound the
        // sample peaks too.
        peak.left = left * ROUNDING_MARGIN;
        peak.right = right * ROUNDING_MARGIN;
        Ok(peak)
    }

    /// The largest sample magnitude in the data.
    ///
    /// ```
    /// # use kira::{Frame, sound::static_sound::StaticSoundData};
    /// # use pool_audio::sound::SoundPeak;
    /// let half = StaticSoundData { sample_rate: 48_000, frames: vec![Frame::from_mono(0.5); 10].into(), settings: Default::default(), slice: None };
    /// assert_eq!(SoundPeak::measure(&half)?.sample(), 0.5);
    /// # Ok::<(), pool_audio::error::SoundError>(())
    /// ```
    pub fn sample(&self) -> f32 {
        self.sample
    }

    /// The loudest the left channel can come out, resampling included.
    ///
    /// ```
    /// # use kira::{Frame, sound::static_sound::StaticSoundData};
    /// # use pool_audio::sound::SoundPeak;
    /// let left_only = StaticSoundData { sample_rate: 48_000, frames: vec![Frame { left: 0.5, right: 0.0 }; 10].into(), settings: Default::default(), slice: None };
    /// let peak = SoundPeak::measure(&left_only)?;
    /// assert!(peak.left() >= 0.5 && peak.right() == 0.0);
    /// # Ok::<(), pool_audio::error::SoundError>(())
    /// ```
    pub fn left(&self) -> f32 {
        self.left
    }

    /// The loudest the right channel can come out, resampling included.
    ///
    /// ```
    /// # use kira::{Frame, sound::static_sound::StaticSoundData};
    /// # use pool_audio::sound::SoundPeak;
    /// let right_only = StaticSoundData { sample_rate: 48_000, frames: vec![Frame { left: 0.0, right: 0.25 }; 10].into(), settings: Default::default(), slice: None };
    /// assert!(SoundPeak::measure(&right_only)?.right() >= 0.25);
    /// # Ok::<(), pool_audio::error::SoundError>(())
    /// ```
    pub fn right(&self) -> f32 {
        self.right
    }

    /// The louder channel: what the copy volumes are budgeted against.
    ///
    /// ```
    /// # use kira::{Frame, sound::static_sound::StaticSoundData};
    /// # use pool_audio::sound::SoundPeak;
    /// let dc = StaticSoundData { sample_rate: 48_000, frames: vec![Frame::from_mono(0.8); 100].into(), settings: Default::default(), slice: None };
    /// let peak = SoundPeak::measure(&dc)?;
    /// // The step up from the silence before the first frame overshoots by 7%.
    /// assert!(peak.max() > 0.85 && peak.max() < 0.86);
    /// # Ok::<(), pool_audio::error::SoundError>(())
    /// ```
    pub fn max(&self) -> f32 {
        self.left.max(self.right)
    }

    /// The gain kira's pan law gives this sound's louder channel at `panning`,
    /// relative to [`max`](Self::max): `max(left * sqrt(1 - p), right * sqrt(1 + p))
    /// / max` (kira's `Frame::panned`: centred is 1, hard right gives the right
    /// channel sqrt 2). 1 for a silent sound.
    ///
    /// ```
    /// # use kira::{Frame, sound::static_sound::StaticSoundData};
    /// # use pool_audio::sound::SoundPeak;
    /// let mono = StaticSoundData { sample_rate: 48_000, frames: vec![Frame::from_mono(0.5); 100].into(), settings: Default::default(), slice: None };
    /// let peak = SoundPeak::measure(&mono)?;
    /// assert_eq!(peak.pan_gain(0.0), 1.0);
    /// assert!((peak.pan_gain(1.0) - 2f64.sqrt()).abs() < 1e-6);
    /// # Ok::<(), pool_audio::error::SoundError>(())
    /// ```
    pub fn pan_gain(&self, panning: f32) -> f64 {
        let max = f64::from(self.max());
        if max == 0.0 || panning == 0.0 {
            // kira skips the pan law when centred.
            return 1.0;
        }
        let p = f64::from(panning.clamp(-1.0, 1.0));
        let left = f64::from(self.left) * (1.0 - p).sqrt();
        let right = f64::from(self.right) * (1.0 + p).sqrt();
        left.max(right) / max
    }

    /// What a play at `panning` is multiplied by so that its louder channel
    /// stays inside its share of the budget: `1 / pan_gain`, never above 1.
    pub(crate) fn pan_compensation(&self, panning: f32) -> f64 {
        1.0 / self.pan_gain(panning).max(1.0)
    }
}

/// The largest magnitude kira's interpolator can produce from one channel: every
/// window of the padded data (a silent frame before the start position, silence
/// after the end), and the windows across the loop point.
fn channel_peak(
    frames: &[Frame],
    channel: impl Fn(&Frame) -> f32,
    start: usize,
    loop_region: Option<(usize, usize)>,
) -> f32 {
    let at = |i: isize| -> f32 {
        usize::try_from(i)
            .ok()
            .and_then(|i| frames.get(i))
            .map_or(0.0, &channel)
    };
    let mut peak = 0.0f32;
    let n = frames.len() as isize;
    // Windows (i-1, i, i+1, i+2) for every i from 0 to n: each pair of neighbours,
    // the ramp in from the silent frame before the first, and the ramp out into
    // the silence kira pushes after the last.
    for i in 0..=n {
        peak = window_peak_above(peak, at(i - 1), at(i), at(i + 1), at(i + 2));
    }
    // kira starts a sound with one silent frame before its start position.
    let s = start as isize;
    peak = window_peak_above(peak, 0.0, at(s), at(s + 1), at(s + 2));
    if let Some((loop_start, loop_end)) = loop_region {
        let (loop_start, loop_end) = (loop_start as isize, (loop_end as isize).min(n));
        if loop_start < loop_end {
            // Read across the loop point: ..., end-2, end-1, start, start+1, ...
            let wrapped = |k: isize| -> f32 {
                if k < loop_end {
                    at(k)
                } else {
                    at(loop_start + (k - loop_end) % (loop_end - loop_start))
                }
            };
            for i in loop_end - 3..loop_end + 1 {
                peak = window_peak_above(
                    peak,
                    wrapped(i - 1),
                    wrapped(i),
                    wrapped(i + 1),
                    wrapped(i + 2),
                );
            }
        }
    }
    peak
}

/// `max(peak, |cubic|)` over the window; skips the exact search when a cheap bound
/// shows the window cannot beat `peak`.
fn window_peak_above(peak: f32, a: f32, b: f32, c: f32, d: f32) -> f32 {
    let bound = a.abs().max(b.abs()).max(c.abs()).max(d.abs()) * 1.25;
    if bound <= peak {
        return peak;
    }
    peak.max(window_peak(a, b, c, d) as f32)
}

/// The largest `|f(t)|` for `t` in `[0, 1]`, where `f` is kira's
/// `interpolate_frame` cubic through `a, b, c, d` (Catmull-Rom between `b` and
/// `c`): the ends, and the roots of `f'` inside the interval.
pub(crate) fn window_peak(a: f32, b: f32, c: f32, d: f32) -> f64 {
    let (a, b, c, d) = (f64::from(a), f64::from(b), f64::from(c), f64::from(d));
    let c0 = b;
    let c1 = (c - a) * 0.5;
    let c2 = a - b * 2.5 + c * 2.0 - d * 0.5;
    let c3 = (d - a) * 0.5 + (b - c) * 1.5;
    let f = |t: f64| ((c3 * t + c2) * t + c1) * t + c0;
    let mut peak = b.abs().max(c.abs());
    let mut consider = |t: f64| {
        if t > 0.0 && t < 1.0 {
            peak = peak.max(f(t).abs());
        }
    };
    // f'(t) = 3 c3 t^2 + 2 c2 t + c1
    let (qa, qb, qc) = (3.0 * c3, 2.0 * c2, c1);
    if qa.abs() < 1e-12 {
        if qb.abs() > 1e-300 {
            consider(-qc / qb);
        }
    } else {
        let discriminant = qb * qb - 4.0 * qa * qc;
        if discriminant >= 0.0 {
            let root = discriminant.sqrt();
            // The numerically stable pair of roots.
            let q = -0.5 * (qb + qb.signum() * root);
            if q != 0.0 {
                consider(q / qa);
                consider(qc / q);
            } else {
                consider(0.0);
            }
        }
    }
    peak
}

#[cfg(test)]
mod tests {
    use super::*;
    use kira::sound::PlaybackPosition;
    use proptest::prelude::*;

    fn kira_cubic(a: f32, b: f32, c: f32, d: f32, t: f32) -> f32 {
        kira::interpolate_frame(
            Frame::from_mono(a),
            Frame::from_mono(b),
            Frame::from_mono(c),
            Frame::from_mono(d),
            t,
        )
        .left
    }

    fn sampled_peak(a: f32, b: f32, c: f32, d: f32) -> f32 {
        (0..=4096).fold(0.0f32, |m, i| {
            m.max(kira_cubic(a, b, c, d, i as f32 / 4096.0).abs())
        })
    }

    #[test]
    fn the_worst_window_overshoots_by_a_quarter() {
        // Catmull-Rom's largest overshoot for data within [-1, 1]: 1.25.
        let p = window_peak(-1.0, 1.0, 1.0, -1.0);
        assert!((p - 1.25).abs() < 1e-9, "{p}");
        assert_eq!(window_peak(0.5, 0.5, 0.5, 0.5), 0.5);
        assert_eq!(window_peak(0.0, 0.0, 0.0, 0.0), 0.0);
    }

    #[test]
    fn a_full_scale_square_is_measured_above_its_samples() {
        let frames: Vec<Frame> = (0..64)
            .map(|i| Frame::from_mono(if (i / 2) % 2 == 0 { 1.0 } else { -1.0 }))
            .collect();
        let data = StaticSoundData {
            sample_rate: 48_000,
            frames: frames.into(),
            settings: Default::default(),
            slice: None,
        };
        let peak = SoundPeak::measure(&data).unwrap();
        assert_eq!(peak.sample(), 1.0);
        assert!(peak.max() >= 1.25 - 1e-6, "{}", peak.max());
    }

    #[test]
    fn the_loop_point_is_measured() {
        // 0.5 everywhere but a jump to -0.5 across the loop point.
        let mut frames = vec![Frame::from_mono(0.5); 32];
        frames[0] = Frame::from_mono(-0.5);
        frames[1] = Frame::from_mono(-0.5);
        let data = StaticSoundData {
            sample_rate: 48_000,
            frames: frames.into(),
            settings: Default::default(),
            slice: None,
        };
        let plain = SoundPeak::measure(&data).unwrap().max();
        let looped = SoundPeak::measure(&data.loop_region(PlaybackPosition::Samples(1)..))
            .unwrap()
            .max();
        assert!(plain > 0.5 && looped >= plain);
    }

    #[test]
    fn reversed_windows_have_the_same_peak() {
        for (a, b, c, d) in [(0.3, -1.0, 0.9, 0.2), (1.0, 0.0, -1.0, 1.0)] {
            assert!((window_peak(a, b, c, d) - window_peak(d, c, b, a)).abs() < 1e-12);
        }
    }

    proptest! {
        #[test]
        fn the_exact_window_peak_bounds_kiras_curve_and_is_reached(
            a in -2.0f32..2.0, b in -2.0f32..2.0, c in -2.0f32..2.0, d in -2.0f32..2.0,
        ) {
            let exact = window_peak(a, b, c, d) as f32;
            let sampled = sampled_peak(a, b, c, d);
            prop_assert!(sampled <= exact * ROUNDING_MARGIN + 1e-7, "sampled {sampled} above exact {exact}");
            // On a 4096-step grid the curve comes within a hair of its maximum.
            prop_assert!(sampled >= exact - 1e-3 * exact.max(1.0), "exact {exact} never reached ({sampled})");
        }
    }
}

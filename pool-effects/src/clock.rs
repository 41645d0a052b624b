//! Effect time in whole microseconds (the workspace's time step,
//! [`pool_core::seconds_to_micros`]): summing `1/60` sixty times in floating point
//! lands a hair under 1.0, which would release a one-shot one update late; integers
//! add up exactly, so "released after `frame_count * interval`" holds to the update.
//! A step and an interval written alike (`1.0 / 60.0`) round to the same number of
//! microseconds.

use pool_core::{TimeError, seconds_to_micros as micros};

/// What an effect's clock reads at its start, in microseconds (about 1.05 s):
/// a spawn offset holds a new effect back by setting its clock below this, and
/// the longest animation is this much shorter than a `u32` of microseconds.
pub(crate) const START: u64 = 1 << 20;
/// [`START`] as the clock's own type.
pub(crate) const START_U32: u32 = START as u32;

/// A time scale in 16.16 fixed point: 1.0 is `1 << 16`. Scaling `dt` is then one
/// integer multiply with no branch, exact for a scale of 1, and a scale is kept to
/// 1/65536 (so 0.3 reads back as 0.300003).
pub(crate) const SCALE_ONE: u32 = 1 << 16;

/// A finite, non-negative scale in 16.16 fixed point, saturating at 65535.99. A
/// scale above 0 never rounds to 0 (which would pause): it is at least 1/65536.
pub(crate) fn fixed_scale(scale: f32) -> Result<u32, TimeError> {
    micros(f64::from(scale))?;
    let fixed = (f64::from(scale) * f64::from(SCALE_ONE))
        .round()
        .min(f64::from(u32::MAX)) as u32;
    Ok(if scale > 0.0 { fixed.max(1) } else { fixed })
}

/// `dt` microseconds (at most `u32::MAX`, see [`step`]) scaled by a 16.16 scale:
/// the product fits in a `u64`.
#[inline]
pub(crate) fn scaled(dt: u32, scale: u32) -> u64 {
    (u64::from(dt) * u64::from(scale)) >> 16
}

/// A step of `dt` microseconds scaled by a 16.16 scale, floored to the
/// microsecond and kept within a step's range.
#[inline]
pub(crate) fn scaled_step(dt: u32, scale: u32) -> u32 {
    scaled(dt, scale).min(u64::from(u32::MAX)) as u32
}

/// A 16.16 scale as an `f32`, for display.
pub(crate) fn scale_to_f32(scale: u32) -> f32 {
    (f64::from(scale) / f64::from(SCALE_ONE)) as f32
}

/// One update's `dt` in microseconds, clamped to the longest animation a kind may
/// have (`u32::MAX` microseconds, 71 minutes): a longer step ends every one-shot
/// all the same, and keeps the per-effect arithmetic in 64 bits.
pub(crate) fn step(seconds: f64) -> Result<u32, TimeError> {
    Ok(micros(seconds)?.min(u64::from(u32::MAX)) as u32)
}

/// A duration in whole microseconds, rounded to the nearest (as
/// `pool_core::seconds_to_micros` rounds a `dt`), saturating.
pub(crate) fn duration_micros(duration: std::time::Duration) -> u64 {
    u64::try_from((duration.as_nanos() + 500) / 1000).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_duration_rounds_to_the_nearest_microsecond_and_saturates() {
        use std::time::Duration;
        assert_eq!(duration_micros(Duration::from_nanos(1_499)), 1);
        assert_eq!(duration_micros(Duration::from_nanos(1_500)), 2);
        assert_eq!(duration_micros(Duration::from_secs_f64(1.0 / 60.0)), 16_667);
        assert_eq!(duration_micros(Duration::MAX), u64::MAX);
    }

    #[test]
    fn sixty_sixtieths_make_exactly_one_second_of_frames() {
        let dt = micros(1.0 / 60.0).unwrap();
        let interval = micros(1.0 / 60.0).unwrap();
        assert_eq!(dt * 60, interval * 60);
        let float_sum: f64 = (0..60).map(|_| 1.0 / 60.0).sum();
        assert_ne!(
            float_sum, 1.0,
            "the float sum drifts; the integer one does not"
        );
    }

    #[test]
    fn bad_times_are_rejected() {
        assert!(
            micros(f64::NAN)
                .unwrap_err()
                .to_string()
                .contains("not a finite")
        );
        assert!(micros(-0.5).unwrap_err().to_string().contains("-0.5"));
        assert!(fixed_scale(f32::NAN).is_err());
        assert!(matches!(micros(f64::NAN), Err(TimeError::NotFinite(_))));
        assert!(matches!(
            micros(f64::INFINITY),
            Err(TimeError::NotFinite(_))
        ));
        assert!(matches!(micros(-0.5), Err(TimeError::Negative(_))));
        assert_eq!(micros(0.0), Ok(0));
        assert_eq!(micros(0.25), Ok(250_000));
        // Decimal frame times come out exact.
        assert_eq!(micros(0.1), Ok(100_000));
        assert_eq!(micros(0.05), Ok(50_000));
        assert_eq!(micros(1.0 / 30.0), Ok(33_333));
    }

    #[test]
    fn scaling_is_exact_for_one_and_floors_to_the_microsecond() {
        let scale = |s: f32| fixed_scale(s).unwrap();
        assert_eq!(scale(1.0), SCALE_ONE);
        assert_eq!(scaled(1000, scale(1.0)), 1000);
        assert_eq!(scaled(u32::MAX, scale(1.0)), u64::from(u32::MAX));
        assert_eq!(scaled(1000, scale(0.5)), 500);
        assert_eq!(scaled(1000, scale(0.0)), 0);
        assert_eq!(scaled(3, scale(0.5)), 1);
        assert_eq!(scaled(1000, scale(2.5)), 2500);
        assert_eq!(
            scaled(u32::MAX, u32::MAX),
            (u64::from(u32::MAX) * u64::from(u32::MAX)) >> 16
        );
        assert_eq!(
            step(1e9),
            Ok(u32::MAX),
            "a step is clamped to the longest animation"
        );
        assert!(fixed_scale(-1.0).is_err() && fixed_scale(f32::NAN).is_err());
        // Below the step, a positive scale slows down to the step, never to 0.
        for tiny in [1e-6, 1e-30, f32::MIN_POSITIVE, 1.0 / 200_000.0] {
            assert_eq!(scale(tiny), 1, "{tiny}");
        }
        assert_eq!(scale(0.0), 0, "0 still pauses");
    }
}

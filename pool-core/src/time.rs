//! The time step every `update` of the workspace takes: `f64` seconds, checked and
//! turned into whole microseconds once.
//!
//! Game loops advance by a float `dt`, but summing floats drifts: sixty steps of
//! `1/60` add up to a hair under 1.0, which would end a one-second effect or allow
//! a retrigger one frame late. Whole microseconds add up exactly, and a step
//! rounded to the nearest microsecond recovers the decimal value it was written as.

use core::fmt;

/// A time step (or another time in seconds) that no clock can advance by: NaN,
/// infinite or negative. Returned by every `update` in the workspace
/// (`pool_effects::Effects::update`, `pool_audio::SoundEffects::update`) before
/// anything changes.
///
/// ```
/// use pool_core::{TimeError, seconds_to_micros};
///
/// assert_eq!(seconds_to_micros(f64::NAN).map_err(|e| e.is_not_finite()), Err(true));
/// assert!(matches!(seconds_to_micros(-0.5), Err(TimeError::Negative(s)) if s == -0.5));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum TimeError {
    /// NaN or an infinity.
    NotFinite(f64),
    /// Below zero: clocks only run forward.
    Negative(f64),
}

impl TimeError {
    /// `true` for NaN and infinities.
    ///
    /// ```
    /// use pool_core::seconds_to_micros;
    /// assert!(seconds_to_micros(f64::INFINITY).unwrap_err().is_not_finite());
    /// assert!(!seconds_to_micros(-1.0).unwrap_err().is_not_finite());
    /// ```
    #[must_use]
    pub fn is_not_finite(&self) -> bool {
        matches!(self, Self::NotFinite(_))
    }
}

impl fmt::Display for TimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFinite(seconds) => {
                write!(f, "time {seconds} s is not a finite number of seconds")
            }
            Self::Negative(seconds) => {
                write!(f, "time {seconds} s is negative: clocks only run forward")
            }
        }
    }
}

impl core::error::Error for TimeError {}

/// Seconds to whole microseconds, rounded to the nearest and saturating at
/// `u64::MAX`; NaN, infinities and negative times are a [`TimeError`].
///
/// ```
/// use pool_core::seconds_to_micros;
///
/// assert_eq!(seconds_to_micros(0.25), Ok(250_000));
/// assert_eq!(seconds_to_micros(1.0 / 30.0), Ok(33_333));
/// // Six float steps of 1/60 s fall short of 0.1 s; six whole-microsecond steps do not.
/// let float_sum: f64 = (0..6).map(|_| 1.0 / 60.0).sum();
/// assert!(float_sum < 0.1);
/// assert_eq!(seconds_to_micros(1.0 / 60.0), Ok(16_667));
/// assert!(6 * 16_667 >= seconds_to_micros(0.1).unwrap());
/// assert_eq!(seconds_to_micros(1e300), Ok(u64::MAX));
/// ```
pub fn seconds_to_micros(seconds: f64) -> Result<u64, TimeError> {
    if seconds.is_nan() || seconds.is_infinite() {
        return Err(TimeError::NotFinite(seconds));
    }
    if seconds < 0.0 {
        return Err(TimeError::Negative(seconds));
    }
    // Round half up (`f64::round` needs std); the cast truncates and saturates.
    Ok((seconds * 1e6 + 0.5) as u64)
}

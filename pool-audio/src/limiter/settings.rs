//! How a limiter limits: its ceiling, look-ahead and release, and the error for a
//! value out of range.

use std::time::Duration;

use kira::Decibels;

/// How a [`LimiterBuilder`](super::LimiterBuilder) limits: ceiling, look-ahead and release.
///
/// ```
/// use std::time::Duration;
/// use pool_audio::dsp::LimiterSettings;
///
/// # use pool_audio::kira::Decibels;
/// let settings = LimiterSettings { ceiling: Decibels(-0.5), ..Default::default() };
/// assert!(settings.validate().is_ok());
/// assert_eq!(settings.lookahead, Duration::from_micros(1500));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LimiterSettings {
    /// The most any sample may reach, dBFS: `-60..=0` (default -1).
    pub ceiling: Decibels,
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
            ceiling: Decibels(-1.0),
            lookahead: Duration::from_micros(1500),
            release: Duration::from_millis(50),
        }
    }
}

/// A limiter setting out of range.
///
/// ```
/// use pool_audio::{dsp::LimiterError, dsp::LimiterSettings};
///
/// # use pool_audio::kira::Decibels;
/// let bad = LimiterSettings { ceiling: Decibels(f32::NAN), ..Default::default() };
/// assert!(matches!(bad.validate(), Err(LimiterError::Ceiling(_))));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum LimiterError {
    /// The ceiling is NaN, infinite, above 0 dBFS or below -60.
    Ceiling(Decibels),
    /// The look-ahead is not in `0.1..=20` ms.
    Lookahead(Duration),
    /// The release is not in `1 ms..=5 s`.
    Release(Duration),
}

impl std::fmt::Display for LimiterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Ceiling(db) => write!(f, "limiter ceiling {} dBFS is not in -60..=0", db.0),
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
    /// use pool_audio::{dsp::LimiterError, dsp::LimiterSettings};
    ///
    /// let bad = LimiterSettings { release: Duration::ZERO, ..Default::default() };
    /// assert_eq!(bad.validate(), Err(LimiterError::Release(Duration::ZERO)));
    /// ```
    pub fn validate(&self) -> Result<(), LimiterError> {
        if !(-60.0..=0.0).contains(&self.ceiling.0) {
            return Err(LimiterError::Ceiling(self.ceiling));
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

//! The attenuation of stacked copies: copy `i` of a sound plays at `v * p^i`, with
//! `p` chosen so that all `n` copies together sum to a budget. In-phase copies add
//! up sample by sample, so their sum bounds the mix: with the budget set to the
//! headroom over the sound's measured peak, a stack of copies never clips.

use core::fmt;

use crate::MAX_VOICES_PER_SOUND;

/// A per-sound setting out of range.
///
/// ```
/// use pool_audio::{error::AttenuationError, sound::CopyVolumes};
///
/// assert_eq!(CopyVolumes::solve(0, 0.5, 0.9), Err(AttenuationError::MaxVoices(0)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum AttenuationError {
    /// `max_voices` is not in `1..=64`.
    MaxVoices(usize),
    /// The first copy's volume is not a finite amplitude in `(0, 1]`.
    FirstVolume(f64),
    /// The budget is not a finite gain above 0.
    Budget(f64),
    /// The copies cannot all reach the floor inside the budget (`max_voices`
    /// copies at the floor sum above it): at most `fits` can.
    Floor {
        /// The most copies the budget holds at the floor.
        fits: usize,
    },
}

impl fmt::Display for AttenuationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MaxVoices(n) => write!(f, "max_voices {n} is not in 1..={MAX_VOICES_PER_SOUND}"),
            Self::FirstVolume(v) => {
                write!(f, "first-copy volume {v} is not an amplitude in (0, 1]")
            }
            Self::Budget(b) => write!(f, "copy budget {b} is not a finite gain above 0"),
            Self::Floor { fits } => write!(
                f,
                "the copies cannot all reach the floor inside the budget: at most {fits} can"
            ),
        }
    }
}

impl std::error::Error for AttenuationError {}

/// The volumes of the copies of one sound: copy `i` (0 is the first, loudest)
/// plays at `first * ratio^i`, and the `max_voices` copies sum to at most the
/// budget. [`SoundEffects`](crate::SoundEffects) solves them with the budget
/// `headroom / peak`, the peak being the sound's [`SoundPeak::max`](crate::SoundPeak::max).
///
/// ```
/// use pool_audio::sound::CopyVolumes;
///
/// // 64 copies, the first at 0.2, summing to 1.
/// let volumes = CopyVolumes::solve(64, 0.2, 1.0)?;
/// let total: f64 = (0..64).map(|i| volumes.volume(i)).sum();
/// assert!((total - 1.0).abs() < 1e-9);
/// assert!(volumes.volume(1) < volumes.volume(0));
/// # Ok::<(), pool_audio::error::AttenuationError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CopyVolumes {
    first: f64,
    ratio: f64,
    copies: u32,
    /// No copy is quieter than this (0: no floor).
    floor: f64,
}

impl CopyVolumes {
    /// Solves for the ratio `p` with Newton's method (starting at 0.9), kept
    /// inside a bisection bracket so it converges for every valid input.
    ///
    /// Edges: one copy (`p` = 1, nothing to share); equal volumes already fit
    /// (`v * n <= budget`, so `p` = 1); a first volume at or above the budget
    /// (the first copy plays at the budget and `p` = 0: there is no room for a
    /// second copy, which is then below any audibility floor and never started).
    ///
    /// # Errors
    /// [`AttenuationError`] when `max_voices` is not in `1..=64`, `first_volume`
    /// is not a finite amplitude in `(0, 1]`, or `budget` is not a finite gain
    /// above 0.
    ///
    /// ```
    /// use pool_audio::sound::CopyVolumes;
    ///
    /// let quiet = CopyVolumes::solve(10, 0.05, 0.891)?; // 10 x 0.05 = 0.5 fits
    /// assert_eq!(quiet.ratio(), 1.0);
    /// let loud = CopyVolumes::solve(10, 0.5, 0.891)?;
    /// assert!(loud.ratio() < 1.0);
    /// # Ok::<(), pool_audio::error::AttenuationError>(())
    /// ```
    pub fn solve(
        max_voices: usize,
        first_volume: f64,
        budget: f64,
    ) -> Result<Self, AttenuationError> {
        if !(1..=MAX_VOICES_PER_SOUND).contains(&max_voices) {
            return Err(AttenuationError::MaxVoices(max_voices));
        }
        if !(first_volume.is_finite() && first_volume > 0.0 && first_volume <= 1.0) {
            return Err(AttenuationError::FirstVolume(first_volume));
        }
        if !(budget.is_finite() && budget > 0.0) {
            return Err(AttenuationError::Budget(budget));
        }
        let n = max_voices as u32; // at most 64, checked above
        let first = first_volume.min(budget);
        let ratio = if n == 1 || first * f64::from(n) <= budget {
            1.0
        } else if first >= budget {
            0.0
        } else {
            solve_ratio(n, first, budget)
        };
        Ok(Self {
            first,
            ratio,
            copies: n,
            floor: 0.0,
        })
    }

    /// Like [`solve`](Self::solve), with no copy under `floor` (a linear
    /// amplitude: the audibility floor): copy `i` plays at
    /// `max(first * ratio^i, floor)` and the copies still sum to at most the
    /// budget, so every one of `max_voices` copies starts audible. The ratio
    /// is solved for that sum; the first copy is lowered only when the others
    /// at the floor would leave it less than asked.
    ///
    /// # Errors
    /// As [`solve`](Self::solve), and [`AttenuationError::Floor`] (with how
    /// many fit) when `max_voices` copies at the floor alone exceed the budget,
    /// or (`fits: 0`) when the first copy, capped at the budget, is under it.
    ///
    /// ```
    /// use pool_audio::sound::CopyVolumes;
    ///
    /// // 12 copies, the first at 0.5: the oldest would fall under -60 dB.
    /// assert!(CopyVolumes::solve(12, 0.5, 0.891)?.volume(11) < 0.001);
    /// let floored = CopyVolumes::solve_above(12, 0.5, 0.891, 0.001)?;
    /// assert_eq!((floored.volume(0), floored.volume(11)), (0.5, 0.001));
    /// assert!(floored.total() <= 0.891 + 1e-9);
    /// // Ten copies at -20 dB (0.1) alone exceed the budget: nine fit.
    /// assert!(CopyVolumes::solve_above(10, 0.5, 0.891, 0.1).is_err());
    /// # Ok::<(), pool_audio::error::AttenuationError>(())
    /// ```
    pub fn solve_above(
        max_voices: usize,
        first_volume: f64,
        budget: f64,
        floor: f64,
    ) -> Result<Self, AttenuationError> {
        let plain = Self::solve(max_voices, first_volume, budget)?;
        let floor = floor.max(0.0);
        if plain.first < floor {
            // Not even the first copy (capped at the budget) reaches it.
            return Err(AttenuationError::Floor { fits: 0 });
        }
        let n = plain.copies;
        if plain.volume(n - 1) >= floor {
            return Ok(plain);
        }
        let others = f64::from(n - 1) * floor;
        if others + floor > budget {
            return Err(AttenuationError::Floor {
                fits: (budget / floor) as usize,
            });
        }
        let first = plain.first.min(budget - others);
        let sum = |p: f64| -> f64 { (0..n).map(|i| (first * p.powi(i as i32)).max(floor)).sum() };
        // The sum grows with the ratio: bisect for the largest that fits.
        let (mut low, mut high) = (0.0_f64, 1.0_f64);
        for _ in 0..100 {
            let mid = 0.5 * (low + high);
            if sum(mid) <= budget {
                low = mid;
            } else {
                high = mid;
            }
        }
        Ok(Self {
            first,
            ratio: low,
            copies: n,
            floor,
        })
    }

    /// The volume (linear amplitude) of copy `index`; 0 past the last copy.
    ///
    /// ```
    /// # use pool_audio::sound::CopyVolumes;
    /// let volumes = CopyVolumes::solve(4, 0.5, 0.9)?;
    /// assert_eq!(volumes.volume(0), 0.5);
    /// assert_eq!(volumes.volume(4), 0.0);
    /// # Ok::<(), pool_audio::error::AttenuationError>(())
    /// ```
    pub fn volume(&self, index: u32) -> f64 {
        if index >= self.copies {
            0.0
        } else {
            (self.first * self.ratio.powi(index as i32)).max(self.floor)
        }
    }

    /// The first copy's volume: the requested one, or the budget if that was lower.
    ///
    /// ```
    /// # use pool_audio::sound::CopyVolumes;
    /// assert_eq!(CopyVolumes::solve(4, 1.0, 0.9)?.first(), 0.9);
    /// # Ok::<(), pool_audio::error::AttenuationError>(())
    /// ```
    pub fn first(&self) -> f64 {
        self.first
    }

    /// `p`: each copy is this much quieter than the one before, in `[0, 1]`.
    ///
    /// ```
    /// # use pool_audio::sound::CopyVolumes;
    /// let volumes = CopyVolumes::solve(8, 0.3, 0.9)?;
    /// assert!(volumes.ratio() > 0.0 && volumes.ratio() < 1.0);
    /// # Ok::<(), pool_audio::error::AttenuationError>(())
    /// ```
    pub fn ratio(&self) -> f64 {
        self.ratio
    }

    /// The number of copies, `max_voices`.
    ///
    /// ```
    /// # use pool_audio::sound::CopyVolumes;
    /// assert_eq!(CopyVolumes::solve(8, 0.3, 0.9)?.copies(), 8);
    /// # Ok::<(), pool_audio::error::AttenuationError>(())
    /// ```
    pub fn copies(&self) -> u32 {
        self.copies
    }

    /// The volume of all copies together: the loudest the stack can get.
    ///
    /// ```
    /// # use pool_audio::sound::CopyVolumes;
    /// let volumes = CopyVolumes::solve(30, 0.2, 0.891)?;
    /// assert!((volumes.total() - 0.891).abs() < 1e-9);
    /// # Ok::<(), pool_audio::error::AttenuationError>(())
    /// ```
    pub fn total(&self) -> f64 {
        (0..self.copies).map(|i| self.volume(i)).sum()
    }
}

/// `sum_{i<n} p^i` and its derivative.
fn series(n: u32, p: f64) -> (f64, f64) {
    let (mut sum, mut derivative, mut power) = (0.0, 0.0, 1.0);
    for i in 0..n {
        sum += power;
        if i + 1 < n {
            derivative += f64::from(i + 1) * power;
        }
        power *= p;
    }
    (sum, derivative)
}

/// The `p` in `(0, 1)` with `first * sum_{i<n} p^i = headroom`, given
/// `first < headroom < first * n` (so the root is bracketed by 0 and 1, and the
/// function increases on that interval).
fn solve_ratio(n: u32, first: f64, headroom: f64) -> f64 {
    let (mut low, mut high) = (0.0_f64, 1.0_f64);
    let mut p = 0.9;
    for _ in 0..100 {
        let (sum, derivative) = series(n, p);
        let f = first * sum - headroom;
        if f.abs() < 1e-13 {
            break;
        }
        if f < 0.0 {
            low = p;
        } else {
            high = p;
        }
        let newton = p - f / (first * derivative);
        // Newton while it stays inside the bracket; bisection otherwise.
        p = if newton > low && newton < high {
            newton
        } else {
            0.5 * (low + high)
        };
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn source_003s_finding_the_first_30_of_100_copies_carry_99_percent() {
        // The article's numbers are for 100 copies; our cap is 64, so check the
        // same shape with the solver's formula directly.
        let p = solve_ratio(100, 0.2, 1.0);
        let total: f64 = (0..100).map(|i| 0.2 * p.powi(i)).sum();
        let first_30: f64 = (0..30).map(|i| 0.2 * p.powi(i)).sum();
        assert!((total - 1.0).abs() < 1e-9);
        assert!(first_30 / total > 0.99, "{}", first_30 / total);
    }

    #[test]
    fn edges_one_copy_small_volumes_and_loud_first_copies() {
        let one = CopyVolumes::solve(1, 0.7, 0.891).unwrap();
        assert_eq!((one.ratio(), one.total()), (1.0, 0.7));
        let fits = CopyVolumes::solve(5, 0.1, 0.891).unwrap();
        assert_eq!(fits.ratio(), 1.0);
        assert!((fits.total() - 0.5).abs() < 1e-12);
        let loud = CopyVolumes::solve(5, 1.0, 0.891).unwrap();
        assert_eq!(
            (loud.first(), loud.ratio(), loud.volume(1)),
            (0.891, 0.0, 0.0)
        );
        assert!(loud.total() <= 0.891);
    }

    #[test]
    fn a_floor_lifts_the_quiet_copies_and_refuses_what_cannot_fit() {
        let lifted = CopyVolumes::solve_above(12, 0.5, 0.891, 0.001).unwrap();
        assert!((0..12).all(|i| lifted.volume(i) >= 0.001));
        assert!(lifted.total() <= 0.891 + 1e-9 && lifted.volume(0) == 0.5);
        // The first copy is capped at the budget (0.891), under a -0.5 dB floor.
        assert_eq!(
            CopyVolumes::solve_above(1, 1.0, 0.891, 0.944),
            Err(AttenuationError::Floor { fits: 0 })
        );
        // Ten copies at 0.1 exceed the budget: eight fit.
        assert_eq!(
            CopyVolumes::solve_above(10, 0.5, 0.891, 0.1),
            Err(AttenuationError::Floor { fits: 8 })
        );
    }

    #[test]
    fn out_of_range_settings_are_typed_errors() {
        assert_eq!(
            CopyVolumes::solve(65, 0.5, 0.9),
            Err(AttenuationError::MaxVoices(65))
        );
        for v in [0.0, -0.1, 1.5, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                CopyVolumes::solve(4, v, 0.9),
                Err(AttenuationError::FirstVolume(_))
            ));
        }
        for budget in [0.0, -0.1, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                CopyVolumes::solve(4, 0.5, budget),
                Err(AttenuationError::Budget(_))
            ));
        }
        // A quiet sound's budget is above 1: its copies may sum past 1.
        assert!((CopyVolumes::solve(4, 0.5, 1.6).unwrap().total() - 1.6).abs() < 1e-9);
        assert!(
            AttenuationError::MaxVoices(0)
                .to_string()
                .contains("1..=64")
        );
    }

    /// The default levels as `SoundSettings::first_volume`'s docs state them: 8
    /// copies from 0.5 fit -1 dBFS at 0.5, 0.22, 0.10; from the headroom itself,
    /// the older copies are silent.
    #[test]
    fn the_default_levels_are_as_documented() {
        let headroom = 10f64.powf(-1.0 / 20.0);
        let stack = CopyVolumes::solve(8, 0.5, headroom).unwrap();
        let first_three: Vec<f64> = (0..3)
            .map(|i| (stack.volume(i) * 100.0).round() / 100.0)
            .collect();
        assert_eq!(first_three, [0.5, 0.22, 0.10]);
        assert!((stack.total() - headroom).abs() < 1e-6);
        let alone = CopyVolumes::solve(8, 1.0, headroom).unwrap();
        assert_eq!(alone.volume(0), headroom);
        assert_eq!(alone.volume(1), 0.0);
    }

    proptest! {
        #[test]
        fn copies_sum_to_the_headroom_and_never_get_louder(
            n in 1..=64u32,
            v in 1e-6..=1.0f64,
            h in 1e-3..=1.0f64,
        ) {
            let volumes = CopyVolumes::solve(n as usize, v, h).unwrap();
            let total = volumes.total();
            prop_assert!(total <= h + 1e-9, "total {total} above headroom {h}");
            if v * f64::from(n) <= h || n == 1 {
                prop_assert_eq!(volumes.ratio(), 1.0);
                prop_assert!((total - v.min(h) * f64::from(n)).abs() < 1e-9);
            } else {
                prop_assert!((total - h).abs() < 1e-6, "total {total} vs headroom {h}");
            }
            if v < h {
                prop_assert!(volumes.ratio() > 0.0 && volumes.ratio() <= 1.0);
            }
            for i in 1..n {
                prop_assert!(volumes.volume(i) <= volumes.volume(i - 1));
            }
        }
    }
}

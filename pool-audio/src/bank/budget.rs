//! How copies of one sound share its budget, sample by sample.
//!
//! A sound's budget is the most its copies may add up to: the headroom over its
//! measured peak, as a gain (`total`). Copies are ranked by age among the copies
//! of the sound that are still sounding, newest first, and a copy's level is
//! [`CopyVolumes::volume`] of its rank: the newest plays at the first-copy
//! volume, each older one lower. Three rules keep the sum inside the budget at
//! every sample without a click, and a steady stream even:
//!
//! 1. **Onset levels.** A copy starts at the level of its rank: a burst of copies
//!    started together is attenuated exactly as the copy volumes say, and sums to
//!    at most the budget.
//! 2. **Settled levels.** After an onset, the copies ramp (over the steal fade)
//!    to levels that leave room for the next onset: the newest first, each older
//!    one at most its rank's level, all together at most `pool`, the budget less
//!    one first-copy volume (or less the room left beside a first copy, when the
//!    first copy takes more than half the budget). In a steady stream every new
//!    copy therefore finds room for its first-copy volume and starts at it: every
//!    shot's onset at the same level.
//! 3. **Room.** At every point where gains are computed (each 16-frame step of
//!    the mixer, gains interpolated in between), copies take their level oldest
//!    first, each at most what the copies older than it have left of the budget.
//!    A copy that starts while the older ones are still ramping down starts
//!    lower and rises as they fall: a crossfade, never a sum above the budget.
//!    Levels only fall by ramps, so nothing is ever cut.
//!
//! Settled levels fall with age, and past some rank they fall under the
//! audibility floor (or to nothing, once the newer copies have taken the
//! whole pool): [`Budget::kept`] is how many copies stay at or above it. The
//! game side lets no more than that many copies keep their voices once
//! settled (the older ones leave, see `SoundEffects::update`), so no copy
//! that is still counted plays under the floor.

use crate::CopyVolumes;

/// A sound's budget as the mixer applies it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Budget {
    levels: CopyVolumes,
    /// What all copies together may reach, as a gain on the data.
    total: f32,
    /// What the settled copies share: `total` less the room kept for an onset.
    pool: f32,
}

impl Budget {
    /// The budget of a sound whose copies play at `levels` and together reach at
    /// most `total`.
    pub(crate) fn new(levels: CopyVolumes, total: f64) -> Self {
        let total = total.min(f64::from(f32::MAX));
        let first = levels.volume(0).min(total);
        let reserve = first.min(total - first);
        Self {
            levels,
            total: total as f32,
            pool: (total - reserve) as f32,
        }
    }

    /// The level of the copy of rank `rank` (0 is the newest) as it starts.
    pub(crate) fn onset(&self, rank: u32) -> f32 {
        self.levels.volume(rank) as f32
    }

    /// How many copies, newest first, settle at or above `floor` (an
    /// amplitude; a level of 0 never counts): at least 1 when the first
    /// copy's volume reaches the floor, at most the sound's `max_voices`.
    pub(crate) fn kept(&self, floor: f32) -> usize {
        let mut settle = Settle::default();
        let copies = self.levels.copies();
        (0..copies)
            .take_while(|_| {
                let (_, settled) = settle.next(self, false);
                settled > 0.0 && settled >= floor
            })
            .count()
    }
}

/// Hands out settled levels to a sound's sounding copies, newest first.
#[derive(Debug, Default)]
pub(crate) struct Settle {
    rank: u32,
    used: f32,
}

impl Settle {
    /// The next older copy's onset and settled levels; a copy that is leaving
    /// (stopped or stolen) keeps its rank's place but settles to 0.
    pub(crate) fn next(&mut self, budget: &Budget, leaving: bool) -> (f32, f32) {
        let onset = budget.onset(self.rank);
        self.rank += 1;
        if leaving {
            return (onset, 0.0);
        }
        let settled = onset.min(budget.pool - self.used).max(0.0);
        self.used += settled;
        (onset, settled)
    }
}

/// Hands out room to a sound's copies, oldest first.
#[derive(Debug, Default)]
pub(crate) struct Room {
    used: f32,
}

impl Room {
    /// What a copy that wants `wanted` gets: at most what is left of the budget.
    pub(crate) fn take(&mut self, budget: &Budget, wanted: f32) -> f32 {
        let got = wanted.min(budget.total - self.used).max(0.0);
        self.used += got;
        got
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(copies: usize, first: f64, total: f64) -> Budget {
        Budget::new(CopyVolumes::solve(copies, first, total).unwrap(), total)
    }

    /// A 0.5-amplitude sine's budget at the defaults.
    fn b_half() -> Budget {
        budget(8, 0.5, 0.891 / 0.5)
    }

    /// Settled levels of `n` sounding copies, newest first.
    fn settled(budget: &Budget, n: usize) -> Vec<f32> {
        let mut settle = Settle::default();
        (0..n).map(|_| settle.next(budget, false).1).collect()
    }

    #[test]
    fn a_burst_starts_at_the_copy_volumes_and_fills_the_budget() {
        let b = budget(8, 0.2, 0.89);
        let mut settle = Settle::default();
        let onsets: f32 = (0..8).map(|_| settle.next(&b, false).0).sum();
        assert!((onsets - 0.89).abs() < 1e-5, "{onsets}");
    }

    #[test]
    fn settled_copies_leave_room_for_one_more_onset() {
        for (copies, first, total) in [
            (8, 0.2, 0.89),
            (4, 0.2, 0.89),
            (10, 0.05, 3.0),
            (3, 0.4, 0.89),
        ] {
            let b = budget(copies, first, total);
            let levels = settled(&b, copies);
            let sum: f32 = levels.iter().sum();
            assert!(sum + b.onset(0) <= b.total + 1e-6, "{levels:?}");
            assert_eq!(levels[0], b.onset(0), "the newest keeps its onset level");
            for pair in levels.windows(2) {
                assert!(pair[1] <= pair[0]);
            }
        }
    }

    #[test]
    fn a_first_copy_above_half_the_budget_keeps_its_level_and_leaves_the_rest() {
        // One copy at the whole budget: nothing to reserve, the next copy
        // crossfades in as this one fades out.
        let b = budget(1, 1.0, 0.89);
        assert_eq!(settled(&b, 1), [b.onset(0)]);
        let b = budget(4, 0.6, 0.89);
        let levels = settled(&b, 4);
        assert_eq!(levels[0], b.onset(0));
        assert!(levels[1..].iter().all(|l| *l == 0.0), "{levels:?}");
    }

    #[test]
    fn leaving_copies_keep_their_rank_and_settle_to_nothing() {
        let b = budget(4, 0.2, 0.89);
        let mut settle = Settle::default();
        assert_eq!(settle.next(&b, true), (b.onset(0), 0.0));
        assert_eq!(settle.next(&b, false), (b.onset(1), b.onset(1)));
    }

    #[test]
    fn kept_counts_the_copies_that_settle_at_or_above_the_floor() {
        // A 0.5-amplitude sine at the defaults (8 copies, the first at 0.5,
        // -1 dBFS): 0.5, 0.37, 0.28, then what is left of the pool.
        let b = budget(8, 0.5, 0.891 / 0.5);
        let levels = settled(&b, 8);
        let above = levels.iter().filter(|l| **l >= 0.001).count();
        assert_eq!(b.kept(0.001), above);
        assert!((2..8).contains(&above), "{levels:?}");
        // Full-scale data: the first copy takes more than half the budget.
        assert_eq!(budget(8, 0.5, 0.891).kept(0.001), 1);
        // A higher floor keeps fewer; copies that all fit at the first
        // volume are all kept.
        assert!(b_half().kept(0.2) < b_half().kept(0.001));
        assert_eq!(budget(10, 0.05, 3.0).kept(0.001), 10);
    }

    #[test]
    fn room_is_taken_oldest_first_and_never_exceeds_the_budget() {
        let b = budget(2, 0.5, 0.89);
        let mut room = Room::default();
        assert_eq!(room.take(&b, 0.5), 0.5);
        assert!((room.take(&b, 0.5) - 0.39).abs() < 1e-6);
        assert_eq!(room.take(&b, 0.5), 0.0);
    }
}

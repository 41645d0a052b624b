//! The instances that exist: made up front or over frames, dropped, back to
//! each kind's initial size; and the room kept for them.

use pool_core::KindId;

use super::Effects;
use crate::error::SpawnError;

impl Effects {
    /// Room in the finished list for every instance that exists (live or idle): it
    /// never holds more entries than that, so no push reallocates. Memory follows the instances that exist, not the caps: a cap
    /// is a ceiling, not an allocation. O(kinds).
    pub(super) fn reserve_for_instances(&mut self) {
        let instances = self.instances();
        // `reserve` counts from `len` and grows at least twofold: amortized O(1).
        if self.finished.capacity() < instances {
            self.finished.reserve(instances - self.finished.len());
        }
        for (_, pool, entry) in self.pools.iter_with_data_mut() {
            let total = pool.stats().total;
            entry.lane.reserve(total);
            if self.ending.capacity() < total {
                self.ending.reserve(total - self.ending.len());
            }
            if self.ended.capacity() < total {
                self.ended.reserve(total - self.ended.len());
            }
        }
    }

    /// Instances that exist, live and idle, of all kinds: the most a draw list or
    /// the finished list ever holds.
    pub(crate) fn instances(&self) -> usize {
        self.pools.iter().map(|(_, pool)| pool.stats().total).sum()
    }

    /// Creates at most `budget` instances in all towards each kind's `initial`
    /// size; returns how many are still missing (0 when done).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// for name in ["explosion", "bite", "spark"] {
    ///     effects.add_kind_lazy(EffectKind::new(name, 8, Duration::from_millis(50)).pool(1000, 1000))?;
    /// }
    /// let mut frames = 1;
    /// while effects.prewarm_step(500) > 0 { frames += 1; }
    /// assert_eq!(frames, 6); // 3000 instances, 500 a frame
    /// # Ok::<(), pool_effects::AddKindError>(())
    /// ```
    pub fn prewarm_step(&mut self, budget: usize) -> usize {
        let missing = self.pools.prewarm_step(budget);
        self.reserve_for_instances();
        missing
    }

    /// Creates at most `budget` instances of one kind towards its `initial` size;
    /// returns how many are still missing.
    ///
    /// # Errors
    /// [`SpawnError::UnknownKind`] for an id this `Effects` did not issue.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let smoke = effects.add_kind_lazy(EffectKind::new("smoke", 8, Duration::from_millis(100)).pool(1000, 1000))?;
    /// assert_eq!(effects.prewarm_kind_step(smoke, 400)?, 600);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prewarm_kind_step(&mut self, kind: KindId, budget: usize) -> Result<usize, SpawnError> {
        let pool = self
            .pools
            .pool_mut(kind)
            .ok_or(SpawnError::UnknownKind(kind))?;
        let missing = pool.prewarm_step(budget);
        self.reserve_for_instances();
        Ok(missing)
    }

    /// Drops every instance of one kind, live and idle, when the kind is no longer
    /// needed (the kind stays added and its pool grows again
    /// on demand). Handles of its live effects go stale.
    ///
    /// # Errors
    /// [`SpawnError::UnknownKind`] for an id this `Effects` did not issue.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)).pool(100, 100))?;
    /// let spark = effects.spawn(hit, [0.0, 0.0])?;
    /// effects.destroy_kind(hit)?;
    /// assert!(effects.get(spark).is_none());
    /// assert_eq!(effects.stats(hit).unwrap().pool.total, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn destroy_kind(&mut self, kind: KindId) -> Result<(), SpawnError> {
        let (pool, entry) = self
            .pools
            .with_data_mut(kind)
            .ok_or(SpawnError::UnknownKind(kind))?;
        pool.clear();
        entry.lane.clear();
        Ok(())
    }

    /// For every kind: drops idle instances; live effects play on. Returns how
    /// many were dropped. To end every effect as well, [`clear`](Self::clear).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)).pool(10, 10))?;
    /// effects.spawn(hit, [0.0, 0.0])?;
    /// assert_eq!(effects.clear_idle(), 9);
    /// assert_eq!(effects.stats(hit).unwrap().pool.total, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn clear_idle(&mut self) -> usize {
        self.pools
            .iter_mut()
            .map(|(_, pool)| pool.clear_idle())
            .sum()
    }

    /// For every kind: every live effect ends (its handle goes stale, no finished
    /// event is reported) and every instance is dropped; kinds stay added and
    /// their pools grow again on demand.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)).pool(10, 10))?;
    /// let spark = effects.spawn(hit, [0.0, 0.0])?;
    /// effects.clear();
    /// assert!(!effects.contains(spark));
    /// assert_eq!(effects.stats(hit).unwrap().pool.total, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn clear(&mut self) {
        for (_, pool, entry) in self.pools.iter_with_data_mut() {
            pool.clear();
            entry.lane.clear();
        }
    }

    /// For every kind: every live effect ends (its handle
    /// goes stale) and each pool returns to its `initial` size. For a level change.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)).pool(4, 10))?;
    /// for _ in 0..8 { effects.spawn(hit, [0.0, 0.0])?; }
    /// effects.reinitialize();
    /// let pool = effects.stats(hit).unwrap().pool;
    /// assert_eq!((pool.live, pool.idle), (0, 4));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reinitialize(&mut self) {
        for (_, pool, entry) in self.pools.iter_with_data_mut() {
            entry.reinitialized += pool.live_count() as u64;
            pool.reinitialize();
            entry.lane.clear();
        }
    }
}

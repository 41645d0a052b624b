//! What a profiler overlay reads: each kind's numbers, and how many effects live.

use pool_core::{KindId, PoolStats};

use super::Effects;

/// Per-kind numbers for a profiler overlay: the pool's own statistics and the
/// effect counters.
///
/// ```
/// # use std::time::Duration;
/// use pool_effects::{EffectKind, Effects};
///
/// let mut effects = Effects::new();
/// let hit = effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)).pool(10, 10))?;
/// effects.spawn(hit, [0.0, 0.0])?;
/// let stats = effects.stats(hit).unwrap();
/// assert_eq!((stats.spawns, stats.pool.live, stats.pool.idle), (1, 1, 9));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct KindStats {
    /// The kind's pool: live, idle, peaks, creates, recycles, refusals...
    pub pool: PoolStats,
    /// Effects spawned.
    pub spawns: u64,
    /// One-shots that ended on their own.
    pub finished: u64,
    /// Effects stopped by [`Effects::stop`].
    pub stopped: u64,
    /// Follow-ups started where this kind's effects ended.
    pub follow_ups: u64,
    /// Follow-ups refused (a full strict kind) or undefined (no kind of that name).
    pub follow_ups_refused: u64,
    /// Live effects off-screen and parked now: paused or catching up (their
    /// clocks cost an update nothing), or about to end
    /// ([`Offscreen::End`](crate::Offscreen::End)).
    pub offscreen: usize,
    /// Effects ended because they were off-screen
    /// ([`Offscreen::End`](crate::Offscreen::End)).
    pub culled: u64,
    /// One-shots that ended while off-screen and catching up
    /// ([`Offscreen::CatchUp`](crate::Offscreen::CatchUp)); counted in
    /// `finished` too.
    pub ended_offscreen: u64,
}

impl Effects {
    /// Live effects of all kinds.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)))?;
    /// effects.spawn(hit, [0.0, 0.0])?;
    /// assert_eq!(effects.live_count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn live_count(&self) -> usize {
        self.pools.iter().map(|(_, pool)| pool.live_count()).sum()
    }

    /// Per-kind statistics.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)).pool(0, 1))?;
    /// effects.spawn(hit, [0.0, 0.0])?;
    /// effects.spawn(hit, [0.0, 0.0])?; // recycles the first
    /// assert_eq!(effects.stats(hit).unwrap().pool.recycles, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stats(&self, kind: KindId) -> Option<KindStats> {
        let entry = self.entry(kind)?;
        let pool = self.pools.stats(kind)?;
        Some(KindStats {
            pool,
            // Every acquire is a spawn; every release a finish, a stop or a
            // reinitialize.
            spawns: pool.acquires,
            finished: entry.finished,
            stopped: pool.releases - entry.finished - entry.reinitialized - entry.culled,
            follow_ups: entry.follow_ups,
            follow_ups_refused: entry.follow_ups_refused,
            offscreen: entry.lane.parked.len(),
            culled: entry.culled,
            ended_offscreen: entry.ended_offscreen,
        })
    }
}

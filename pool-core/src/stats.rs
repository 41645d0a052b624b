//! What a profiler overlay shows about a pool.

/// A snapshot of a pool's sizes and lifetime counters, from
/// [`Pool::stats`](crate::Pool::stats).
///
/// Counters only grow. `acquires` counts every object handed out, including the ones
/// obtained by recycling; `releases` counts objects made idle by
/// [`release`](crate::Pool::release), [`reclaim`](crate::Pool::reclaim) and
/// [`reinitialize`](crate::Pool::reinitialize); a recycle is counted in `recycles`
/// only.
///
/// ```
/// use pool_core::Pool;
///
/// let mut pool: Pool<u32> = Pool::new(2, 4, || 0).unwrap();
/// let handle = pool.acquire();
/// pool.release(handle).unwrap();
/// let stats = pool.stats();
/// assert_eq!((stats.live, stats.idle, stats.total), (0, 2, 2));
/// assert_eq!((stats.acquires, stats.releases, stats.creates), (1, 1, 2));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PoolStats {
    /// Objects currently handed out.
    pub live: usize,
    /// Objects ready to be handed out.
    pub idle: usize,
    /// `live + idle`: objects that exist now.
    pub total: usize,
    /// The most objects ever live at once (high-water mark).
    pub peak_live: usize,
    /// The most objects that ever existed at once.
    pub peak_total: usize,
    /// Objects handed out, by any path.
    pub acquires: u64,
    /// Objects created by the factory (prewarm, growth, reinitialize).
    pub creates: u64,
    /// Live objects reset and handed out again because the pool was full.
    pub recycles: u64,
    /// Acquire requests refused because the pool was full.
    pub refusals: u64,
    /// Live objects made idle.
    pub releases: u64,
    /// Objects dropped (trim, clear, reinitialize surplus).
    pub destroys: u64,
    /// Stale handles passed to `release`, `get_mut` or `try_get_mut`.
    pub stale_handle_uses: u64,
    /// Slots retired because their generation counter ran out (see the crate docs).
    pub retired_slots: u64,
}

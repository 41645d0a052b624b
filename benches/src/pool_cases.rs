//! The pool cases: `pool_core::Pool` under each policy, and the baselines.

use std::collections::VecDeque;
use std::hint::black_box;

use pool_core::{ExhaustionPolicy, Handle, Pool, RecycleOldest};
use slotmap::{DefaultKey, SlotMap};

use crate::{Particle, Pooled, Workload};

/// A `pool_core::Pool` of `T` with half its objects live; the oldest is released
/// each cycle.
pub struct PoolHalfLive<P, T = Particle> {
    pool: Pool<T, P>,
    live: VecDeque<Handle>,
    owner: u32,
}

impl<T: Pooled, P: ExhaustionPolicy<T>> PoolHalfLive<P, T> {
    /// A pool of at most `size` objects, `initial` of them created up front, then
    /// filled to half live and cycled until warm.
    pub fn new(initial: usize, size: usize, policy: P) -> Self {
        let pool = Pool::builder(T::fresh)
            .initial(initial)
            .max_objects(size)
            .policy(policy)
            .build()
            .expect("valid benchmark configuration");
        let mut this = Self {
            pool,
            live: VecDeque::with_capacity(size),
            owner: 0,
        };
        for _ in 0..size / 2 {
            let handle = this.pool.acquire();
            this.live.push_back(handle);
        }
        this.run(size as u64);
        this
    }
}

impl<T: Pooled, P: ExhaustionPolicy<T>> Workload for PoolHalfLive<P, T> {
    #[inline]
    fn cycle(&mut self) {
        self.owner = self.owner.wrapping_add(1);
        let (handle, object) = self.pool.acquire_mut();
        object.spawn(self.owner);
        self.live.push_back(handle);
        if let Some(oldest) = self.live.pop_front() {
            let _ = black_box(self.pool.release(oldest));
        }
    }
}

/// A `pool_core::Pool` of `T` with every object live: each acquire asks the
/// policy for a victim (with `RecycleOldest`, the oldest, in O(1)).
pub struct PoolFull<P = RecycleOldest, T = Particle> {
    pool: Pool<T, P>,
    owner: u32,
}

impl<T: Pooled, P: ExhaustionPolicy<T>> PoolFull<P, T> {
    /// A fixed pool of `size` objects, all live, with `policy` (which must recycle:
    /// a refused acquire is measured as a refusal).
    pub fn new(size: usize, policy: P) -> Self {
        let mut pool = Pool::builder(T::fresh)
            .initial(size)
            .max_objects(size)
            .policy(policy)
            .build()
            .expect("valid benchmark configuration");
        for _ in 0..size {
            let _ = pool.acquire();
        }
        let mut this = Self { pool, owner: 0 };
        this.run(size as u64);
        this
    }
}

impl<T: Pooled, P: ExhaustionPolicy<T>> Workload for PoolFull<P, T> {
    #[inline]
    fn cycle(&mut self) {
        self.owner = self.owner.wrapping_add(1);
        if let Ok((handle, object)) = self.pool.try_acquire_mut() {
            object.spawn(self.owner);
            black_box(handle);
        }
    }
}

/// Baseline: a raw `SlotMap` of `T`, insert and remove, half full.
pub struct SlotMapHalfLive<T = Particle> {
    map: SlotMap<DefaultKey, T>,
    live: VecDeque<DefaultKey>,
    owner: u32,
}

impl<T: Pooled> SlotMapHalfLive<T> {
    /// A slot map with room for `size` values, half of them present.
    pub fn new(size: usize) -> Self {
        let mut this = Self {
            map: SlotMap::with_capacity(size),
            live: VecDeque::with_capacity(size),
            owner: 0,
        };
        for _ in 0..size / 2 {
            let key = this.map.insert(T::fresh());
            this.live.push_back(key);
        }
        this.run(size as u64);
        this
    }
}

impl<T: Pooled> Workload for SlotMapHalfLive<T> {
    #[inline]
    fn cycle(&mut self) {
        self.owner = self.owner.wrapping_add(1);
        let key = self.map.insert(T::spawned(self.owner));
        self.live.push_back(key);
        if let Some(oldest) = self.live.pop_front() {
            black_box(self.map.remove(oldest));
        }
    }
}

/// Baseline: no pool at all, `Box::new` and drop.
pub struct BoxHalfLive {
    live: VecDeque<Box<Particle>>,
    owner: u32,
}

impl BoxHalfLive {
    /// `size / 2` boxed particles alive.
    pub fn new(size: usize) -> Self {
        let mut this = Self {
            live: VecDeque::with_capacity(size),
            owner: 0,
        };
        for _ in 0..size / 2 {
            this.live.push_back(Box::default());
        }
        this.run(size as u64);
        this
    }
}

impl Workload for BoxHalfLive {
    #[inline]
    fn cycle(&mut self) {
        self.owner = self.owner.wrapping_add(1);
        self.live
            .push_back(black_box(Box::new(Particle::spawned(self.owner))));
        black_box(self.live.pop_front());
    }
}

/// Baseline: the `object-pool` crate (a `Mutex<Vec<T>>` and RAII guards that give
/// the object back on drop).
pub struct ObjectPoolHalfLive {
    // Declared before `pool`'s owner so guards drop first; the pool is leaked, which
    // is what makes the guards `'static` (one pool per benchmark case).
    live: VecDeque<object_pool::Reusable<'static, Particle>>,
    pool: &'static object_pool::Pool<Particle>,
    owner: u32,
}

impl ObjectPoolHalfLive {
    /// An `object_pool::Pool` of `size` objects, half of them pulled.
    pub fn new(size: usize) -> Self {
        let pool: &'static object_pool::Pool<Particle> =
            Box::leak(Box::new(object_pool::Pool::new(size, Particle::default)));
        let mut this = Self {
            live: VecDeque::with_capacity(size),
            pool,
            owner: 0,
        };
        for _ in 0..size / 2 {
            let guard = this.pool.pull(Particle::default);
            this.live.push_back(guard);
        }
        this.run(size as u64);
        this
    }
}

impl Workload for ObjectPoolHalfLive {
    #[inline]
    fn cycle(&mut self) {
        self.owner = self.owner.wrapping_add(1);
        let mut guard = self.pool.pull(Particle::default);
        *guard = Particle::spawned(self.owner);
        self.live.push_back(guard);
        black_box(self.live.pop_front());
    }
}

/// A Unity sound manager's FIFO `AudioSource` pool (`Retrieve`), in Rust: a queue of sources
/// rotated until one that is not playing is found; below the cap a new one is
/// created; at the cap the front (oldest) one is stopped and reused. Every source is
/// busy here, so each request rotates the whole queue before stealing.
pub struct UnityScanFull {
    sources: Vec<UnitySource>,
    queue: VecDeque<usize>,
    max: usize,
    owner: u32,
}

struct UnitySource {
    playing: bool,
    particle: Particle,
}

impl UnityScanFull {
    /// `size` sources, all playing.
    pub fn new(size: usize) -> Self {
        let mut this = Self {
            sources: Vec::with_capacity(size),
            queue: VecDeque::with_capacity(size),
            max: size,
            owner: 0,
        };
        // What `size` calls of `retrieve` would build (each creating one source),
        // without the O(size^2) scans.
        for index in 0..size {
            this.sources.push(UnitySource {
                playing: true,
                particle: Particle::default(),
            });
            this.queue.push_back(index);
        }
        this.run(4);
        this
    }

    fn retrieve(&mut self) -> usize {
        for _ in 0..self.queue.len() {
            let Some(index) = self.queue.pop_front() else {
                break;
            };
            self.queue.push_back(index);
            if !self.sources[index].playing {
                return index;
            }
        }
        if self.sources.len() < self.max {
            self.sources.push(UnitySource {
                playing: false,
                particle: Particle::default(),
            });
            let index = self.sources.len() - 1;
            self.queue.push_back(index);
            return index;
        }
        let index = self.queue.pop_front().unwrap_or(0);
        self.sources[index].playing = false; // Stop(): the oldest sound is cut
        self.queue.push_back(index);
        index
    }
}

impl Workload for UnityScanFull {
    #[inline]
    fn cycle(&mut self) {
        self.owner = self.owner.wrapping_add(1);
        let index = self.retrieve();
        let source = &mut self.sources[index];
        source.particle = Particle::spawned(self.owner);
        source.playing = true;
        black_box(index);
    }
}

/// Two live objects at once, mutably (`get_disjoint_mut`), as a collision
/// swaps their velocities: a `pool_core::Pool` half live, the pair chosen
/// pseudo-randomly each cycle.
pub struct PoolDisjoint {
    pool: Pool<Particle, RecycleOldest>,
    live: Vec<Handle>,
    seed: u64,
}

impl PoolDisjoint {
    /// `size / 2` live particles in a pool of `size`.
    pub fn new(size: usize) -> Self {
        let mut pool = Pool::builder(Particle::fresh)
            .initial(size)
            .max_objects(size)
            .policy(RecycleOldest)
            .build()
            .expect("valid benchmark configuration");
        let live = (0..(size / 2).max(2)).map(|_| pool.acquire()).collect();
        Self {
            pool,
            live,
            seed: 1,
        }
    }
}

/// Two distinct indices below `len`, from a small LCG.
#[inline]
fn pair(seed: &mut u64, len: usize) -> (usize, usize) {
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    let a = (*seed >> 33) as usize % len;
    let b = (a + 1 + (*seed >> 13) as usize % (len - 1)) % len;
    (a, b)
}

impl Workload for PoolDisjoint {
    #[inline]
    fn cycle(&mut self) {
        let (a, b) = pair(&mut self.seed, self.live.len());
        if let Some([x, y]) = self.pool.get_disjoint_mut([self.live[a], self.live[b]]) {
            std::mem::swap(&mut x.velocity, &mut y.velocity);
        }
        black_box(&self.pool);
    }
}

/// Baseline: slotmap's `get_disjoint_mut` on the same workload.
pub struct SlotMapDisjoint {
    map: SlotMap<DefaultKey, Particle>,
    live: Vec<DefaultKey>,
    seed: u64,
}

impl SlotMapDisjoint {
    /// `size / 2` particles in a slot map with room for `size`.
    pub fn new(size: usize) -> Self {
        let mut map = SlotMap::with_capacity(size);
        let live = (0..(size / 2).max(2))
            .map(|_| map.insert(Particle::fresh()))
            .collect();
        Self { map, live, seed: 1 }
    }
}

impl Workload for SlotMapDisjoint {
    #[inline]
    fn cycle(&mut self) {
        let (a, b) = pair(&mut self.seed, self.live.len());
        if let Some([x, y]) = self.map.get_disjoint_mut([self.live[a], self.live[b]]) {
            std::mem::swap(&mut x.velocity, &mut y.velocity);
        }
        black_box(&self.map);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CASES, SIZES, workload};
    use pool_core::Strict;

    #[test]
    fn every_case_builds_at_every_size_and_cycles() {
        for name in CASES {
            for size in SIZES {
                let mut case = workload(name, size).expect(name);
                case.run(10);
            }
        }
        assert!(workload("nope", 64).is_none());
    }

    #[test]
    fn half_live_cases_keep_half_their_objects_live() {
        let mut case = PoolHalfLive::<_, Particle>::new(64, 64, Strict);
        case.run(1000);
        assert_eq!(case.pool.stats().live, 32);
        assert_eq!(case.pool.stats().total, 64, "a prewarmed pool never grows");
        let mut grown = PoolHalfLive::<_, Particle>::new(0, 64, Strict);
        grown.run(1000);
        assert_eq!(grown.pool.stats().live, 32);
        assert!(
            grown.pool.stats().total <= 33,
            "grew to its working set only"
        );
    }

    #[test]
    fn the_full_pool_recycles_on_every_cycle() {
        let mut case = PoolFull::<_, Particle>::new(64, RecycleOldest);
        let before = case.pool.stats().recycles;
        case.run(100);
        assert_eq!(case.pool.stats().recycles - before, 100);
    }

    #[test]
    fn the_unity_scan_steals_the_oldest_source() {
        let mut case = UnityScanFull::new(4);
        assert!(case.sources.iter().all(|s| s.playing));
        let front = *case.queue.front().unwrap();
        case.cycle();
        assert_eq!(
            *case.queue.back().unwrap(),
            front,
            "the oldest went to the back"
        );
        assert_eq!(case.sources.len(), 4);
    }
}

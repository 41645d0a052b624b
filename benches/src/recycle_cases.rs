//! Recycling the oldest live object, against what a game would write instead of
//! a pool: slotmap (or slab) plus a `VecDeque` of keys in insertion order, with
//! lazy deletion (a released key stays in the queue and is skipped when it comes
//! out) and a compaction when the queue grows past twice the capacity.
//!
//! Every container runs the same cycle on a ring of the `size` most recent keys:
//! 1. acquire one object, written whole (when every object is live, the oldest
//!    live one goes: the pool recycles it, the others remove it and insert);
//! 2. release the key a stride away in the ring (it may already be stale: then
//!    nothing happens, in each container): on every cycle of an odd stretch of
//!    `size` cycles (the container stays below full and churns, so the hand-made
//!    queue grows until it compacts), on every 4th of an even one (the container
//!    fills and recycles).

use std::collections::VecDeque;
use std::hint::black_box;
use std::time::Instant;

use pool_core::{Handle, Pool, RecycleOldest};
use slotmap::{DefaultKey, SlotMap};

use crate::arena_cases::Blob;
use crate::{Pooled, Workload};

/// The containers of the recycle table, in row order. Case names are
/// `recycle_{container}_{bytes}b`.
pub const RECYCLE_CONTAINERS: [&str; 3] = ["pool", "slotmap_deque", "slab_deque"];

/// What the recycle cycle asks of a container of at most `capacity` objects.
trait Recycler<T> {
    type Key: Copy + Default;
    fn with_capacity(capacity: usize) -> Self;
    /// Takes an object, the oldest live one if every object is live, and writes it.
    fn acquire(&mut self, n: u32) -> Self::Key;
    /// Gives back `key`'s object, if the key is still live.
    fn release(&mut self, key: Self::Key);
}

impl<T: Pooled> Recycler<T> for Pool<T, RecycleOldest> {
    type Key = Handle;
    fn with_capacity(capacity: usize) -> Self {
        Pool::builder(T::fresh)
            .initial(capacity)
            .max_objects(capacity)
            .policy(RecycleOldest)
            .build()
            .expect("a valid benchmark pool")
    }
    #[inline(always)]
    fn acquire(&mut self, n: u32) -> Handle {
        let (handle, object) = self.acquire_mut();
        object.spawn(n);
        handle
    }
    #[inline(always)]
    fn release(&mut self, key: Handle) {
        let _ = black_box(Pool::release(self, key));
    }
}

/// slotmap plus a queue of its keys in insertion order: what a game writes to
/// recycle the oldest with a generational arena.
pub struct SlotMapDeque<T> {
    map: SlotMap<DefaultKey, T>,
    order: VecDeque<DefaultKey>,
    capacity: usize,
}

impl<T: Pooled> Recycler<T> for SlotMapDeque<T> {
    type Key = DefaultKey;
    fn with_capacity(capacity: usize) -> Self {
        Self {
            map: SlotMap::with_capacity(capacity),
            order: VecDeque::with_capacity(2 * capacity + 1),
            capacity,
        }
    }
    #[inline(always)]
    fn acquire(&mut self, n: u32) -> DefaultKey {
        if self.map.len() == self.capacity {
            // The oldest key still live; released ones are skipped.
            while let Some(oldest) = self.order.pop_front() {
                if black_box(self.map.remove(oldest)).is_some() {
                    break;
                }
            }
        }
        let key = self.map.insert(T::spawned(n));
        self.order.push_back(key);
        if self.order.len() > 2 * self.capacity {
            let map = &self.map;
            self.order.retain(|key| map.contains_key(*key));
        }
        key
    }
    #[inline(always)]
    fn release(&mut self, key: DefaultKey) {
        black_box(self.map.remove(key));
    }
}

/// slab plus the same queue. slab's keys carry no generation, so each entry
/// carries a stamp, and a key is the slab index with its stamp: without it a
/// released key would name whatever the slab put in its place.
pub struct SlabDeque<T> {
    slab: slab::Slab<(T, u32)>,
    order: VecDeque<(usize, u32)>,
    capacity: usize,
    stamp: u32,
}

impl<T> SlabDeque<T> {
    #[inline(always)]
    fn remove_live(&mut self, (index, stamp): (usize, u32)) -> bool {
        if self.slab.get(index).is_some_and(|entry| entry.1 == stamp) {
            black_box(self.slab.remove(index));
            true
        } else {
            false
        }
    }
}

impl<T: Pooled> Recycler<T> for SlabDeque<T> {
    type Key = (usize, u32);
    fn with_capacity(capacity: usize) -> Self {
        Self {
            slab: slab::Slab::with_capacity(capacity),
            order: VecDeque::with_capacity(2 * capacity + 1),
            capacity,
            stamp: 0,
        }
    }
    #[inline(always)]
    fn acquire(&mut self, n: u32) -> (usize, u32) {
        if self.slab.len() == self.capacity {
            while let Some(oldest) = self.order.pop_front() {
                if self.remove_live(oldest) {
                    break;
                }
            }
        }
        self.stamp = self.stamp.wrapping_add(1);
        let key = (self.slab.insert((T::spawned(n), self.stamp)), self.stamp);
        self.order.push_back(key);
        if self.order.len() > 2 * self.capacity {
            let slab = &self.slab;
            self.order
                .retain(|(index, stamp)| slab.get(*index).is_some_and(|entry| entry.1 == *stamp));
        }
        key
    }
    #[inline(always)]
    fn release(&mut self, key: (usize, u32)) {
        self.remove_live(key);
    }
}

/// One container running the recycle cycle on objects of type `T`.
struct RecycleCase<T, C: Recycler<T>> {
    container: C,
    ring: Vec<C::Key>,
    n: u32,
    _object: std::marker::PhantomData<T>,
}

/// Fibonacci hashing's multiplier: spreads the released positions over the ring.
const STRIDE: u64 = 2_654_435_761;

impl<T, C: Recycler<T>> RecycleCase<T, C> {
    /// A container cycled through two churning stretches and two filling ones.
    fn new(size: usize) -> Self {
        let mut this = Self {
            container: C::with_capacity(size),
            ring: vec![C::Key::default(); size],
            n: 0,
            _object: std::marker::PhantomData,
        };
        for _ in 0..4 * size {
            this.step();
        }
        this
    }

    /// One cycle.
    #[inline(always)]
    fn step(&mut self) {
        self.n = self.n.wrapping_add(1);
        let size = self.ring.len();
        let at = self.n as usize % size;
        self.ring[at] = self.container.acquire(self.n);
        let churning = (self.n as usize / size) % 2 == 1;
        if churning || self.n.is_multiple_of(4) {
            let other = (u64::from(self.n) * STRIDE % size as u64) as usize;
            self.container.release(self.ring[other]);
        }
    }

    /// Runs a cycle per entry of `times`, writing the time each took.
    fn timed_cycles(&mut self, times: &mut [u32]) {
        for time in times {
            let start = Instant::now();
            self.step();
            *time = start.elapsed().as_nanos().min(u128::from(u32::MAX)) as u32;
        }
    }
}

impl<T, C: Recycler<T>> Workload for RecycleCase<T, C> {
    #[inline]
    fn cycle(&mut self) {
        self.step();
    }
}

/// Runs one recycle case `runs` times from the same start, `cycles` cycles each
/// timed alone, and returns the worst cycle in ns. A cycle's time is its fastest
/// over the runs: a spike from the machine (an interrupt, another process) lands
/// on a different cycle each run and drops out, while a container's own spike (a
/// queue's compaction) lands on the same cycle every run and stays.
fn worst_of<T, C: Recycler<T>>(size: usize, cycles: usize, runs: usize) -> f64 {
    let mut fastest = vec![u32::MAX; cycles];
    let mut times = vec![0u32; cycles];
    for _ in 0..runs {
        let mut case = RecycleCase::<T, C>::new(size);
        case.timed_cycles(&mut times);
        for (best, time) in fastest.iter_mut().zip(&times) {
            *best = (*best).min(*time);
        }
    }
    f64::from(fastest.into_iter().max().unwrap_or(0))
}

fn parse(name: &str) -> Option<(&str, usize)> {
    let rest = name.strip_prefix("recycle_")?.strip_suffix('b')?;
    let (container, bytes) = rest.rsplit_once('_')?;
    Some((container, bytes.parse().ok()?))
}

macro_rules! by_size {
    ($bytes:expr, $container:expr, $make:ident ( $($arg:expr),* )) => {
        match ($bytes, $container) {
            (16, "pool") => Some($make::<Blob<4>, Pool<Blob<4>, RecycleOldest>>($($arg),*)),
            (16, "slotmap_deque") => Some($make::<Blob<4>, SlotMapDeque<Blob<4>>>($($arg),*)),
            (16, "slab_deque") => Some($make::<Blob<4>, SlabDeque<Blob<4>>>($($arg),*)),
            (32, "pool") => Some($make::<Blob<8>, Pool<Blob<8>, RecycleOldest>>($($arg),*)),
            (32, "slotmap_deque") => Some($make::<Blob<8>, SlotMapDeque<Blob<8>>>($($arg),*)),
            (32, "slab_deque") => Some($make::<Blob<8>, SlabDeque<Blob<8>>>($($arg),*)),
            (64, "pool") => Some($make::<Blob<16>, Pool<Blob<16>, RecycleOldest>>($($arg),*)),
            (64, "slotmap_deque") => Some($make::<Blob<16>, SlotMapDeque<Blob<16>>>($($arg),*)),
            (64, "slab_deque") => Some($make::<Blob<16>, SlabDeque<Blob<16>>>($($arg),*)),
            (256, "pool") => Some($make::<Blob<64>, Pool<Blob<64>, RecycleOldest>>($($arg),*)),
            (256, "slotmap_deque") => Some($make::<Blob<64>, SlotMapDeque<Blob<64>>>($($arg),*)),
            (256, "slab_deque") => Some($make::<Blob<64>, SlabDeque<Blob<64>>>($($arg),*)),
            _ => None,
        }
    };
}

fn boxed<T: 'static, C: Recycler<T> + 'static>(size: usize) -> Box<dyn Workload> {
    Box::new(RecycleCase::<T, C>::new(size))
}

/// Case `recycle_{container}_{bytes}b` at `size` objects.
pub fn recycle_case(name: &str, size: usize) -> Option<Box<dyn Workload>> {
    let (container, bytes) = parse(name)?;
    by_size!(bytes, container, boxed(size))
}

/// The worst cycle of case `recycle_{container}_{bytes}b` at `size` objects, in
/// ns (timer included), over `runs` runs from the same start: a cycle's time is
/// its fastest over the runs, so a spike from the machine drops out and the
/// container's own stays. `None` for an unknown case.
pub fn recycle_worst_ns(name: &str, size: usize, runs: usize) -> Option<f64> {
    let (container, bytes) = parse(name)?;
    let cycles = (8 * size).max(20_000);
    by_size!(bytes, container, worst_of(size, cycles, runs))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The live keys each container holds after the same cycles, oldest first.
    fn live_after<C: Recycler<Blob<4>>>(
        cycles: usize,
        size: usize,
        live: impl Fn(&C, C::Key) -> Option<u32>,
    ) -> Vec<u32> {
        let mut case = RecycleCase::<Blob<4>, C>::new(size);
        for _ in 0..cycles {
            case.cycle();
        }
        let mut owners: Vec<u32> = case
            .ring
            .iter()
            .filter_map(|key| live(&case.container, *key))
            .collect();
        owners.sort_unstable();
        owners
    }

    #[test]
    fn every_container_keeps_the_same_objects() {
        let mut compared = 0;
        for size in [8, 64, 100] {
            for cycles in [0, 1, 7, 3 * size + 5] {
                let pool = live_after::<Pool<Blob<4>, RecycleOldest>>(cycles, size, |p, k| {
                    p.get(k).map(|b| b.0[0])
                });
                let slotmap = live_after::<SlotMapDeque<Blob<4>>>(cycles, size, |s, k| {
                    s.map.get(k).map(|b| b.0[0])
                });
                let slab = live_after::<SlabDeque<Blob<4>>>(cycles, size, |s, (i, stamp)| {
                    s.slab.get(i).filter(|e| e.1 == stamp).map(|e| e.0.0[0])
                });
                compared += pool.len();
                assert_eq!(pool, slotmap, "size {size}, {cycles} cycles");
                assert_eq!(pool, slab, "size {size}, {cycles} cycles");
            }
        }
        assert!(compared > 100, "only {compared} live objects compared");
    }

    #[test]
    fn the_queue_compacts_and_stays_bounded() {
        let size = 64;
        let mut case = RecycleCase::<Blob<4>, SlotMapDeque<Blob<4>>>::new(size);
        let (mut most, mut compactions) = (0, 0);
        for _ in 0..20 * size {
            let before = case.container.order.len();
            case.cycle();
            let after = case.container.order.len();
            most = most.max(after);
            if after + size / 4 < before {
                compactions += 1;
            }
        }
        assert!(most <= 2 * size, "queue of {most} for {size} objects");
        // The churning stretches grow the queue past twice the capacity.
        assert!(
            compactions >= 5,
            "{compactions} compactions in 20 stretches"
        );
    }

    #[test]
    fn names_parse() {
        for container in RECYCLE_CONTAINERS {
            for bytes in crate::OBJECT_BYTES {
                let name = format!("recycle_{container}_{bytes}b");
                assert!(recycle_case(&name, 16).is_some(), "{name}");
            }
        }
        assert!(recycle_case("recycle_pool_48b", 16).is_none());
        assert!(recycle_case("recycle_vec_16b", 16).is_none());
    }
}

//! The pool beside the generational arenas people compare it with (slotmap,
//! thunderdome) and slab (no generations): the pool cycle at four object sizes,
//! and the operations arena benchmarks measure (insert, remove, get, iterate,
//! iterate half-empty) at 10,000 objects.

use std::collections::VecDeque;
use std::hint::black_box;

use pool_core::{Handle, Pool, RecycleOldest, Strict};
use slotmap::{DefaultKey, SlotMap};

use crate::{Particle, PoolHalfLive, Pooled, Workload};

/// An object of `4 * W` bytes that a spawn writes whole, as a game initializes
/// what it takes from a pool (and as an insert into an arena moves it in).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Blob<const W: usize>(pub [u32; W]);

impl<const W: usize> Pooled for Blob<W> {
    fn fresh() -> Self {
        Self([0; W])
    }

    fn spawn(&mut self, n: u32) {
        self.0 = [n; W];
    }

    fn spawned(n: u32) -> Self {
        Self([n; W])
    }
}

/// The object sizes of the size table, in bytes.
pub const OBJECT_BYTES: [usize; 4] = [16, 32, 64, 256];

/// The containers of the size table: the pool with each built-in policy, slotmap
/// and slab. Case names are `{container}_{bytes}b`.
pub const SIZE_CONTAINERS: [&str; 4] = ["strict", "fifo_recycle", "slotmap", "slab"];

/// Baseline without generations: a `slab::Slab`, insert and remove, half full.
pub struct SlabHalfLive<T> {
    slab: slab::Slab<T>,
    live: VecDeque<usize>,
    owner: u32,
}

impl<T: Pooled> SlabHalfLive<T> {
    /// A slab with room for `size` values, half of them present.
    pub fn new(size: usize) -> Self {
        let mut this = Self {
            slab: slab::Slab::with_capacity(size),
            live: VecDeque::with_capacity(size),
            owner: 0,
        };
        for _ in 0..size / 2 {
            let key = this.slab.insert(T::fresh());
            this.live.push_back(key);
        }
        this.run(size as u64);
        this
    }
}

impl<T: Pooled> Workload for SlabHalfLive<T> {
    #[inline]
    fn cycle(&mut self) {
        self.owner = self.owner.wrapping_add(1);
        let key = self.slab.insert(T::spawned(self.owner));
        self.live.push_back(key);
        if let Some(oldest) = self.live.pop_front() {
            black_box(self.slab.try_remove(oldest));
        }
    }
}

/// Case `container_{bytes}b` of the size table at `size` objects.
pub fn size_case(name: &str, size: usize) -> Option<Box<dyn Workload>> {
    let (container, bytes) = name.strip_suffix('b')?.rsplit_once('_')?;
    let bytes: usize = bytes.parse().ok()?;
    match bytes {
        16 => sized::<4>(container, size),
        32 => sized::<8>(container, size),
        64 => sized::<16>(container, size),
        256 => sized::<64>(container, size),
        _ => None,
    }
}

fn sized<const W: usize>(container: &str, size: usize) -> Option<Box<dyn Workload>> {
    Some(match container {
        "strict" => Box::new(PoolHalfLive::<_, Blob<W>>::new(size, size, Strict)),
        "fifo_recycle" => Box::new(PoolHalfLive::<_, Blob<W>>::new(size, size, RecycleOldest)),
        "slotmap" => Box::new(crate::SlotMapHalfLive::<Blob<W>>::new(size)),
        "slab" => Box::new(SlabHalfLive::<Blob<W>>::new(size)),
        _ => return None,
    })
}

/// What the arena table measures, each over [`ARENA_OBJECTS`] objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArenaOp {
    /// Insert every object into an emptied container that kept its room, then
    /// empty it the cheapest way it offers.
    Insert,
    /// Insert every object, then remove each by its key, oldest first.
    Remove,
    /// Look up every live object by its key, in a shuffled order.
    Get,
    /// Visit every live object.
    Iterate,
    /// Visit every live object of a container that holds twice as many slots,
    /// every other one emptied.
    IterateHalf,
}

/// Objects in the arena table.
pub const ARENA_OBJECTS: usize = 10_000;

/// The arena table's operations, by name, in row order.
pub const ARENA_OPS: [(&str, ArenaOp); 5] = [
    ("insert", ArenaOp::Insert),
    ("remove", ArenaOp::Remove),
    ("get", ArenaOp::Get),
    ("iterate", ArenaOp::Iterate),
    ("iterate_half", ArenaOp::IterateHalf),
];

/// The arena table's containers, in column order.
pub const ARENA_CONTAINERS: [&str; 4] = ["pool", "slotmap", "thunderdome", "slab"];

/// A container the arena table measures, behind one interface.
trait Arena {
    type Key: Copy;
    fn with_room(room: usize) -> Self;
    fn insert(&mut self, value: Particle) -> Self::Key;
    fn remove(&mut self, key: Self::Key);
    fn get(&self, key: Self::Key) -> Option<&Particle>;
    /// The sum of one field over every live object, by iteration.
    fn sum(&self) -> f64;
    /// Empties the container, keeping its room.
    fn empty(&mut self);
}

impl Arena for Pool<Particle, Strict> {
    type Key = Handle;
    fn with_room(room: usize) -> Self {
        Pool::builder(Particle::default)
            .initial(room)
            .max_objects(room)
            .build()
            .expect("a valid benchmark pool")
    }
    #[inline(always)]
    fn insert(&mut self, value: Particle) -> Handle {
        let (handle, object) = self.acquire_mut();
        *object = value;
        handle
    }
    #[inline(always)]
    fn remove(&mut self, key: Handle) {
        let _ = black_box(self.release(key));
    }
    #[inline(always)]
    fn get(&self, key: Handle) -> Option<&Particle> {
        Pool::get(self, key)
    }
    fn sum(&self) -> f64 {
        self.iter().map(|(_, p)| f64::from(p.position[0])).sum()
    }
    fn empty(&mut self) {
        // Every object back to idle, none destroyed: the pool's `clear`.
        self.reinitialize();
    }
}

impl Arena for SlotMap<DefaultKey, Particle> {
    type Key = DefaultKey;
    fn with_room(room: usize) -> Self {
        SlotMap::with_capacity(room)
    }
    #[inline(always)]
    fn insert(&mut self, value: Particle) -> DefaultKey {
        SlotMap::insert(self, value)
    }
    #[inline(always)]
    fn remove(&mut self, key: DefaultKey) {
        black_box(SlotMap::remove(self, key));
    }
    #[inline(always)]
    fn get(&self, key: DefaultKey) -> Option<&Particle> {
        SlotMap::get(self, key)
    }
    fn sum(&self) -> f64 {
        self.values().map(|p| f64::from(p.position[0])).sum()
    }
    fn empty(&mut self) {
        self.clear();
    }
}

impl Arena for thunderdome::Arena<Particle> {
    type Key = thunderdome::Index;
    fn with_room(room: usize) -> Self {
        thunderdome::Arena::with_capacity(room)
    }
    #[inline(always)]
    fn insert(&mut self, value: Particle) -> thunderdome::Index {
        thunderdome::Arena::insert(self, value)
    }
    #[inline(always)]
    fn remove(&mut self, key: thunderdome::Index) {
        black_box(thunderdome::Arena::remove(self, key));
    }
    #[inline(always)]
    fn get(&self, key: thunderdome::Index) -> Option<&Particle> {
        thunderdome::Arena::get(self, key)
    }
    fn sum(&self) -> f64 {
        self.iter().map(|(_, p)| f64::from(p.position[0])).sum()
    }
    fn empty(&mut self) {
        self.clear();
    }
}

impl Arena for slab::Slab<Particle> {
    type Key = usize;
    fn with_room(room: usize) -> Self {
        slab::Slab::with_capacity(room)
    }
    #[inline(always)]
    fn insert(&mut self, value: Particle) -> usize {
        slab::Slab::insert(self, value)
    }
    #[inline(always)]
    fn remove(&mut self, key: usize) {
        black_box(self.try_remove(key));
    }
    #[inline(always)]
    fn get(&self, key: usize) -> Option<&Particle> {
        slab::Slab::get(self, key)
    }
    fn sum(&self) -> f64 {
        self.iter().map(|(_, p)| f64::from(p.position[0])).sum()
    }
    fn empty(&mut self) {
        self.clear();
    }
}

/// One arena operation over [`ARENA_OBJECTS`] objects of one container.
struct ArenaCase<A: Arena> {
    arena: A,
    op: ArenaOp,
    keys: Vec<A::Key>,
}

impl<A: Arena> ArenaCase<A> {
    fn new(op: ArenaOp) -> Self {
        let slots = if op == ArenaOp::IterateHalf {
            2 * ARENA_OBJECTS
        } else {
            ARENA_OBJECTS
        };
        let mut arena = A::with_room(slots);
        let mut keys = Vec::with_capacity(slots);
        if matches!(op, ArenaOp::Get | ArenaOp::Iterate | ArenaOp::IterateHalf) {
            for n in 0..slots {
                keys.push(arena.insert(Particle::spawned(n as u32)));
            }
        }
        if op == ArenaOp::IterateHalf {
            for key in keys.iter().skip(1).step_by(2) {
                arena.remove(*key);
            }
        }
        if op == ArenaOp::Get {
            // A fixed shuffle (an LCG's Fisher-Yates): lookups in no cache-friendly order.
            let mut state = 0x2545_f491_4f6c_dd1d_u64;
            for i in (1..keys.len()).rev() {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                keys.swap(i, (state >> 33) as usize % (i + 1));
            }
        }
        let mut this = Self { arena, op, keys };
        this.run(3);
        this
    }
}

impl<A: Arena> Workload for ArenaCase<A> {
    fn cycle(&mut self) {
        match self.op {
            ArenaOp::Insert => {
                for n in 0..ARENA_OBJECTS {
                    black_box(self.arena.insert(Particle::spawned(n as u32)));
                }
                self.arena.empty();
            }
            ArenaOp::Remove => {
                self.keys.clear();
                for n in 0..ARENA_OBJECTS {
                    self.keys
                        .push(self.arena.insert(Particle::spawned(n as u32)));
                }
                for key in &self.keys {
                    self.arena.remove(*key);
                }
            }
            ArenaOp::Get => {
                let mut sum = 0.0;
                for key in &self.keys {
                    if let Some(particle) = self.arena.get(*key) {
                        sum += particle.position[0];
                    }
                }
                black_box(sum);
            }
            ArenaOp::Iterate | ArenaOp::IterateHalf => {
                black_box(self.arena.sum());
            }
        }
    }

    fn items_per_cycle(&self) -> u64 {
        ARENA_OBJECTS as u64
    }
}

/// Case `{op}_{container}` of the arena table (its size is ignored: every case
/// holds [`ARENA_OBJECTS`]).
pub fn arena_case(name: &str) -> Option<Box<dyn Workload>> {
    let (op, container) = ARENA_OPS.iter().find_map(|(op_name, op)| {
        let rest = name.strip_prefix(op_name)?.strip_prefix('_')?;
        ARENA_CONTAINERS.contains(&rest).then_some((*op, rest))
    })?;
    Some(match container {
        "pool" => Box::new(ArenaCase::<Pool<Particle, Strict>>::new(op)),
        "slotmap" => Box::new(ArenaCase::<SlotMap<DefaultKey, Particle>>::new(op)),
        "thunderdome" => Box::new(ArenaCase::<thunderdome::Arena<Particle>>::new(op)),
        "slab" => Box::new(ArenaCase::<slab::Slab<Particle>>::new(op)),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_case_exists_and_keeps_half_live() {
        for container in SIZE_CONTAINERS {
            for bytes in OBJECT_BYTES {
                let name = format!("{container}_{bytes}b");
                let mut case = size_case(&name, 64).unwrap_or_else(|| panic!("{name}"));
                case.run(100);
            }
        }
        assert_eq!(core::mem::size_of::<Blob<64>>(), 256);
        assert!(size_case("strict_48b", 64).is_none());
    }

    /// The "stale-handle safe" column of pool-core's comparison table: after a
    /// remove and an insert that reuses the slot, the old key of each container.
    #[test]
    fn stale_keys_behave_as_the_comparison_table_says() {
        let mut pool: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
        let (old, value) = pool.acquire_mut();
        *value = 1;
        pool.release(old).unwrap();
        let (new, value) = pool.acquire_mut();
        assert_eq!(*value, 1, "the object was kept");
        *value = 2;
        assert_ne!(old, new);
        assert_eq!(pool.get(old), None);

        let mut map = SlotMap::new();
        let old = map.insert(1u32);
        assert_eq!(map.remove(old), Some(1), "the value is given back");
        map.insert(2);
        assert_eq!(map.get(old), None);

        let mut arena = thunderdome::Arena::new();
        let old = arena.insert(1u32);
        assert_eq!(arena.remove(old), Some(1), "the value is given back");
        arena.insert(2);
        assert_eq!(arena.get(old), None);

        let mut slab = slab::Slab::new();
        let old = slab.insert(1u32);
        assert_eq!(slab.remove(old), 1, "the value is given back");
        slab.insert(2);
        assert_eq!(slab.get(old), Some(&2), "the old key reads the new value");
    }

    #[test]
    fn every_arena_case_sees_its_objects() {
        for (op, _) in ARENA_OPS {
            for container in ARENA_CONTAINERS {
                let name = format!("{op}_{container}");
                let mut case = arena_case(&name).unwrap_or_else(|| panic!("{name}"));
                case.run(2);
                assert_eq!(case.items_per_cycle(), ARENA_OBJECTS as u64);
            }
        }
        // Every container sums the same live objects.
        fn half<A: Arena>() -> f64 {
            ArenaCase::<A>::new(ArenaOp::IterateHalf).arena.sum()
        }
        let sums = [
            half::<Pool<Particle, Strict>>(),
            half::<SlotMap<DefaultKey, Particle>>(),
            half::<thunderdome::Arena<Particle>>(),
            half::<slab::Slab<Particle>>(),
        ];
        assert!(sums.windows(2).all(|w| w[0] == w[1]), "{sums:?}");
        assert!(sums[0] > 0.0);
    }
}

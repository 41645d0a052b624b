//! Model-based test: random operation sequences applied to a real pool and to a
//! trivially correct model (plain `Vec`s in acquisition order, an idle stack),
//! compared after every step. The slotmap crate's own test is the template.
//!
//! `PROPTEST_CASES=10000 cargo test -p pool-core --test model` for a longer run.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use pool_core::{
    AcquireError, ExhaustionPolicy, Handle, KeyedPool, PolicyChoice, Pool, PoolStats,
    RecycleLowest, RecycleOldest, StaleHandle, Strict,
};
use proptest::prelude::*;

/// A pooled object that records what the pool did to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Obj {
    /// Which factory call made it: object identity.
    serial: u32,
    /// Written by the test; reset to 0 by the release hook.
    value: u32,
    /// Incremented by the acquire hook.
    uses: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PolicyKind {
    Strict,
    Oldest,
    Lowest,
}

#[derive(Debug, Clone)]
enum Op {
    Acquire,
    Release(usize),
    Renew(usize),
    Write(usize, u32),
    Get(usize),
    Reclaim(u32),
    ForEachAdd(u32),
    Reinitialize,
    Clear(bool),
    TrimIdle(usize),
    PrewarmStep(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => Just(Op::Acquire),
        4 => any::<usize>().prop_map(Op::Release),
        2 => any::<usize>().prop_map(Op::Renew),
        3 => (any::<usize>(), 0..10u32).prop_map(|(i, v)| Op::Write(i, v)),
        2 => any::<usize>().prop_map(Op::Get),
        2 => (2..5u32).prop_map(Op::Reclaim),
        1 => (0..3u32).prop_map(Op::ForEachAdd),
        1 => Just(Op::Reinitialize),
        1 => any::<bool>().prop_map(Op::Clear),
        1 => (0..4usize).prop_map(Op::TrimIdle),
        1 => (0..4usize).prop_map(Op::PrewarmStep),
    ]
}

struct Model {
    initial: usize,
    max: usize,
    policy: PolicyKind,
    /// Live objects in acquisition order, with their handles.
    live: Vec<(Handle, Obj)>,
    /// Idle objects; the top of the stack is the end.
    idle: Vec<Obj>,
    next_serial: u32,
    destroyed: Vec<u32>,
    stats: PoolStats,
    /// Every handle that has become stale.
    stale: Vec<Handle>,
}

impl Model {
    fn total(&self) -> usize {
        self.live.len() + self.idle.len()
    }

    fn create(&mut self) -> Obj {
        let obj = Obj {
            serial: self.next_serial,
            value: 0,
            uses: 0,
        };
        self.next_serial += 1;
        self.stats.creates += 1;
        self.stats.peak_total = self.stats.peak_total.max(self.total() + 1);
        obj
    }

    fn push_live(&mut self, handle: Handle, mut obj: Obj) {
        obj.uses += 1;
        self.live.push((handle, obj));
        self.stats.acquires += 1;
        self.stats.peak_live = self.stats.peak_live.max(self.live.len());
    }

    /// Removes live object `i`, resets it and pushes it on the idle stack.
    fn make_idle(&mut self, i: usize) -> Handle {
        let (handle, mut obj) = self.live.remove(i);
        obj.value = 0;
        self.idle.push(obj);
        self.stale.push(handle);
        handle
    }

    fn destroy(&mut self, obj: Obj) {
        self.destroyed.push(obj.serial);
        self.stats.destroys += 1;
    }

    fn victim(&self) -> Option<usize> {
        match self.policy {
            PolicyKind::Strict => None,
            PolicyKind::Oldest => Some(0),
            PolicyKind::Lowest => {
                let lowest = self.live.iter().map(|(_, o)| o.value).min()?;
                self.live.iter().position(|(_, o)| o.value == lowest)
            }
        }
    }

    fn prewarm_step(&mut self, budget: usize) -> usize {
        let mut created = 0;
        while created < budget && self.total() < self.initial {
            let obj = self.create();
            self.idle.push(obj);
            created += 1;
        }
        self.initial.saturating_sub(self.total())
    }

    /// Every handle the test knows: live ones first, then stale ones.
    fn known(&self, i: usize) -> Option<Handle> {
        let n = self.live.len() + self.stale.len();
        if n == 0 {
            return None;
        }
        let i = i % n;
        Some(if i < self.live.len() {
            self.live[i].0
        } else {
            self.stale[i - self.live.len()]
        })
    }

    fn live_position(&self, handle: Handle) -> Option<usize> {
        self.live.iter().position(|(h, _)| *h == handle)
    }
}

fn run<P: ExhaustionPolicy<Obj>>(
    policy: P,
    kind: PolicyKind,
    initial: usize,
    max: usize,
    lazy: bool,
    ops: &[Op],
) -> Result<(), TestCaseError> {
    let serial = Arc::new(AtomicU32::new(0));
    let destroyed = Arc::new(Mutex::new(Vec::new()));
    let (factory_serial, destroy_log) = (serial.clone(), destroyed.clone());
    let builder = Pool::builder(move || Obj {
        serial: factory_serial.fetch_add(1, Ordering::Relaxed),
        value: 0,
        uses: 0,
    })
    .initial(initial)
    .max_objects(max)
    .policy(policy)
    .on_acquire(|o| o.uses += 1)
    .on_release(|o| o.value = 0)
    .on_destroy(move |o| destroy_log.lock().unwrap().push(o.serial));
    let mut pool = if lazy {
        builder.build_lazy()
    } else {
        builder.build()
    }
    .unwrap();

    let mut model = Model {
        initial,
        max,
        policy: kind,
        live: Vec::new(),
        idle: Vec::new(),
        next_serial: 0,
        destroyed: Vec::new(),
        stats: PoolStats::default(),
        stale: Vec::new(),
    };
    if !lazy {
        model.prewarm_step(usize::MAX);
    }

    for op in ops {
        match *op {
            Op::Acquire => {
                let got = pool.try_acquire_detailed();
                if let Some(obj) = model.idle.pop() {
                    let acquired = got.unwrap();
                    prop_assert_eq!(acquired.recycled, None);
                    model.push_live(acquired.handle, obj);
                } else if model.total() < model.max {
                    let acquired = got.unwrap();
                    prop_assert_eq!(acquired.recycled, None);
                    let obj = model.create();
                    model.push_live(acquired.handle, obj);
                } else if let Some(victim) = model.victim() {
                    let acquired = got.unwrap();
                    let old = model.make_idle(victim);
                    prop_assert_eq!(acquired.recycled, Some(old));
                    let obj = model.idle.pop().unwrap();
                    model.stats.recycles += 1;
                    model.push_live(acquired.handle, obj);
                } else {
                    prop_assert_eq!(got, Err(AcquireError::Exhausted { max_objects: max }));
                    model.stats.refusals += 1;
                }
                // A new handle never equals one that went stale.
                if let Some((handle, _)) = model.live.last() {
                    prop_assert!(!model.stale.contains(handle));
                }
            }
            Op::Release(i) => {
                let Some(handle) = model.known(i) else {
                    continue;
                };
                let result = pool.release(handle);
                match model.live_position(handle) {
                    Some(at) => {
                        prop_assert_eq!(result, Ok(()));
                        model.make_idle(at);
                        model.stats.releases += 1;
                    }
                    None => {
                        prop_assert_eq!(result, Err(StaleHandle));
                        model.stats.stale_handle_uses += 1;
                    }
                }
            }
            Op::Renew(i) => {
                let Some(handle) = model.known(i) else {
                    continue;
                };
                let result = pool.renew(handle);
                match model.live_position(handle) {
                    Some(at) => {
                        let renewed = result.unwrap();
                        model.make_idle(at);
                        model.stats.releases += 1;
                        let obj = model.idle.pop().unwrap();
                        model.push_live(renewed, obj);
                        prop_assert!(!model.stale.contains(&renewed));
                    }
                    None => {
                        prop_assert_eq!(result, Err(StaleHandle));
                        model.stats.stale_handle_uses += 1;
                    }
                }
            }
            Op::Write(i, value) => {
                let Some(handle) = model.known(i) else {
                    continue;
                };
                let got = pool.get_mut(handle);
                match model.live_position(handle) {
                    Some(at) => {
                        *got.unwrap() = Obj {
                            value,
                            ..model.live[at].1
                        };
                        model.live[at].1.value = value;
                    }
                    None => {
                        prop_assert!(got.is_none());
                        model.stats.stale_handle_uses += 1;
                    }
                }
            }
            Op::Get(i) => {
                let Some(handle) = model.known(i) else {
                    continue;
                };
                let expected = model.live_position(handle).map(|at| model.live[at].1);
                prop_assert_eq!(pool.get(handle).copied(), expected);
                prop_assert_eq!(pool.contains(handle), expected.is_some());
            }
            Op::Reclaim(m) => {
                let mut seen = Vec::new();
                let released = pool.reclaim(|handle, obj| {
                    seen.push(handle);
                    obj.value.is_multiple_of(m)
                });
                let order: Vec<Handle> = model.live.iter().map(|(h, _)| *h).collect();
                prop_assert_eq!(seen, order, "reclaim visits live objects oldest first");
                let mut expected = 0;
                let mut at = 0;
                while at < model.live.len() {
                    if model.live[at].1.value.is_multiple_of(m) {
                        model.make_idle(at);
                        model.stats.releases += 1;
                        expected += 1;
                    } else {
                        at += 1;
                    }
                }
                prop_assert_eq!(released, expected);
            }
            Op::ForEachAdd(add) => {
                pool.for_each_mut(|_, obj| obj.value += add);
                for (_, obj) in &mut model.live {
                    obj.value += add;
                }
            }
            Op::Reinitialize => {
                pool.reinitialize();
                while !model.live.is_empty() {
                    model.make_idle(0);
                    model.stats.releases += 1;
                }
                while model.total() > model.initial {
                    let obj = model.idle.pop().unwrap();
                    model.destroy(obj);
                }
                model.prewarm_step(usize::MAX);
                prop_assert_eq!(pool.stats().idle, initial);
            }
            Op::Clear(include_live) => {
                pool.clear(include_live);
                if include_live {
                    for (handle, obj) in std::mem::take(&mut model.live) {
                        model.stale.push(handle);
                        model.destroy(obj);
                    }
                }
                while let Some(obj) = model.idle.pop() {
                    model.destroy(obj);
                }
            }
            Op::TrimIdle(keep) => {
                let dropped = pool.trim_idle(keep);
                let mut expected = 0;
                while model.idle.len() > keep {
                    let obj = model.idle.pop().unwrap();
                    model.destroy(obj);
                    expected += 1;
                }
                prop_assert_eq!(dropped, expected);
            }
            Op::PrewarmStep(budget) => {
                let missing = pool.prewarm_step(budget);
                prop_assert_eq!(missing, model.prewarm_step(budget));
            }
        }
        check(&pool, &model, &destroyed)?;
    }
    Ok(())
}

fn check<P: ExhaustionPolicy<Obj>>(
    pool: &Pool<Obj, P>,
    model: &Model,
    destroyed: &Mutex<Vec<u32>>,
) -> Result<(), TestCaseError> {
    let stats = pool.stats();
    prop_assert_eq!(stats.live + stats.idle, stats.total);
    prop_assert!(stats.total <= model.max);
    prop_assert_eq!(stats.live, model.live.len());
    prop_assert_eq!(stats.idle, model.idle.len());
    prop_assert_eq!(
        stats,
        PoolStats {
            live: model.live.len(),
            idle: model.idle.len(),
            total: model.total(),
            ..model.stats
        }
    );
    // Live objects, in acquisition order, with their handles and contents.
    let actual: Vec<(Handle, Obj)> = pool.iter().map(|(h, o)| (h, *o)).collect();
    prop_assert_eq!(&actual, &model.live);
    prop_assert_eq!(pool.oldest(), model.live.first().map(|(h, _)| *h));
    prop_assert_eq!(pool.newest(), model.live.last().map(|(h, _)| *h));
    // The cursor walks the same order.
    for pair in model.live.windows(2) {
        prop_assert_eq!(pool.newer(pair[0].0), Some(pair[1].0));
    }
    if let Some((newest, _)) = model.live.last() {
        prop_assert_eq!(pool.newer(*newest), None);
    }
    for handle in &model.stale {
        prop_assert_eq!(pool.newer(*handle), None);
    }
    // No two live handles reach the same object.
    let mut serials: Vec<u32> = actual.iter().map(|(_, o)| o.serial).collect();
    serials.sort_unstable();
    serials.dedup();
    prop_assert_eq!(serials.len(), actual.len());
    // A handle once stale stays stale.
    for handle in &model.stale {
        prop_assert!(!pool.contains(*handle));
        prop_assert!(pool.get(*handle).is_none());
    }
    prop_assert_eq!(&*destroyed.lock().unwrap(), &model.destroyed);
    Ok(())
}

fn sizes() -> impl Strategy<Value = (usize, usize, bool)> {
    (1..7usize).prop_flat_map(|max| {
        prop_oneof![
            (0..=max).prop_map(move |initial| (initial, max, false)),
            Just((max, max, false)), // a fixed pool
            (0..=max).prop_map(move |initial| (initial, max, true)),
        ]
    })
}

proptest! {
    #[test]
    fn strict_pool_matches_model((initial, max, lazy) in sizes(), ops in prop::collection::vec(op(), 0..80)) {
        run(Strict, PolicyKind::Strict, initial, max, lazy, &ops)?;
    }

    #[test]
    fn recycle_oldest_pool_matches_model((initial, max, lazy) in sizes(), ops in prop::collection::vec(op(), 0..80)) {
        run(RecycleOldest, PolicyKind::Oldest, initial, max, lazy, &ops)?;
    }

    #[test]
    fn recycle_lowest_pool_matches_model((initial, max, lazy) in sizes(), ops in prop::collection::vec(op(), 0..80)) {
        run(RecycleLowest(|o: &Obj| o.value), PolicyKind::Lowest, initial, max, lazy, &ops)?;
    }

    #[test]
    fn policy_choice_pool_matches_model((initial, max, lazy) in sizes(), oldest in any::<bool>(), ops in prop::collection::vec(op(), 0..80)) {
        let (policy, kind) = if oldest {
            (PolicyChoice::RecycleOldest, PolicyKind::Oldest)
        } else {
            (PolicyChoice::Strict, PolicyKind::Strict)
        };
        run(policy, kind, initial, max, lazy, &ops)?;
    }
}

// ---- keyed pools ----------------------------------------------------------------

#[derive(Debug, Clone)]
enum KeyedOp {
    Acquire(usize),
    Release(usize),
    Reclaim(usize),
    ClearKind(usize),
}

fn keyed_op() -> impl Strategy<Value = KeyedOp> {
    prop_oneof![
        4 => any::<usize>().prop_map(KeyedOp::Acquire),
        3 => any::<usize>().prop_map(KeyedOp::Release),
        1 => any::<usize>().prop_map(KeyedOp::Reclaim),
        1 => any::<usize>().prop_map(KeyedOp::ClearKind),
    ]
}

proptest! {
    /// Kinds are independent pools: per-kind live handles, caps and policies match a
    /// model of one `Vec` per kind, and no handle crosses kinds.
    #[test]
    fn keyed_pool_matches_model(
        kinds in prop::collection::vec((1..5usize, any::<bool>()), 1..4),
        ops in prop::collection::vec(keyed_op(), 0..80),
    ) {
        let mut pools: KeyedPool<u32> = KeyedPool::new();
        let mut ids = Vec::new();
        for (i, (max, oldest)) in kinds.iter().enumerate() {
            let policy = if *oldest { PolicyChoice::RecycleOldest } else { PolicyChoice::Strict };
            let id = pools
                .register(&format!("kind{i}"), Pool::builder(move || i as u32).max_objects(*max).policy(policy))
                .unwrap();
            prop_assert_eq!(pools.kind(&format!("kind{i}")), Some(id));
            ids.push(id);
        }
        let mut live: Vec<Vec<pool_core::KindHandle>> = vec![Vec::new(); kinds.len()];
        let mut stale = Vec::new();
        for op in ops {
            match op {
                KeyedOp::Acquire(k) => {
                    let k = k % kinds.len();
                    let (max, oldest) = kinds[k];
                    let got = pools.try_acquire(ids[k]);
                    if live[k].len() < max {
                        live[k].push(got.unwrap());
                    } else if oldest {
                        stale.push(live[k].remove(0));
                        live[k].push(got.unwrap());
                    } else {
                        prop_assert!(got.is_err());
                    }
                }
                KeyedOp::Release(i) => {
                    let all: Vec<_> = live.iter().flatten().chain(stale.iter()).copied().collect();
                    if all.is_empty() { continue; }
                    let handle = all[i % all.len()];
                    let k = handle.kind().index();
                    match live[k].iter().position(|h| *h == handle) {
                        Some(at) => {
                            prop_assert!(pools.release(handle).is_ok());
                            stale.push(live[k].remove(at));
                        }
                        None => prop_assert!(pools.release(handle).is_err()),
                    }
                }
                KeyedOp::Reclaim(k) => {
                    let target = ids[k % kinds.len()];
                    let released = pools.reclaim(|kind, _, object| {
                        assert_eq!(*object as usize, kind.index(), "an object of another kind");
                        kind == target
                    });
                    prop_assert_eq!(released, live[target.index()].len());
                    stale.append(&mut live[target.index()]);
                }
                KeyedOp::ClearKind(k) => {
                    let k = k % kinds.len();
                    pools.pool_mut(ids[k]).unwrap().clear(true);
                    stale.append(&mut live[k]);
                }
            }
            for (k, handles) in live.iter().enumerate() {
                prop_assert_eq!(pools.stats(ids[k]).unwrap().live, handles.len());
                for handle in handles {
                    prop_assert_eq!(handle.kind(), ids[k]);
                    prop_assert_eq!(pools.get(*handle), Some(&(k as u32)));
                }
            }
            for handle in &stale {
                prop_assert!(!pools.contains(*handle));
            }
        }
    }
}

//! Model-based test: random operation sequences applied to a real pool and to a
//! trivially correct model (plain `Vec`s in acquisition order, an idle stack),
//! compared after every step. The slotmap crate's own test is the template.
//!
//! Any operation may run with one piece of user code set to panic (the factory, a
//! hook, the policy); the panic is caught as a game engine would catch it, and the
//! pool must then agree with the model's account of what that panic does (see
//! "Panics in user code" in the crate docs).
//!
//! `PROPTEST_CASES=10000 cargo test -p pool-core --test model` for a longer run.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, Once};

use pool_core::{
    AcquireError, ExhaustionPolicy, Handle, Key, KeyedPool, LiveObjects, PolicyChoice, Pool,
    PoolStats, RecycleLowest, RecycleOldest, StaleHandle, Strict,
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

/// The user code that can be set to panic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hook {
    Factory,
    Acquire,
    Release,
    Destroy,
    Policy,
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
    /// `iter_mut` adding to every live object.
    IterMutAdd(u32),
    /// `get_disjoint_mut` of two known handles, swapping their values.
    SwapDisjoint(usize, usize),
    Reinitialize,
    Clear(bool),
    TrimIdle(usize),
    PrewarmStep(usize),
    /// The operation, with `Hook` panicking the next time it runs.
    Panicking(Hook, Box<Op>),
}

fn plain_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => Just(Op::Acquire),
        4 => any::<usize>().prop_map(Op::Release),
        2 => any::<usize>().prop_map(Op::Renew),
        3 => (any::<usize>(), 0..10u32).prop_map(|(i, v)| Op::Write(i, v)),
        2 => any::<usize>().prop_map(Op::Get),
        2 => (2..5u32).prop_map(Op::Reclaim),
        1 => (0..3u32).prop_map(Op::ForEachAdd),
        1 => (0..3u32).prop_map(Op::IterMutAdd),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Op::SwapDisjoint(i, j)),
        1 => Just(Op::Reinitialize),
        1 => any::<bool>().prop_map(Op::Clear),
        1 => (0..4usize).prop_map(Op::TrimIdle),
        1 => (0..4usize).prop_map(Op::PrewarmStep),
    ]
}

fn hook() -> impl Strategy<Value = Hook> {
    prop::sample::select(vec![
        Hook::Factory,
        Hook::Acquire,
        Hook::Release,
        Hook::Destroy,
        Hook::Policy,
    ])
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => plain_op(),
        2 => (hook(), plain_op()).prop_map(|(hook, op)| Op::Panicking(hook, Box::new(op))),
    ]
}

/// Which hook panics next, shared by the pool's closures and the test.
#[derive(Clone, Default)]
struct Plan(Arc<Mutex<Option<Hook>>>);

/// The payload of every planned panic; anything else is a real failure.
const PLANNED: &str = "planned panic in user code";

impl Plan {
    /// Panics if `hook` is the planned one (once).
    fn check(&self, hook: Hook) {
        if self.0.lock().unwrap().take_if(|h| *h == hook).is_some() {
            std::panic::panic_any(PLANNED);
        }
    }

    fn arm(&self, hook: Option<Hook>) {
        *self.0.lock().unwrap() = hook;
    }
}

/// Planned panics print nothing; every other panic is reported as usual.
fn quiet_planned_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if info.payload().downcast_ref::<&str>() != Some(&PLANNED) {
                default(info);
            }
        }));
    });
}

/// Runs `f`, catching a planned panic: `None` if it panicked.
fn attempt<R>(f: impl FnOnce() -> R) -> Option<R> {
    catch_unwind(AssertUnwindSafe(f)).ok()
}

/// Any policy, behind a check that can make it panic.
struct Panicky<P> {
    inner: P,
    plan: Plan,
}

impl<P: ExhaustionPolicy<Obj>> ExhaustionPolicy<Obj> for Panicky<P> {
    const KEEPS_ORDER: bool = P::KEEPS_ORDER;

    fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, Obj, K>) -> Option<K> {
        self.plan.check(Hook::Policy);
        self.inner.choose_victim(live)
    }
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
    /// The hook that panics next, if any.
    armed: Option<Hook>,
}

impl Model {
    fn total(&self) -> usize {
        self.live.len() + self.idle.len()
    }

    /// `true` if `hook` runs now and is the one set to panic (once).
    fn fires(&mut self, hook: Hook) -> bool {
        self.armed.take_if(|h| *h == hook).is_some()
    }

    /// A new object, or `None` if the factory panicked (nothing changes then).
    fn create(&mut self) -> Option<Obj> {
        if self.fires(Hook::Factory) {
            return None;
        }
        let obj = Obj {
            serial: self.next_serial,
            value: 0,
            uses: 0,
        };
        self.next_serial += 1;
        self.stats.creates += 1;
        self.stats.peak_total = self.stats.peak_total.max(self.total() + 1);
        Some(obj)
    }

    /// Makes `obj` live under `handle`; `false` if its acquire hook panicked: the
    /// acquire never happened and the object is back on top of the idle stack.
    fn activate(&mut self, handle: Option<Handle>, mut obj: Obj) -> bool {
        if self.fires(Hook::Acquire) {
            self.idle.push(obj);
            return false;
        }
        obj.uses += 1;
        self.live
            .push((handle.expect("the pool returned a handle"), obj));
        self.stats.acquires += 1;
        self.stats.peak_live = self.stats.peak_live.max(self.live.len());
        true
    }

    /// Ends live object `i`: resets it and pushes it on the idle stack, or, if its
    /// release hook panics, destroys it (counted, but not through the destroy
    /// hook). Returns `false` on the panic.
    fn end_live(&mut self, i: usize) -> bool {
        let (handle, mut obj) = self.live.remove(i);
        self.stale.push(handle);
        if self.fires(Hook::Release) {
            self.stats.destroys += 1;
            return false;
        }
        obj.value = 0;
        self.idle.push(obj);
        true
    }

    /// Destroys `obj`; `false` if the destroy hook panicked (the object is counted
    /// as destroyed all the same, but the hook never saw it).
    fn destroy(&mut self, obj: Obj) -> bool {
        self.stats.destroys += 1;
        if self.fires(Hook::Destroy) {
            return false;
        }
        self.destroyed.push(obj.serial);
        true
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

    /// Returns what the pool returns, or `None` if the factory panicked.
    fn prewarm_step(&mut self, budget: usize) -> Option<usize> {
        let mut created = 0;
        while created < budget && self.total() < self.initial {
            let obj = self.create()?;
            self.idle.push(obj);
            created += 1;
        }
        Some(self.initial.saturating_sub(self.total()))
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
    quiet_planned_panics();
    let plan = Plan::default();
    let serial = Arc::new(AtomicU32::new(0));
    let destroyed = Arc::new(Mutex::new(Vec::new()));
    let (factory_serial, destroy_log) = (serial.clone(), destroyed.clone());
    let (factory_plan, acquire_plan, release_plan, destroy_plan) =
        (plan.clone(), plan.clone(), plan.clone(), plan.clone());
    let builder = Pool::builder(move || {
        factory_plan.check(Hook::Factory);
        Obj {
            serial: factory_serial.fetch_add(1, Ordering::Relaxed),
            value: 0,
            uses: 0,
        }
    })
    .initial(initial)
    .max_objects(max)
    .policy(Panicky {
        inner: policy,
        plan: plan.clone(),
    })
    .on_acquire(move |o| {
        acquire_plan.check(Hook::Acquire);
        o.uses += 1;
    })
    .on_release(move |o| {
        release_plan.check(Hook::Release);
        o.value = 0;
    })
    .on_destroy(move |o| {
        destroy_plan.check(Hook::Destroy);
        destroy_log.lock().unwrap().push(o.serial);
    });
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
        armed: None,
    };
    if !lazy {
        model.prewarm_step(usize::MAX);
    }

    for op in ops {
        let (hook, op) = match op {
            Op::Panicking(hook, op) => (Some(*hook), &**op),
            op => (None, op),
        };
        plan.arm(hook);
        model.armed = hook;
        let panicked = apply(&mut pool, &mut model, op)?;
        // The pool panicked exactly when the model says the planned hook ran.
        let fired = hook.is_some() && model.armed.is_none();
        prop_assert_eq!(panicked, fired, "{:?} with {:?} panicking", op, hook);
        plan.arm(None);
        model.armed = None;
        check(&pool, &model, &destroyed)?;
    }
    Ok(())
}

/// Applies `op` to the pool (catching a planned panic) and to the model; returns
/// whether the pool panicked.
fn apply<P: ExhaustionPolicy<Obj>>(
    pool: &mut Pool<Obj, P>,
    model: &mut Model,
    op: &Op,
) -> Result<bool, TestCaseError> {
    let max = model.max;
    // A pool that keeps no order walks its live objects by slot (reclaim,
    // reinitialize, clear): so does the model. Such a pool never recycles, so
    // acquisition order is never asked for.
    if !P::KEEPS_ORDER {
        model.live = in_pool_order::<P>(&model.live);
    }
    let panicked = match *op {
        Op::Acquire => {
            let got = attempt(|| pool.try_acquire_detailed());
            let handle = got.as_ref().and_then(|r| r.as_ref().ok()).map(|a| a.handle);
            let recycled = got
                .as_ref()
                .and_then(|r| r.as_ref().ok())
                .map(|a| a.recycled);
            if let Some(obj) = model.idle.pop() {
                if model.activate(handle, obj) {
                    prop_assert_eq!(recycled, Some(None));
                }
            } else if model.total() < model.max {
                if let Some(obj) = model.create()
                    && model.activate(handle, obj)
                {
                    prop_assert_eq!(recycled, Some(None));
                }
            } else if model.fires(Hook::Policy) {
                // The policy panicked: nothing changed.
            } else if let Some(victim) = model.victim() {
                let old = model.live[victim].0;
                if model.end_live(victim) {
                    model.stats.recycles += 1;
                    let obj = model.idle.pop().unwrap();
                    if model.activate(handle, obj) {
                        prop_assert_eq!(recycled, Some(Some(old)));
                    }
                }
            } else {
                prop_assert_eq!(
                    got.map(|r| r.map(|a| a.handle)),
                    Some(Err(AcquireError::Exhausted { max_objects: max }))
                );
                model.stats.refusals += 1;
            }
            // A new handle never equals one that went stale.
            if let Some(handle) = handle {
                prop_assert!(!model.stale.contains(&handle));
            }
            got.is_none()
        }
        Op::Release(i) => {
            let Some(handle) = model.known(i) else {
                return Ok(false);
            };
            let result = attempt(|| pool.release(handle));
            match model.live_position(handle) {
                Some(at) => {
                    if model.end_live(at) {
                        prop_assert_eq!(result, Some(Ok(())));
                        model.stats.releases += 1;
                    }
                }
                None => {
                    prop_assert_eq!(result, Some(Err(StaleHandle)));
                    model.stats.stale_handle_uses += 1;
                }
            }
            result.is_none()
        }
        Op::Renew(i) => {
            let Some(handle) = model.known(i) else {
                return Ok(false);
            };
            let result = attempt(|| pool.renew(handle));
            match model.live_position(handle) {
                Some(at) => {
                    if model.end_live(at) {
                        model.stats.releases += 1;
                        let obj = model.idle.pop().unwrap();
                        let renewed = result.and_then(Result::ok);
                        if model.activate(renewed, obj) {
                            prop_assert!(
                                !model.stale[..model.stale.len() - 1].contains(&renewed.unwrap())
                            );
                        }
                    }
                }
                None => {
                    prop_assert_eq!(result, Some(Err(StaleHandle)));
                    model.stats.stale_handle_uses += 1;
                }
            }
            result.is_none()
        }
        Op::Write(i, value) => {
            let Some(handle) = model.known(i) else {
                return Ok(false);
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
            false
        }
        Op::Get(i) => {
            let Some(handle) = model.known(i) else {
                return Ok(false);
            };
            let expected = model.live_position(handle).map(|at| model.live[at].1);
            prop_assert_eq!(pool.get(handle).copied(), expected);
            prop_assert_eq!(pool.contains(handle), expected.is_some());
            false
        }
        Op::Reclaim(m) => {
            let mut seen = Vec::new();
            let released = attempt(|| {
                pool.reclaim(|handle, obj| {
                    seen.push(handle);
                    obj.value.is_multiple_of(m)
                })
            });
            let order: Vec<Handle> = in_pool_order::<P>(&model.live)
                .iter()
                .map(|(h, _)| *h)
                .collect();
            prop_assert!(
                order.starts_with(&seen),
                "reclaim visits live objects in the pool's order"
            );
            let mut expected = 0;
            for handle in &order {
                let Some(at) = model.live_position(*handle) else {
                    continue;
                };
                if model.live[at].1.value.is_multiple_of(m) {
                    if !model.end_live(at) {
                        break;
                    }
                    model.stats.releases += 1;
                    expected += 1;
                }
            }
            if let Some(released) = released {
                prop_assert_eq!(seen, order);
                prop_assert_eq!(released, expected);
            }
            released.is_none()
        }
        Op::ForEachAdd(add) => {
            pool.for_each_mut(|_, obj| obj.value += add);
            for (_, obj) in &mut model.live {
                obj.value += add;
            }
            false
        }
        Op::IterMutAdd(add) => {
            let iter = pool.iter_mut();
            prop_assert_eq!(iter.len(), model.live.len());
            let mut visited: Vec<Handle> = iter
                .map(|(handle, obj)| {
                    obj.value += add;
                    handle
                })
                .collect();
            let mut expected: Vec<Handle> = model.live.iter().map(|(h, _)| *h).collect();
            visited.sort();
            expected.sort();
            prop_assert_eq!(
                visited,
                expected,
                "iter_mut visits exactly the live objects"
            );
            for (_, obj) in &mut model.live {
                obj.value += add;
            }
            false
        }
        Op::SwapDisjoint(i, j) => {
            let (Some(a), Some(b)) = (model.known(i), model.known(j)) else {
                return Ok(false);
            };
            let result = pool.get_disjoint_mut([a, b]).map(|[x, y]| {
                core::mem::swap(&mut x.value, &mut y.value);
            });
            match (model.live_position(a), model.live_position(b)) {
                (Some(x), Some(y)) if a != b => {
                    prop_assert!(result.is_some(), "two live, distinct handles");
                    let (vx, vy) = (model.live[x].1.value, model.live[y].1.value);
                    model.live[x].1.value = vy;
                    model.live[y].1.value = vx;
                }
                (Some(_), Some(_)) => prop_assert!(result.is_none(), "the same handle twice"),
                _ => {
                    prop_assert!(result.is_none(), "a stale handle");
                    model.stats.stale_handle_uses += 1;
                }
            }
            false
        }
        Op::Reinitialize => {
            let done = attempt(|| pool.reinitialize());
            'model: {
                while !model.live.is_empty() {
                    if !model.end_live(0) {
                        break 'model;
                    }
                    model.stats.releases += 1;
                }
                while model.total() > model.initial {
                    let obj = model.idle.pop().unwrap();
                    if !model.destroy(obj) {
                        break 'model;
                    }
                }
                model.prewarm_step(usize::MAX);
            }
            if done.is_some() {
                prop_assert_eq!(pool.stats().idle, model.initial);
            }
            done.is_none()
        }
        Op::Clear(include_live) => {
            let done = attempt(|| {
                if include_live {
                    pool.clear();
                } else {
                    pool.clear_idle();
                }
            });
            'model: {
                if include_live {
                    while !model.live.is_empty() {
                        let (handle, obj) = model.live.remove(0);
                        model.stale.push(handle);
                        if !model.destroy(obj) {
                            break 'model;
                        }
                    }
                }
                while let Some(obj) = model.idle.pop() {
                    if !model.destroy(obj) {
                        break 'model;
                    }
                }
            }
            done.is_none()
        }
        Op::TrimIdle(keep) => {
            let dropped = attempt(|| pool.trim_idle(keep));
            let mut expected = 0;
            while model.idle.len() > keep {
                let obj = model.idle.pop().unwrap();
                expected += 1;
                if !model.destroy(obj) {
                    break;
                }
            }
            if let Some(dropped) = dropped {
                prop_assert_eq!(dropped, expected);
            }
            dropped.is_none()
        }
        Op::PrewarmStep(budget) => {
            let missing = attempt(|| pool.prewarm_step(budget));
            let expected = model.prewarm_step(budget);
            if missing.is_some() {
                prop_assert_eq!(missing, expected);
            }
            missing.is_none()
        }
        Op::Panicking(..) => unreachable!("one panic planned at a time"),
    };
    Ok(panicked)
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
    let mut expected = model.stats;
    (expected.live, expected.idle, expected.total) =
        (model.live.len(), model.idle.len(), model.total());
    prop_assert_eq!(stats, expected);
    // Live objects, with their handles and contents, in the pool's order:
    // acquisition order, or slot order for a policy that keeps none.
    let actual: Vec<(Handle, Obj)> = pool.iter().map(|(h, o)| (h, *o)).collect();
    prop_assert_eq!(&actual, &in_pool_order::<P>(&model.live));
    if P::KEEPS_ORDER {
        prop_assert_eq!(pool.oldest(), model.live.first().map(|(h, _)| *h));
        prop_assert_eq!(pool.newest(), model.live.last().map(|(h, _)| *h));
        // The cursor walks the same order.
        for pair in model.live.windows(2) {
            prop_assert_eq!(pool.newer(pair[0].0), Some(pair[1].0));
        }
    } else {
        prop_assert_eq!((pool.oldest(), pool.newest()), (None, None));
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

/// The slot of a handle: what a pool that keeps no order iterates by.
fn slot(handle: Handle) -> u32 {
    handle.data().as_ffi() as u32
}

/// `live` (in acquisition order) in the order `P`'s pool iterates it.
fn in_pool_order<P: ExhaustionPolicy<Obj>>(live: &[(Handle, Obj)]) -> Vec<(Handle, Obj)> {
    let mut ordered = live.to_vec();
    if !P::KEEPS_ORDER {
        ordered.sort_by_key(|(handle, _)| slot(*handle));
    }
    ordered
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
    /// An id and a handle of a twin registry (same kinds, same state) used here.
    Foreign(usize),
}

fn keyed_op() -> impl Strategy<Value = KeyedOp> {
    prop_oneof![
        4 => any::<usize>().prop_map(KeyedOp::Acquire),
        3 => any::<usize>().prop_map(KeyedOp::Release),
        1 => any::<usize>().prop_map(KeyedOp::Reclaim),
        1 => any::<usize>().prop_map(KeyedOp::ClearKind),
        1 => any::<usize>().prop_map(KeyedOp::Foreign),
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
        let mut twin: KeyedPool<u32> = KeyedPool::new();
        let mut ids = Vec::new();
        for (i, (max, oldest)) in kinds.iter().enumerate() {
            let policy = if *oldest { PolicyChoice::RecycleOldest } else { PolicyChoice::Strict };
            let id = pools
                .add_kind(&format!("kind{i}"), Pool::builder(move || i as u32).max_objects(*max).policy(policy))
                .unwrap();
            prop_assert_eq!(pools.kind(&format!("kind{i}")), Some(id));
            twin.add_kind(&format!("kind{i}"), Pool::builder(move || 100 + i as u32).max_objects(*max)).unwrap();
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
                    pools.pool_mut(ids[k]).unwrap().clear();
                    stale.append(&mut live[k]);
                }
                KeyedOp::Foreign(k) => {
                    let k = k % kinds.len();
                    let foreign_kind = twin.kind(&format!("kind{k}")).unwrap();
                    prop_assert_eq!(foreign_kind.index(), ids[k].index());
                    prop_assert_eq!(pools.try_acquire(foreign_kind), Err(pool_core::KeyedError::UnknownKind(foreign_kind)));
                    if let Ok(foreign) = twin.try_acquire(foreign_kind) {
                        prop_assert_eq!(pools.get(foreign), None);
                        prop_assert_eq!(pools.release(foreign), Err(StaleHandle));
                        twin.release(foreign).unwrap();
                    }
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

//! Model-based test of pool-core's pools: random operation sequences applied to a
//! real pool and to the reference model of the property-test kit
//! (`pool_core::testing`, the one model of what a pool does), compared after every
//! step. The slotmap crate's own test is the template.
//!
//! Every object is numbered by the factory and records what the hooks did to it,
//! and the kit checks each object's contents (`check_contents`): so every handout,
//! recycle, write and destruction is checked to reach the object the model
//! expects. One step in five runs with one piece of user code (the factory, a
//! hook, the policy) set to panic (`inject_panics`); the panic is caught as a game
//! engine would catch it, and the pool must then agree with the model's account of
//! what that panic does (see "Panics in user code" in the crate docs).
//!
//! The keyed pool has its own small model below.
//!
//! `PROPTEST_CASES=10000 cargo test -p pool-core --features testing --test pool model::`
//! for a longer run.

use std::sync::atomic::{AtomicU32, Ordering};

use pool_core::testing::{Case, Op, Pick, PoolTest, Step, UserCode, oldest, refuses};
use pool_core::{
    Handle, KeyedPool, PolicyChoice, Pool, RecycleLowest, RecycleOldest, StaleHandle, Strict,
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

/// Operations per case: under Miri (`scripts/miri.sh`, in CI), which runs
/// about a thousand times slower, a short sequence that still fills, recycles,
/// releases and panics in small pools.
const OPERATIONS: usize = if cfg!(miri) { 16 } else { 80 };

/// Objects numbered across every case; a number is never reused.
static SERIAL: AtomicU32 = AtomicU32::new(0);

/// The pool test: objects that record their hooks, contents checked, panics
/// injected, pools of 1 to 6 objects and up to 80 operations.
fn objects() -> PoolTest<Obj> {
    PoolTest::new(|| Obj {
        serial: SERIAL.fetch_add(1, Ordering::Relaxed),
        value: 0,
        uses: 0,
    })
    .on_acquire(|o| o.uses += 1)
    .on_release(|o| o.value = 0)
    .on_destroy(drop)
    .mutate(|o, value| o.value = value)
    .max_objects(1..=6)
    .operations(OPERATIONS)
    .check_contents()
    .inject_panics()
}

/// The rule of `RecycleLowest` by value: the first live object (oldest first)
/// with the lowest value.
fn lowest_value(live: &[(Handle, &Obj)], victim: Option<Handle>) -> Result<(), String> {
    let lowest = live.iter().min_by_key(|(_, o)| o.value).map(|(h, _)| *h);
    if victim == lowest {
        Ok(())
    } else {
        Err(format!(
            "chose {victim:?}, the first lowest value is {lowest:?}"
        ))
    }
}

#[test]
fn strict_pool_matches_model() {
    objects().expect_victim(refuses()).run(|| Strict);
}

#[test]
fn recycle_oldest_pool_matches_model() {
    objects().expect_victim(oldest()).run(|| RecycleOldest);
}

#[test]
fn recycle_lowest_pool_matches_model() {
    objects()
        .expect_victim(lowest_value)
        .run(|| RecycleLowest(|o: &Obj| o.value));
}

#[test]
fn policy_choice_pool_matches_model() {
    objects()
        .expect_victim(oldest())
        .run(|| PolicyChoice::RecycleOldest);
    objects()
        .expect_victim(refuses())
        .run(|| PolicyChoice::Strict);
}

/// Pools without hooks take the pool's shortest paths (no hook to call): the
/// same model, with the factory alone numbering the objects.
#[test]
fn pools_without_hooks_match_model() {
    let bare = || {
        PoolTest::new(|| Obj {
            serial: SERIAL.fetch_add(1, Ordering::Relaxed),
            value: 0,
            uses: 0,
        })
        .mutate(|o, value| o.value = value)
        .operations(OPERATIONS)
        .check_contents()
        .inject_panics()
    };
    bare().expect_victim(refuses()).run(|| Strict);
    bare().expect_victim(oldest()).run(|| RecycleOldest);
}

fn live(index: usize) -> Pick {
    Pick {
        index,
        stale: false,
    }
}

fn panicking(op: Op, code: UserCode) -> Step {
    Step {
        op,
        panicking: Some(code),
    }
}

/// Cases proptest once shrank a failure to, kept as they were found.
#[test]
fn cases_that_once_failed() {
    let cases = [
        // A strict pool of one: acquire, release.
        Case::new(
            0,
            1,
            false,
            vec![Op::Acquire.into(), Op::Release(live(0)).into()],
        ),
        // A strict pool of two, asked for a third object.
        Case::new(0, 2, false, vec![Op::Acquire.into(); 3]),
        // A full pool recycles while its release hook panics.
        Case::new(
            0,
            1,
            false,
            vec![
                Op::Acquire.into(),
                panicking(Op::Acquire, UserCode::ReleaseHook),
            ],
        ),
        // A renewed object whose acquire hook panics goes back to the idle stack.
        Case::new(
            1,
            2,
            false,
            vec![
                Op::Acquire.into(),
                panicking(Op::Renew(live(0)), UserCode::AcquireHook),
            ],
        ),
    ];
    for case in &cases {
        objects()
            .expect_victim(oldest())
            .check_case(RecycleOldest, case)
            .unwrap_or_else(|failure| panic!("{failure}"));
        objects()
            .expect_victim(refuses())
            .check_case(Strict, case)
            .unwrap_or_else(|failure| panic!("{failure}"));
    }
}

/// What every object shares behind the pool's back (see the next test).
static HIDDEN: AtomicU32 = AtomicU32::new(0);

/// Reads as the shared number: writing to one object changes how every other
/// reads, without the pool knowing.
struct Hidden;

impl std::fmt::Debug for Hidden {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", HIDDEN.load(Ordering::Relaxed))
    }
}

/// The contents check has teeth: objects that change without the pool doing
/// it (here, all of them when one is written) are reported by handle, with
/// what the model expected.
#[test]
fn contents_that_change_behind_the_pools_back_are_caught() {
    #[derive(Debug)]
    #[allow(dead_code)] // read through `Debug`
    struct Shared(u32, Hidden);
    let failure = PoolTest::new(|| Shared(SERIAL.fetch_add(1, Ordering::Relaxed), Hidden))
        .mutate(|_, value| HIDDEN.store(value, Ordering::Relaxed))
        .check_contents()
        .check(|| Strict)
        .expect_err("a write changed the other objects");
    // Found after a step (`#2 holds Shared(..), expected Shared(..)`) or while
    // writing (`the write to #2 reached Shared(..), expected Shared(..)`).
    assert!(failure.reason.contains(", expected Shared("), "{failure}");
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

/// Objects alive now: made by the factory, not yet dropped (`Tracked` only).
static ALIVE: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(0);
/// Set if an object was ever dropped twice.
static DROPPED_TWICE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// An object that owns heap memory and counts itself in and out, so a pool that
/// forgets an object or drops one twice shows in `ALIVE` (and, under Miri, as a
/// leak or a double free).
#[derive(Debug)]
struct Tracked {
    value: Box<u32>,
    dropped: bool,
}

impl Tracked {
    fn new() -> Self {
        ALIVE.fetch_add(1, Ordering::SeqCst);
        Self {
            value: Box::new(0),
            dropped: false,
        }
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        if std::mem::replace(&mut self.dropped, true) {
            DROPPED_TWICE.store(true, Ordering::SeqCst);
        }
        ALIVE.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The pool stores its objects without an `Option` around them (`slot.rs`):
/// every object the factory made is dropped exactly once, whatever the
/// operations, the policy, the hooks and the panics in them, when the pool is
/// dropped at the end of each case. The only test using `Tracked`, so `ALIVE`
/// is its own.
#[test]
fn every_object_made_is_dropped_exactly_once() {
    let tracked = |hooks: bool| {
        let test = PoolTest::new(Tracked::new)
            .mutate(|o, value| *o.value = value)
            .operations(OPERATIONS)
            .inject_panics();
        if hooks {
            test.on_acquire(|o| *o.value += 1)
                .on_release(|o| *o.value = 0)
                .on_destroy(drop)
        } else {
            test
        }
    };
    for hooks in [false, true] {
        // The two storage paths (a pool that keeps no order, one that does).
        tracked(hooks).run(|| Strict);
        tracked(hooks).run(|| RecycleOldest);
        if cfg!(miri) {
            continue; // the rest take those paths too, and Miri is slow
        }
        tracked(hooks).run(|| RecycleLowest(|o: &Tracked| *o.value));
        tracked(hooks).run(|| PolicyChoice::RecycleOldest);
    }
    assert!(
        !DROPPED_TWICE.load(Ordering::SeqCst),
        "an object dropped twice"
    );
    assert_eq!(ALIVE.load(Ordering::SeqCst), 0, "objects never dropped");
}

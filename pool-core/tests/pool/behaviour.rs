//! Behaviour of the pool, one test per promise the docs make.

use std::sync::{Arc, Mutex};

use pool_core::{
    AcquireError, AddKindError, ExhaustionPolicy, Handle, Key, KeyedError, KeyedPool, KindHandle,
    LiveObjects, MAX_OBJECTS_LIMIT, PolicyChoice, Pool, RecycleLowest, RecycleOldest,
    SettingsError, StaleHandle, Strict, new_handle_type,
};

#[test]
fn recycles_the_oldest_live_object_when_full() {
    let mut pool = Pool::builder(|| 0u32)
        .max_objects(3)
        .policy(RecycleOldest)
        .build()
        .unwrap();
    let a = pool.acquire();
    let b = pool.acquire();
    let c = pool.acquire();
    pool.release(b).unwrap();
    let d = pool.acquire(); // reuses b's object, no recycle
    let e = pool.try_acquire_detailed().unwrap();
    assert_eq!(e.recycled, Some(a));
    let f = pool.try_acquire_detailed().unwrap();
    assert_eq!(f.recycled, Some(c), "c is now the oldest; d came later");
    assert!(pool.contains(d) && pool.contains(e.handle) && pool.contains(f.handle));
    assert_eq!(pool.stats().recycles, 2);
    assert_eq!(pool.stats().creates, 3);
}

#[test]
fn strict_refuses_exactly_when_max_objects_are_live() {
    let mut pool = Pool::builder(|| 0u8)
        .initial(1)
        .max_objects(3)
        .policy(Strict)
        .build()
        .unwrap();
    let handles: Vec<Handle> = (0..3).map(|_| pool.try_acquire().unwrap()).collect();
    assert_eq!(
        pool.try_acquire(),
        Err(AcquireError::Exhausted { max_objects: 3 })
    );
    assert_eq!(pool.stats().refusals, 1);
    pool.release(handles[1]).unwrap();
    assert!(pool.try_acquire().is_ok());
    assert!(pool.try_acquire().is_err());
    assert_eq!(pool.stats().refusals, 2);
}

#[test]
fn grows_one_object_at_a_time_up_to_max_objects() {
    let mut pool: Pool<u8> = Pool::new(0, 4, || 0).unwrap();
    assert_eq!(pool.stats().total, 0);
    for expected in 1..=4 {
        let _ = pool.acquire();
        assert_eq!(pool.stats().total, expected);
        assert_eq!(pool.stats().creates, expected as u64);
    }
    assert!(pool.try_acquire().is_err());
    assert_eq!(pool.stats().total, 4);
}

#[test]
fn a_fixed_pool_never_creates_after_construction() {
    let mut pool = Pool::builder(|| 0u8)
        .initial(8)
        .max_objects(8)
        .policy(RecycleOldest)
        .build()
        .unwrap();
    for _ in 0..100 {
        let handle = pool.acquire();
        if pool.stats().live > 5 {
            pool.release(handle).unwrap();
        }
    }
    assert_eq!(pool.stats().creates, 8);
    assert_eq!(pool.stats().peak_total, 8);
}

#[test]
fn a_released_object_is_handed_out_again_before_any_new_one() {
    let mut pool: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
    let first = pool.acquire();
    *pool.get_mut(first).unwrap() = 42;
    pool.release(first).unwrap();
    let again = pool.acquire();
    assert_ne!(again, first);
    assert_eq!(
        pool.get(again),
        Some(&42),
        "same object: no release hook resets it"
    );
    assert_eq!(pool.stats().creates, 1);
}

#[test]
fn double_release_is_an_error_and_does_not_duplicate_the_object() {
    let mut pool: Pool<u8> = Pool::new(0, 4, || 0).unwrap();
    let handle = pool.acquire();
    assert_eq!(pool.release(handle), Ok(()));
    assert_eq!(pool.release(handle), Err(StaleHandle));
    assert_eq!(pool.stats().idle, 1);
    assert_eq!(pool.stats().stale_handle_uses, 1);
    let a = pool.acquire();
    let b = pool.acquire();
    assert_eq!(
        pool.stats().creates,
        2,
        "the idle object was handed out once only"
    );
    assert_ne!(a, b);
}

#[test]
fn a_stale_handle_cannot_touch_the_object_of_its_new_owner() {
    let mut pool = Pool::builder(|| 0u32)
        .max_objects(1)
        .policy(RecycleOldest)
        .build()
        .unwrap();
    let old = pool.acquire();
    let new = pool.acquire(); // same object, recycled
    *pool.get_mut(new).unwrap() = 7;
    assert_eq!(pool.get_mut(old), None);
    assert_eq!(pool.release(old), Err(StaleHandle));
    assert_eq!(pool.get(new), Some(&7));
    assert_eq!(pool.stats().stale_handle_uses, 2);
}

#[test]
fn reinitialize_returns_to_initial_size_and_invalidates_every_handle() {
    let resets = Arc::new(Mutex::new(0));
    let counter = resets.clone();
    let mut pool = Pool::builder(|| 0u32)
        .initial(3)
        .max_objects(10)
        .on_release(move |_| *counter.lock().unwrap() += 1)
        .build()
        .unwrap();
    let handles: Vec<_> = (0..7).map(|_| pool.acquire()).collect();
    pool.reinitialize();
    assert_eq!(*resets.lock().unwrap(), 7, "every live object is reset");
    let stats = pool.stats();
    assert_eq!((stats.live, stats.idle, stats.total), (0, 3, 3));
    assert!(handles.iter().all(|h| !pool.contains(*h)));
    // From below the initial size it creates the shortfall.
    pool.clear();
    assert_eq!(pool.stats().total, 0);
    pool.reinitialize();
    assert_eq!(pool.stats().idle, 3);
}

#[test]
fn configuration_errors_are_returned_at_construction() {
    assert_eq!(
        Pool::new(0, 0, || 0u8).unwrap_err(),
        SettingsError::ZeroMaxObjects
    );
    assert_eq!(
        Pool::new(5, 4, || 0u8).unwrap_err(),
        SettingsError::InitialExceedsMax {
            initial: 5,
            max_objects: 4
        }
    );
    assert_eq!(
        Pool::new(0, MAX_OBJECTS_LIMIT + 1, || 0u8).unwrap_err(),
        SettingsError::MaxObjectsTooLarge {
            max_objects: MAX_OBJECTS_LIMIT + 1,
            limit: MAX_OBJECTS_LIMIT
        }
    );
    let message = SettingsError::InitialExceedsMax {
        initial: 5,
        max_objects: 4,
    }
    .to_string();
    assert!(message.contains('5') && message.contains('4'), "{message}");
}

struct ReturnsAStaleHandle(Option<Handle>);

impl ExhaustionPolicy<u32> for ReturnsAStaleHandle {
    fn choose_victim<K: Key>(&mut self, _: LiveObjects<'_, u32, K>) -> Option<K> {
        self.0.map(|h| K::from(h.data()))
    }
}

#[test]
fn a_policy_naming_a_non_live_victim_fails_without_recycling_anything() {
    let mut pool = Pool::builder(|| 0u32)
        .max_objects(2)
        .policy(ReturnsAStaleHandle(None))
        .build()
        .unwrap();
    let gone = pool.acquire();
    pool.release(gone).unwrap();
    let a = pool.acquire();
    let b = pool.acquire();
    pool.policy_mut().0 = Some(gone);
    assert_eq!(pool.try_acquire(), Err(AcquireError::InvalidVictim));
    assert!(pool.contains(a) && pool.contains(b));
    assert_eq!(pool.stats().recycles, 0);
}

#[test]
fn try_acquire_detailed_mut_lends_the_object_it_hands_out_and_names_the_one_recycled() {
    let mut pool = Pool::builder(|| 0u32)
        .max_objects(2)
        .policy(RecycleOldest)
        .on_acquire(|n| *n += 100)
        .on_release(|n| *n %= 100)
        .build()
        .unwrap();
    let (a, object) = pool.try_acquire_detailed_mut().unwrap();
    assert_eq!((a.recycled, *object), (None, 100), "after the acquire hook");
    *object = 101;
    let (b, object) = pool.try_acquire_detailed_mut().unwrap();
    assert_eq!((b.recycled, *object), (None, 100), "a new object");
    *object = 102;
    // Full: the oldest (a) is reset by the release hook and lent again.
    let (c, object) = pool.try_acquire_detailed_mut().unwrap();
    assert_eq!(c.recycled, Some(a.handle));
    assert_eq!(*object, 101, "a's object, through both hooks");
    *object = 7;
    assert_eq!(
        pool.get(c.handle),
        Some(&7),
        "the object lent is the one handed out"
    );
    assert_eq!((pool.get(a.handle), pool.get(b.handle)), (None, Some(&102)));

    let mut strict: Pool<u32> = Pool::new(0, 1, || 0).unwrap();
    let only = strict.acquire();
    assert_eq!(
        strict
            .try_acquire_detailed_mut()
            .map(|(acquired, _)| acquired),
        Err(AcquireError::Exhausted { max_objects: 1 })
    );
    assert!(strict.contains(only) && strict.stats().live == 1);
}

/// Says it keeps no order, then asks its view for the oldest object.
struct OldestOfNoOrder;

impl ExhaustionPolicy<u32> for OldestOfNoOrder {
    const KEEPS_ORDER: bool = false;

    fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, u32, K>) -> Option<K> {
        live.oldest()
    }
}

#[test]
#[cfg(debug_assertions)]
fn a_policy_that_keeps_no_order_and_asks_for_the_oldest_is_caught_in_debug_builds() {
    let mut pool = Pool::builder(|| 0u32)
        .max_objects(1)
        .policy(OldestOfNoOrder)
        .build()
        .unwrap();
    let only = pool.acquire();
    let asked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pool.try_acquire()));
    let message = asked.unwrap_err();
    let message = message.downcast_ref::<String>().map(String::as_str);
    assert!(
        message.is_some_and(|m| m.contains("KEEPS_ORDER is false")),
        "{message:?}"
    );
    // A panicking policy changes nothing.
    assert!(pool.contains(only) && pool.stats().recycles == 0);
}

#[test]
fn recycle_lowest_never_picks_an_incomparable_score() {
    let mut pool = Pool::builder(|| 1.0f32)
        .max_objects(3)
        .policy(RecycleLowest(|v: &f32| *v))
        .build()
        .unwrap();
    let nan = pool.acquire();
    *pool.get_mut(nan).unwrap() = f32::NAN;
    let half = pool.acquire();
    *pool.get_mut(half).unwrap() = 0.5;
    let one = pool.acquire();
    let acquired = pool.try_acquire_detailed().unwrap();
    assert_eq!(acquired.recycled, Some(half));
    assert!(pool.contains(nan) && pool.contains(one));
}

#[test]
fn recycle_lowest_refuses_when_no_score_compares() {
    let mut pool = Pool::builder(|| f32::NAN)
        .max_objects(2)
        .policy(RecycleLowest(|v: &f32| *v))
        .build()
        .unwrap();
    let _ = pool.acquire();
    let _ = pool.acquire();
    assert!(matches!(
        pool.try_acquire(),
        Err(AcquireError::Exhausted { .. })
    ));
}

#[test]
fn recycle_lowest_takes_the_oldest_among_equal_scores() {
    let mut pool = Pool::builder(|| 0u8)
        .max_objects(3)
        .policy(RecycleLowest(|v: &u8| *v))
        .build()
        .unwrap();
    let a = pool.acquire();
    let b = pool.acquire();
    let c = pool.acquire();
    *pool.get_mut(a).unwrap() = 5;
    assert_eq!(pool.try_acquire_detailed().unwrap().recycled, Some(b));
    assert!(pool.contains(c));
}

#[test]
fn the_release_hook_resets_a_recycled_object_before_its_new_user_sees_it() {
    let mut pool = Pool::builder(Vec::<u8>::new)
        .max_objects(1)
        .policy(RecycleOldest)
        .on_release(|buffer| buffer.clear())
        .build()
        .unwrap();
    let first = pool.acquire();
    pool.get_mut(first).unwrap().extend_from_slice(b"old data");
    let second = pool.acquire();
    let buffer = pool.get(second).unwrap();
    assert!(buffer.is_empty());
    assert!(
        buffer.capacity() >= 8,
        "the allocation is kept: that is the point of a pool"
    );
}

#[test]
fn the_destroy_hook_sees_every_object_including_when_the_pool_drops() {
    let destroyed = Arc::new(Mutex::new(Vec::new()));
    let log = destroyed.clone();
    let mut next = 0;
    let mut pool = Pool::builder(move || {
        next += 1;
        next
    })
    .initial(4)
    .max_objects(6)
    .on_destroy(move |object| log.lock().unwrap().push(object))
    .build()
    .unwrap();
    let live = pool.acquire();
    assert_eq!(pool.trim_idle(1), 2);
    assert_eq!(destroyed.lock().unwrap().len(), 2);
    assert!(pool.contains(live));
    drop(pool);
    let mut all = destroyed.lock().unwrap().clone();
    all.sort_unstable();
    assert_eq!(all, [1, 2, 3, 4]);
}

#[test]
fn clear_without_live_keeps_live_objects_working() {
    let mut pool: Pool<u32> = Pool::new(5, 8, || 0).unwrap();
    let kept = pool.acquire();
    pool.clear_idle();
    assert!(pool.contains(kept));
    pool.release(kept).unwrap();
    assert_eq!(pool.stats().idle, 1);
    assert_eq!(pool.stats().destroys, 4);
}

#[test]
#[should_panic(expected = "all 1 objects of the pool are live")]
fn acquire_panics_with_the_reason_when_a_strict_pool_is_full() {
    let mut pool: Pool<u8> = Pool::new(1, 1, || 0).unwrap();
    let _ = pool.acquire();
    let _ = pool.acquire();
}

#[test]
fn lazy_pools_prewarm_in_steps_and_still_grow_on_demand() {
    let mut pool = Pool::builder(|| 0u8)
        .initial(10)
        .max_objects(12)
        .build_lazy()
        .unwrap();
    assert_eq!(pool.stats().total, 0);
    let _ = pool.acquire(); // on demand before prewarm finished
    assert_eq!(pool.prewarm_step(3), 6);
    assert_eq!(pool.stats().creates, 4);
    assert_eq!(pool.prewarm_step(100), 0);
    assert_eq!(pool.stats().total, 10);
    assert_eq!(
        pool.prewarm_step(100),
        0,
        "prewarm never goes beyond the initial size"
    );
}

#[test]
fn the_null_handle_is_never_live() {
    let mut pool: Pool<u8> = Pool::new(2, 2, || 0).unwrap();
    let _ = pool.acquire();
    assert!(!pool.contains(Handle::null()));
    assert_eq!(pool.release(Handle::null()), Err(StaleHandle));
}

new_handle_type! {
    struct BulletHandle;
    struct EnemyHandle;
}

#[test]
fn each_pool_can_have_its_own_handle_type() {
    let mut bullets = Pool::builder(|| 0u8)
        .max_objects(4)
        .handle::<BulletHandle>()
        .build()
        .unwrap();
    let mut enemies = Pool::builder(|| 0u8)
        .max_objects(4)
        .handle::<EnemyHandle>()
        .build()
        .unwrap();
    let bullet: BulletHandle = bullets.acquire();
    let enemy: EnemyHandle = enemies.acquire();
    // `bullets.get(enemy)` does not compile: that is the point.
    assert!(bullets.contains(bullet) && enemies.contains(enemy));
}

#[test]
fn handles_key_a_slotmap_secondary_map_for_side_data() {
    let mut pool = Pool::builder(|| 0u8)
        .max_objects(4)
        .policy(RecycleOldest)
        .build()
        .unwrap();
    let mut names = slotmap::SecondaryMap::new();
    let a = pool.acquire();
    names.insert(a, "a");
    pool.release(a).unwrap();
    let b = pool.acquire(); // same slot, next generation
    assert_eq!(
        names.get(b),
        None,
        "side data of a stale handle does not leak to the new owner"
    );
    names.insert(b, "b");
    assert_eq!(names.get(b), Some(&"b"));
}

#[test]
fn a_pool_is_send_and_sync_when_its_objects_are() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Pool<Vec<u8>>>();
    assert_send_sync::<Pool<String, RecycleOldest, BulletHandle>>();
    assert_send_sync::<KeyedPool<u32>>();
    assert_send_sync::<Handle>();
}

#[test]
fn keyed_pools_resolve_names_once_and_reject_duplicates_and_unknown_kinds() {
    let mut pools: KeyedPool<u32> = KeyedPool::new();
    let a = pools
        .add_kind("a", Pool::builder(|| 1).initial(2).max_objects(2))
        .unwrap();
    assert!(matches!(
        pools.add_kind("a", Pool::builder(|| 1).max_objects(2)),
        Err(AddKindError::DuplicateName(name)) if name == "a"
    ));
    assert!(matches!(
        pools.add_kind("bad", Pool::builder(|| 1).max_objects(0)),
        Err(AddKindError::Settings(SettingsError::ZeroMaxObjects))
    ));
    assert_eq!(pools.len(), 1, "failed registrations leave nothing behind");
    assert_eq!(pools.kind("bad"), None);

    let mut bigger: KeyedPool<u32> = KeyedPool::new();
    bigger
        .add_kind("x", Pool::builder(|| 0).max_objects(1))
        .unwrap();
    let foreign = bigger
        .add_kind("y", Pool::builder(|| 0).max_objects(1))
        .unwrap();
    assert_eq!(
        pools.try_acquire(foreign),
        Err(KeyedError::UnknownKind(foreign))
    );

    let handle = pools.acquire(a);
    assert_eq!(pools.name(handle.kind()), Some("a"));
    assert_eq!(pools.get(handle), Some(&1));
}

#[test]
fn keyed_kinds_keep_their_own_policy() {
    let mut pools: KeyedPool<u32> = KeyedPool::new();
    let strict = pools
        .add_kind("strict", Pool::builder(|| 0).max_objects(1))
        .unwrap();
    let fifo = pools
        .add_kind(
            "fifo",
            Pool::builder(|| 0)
                .max_objects(1)
                .policy(PolicyChoice::RecycleOldest),
        )
        .unwrap();
    let _ = pools.acquire(strict);
    assert!(matches!(
        pools.try_acquire(strict),
        Err(KeyedError::Acquire(AcquireError::Exhausted { .. }))
    ));
    let old = pools.acquire(fifo);
    let new = pools.acquire(fifo);
    assert!(!pools.contains(old) && pools.contains(new));
}

#[test]
fn keyed_prewarm_spreads_a_budget_across_kinds() {
    let mut pools: KeyedPool<u32> = KeyedPool::new();
    let kinds: Vec<_> = ["a", "b", "c"]
        .iter()
        .map(|name| {
            pools
                .add_kind_lazy(name, Pool::builder(|| 0).initial(1000).max_objects(1000))
                .unwrap()
        })
        .collect();
    assert_eq!(pools.prewarm_step(1500), 1500);
    assert_eq!(pools.stats(kinds[0]).unwrap().total, 1000);
    assert_eq!(pools.stats(kinds[1]).unwrap().total, 500);
    assert_eq!(pools.stats(kinds[2]).unwrap().total, 0);
    assert_eq!(pools.prewarm_step(1500), 0);
}

/// Runs `f`, catching its panic as a game engine would (the harness keeps the
/// message with the test's output).
fn caught<R>(f: impl FnOnce() -> R) -> Option<R> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok()
}

#[test]
fn a_panicking_acquire_hook_loses_no_object() {
    let fail = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let fail_once = fail.clone();
    let mut pool = Pool::builder(|| 0u32)
        .initial(4)
        .max_objects(4)
        .on_acquire(move |_| {
            if fail_once.swap(false, std::sync::atomic::Ordering::Relaxed) {
                panic!("the game's acquire hook failed");
            }
        })
        .build()
        .unwrap();
    assert!(caught(|| pool.acquire()).is_none());
    assert_eq!(pool.stats().idle, 4, "the object went back to idle");
    let handles: Vec<_> = (0..4).map(|_| pool.try_acquire().unwrap()).collect();
    assert_eq!(handles.len(), 4, "a strict pool of 4 still hands out 4");
    assert!(pool.try_acquire().is_err());
}

#[test]
fn a_panicking_release_hook_destroys_the_object_and_keeps_the_counts() {
    let fail = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let fail_now = fail.clone();
    let mut pool = Pool::builder(|| 0u32)
        .max_objects(3)
        .on_release(move |_| {
            if fail_now.swap(false, std::sync::atomic::Ordering::Relaxed) {
                panic!("the game's reset failed");
            }
        })
        .build()
        .unwrap();
    let first = pool.acquire();
    let second = pool.acquire();
    fail.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(caught(|| pool.release(first)).is_none());
    assert!(!pool.contains(first), "its handle is stale");
    assert_eq!(pool.release(first), Err(StaleHandle), "no second release");
    let stats = pool.stats();
    assert_eq!((stats.live, stats.total, stats.destroys), (1, 1, 1));
    assert_eq!(pool.iter().count(), stats.live);
    assert_eq!(pool.iter().next().map(|(handle, _)| handle), Some(second));
    // The pool grows back to its cap.
    let more: Vec<_> = (0..2).map(|_| pool.try_acquire().unwrap()).collect();
    assert_eq!((more.len(), pool.stats().live), (2, 3));
}

#[test]
fn ids_and_handles_of_another_keyed_pool_are_refused() {
    let mut a: KeyedPool<u32> = KeyedPool::new();
    let mut b: KeyedPool<u32> = KeyedPool::new();
    let spark_a = a
        .add_kind("spark", Pool::builder(|| 1).max_objects(4))
        .unwrap();
    let smoke_b = b
        .add_kind("smoke", Pool::builder(|| 2).max_objects(4))
        .unwrap();
    assert_eq!(spark_a.index(), smoke_b.index(), "the same index in both");
    assert_eq!(
        b.try_acquire(spark_a),
        Err(KeyedError::UnknownKind(spark_a))
    );
    assert!(b.pool(spark_a).is_none() && b.name(spark_a).is_none() && b.stats(spark_a).is_none());
    assert!(!b.contains_kind(spark_a) && a.contains_kind(spark_a));
    let in_a = a.acquire(spark_a);
    let in_b = b.acquire(smoke_b);
    assert_eq!(
        in_a.handle().index(),
        in_b.handle().index(),
        "the same slot in both"
    );
    assert_ne!(in_a.handle(), in_b.handle(), "each pool's own generations");
    // Refused by the kind id, and by the handle itself under b's own kind.
    assert_eq!(b.get(in_a), None);
    assert_eq!(b.get(KindHandle::new(smoke_b, in_a.handle())), None);
    assert_eq!(b.release(in_a), Err(StaleHandle));
    assert!(b.contains(in_b), "b's own object was not released");
    assert_eq!(a.get(in_a), Some(&1));
    assert_eq!(std::mem::size_of::<pool_core::KindHandle>(), 12);
}

#[test]
fn a_registry_holds_max_kinds_and_says_so_past_them() {
    let mut pools: KeyedPool<u8> = KeyedPool::new();
    for kind in 0..pool_core::MAX_KINDS {
        pools
            .add_kind_lazy(&kind.to_string(), Pool::builder(|| 0u8).max_objects(1))
            .unwrap();
    }
    let err = pools
        .add_kind_lazy("one more", Pool::builder(|| 0u8).max_objects(1))
        .unwrap_err();
    assert_eq!(err, AddKindError::TooManyKinds);
    assert_eq!(err.to_string(), "a registry holds at most 65536 kinds");
}

#[test]
fn get_disjoint_mut_lends_distinct_live_objects_and_refuses_the_rest() {
    let mut pool: Pool<u32> = Pool::new(0, 8, || 0).unwrap();
    let [a, b, c] = [pool.acquire(), pool.acquire(), pool.acquire()];
    for (value, object) in pool
        .get_disjoint_mut([c, a, b])
        .unwrap()
        .into_iter()
        .enumerate()
    {
        *object = value as u32 + 1;
    }
    assert_eq!(
        (pool.get(a), pool.get(b), pool.get(c)),
        (Some(&2), Some(&3), Some(&1))
    );
    // A repeated handle, in any place: refused, not counted as stale.
    assert!(pool.get_disjoint_mut([a, b, a]).is_none());
    assert_eq!(pool.stats().stale_handle_uses, 0);
    // A stale handle, and a handle whose slot a new object took: refused, counted.
    pool.release(b).unwrap();
    let d = pool.acquire();
    assert!(pool.get_disjoint_mut([a, b]).is_none());
    assert_eq!(pool.stats().stale_handle_uses, 1);
    // A handle of a bigger pool, past this pool's slots.
    let mut big: Pool<u32> = Pool::new(0, 64, || 0).unwrap();
    let far = (0..40).map(|_| big.acquire()).last().unwrap();
    assert!(pool.get_disjoint_mut([a, far]).is_none());
    // No handles at all: nothing to lend.
    assert_eq!(
        pool.get_disjoint_mut::<0>([]).map(|objects| objects.len()),
        Some(0)
    );
    assert!(pool.get_disjoint_mut([a, d]).is_some());
}

#[test]
fn iter_mut_visits_each_live_object_once_and_no_idle_one() {
    let mut pool = Pool::builder(|| 0u32)
        .initial(4)
        .max_objects(6)
        .policy(RecycleOldest)
        .build()
        .unwrap();
    let handles: Vec<_> = (0..6).map(|_| pool.acquire()).collect();
    pool.release(handles[1]).unwrap();
    pool.release(handles[4]).unwrap();
    let recycled = pool.acquire(); // an idle one again
    for (_, value) in pool.iter_mut() {
        *value += 1;
    }
    let mut visited: Vec<_> = pool.iter_mut().map(|(handle, _)| handle).collect();
    let mut live: Vec<_> = pool.iter().map(|(handle, _)| handle).collect();
    visited.sort();
    live.sort();
    assert_eq!(visited, live);
    assert_eq!(visited.len(), 5);
    assert!(visited.contains(&recycled));
    assert!(pool.iter().all(|(_, value)| *value == 1));
    // Idle objects were not touched: the two released ones come back at 0 (one
    // was reused above, so acquire the other).
    let again = pool.acquire();
    assert_eq!(pool.get(again), Some(&0));
}

#[test]
fn an_optional_handle_costs_no_more_than_a_handle() {
    assert_eq!(size_of::<Option<Handle>>(), size_of::<Handle>());
    assert_eq!(size_of::<Option<Handle>>(), 8);
}

/// The crate docs' recommended sharing: one owner, handles sent to other
/// threads and checked on the owner's pool when they come back.
#[test]
fn handles_cross_threads_and_are_checked_on_the_owners_pool() {
    let mut pool = Pool::builder(|| 0u32)
        .max_objects(8)
        .policy(RecycleOldest)
        .build()
        .unwrap();
    let (to_worker, from_owner) = std::sync::mpsc::channel::<Handle>();
    let (to_owner, from_worker) = std::sync::mpsc::channel::<(Handle, u32)>();
    let worker = std::thread::spawn(move || {
        // The worker computes something for each object it is told about.
        for handle in from_owner {
            let index = handle.index() as u32;
            to_owner.send((handle, index * 10)).unwrap();
        }
    });
    let handles: Vec<Handle> = (0..8).map(|_| pool.acquire()).collect();
    for &handle in &handles {
        to_worker.send(handle).unwrap();
    }
    // Meanwhile the owner recycles two objects: their old handles go stale.
    let _recycled = (pool.acquire(), pool.acquire());
    drop(to_worker);
    let (mut applied, mut refused) = (0, 0);
    for (handle, value) in from_worker {
        match pool.get_mut(handle) {
            Some(object) => {
                *object = value;
                applied += 1;
            }
            None => refused += 1,
        }
    }
    worker.join().unwrap();
    assert_eq!((applied, refused), (6, 2));
    assert_eq!(pool.iter().filter(|(_, value)| **value > 0).count(), 6);
}

#[test]
fn folding_an_iterator_visits_what_next_visits_in_both_orders() {
    fn check<P: pool_core::ExhaustionPolicy<u32>>(policy: P) {
        let mut pool = Pool::builder(|| 0u32)
            .max_objects(64)
            .policy(policy)
            .build()
            .unwrap();
        let handles: Vec<_> = (0..40u32)
            .map(|n| {
                let (handle, value) = pool.acquire_mut();
                *value = n;
                handle
            })
            .collect();
        for handle in handles.iter().step_by(3) {
            pool.release(*handle).unwrap();
        }
        let by_next: Vec<_> = {
            let mut iter = pool.iter();
            let mut out = Vec::new();
            // `next` by hand: a `for` loop could go through `fold`.
            #[allow(clippy::while_let_on_iterator)]
            while let Some((handle, value)) = iter.next() {
                out.push((handle, *value));
            }
            out
        };
        let by_fold = pool.iter().fold(Vec::new(), |mut out, (handle, value)| {
            out.push((handle, *value));
            out
        });
        assert_eq!(by_fold, by_next);
        assert_eq!(by_fold.len(), pool.live_count());
        // Part taken by `next`, the rest by `fold`.
        let mut iter = pool.iter();
        let first: Vec<_> = iter.by_ref().take(5).map(|(h, v)| (h, *v)).collect();
        let rest = iter.fold(first, |mut out, (h, v)| {
            out.push((h, *v));
            out
        });
        assert_eq!(rest, by_next);
        assert_eq!(
            pool.iter().map(|(_, v)| u64::from(*v)).sum::<u64>(),
            by_next.iter().map(|(_, v)| u64::from(*v)).sum::<u64>()
        );
    }
    check(pool_core::Strict);
    check(pool_core::RecycleOldest);
}

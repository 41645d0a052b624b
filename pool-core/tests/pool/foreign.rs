//! Handles of another pool of the same handle type: every call that takes a
//! handle refuses them, as it refuses a stale one, while the pool's own objects
//! stay as they were. Each pool counts its generations from its own salt, so the
//! same slot in two pools is never at the same generation (see the crate docs,
//! "Handles and generations").

use pool_core::{Handle, KeyedPool, KindHandle, Pool, RecycleOldest, StaleHandle, Strict};

/// A pool of `max` objects numbered from `first`, all live, after `churn`
/// handouts and releases of each slot; its handles, in slot order.
fn filled<P: pool_core::ExhaustionPolicy<u32>>(
    policy: P,
    max: usize,
    first: u32,
    churn: usize,
) -> (Pool<u32, P>, Vec<Handle>) {
    let mut pool = Pool::builder(|| 0)
        .initial(max)
        .max_objects(max)
        .policy(policy)
        .build()
        .unwrap();
    for _ in 0..churn {
        let handles: Vec<Handle> = (0..max).map(|_| pool.acquire()).collect();
        for handle in handles {
            pool.release(handle).unwrap();
        }
    }
    let mut handles: Vec<Handle> = (0..max as u32)
        .map(|n| {
            let (handle, object) = pool.acquire_mut();
            *object = first + n;
            handle
        })
        .collect();
    handles.sort_by_key(|handle| handle.index());
    (pool, handles)
}

/// Every handle-taking call of `pool` refuses every handle of `foreign`, and
/// each refusal that counts is counted; `own` still reach their objects, unchanged.
fn refuses_all<P: pool_core::ExhaustionPolicy<u32>>(
    pool: &mut Pool<u32, P>,
    own: &[Handle],
    foreign: &[Handle],
) {
    let values: Vec<u32> = own.iter().map(|h| *pool.get(*h).unwrap()).collect();
    let stats = pool.stats();
    for (&mine, &theirs) in own.iter().zip(foreign) {
        assert_eq!(mine.index(), theirs.index(), "the same slot in both pools");
        assert_ne!(mine, theirs, "at another generation");
        assert_eq!(pool.get(theirs), None);
        assert!(!pool.contains(theirs));
        assert_eq!(pool.get_mut(theirs), None);
        assert_eq!(pool.try_get_mut(theirs), Err(StaleHandle));
        assert!(pool.get_disjoint_mut([mine, theirs]).is_none());
        assert!(pool.get_disjoint_mut([theirs, mine]).is_none());
        assert_eq!(pool.release(theirs), Err(StaleHandle));
        assert_eq!(pool.renew(theirs), Err(StaleHandle));
    }
    let after = pool.stats();
    // get_mut, try_get_mut, two get_disjoint_mut, release and renew count.
    let counted = 6 * foreign.len() as u64;
    assert_eq!(after.stale_handle_uses, stats.stale_handle_uses + counted);
    assert_eq!((after.live, after.releases), (stats.live, stats.releases));
    let now: Vec<u32> = own.iter().map(|h| *pool.get(*h).unwrap()).collect();
    assert_eq!(now, values, "no object of this pool was touched");
}

#[test]
fn a_strict_pool_refuses_the_handles_of_another_pool_of_its_handle_type() {
    for churn in [0, 1, 1000] {
        let (mut enemies, enemy_handles) = filled(Strict, 8, 100, churn);
        let (mut bullets, bullet_handles) = filled(Strict, 8, 200, churn);
        refuses_all(&mut enemies, &enemy_handles, &bullet_handles);
        refuses_all(&mut bullets, &bullet_handles, &enemy_handles);
    }
}

#[test]
fn an_ordered_pool_refuses_the_handles_of_another_pool_of_its_handle_type() {
    // The later pool made first, and churned apart: either order, any history.
    for (churn_a, churn_b) in [(0, 0), (0, 3), (1000, 1)] {
        let (mut bullets, bullet_handles) = filled(RecycleOldest, 8, 200, churn_b);
        let (mut enemies, enemy_handles) = filled(RecycleOldest, 8, 100, churn_a);
        refuses_all(&mut enemies, &enemy_handles, &bullet_handles);
        refuses_all(&mut bullets, &bullet_handles, &enemy_handles);
        for theirs in &bullet_handles {
            assert_eq!(enemies.newer(*theirs), None);
        }
    }
}

/// `pool`'s objects all released and acquired again, numbered from `first`;
/// their handles in slot order.
fn refilled(pool: &mut Pool<u32, RecycleOldest>, first: u32) -> Vec<Handle> {
    let max = pool.max_objects() as u32;
    let mut handles: Vec<Handle> = (0..max)
        .map(|n| {
            let (handle, object) = pool.acquire_mut();
            *object = first + n;
            handle
        })
        .collect();
    handles.sort_by_key(|handle| handle.index());
    handles
}

#[test]
fn foreign_handles_stay_refused_after_reinitialize_and_clear() {
    // Histories that bring each slot of both pools through the same number of
    // generations: without a salt apiece, their handles would be equal.
    let (mut enemies, old_enemies) = filled(RecycleOldest, 4, 100, 0);
    let (mut bullets, bullet_handles) = filled(RecycleOldest, 4, 200, 1);
    enemies.reinitialize();
    let enemy_handles = refilled(&mut enemies, 300);
    assert!(old_enemies.iter().all(|h| !enemies.contains(*h)));
    refuses_all(&mut enemies, &enemy_handles, &bullet_handles);
    refuses_all(&mut bullets, &bullet_handles, &enemy_handles);
    bullets.clear();
    let bullet_handles = refilled(&mut bullets, 400);
    for handle in &enemy_handles {
        enemies.release(*handle).unwrap();
    }
    let enemy_handles = refilled(&mut enemies, 500);
    refuses_all(&mut enemies, &enemy_handles, &bullet_handles);
    refuses_all(&mut bullets, &bullet_handles, &enemy_handles);
}

#[test]
fn a_keyed_handle_paired_with_another_kinds_handle_is_refused() {
    let mut pools: KeyedPool<u32> = KeyedPool::new();
    let spark = pools
        .add_kind("spark", Pool::builder(|| 1).max_objects(4))
        .unwrap();
    let smoke = pools
        .add_kind("smoke", Pool::builder(|| 2).max_objects(4))
        .unwrap();
    let puff = pools.acquire(smoke);
    let flash = pools.acquire(spark);
    // The smoke's handle under the spark kind: the spark pool's slot 1 is live.
    let mismatched = KindHandle::new(spark, puff.handle());
    assert_eq!(puff.handle().index(), flash.handle().index());
    assert_eq!(pools.get(mismatched), None);
    assert_eq!(pools.release(mismatched), Err(StaleHandle));
    assert!(pools.contains(flash) && pools.contains(puff));
}

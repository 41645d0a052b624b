//! Unit tests that need the pool's internals (generation wrap-around).

use crate::{Handle, Pool, RecycleOldest};

#[test]
fn a_slot_whose_generation_runs_out_retires_and_its_object_moves() {
    let mut pool: Pool<u32> = Pool::new(0, 2, || 7).unwrap();
    let handle: Handle = pool.acquire();
    let handle = pool.set_last_generation_for_test(handle);
    assert_eq!(pool.get(handle), Some(&7));
    pool.release(handle).unwrap();
    assert!(!pool.contains(handle));
    assert_eq!(pool.stats().retired_slots, 1);
    assert_eq!(pool.stats().idle, 1, "the object survives its slot");
    let next = pool.acquire();
    assert_eq!(pool.get(next), Some(&7));
    assert_eq!(pool.stats().creates, 1, "no new object was created");
    assert_eq!(pool.slot_count(), 2, "the retired slot is never reused");
    assert!(!pool.contains(handle));
}

#[test]
fn recycling_a_slot_whose_generation_runs_out_moves_the_object() {
    let mut pool = Pool::builder(|| 1u32)
        .max_objects(1)
        .policy(RecycleOldest)
        .build()
        .unwrap();
    let first = pool.acquire();
    let first = pool.set_last_generation_for_test(first);
    let acquired = pool.try_acquire_detailed().unwrap();
    assert_eq!(acquired.recycled, Some(first));
    assert!(!pool.contains(first));
    assert_eq!(pool.get(acquired.handle), Some(&1));
    let stats = pool.stats();
    assert_eq!((stats.live, stats.total, stats.retired_slots), (1, 1, 1));
}

#[test]
fn clearing_a_live_object_in_its_last_generation_retires_the_slot() {
    let mut pool: Pool<u32> = Pool::new(0, 2, || 0).unwrap();
    let handle = pool.acquire();
    let handle = pool.set_last_generation_for_test(handle);
    pool.clear();
    assert!(!pool.contains(handle));
    assert_eq!(pool.stats().total, 0);
    let again = pool.acquire();
    assert_ne!(again, handle);
    assert_eq!(pool.slot_count(), 2);
}

#[test]
fn renewing_a_slot_in_its_last_generation_moves_the_object() {
    let mut pool: Pool<u32> = Pool::new(0, 2, || 5).unwrap();
    let handle = pool.acquire();
    let handle = pool.set_last_generation_for_test(handle);
    let renewed = pool.renew(handle).unwrap();
    assert!(!pool.contains(handle));
    assert_eq!(pool.get(renewed), Some(&5));
    assert_eq!((pool.stats().live, pool.stats().retired_slots), (1, 1));
}

#[test]
fn reinitializing_a_strict_pool_with_a_slot_in_its_last_generation_retires_it() {
    // The one-pass release of an unordered pool, with a retirement in the middle.
    let mut pool = Pool::builder(|| 3u32)
        .initial(4)
        .max_objects(4)
        .policy(crate::Strict)
        .build()
        .unwrap();
    let handles: [Handle; 4] = core::array::from_fn(|_| pool.acquire());
    let last = pool.set_last_generation_for_test(handles[1]);
    pool.reinitialize();
    let stats = pool.stats();
    assert_eq!((stats.live, stats.idle, stats.total), (0, 4, 4));
    assert_eq!(
        (stats.releases, stats.retired_slots, stats.creates),
        (4, 1, 4)
    );
    assert!(handles.iter().chain([&last]).all(|h| !pool.contains(*h)));
    // Every object is handed out again, one from the slot past the retired one.
    let again: [Handle; 4] = core::array::from_fn(|_| pool.acquire());
    assert!(again.iter().all(|h| pool.get(*h) == Some(&3)));
    assert_eq!(pool.slot_count(), 5);
    assert!(pool.try_acquire().is_err());
}

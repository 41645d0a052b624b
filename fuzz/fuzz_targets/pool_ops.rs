//! Random operations on a `Pool` and a `KeyedPool`. The pool's are checked after
//! every step by pool-core's one reference model, the property-test kit's
//! (`PoolTest::check_case`), with contents checked and panics injected in user
//! code, as `pool-core/tests/pool/model.rs` runs it; the keyed pool's against a small
//! model here. Run with `fuzz/run.sh SECONDS`.

#![no_main]

use std::sync::atomic::{AtomicU32, Ordering};

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use pool_core::testing::{Case, PoolTest, Step, oldest, refuses};
use pool_core::{KeyedError, KeyedPool, KindHandle, PolicyChoice, Pool, RecycleOldest, StaleHandle, Strict};

#[derive(Debug, Arbitrary)]
struct Input {
    initial: u8,
    max: u8,
    lazy: bool,
    recycle: bool,
    steps: Vec<Step>,
    kinds: Vec<(u8, bool)>,
    keyed_ops: Vec<KeyedOp>,
}

#[derive(Debug, Arbitrary)]
enum KeyedOp {
    Acquire(u8),
    Release(u16),
    Foreign(u8),
}

/// A pooled object: which factory call made it, a value the steps write, and
/// how often it was handed out.
#[derive(Debug)]
#[allow(dead_code)] // read through `Debug` by the kit's contents check
struct Obj {
    serial: u32,
    value: u32,
    uses: u32,
}

static SERIAL: AtomicU32 = AtomicU32::new(0);

fn run_pool(input: &Input) {
    let max = usize::from(input.max % 16) + 1;
    let initial = usize::from(input.initial) % (max + 1);
    let steps = input.steps.iter().take(512).copied().collect();
    let case = Case::new(initial, max, input.lazy, steps);
    let test = PoolTest::new(|| Obj {
        serial: SERIAL.fetch_add(1, Ordering::Relaxed),
        value: 0,
        uses: 0,
    })
    .on_acquire(|o| o.uses += 1)
    .on_release(|o| o.value = 0)
    .on_destroy(drop)
    .mutate(|o, value| o.value = value)
    .check_contents()
    .inject_panics();
    let result = if input.recycle {
        test.expect_victim(oldest()).check_case(RecycleOldest, &case)
    } else {
        test.expect_victim(refuses()).check_case(Strict, &case)
    };
    if let Err(failure) = result {
        panic!("{failure}");
    }
}

fn run_keyed(input: &Input) {
    let kinds: Vec<(usize, bool)> = input
        .kinds
        .iter()
        .take(6)
        .map(|(max, recycle)| (usize::from(max % 8) + 1, *recycle))
        .collect();
    if kinds.is_empty() {
        return;
    }
    let mut pools: KeyedPool<u8> = KeyedPool::new();
    let mut twin: KeyedPool<u8> = KeyedPool::new();
    let mut ids = Vec::new();
    for (i, (max, recycle)) in kinds.iter().enumerate() {
        let policy = if *recycle {
            PolicyChoice::RecycleOldest
        } else {
            PolicyChoice::Strict
        };
        let builder = Pool::builder(move || i as u8)
            .max_objects(*max)
            .policy(policy);
        ids.push(pools.add_kind(&format!("k{i}"), builder).unwrap());
        twin.add_kind(&format!("k{i}"), Pool::builder(|| 99).max_objects(*max))
            .unwrap();
    }
    let mut live: Vec<Vec<KindHandle>> = vec![Vec::new(); kinds.len()];
    let mut stale: Vec<KindHandle> = Vec::new();
    for op in input.keyed_ops.iter().take(256) {
        match *op {
            KeyedOp::Acquire(k) => {
                let k = usize::from(k) % kinds.len();
                let got = pools.try_acquire(ids[k]);
                if live[k].len() < kinds[k].0 {
                    live[k].push(got.unwrap());
                } else if kinds[k].1 {
                    stale.push(live[k].remove(0));
                    live[k].push(got.unwrap());
                } else {
                    assert!(matches!(got, Err(KeyedError::Acquire(_))));
                }
            }
            KeyedOp::Release(i) => {
                let all: Vec<KindHandle> = live.iter().flatten().chain(&stale).copied().collect();
                if all.is_empty() {
                    continue;
                }
                let handle = all[usize::from(i) % all.len()];
                let k = handle.kind().index();
                match live[k].iter().position(|h| *h == handle) {
                    Some(at) => {
                        pools.release(handle).unwrap();
                        stale.push(live[k].remove(at));
                    }
                    None => assert_eq!(pools.release(handle), Err(StaleHandle)),
                }
            }
            KeyedOp::Foreign(k) => {
                let k = usize::from(k) % kinds.len();
                let foreign = twin.kinds().nth(k).unwrap();
                assert_eq!(
                    pools.try_acquire(foreign),
                    Err(KeyedError::UnknownKind(foreign))
                );
                if let Ok(handle) = twin.try_acquire(foreign) {
                    assert_eq!(pools.get(handle), None);
                    assert_eq!(pools.release(handle), Err(StaleHandle));
                    twin.release(handle).unwrap();
                }
            }
        }
        for (k, handles) in live.iter().enumerate() {
            assert_eq!(pools.stats(ids[k]).unwrap().live, handles.len());
            for handle in handles {
                assert_eq!(pools.get(*handle), Some(&(k as u8)));
            }
        }
        for handle in &stale {
            assert!(!pools.contains(*handle));
        }
    }
}

fuzz_target!(|input: Input| {
    run_pool(&input);
    run_keyed(&input);
});

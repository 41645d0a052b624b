//! Random operations on a `Pool` and a `KeyedPool`, checked after every step
//! against a small model (live objects in acquisition order, an idle stack), the
//! fuzzing twin of `pool-core/tests/model.rs`. Run with `fuzz/run.sh SECONDS`.

#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use pool_core::{
    AcquireError, Handle, KeyedError, KeyedPool, KindHandle, PolicyChoice, Pool, StaleHandle,
};

#[derive(Debug, Arbitrary)]
struct Input {
    initial: u8,
    max: u8,
    recycle: bool,
    ops: Vec<Op>,
    kinds: Vec<(u8, bool)>,
    keyed_ops: Vec<KeyedOp>,
}

#[derive(Debug, Arbitrary)]
enum Op {
    Acquire,
    Release(u16),
    Renew(u16),
    Write(u16, u8),
    Reclaim(u8),
    Reinitialize,
    Clear(bool),
    TrimIdle(u8),
    PrewarmStep(u8),
}

#[derive(Debug, Arbitrary)]
enum KeyedOp {
    Acquire(u8),
    Release(u16),
    Foreign(u8),
}

/// Objects are their serial number (which factory call made them) and a value.
type Obj = (u32, u8);

struct Model {
    initial: usize,
    max: usize,
    recycle: bool,
    live: Vec<(Handle, Obj)>,
    idle: Vec<Obj>,
    stale: Vec<Handle>,
    next: u32,
}

impl Model {
    fn total(&self) -> usize {
        self.live.len() + self.idle.len()
    }

    fn create(&mut self) -> Obj {
        self.next += 1;
        (self.next - 1, 0)
    }

    fn prewarm(&mut self, budget: usize) -> usize {
        let mut created = 0;
        while created < budget && self.total() < self.initial {
            let obj = self.create();
            self.idle.push(obj);
            created += 1;
        }
        self.initial.saturating_sub(self.total())
    }

    fn end_live(&mut self, at: usize) {
        let (handle, (serial, _)) = self.live.remove(at);
        self.stale.push(handle);
        self.idle.push((serial, 0));
    }

    fn known(&self, i: u16) -> Option<Handle> {
        let n = self.live.len() + self.stale.len();
        let i = usize::from(i) % n.max(1);
        if n == 0 {
            None
        } else if i < self.live.len() {
            Some(self.live[i].0)
        } else {
            Some(self.stale[i - self.live.len()])
        }
    }
}

fn check(pool: &Pool<Obj, PolicyChoice>, model: &Model) {
    let stats = pool.stats();
    assert_eq!(
        (stats.live, stats.idle),
        (model.live.len(), model.idle.len())
    );
    assert_eq!(stats.total, model.total());
    assert!(stats.total <= model.max);
    let live: Vec<(Handle, Obj)> = pool.iter().map(|(h, o)| (h, *o)).collect();
    assert_eq!(live, model.live);
    assert_eq!(pool.oldest(), model.live.first().map(|(h, _)| *h));
    for handle in &model.stale {
        assert!(!pool.contains(*handle), "a stale handle reached an object");
    }
}

fn run_pool(input: &Input) {
    let max = usize::from(input.max % 16) + 1;
    let initial = usize::from(input.initial) % (max + 1);
    let serial = std::sync::atomic::AtomicU32::new(0);
    let serial = std::sync::Arc::new(serial);
    let factory_serial = serial.clone();
    let policy = if input.recycle {
        PolicyChoice::RecycleOldest
    } else {
        PolicyChoice::Strict
    };
    let mut pool = Pool::builder(move || {
        (
            factory_serial.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            0,
        )
    })
    .initial(initial)
    .max_objects(max)
    .policy(policy)
    .on_release(|o| o.1 = 0)
    .build()
    .unwrap();
    let mut model = Model {
        initial,
        max,
        recycle: input.recycle,
        live: Vec::new(),
        idle: Vec::new(),
        stale: Vec::new(),
        next: 0,
    };
    model.prewarm(usize::MAX);
    for op in input.ops.iter().take(512) {
        match *op {
            Op::Acquire => {
                let got = pool.try_acquire();
                if let Some(obj) = model.idle.pop() {
                    model.live.push((got.unwrap(), obj));
                } else if model.total() < model.max {
                    let obj = model.create();
                    model.live.push((got.unwrap(), obj));
                } else if model.recycle {
                    model.end_live(0);
                    let obj = model.idle.pop().unwrap();
                    model.live.push((got.unwrap(), obj));
                } else {
                    assert_eq!(got, Err(AcquireError::Exhausted { max_objects: max }));
                }
            }
            Op::Release(i) => {
                let Some(handle) = model.known(i) else {
                    continue;
                };
                let result = pool.release(handle);
                match model.live.iter().position(|(h, _)| *h == handle) {
                    Some(at) => {
                        assert_eq!(result, Ok(()));
                        model.end_live(at);
                    }
                    None => assert_eq!(result, Err(StaleHandle)),
                }
            }
            Op::Renew(i) => {
                let Some(handle) = model.known(i) else {
                    continue;
                };
                let result = pool.renew(handle);
                match model.live.iter().position(|(h, _)| *h == handle) {
                    Some(at) => {
                        model.end_live(at);
                        let obj = model.idle.pop().unwrap();
                        model.live.push((result.unwrap(), obj));
                    }
                    None => assert_eq!(result, Err(StaleHandle)),
                }
            }
            Op::Write(i, value) => {
                let Some(handle) = model.known(i) else {
                    continue;
                };
                let got = pool.get_mut(handle);
                match model.live.iter().position(|(h, _)| *h == handle) {
                    Some(at) => {
                        got.unwrap().1 = value;
                        model.live[at].1.1 = value;
                    }
                    None => assert!(got.is_none()),
                }
            }
            Op::Reclaim(m) => {
                let m = m % 4 + 1;
                pool.reclaim(|_, o| o.1 % m == 0);
                let mut at = 0;
                while at < model.live.len() {
                    if model.live[at].1.1 % m == 0 {
                        model.end_live(at);
                    } else {
                        at += 1;
                    }
                }
            }
            Op::Reinitialize => {
                pool.reinitialize();
                while !model.live.is_empty() {
                    model.end_live(0);
                }
                while model.total() > model.initial {
                    model.idle.pop();
                }
                model.prewarm(usize::MAX);
            }
            Op::Clear(include_live) => {
                if include_live {
                    pool.clear();
                } else {
                    pool.clear_idle();
                }
                if include_live {
                    let live = std::mem::take(&mut model.live);
                    model.stale.extend(live.into_iter().map(|(h, _)| h));
                }
                model.idle.clear();
            }
            Op::TrimIdle(keep) => {
                let keep = usize::from(keep % 8);
                pool.trim_idle(keep);
                model.idle.truncate(keep.min(model.idle.len()));
                // The idle stack's top is its end: trimming drops from the top.
            }
            Op::PrewarmStep(budget) => {
                let budget = usize::from(budget % 8);
                assert_eq!(pool.prewarm_step(budget), model.prewarm(budget));
            }
        }
        check(&pool, &model);
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

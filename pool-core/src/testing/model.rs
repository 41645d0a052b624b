//! The reference model of one case and its replay: what every operation must do
//! to a pool, written as plainly as possible (handles in a `Vec` in acquisition
//! order, an idle count, expected statistics and hook calls).

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use core::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;

use super::{Calls, Case, Choice, Op, PoolTest, Tested, build};
use crate::{AcquireError, ExhaustionPolicy, Handle, PoolStats, StaleHandle};

/// Expected calls of the factory and the acquire, release and destroy hooks.
const FACTORY: usize = 0;
const ACQUIRE: usize = 1;
const RELEASE: usize = 2;
const DESTROY: usize = 3;

const RECYCLED: &str = "recycled";

struct Model {
    initial: usize,
    max: usize,
    /// Live handles, oldest first.
    live: Vec<Handle>,
    idle: usize,
    stats: PoolStats,
    calls: [u64; 4],
    /// Every handle handed out, in order: `#1`, `#2`...
    handed: Vec<Handle>,
    /// How and at which step each handle that is no longer live ended.
    ended: Vec<(Handle, &'static str, usize)>,
    /// The step being run (1-based).
    step: usize,
}

impl Model {
    fn total(&self) -> usize {
        self.live.len() + self.idle
    }

    fn name(&self, handle: Handle) -> String {
        match self.handed.iter().position(|h| *h == handle) {
            Some(at) => format!("#{}", at + 1),
            None => String::from("a handle this pool never handed out"),
        }
    }

    /// Why `handle` is not live.
    fn fate(&self, handle: Handle) -> String {
        match self.ended.iter().find(|(h, ..)| *h == handle) {
            Some((_, how, step)) => format!("it was {how} at step {step}"),
            None if self.handed.contains(&handle) => String::from("it was never live"),
            None => String::from("this pool never handed it out"),
        }
    }

    /// The live handle at `i` (oldest first), or with `stale` the stale one at
    /// `i`; the other kind if there is none of the asked one.
    fn pick(&self, i: usize, stale: bool) -> Option<Handle> {
        let stale_ones: Vec<Handle> = self
            .handed
            .iter()
            .copied()
            .filter(|h| !self.live.contains(h))
            .collect();
        let (first, second) = if stale {
            (&stale_ones, &self.live)
        } else {
            (&self.live, &stale_ones)
        };
        [first, second]
            .into_iter()
            .find(|handles| !handles.is_empty())
            .map(|handles| handles[i % handles.len()])
    }

    fn create(&mut self, count: usize) {
        self.stats.creates += count as u64;
        self.calls[FACTORY] += count as u64;
        self.idle += count;
        self.stats.peak_total = self.stats.peak_total.max(self.total());
    }

    fn destroy(&mut self, count: usize) {
        self.stats.destroys += count as u64;
        self.calls[DESTROY] += count as u64;
    }

    /// A new handle from an idle object: never one seen before.
    fn hand_out(&mut self, handle: Handle) -> Result<(), String> {
        if self.handed.contains(&handle) {
            return Err(format!(
                "the pool handed out {} again (a new handle must never equal an old one)",
                self.name(handle)
            ));
        }
        self.idle -= 1;
        self.handed.push(handle);
        self.live.push(handle);
        self.stats.acquires += 1;
        self.calls[ACQUIRE] += 1;
        self.stats.peak_live = self.stats.peak_live.max(self.live.len());
        Ok(())
    }

    /// A live object is no longer live (`how`: released, cleared...): its handle
    /// is stale.
    fn forget(&mut self, handle: Handle, how: &'static str) {
        self.live.retain(|h| *h != handle);
        self.ended.push((handle, how, self.step));
    }

    /// A live object reset by the release hook and made idle; a release unless
    /// it is being recycled.
    fn end(&mut self, handle: Handle, how: &'static str) {
        self.forget(handle, how);
        self.idle += 1;
        self.calls[RELEASE] += 1;
        if how != RECYCLED {
            self.stats.releases += 1;
        }
    }
}

/// A panic's message, if it has one.
fn message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)")
}

fn lock(choice: &Mutex<Option<Choice>>) -> std::sync::MutexGuard<'_, Option<Choice>> {
    choice.lock().unwrap_or_else(|e| e.into_inner())
}

/// The slot of a handle: what a pool that keeps no order iterates by.
fn slot(handle: Handle) -> u32 {
    use slotmap::Key;
    handle.data().as_ffi() as u32
}

fn address<T>(object: Option<&T>) -> Option<usize> {
    object.map(|o| o as *const T as usize)
}

/// Runs `case` on a pool built from `test` and `policy`, checking it against the
/// model after every step; with `trace`, says what each step did.
pub(super) fn run<T: 'static, P: ExhaustionPolicy<T>>(
    test: &PoolTest<T>,
    policy: P,
    case: &Case,
    mut trace: Option<&mut Vec<String>>,
) -> Result<(), String> {
    let calls = Arc::new(Calls::default());
    let choice = Arc::new(Mutex::new(None));
    let mut pool = build(test, policy, case, &calls, &choice)?;
    let mut model = Model {
        initial: case.initial,
        max: case.max_objects,
        live: Vec::new(),
        idle: 0,
        stats: PoolStats::default(),
        calls: [0; 4],
        handed: Vec::new(),
        ended: Vec::new(),
        step: 0,
    };
    if !case.lazy {
        model.create(case.initial);
    }
    check(&pool, &model, &calls).map_err(|reason| format!("after building: {reason}"))?;
    for op in &case.ops {
        model.step += 1;
        let mut said = String::new();
        let result = catch_unwind(AssertUnwindSafe(|| {
            apply(test, &mut pool, &mut model, &choice, *op, &mut said)
        }))
        .unwrap_or_else(|payload| Err(format!("user code panicked: {}", message(&*payload))));
        let result = result.and_then(|()| check(&pool, &model, &calls));
        if said.is_empty() {
            // Nothing to do (no handle yet): not a step.
            model.step -= 1;
        } else if let Some(trace) = trace.as_deref_mut() {
            trace.push(said);
        }
        result.map_err(|reason| format!("step {}: {reason}", model.step))?;
    }
    let total = pool.stats().total;
    drop(pool);
    model.destroy(total);
    if calls.read()[DESTROY] != model.calls[DESTROY] {
        return Err(format!(
            "dropping the pool called the destroy hook {} times in all, expected {}",
            calls.read()[DESTROY],
            model.calls[DESTROY]
        ));
    }
    Ok(())
}

fn apply<T: 'static, P: ExhaustionPolicy<T>>(
    test: &PoolTest<T>,
    pool: &mut Tested<T, P>,
    model: &mut Model,
    choice: &Mutex<Option<Choice>>,
    op: Op,
    said: &mut String,
) -> Result<(), String> {
    // A pool whose policy keeps no order (`ExhaustionPolicy::KEEPS_ORDER`) walks
    // its live objects by slot: so does the model.
    if !P::KEEPS_ORDER {
        model.live.sort_by_key(|handle| slot(*handle));
    }
    match op {
        Op::Acquire => {
            let full = model.idle == 0 && model.total() == model.max;
            *said = String::from("acquire");
            *lock(choice) = None;
            let got = pool.try_acquire_detailed();
            let chosen = lock(choice).take();
            if !full {
                if chosen.is_some() {
                    return Err(String::from(
                        "the pool asked its policy although it was not full",
                    ));
                }
                let acquired = got.map_err(|e| format!("refused below max_objects: {e}"))?;
                if model.idle == 0 {
                    model.create(1);
                }
                model.hand_out(acquired.handle)?;
                *said = format!("acquire -> {}", model.name(acquired.handle));
                if acquired.recycled.is_some() {
                    return Err(String::from("recycled although the pool was not full"));
                }
                return Ok(());
            }
            *said = String::from("acquire: pool full");
            let Some(choice) = chosen else {
                return Err(String::from("the pool was full but did not ask its policy"));
            };
            if choice.live != model.live {
                return Err(String::from(
                    "the policy was not shown the live objects, oldest first",
                ));
            }
            match choice.victim {
                None => {
                    *said = String::from("acquire: pool full; the policy refused");
                    if got
                        != Err(AcquireError::Exhausted {
                            max_objects: model.max,
                        })
                    {
                        return Err(format!("the policy refused but the pool returned {got:?}"));
                    }
                    model.stats.refusals += 1;
                }
                Some(victim) if model.live.contains(&victim) => {
                    let acquired = got.map_err(|e| {
                        format!("the policy chose a live victim but the pool refused: {e}")
                    })?;
                    if acquired.recycled != Some(victim) {
                        return Err(format!(
                            "the policy chose {} but the pool reported recycling {:?}",
                            model.name(victim),
                            acquired.recycled.map(|h| model.name(h))
                        ));
                    }
                    model.end(victim, RECYCLED);
                    model.stats.recycles += 1;
                    model.hand_out(acquired.handle)?;
                    *said = format!(
                        "acquire -> {}: pool full; the policy chose {}, recycled",
                        model.name(acquired.handle),
                        model.name(victim)
                    );
                    if address(pool.get(acquired.handle)) != choice.victim_at {
                        return Err(String::from(
                            "the object handed out is not the victim's object",
                        ));
                    }
                }
                Some(victim) => {
                    *said = format!(
                        "acquire: pool full; the policy chose {}",
                        model.name(victim)
                    );
                    return Err(format!(
                        "the policy chose {}, which is not live: {} (the pool returned {got:?})",
                        model.name(victim),
                        model.fate(victim)
                    ));
                }
            }
            choice
                .verdict
                .map_err(|reason| format!("the policy broke the expected rule: {reason}"))
        }
        Op::Release(i, stale) => {
            let Some(handle) = model.pick(i, stale) else {
                return Ok(());
            };
            *said = format!("release {}", model.name(handle));
            let result = pool.release(handle);
            if model.live.contains(&handle) {
                result.map_err(|_| String::from("a live handle was refused"))?;
                model.end(handle, "released");
            } else {
                *said = format!("release {} (stale)", model.name(handle));
                if result != Err(StaleHandle) {
                    return Err(String::from("a stale handle was accepted"));
                }
                model.stats.stale_handle_uses += 1;
            }
            Ok(())
        }
        Op::Renew(i, stale) => {
            let Some(handle) = model.pick(i, stale) else {
                return Ok(());
            };
            *said = format!("renew {}", model.name(handle));
            let before = address(pool.get(handle));
            let result = pool.renew(handle);
            if model.live.contains(&handle) {
                let renewed = result.map_err(|_| String::from("a live handle was refused"))?;
                model.end(handle, "renewed");
                model.hand_out(renewed)?;
                *said = format!("renew {} -> {}", model.name(handle), model.name(renewed));
                if address(pool.get(renewed)) != before {
                    return Err(String::from("renew handed out another object"));
                }
            } else {
                *said = format!("renew {} (stale)", model.name(handle));
                if result != Err(StaleHandle) {
                    return Err(String::from("a stale handle was accepted"));
                }
                model.stats.stale_handle_uses += 1;
            }
            Ok(())
        }
        Op::Get(i, stale) => {
            let Some(handle) = model.pick(i, stale) else {
                return Ok(());
            };
            *said = format!("get {}", model.name(handle));
            let live = model.live.contains(&handle);
            if pool.get(handle).is_some() != live || pool.contains(handle) != live {
                return Err(format!("get and contains disagree with liveness ({live})"));
            }
            Ok(())
        }
        Op::Write(i, stale, value) => {
            let Some(handle) = model.pick(i, stale) else {
                return Ok(());
            };
            *said = format!("write {value} to {}", model.name(handle));
            match (pool.get_mut(handle), model.live.contains(&handle)) {
                (Some(object), true) => {
                    if let Some(mutate) = &test.mutate {
                        mutate(object, value);
                    }
                }
                (None, false) => {
                    *said = format!("write to {} (stale)", model.name(handle));
                    model.stats.stale_handle_uses += 1;
                }
                (_, live) => return Err(format!("get_mut disagrees with liveness ({live})")),
            }
            Ok(())
        }
        Op::Reclaim(mask) => {
            let snapshot = model.live.clone();
            let chosen = |handle: Handle| {
                snapshot
                    .iter()
                    .position(|h| *h == handle)
                    .is_some_and(|at| mask >> (at % 64) & 1 == 1)
            };
            let mut visited = Vec::new();
            let released = pool.reclaim(|handle, _| {
                visited.push(handle);
                chosen(handle)
            });
            let expected: Vec<Handle> = snapshot.iter().copied().filter(|h| chosen(*h)).collect();
            let names: Vec<String> = expected.iter().map(|h| model.name(*h)).collect();
            *said = format!("reclaim [{}]", names.join(", "));
            if visited != snapshot {
                return Err(String::from(
                    "reclaim did not visit the live objects oldest first",
                ));
            }
            if released != expected.len() {
                return Err(format!(
                    "reclaim released {released}, expected {}",
                    expected.len()
                ));
            }
            for handle in expected {
                model.end(handle, "reclaimed");
            }
            Ok(())
        }
        Op::Reinitialize => {
            *said = String::from("reinitialize");
            pool.reinitialize();
            for handle in model.live.clone() {
                model.end(handle, "reinitialized");
            }
            let surplus = model.total().saturating_sub(model.initial);
            model.idle -= surplus;
            model.destroy(surplus);
            model.create(model.initial - model.total());
            Ok(())
        }
        Op::Clear(include_live) => {
            if include_live {
                *said = "clear()".into();
                pool.clear();
            } else {
                *said = "clear_idle()".into();
                pool.clear_idle();
            }
            if include_live {
                // Destroyed, not released.
                let live = model.live.len();
                for handle in model.live.clone() {
                    model.forget(handle, "cleared");
                }
                model.destroy(live);
            }
            model.destroy(model.idle);
            model.idle = 0;
            Ok(())
        }
        Op::TrimIdle(keep) => {
            let dropped = pool.trim_idle(keep);
            let expected = model.idle.saturating_sub(keep);
            *said = format!("trim_idle({keep}) -> {dropped}");
            model.idle -= expected;
            model.destroy(expected);
            if dropped != expected {
                return Err(format!("trim_idle dropped {dropped}, expected {expected}"));
            }
            Ok(())
        }
        Op::PrewarmStep(budget) => {
            let missing = pool.prewarm_step(budget);
            *said = format!("prewarm_step({budget}) -> {missing}");
            model.create(budget.min(model.initial.saturating_sub(model.total())));
            let expected = model.initial.saturating_sub(model.total());
            if missing != expected {
                return Err(format!(
                    "prewarm_step left {missing} missing, expected {expected}"
                ));
            }
            Ok(())
        }
    }
}

/// The pool agrees with the model.
fn check<T, P: ExhaustionPolicy<T>>(
    pool: &Tested<T, P>,
    model: &Model,
    calls: &Calls,
) -> Result<(), String> {
    let mut expected = model.stats;
    (expected.live, expected.idle, expected.total) = (model.live.len(), model.idle, model.total());
    let stats = pool.stats();
    if stats != expected {
        return Err(format!("statistics {stats:?}, expected {expected:?}"));
    }
    let live: Vec<Handle> = pool.iter().map(|(handle, _)| handle).collect();
    let mut expected_live = model.live.clone();
    if !P::KEEPS_ORDER {
        expected_live.sort_by_key(|handle| slot(*handle));
    }
    if live != expected_live {
        return Err(String::from(if P::KEEPS_ORDER {
            "the live objects are not the model's, oldest first"
        } else {
            "the live objects are not the model's, by slot"
        }));
    }
    let mut places: Vec<usize> = pool.iter().map(|(_, o)| o as *const T as usize).collect();
    places.sort_unstable();
    places.dedup();
    if places.len() != live.len() {
        return Err(String::from("two live handles reach the same object"));
    }
    for handle in &model.handed {
        if !model.live.contains(handle) && (pool.contains(*handle) || pool.get(*handle).is_some()) {
            return Err(format!(
                "{} is stale but reaches an object",
                model.name(*handle)
            ));
        }
    }
    let actual = calls.read();
    let names = [
        "the factory",
        "the acquire hook",
        "the release hook",
        "the destroy hook",
    ];
    for (i, name) in names.iter().enumerate() {
        if actual[i] != model.calls[i] {
            return Err(format!(
                "{name} ran {} times, expected {}",
                actual[i], model.calls[i]
            ));
        }
    }
    Ok(())
}

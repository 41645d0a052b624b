//! The reference model of one case and its replay: what every operation must do
//! to a pool, written as plainly as possible: live objects in a `Vec` in the
//! pool's order, idle objects on a stack, expected statistics and hook calls, and
//! what each planned panic in user code leaves behind. The crate's own model test
//! and its fuzz target drive this model; there is no other.

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use core::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Mutex, Once};

use super::{Case, Choice, Harness, Op, Pick, Planned, PoolTest, Seen, Tested, UserCode, build};
use crate::{AcquireError, ExhaustionPolicy, Handle, PoolStats, StaleHandle};

/// Indices into the call counts: the factory and the acquire, release and
/// destroy hooks.
const FACTORY: usize = 0;
const ACQUIRE: usize = 1;
const RELEASE: usize = 2;
const DESTROY: usize = 3;

const RECYCLED: &str = "recycled";

/// An object as the model knows it: which factory call made it, and (with
/// `check_contents`) its `Debug` text.
#[derive(Debug, Clone)]
struct Object {
    serial: u64,
    text: Option<String>,
}

struct Model {
    initial: usize,
    max: usize,
    /// Live objects in the pool's order, with their handles.
    live: Vec<(Handle, Object)>,
    /// Idle objects; the top of the stack is the end.
    idle: Vec<Object>,
    made: u64,
    stats: PoolStats,
    calls: [u64; 4],
    /// Which of the factory and hooks the pool has.
    installed: [bool; 4],
    /// Every handle handed out, in order: `#1`, `#2`...
    handed: Vec<Handle>,
    /// How and at which step each handle that is no longer live ended.
    ended: Vec<(Handle, &'static str, usize)>,
    /// The step being run (1-based).
    step: usize,
    /// The user code set to panic the next time it runs.
    armed: Option<UserCode>,
    harness: Arc<Harness>,
    contents: bool,
    /// The first disagreement found while the model replays a step.
    error: Option<String>,
}

impl Model {
    fn total(&self) -> usize {
        self.live.len() + self.idle.len()
    }

    fn fail(&mut self, reason: String) {
        self.error.get_or_insert(reason);
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

    fn position(&self, handle: Handle) -> Option<usize> {
        self.live.iter().position(|(h, _)| *h == handle)
    }

    fn is_live(&self, handle: Handle) -> bool {
        self.position(handle).is_some()
    }

    /// The handle `pick` names, or `None` if no handle was handed out yet.
    fn pick(&self, pick: Pick) -> Option<Handle> {
        let stale_ones: Vec<Handle> = self
            .handed
            .iter()
            .copied()
            .filter(|h| !self.is_live(*h))
            .collect();
        let live: Vec<Handle> = self.live.iter().map(|(h, _)| *h).collect();
        let (first, second) = if pick.stale {
            (&stale_ones, &live)
        } else {
            (&live, &stale_ones)
        };
        [first, second]
            .into_iter()
            .find(|handles| !handles.is_empty())
            .map(|handles| handles[pick.index % handles.len()])
    }

    /// `code` runs now: counts it, and says whether it is the one set to panic.
    fn panics(&mut self, code: UserCode) -> bool {
        let counted = match code {
            UserCode::Factory => Some(FACTORY),
            UserCode::AcquireHook => Some(ACQUIRE),
            UserCode::ReleaseHook => Some(RELEASE),
            UserCode::DestroyHook => Some(DESTROY),
            UserCode::Policy => None,
        };
        if let Some(i) = counted {
            if !self.installed[i] {
                return false;
            }
            self.calls[i] += 1;
        }
        self.armed.take_if(|c| *c == code).is_some()
    }

    /// What a hook saw next must be `what`: for what it was given, `object`'s
    /// text; for what it left (or what the factory made), the text `object` takes.
    fn saw(&mut self, what: Seen, object: &mut Object) {
        if !self.contents {
            return;
        }
        let next = self
            .harness
            .seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop_front();
        match (next, what) {
            (Some((seen, text)), _) if seen != what => self.fail(format!(
                "expected {what:?} of object {}, but the pool's hooks saw {seen:?} of {text}",
                object.serial
            )),
            (None, _) => self.fail(format!(
                "expected {what:?} of object {}, but no hook saw it",
                object.serial
            )),
            (Some((_, text)), Seen::Made | Seen::AcquireOut | Seen::ReleaseOut) => {
                object.text = Some(text);
            }
            (Some((_, text)), _) => {
                if object.text.as_ref() != Some(&text) {
                    self.fail(format!(
                        "{} was given {text}, expected {}",
                        match what {
                            Seen::AcquireIn => "the acquire hook",
                            Seen::ReleaseIn => "the release hook",
                            _ => "the destroy hook",
                        },
                        object.text.as_deref().unwrap_or("?")
                    ));
                }
            }
        }
    }

    /// A new object, or `None` if the factory panicked (nothing changes then).
    fn create(&mut self) -> Option<Object> {
        if self.panics(UserCode::Factory) {
            return None;
        }
        let mut object = Object {
            serial: self.made,
            text: None,
        };
        self.made += 1;
        self.saw(Seen::Made, &mut object);
        self.stats.creates += 1;
        self.stats.peak_total = self.stats.peak_total.max(self.total() + 1);
        Some(object)
    }

    /// Makes `object` live under `handle`; `false` if its acquire hook panicked:
    /// the acquire never happened and the object is back on top of the idle stack.
    fn activate(&mut self, handle: Option<Handle>, mut object: Object) -> bool {
        if self.panics(UserCode::AcquireHook) {
            self.idle.push(object);
            return false;
        }
        if self.installed[ACQUIRE] {
            self.saw(Seen::AcquireIn, &mut object);
            self.saw(Seen::AcquireOut, &mut object);
        }
        let Some(handle) = handle else {
            self.fail(String::from("the pool handed out no handle"));
            return false;
        };
        if self.handed.contains(&handle) {
            self.fail(format!(
                "the pool handed out {} again (a new handle must never equal an old one)",
                self.name(handle)
            ));
        }
        self.handed.push(handle);
        self.live.push((handle, object));
        self.stats.acquires += 1;
        self.stats.peak_live = self.stats.peak_live.max(self.live.len());
        true
    }

    /// Ends live object `at` (`how`: released, recycled...): its handle goes stale,
    /// the release hook resets it and it goes on top of the idle stack. If the
    /// release hook panics, the object is destroyed instead (counted, but not
    /// through the destroy hook); then `false`.
    fn end_live(&mut self, at: usize, how: &'static str) -> bool {
        let (handle, mut object) = self.live.remove(at);
        self.ended.push((handle, how, self.step));
        if self.panics(UserCode::ReleaseHook) {
            self.stats.destroys += 1;
            return false;
        }
        if self.installed[RELEASE] {
            self.saw(Seen::ReleaseIn, &mut object);
            self.saw(Seen::ReleaseOut, &mut object);
        }
        self.idle.push(object);
        true
    }

    /// Destroys `object`; `false` if the destroy hook panicked (the object is
    /// counted as destroyed all the same).
    fn destroy(&mut self, mut object: Object) -> bool {
        self.stats.destroys += 1;
        if self.panics(UserCode::DestroyHook) {
            return false;
        }
        if self.installed[DESTROY] {
            self.saw(Seen::Destroyed, &mut object);
        }
        true
    }

    /// Creates idle objects up to `initial` within `budget`; the number still
    /// missing, or `None` if the factory panicked.
    /// The pool hands them out in the order it made them: each goes below the
    /// one made before it on the idle stack.
    fn prewarm(&mut self, budget: usize) -> Option<usize> {
        let mut created = 0;
        let bottom = self.idle.len();
        while created < budget && self.total() < self.initial {
            let object = self.create()?;
            self.idle.insert(bottom, object);
            created += 1;
        }
        Some(self.initial.saturating_sub(self.total()))
    }
}

/// A panic's message, if it has one.
pub(super) fn message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)")
}

/// The kit's planned panics print nothing; every other panic is reported as
/// before.
fn quiet_planned_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(alloc::boxed::Box::new(move |info| {
            if !info.payload().is::<Planned>() {
                previous(info);
            }
        }));
    });
}

/// Runs `f`: `Ok(None)` if it raised the planned panic, an error if any other.
fn attempt<R>(f: impl FnOnce() -> R) -> Result<Option<R>, String> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => Ok(Some(result)),
        Err(payload) if payload.is::<Planned>() => Ok(None),
        Err(payload) => Err(format!("user code panicked: {}", message(&*payload))),
    }
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
    if case.steps.iter().any(|step| step.panicking.is_some()) {
        quiet_planned_panics();
    }
    let harness = Arc::new(Harness::default());
    let choice = Arc::new(Mutex::new(None));
    let mut pool = build(test, policy, case, &harness, &choice)?;
    let mut model = Model {
        initial: case.initial,
        max: case.max_objects,
        live: Vec::new(),
        idle: Vec::new(),
        made: 0,
        stats: PoolStats::default(),
        calls: [0; 4],
        installed: [
            true,
            test.on_acquire.is_some(),
            test.on_release.is_some(),
            test.on_destroy.is_some(),
        ],
        handed: Vec::new(),
        ended: Vec::new(),
        step: 0,
        armed: None,
        harness: harness.clone(),
        contents: test.show.is_some(),
        error: None,
    };
    if !case.lazy {
        model.prewarm(usize::MAX);
    }
    check(test, &pool, &mut model).map_err(|reason| format!("after building: {reason}"))?;
    for step in &case.steps {
        model.step += 1;
        let mut said = String::new();
        *harness.planned.lock().unwrap_or_else(|e| e.into_inner()) = step.panicking;
        model.armed = step.panicking;
        let result = apply(test, &mut pool, &mut model, &choice, step.op, &mut said);
        let result = result.and_then(|panicked| {
            // The pool panicked exactly when the model says the planned code ran.
            let fired = step.panicking.is_some() && model.armed.is_none();
            if let Some(code) = step.panicking {
                said.push_str(&if fired {
                    format!(" ({} panicked)", code.name())
                } else {
                    format!(" ({} set to panic, did not run)", code.name())
                });
            }
            match (panicked, fired) {
                (true, false) => Err(String::from(
                    "the pool ran the code set to panic where the model runs none",
                )),
                (false, true) => Err(String::from(
                    "the model runs the code set to panic, but the pool did not",
                )),
                _ => Ok(()),
            }
        });
        *harness.planned.lock().unwrap_or_else(|e| e.into_inner()) = None;
        model.armed = None;
        let result = result.and_then(|()| check(test, &pool, &mut model));
        if said.is_empty() {
            // Nothing to do (no handle yet): not a step.
            model.step -= 1;
        } else if let Some(trace) = trace.as_deref_mut() {
            trace.push(said);
        }
        result.map_err(|reason| format!("step {}: {reason}", model.step))?;
    }
    // Dropping the pool destroys every object it holds, in no particular order.
    let mut expected: Vec<String> = Vec::new();
    let left: Vec<Object> = model
        .live
        .drain(..)
        .map(|(_, o)| o)
        .chain(model.idle.drain(..))
        .collect();
    for object in &left {
        model.calls[DESTROY] += u64::from(model.installed[DESTROY]);
        expected.extend(object.text.clone());
    }
    drop(pool);
    let calls = harness.calls.read();
    if calls[DESTROY] != model.calls[DESTROY] {
        return Err(format!(
            "dropping the pool called the destroy hook {} times in all, expected {}",
            calls[DESTROY], model.calls[DESTROY]
        ));
    }
    if model.contents && model.installed[DESTROY] {
        let mut seen: Vec<String> = harness
            .seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain(..)
            .map(|(_, text)| text)
            .collect();
        seen.sort();
        expected.sort();
        if seen != expected {
            return Err(format!(
                "dropping the pool destroyed {seen:?}, expected {expected:?}"
            ));
        }
    }
    Ok(())
}

/// Applies `op` to the pool and to the model; returns whether the pool raised
/// the planned panic.
fn apply<T: 'static, P: ExhaustionPolicy<T>>(
    test: &PoolTest<T>,
    pool: &mut Tested<T, P>,
    model: &mut Model,
    choice: &Mutex<Option<Choice>>,
    op: Op,
    said: &mut String,
) -> Result<bool, String> {
    // A pool whose policy keeps no order (`ExhaustionPolicy::KEEPS_ORDER`) walks
    // its live objects by slot: so does the model.
    if !P::KEEPS_ORDER {
        model.live.sort_by_key(|(handle, _)| slot(*handle));
    }
    let panicked = match op {
        Op::Acquire => {
            *said = String::from("acquire");
            *lock(choice) = None;
            let got = attempt(|| pool.try_acquire_detailed())?;
            let chosen = lock(choice).take();
            let handle = got.and_then(|r| r.ok()).map(|a| a.handle);
            let recycled = got.and_then(|r| r.ok()).map(|a| a.recycled);
            let full = model.idle.is_empty() && model.total() == model.max;
            if !full && chosen.is_some() {
                return Err(String::from(
                    "the pool asked its policy although it was not full",
                ));
            }
            if let Some(object) = model.idle.pop() {
                if model.activate(handle, object) && recycled != Some(None) {
                    return Err(format!("acquiring an idle object returned {got:?}"));
                }
            } else if !full {
                if let Some(object) = model.create()
                    && model.activate(handle, object)
                    && recycled != Some(None)
                {
                    return Err(format!("acquiring below max_objects returned {got:?}"));
                }
            } else {
                *said = String::from("acquire: pool full");
                if model.panics(UserCode::Policy) {
                    // The policy panicked: nothing changed.
                    return Ok(got.is_none());
                }
                let Some(choice) = chosen else {
                    return Err(String::from("the pool was full but did not ask its policy"));
                };
                let live: Vec<Handle> = model.live.iter().map(|(h, _)| *h).collect();
                if choice.live != live {
                    return Err(String::from(
                        "the policy was not shown the live objects in the pool's order",
                    ));
                }
                match choice.victim {
                    None => {
                        *said = String::from("acquire: pool full; the policy refused");
                        let refused = Err(AcquireError::Exhausted {
                            max_objects: model.max,
                        });
                        if got.map(|r| r.map(|a| a.handle)) != Some(refused) {
                            return Err(format!(
                                "the policy refused but the pool returned {got:?}"
                            ));
                        }
                        model.stats.refusals += 1;
                    }
                    Some(victim) if model.is_live(victim) => {
                        *said = format!(
                            "acquire: pool full; the policy chose {}",
                            model.name(victim)
                        );
                        let at = model.position(victim).unwrap_or_default();
                        if model.end_live(at, RECYCLED) {
                            model.stats.recycles += 1;
                            let object = model.idle.pop().expect("the victim, just made idle");
                            if model.activate(handle, object) {
                                let handle = handle.expect("activate checked it");
                                *said = format!(
                                    "acquire -> {}: pool full; the policy chose {}, recycled",
                                    model.name(handle),
                                    model.name(victim)
                                );
                                if recycled != Some(Some(victim)) {
                                    return Err(format!(
                                        "the policy chose {} but the pool reported recycling {:?}",
                                        model.name(victim),
                                        recycled.flatten().map(|h| model.name(h))
                                    ));
                                }
                                if address(pool.get(handle)) != choice.victim_at {
                                    return Err(String::from(
                                        "the object handed out is not the victim's object",
                                    ));
                                }
                            }
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
                    .map_err(|reason| format!("the policy broke the expected rule: {reason}"))?;
            }
            if let Some(handle) = handle.filter(|h| model.is_live(*h))
                && said.as_str() == "acquire"
            {
                *said = format!("acquire -> {}", model.name(handle));
            }
            got.is_none()
        }
        Op::Release(pick) => {
            let Some(handle) = model.pick(pick) else {
                return Ok(false);
            };
            *said = format!("release {}", model.name(handle));
            let result = attempt(|| pool.release(handle))?;
            match model.position(handle) {
                Some(at) => {
                    if model.end_live(at, "released") {
                        model.stats.releases += 1;
                        if result != Some(Ok(())) {
                            return Err(String::from("a live handle was refused"));
                        }
                    }
                }
                None => {
                    *said = format!("release {} (stale)", model.name(handle));
                    if result != Some(Err(StaleHandle)) {
                        return Err(String::from("a stale handle was accepted"));
                    }
                    model.stats.stale_handle_uses += 1;
                }
            }
            result.is_none()
        }
        Op::Renew(pick) => {
            let Some(handle) = model.pick(pick) else {
                return Ok(false);
            };
            *said = format!("renew {}", model.name(handle));
            let before = address(pool.get(handle));
            let result = attempt(|| pool.renew(handle))?;
            match model.position(handle) {
                Some(at) => {
                    if model.end_live(at, "renewed") {
                        model.stats.releases += 1;
                        let object = model.idle.pop().expect("the object, just made idle");
                        let renewed = result.and_then(Result::ok);
                        if model.activate(renewed, object) {
                            let renewed = renewed.expect("activate checked it");
                            *said =
                                format!("renew {} -> {}", model.name(handle), model.name(renewed));
                            if address(pool.get(renewed)) != before {
                                return Err(String::from("renew handed out another object"));
                            }
                        }
                    }
                }
                None => {
                    *said = format!("renew {} (stale)", model.name(handle));
                    if result != Some(Err(StaleHandle)) {
                        return Err(String::from("a stale handle was accepted"));
                    }
                    model.stats.stale_handle_uses += 1;
                }
            }
            result.is_none()
        }
        Op::Get(pick) => {
            let Some(handle) = model.pick(pick) else {
                return Ok(false);
            };
            *said = format!("get {}", model.name(handle));
            let live = model.is_live(handle);
            if pool.get(handle).is_some() != live || pool.contains(handle) != live {
                return Err(format!("get and contains disagree with liveness ({live})"));
            }
            false
        }
        Op::Write(pick, value) => {
            let Some(handle) = model.pick(pick) else {
                return Ok(false);
            };
            *said = format!("write {value} to {}", model.name(handle));
            let mut wrote = Vec::new();
            let reached = pool.get_mut(handle).map(|object| {
                write(test, &mut wrote, handle, object, value);
            });
            match (reached, model.is_live(handle)) {
                (Some(()), true) => model.wrote(wrote),
                (None, false) => {
                    *said = format!("write to {} (stale)", model.name(handle));
                    model.stats.stale_handle_uses += 1;
                }
                (_, live) => return Err(format!("get_mut disagrees with liveness ({live})")),
            }
            false
        }
        Op::WriteTwo(first, second, value) => {
            let (Some(a), Some(b)) = (model.pick(first), model.pick(second)) else {
                return Ok(false);
            };
            *said = format!(
                "write {value} to {} and {} to {}",
                model.name(a),
                value.wrapping_add(1),
                model.name(b)
            );
            let mut wrote = Vec::new();
            let reached = pool.get_disjoint_mut([a, b]).map(|[x, y]| {
                write(test, &mut wrote, a, x, value);
                write(test, &mut wrote, b, y, value.wrapping_add(1));
            });
            match (model.is_live(a), model.is_live(b)) {
                (true, true) if a != b => {
                    if reached.is_none() {
                        return Err(String::from(
                            "get_disjoint_mut refused two live, distinct handles",
                        ));
                    }
                    model.wrote(wrote);
                }
                (true, true) => {
                    if reached.is_some() {
                        return Err(String::from("get_disjoint_mut gave the same object twice"));
                    }
                }
                _ => {
                    if reached.is_some() {
                        return Err(String::from("get_disjoint_mut accepted a stale handle"));
                    }
                    model.stats.stale_handle_uses += 1;
                }
            }
            false
        }
        Op::ForEach(value) | Op::IterMut(value) => {
            let mut wrote = Vec::new();
            if let Op::ForEach(_) = op {
                *said = format!("for_each_mut, writing {value}");
                pool.for_each_mut(|handle, object| write(test, &mut wrote, handle, object, value));
            } else {
                *said = format!("iter_mut, writing {value}");
                let iter = pool.iter_mut();
                if iter.len() != model.live.len() {
                    return Err(format!(
                        "iter_mut's len is {}, with {} live objects",
                        iter.len(),
                        model.live.len()
                    ));
                }
                for (handle, object) in iter {
                    write(test, &mut wrote, handle, object, value);
                }
            }
            let visited: Vec<Handle> = wrote.iter().map(|(h, ..)| *h).collect();
            let mut live: Vec<Handle> = model.live.iter().map(|(h, _)| *h).collect();
            // `iter_mut` walks by slot, whatever order the pool keeps.
            if let Op::IterMut(_) = op {
                live.sort_by_key(|handle| slot(*handle));
            }
            if visited != live {
                return Err(String::from(if let Op::IterMut(_) = op {
                    "iter_mut did not visit the live objects once each, by slot"
                } else {
                    "for_each_mut did not visit the live objects once each, in the pool's order"
                }));
            }
            model.wrote(wrote);
            false
        }
        Op::Reclaim(mask) => {
            let order: Vec<Handle> = model.live.iter().map(|(h, _)| *h).collect();
            let chosen = |handle: Handle| {
                order
                    .iter()
                    .position(|h| *h == handle)
                    .is_some_and(|at| mask >> (at % 64) & 1 == 1)
            };
            let expected: Vec<Handle> = order.iter().copied().filter(|h| chosen(*h)).collect();
            let names: Vec<String> = expected.iter().map(|h| model.name(*h)).collect();
            *said = format!("reclaim [{}]", names.join(", "));
            let mut visited = Vec::new();
            let released = attempt(|| {
                pool.reclaim(|handle, _| {
                    visited.push(handle);
                    chosen(handle)
                })
            })?;
            if !order.starts_with(&visited) {
                return Err(String::from(
                    "reclaim did not visit the live objects in the pool's order",
                ));
            }
            let mut count = 0;
            for handle in expected {
                let at = model.position(handle).unwrap_or_default();
                if !model.end_live(at, "reclaimed") {
                    break;
                }
                model.stats.releases += 1;
                count += 1;
            }
            if let Some(released) = released {
                if visited != order {
                    return Err(String::from("reclaim did not visit every live object"));
                }
                if released != count {
                    return Err(format!("reclaim released {released}, expected {count}"));
                }
            }
            released.is_none()
        }
        Op::Reinitialize => {
            *said = String::from("reinitialize");
            let done = attempt(|| pool.reinitialize())?;
            'model: {
                while !model.live.is_empty() {
                    if !model.end_live(0, "reinitialized") {
                        break 'model;
                    }
                    model.stats.releases += 1;
                }
                while model.total() > model.initial {
                    let object = model.idle.pop().expect("more objects than initial");
                    if !model.destroy(object) {
                        break 'model;
                    }
                }
                model.prewarm(usize::MAX);
            }
            done.is_none()
        }
        Op::Clear(include_live) => {
            *said = String::from(if include_live {
                "clear()"
            } else {
                "clear_idle()"
            });
            let done = attempt(|| {
                if include_live {
                    pool.clear();
                } else {
                    pool.clear_idle();
                }
            })?;
            'model: {
                if include_live {
                    // Destroyed, not released.
                    while !model.live.is_empty() {
                        let (handle, object) = model.live.remove(0);
                        model.ended.push((handle, "cleared", model.step));
                        if !model.destroy(object) {
                            break 'model;
                        }
                    }
                }
                while let Some(object) = model.idle.pop() {
                    if !model.destroy(object) {
                        break 'model;
                    }
                }
            }
            done.is_none()
        }
        Op::TrimIdle(keep) => {
            let dropped = attempt(|| pool.trim_idle(keep))?;
            *said = format!("trim_idle({keep})");
            let mut expected = 0;
            while model.idle.len() > keep {
                let object = model.idle.pop().expect("more idle objects than kept");
                expected += 1;
                if !model.destroy(object) {
                    break;
                }
            }
            if let Some(dropped) = dropped {
                *said = format!("trim_idle({keep}) -> {dropped}");
                if dropped != expected {
                    return Err(format!("trim_idle dropped {dropped}, expected {expected}"));
                }
            }
            dropped.is_none()
        }
        Op::PrewarmStep(budget) => {
            let missing = attempt(|| pool.prewarm_step(budget))?;
            *said = format!("prewarm_step({budget})");
            let expected = model.prewarm(budget);
            if let Some(missing) = missing {
                *said = format!("prewarm_step({budget}) -> {missing}");
                if Some(missing) != expected {
                    return Err(format!(
                        "prewarm_step left {missing} missing, expected {expected:?}"
                    ));
                }
            }
            missing.is_none()
        }
    };
    Ok(panicked)
}

/// A write through the test's `mutate`, with the object's text before and after
/// (with `check_contents`).
type Wrote = (Handle, Option<String>, Option<String>);

fn write<T>(
    test: &PoolTest<T>,
    wrote: &mut Vec<Wrote>,
    handle: Handle,
    object: &mut T,
    value: u32,
) {
    let before = test.show.map(|show| show(object));
    if let Some(mutate) = &test.mutate {
        mutate(object, value);
    }
    wrote.push((handle, before, test.show.map(|show| show(object))));
}

impl Model {
    /// Each written object was the one its handle names, and now reads as written.
    fn wrote(&mut self, wrote: Vec<Wrote>) {
        for (handle, before, after) in wrote {
            let Some(at) = self.position(handle) else {
                continue;
            };
            if self.contents && self.live[at].1.text != before {
                let name = self.name(handle);
                self.fail(format!(
                    "the write to {name} reached {}, expected {}",
                    before.as_deref().unwrap_or("?"),
                    self.live[at].1.text.as_deref().unwrap_or("?")
                ));
            }
            self.live[at].1.text = after;
        }
    }
}

/// The pool agrees with the model.
fn check<T, P: ExhaustionPolicy<T>>(
    test: &PoolTest<T>,
    pool: &Tested<T, P>,
    model: &mut Model,
) -> Result<(), String> {
    if let Some(error) = model.error.take() {
        return Err(error);
    }
    if let Some((seen, text)) = model
        .harness
        .seen
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .pop_front()
    {
        return Err(format!(
            "a hook saw {seen:?} of {text}, which the model did not expect"
        ));
    }
    let mut expected = model.stats;
    (expected.live, expected.idle, expected.total) =
        (model.live.len(), model.idle.len(), model.total());
    let stats = pool.stats();
    if stats != expected {
        return Err(format!("statistics {stats:?}, expected {expected:?}"));
    }
    if !P::KEEPS_ORDER {
        model.live.sort_by_key(|(handle, _)| slot(*handle));
    }
    let live: Vec<Handle> = pool.iter().map(|(handle, _)| handle).collect();
    let expected_live: Vec<Handle> = model.live.iter().map(|(h, _)| *h).collect();
    if live != expected_live {
        return Err(String::from(if P::KEEPS_ORDER {
            "the live objects are not the model's, oldest first"
        } else {
            "the live objects are not the model's, by slot"
        }));
    }
    if let Some(show) = test.show {
        for (handle, object) in &model.live {
            let text = pool.get(*handle).map(show);
            if text != object.text {
                return Err(format!(
                    "{} holds {}, expected {}",
                    model.name(*handle),
                    text.as_deref().unwrap_or("nothing"),
                    object.text.as_deref().unwrap_or("?")
                ));
            }
        }
    }
    if P::KEEPS_ORDER {
        if (pool.oldest(), pool.newest()) != (live.first().copied(), live.last().copied()) {
            return Err(String::from("oldest and newest are not the model's"));
        }
        for pair in live.windows(2) {
            if pool.newer(pair[0]) != Some(pair[1]) {
                return Err(format!(
                    "newer({}) is not {}",
                    model.name(pair[0]),
                    model.name(pair[1])
                ));
            }
        }
    } else if (pool.oldest(), pool.newest()) != (None, None) {
        return Err(String::from(
            "a pool that keeps no order named its oldest or newest",
        ));
    }
    if let Some(newest) = live.last()
        && pool.newer(*newest).is_some()
    {
        return Err(String::from("the newest live object has a newer one"));
    }
    let mut places: Vec<usize> = pool.iter().map(|(_, o)| o as *const T as usize).collect();
    places.sort_unstable();
    places.dedup();
    if places.len() != live.len() {
        return Err(String::from("two live handles reach the same object"));
    }
    for handle in &model.handed {
        if !model.is_live(*handle)
            && (pool.contains(*handle)
                || pool.get(*handle).is_some()
                || pool.newer(*handle).is_some())
        {
            return Err(format!(
                "{} is stale but reaches an object",
                model.name(*handle)
            ));
        }
    }
    let actual = model.harness.calls.read();
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

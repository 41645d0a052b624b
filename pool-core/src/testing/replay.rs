//! The replay of one case: the pool built from the test's parts and the model
//! side by side, a step at a time, compared after each; then the pool dropped,
//! and what its destroy hook saw compared with what the model holds.

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use core::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Mutex, Once};

use super::check::check;
use super::model::{DESTROY, Model, Object};
use super::steps::apply;
use super::{Case, Choice, Harness, Planned, PoolTest, Step, Tested, build};
use crate::{ExhaustionPolicy, Handle};

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
pub(super) fn attempt<R>(f: impl FnOnce() -> R) -> Result<Option<R>, String> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => Ok(Some(result)),
        Err(payload) if payload.is::<Planned>() => Ok(None),
        Err(payload) => Err(format!("user code panicked: {}", message(&*payload))),
    }
}

pub(super) fn lock(choice: &Mutex<Option<Choice>>) -> std::sync::MutexGuard<'_, Option<Choice>> {
    choice.lock().unwrap_or_else(|e| e.into_inner())
}

/// The slot of a handle: what a pool that keeps no order iterates by.
pub(super) fn slot(handle: Handle) -> usize {
    handle.index()
}

pub(super) fn address<T>(object: Option<&T>) -> Option<usize> {
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
    let mut model = Model::new(test, case, &harness);
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
        let result = result.and_then(|panicked| as_planned(step, panicked, &model, &mut said));
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
    dropped(pool, &mut model, &harness)
}

/// The pool raised the planned panic exactly when the model says the planned
/// code ran; `said` tells which.
fn as_planned(step: &Step, panicked: bool, model: &Model, said: &mut String) -> Result<(), String> {
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
}

/// Drops the pool: it destroys every object it holds, in no particular order,
/// each through the destroy hook.
fn dropped<T, P: ExhaustionPolicy<T>>(
    pool: Tested<T, P>,
    model: &mut Model,
    harness: &Harness,
) -> Result<(), String> {
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

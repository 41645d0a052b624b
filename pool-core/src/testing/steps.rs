//! One step of a case, applied to the pool and to the model: a function per
//! operation, each returning whether the pool raised the planned panic.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use std::sync::Mutex;

use super::model::{Model, RECYCLED};
use super::replay::{address, attempt, lock, slot};
use super::{Choice, Op, Pick, PoolTest, Tested, UserCode};
use crate::{AcquireError, Acquired, ExhaustionPolicy, Handle, StaleHandle};

/// Applies `op` to the pool and to the model; returns whether the pool raised
/// the planned panic.
pub(super) fn apply<T: 'static, P: ExhaustionPolicy<T>>(
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
    match op {
        Op::Acquire => acquire(pool, model, choice, said),
        Op::Release(pick) => release(pool, model, pick, said),
        Op::Renew(pick) => renew(pool, model, pick, said),
        Op::Get(pick) => get(pool, model, pick, said),
        Op::Write(pick, value) => write_one(test, pool, model, (pick, value), said),
        Op::WriteTwo(first, second, value) => {
            write_two(test, pool, model, (first, second, value), said)
        }
        Op::ForEach(value) | Op::IterMut(value) => write_all(test, pool, model, op, value, said),
        Op::Reclaim(mask) => reclaim(pool, model, mask, said),
        Op::Reinitialize => reinitialize(pool, model, said),
        Op::Clear(include_live) => clear(pool, model, include_live, said),
        Op::TrimIdle(keep) => trim_idle(pool, model, keep, said),
        Op::PrewarmStep(budget) => prewarm_step(pool, model, budget, said),
        Op::RetainIdle(mask) => retain_idle(pool, model, mask, said),
        Op::Foreign(pick) => foreign(pool, model, pick, said),
    }
}

/// `try_acquire_detailed`, and the model's acquire: an idle object, a new
/// one, or the policy's choice on a full pool.
fn acquire<T: 'static, P: ExhaustionPolicy<T>>(
    pool: &mut Tested<T, P>,
    model: &mut Model,
    choice: &Mutex<Option<Choice>>,
    said: &mut String,
) -> Result<bool, String> {
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
        acquire_full(pool, model, &choice, got, said)?;
        choice
            .verdict
            .map_err(|reason| format!("the policy broke the expected rule: {reason}"))?;
    }
    if let Some(handle) = handle.filter(|h| model.is_live(*h))
        && said.as_str() == "acquire"
    {
        *said = format!("acquire -> {}", model.name(handle));
    }
    Ok(got.is_none())
}

/// An acquire on a full pool, after the policy chose (or refused): the
/// victim was live, reset and handed out again, or the request was refused.
fn acquire_full<T: 'static, P: ExhaustionPolicy<T>>(
    pool: &Tested<T, P>,
    model: &mut Model,
    choice: &Choice,
    got: Option<Result<Acquired<Handle>, AcquireError>>,
    said: &mut String,
) -> Result<(), String> {
    let handle = got.and_then(|r| r.ok()).map(|a| a.handle);
    let recycled = got.and_then(|r| r.ok()).map(|a| a.recycled);
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
                return Err(format!("the policy refused but the pool returned {got:?}"));
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
    Ok(())
}

/// `release` of a live or a stale handle.
fn release<T: 'static, P: ExhaustionPolicy<T>>(
    pool: &mut Tested<T, P>,
    model: &mut Model,
    pick: Pick,
    said: &mut String,
) -> Result<bool, String> {
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
        None => refused_stale(model, "release", handle, result.map(|r| r.err()), said)?,
    }
    Ok(result.is_none())
}

/// `renew` of a live or a stale handle.
fn renew<T: 'static, P: ExhaustionPolicy<T>>(
    pool: &mut Tested<T, P>,
    model: &mut Model,
    pick: Pick,
    said: &mut String,
) -> Result<bool, String> {
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
                    *said = format!("renew {} -> {}", model.name(handle), model.name(renewed));
                    if address(pool.get(renewed)) != before {
                        return Err(String::from("renew handed out another object"));
                    }
                }
            }
        }
        None => refused_stale(model, "renew", handle, result.map(|r| r.err()), said)?,
    }
    Ok(result.is_none())
}

/// `call` was given a stale `handle` and answered `refusal` (`None`: it
/// panicked): it must have refused it as stale, counted.
fn refused_stale(
    model: &mut Model,
    call: &str,
    handle: Handle,
    refusal: Option<Option<StaleHandle>>,
    said: &mut String,
) -> Result<(), String> {
    *said = format!("{call} {} (stale)", model.name(handle));
    if refusal != Some(Some(StaleHandle)) {
        return Err(String::from("a stale handle was accepted"));
    }
    model.stats.stale_handle_uses += 1;
    Ok(())
}

/// `get` and `contains`.
fn get<T: 'static, P: ExhaustionPolicy<T>>(
    pool: &Tested<T, P>,
    model: &Model,
    pick: Pick,
    said: &mut String,
) -> Result<bool, String> {
    let Some(handle) = model.pick(pick) else {
        return Ok(false);
    };
    *said = format!("get {}", model.name(handle));
    let live = model.is_live(handle);
    if pool.get(handle).is_some() != live || pool.contains(handle) != live {
        return Err(format!("get and contains disagree with liveness ({live})"));
    }
    Ok(false)
}

/// `get_mut`, then a write.
fn write_one<T: 'static, P: ExhaustionPolicy<T>>(
    test: &PoolTest<T>,
    pool: &mut Tested<T, P>,
    model: &mut Model,
    (pick, value): (Pick, u32),
    said: &mut String,
) -> Result<bool, String> {
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
    Ok(false)
}

/// `get_disjoint_mut` of two handles, then a write to each.
fn write_two<T: 'static, P: ExhaustionPolicy<T>>(
    test: &PoolTest<T>,
    pool: &mut Tested<T, P>,
    model: &mut Model,
    (first, second, value): (Pick, Pick, u32),
    said: &mut String,
) -> Result<bool, String> {
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
    Ok(false)
}

/// `for_each_mut` or `iter_mut`, writing to every live object.
fn write_all<T: 'static, P: ExhaustionPolicy<T>>(
    test: &PoolTest<T>,
    pool: &mut Tested<T, P>,
    model: &mut Model,
    op: Op,
    value: u32,
    said: &mut String,
) -> Result<bool, String> {
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
    Ok(false)
}

/// `reclaim` of the live objects at the set bits of `mask`.
fn reclaim<T: 'static, P: ExhaustionPolicy<T>>(
    pool: &mut Tested<T, P>,
    model: &mut Model,
    mask: u64,
    said: &mut String,
) -> Result<bool, String> {
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
    Ok(released.is_none())
}

/// `reinitialize`.
fn reinitialize<T: 'static, P: ExhaustionPolicy<T>>(
    pool: &mut Tested<T, P>,
    model: &mut Model,
    said: &mut String,
) -> Result<bool, String> {
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
    Ok(done.is_none())
}

/// `clear` or `clear_idle`.
fn clear<T: 'static, P: ExhaustionPolicy<T>>(
    pool: &mut Tested<T, P>,
    model: &mut Model,
    include_live: bool,
    said: &mut String,
) -> Result<bool, String> {
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
    Ok(done.is_none())
}

/// `trim_idle`.
fn trim_idle<T: 'static, P: ExhaustionPolicy<T>>(
    pool: &mut Tested<T, P>,
    model: &mut Model,
    keep: usize,
    said: &mut String,
) -> Result<bool, String> {
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
    Ok(dropped.is_none())
}

/// `retain_idle`: the model drops the same idle objects, top of the stack
/// first, and keeps the others in their order.
fn retain_idle<T: 'static, P: ExhaustionPolicy<T>>(
    pool: &mut Tested<T, P>,
    model: &mut Model,
    mask: u64,
    said: &mut String,
) -> Result<bool, String> {
    let dropping = |at: usize| mask >> (at % 64) & 1 == 1;
    let mut visited = 0;
    let dropped = attempt(|| {
        pool.retain_idle(|_| {
            visited += 1;
            !dropping(visited - 1)
        })
    })?;
    *said = format!("retain_idle({mask:#x})");
    if dropped.is_some() && visited != model.idle.len() {
        return Err(format!(
            "retain_idle visited {visited} idle objects, the model has {}",
            model.idle.len()
        ));
    }
    let mut expected = 0;
    let mut kept = Vec::new();
    let mut from_top = 0;
    while let Some(object) = model.idle.pop() {
        from_top += 1;
        if !dropping(from_top - 1) {
            kept.push(object);
            continue;
        }
        expected += 1;
        if !model.destroy(object) {
            break;
        }
    }
    kept.reverse();
    let rest = core::mem::take(&mut model.idle);
    model.idle = rest.into_iter().chain(kept).collect();
    if let Some(dropped) = dropped {
        *said = format!("retain_idle({mask:#x}) -> {dropped}");
        if dropped != expected {
            return Err(format!(
                "retain_idle dropped {dropped}, expected {expected}"
            ));
        }
    }
    Ok(dropped.is_none())
}

/// `prewarm_step`.
fn prewarm_step<T: 'static, P: ExhaustionPolicy<T>>(
    pool: &mut Tested<T, P>,
    model: &mut Model,
    budget: usize,
    said: &mut String,
) -> Result<bool, String> {
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
    Ok(missing.is_none())
}

/// Another pool's handle, given to every call that takes a handle: each
/// refuses it, and those that count a stale handle count it. No user code runs.
fn foreign<T: 'static, P: ExhaustionPolicy<T>>(
    pool: &mut Tested<T, P>,
    model: &mut Model,
    pick: Pick,
    said: &mut String,
) -> Result<bool, String> {
    let handle = model.foreign.handle(pick);
    *said = format!("another pool's handle to slot {}", handle.index());
    let own = model.live.first().map(|(h, _)| *h);
    let mut reached = Vec::new();
    if pool.get(handle).is_some() || pool.contains(handle) {
        reached.push("get or contains");
    }
    if attempt(|| pool.get_mut(handle).is_some())? != Some(false) {
        reached.push("get_mut");
    }
    if attempt(|| pool.try_get_mut(handle).is_ok())? != Some(false) {
        reached.push("try_get_mut");
    }
    let pair = own.map_or([handle, handle], |own| [own, handle]);
    if attempt(|| pool.get_disjoint_mut(pair).is_some())? != Some(false) {
        reached.push("get_disjoint_mut");
    }
    if attempt(|| pool.release(handle))? != Some(Err(StaleHandle)) {
        reached.push("release");
    }
    if attempt(|| pool.renew(handle))? != Some(Err(StaleHandle)) {
        reached.push("renew");
    }
    if pool.next_in_order(handle).is_some() {
        reached.push("newer");
    }
    if !reached.is_empty() {
        return Err(format!(
            "another pool's handle reached an object through {}",
            reached.join(", ")
        ));
    }
    model.stats.stale_handle_uses += 5;
    Ok(false)
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

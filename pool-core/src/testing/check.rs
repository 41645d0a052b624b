//! What must hold after every step: the pool agrees with the model.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::model::Model;
use super::replay::slot;
use super::{PoolTest, Tested};
use crate::{ExhaustionPolicy, Handle};

/// The pool agrees with the model.
pub(super) fn check<T, P: ExhaustionPolicy<T>>(
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
    let live = live_objects(test, pool, model)?;
    order(pool, model, &live)?;
    handles(pool, model, &live)?;
    calls(model)
}

/// The live objects are the model's, in the pool's order and (with
/// `check_contents`) holding what the model says; returns their handles.
fn live_objects<T, P: ExhaustionPolicy<T>>(
    test: &PoolTest<T>,
    pool: &Tested<T, P>,
    model: &mut Model,
) -> Result<Vec<Handle>, String> {
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
    Ok(live)
}

/// The order queries (`oldest`, `newest`, `newer`) walk `live`, the live
/// objects in the pool's order; a pool that keeps no order answers none.
fn order<T, P: ExhaustionPolicy<T>>(
    pool: &Tested<T, P>,
    model: &Model,
    live: &[Handle],
) -> Result<(), String> {
    if P::KEEPS_ORDER {
        if (pool.first_in_order(), pool.last_in_order())
            != (live.first().copied(), live.last().copied())
        {
            return Err(String::from("oldest and newest are not the model's"));
        }
        for pair in live.windows(2) {
            if pool.next_in_order(pair[0]) != Some(pair[1]) {
                return Err(format!(
                    "newer({}) is not {}",
                    model.name(pair[0]),
                    model.name(pair[1])
                ));
            }
        }
    } else if (pool.first_in_order(), pool.last_in_order()) != (None, None) {
        return Err(String::from(
            "a pool that keeps no order named its oldest or newest",
        ));
    }
    if let Some(newest) = live.last()
        && pool.next_in_order(*newest).is_some()
    {
        return Err(String::from("the newest live object has a newer one"));
    }
    Ok(())
}

/// No two live handles reach one object, and no stale handle reaches any.
fn handles<T, P: ExhaustionPolicy<T>>(
    pool: &Tested<T, P>,
    model: &Model,
    live: &[Handle],
) -> Result<(), String> {
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
                || pool.next_in_order(*handle).is_some())
        {
            return Err(format!(
                "{} is stale but reaches an object",
                model.name(*handle)
            ));
        }
    }
    Ok(())
}

/// The factory and each hook ran as often as the model says.
fn calls(model: &Model) -> Result<(), String> {
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

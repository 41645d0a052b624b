//! Behaviour of pooled effects, one test per promise.

use pool_effects::{
    AddKindError, DrawList, EffectKind, Effects, FollowUp, KindScaleError, Rgba, SpawnError,
    TimeError,
};
use std::time::Duration;

const FRAME: f64 = 1.0 / 60.0;

#[test]
fn a_one_shot_is_released_exactly_after_frame_count_times_interval() {
    let mut effects = Effects::new();
    // 12 frames of 1/30 s = 0.4 s = 24 game frames of 1/60 s.
    let explosion = effects
        .add_kind(EffectKind::new(
            "explosion",
            12,
            Duration::from_secs_f64(1.0 / 30.0),
        ))
        .unwrap();
    let boom = effects.spawn(explosion, [0.0, 0.0]).unwrap();
    for update in 1..24 {
        effects.update(FRAME).unwrap();
        let effect = effects
            .get(boom)
            .unwrap_or_else(|| panic!("released early, at update {update}"));
        assert_eq!(effect.frame(), update / 2, "frame at update {update}");
        assert!(effects.finished().is_empty());
    }
    effects.update(FRAME).unwrap();
    assert!(
        effects.get(boom).is_none(),
        "not released on the 24th update"
    );
    assert_eq!(effects.finished().len(), 1);
    assert_eq!(effects.stats(explosion).unwrap().finished, 1);
}

#[test]
fn uneven_steps_release_in_the_update_that_reaches_the_end() {
    let mut effects = Effects::new();
    let hit = effects
        .add_kind(EffectKind::new("hit", 3, Duration::from_millis(100)))
        .unwrap();
    let spark = effects.spawn(hit, [0.0, 0.0]).unwrap();
    for dt in [0.07, 0.07, 0.07, 0.07] {
        effects.update(dt).unwrap(); // 0.28 s: still on its last frame
    }
    assert_eq!(effects.get(spark).unwrap().frame(), 2);
    effects.update(0.019).unwrap(); // 0.299 s
    assert!(effects.get(spark).is_some());
    effects.update(0.001).unwrap(); // 0.300 s
    assert!(effects.get(spark).is_none());
}

#[test]
fn loops_never_release_and_stop_ends_them() {
    let mut effects = Effects::new();
    let fire = effects
        .add_kind(EffectKind::new("fire", 4, Duration::from_millis(50)).looping())
        .unwrap();
    let burning = effects.spawn(fire, [0.0, 0.0]).unwrap();
    for update in 0..1000u32 {
        effects.update(FRAME).unwrap();
        let effect = effects.get(burning).expect("a loop never ends on its own");
        assert!(effect.frame() < 4);
        assert!(
            effect.elapsed() < Duration::from_millis(200),
            "elapsed wraps at the cycle ({update})"
        );
    }
    assert!(effects.finished().is_empty());
    effects.stop(burning).unwrap();
    assert!(effects.get(burning).is_none());
    assert!(effects.stop(burning).is_err());
    assert_eq!(effects.stats(fire).unwrap().stopped, 1);
}

#[test]
fn a_large_dt_skips_frames_and_can_end_a_one_shot_in_one_update() {
    let mut effects = Effects::new();
    let slow = effects
        .add_kind(EffectKind::new("slow", 10, Duration::from_millis(100)))
        .unwrap();
    let a = effects.spawn(slow, [0.0, 0.0]).unwrap();
    effects.update(0.75).unwrap();
    assert_eq!(effects.get(a).unwrap().frame(), 7);
    effects.update(10.0).unwrap();
    assert!(effects.get(a).is_none());
    assert_eq!(effects.finished().len(), 1);
}

#[test]
fn time_scale_stretches_and_pauses_an_effect() {
    let mut effects = Effects::new();
    let hit = effects
        .add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)))
        .unwrap();
    let half = effects.spawn(hit, [0.0, 0.0]).unwrap();
    let paused = effects.spawn(hit, [0.0, 0.0]).unwrap();
    effects.get_mut(half).unwrap().set_time_scale(0.5).unwrap();
    effects
        .get_mut(paused)
        .unwrap()
        .set_time_scale(0.0)
        .unwrap();
    effects.update(0.2).unwrap();
    assert_eq!(effects.get(half).unwrap().frame(), 1);
    assert_eq!(effects.get(paused).unwrap().elapsed(), Duration::ZERO);
    effects.update(0.2).unwrap();
    assert!(effects.get(half).is_none());
    assert!(effects.get(paused).is_some());
    let err = effects
        .get_mut(paused)
        .unwrap()
        .set_time_scale(-1.0)
        .unwrap_err();
    assert_eq!(err, TimeError::Negative(-1.0));
    assert_eq!(
        effects.get(paused).unwrap().time_scale(),
        0.0,
        "unchanged by the bad value"
    );
}

#[test]
fn a_bad_dt_is_rejected_without_touching_any_effect() {
    let mut effects = Effects::new();
    let hit = effects
        .add_kind(EffectKind::new("hit", 1, Duration::from_millis(100)))
        .unwrap();
    let spark = effects.spawn(hit, [0.0, 0.0]).unwrap();
    effects.update(0.1).unwrap();
    let other = effects.spawn(hit, [0.0, 0.0]).unwrap();
    effects.update(0.05).unwrap();
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.01] {
        assert!(effects.update(bad).is_err());
    }
    assert_eq!(
        effects.get(other).unwrap().elapsed(),
        Duration::from_millis(50)
    );
    assert_eq!(
        effects.finished().len(),
        0,
        "events of the last good update stay"
    );
    assert!(effects.get(spark).is_none());
}

#[test]
fn handles_go_stale_after_finishing_stopping_recycling_and_destroying() {
    let mut effects = Effects::new();
    let hit = effects
        .add_kind(EffectKind::new("hit", 1, Duration::from_millis(100)).pool(0, 2))
        .unwrap();
    let finished = effects.spawn(hit, [0.0, 0.0]).unwrap();
    effects.update(0.1).unwrap();
    let stopped = effects.spawn(hit, [0.0, 0.0]).unwrap();
    effects.stop(stopped).unwrap();
    let oldest = effects.spawn(hit, [0.0, 0.0]).unwrap();
    let younger = effects.spawn(hit, [0.0, 0.0]).unwrap();
    let newest = effects.spawn(hit, [0.0, 0.0]).unwrap(); // full: recycles `oldest`
    let destroyed = younger;
    effects.destroy_kind(hit).unwrap();
    for handle in [finished, stopped, oldest, destroyed, newest] {
        assert!(effects.get(handle).is_none());
        assert!(effects.stop(handle).is_err());
    }
    assert_eq!(effects.stats(hit).unwrap().pool.recycles, 1);
}

#[test]
fn a_full_pool_recycles_the_effect_closest_to_its_end() {
    let mut effects = Effects::new();
    let hit = effects
        .add_kind(EffectKind::new("hit", 10, Duration::from_millis(100)).pool(0, 3))
        .unwrap();
    let first = effects.spawn(hit, [0.0, 0.0]).unwrap();
    effects.update(0.3).unwrap();
    let second = effects.spawn(hit, [0.0, 0.0]).unwrap();
    effects.update(0.3).unwrap();
    let third = effects.spawn(hit, [0.0, 0.0]).unwrap();
    let fourth = effects.spawn(hit, [0.0, 0.0]).unwrap();
    assert!(effects.get(first).is_none(), "the first is nearest its end");
    for handle in [second, third, fourth] {
        assert!(effects.get(handle).is_some());
    }
    assert_eq!(
        effects.get(fourth).unwrap().frame(),
        0,
        "a recycled instance starts over"
    );
}

#[test]
fn a_full_strict_kind_refuses() {
    let mut effects = Effects::new();
    let aura = effects
        .add_kind(
            EffectKind::new("aura", 4, Duration::from_millis(100))
                .pool(1, 1)
                .strict(),
        )
        .unwrap();
    let kept = effects.spawn(aura, [0.0, 0.0]).unwrap();
    assert!(
        matches!(effects.spawn(aura, [0.0, 0.0]), Err(SpawnError::PoolFull { kind, .. }) if kind == aura)
    );
    assert!(effects.get(kept).is_some());
    assert_eq!(effects.stats(aura).unwrap().pool.refusals, 1);
}

#[test]
fn invalid_kinds_are_typed_errors_and_add_nothing() {
    let mut effects = Effects::new();
    effects
        .add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)))
        .unwrap();
    let cases = [
        (
            EffectKind::new("hit", 2, Duration::from_millis(100)),
            "already added",
        ),
        (
            EffectKind::new("none", 0, Duration::from_millis(100)),
            "no frames",
        ),
        (
            EffectKind::new("zero", 2, Duration::from_millis(0)),
            "frame interval 0",
        ),
        (
            EffectKind::new("tiny", 2, Duration::from_secs_f64(1e-9)),
            "frame interval",
        ),
        (
            EffectKind::new("long", 2, pool_effects::MAX_DURATION),
            "all frames at most 71 minutes",
        ),
        (
            EffectKind::new("pool", 2, Duration::from_millis(100)).pool(5, 4),
            "exceeds max_objects",
        ),
        (
            EffectKind::new("empty", 2, Duration::from_millis(100)).pool(0, 0),
            "max_objects is 0",
        ),
    ];
    for (kind, message) in cases {
        let name = kind.name.clone();
        let err = effects.add_kind(kind).unwrap_err();
        assert!(err.to_string().contains(message), "{name}: {err}");
        if name != "hit" {
            assert_eq!(effects.kind(&name), None, "{name} must not be added");
        }
    }
    assert!(matches!(
        effects.add_kind(EffectKind::new("hit", 1, Duration::from_millis(100))),
        Err(AddKindError::DuplicateName(name)) if name == "hit"
    ));
    assert_eq!(effects.kinds().len(), 1);
}

#[test]
fn the_draw_list_is_sorted_by_layer_then_spawn_order_across_kinds() {
    let mut effects = Effects::new();
    let smoke = effects
        .add_kind(EffectKind::new("smoke", 50, Duration::from_millis(100)).layer(0))
        .unwrap();
    let fire = effects
        .add_kind(EffectKind::new("fire", 50, Duration::from_millis(100)).layer(1))
        .unwrap();
    let sparks = effects
        .add_kind(EffectKind::new("sparks", 50, Duration::from_millis(100)).layer(1))
        .unwrap();
    let glow = effects
        .add_kind(EffectKind::new("glow", 50, Duration::from_millis(100)).layer(-3))
        .unwrap();
    let order = [fire, smoke, sparks, sparks, fire, glow, smoke, fire];
    let mut handles = Vec::new();
    for (i, kind) in order.iter().enumerate() {
        let handle = effects.spawn(*kind, [i as f32, 0.0]).unwrap();
        effects.get_mut(handle).unwrap().tint = Rgba {
            r: i as f32,
            ..Rgba::WHITE
        };
        handles.push(handle);
    }
    effects.stop(handles[3]).unwrap();
    let drawn: Vec<(i32, f32)> = DrawList::new()
        .fill(&effects)
        .iter()
        .map(|d| (d.layer, d.position.x))
        .collect();
    assert_eq!(
        drawn,
        [
            (-3, 5.0),
            (0, 1.0),
            (0, 6.0),
            (1, 0.0),
            (1, 2.0),
            (1, 4.0),
            (1, 7.0)
        ]
    );
    let item = DrawList::new().fill(&effects)[3];
    assert_eq!(
        (item.kind, item.handle, item.tint.r),
        (fire, handles[0], 0.0)
    );
}

#[test]
fn finished_events_carry_tag_and_position_and_last_one_update() {
    let mut effects = Effects::new();
    let hit = effects
        .add_kind(EffectKind::new("hit", 1, Duration::from_millis(100)))
        .unwrap();
    let a = effects.spawn(hit, [1.0, 2.0]).unwrap();
    effects.get_mut(a).unwrap().tag = 99;
    effects.update(0.1).unwrap();
    let events = effects.finished();
    assert_eq!(events.len(), 1);
    assert_eq!(
        (events[0].handle, events[0].tag, events[0].position.y),
        (a, 99, 2.0)
    );
    effects.update(0.1).unwrap();
    assert!(effects.finished().is_empty());
}

#[test]
fn kinds_prewarm_in_steps_and_reinitialize_to_their_initial_size() {
    let mut effects = Effects::new();
    let kinds: Vec<_> = ["explosion", "bite", "spark"]
        .iter()
        .map(|name| {
            effects
                .add_kind_lazy(
                    EffectKind::new(*name, 8, Duration::from_millis(50)).pool(1000, 1000),
                )
                .unwrap()
        })
        .collect();
    assert_eq!(
        effects.prewarm_kind_step(kinds[2], 100),
        Ok(900),
        "one kind alone"
    );
    assert_eq!(effects.prewarm_step(1200), 1700);
    assert_eq!(effects.stats(kinds[1]).unwrap().pool.total, 200);
    assert_eq!(effects.stats(kinds[2]).unwrap().pool.total, 100);
    while effects.prewarm_step(1200) > 0 {}
    for _ in 0..10 {
        effects.spawn(kinds[2], [0.0, 0.0]).unwrap();
    }
    effects.clear_idle();
    assert_eq!(effects.stats(kinds[2]).unwrap().pool.total, 10);
    effects.reinitialize();
    for kind in kinds {
        let pool = effects.stats(kind).unwrap().pool;
        assert_eq!((pool.live, pool.idle), (0, 1000));
    }
    assert_eq!(effects.live_count(), 0);
}

/// One of the spawn calls, at a place.
type SpawnAt<'a> = dyn Fn(&mut Effects, [f32; 2]) -> Result<(), SpawnError> + 'a;

#[test]
fn a_spawn_at_a_place_that_is_not_finite_is_refused_and_changes_nothing() {
    let mut effects = Effects::new();
    let hit = effects
        .add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)).pool(2, 2))
        .unwrap();
    let inf = f32::INFINITY;
    let places = [
        [f32::NAN, 0.0],
        [0.0, f32::NAN],
        [inf, 0.0],
        [0.0, -inf],
        [f32::NAN, inf],
    ];
    // Each entry point that takes a position: the plain, lending, offset and
    // by-name spawns.
    let spawns: [&SpawnAt<'_>; 4] = [
        &|e, at| e.spawn(hit, at).map(drop),
        &|e, at| e.spawn_mut(hit, at).map(drop),
        &|e, at| e.spawn_offset(hit, at, Duration::from_millis(10)).map(drop),
        &|e, at| e.spawn_named("hit", at).map(drop),
    ];
    for spawn in spawns {
        for at in places {
            let refused = spawn(&mut effects, at).unwrap_err();
            let SpawnError::BadPosition(given) = refused else {
                panic!("{at:?}: {refused:?}");
            };
            assert_eq!(given.x.to_bits(), at[0].to_bits(), "the place given");
            assert_eq!(given.y.to_bits(), at[1].to_bits(), "the place given");
            assert!(refused.to_string().contains("not finite"), "{refused}");
        }
    }
    let stats = effects.stats(hit).unwrap();
    assert_eq!((stats.spawns, stats.pool.live, stats.pool.idle), (0, 0, 2));
    // Nothing moved on: the next spawn is the first.
    let first = effects.spawn(hit, [1.0, 2.0]).unwrap();
    assert_eq!(effects.get(first).unwrap().spawn_order(), 0);
    // The largest finite coordinates are places like any other.
    assert!(effects.spawn(hit, [f32::MAX, f32::MIN]).is_ok());
}

#[test]
fn by_name_conveniences_resolve_and_reject() {
    let mut effects = Effects::new();
    let hit = effects
        .add_kind(EffectKind::new("hit", 1, Duration::from_millis(100)))
        .unwrap();
    assert_eq!(effects.spawn_named("hit", [0.0, 0.0]).unwrap().kind(), hit);
    assert_eq!(
        effects.spawn_named("miss", [0.0, 0.0]),
        Err(SpawnError::UnknownName("miss".into()))
    );
    let mut other = Effects::new();
    other
        .add_kind(EffectKind::new("a", 1, Duration::from_millis(100)))
        .unwrap();
    let foreign = other
        .add_kind(EffectKind::new("b", 1, Duration::from_millis(100)))
        .unwrap();
    assert_eq!(
        effects.spawn(foreign, [0.0, 0.0]),
        Err(SpawnError::UnknownKind(foreign))
    );
    assert!(effects.destroy_kind(foreign).is_err());
}

#[test]
fn effects_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Effects>();
    assert_send_sync::<pool_effects::EffectHandle>();
}

#[test]
fn a_kind_capped_at_the_largest_cap_costs_what_it_uses() {
    // Defining it once asked for room for every possible instance: 64 GiB, and
    // the process aborted.
    let mut effects = Effects::new();
    let swarm = effects
        .add_kind(
            EffectKind::new("swarm", 3, Duration::from_millis(50))
                .pool(0, pool_effects::MAX_OBJECTS_LIMIT),
        )
        .unwrap();
    let dust = effects
        .add_kind(EffectKind::new("dust", 3, Duration::from_millis(50)).pool(16, 100_000_000))
        .unwrap();
    for i in 0..1000 {
        effects.spawn(swarm, [i as f32, 0.0]).unwrap();
    }
    effects.spawn(dust, [0.0, 0.0]).unwrap();
    effects.update(FRAME).unwrap();
    assert_eq!(DrawList::new().fill(&effects).len(), 1001);
    assert_eq!(effects.stats(swarm).unwrap().pool.total, 1000);
    assert_eq!(effects.stats(dust).unwrap().pool.total, 16);
}

#[test]
fn ids_and_handles_of_another_effects_are_refused() {
    let mut a = Effects::new();
    let mut b = Effects::new();
    let hit_a = a
        .add_kind(EffectKind::new("hit", 4, Duration::from_millis(100)))
        .unwrap();
    let puff_b = b
        .add_kind(EffectKind::new("puff", 4, Duration::from_millis(100)))
        .unwrap();
    assert_eq!(hit_a.index(), puff_b.index());
    assert_eq!(
        b.spawn(hit_a, [0.0, 0.0]).unwrap_err(),
        SpawnError::UnknownKind(hit_a)
    );
    assert!(b.definition(hit_a).is_none() && b.stats(hit_a).is_none());
    assert!(b.destroy_kind(hit_a).is_err());
    let in_a = a.spawn(hit_a, [0.0, 0.0]).unwrap();
    let in_b = b.spawn(puff_b, [1.0, 0.0]).unwrap();
    assert!(b.stop(in_a).is_err(), "a's handle cannot stop b's effect");
    assert!(b.get(in_b).is_some() && a.get(in_a).is_some());
    assert!(b.get(in_a).is_none());
}

#[test]
fn a_follow_up_starts_in_the_same_update_where_and_as_the_first_ended() {
    let mut effects = Effects::new();
    // The follow-up is named before it exists: it resolves when it is added.
    let boom = effects
        .add_kind(EffectKind::new("explosion", 8, Duration::from_millis(50)).follow_up("smoke"))
        .unwrap();
    let smoke = effects
        .add_kind(EffectKind::new("smoke", 4, Duration::from_millis(100)).layer(-1))
        .unwrap();
    let first = effects.spawn(boom, [3.0, -2.0]).unwrap();
    let mut effect = effects.get_mut(first).unwrap();
    effect.rotation = 0.5;
    effect.scale = [2.0, 3.0].into();
    effect.tint.a = 0.25;
    effect.tag = 99;
    // 7 frames of 50 ms are 350 ms: still the explosion.
    effects.update(0.35).unwrap();
    assert!(effects.contains(first));
    assert_eq!(effects.live_count(), 1);
    // 400 ms: the explosion ends and the smoke starts in the same update.
    effects.update(0.05).unwrap();
    assert!(!effects.contains(first));
    let done = effects.finished()[0];
    let FollowUp::Spawned(puff) = done.follow_up else {
        panic!("no follow-up: {:?}", done.follow_up)
    };
    assert_eq!(puff.kind(), smoke);
    let puff_effect = effects.get(puff).unwrap();
    assert_eq!(
        (puff_effect.position.x, puff_effect.position.y),
        (3.0, -2.0)
    );
    assert_eq!(
        (
            puff_effect.rotation,
            puff_effect.scale.y,
            puff_effect.tint.a,
            puff_effect.tag
        ),
        (0.5, 3.0, 0.25, 99)
    );
    assert_eq!(
        (puff_effect.frame(), puff_effect.elapsed()),
        (0, Duration::ZERO)
    );
    // It is drawn in this frame, on its own kind's layer.
    let mut draw = DrawList::new();
    let items = draw.fill(&effects);
    assert_eq!((items.len(), items[0].layer), (1, -1));
    // It runs its own 4 frames of 100 ms, then ends with no follow-up.
    effects.update(0.39).unwrap();
    assert!(effects.contains(puff));
    effects.update(0.01).unwrap();
    assert!(!effects.contains(puff));
    assert_eq!(effects.finished()[0].follow_up, FollowUp::None);
    let stats = effects.stats(boom).unwrap();
    assert_eq!((stats.follow_ups, stats.follow_ups_refused), (1, 0));
    assert_eq!(effects.stats(smoke).unwrap().spawns, 1);
}

#[test]
fn a_stopped_effect_and_a_loop_do_not_chain_and_an_undefined_follow_up_is_reported() {
    let mut effects = Effects::new();
    let flash = effects
        .add_kind(EffectKind::new("flash", 2, Duration::from_millis(50)).follow_up("spark"))
        .unwrap();
    let fire = effects
        .add_kind(
            EffectKind::new("fire", 2, Duration::from_millis(50))
                .looping()
                .follow_up("flash"),
        )
        .unwrap();
    let stopped = effects.spawn(flash, [0.0, 0.0]).unwrap();
    effects.stop(stopped).unwrap();
    effects.spawn(fire, [0.0, 0.0]).unwrap();
    effects.spawn(flash, [1.0, 0.0]).unwrap();
    effects.update(1.0).unwrap();
    // Only the flash that ran out ended; "spark" is not a kind: undefined, counted.
    assert_eq!(effects.finished().len(), 1);
    assert_eq!(effects.finished()[0].follow_up, FollowUp::Undefined);
    assert_eq!(effects.stats(flash).unwrap().follow_ups_refused, 1);
    assert_eq!(effects.stats(fire).unwrap().follow_ups, 0);
    assert_eq!(effects.live_count(), 1, "the fire loops on");
}

#[test]
fn a_kind_can_follow_itself_one_link_per_update() {
    let mut effects = Effects::new();
    let ripple = effects
        .add_kind(EffectKind::new("ripple", 1, Duration::from_millis(100)).follow_up("ripple"))
        .unwrap();
    effects.spawn(ripple, [0.0, 0.0]).unwrap();
    // However long the step, a chain advances one link per update.
    for _ in 0..5 {
        effects.update(10.0).unwrap();
        assert_eq!(effects.finished().len(), 1);
        assert_eq!(effects.live_count(), 1);
    }
    assert_eq!(effects.stats(ripple).unwrap().follow_ups, 5);
}

#[test]
fn take_finished_lets_the_game_spawn_while_it_reads() {
    let mut effects = Effects::new();
    let hit = effects
        .add_kind(EffectKind::new("hit", 1, Duration::from_millis(100)))
        .unwrap();
    let ring = effects
        .add_kind(EffectKind::new("ring", 4, Duration::from_millis(100)))
        .unwrap();
    for x in 0..3 {
        effects.spawn(hit, [x as f32, 0.0]).unwrap();
    }
    effects.update(0.1).unwrap();
    let mut done = vec![];
    effects.take_finished(&mut done);
    assert!(effects.finished().is_empty());
    for finished in &done {
        effects.spawn(ring, finished.position).unwrap();
    }
    assert_eq!(effects.stats(ring).unwrap().pool.live, 3);
    // The next update fills the list again; a second take clears `done` first.
    effects.update(0.4).unwrap();
    effects.take_finished(&mut done);
    assert_eq!(done.len(), 3);
    assert!(done.iter().all(|f| f.kind == ring));
}

/// An 8-frame one-shot of 50 ms ends at 400 ms; at double speed (kind, global
/// or its own scale) at 200 ms; the scales multiply.
#[test]
fn time_scales_per_kind_global_and_per_effect_multiply() {
    let ends_at = |kind_scale: f32, global: f32, own: f32| {
        let mut effects = Effects::new();
        let boom = effects
            .add_kind(EffectKind::new("boom", 8, Duration::from_millis(50)).time_scale(kind_scale))
            .unwrap();
        effects.set_time_scale(global).unwrap();
        let handle = effects.spawn(boom, [0.0, 0.0]).unwrap();
        effects
            .get_mut(handle)
            .unwrap()
            .set_time_scale(own)
            .unwrap();
        let mut ms = 0;
        while effects.contains(handle) {
            effects.update(0.001).unwrap();
            ms += 1;
            assert!(ms < 10_000, "never ended");
        }
        ms
    };
    assert_eq!(ends_at(1.0, 1.0, 1.0), 400);
    assert_eq!(ends_at(2.0, 1.0, 1.0), 200);
    assert_eq!(ends_at(1.0, 2.0, 1.0), 200);
    assert_eq!(ends_at(1.0, 1.0, 2.0), 200);
    assert_eq!(ends_at(2.0, 2.0, 0.5), 200);
    assert_eq!(ends_at(0.5, 1.0, 1.0), 800);
}

#[test]
fn a_paused_kind_holds_while_the_others_play_on() {
    let mut effects = Effects::new();
    let smoke = effects
        .add_kind(EffectKind::new("smoke", 4, Duration::from_millis(100)))
        .unwrap();
    let spark = effects
        .add_kind(EffectKind::new("spark", 4, Duration::from_millis(100)))
        .unwrap();
    let puff = effects.spawn(smoke, [0.0, 0.0]).unwrap();
    let flash = effects.spawn(spark, [0.0, 0.0]).unwrap();
    effects.set_kind_time_scale(smoke, 0.0).unwrap();
    effects.update(0.25).unwrap();
    assert_eq!(effects.get(puff).unwrap().frame(), 0);
    assert_eq!(effects.get(flash).unwrap().frame(), 2);
    effects.set_kind_time_scale(smoke, 1.0).unwrap();
    effects.update(0.1).unwrap();
    assert_eq!(effects.get(puff).unwrap().frame(), 1);
}

#[test]
fn bad_time_scales_are_typed_errors_and_change_nothing() {
    let mut effects = Effects::new();
    for bad in [f32::NAN, f32::INFINITY, -1.0] {
        let refused =
            effects.add_kind(EffectKind::new("x", 2, Duration::from_millis(100)).time_scale(bad));
        assert!(
            matches!(refused, Err(AddKindError::BadTimeScale { .. })),
            "{refused:?}"
        );
    }
    assert_eq!(effects.kinds().len(), 0, "nothing added");
    let hit = effects
        .add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)))
        .unwrap();
    effects.set_time_scale(0.5).unwrap();
    assert!(effects.set_time_scale(f32::NAN).is_err());
    assert_eq!(effects.time_scale(), 0.5);
    assert!(matches!(
        effects.set_kind_time_scale(hit, -0.5),
        Err(KindScaleError::Time(_))
    ));
    assert_eq!(effects.kind_time_scale(hit), Some(1.0));
}

#[test]
fn three_spawns_in_one_frame_start_at_their_own_offsets() {
    let mut effects = Effects::new();
    // 8 frames of 50 ms: 400 ms each.
    let shot = effects
        .add_kind(EffectKind::new("shot", 8, Duration::from_millis(50)))
        .unwrap();
    let dt = 0.06;
    let shots = [0, 20, 40].map(|ms| {
        effects
            .spawn_offset(shot, [0.0, 0.0], Duration::from_millis(ms))
            .unwrap()
    });
    effects.update(dt).unwrap();
    let elapsed = shots.map(|s| effects.get(s).unwrap().elapsed().as_millis());
    assert_eq!(elapsed, [60, 40, 20]);
    // Each ends 400 ms after its own start: at 400, 420 and 440 ms.
    let mut ended_at = [0u32; 3];
    for ms in 61..=460u32 {
        effects.update(0.001).unwrap();
        for (at, handle) in shots.iter().enumerate() {
            if ended_at[at] == 0 && !effects.contains(*handle) {
                ended_at[at] = ms;
            }
        }
    }
    assert_eq!(ended_at, [400, 420, 440]);
}

#[test]
fn an_offset_longer_than_the_update_holds_the_effect_on_its_first_frame() {
    let mut effects = Effects::new();
    let flash = effects
        .add_kind(EffectKind::new("flash", 2, Duration::from_millis(10)))
        .unwrap();
    let late = effects
        .spawn_offset(flash, [0.0, 0.0], Duration::from_millis(50))
        .unwrap();
    effects.update(FRAME).unwrap();
    let effect = effects.get(late).unwrap();
    assert_eq!((effect.frame(), effect.elapsed()), (0, Duration::ZERO));
    // Drawn on its first frame while held.
    assert_eq!(DrawList::new().fill(&effects)[0].frame, 0);
    effects.update(FRAME).unwrap();
    effects.update(FRAME).unwrap();
    // Three frames of 16,667 us: the 50 ms ran out 1 us ago.
    assert_eq!(
        effects.get(late).unwrap().elapsed(),
        Duration::from_micros(1)
    );
    effects.update(FRAME).unwrap();
    // 16.7 ms in, frames of 10 ms: the second frame.
    assert_eq!(effects.get(late).unwrap().frame(), 1);
}

#[test]
fn a_bad_spawn_offset_is_refused_before_anything_changes() {
    let mut effects = Effects::new();
    let flash = effects
        .add_kind(EffectKind::new("flash", 2, Duration::from_millis(10)))
        .unwrap();
    for bad in [
        pool_effects::MAX_SPAWN_OFFSET + Duration::from_micros(1),
        Duration::MAX,
    ] {
        let refused = effects.spawn_offset(flash, [0.0, 0.0], bad);
        assert!(
            matches!(refused, Err(SpawnError::BadOffset(_))),
            "{refused:?}"
        );
    }
    assert_eq!(effects.stats(flash).unwrap().spawns, 0);
    assert!(
        effects
            .spawn_offset(flash, [0.0, 0.0], pool_effects::MAX_SPAWN_OFFSET)
            .is_ok()
    );
}

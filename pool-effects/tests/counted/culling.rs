//! Culling: what off-screen effects do in each mode, what the draw list holds,
//! what the stats count, bad views, and a warm frame of a panning camera that
//! allocates nothing.

use pool_effects::{
    AddKindError, DrawList, EffectKind, Effects, FollowUp, Offscreen, View, ViewError,
};
use std::time::Duration;

/// The screen: 0..320 by 0..180.
fn screen() -> View {
    View::new([0.0, 0.0], [320.0, 180.0])
}

/// The screen panned right by `x`.
fn panned(x: f32) -> View {
    View::new([x, 0.0], [x + 320.0, 180.0])
}

#[test]
fn an_effect_paused_and_caught_up_off_screen_shows_the_right_frame_on_return() {
    let mut effects = Effects::new();
    let fire = effects
        .add_kind(
            EffectKind::new("fire", 8, Duration::from_millis(100))
                .looping()
                .offscreen(Offscreen::CatchUp),
        )
        .unwrap();
    let paused = effects
        .add_kind(
            EffectKind::new("torch", 8, Duration::from_millis(100))
                .looping()
                .offscreen(Offscreen::Pause),
        )
        .unwrap();
    effects.set_view(screen()).unwrap();
    let burning = effects.spawn(fire, [500.0, 90.0]).unwrap();
    let torch = effects.spawn(paused, [500.0, 90.0]).unwrap();
    assert_eq!(effects.stats(fire).unwrap().offscreen, 1);
    // 1.25 s off-screen, in 75 frames of 1/60 s: nothing moves.
    for _ in 0..75 {
        effects.update(1.0 / 60.0).unwrap();
    }
    assert_eq!(effects.get(burning).unwrap().frame(), 0);
    assert!(
        DrawList::new().fill(&effects).is_empty(),
        "nothing on screen is drawn"
    );
    // The camera pans to them: the fire has run 1.25 s (a cycle of 0.8 s, then
    // 0.45 s: frame 4); the torch starts where it stopped.
    effects.set_view(panned(300.0)).unwrap();
    assert_eq!(effects.get(burning).unwrap().frame(), 4);
    // 75 steps of 16 667 us: 1.250025 s.
    assert_eq!(
        effects.get(burning).unwrap().elapsed(),
        Duration::from_micros(450_025)
    );
    assert_eq!(effects.get(torch).unwrap().frame(), 0);
    assert_eq!(effects.stats(fire).unwrap().offscreen, 0);
    assert_eq!(DrawList::new().fill(&effects).len(), 2);
    // And both run on from there, as if never culled.
    effects.update(0.1).unwrap();
    assert_eq!(effects.get(burning).unwrap().frame(), 5);
    assert_eq!(effects.get(torch).unwrap().frame(), 1);
}

#[test]
fn a_one_shot_that_would_have_ended_off_screen_ends_in_that_update_and_chains() {
    let mut effects = Effects::new();
    let boom = effects
        .add_kind(
            EffectKind::new("boom", 8, Duration::from_millis(50))
                .offscreen(Offscreen::CatchUp)
                .follow_up("smoke"),
        )
        .unwrap();
    let smoke = effects
        .add_kind(EffectKind::new("smoke", 4, Duration::from_millis(100)))
        .unwrap();
    effects.set_view(screen()).unwrap();
    let far = effects.spawn(boom, [1000.0, 90.0]).unwrap();
    effects.get_mut(far).unwrap().tag = 9;
    // 8 frames of 50 ms: it ends at 400 ms, off-screen, in the update that gets
    // there, with its event and its follow-up.
    for _ in 0..3 {
        effects.update(0.1).unwrap();
        assert!(effects.contains(far));
    }
    effects.update(0.099).unwrap();
    assert!(effects.contains(far), "one millisecond early");
    effects.update(0.001).unwrap();
    assert!(!effects.contains(far));
    let done = effects.finished()[0];
    assert_eq!((done.handle, done.tag, done.position.x), (far, 9, 1000.0));
    let FollowUp::Spawned(puff) = done.follow_up else {
        panic!("{:?}", done.follow_up)
    };
    assert_eq!(puff.kind(), smoke);
    let stats = effects.stats(boom).unwrap();
    assert_eq!(
        (
            stats.finished,
            stats.ended_offscreen,
            stats.offscreen,
            stats.pool.live
        ),
        (1, 1, 0, 0)
    );
}

#[test]
fn an_end_kind_ends_off_screen_effects_at_the_next_update_with_no_event() {
    let mut effects = Effects::new();
    let dust = effects
        .add_kind(
            EffectKind::new("dust", 8, Duration::from_millis(100))
                .looping()
                .offscreen(Offscreen::End),
        )
        .unwrap();
    let near = effects.spawn(dust, [10.0, 10.0]).unwrap();
    let far = effects.spawn(dust, [900.0, 10.0]).unwrap();
    effects.set_view(screen()).unwrap();
    assert!(effects.contains(far), "until the next update");
    effects.update(0.016).unwrap();
    assert!(!effects.contains(far) && effects.contains(near));
    assert!(effects.finished().is_empty());
    let stats = effects.stats(dust).unwrap();
    assert_eq!((stats.culled, stats.stopped, stats.finished), (1, 0, 0));
    // A spawn off-screen goes the same way.
    let late = effects.spawn(dust, [-50.0, 10.0]).unwrap();
    effects.update(0.016).unwrap();
    assert!(!effects.contains(late));
    assert_eq!(effects.stats(dust).unwrap().culled, 2);
}

#[test]
fn simulated_effects_run_off_screen_and_are_not_drawn() {
    let mut effects = Effects::new();
    let spark = effects
        .add_kind(EffectKind::new("spark", 4, Duration::from_millis(100)).cull_radius(8.0))
        .unwrap();
    let far = effects.spawn(spark, [400.0, 10.0]).unwrap();
    let edge = effects.spawn(spark, [325.0, 10.0]).unwrap();
    effects.set_view(screen()).unwrap();
    effects.update(0.25).unwrap();
    assert_eq!(effects.get(far).unwrap().frame(), 2, "it ran");
    let drawn: Vec<_> = DrawList::new()
        .fill(&effects)
        .iter()
        .map(|d| d.handle)
        .collect();
    assert_eq!(
        drawn,
        [edge],
        "within the view grown by the kind's cull radius"
    );
    effects.set_view(None).unwrap();
    assert_eq!(DrawList::new().fill(&effects).len(), 2);
}

#[test]
fn recycling_a_parked_effect_and_stopping_parked_effects_keep_every_clock_in_place() {
    let mut effects = Effects::new();
    let smoke = effects
        .add_kind(
            EffectKind::new("smoke", 4, Duration::from_millis(100))
                .looping()
                .offscreen(Offscreen::Pause)
                .pool(0, 3),
        )
        .unwrap();
    effects.set_view(screen()).unwrap();
    let a = effects.spawn(smoke, [900.0, 0.0]).unwrap();
    let b = effects.spawn(smoke, [901.0, 0.0]).unwrap();
    let c = effects.spawn(smoke, [10.0, 0.0]).unwrap();
    effects.update(0.15).unwrap();
    // Full: the next spawn recycles the oldest, `a`, which is parked.
    let d = effects.spawn(smoke, [20.0, 0.0]).unwrap();
    assert!(!effects.contains(a));
    assert_eq!(effects.stats(smoke).unwrap().offscreen, 1);
    assert_eq!(effects.get(b).unwrap().frame(), 0);
    assert_eq!(effects.get(c).unwrap().frame(), 1);
    assert_eq!(effects.get(d).unwrap().frame(), 0);
    effects.stop(b).unwrap();
    assert_eq!(effects.stats(smoke).unwrap().offscreen, 0);
    effects.update(0.1).unwrap();
    assert_eq!(effects.get(c).unwrap().frame(), 2);
    assert_eq!(effects.get(d).unwrap().frame(), 1);
}

#[test]
fn bad_views_and_radii_are_refused_and_change_nothing() {
    let mut effects = Effects::new();
    effects.set_view(screen()).unwrap();
    for bad in [
        View::new([f32::NAN, 0.0], [1.0, 1.0]),
        View::new([0.0, 0.0], [f32::INFINITY, 1.0]),
    ] {
        assert!(matches!(
            effects.set_view(bad),
            Err(ViewError::NotFinite { .. })
        ));
    }
    let flipped = View::new([0.0, 5.0], [1.0, 1.0]);
    let error = effects.set_view(flipped).unwrap_err();
    assert!(matches!(error, ViewError::Inverted { .. }));
    assert!(error.to_string().contains("min above max"), "{error}");
    assert_eq!(effects.view(), Some(screen()));
    for radius in [f32::NAN, -1.0, f32::INFINITY] {
        let error = effects
            .add_kind(EffectKind::new("spark", 4, Duration::from_millis(100)).cull_radius(radius))
            .unwrap_err();
        assert!(
            matches!(error, AddKindError::BadCullRadius { .. }),
            "{error}"
        );
    }
    assert_eq!(effects.kinds().len(), 0);
}

#[test]
fn a_warm_frame_with_a_panning_camera_does_not_allocate() {
    let mut effects = Effects::new();
    let boom = effects
        .add_kind(
            EffectKind::new("boom", 12, Duration::from_secs_f64(1.0 / 30.0))
                .offscreen(Offscreen::CatchUp)
                .follow_up("smoke")
                .pool(300, 300),
        )
        .unwrap();
    effects
        .add_kind(
            EffectKind::new("smoke", 8, Duration::from_millis(50))
                .offscreen(Offscreen::End)
                .pool(300, 300),
        )
        .unwrap();
    let fire = effects
        .add_kind(
            EffectKind::new("fire", 8, Duration::from_millis(50))
                .looping()
                .offscreen(Offscreen::Pause)
                .pool(100, 100),
        )
        .unwrap();
    for i in 0..100 {
        effects.spawn(fire, [i as f32 * 20.0, 50.0]).unwrap();
    }
    let mut draw = DrawList::new();
    let mut run = |effects: &mut Effects, frames: u32, start: u32| {
        let mut seen = 0;
        for frame in start..start + frames {
            let x = (frame % 240) as f32 * 8.0;
            effects.set_view(panned(x)).unwrap();
            for i in 0..6 {
                effects
                    .spawn(boom, [((frame * 37 + i * 101) % 2000) as f32, 90.0])
                    .unwrap();
            }
            effects.update(1.0 / 60.0).unwrap();
            seen += effects.finished().len() + draw.fill(effects).len();
        }
        seen
    };
    run(&mut effects, 600, 0);
    let before = alloc_counter::thread_allocations();
    let seen = run(&mut effects, 600, 600);
    let count = alloc_counter::thread_allocations() - before;
    assert!(seen > 0);
    assert!(effects.stats(boom).unwrap().ended_offscreen > 0);
    assert_eq!(count, 0, "600 warm frames allocated {count} times");
}

#[test]
fn spawning_and_stopping_many_times_in_one_frame_under_a_moving_view_does_not_allocate() {
    let mut effects = Effects::new();
    let flare = effects
        .add_kind(
            EffectKind::new("flare", 8, Duration::from_millis(50))
                .looping()
                .offscreen(Offscreen::Pause)
                .pool(8, 8),
        )
        .unwrap();
    let mut live = std::collections::VecDeque::new();
    let frame = |effects: &mut Effects, live: &mut std::collections::VecDeque<_>, n: u32| {
        for i in 0..1000u32 {
            let x = ((i * 97 + n) % 640) as f32;
            live.push_back(effects.spawn(flare, [x, 10.0]).unwrap());
            if live.len() > 6 {
                effects.stop(live.pop_front().unwrap()).unwrap();
            }
            if i % 10 == 0 {
                effects.set_view(panned((i % 320) as f32)).unwrap();
            }
        }
        effects.update(1.0 / 60.0).unwrap();
        assert_eq!(effects.live_count(), live.len());
    };
    for n in 0..10 {
        frame(&mut effects, &mut live, n);
    }
    let before = alloc_counter::thread_allocations();
    for n in 10..40 {
        frame(&mut effects, &mut live, n);
    }
    let count = alloc_counter::thread_allocations() - before;
    assert_eq!(count, 0, "30 churning frames allocated {count} times");
    for handle in &live {
        assert!(effects.get(*handle).is_some());
    }
}

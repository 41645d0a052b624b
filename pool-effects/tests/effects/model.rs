//! Model-based test: random spawn / stop / update / destroy / time-scale / view
//! sequences applied to `Effects` and to a plain model (a `Vec` of live effects
//! per kind with exact microsecond clocks, each kind's follow-up, and which
//! effects are parked off-screen since when), compared after every step.

use pool_effects::{
    DrawList, EffectHandle, EffectKind, Effects, FollowUp, KindId, Offscreen, View,
};
use proptest::prelude::*;
use std::time::Duration;

#[derive(Debug, Clone)]
struct KindSpec {
    frames: u32,
    interval_ms: u32,
    layer: i32,
    looping: bool,
    max: usize,
    strict: bool,
    /// The follow-up: `n % (kinds + 1)`, where `kinds` names no kind (undefined).
    follow: Option<u8>,
    /// The kind's time scale in halves: 0, 0.5, 1 or 1.5.
    scale_halves: u64,
    offscreen: Offscreen,
    cull_radius: f32,
}

fn kind_spec() -> impl Strategy<Value = KindSpec> {
    (
        1..6u32,
        1..40u32,
        -1..2i32,
        any::<bool>(),
        1..6usize,
        any::<bool>(),
        prop::option::of(any::<u8>()),
        prop_oneof![3 => Just(2u64), 1 => 0..4u64],
        prop_oneof![
            2 => Just(Offscreen::Simulate),
            1 => Just(Offscreen::Pause),
            3 => Just(Offscreen::CatchUp),
            1 => Just(Offscreen::End),
        ],
        prop_oneof![Just(0.0f32), Just(3.0f32)],
    )
        .prop_map(
            |(
                frames,
                interval_ms,
                layer,
                looping,
                max,
                strict,
                follow,
                scale_halves,
                offscreen,
                cull_radius,
            )| KindSpec {
                frames,
                interval_ms,
                layer,
                looping,
                max,
                strict,
                follow,
                scale_halves,
                offscreen,
                cull_radius,
            },
        )
}

#[derive(Debug, Clone)]
enum Op {
    /// A spawn of kind `k`, with an offset in milliseconds into the next update
    /// (0: a plain `spawn`).
    Spawn(usize, u32),
    Stop(usize),
    Update(u32),
    SetTimeScale(usize, u8),
    /// The global time scale, in halves.
    SetGlobalScale(u8),
    /// A kind's time scale, in halves.
    SetKindScale(usize, u8),
    DestroyKind(usize),
    /// The view: effects' y from `a` to `a + w` (their x is within it), or none.
    SetView(Option<(u8, u8)>),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        5 => (any::<usize>(), prop_oneof![3 => Just(0u32), 1 => 0..80u32]).prop_map(|(k, offset)| Op::Spawn(k, offset)),
        2 => any::<usize>().prop_map(Op::Stop),
        4 => (0..120u32).prop_map(Op::Update),
        1 => (any::<usize>(), 0..4u8).prop_map(|(i, s)| Op::SetTimeScale(i, s)),
        1 => (0..4u8).prop_map(Op::SetGlobalScale),
        1 => (any::<usize>(), 0..4u8).prop_map(|(k, s)| Op::SetKindScale(k, s)),
        1 => any::<usize>().prop_map(Op::DestroyKind),
        2 => prop::option::weighted(0.85, (0..120u8, 0..60u8)).prop_map(Op::SetView),
    ]
}

#[derive(Debug, Clone)]
struct ModelEffect {
    handle: EffectHandle,
    order: u64,
    /// Where it is: where it was spawned, or where the effect it follows ended.
    at: [f32; 2],
    /// Microseconds into the animation (wrapped for loops).
    elapsed: i64,
    /// Time scale in halves: 0, 0.5, 1 or 1.5.
    scale_halves: u64,
    /// Parked off-screen: the kind's time then, and the scale it ran at.
    parked: Option<(u64, u64)>,
}

/// The view of `Op::SetView`.
fn view_of(a: u8, w: u8) -> View {
    View::new([-1.0, f32::from(a)], [10.0, f32::from(a) + f32::from(w)])
}

fn seen(spec: &KindSpec, view: Option<View>, at: [f32; 2]) -> bool {
    view.is_none_or(|view| view.contains(at, spec.cull_radius))
}

/// Whether an effect of `spec` at `at` starts parked.
fn parks(spec: &KindSpec, view: Option<View>, at: [f32; 2]) -> bool {
    spec.offscreen != Offscreen::Simulate && !seen(spec, view, at)
}

/// A parked effect back in view: caught up by the kind time it missed.
fn unpark(spec: &KindSpec, e: &mut ModelEffect, kind_time: u64) {
    let Some((since, halves)) = e.parked.take() else {
        return;
    };
    if spec.offscreen == Offscreen::CatchUp {
        e.elapsed += ((kind_time - since) * halves / 2) as i64;
        let duration = i64::from(spec.interval_ms) * 1000 * i64::from(spec.frames);
        if spec.looping && e.elapsed >= duration {
            e.elapsed %= duration;
        }
    }
}

fn frame_of(spec: &KindSpec, e: &ModelEffect) -> u32 {
    let interval = u64::from(spec.interval_ms) * 1000;
    // Held back by an offset: the first frame.
    ((e.elapsed.max(0) as u64 / interval) as u32).min(spec.frames - 1)
}

proptest! {
    #[test]
    fn effects_match_model(
        specs in prop::collection::vec(kind_spec(), 1..4),
        ops in prop::collection::vec(op(), 0..100),
    ) {
        let mut effects = Effects::new();
        let mut ids: Vec<KindId> = Vec::new();
        for (i, spec) in specs.iter().enumerate() {
            let mut kind = EffectKind::new(format!("k{i}"), spec.frames, Duration::from_secs_f64(f64::from(spec.interval_ms) / 1000.0))
                .layer(spec.layer)
                .pool(0, spec.max);
            if spec.looping { kind = kind.looping(); }
            if spec.strict { kind = kind.strict(); }
            kind = kind.time_scale(spec.scale_halves as f32 / 2.0);
            kind = kind.offscreen(spec.offscreen).cull_radius(spec.cull_radius);
            if let Some(follow) = spec.follow {
                kind = kind.follow_up(format!("k{}", usize::from(follow) % (specs.len() + 1)));
            }
            ids.push(effects.add_kind(kind).unwrap());
        }
        // The follow-up kind of each kind, `None` for none or an undefined name.
        let follows: Vec<Option<usize>> = specs
            .iter()
            .map(|spec| spec.follow.map(|f| usize::from(f) % (specs.len() + 1)).filter(|&j| j < specs.len()))
            .collect();
        let mut live: Vec<Vec<ModelEffect>> = vec![Vec::new(); specs.len()];
        let mut kind_scale: Vec<u64> = specs.iter().map(|spec| spec.scale_halves).collect();
        let mut global_scale = 2u64;
        let mut stale: Vec<EffectHandle> = Vec::new();
        let mut next_order = 0u64;
        // Per kind: follow-ups started, and refused or undefined.
        let mut follow_counts = vec![(0u64, 0u64); specs.len()];
        let mut view: Option<View> = None;
        let mut kind_time = vec![0u64; specs.len()];
        // Per kind: culled, and ended while parked.
        let mut cull_counts = vec![(0u64, 0u64); specs.len()];

        for op in ops {
            match op {
                Op::Spawn(k, offset_ms) => {
                    let k = k % specs.len();
                    let at = [k as f32, next_order as f32];
                    let result = if offset_ms == 0 {
                        effects.spawn(ids[k], at)
                    } else {
                        effects.spawn_offset(ids[k], at, Duration::from_millis(u64::from(offset_ms)))
                    };
                    if live[k].len() == specs[k].max {
                        if specs[k].strict {
                            prop_assert!(result.is_err());
                            continue;
                        }
                        stale.push(live[k].remove(0).handle);
                    }
                    let handle = result.unwrap();
                    let parked = parks(&specs[k], view, at).then_some((kind_time[k], 2));
                    live[k].push(ModelEffect { handle, order: next_order, at, elapsed: -i64::from(offset_ms) * 1000, scale_halves: 2, parked });
                    next_order += 1;
                }
                Op::Stop(i) => {
                    let all: Vec<EffectHandle> = live.iter().flatten().map(|e| e.handle).chain(stale.iter().copied()).collect();
                    if all.is_empty() { continue; }
                    let handle = all[i % all.len()];
                    let k = handle.kind().index();
                    match live[k].iter().position(|e| e.handle == handle) {
                        Some(at) => {
                            prop_assert!(effects.stop(handle).is_ok());
                            stale.push(live[k].remove(at).handle);
                        }
                        None => prop_assert!(effects.stop(handle).is_err()),
                    }
                }
                Op::Update(ms) => {
                    effects.update(f64::from(ms) / 1000.0).unwrap();
                    let dt = u64::from(ms) * 1000;
                    let mut expected_finished = Vec::new();
                    for (k, spec) in specs.iter().enumerate() {
                        let duration = u64::from(spec.interval_ms) * 1000 * u64::from(spec.frames);
                        let mut kept = Vec::new();
                        // Each scale floors to the microsecond: global, kind, effect.
                        let kind_dt = dt * global_scale / 2 * kind_scale[k] / 2;
                        kind_time[k] += kind_dt;
                        for mut e in live[k].drain(..) {
                            let duration = duration as i64;
                            if let Some((since, halves)) = e.parked {
                                match spec.offscreen {
                                    Offscreen::End => {
                                        cull_counts[k].0 += 1;
                                        stale.push(e.handle);
                                        continue;
                                    }
                                    Offscreen::CatchUp if !spec.looping
                                        && e.elapsed + ((kind_time[k] - since) * halves / 2) as i64 >= duration => {
                                        cull_counts[k].1 += 1;
                                        expected_finished.push((k, e.handle, e.at));
                                        stale.push(e.handle);
                                        continue;
                                    }
                                    _ => {}
                                }
                                kept.push(e);
                                continue;
                            }
                            e.elapsed += (kind_dt * e.scale_halves / 2) as i64;
                            if e.elapsed >= duration {
                                if spec.looping {
                                    e.elapsed %= duration;
                                } else {
                                    expected_finished.push((k, e.handle, e.at));
                                    stale.push(e.handle);
                                    continue;
                                }
                            }
                            kept.push(e);
                        }
                        live[k] = kept;
                    }
                    let finished = effects.finished();
                    let handles: Vec<EffectHandle> = finished.iter().map(|f| f.handle).collect();
                    let expected: Vec<EffectHandle> = expected_finished.iter().map(|f| f.1).collect();
                    prop_assert_eq!(handles, expected);
                    // Follow-ups, in the order their effects ended, each from its
                    // kind's pool as a spawn would be, at time 0 where the first ended.
                    for (done, &(k, _, at)) in finished.iter().zip(&expected_finished) {
                        prop_assert_eq!(done.position.x, at[0]);
                        match (specs[k].follow, follows[k]) {
                            (None, _) => prop_assert_eq!(done.follow_up, FollowUp::None),
                            (Some(_), None) => {
                                prop_assert_eq!(done.follow_up, FollowUp::Undefined);
                                follow_counts[k].1 += 1;
                            }
                            (Some(_), Some(j)) => {
                                if live[j].len() == specs[j].max {
                                    if specs[j].strict {
                                        prop_assert!(matches!(done.follow_up, FollowUp::Refused(_)), "{:?}", done.follow_up);
                                        follow_counts[k].1 += 1;
                                        continue;
                                    }
                                    stale.push(live[j].remove(0).handle);
                                }
                                let FollowUp::Spawned(handle) = done.follow_up else {
                                    return Err(TestCaseError::fail(format!("expected a follow-up, got {:?}", done.follow_up)));
                                };
                                prop_assert_eq!(handle.kind(), ids[j]);
                                let parked = parks(&specs[j], view, at).then_some((kind_time[j], 2));
                                live[j].push(ModelEffect { handle, order: next_order, at, elapsed: 0, scale_halves: 2, parked });
                                next_order += 1;
                                follow_counts[k].0 += 1;
                            }
                        }
                    }

                }
                Op::SetTimeScale(i, halves) => {
                    let n = live.iter().map(Vec::len).sum::<usize>();
                    if n == 0 { continue; }
                    let e = live.iter_mut().flatten().nth(i % n).unwrap();
                    effects.get_mut(e.handle).unwrap().set_time_scale(f32::from(halves) / 2.0).unwrap();
                    e.scale_halves = u64::from(halves);
                }
                Op::SetGlobalScale(halves) => {
                    effects.set_time_scale(f32::from(halves) / 2.0).unwrap();
                    global_scale = u64::from(halves);
                    prop_assert_eq!(effects.time_scale(), f32::from(halves) / 2.0);
                }
                Op::SetKindScale(k, halves) => {
                    let k = k % specs.len();
                    effects.set_kind_time_scale(ids[k], f32::from(halves) / 2.0).unwrap();
                    kind_scale[k] = u64::from(halves);
                }
                Op::SetView(rect) => {
                    view = rect.map(|(a, w)| view_of(a, w));
                    effects.set_view(view).unwrap();
                    for (k, spec) in specs.iter().enumerate() {
                        if spec.offscreen == Offscreen::Simulate { continue; }
                        for e in &mut live[k] {
                            if seen(spec, view, e.at) {
                                unpark(spec, e, kind_time[k]);
                            } else if e.parked.is_none() {
                                e.parked = Some((kind_time[k], e.scale_halves));
                            }
                        }
                    }
                }
                Op::DestroyKind(k) => {
                    let k = k % specs.len();
                    effects.destroy_kind(ids[k]).unwrap();
                    stale.extend(live[k].drain(..).map(|e| e.handle));
                }
            }

            // Live per kind, never above the cap; each live effect's clock and frame.
            for (k, spec) in specs.iter().enumerate() {
                let stats = effects.stats(ids[k]).unwrap();
                prop_assert_eq!(stats.pool.live, live[k].len());
                prop_assert_eq!((stats.follow_ups, stats.follow_ups_refused), follow_counts[k]);
                prop_assert_eq!((stats.culled, stats.ended_offscreen), cull_counts[k]);
                prop_assert_eq!(stats.offscreen, live[k].iter().filter(|e| e.parked.is_some()).count());
                prop_assert!(stats.pool.live <= spec.max);
                for e in &live[k] {
                    let effect = effects.get(e.handle).unwrap();
                    prop_assert_eq!(effect.frame(), frame_of(spec, e));
                    prop_assert_eq!(effect.spawn_order(), e.order);
                    prop_assert_eq!([effect.position.x, effect.position.y], e.at);
                    prop_assert_eq!(effect.elapsed(), Duration::from_micros(e.elapsed.max(0) as u64));
                }
            }
            // Every released handle is stale.
            for handle in &stale {
                prop_assert!(effects.get(*handle).is_none());
            }
            // The draw list: exactly the live effects, sorted by (layer, spawn order).
            let specs = &specs;
            let mut expected: Vec<(i32, u64, EffectHandle, u32)> = live
                .iter()
                .enumerate()
                .flat_map(|(k, es)| {
                    es.iter()
                        .filter(move |e| e.parked.is_none() && seen(&specs[k], view, e.at))
                        .map(move |e| (specs[k].layer, e.order, e.handle, frame_of(&specs[k], e)))
                })
                .collect();
            expected.sort_by_key(|(layer, order, _, _)| (*layer, *order));
            let drawn: Vec<(i32, u64, EffectHandle, u32)> = DrawList::new().fill(&effects)
                .iter()
                .map(|d| (d.layer, effects.get(d.handle).unwrap().spawn_order(), d.handle, d.frame))
                .collect();
            prop_assert_eq!(drawn, expected);
        }
    }
}

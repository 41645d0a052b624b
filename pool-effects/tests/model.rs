//! Model-based test: random spawn / stop / update / destroy / time-scale sequences
//! applied to `Effects` and to a plain model (a `Vec` of live effects per kind with
//! exact microsecond clocks), compared after every step.

use pool_effects::{DrawList, EffectHandle, EffectKind, Effects, KindId};
use proptest::prelude::*;

#[derive(Debug, Clone)]
struct KindSpec {
    frames: u32,
    interval_ms: u32,
    layer: i32,
    looping: bool,
    max: usize,
    strict: bool,
}

fn kind_spec() -> impl Strategy<Value = KindSpec> {
    (
        1..6u32,
        1..40u32,
        -1..2i32,
        any::<bool>(),
        1..6usize,
        any::<bool>(),
    )
        .prop_map(
            |(frames, interval_ms, layer, looping, max, strict)| KindSpec {
                frames,
                interval_ms,
                layer,
                looping,
                max,
                strict,
            },
        )
}

#[derive(Debug, Clone)]
enum Op {
    Spawn(usize),
    Stop(usize),
    Update(u32),
    SetTimeScale(usize, u8),
    DestroyKind(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        5 => any::<usize>().prop_map(Op::Spawn),
        2 => any::<usize>().prop_map(Op::Stop),
        4 => (0..120u32).prop_map(Op::Update),
        1 => (any::<usize>(), 0..4u8).prop_map(|(i, s)| Op::SetTimeScale(i, s)),
        1 => any::<usize>().prop_map(Op::DestroyKind),
    ]
}

#[derive(Debug, Clone)]
struct ModelEffect {
    handle: EffectHandle,
    order: u64,
    /// Microseconds into the animation (wrapped for loops).
    elapsed: u64,
    /// Time scale in halves: 0, 0.5, 1 or 1.5.
    scale_halves: u64,
}

fn frame_of(spec: &KindSpec, e: &ModelEffect) -> u32 {
    let interval = u64::from(spec.interval_ms) * 1000;
    ((e.elapsed / interval) as u32).min(spec.frames - 1)
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
            let mut kind = EffectKind::new(format!("k{i}"), spec.frames, f64::from(spec.interval_ms) / 1000.0)
                .layer(spec.layer)
                .pool(0, spec.max);
            if spec.looping { kind = kind.looping(); }
            if spec.strict { kind = kind.strict(); }
            ids.push(effects.add_kind(kind).unwrap());
        }
        let mut live: Vec<Vec<ModelEffect>> = vec![Vec::new(); specs.len()];
        let mut stale: Vec<EffectHandle> = Vec::new();
        let mut next_order = 0u64;

        for op in ops {
            match op {
                Op::Spawn(k) => {
                    let k = k % specs.len();
                    let result = effects.spawn(ids[k], [k as f32, next_order as f32]);
                    if live[k].len() == specs[k].max {
                        if specs[k].strict {
                            prop_assert!(result.is_err());
                            continue;
                        }
                        stale.push(live[k].remove(0).handle);
                    }
                    let handle = result.unwrap();
                    live[k].push(ModelEffect { handle, order: next_order, elapsed: 0, scale_halves: 2 });
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
                        for mut e in live[k].drain(..) {
                            e.elapsed += dt * e.scale_halves / 2;
                            if e.elapsed >= duration {
                                if spec.looping {
                                    e.elapsed %= duration;
                                } else {
                                    expected_finished.push(e.handle);
                                    stale.push(e.handle);
                                    continue;
                                }
                            }
                            kept.push(e);
                        }
                        live[k] = kept;
                    }
                    let finished: Vec<EffectHandle> = effects.finished().iter().map(|f| f.handle).collect();
                    prop_assert_eq!(finished, expected_finished);
                }
                Op::SetTimeScale(i, halves) => {
                    let n = live.iter().map(Vec::len).sum::<usize>();
                    if n == 0 { continue; }
                    let e = live.iter_mut().flatten().nth(i % n).unwrap();
                    effects.get_mut(e.handle).unwrap().set_time_scale(f32::from(halves) / 2.0).unwrap();
                    e.scale_halves = u64::from(halves);
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
                prop_assert!(stats.pool.live <= spec.max);
                for e in &live[k] {
                    let effect = effects.get(e.handle).unwrap();
                    prop_assert_eq!(effect.frame(), frame_of(spec, e));
                    prop_assert_eq!(effect.spawn_order(), e.order);
                    prop_assert!((effect.elapsed() - e.elapsed as f64 / 1e6).abs() < 1e-9);
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
                .flat_map(|(k, es)| es.iter().map(move |e| (specs[k].layer, e.order, e.handle, frame_of(&specs[k], e))))
                .collect();
            expected.sort_by_key(|(layer, order, _, _)| (*layer, *order));
            let drawn: Vec<(i32, u64, EffectHandle, u32)> = DrawList::new().fill(&effects)
                .iter()
                .map(|d| (d.layer, d.position.y as u64, d.handle, d.frame))
                .collect();
            prop_assert_eq!(drawn, expected);
        }
    }
}

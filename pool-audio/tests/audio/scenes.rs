//! Random game scenes rendered offline and metered before kira's clamp: worst-case
//! sounds (full-scale squares, alternating signs, DC steps, data above 1.0) at
//! sample rates from 22.05 to 96 kHz, random pans, playback rates across the whole
//! allowed range, positioned sounds, plays spread over many frames so copies
//! recycle continuously, stops with fades of every length.
//!
//! - One sound, limiter off: the copy attenuation alone keeps the mix under the
//!   headroom.
//! - Several sounds, limiter on: the mix never exceeds the ceiling.
//!
//! In both: no sample clips and none is NaN. `PROPTEST_CASES` raises the count.

use std::sync::Arc;
use std::time::Duration;

use kira::sound::static_sound::StaticSoundData;
use kira::track::MainTrackBuilder;
use kira::{AudioManager, AudioManagerSettings, Frame};
use pool_audio::{
    OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings,
    dsp::MeterBuilder, limits::MAX_PLAYBACK_RATE, limits::MIN_PLAYBACK_RATE, linear_fade,
    offline::OfflineSettings, voices::WhenFull,
};
use proptest::prelude::*;

use crate::common;

/// -1 dBFS, the default headroom and ceiling.
const CEILING: f32 = 0.891_250_9;

#[derive(Debug, Clone)]
enum Shape {
    /// Full scale, `period` samples per cycle.
    Square(usize),
    /// +1, -1, +1, ...: the sharpest data there is.
    Alternating,
    /// Silence, then a constant level: a step.
    Step(f32),
    /// A sine at a level above full scale, as lossy decoders return.
    Hot(f32),
    /// Deterministic noise at full scale.
    Noise(u64),
}

#[derive(Debug, Clone)]
struct SoundSpec {
    shape: Shape,
    rate: u32,
    frames: usize,
    stereo_skew: f32,
    max_voices: usize,
    first_volume: f64,
    refuse: bool,
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (2usize..24).prop_map(Shape::Square),
        Just(Shape::Alternating),
        (0.1f32..=1.0).prop_map(Shape::Step),
        (1.0f32..1.6).prop_map(Shape::Hot),
        any::<u64>().prop_map(Shape::Noise),
    ]
}

fn sound_spec() -> impl Strategy<Value = SoundSpec> {
    (
        shape(),
        prop::sample::select(vec![22_050u32, 32_000, 44_100, 48_000, 96_000]),
        100usize..6000,
        0.0f32..=1.0,
        1usize..=12,
        0.05f64..=1.0,
        prop::bool::weighted(0.2),
    )
        .prop_map(
            |(shape, rate, frames, stereo_skew, max_voices, first_volume, refuse)| SoundSpec {
                shape,
                rate,
                frames,
                stereo_skew,
                max_voices,
                first_volume,
                refuse,
            },
        )
}

fn build(spec: &SoundSpec) -> StaticSoundData {
    let mut seed = match spec.shape {
        Shape::Noise(seed) => seed | 1,
        _ => 1,
    };
    let frames: Arc<[Frame]> = (0..spec.frames)
        .map(|i| {
            let s = match spec.shape {
                Shape::Square(period) => {
                    if i % period < period.div_ceil(2) {
                        1.0
                    } else {
                        -1.0
                    }
                }
                Shape::Alternating => {
                    if i % 2 == 0 {
                        1.0
                    } else {
                        -1.0
                    }
                }
                Shape::Step(level) => {
                    if i < spec.frames / 3 {
                        0.0
                    } else {
                        level
                    }
                }
                Shape::Hot(level) => level * (i as f32 * 0.07).sin(),
                Shape::Noise(_) => {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    (seed >> 40) as f32 / (1u64 << 23) as f32 - 1.0
                }
            };
            // The right channel a little quieter (or the same): stereo data.
            Frame {
                left: s,
                right: s * (1.0 - spec.stereo_skew * 0.5),
            }
        })
        .collect();
    StaticSoundData {
        sample_rate: spec.rate,
        frames,
        settings: Default::default(),
        slice: None,
    }
}

#[derive(Debug, Clone)]
enum Op {
    Play {
        sound: usize,
        volume: f64,
        rate: f64,
        panning: f32,
        position: Option<([f32; 3], f32)>,
    },
    Stop(usize, u64),
    Frame(u64),
}

fn op(sounds: usize) -> impl Strategy<Value = Op> {
    let rate = prop_oneof![
        MIN_PLAYBACK_RATE..=MAX_PLAYBACK_RATE,
        0.5f64..2.0,
        Just(1.0),
    ];
    let position =
        prop::option::weighted(0.3, (prop::array::uniform3(-20.0f32..20.0), 0.0f32..=1.0));
    prop_oneof![
        8 => (0..sounds, 0.0f64..=1.0, rate, -1.0f32..=1.0, position).prop_map(
            |(sound, volume, rate, panning, position)| Op::Play { sound, volume, rate, panning, position }
        ),
        1 => (any::<usize>(), 0u64..200).prop_map(|(i, ms)| Op::Stop(i, ms)),
        3 => (1u64..40).prop_map(Op::Frame),
    ]
}

/// Plays the scene; returns the meter's peak, clipped and NaN samples, and the
/// limiter's deepest gain reduction.
fn render(
    output_rate: u32,
    specs: &[SoundSpec],
    ops: &[Op],
    limited: bool,
) -> (f32, u64, u64, f32) {
    let meter = MeterBuilder::new();
    let reading = meter.handle();
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings {
        main_track_builder: MainTrackBuilder::new().with_effect(meter),
        backend_settings: OfflineSettings {
            sample_rate: output_rate,
        },
        ..Default::default()
    })
    .unwrap();
    let mut settings = SoundEffectsSettings {
        voice_cap: 24,
        ..Default::default()
    };
    if !limited {
        settings.limiter = None;
    }
    let mut sfx = SoundEffects::new(&mut manager, settings).unwrap();
    let sounds: Vec<_> = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let mut settings = SoundSettings::default()
                .max_voices(spec.max_voices)
                .first_volume(common::db(spec.first_volume));
            if spec.refuse {
                settings = settings.when_full(WhenFull::Strict);
            }
            sfx.add_sound(&format!("s{i}"), build(spec), settings)
                .unwrap()
        })
        .collect();
    let mut voices = Vec::new();
    for op in ops {
        match op {
            Op::Play {
                sound,
                volume,
                rate,
                panning,
                position,
            } => {
                let mut params = PlayParams::default()
                    .volume(common::db(*volume))
                    .playback_rate(*rate)
                    .panning(*panning);
                if let Some((at, blend)) = position {
                    params = params.position(*at).spatial_blend(*blend);
                }
                if let Ok(voice) = sfx.play(sounds[*sound % sounds.len()], params) {
                    voices.push(voice);
                }
            }
            Op::Stop(i, ms) if !voices.is_empty() => {
                let _ = sfx
                    .voice(voices[i % voices.len()])
                    .stop(linear_fade(Duration::from_millis(*ms)));
            }
            Op::Stop(..) => {}
            Op::Frame(ms) => {
                let dt = *ms as f64 / 1000.0;
                sfx.update(dt).unwrap();
                manager.backend_mut().render(dt).unwrap();
            }
        }
    }
    // Let everything ring out.
    sfx.update(0.0).unwrap();
    manager.backend_mut().render(0.15).unwrap();
    let reduction = sfx.limiter().map_or(0.0, |l| l.take_max_gain_reduction().0);
    (
        reading.peak(),
        reading.clipped_samples(),
        reading.non_finite_samples(),
        reduction,
    )
}

fn output_rate() -> impl Strategy<Value = u32> {
    prop::sample::select(vec![22_050u32, 44_100, 48_000, 96_000])
}

/// 16 scenes per property by default (a few seconds in a debug build);
/// `PROPTEST_CASES` sets another count.
fn cases() -> u32 {
    common::proptest_cases(16)
}

/// Runs `cases()` random scenes of `strategy` through `check` (which returns the
/// scene's peak, or why it failed), then prints the loudest peak of them all:
/// the number the README quotes.
fn scenes<S: Strategy>(
    what: &str,
    strategy: S,
    check: impl Fn(S::Value) -> Result<f32, TestCaseError>,
) where
    S::Value: std::fmt::Debug,
{
    let loudest = std::cell::Cell::new(0.0f32);
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: cases(),
        ..ProptestConfig::default()
    });
    let result = runner.run(&strategy, |scene| {
        let peak = check(scene)?;
        loudest.set(loudest.get().max(peak));
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{what}: {failure}");
    }
    eprintln!(
        "{what}: the loudest of {} scenes peaked at {:.4} ({:.2} dBFS; the ceiling is {CEILING:.4})",
        cases(),
        loudest.get(),
        20.0 * loudest.get().log10()
    );
}

#[test]
fn one_sound_stays_under_the_headroom_without_the_limiter() {
    let strategy = (
        output_rate(),
        sound_spec(),
        prop::collection::vec(op(1), 1..80),
    );
    scenes("one sound, no limiter", strategy, |(rate, spec, ops)| {
        let (peak, clipped, nan, _) = render(rate, std::slice::from_ref(&spec), &ops, false);
        prop_assert!(peak <= CEILING + 1e-5, "peak {peak} above the headroom");
        prop_assert_eq!(clipped, 0);
        prop_assert_eq!(nan, 0);
        Ok(peak)
    });
}

#[test]
fn any_mix_stays_under_the_limiters_ceiling() {
    let strategy = (
        output_rate(),
        prop::collection::vec(sound_spec(), 2..5),
        prop::collection::vec(op(4), 1..80),
    );
    scenes(
        "several sounds, limiter on",
        strategy,
        |(rate, specs, ops)| {
            let (peak, clipped, nan, _) = render(rate, &specs, &ops, true);
            prop_assert!(peak <= CEILING + 1e-5, "peak {peak} above the ceiling");
            prop_assert_eq!(clipped, 0);
            prop_assert_eq!(nan, 0);
            Ok(peak)
        },
    );
}

//! Renders you can replay (`SoundEffectsSettings::seed`, `SoundEffects::reseed`):
//! 30 s of a scripted battle, every sound varied (recordings, pitch, volume),
//! rendered twice with one seed are the same samples bit for bit; reseeding a
//! manager that has already played replays it too; another seed renders
//! something else.

use std::sync::Arc;

use kira::Frame;
use kira::sound::static_sound::StaticSoundData;
use pool_audio::{
    PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings, linear_fade, sound::Pick,
    voices::Stealing,
};

use crate::common::{self, FRAME};

const SECONDS: usize = 30;

/// A decaying tone: `hz`, `seconds` long.
fn shot(hz: f32, seconds: f32) -> StaticSoundData {
    let n = (seconds * common::RATE as f32) as usize;
    let frames: Arc<[Frame]> = (0..n)
        .map(|i| {
            let t = i as f32 / common::RATE as f32;
            Frame::from_mono((t * hz * std::f32::consts::TAU).sin() * (-t * 8.0).exp())
        })
        .collect();
    StaticSoundData {
        sample_rate: common::RATE,
        frames,
        settings: Default::default(),
        slice: None,
    }
}

/// The battle's sounds on a fresh manager seeded `seed`.
fn battle_manager(seed: u64) -> (kira::AudioManager<pool_audio::OfflineBackend>, SoundEffects) {
    let settings = SoundEffectsSettings {
        voice_cap: 12,
        stealing: Stealing::LowestPriority,
        seed,
        ..Default::default()
    };
    let (manager, sfx, _) = common::metered(common::RATE, settings);
    (manager, sfx)
}

/// 30 s of a battle: a gun every 6 frames, footsteps every 20, an explosion
/// every 45 somewhere on the map, an engine looping as the listener drives
/// by. Returns every sample rendered.
fn battle(
    manager: &mut kira::AudioManager<pool_audio::OfflineBackend>,
    sfx: &mut SoundEffects,
) -> Vec<f32> {
    let gun = sfx
        .add_sound(
            "gun",
            [
                shot(300.0, 0.2),
                shot(340.0, 0.25),
                shot(280.0, 0.2),
                shot(360.0, 0.15),
            ],
            SoundSettings::default()
                .max_voices(6)
                .pitch_semitones(-2.0, 2.0)
                .volume_range(-4.0, 0.0),
        )
        .unwrap();
    let steps = sfx
        .add_sound(
            "steps",
            [shot(900.0, 0.08), shot(1000.0, 0.08), shot(1100.0, 0.08)],
            SoundSettings::default()
                .pick(Pick::Shuffle)
                .volume_range(-6.0, 0.0),
        )
        .unwrap();
    let boom = sfx
        .add_sound(
            "boom",
            [shot(60.0, 1.0), shot(70.0, 1.2), shot(55.0, 0.9)],
            SoundSettings::default()
                .priority(5)
                .distance_priority_offset(-10)
                .pitch_semitones(-3.0, 1.0),
        )
        .unwrap();
    let engine = sfx
        .add_sound(
            "engine",
            shot(120.0, 0.5).loop_region(..),
            SoundSettings::default().priority(3),
        )
        .unwrap();
    let mut samples = Vec::with_capacity(SECONDS * common::RATE as usize * 2);
    let _ = sfx.play(engine, PlayParams::default().position([0.0, 0.0, -10.0]));
    for frame in 0..SECONDS * 60 {
        let t = frame as f32 * FRAME as f32;
        sfx.listener()
            .set_position([t * 2.0 - 30.0, 0.0, 0.0])
            .unwrap();
        if frame % 6 == 0 {
            let _ = sfx.play(gun, PlayParams::default().position([5.0, 0.0, -2.0]));
        }
        if frame % 20 == 0 {
            let _ = sfx.play(steps, PlayParams::default());
        }
        if frame % 45 == 0 {
            let x = (frame as f32 * 7.3) % 120.0 - 60.0;
            let _ = sfx.play(boom, PlayParams::default().position([x, 0.0, 20.0]));
        }
        sfx.update(FRAME).unwrap();
        manager
            .backend_mut()
            .render_append(FRAME, &mut samples)
            .unwrap();
    }
    sfx.stop_all(linear_fade(std::time::Duration::from_millis(5)))
        .unwrap();
    samples
}

fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

#[test]
fn one_seed_renders_the_same_battle_bit_for_bit_and_another_does_not() {
    let (mut manager, mut sfx) = battle_manager(42);
    let first = battle(&mut manager, &mut sfx);
    assert_eq!(first.len(), SECONDS * 48_000 * 2);
    assert!(common_peak(&first) > 0.1, "the battle is heard");
    let (mut manager, mut sfx) = battle_manager(42);
    let again = battle(&mut manager, &mut sfx);
    assert!(same_bits(&first, &again), "the same seed, the same samples");

    let (mut manager, mut sfx) = battle_manager(43);
    let other = battle(&mut manager, &mut sfx);
    assert_eq!(other.len(), first.len());
    let differing = first.iter().zip(&other).filter(|(a, b)| a != b).count();
    eprintln!(
        "seed 42 twice: the same {} samples; seed 43: {differing} of them differ",
        first.len()
    );
    assert!(
        differing > first.len() / 10,
        "another seed varies the battle: {differing} samples differ"
    );
}

#[test]
fn reseeding_replays_from_the_seed_whatever_was_drawn_before() {
    let (mut manager, mut sfx) = battle_manager(42);
    let first = battle(&mut manager, &mut sfx);
    // A manager seeded otherwise that has drawn and picked already (its own
    // warm-up), then reseeded: the same choices, so the same battle, within
    // the rounding of a mix whose voices sit on other slots of the bank
    // (summed in another order).
    let (mut manager, mut sfx) = battle_manager(7);
    let warm_up = sfx
        .add_sound(
            "warm-up",
            [shot(500.0, 0.01), shot(600.0, 0.01)],
            SoundSettings::default().pitch_semitones(-5.0, 5.0),
        )
        .unwrap();
    for _ in 0..20 {
        sfx.play(warm_up, PlayParams::default()).unwrap();
    }
    manager
        .backend_mut()
        .render(128.0 * 60.0 / 48_000.0)
        .unwrap();
    sfx.update(FRAME).unwrap();
    sfx.remove_sound(warm_up, linear_fade(std::time::Duration::from_millis(1)))
        .unwrap();
    sfx.update(FRAME).unwrap();
    sfx.reseed(42);
    let again = battle(&mut manager, &mut sfx);
    assert_eq!(again.len(), first.len());
    let worst = first
        .iter()
        .zip(&again)
        .fold(0f32, |w, (a, b)| w.max((a - b).abs()));
    eprintln!("reseeded after a warm-up: off by {worst:e} at most");
    assert!(worst < 1e-6, "reseeded, the same battle: off by {worst}");
    // Not reseeded, the same manager plays another battle.
    let (mut manager, mut sfx) = battle_manager(42);
    let _ = battle(&mut manager, &mut sfx);
    for name in ["gun", "steps", "boom", "engine"] {
        let id = sfx.sound(name).unwrap();
        sfx.remove_sound(id, linear_fade(std::time::Duration::from_millis(1)))
            .unwrap();
    }
    sfx.update(FRAME).unwrap();
    let unseeded = battle(&mut manager, &mut sfx);
    let worst = first
        .iter()
        .zip(&unseeded)
        .fold(0f32, |w, (a, b)| w.max((a - b).abs()));
    assert!(
        worst > 0.01,
        "without a reseed the draws go on: off by {worst}"
    );
}

fn common_peak(samples: &[f32]) -> f32 {
    samples.iter().fold(0.0, |p, s| p.max(s.abs()))
}

/// One scene with everything that moves inside a render (a burst settling
/// and crowding out, a volume fade in decibels, a pitched voice, two loud
/// sounds the limiter holds), its calls all made before 2 s of audio, which
/// is rendered in `chunks` (seconds each).
fn rendered_in(chunks: &[f64]) -> Vec<f32> {
    let (mut manager, mut sfx, _) = common::metered(common::RATE, SoundEffectsSettings::default());
    let tone = |hz: f32, level: f32| common::sine_at(level, hz, 3.0);
    let hum = sfx
        .add_sound("hum", tone(440.0, 0.3), SoundSettings::default())
        .unwrap();
    let burst = sfx
        .add_sound(
            "burst",
            tone(660.0, 0.3),
            SoundSettings::default().first_volume(-10.4576),
        )
        .unwrap();
    let loud = SoundSettings::default().first_volume(0.0);
    for (name, hz) in [("low", 220.0), ("high", 330.0)] {
        let id = sfx.add_sound(name, tone(hz, 1.0), loud).unwrap();
        sfx.play(id, PlayParams::default()).unwrap();
    }
    sfx.play(
        hum,
        PlayParams::default()
            .position([3.0, 0.0, 1.0])
            .playback_rate(1.1),
    )
    .unwrap();
    for _ in 0..6 {
        sfx.play(burst, PlayParams::default()).unwrap();
    }
    let fading = sfx
        .play(hum, PlayParams::default().playback_rate(0.9))
        .unwrap();
    let fade = kira::Tween {
        duration: std::time::Duration::from_millis(700),
        ..Default::default()
    };
    sfx.voice(fading).set_volume(-13.9794, fade).unwrap();
    sfx.update(0.0).unwrap();
    let mut out = Vec::new();
    for seconds in chunks {
        out.extend_from_slice(manager.backend_mut().render(*seconds).unwrap().samples());
    }
    out
}

/// The docs' word on render sizes: the same calls and the same render sizes
/// give the same samples bit for bit; the same audio split into other render
/// sizes moves the points (every 16 frames from each render's start) where
/// the gains are computed, and differs by rounding: at most 1e-5 here
/// (measured 2.4e-6).
#[test]
fn other_render_sizes_differ_by_rounding_and_the_same_ones_not_at_all() {
    let mut irregular = Vec::new();
    let mut total = 0.0;
    for k in 0.. {
        let chunk = [0.0131f64, 0.0077, 0.0213, 0.0166][k % 4].min(2.0 - total);
        if chunk <= 1e-9 {
            break;
        }
        irregular.push(chunk);
        total += chunk;
    }
    let whole = rendered_in(&[2.0]);
    let split = rendered_in(&irregular);
    assert!(same_bits(&split, &rendered_in(&irregular)));
    assert_eq!(whole.len(), split.len());
    let most = whole
        .iter()
        .zip(&split)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    eprintln!(
        "2 s in one render against {} renders: at most {most:e} apart",
        irregular.len()
    );
    assert!(most > 0.0 && most < 1e-5, "{most:e}");
}

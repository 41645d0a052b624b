//! A play's start time (`PlayParams::start_time`): after a delay or at a kira
//! clock's tick, on its very frame in the render, through the voice bank, when
//! it steals a voice and when it waits virtual. kira's own sounds start on the
//! first frame of the 128-frame chunk their time falls in.

use std::time::Duration;

use kira::clock::ClockSpeed;
use kira::{AudioManager, StartTime, Tween};
use pool_audio::voices::{Resume, Virtualization};
use pool_audio::{
    OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings, VoiceState,
    error::ParamError,
};

use crate::common::{self, RATE, click, render_left};

/// A delay of `frames` frames at 48 kHz.
fn frames(frames: u64) -> StartTime {
    StartTime::Delayed(Duration::from_nanos(
        (frames as f64 * 1e9 / f64::from(RATE)).round() as u64,
    ))
}

fn game(voice_cap: usize) -> (AudioManager<OfflineBackend>, SoundEffects) {
    let settings = SoundEffectsSettings {
        voice_cap,
        limiter: None,
        ..Default::default()
    };
    let (manager, sfx, _) = common::metered(RATE, settings);
    (manager, sfx)
}

/// The frame of the first sample over 0.5: the click.
fn click_at(out: &[f32]) -> usize {
    out.iter()
        .position(|s| *s > 0.5)
        .expect("the click was heard")
}

#[test]
fn a_delayed_play_lands_on_its_frame() {
    for delay in [0, 1, 7, 15, 16, 17, 127, 128, 129, 4_801] {
        for panning in [0.0, -0.7] {
            let (mut manager, mut sfx) = game(64);
            let id = sfx
                .add_sound("click", click(), SoundSettings::default().first_volume(0.0))
                .unwrap();
            let params = PlayParams::default()
                .panning(panning)
                .start_time(frames(delay));
            sfx.play(id, params).unwrap();
            let out = render_left(&mut manager, 0.2);
            assert_eq!(
                click_at(&out),
                delay as usize,
                "a delay of {delay} frames, panned {panning}"
            );
        }
    }
}

/// Where a clock at `ticks_per_second`, started with the render, ticks for
/// the `tick`-th time, for us and for kira's own sound set to that tick.
fn on_tick(ticks_per_second: f64, tick: u64) -> (usize, usize) {
    let (mut manager, mut sfx) = game(64);
    let mut clock = manager
        .add_clock(ClockSpeed::TicksPerSecond(ticks_per_second))
        .unwrap();
    let id = sfx
        .add_sound("click", click(), SoundSettings::default().first_volume(0.0))
        .unwrap();
    sfx.play(id, PlayParams::default().start_time(clock.time() + tick))
        .unwrap();
    clock.start();
    let ours = click_at(&render_left(&mut manager, 1.0));

    let mut kira = AudioManager::<OfflineBackend>::new(Default::default()).unwrap();
    let mut clock = kira
        .add_clock(ClockSpeed::TicksPerSecond(ticks_per_second))
        .unwrap();
    kira.play(click().start_time(clock.time() + tick)).unwrap();
    clock.start();
    let kiras = click_at(&render_left(&mut kira, 1.0));
    (ours, kiras)
}

#[test]
fn a_play_at_a_clock_tick_lands_on_its_frame() {
    for (ticks_per_second, tick) in [(20.0, 3), (7.0, 3), (9.6, 5)] {
        let exact = (tick as f64 * f64::from(RATE) / ticks_per_second - 1e-9).ceil() as usize;
        let (ours, kiras) = on_tick(ticks_per_second, tick);
        println!(
            "{ticks_per_second} ticks/s, tick {tick}: exact {exact}, ours {ours}, kira's {kiras}"
        );
        assert_eq!(ours, exact, "{ticks_per_second} ticks/s, tick {tick}");
        // kira's own sound starts on the first frame of the chunk (at most 128
        // frames) in which its clock passed the tick.
        assert!(
            kiras <= exact && exact - kiras < 128,
            "kira's {kiras}, exact {exact}"
        );
    }
    // A clock that is never started: the play waits, silent, and holds its voice.
    let (mut manager, mut sfx) = game(64);
    let clock = manager.add_clock(ClockSpeed::TicksPerSecond(10.0)).unwrap();
    let id = sfx
        .add_sound("click", click(), SoundSettings::default())
        .unwrap();
    let voice = sfx
        .play(id, PlayParams::default().start_time(clock.time() + 1))
        .unwrap();
    assert!(render_left(&mut manager, 0.5).iter().all(|s| *s == 0.0));
    sfx.update(0.5).unwrap();
    assert_eq!(sfx.state(voice), VoiceState::Real);
    // Its clock removed: it ends.
    drop(clock);
    render_left(&mut manager, 0.05);
    sfx.update(0.05).unwrap();
    render_left(&mut manager, 0.05);
    sfx.update(0.05).unwrap();
    assert_eq!(sfx.state(voice), VoiceState::Gone);
}

#[test]
fn a_delayed_play_that_steals_a_voice_lands_on_its_frame() {
    let (mut manager, mut sfx) = game(1);
    let hum = sfx
        .add_sound(
            "hum",
            common::constant(0.1, 1.0).loop_region(..),
            SoundSettings::default(),
        )
        .unwrap();
    let id = sfx
        .add_sound(
            "click",
            click(),
            SoundSettings::default().first_volume(0.0).priority(1),
        )
        .unwrap();
    let held = sfx.play(hum, PlayParams::default()).unwrap();
    render_left(&mut manager, 0.1);
    sfx.update(0.1).unwrap();
    let delay = 2_407;
    let voice = sfx
        .play(id, PlayParams::default().start_time(frames(delay)))
        .unwrap();
    assert_eq!(sfx.state(voice), VoiceState::Real);
    assert_ne!(
        sfx.state(held),
        VoiceState::Real,
        "the hum gave its voice up"
    );
    let out = render_left(&mut manager, 0.2);
    assert_eq!(click_at(&out), delay as usize);
}

#[test]
fn a_delayed_play_that_waits_virtual_lands_on_its_frame() {
    // The only voice plays a hum of a higher priority; the click, delayed by
    // 0.2 s and 7 frames, is virtual. The hum stops 0.1 s in: the click takes
    // the voice with what is left of its delay, and is heard on its frame.
    let dt = 1.0 / 60.0; // 800 frames
    let (mut manager, mut sfx) = game(1);
    let hum = sfx
        .add_sound(
            "hum",
            common::constant(0.1, 1.0).loop_region(..),
            SoundSettings::default().priority(1),
        )
        .unwrap();
    let settings = SoundSettings::default()
        .first_volume(0.0)
        .virtualization(Virtualization::Virtualize(Resume::FromElapsed));
    let id = sfx.add_sound("click", click(), settings).unwrap();
    sfx.play(hum, PlayParams::default()).unwrap();
    render_left(&mut manager, dt);
    sfx.update(dt).unwrap();
    let delay = 9_607;
    let voice = sfx
        .play(id, PlayParams::default().start_time(frames(delay)))
        .unwrap();
    assert_eq!(sfx.state(voice), VoiceState::Virtual);
    let mut out = Vec::new();
    for frame in 0..30 {
        if frame == 6 {
            sfx.stop_sound(hum, Tween::default()).unwrap();
        }
        out.extend(render_left(&mut manager, dt));
        sfx.update(dt).unwrap();
        if frame == 8 {
            assert_eq!(sfx.state(voice), VoiceState::Real, "it took the voice");
        }
    }
    assert_eq!(click_at(&out), delay as usize);
}

#[test]
fn a_start_time_kira_cannot_wait_for_is_refused() {
    let (_manager, mut sfx) = game(64);
    let id = sfx
        .add_sound("click", click(), SoundSettings::default())
        .unwrap();
    let too_late = StartTime::Delayed(Duration::from_secs(3_601));
    assert_eq!(
        sfx.play(id, PlayParams::default().start_time(too_late))
            .err(),
        Some(pool_audio::PlayError::InvalidParam(ParamError::StartTime(
            too_late
        )))
    );
    assert_eq!(sfx.stats().plays, 0);
}

//! Voices created once and reused inside the mixer: every start, fresh, recycled
//! or stolen, is heard in the next block the mixer renders; a fade of the
//! shortest accepted length is heard as a fade; a steady stream of copies is
//! even; a virtual voice's playhead is exact after ten minutes; and a sound's
//! own start time (a delay, a kira clock) is kept.
//!
//! The first four failed before the voice bank: a recycled copy started 12.7 ms
//! late (the outgoing copy's fade and a kira chunk), a 1 ms fade was cut within
//! a 128-frame chunk, copy `i` of a stream played at its index's volume (loud to
//! quiet every `max_voices` shots), and virtual playheads ran on whole
//! microseconds.

use std::time::Duration;

use kira::sound::static_sound::StaticSoundData;
use kira::{AudioManager, Tween};
use pool_audio::{
    OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings, VoiceState,
    dsp::MeterHandle, voices::Resume, voices::Virtualization,
};

use crate::common::{self, HEADROOM, RATE, click, largest_step, mono};

struct Game {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    meter: MeterHandle,
}

impl Game {
    fn new(settings: SoundEffectsSettings) -> Self {
        let (manager, sfx, meter) = common::metered(RATE, settings);
        Self {
            manager,
            sfx,
            meter,
        }
    }

    /// The left channel of the next `seconds`.
    fn render(&mut self, seconds: f64) -> Vec<f32> {
        common::render_left(&mut self.manager, seconds)
    }
}

/// Frames from the start of `out` to its first sound.
fn latency(out: &[f32]) -> usize {
    out.iter()
        .position(|s| *s != 0.0)
        .expect("the copy was heard")
}

#[test]
fn every_start_fresh_recycled_or_stolen_is_heard_in_the_next_block() {
    // With the limiter's look-ahead, the mix is 1.5 ms late: 72 frames at 48 kHz.
    let lookahead = 72;
    let limited = SoundEffectsSettings::default();
    let settings = SoundSettings::default().max_voices(1);

    let mut fresh = Game::new(limited);
    let id = fresh.sfx.add_sound("click", click(), settings).unwrap();
    fresh.render(0.05);
    fresh.sfx.play(id, PlayParams::default()).unwrap();
    let fresh = latency(&fresh.render(0.05));

    // Its one copy still plays (silently): the next play recycles it.
    let mut recycled = Game::new(limited);
    let id = recycled.sfx.add_sound("click", click(), settings).unwrap();
    recycled.sfx.play(id, PlayParams::default()).unwrap();
    recycled.render(0.05);
    recycled.sfx.update(0.05).unwrap();
    recycled.sfx.play(id, PlayParams::default()).unwrap();
    assert_eq!(recycled.sfx.stats().recycled_copies, 1);
    let recycled = latency(&recycled.render(0.05));

    // One voice: another sound's play steals it.
    let mut stolen = Game::new(SoundEffectsSettings {
        voice_cap: 1,
        ..limited
    });
    let first = stolen.sfx.add_sound("first", click(), settings).unwrap();
    let second = stolen.sfx.add_sound("second", click(), settings).unwrap();
    stolen.sfx.play(first, PlayParams::default()).unwrap();
    stolen.render(0.05);
    stolen.sfx.update(0.05).unwrap();
    stolen.sfx.play(second, PlayParams::default()).unwrap();
    assert_eq!(stolen.sfx.stats().stolen_voices, 1);
    let stolen = latency(&stolen.render(0.05));

    for (case, frames) in [("fresh", fresh), ("recycled", recycled), ("stolen", stolen)] {
        assert_eq!(frames, lookahead, "{case}: {frames} frames late");
    }
}

/// A 440 Hz sine at full scale for half a second; with `lead_in` of silence
/// first.
fn tone(lead_in: f64) -> StaticSoundData {
    let silent = (lead_in * f64::from(RATE)) as usize;
    mono((0..silent + 24_000).map(move |i| {
        let t = i.saturating_sub(silent) as f32 / RATE as f32;
        if i < silent {
            0.0
        } else {
            (t * 440.0 * std::f32::consts::TAU).sin()
        }
    }))
}

#[test]
fn a_one_millisecond_fade_is_heard_as_a_fade() {
    // The shortest steal fade allowed, for a recycle, a steal, and a stop. The
    // new copy starts with 10 ms of silence: what is measured is the outgoing
    // copy's fade. A 440 Hz sine's own largest step is 2 pi 440 / 48000 of its
    // level; a linear fade over 48 frames adds at most 6% to it.
    let settings = SoundEffectsSettings {
        voice_cap: 1,
        steal_fade: Duration::from_millis(1),
        limiter: None,
        ..Default::default()
    };
    let one = SoundSettings::default().max_voices(1).first_volume(0.0);
    let own = HEADROOM * std::f32::consts::TAU * 440.0 / RATE as f32;
    for case in ["recycle", "steal", "stop"] {
        let mut game = Game::new(settings);
        let sine = game.sfx.add_sound("sine", tone(0.01), one).unwrap();
        let other = game.sfx.add_sound("other", tone(0.01), one).unwrap();
        let voice = game.sfx.play(sine, PlayParams::default()).unwrap();
        game.render(0.1);
        game.sfx.update(0.1).unwrap();
        match case {
            "recycle" => drop(game.sfx.play(sine, PlayParams::default()).unwrap()),
            "steal" => drop(game.sfx.play(other, PlayParams::default()).unwrap()),
            _ => {
                let fade = pool_audio::linear_fade(Duration::from_millis(1));
                game.sfx.voice(voice).stop(fade).unwrap();
            }
        }
        let out = game.render(0.01);
        let step = largest_step(&out);
        assert!(
            step <= 1.2 * own,
            "{case}: a step of {step}, {:.1}x the sine's own",
            step / own
        );
        assert!(
            out[0] != 0.0 && out[60..].iter().all(|s| *s == 0.0),
            "{case}: a fade, then silence"
        );
    }
}

/// A shot: a full-scale first sample (its onset), then a decaying 440 Hz tone,
/// 0.4 s in all: a 20 Hz stream keeps four copies sounding.
fn shot() -> StaticSoundData {
    mono((0..19_200).map(|i| {
        let t = i as f32 / RATE as f32;
        if i == 0 {
            1.0
        } else {
            0.5 * (t * 440.0 * std::f32::consts::TAU).sin() * (-t / 0.15).exp()
        }
    }))
}

#[test]
fn a_steady_stream_is_even_and_stays_under_the_headroom() {
    // A machine gun at 20 Hz (every third frame at 60 fps), four copies. Each
    // shot's onset is its first sample: the output's jump there, against the
    // line the copies already sounding were on.
    for first_volume in [0.2, 0.5] {
        let mut game = Game::new(SoundEffectsSettings {
            limiter: None,
            ..Default::default()
        });
        let settings = SoundSettings::default()
            .max_voices(4)
            .first_volume(common::db(first_volume));
        let gun = game.sfx.add_sound("gun", shot(), settings).unwrap();
        let mut out = Vec::new();
        let mut onsets = Vec::new();
        for frame in 0..180 {
            if frame % 3 == 0 {
                game.sfx.play(gun, PlayParams::default()).unwrap();
                onsets.push(out.len());
            }
            out.extend(game.render(1.0 / 60.0));
            game.sfx.update(1.0 / 60.0).unwrap();
        }
        let levels: Vec<f32> = onsets
            .iter()
            .skip(1)
            .map(|&at| out[at] - 2.0 * out[at - 1] + out[at - 2])
            .collect();
        let steady = &levels[4..];
        // Every shot is heard where it was played: a copy that started late
        // would show no onset there.
        assert!(
            levels.iter().all(|l| *l > 0.05),
            "first volume {first_volume}: a shot without its onset: {levels:?}"
        );
        let (low, high) = steady
            .iter()
            .fold((f32::MAX, f32::MIN), |(l, h), v| (l.min(*v), h.max(*v)));
        let spread = 20.0 * (high / low).log10();
        assert!(
            spread <= 1.0,
            "first volume {first_volume}: onsets spread over {spread:.2} dB: {levels:?}"
        );
        // Older copies leave: recycled at max_voices, or crowded out before
        // that when the budget keeps fewer (one, at 0.5 of a full-scale shot).
        let stats = game.sfx.stats();
        assert!(
            stats.recycled_copies + stats.crowded_copies > 50,
            "{stats:?}"
        );
        let kept = game.sfx.sound_info(gun).copies_kept().unwrap();
        assert_eq!(stats.crowded_copies > 0, kept < 4, "kept {kept}: {stats:?}");
        assert!(
            game.meter.peak() <= HEADROOM + 1e-5,
            "peak {}",
            game.meter.peak()
        );
        assert_eq!(game.meter.clipped_samples(), 0);
    }
}

#[test]
fn a_loop_virtual_for_ten_minutes_resumes_within_a_tenth_of_a_millisecond() {
    // Started at game time 0 and heard at its first frame; an alarm of a higher
    // priority takes the only voice (the loop goes virtual), the game runs ten
    // minutes of frames, the alarm stops (the loop resumes at its playhead).
    // Where it then is, read off its output, is where a loop that never stopped
    // would be: frame (time x rate) modulo the loop.
    const LOOP: usize = 38_321;
    for fps in [60.0, 144.0] {
        let dt = 1.0 / fps;
        let mut game = Game::new(SoundEffectsSettings {
            voice_cap: 1,
            limiter: None,
            ..Default::default()
        });
        let settings = SoundSettings::default()
            .max_voices(1)
            .first_volume(-6.0206)
            .virtualization(Virtualization::Virtualize(Resume::FromElapsed));
        let id = game
            .sfx
            .add_sound("ramp", common::ramp(LOOP), settings)
            .unwrap();
        let alarm = game
            .sfx
            .add_sound(
                "alarm",
                common::sine(330.0, 1.0).loop_region(..),
                SoundSettings::default().priority(1),
            )
            .unwrap();
        let voice = game.sfx.play(id, PlayParams::default()).unwrap();
        let mut time = 0.0;
        let mut frame = |game: &mut Game, render: bool| {
            if render {
                game.render(dt);
            }
            game.sfx.update(dt).unwrap();
            time += dt;
        };
        for _ in 0..10 {
            frame(&mut game, true);
        }
        game.sfx.play(alarm, PlayParams::default()).unwrap();
        for _ in 0..10 {
            frame(&mut game, true);
        }
        assert_eq!(game.sfx.state(voice), VoiceState::Virtual);
        // Ten minutes of game frames, the alarm playing.
        for _ in 0..(600.0 * fps) as usize {
            frame(&mut game, false);
        }
        game.sfx.stop_sound(alarm, Tween::default()).unwrap();
        frame(&mut game, false);
        assert_eq!(game.sfx.state(voice), VoiceState::Real);
        let out = game.render(0.05);
        // Past the fade-in: sample 960 is 960 frames on from where it resumed,
        // at the copy's volume, 0.5.
        let heard = f64::from(out[960] / 0.5 + 0.5) * LOOP as f64;
        let expected = (time * f64::from(RATE) + 960.0) % LOOP as f64;
        let off = (heard - expected)
            .abs()
            .min(LOOP as f64 - (heard - expected).abs());
        let off_ms = off / f64::from(RATE) * 1000.0;
        assert!(
            off_ms <= 0.1,
            "{fps} fps: {off_ms:.3} ms off ({heard:.1} vs {expected:.1})"
        );
    }
}

#[test]
fn a_sound_with_a_start_time_waits_for_its_delay_or_its_clock() {
    // Its own delay: 20 ms, 960 frames (no limiter: no look-ahead).
    let mut game = Game::new(SoundEffectsSettings {
        limiter: None,
        ..Default::default()
    });
    let delayed = click().start_time(Duration::from_millis(20));
    let id = game
        .sfx
        .add_sound("delayed", delayed, SoundSettings::default())
        .unwrap();
    game.sfx.play(id, PlayParams::default()).unwrap();
    assert_eq!(latency(&game.render(0.05)), 960);

    // A kira clock at 20 ticks a second: a sound set to tick 3 (0.15 s) starts
    // on the tick's frame, 7,200; kira's own static sound set to it starts on
    // the first frame of the chunk the tick falls in (kira moves a clock a
    // chunk at a time), up to 128 frames early.
    let on_tick = |game: &mut Game| {
        let mut clock = game
            .manager
            .add_clock(kira::clock::ClockSpeed::TicksPerSecond(20.0))
            .unwrap();
        let data = click().start_time(clock.time() + 3);
        clock.start();
        (clock, data)
    };
    let mut game = Game::new(SoundEffectsSettings {
        limiter: None,
        ..Default::default()
    });
    let (_clock, data) = on_tick(&mut game);
    let id = game
        .sfx
        .add_sound("on tick", data, SoundSettings::default().first_volume(0.0))
        .unwrap();
    game.sfx.play(id, PlayParams::default()).unwrap();
    let ours = latency(&game.render(0.3));
    let mut kira = Game::new(SoundEffectsSettings::default());
    let (_clock, data) = on_tick(&mut kira);
    kira.manager.play(data).unwrap();
    let kiras = latency(&kira.render(0.3));
    assert_eq!(ours, 7_200);
    assert!((7_200 - 127..7_200).contains(&kiras), "kira's at {kiras}");
}

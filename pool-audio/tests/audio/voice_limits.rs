//! The sound-effects manager on the offline backend: storms, recycling, stealing,
//! retrigger, pause / resume / stop, stale handles, and a random-sequence property
//! test that every limit holds.

use std::time::Duration;

use kira::{AudioManager, Tween};
use pool_audio::{
    OfflineBackend, PlayError, PlayParams, SoundEffects, SoundEffectsSettings, SoundId,
    SoundSettings, dsp::MeterHandle, error::AddSoundError, error::SettingsError, linear_fade,
    voices::Stealing, voices::WhenFull,
};
use proptest::prelude::*;

use crate::common::{self, FRAME, RATE};

mod crowding;
mod refusals;

/// A full-scale 440 Hz sine lasting `seconds`.
fn sine(seconds: f32) -> kira::sound::static_sound::StaticSoundData {
    common::sine(440.0, seconds)
}

fn setup(
    settings: SoundEffectsSettings,
) -> (AudioManager<OfflineBackend>, SoundEffects, MeterHandle) {
    common::metered(RATE, settings)
}

/// One game frame: update, then render a frame's worth of audio.
fn frame(manager: &mut AudioManager<OfflineBackend>, sfx: &mut SoundEffects) {
    sfx.update(FRAME).unwrap();
    manager.backend_mut().render(FRAME).unwrap();
}

#[test]
fn a_storm_of_copies_never_exceeds_the_headroom() {
    let (mut manager, mut sfx, meter) = setup(SoundEffectsSettings::default());
    let headroom = 10f64.powf(-1.0 / 20.0);
    let boom = sfx
        .add_sound(
            "boom",
            sine(0.5),
            SoundSettings::default()
                .max_voices(10)
                .first_volume(-13.9794),
        )
        .unwrap();
    let mut started = 0;
    for _ in 0..200 {
        if sfx.play(boom, PlayParams::default()).is_ok() {
            started += 1;
        }
    }
    assert_eq!(
        started, 200,
        "same-frame plays take over copies rather than fail"
    );
    assert_eq!(sfx.sound_info(boom).copies_playing(), 10);
    assert_eq!(
        sfx.stats().fading_voices,
        0,
        "same-frame take-overs start no extra voices"
    );
    manager.backend_mut().render(0.5).unwrap();
    assert!(
        f64::from(meter.peak()) <= headroom + 1e-4,
        "peak {}",
        meter.peak()
    );
    assert_eq!(meter.clipped_samples(), 0);
}

#[test]
fn recycling_takes_the_oldest_copy_and_its_handle_goes_stale() {
    let (mut manager, mut sfx, _) = setup(SoundEffectsSettings::default());
    let shot = sfx
        .add_sound(
            "shot",
            sine(2.0),
            SoundSettings::default()
                .max_voices(3)
                .first_volume(-13.9794),
        )
        .unwrap();
    let mut voices = Vec::new();
    for _ in 0..3 {
        voices.push(sfx.play(shot, PlayParams::default()).unwrap());
        frame(&mut manager, &mut sfx);
    }
    let newest = sfx.play(shot, PlayParams::default()).unwrap();
    assert!(
        !sfx.state(voices[0]).is_live(),
        "the oldest copy was recycled"
    );
    assert!(
        sfx.state(voices[1]).is_live()
            && sfx.state(voices[2]).is_live()
            && sfx.state(newest).is_live()
    );
    assert_eq!(sfx.sound_info(shot).copies_playing(), 3);
    assert_eq!(sfx.stats().recycled_copies, 1);
    assert_eq!(
        sfx.stats().fading_voices,
        1,
        "the recycled copy fades out in kira"
    );
    for _ in 0..3 {
        frame(&mut manager, &mut sfx);
    }
    assert_eq!(
        sfx.stats().fading_voices,
        0,
        "gone once kira has faded it out"
    );
}

#[test]
fn a_sound_that_refuses_when_full_keeps_its_copies() {
    let (_manager, mut sfx, _) = setup(SoundEffectsSettings::default());
    let ui = sfx
        .add_sound(
            "ui",
            sine(1.0),
            SoundSettings::default()
                .max_voices(2)
                .when_full(WhenFull::Strict),
        )
        .unwrap();
    let a = sfx.play(ui, PlayParams::default()).unwrap();
    let b = sfx.play(ui, PlayParams::default()).unwrap();
    assert_eq!(
        sfx.play(ui, PlayParams::default()),
        Err(PlayError::SoundLimit)
    );
    assert!(sfx.state(a).is_live() && sfx.state(b).is_live());
    assert_eq!(sfx.stats().refused_sound_limit, 1);
}

/// Three voices of three sounds, cap 3; the fourth play steals per `stealing`.
fn steal_with(stealing: Stealing) -> (Vec<bool>, SoundEffects) {
    let (mut manager, mut sfx, _) = setup(SoundEffectsSettings {
        voice_cap: 3,
        stealing,
        ..Default::default()
    });
    let sounds: Vec<SoundId> = (0..4)
        .map(|i| {
            sfx.add_sound(
                &format!("s{i}"),
                sine(2.0),
                SoundSettings::default().priority([5, 1, 9, 5][i]),
            )
            .unwrap()
        })
        .collect();
    sfx.listener().set_position([0.0, 0.0, 0.0]).unwrap();
    let volumes = [0.9, 0.5, 0.2];
    let positions = [[1.0, 0.0, 0.0], [9.0, 0.0, 0.0], [3.0, 0.0, 0.0]];
    let voices: Vec<_> = (0..3)
        .map(|i| {
            let v = sfx
                .play(
                    sounds[i],
                    PlayParams::default()
                        .volume(common::db(volumes[i]))
                        .position(positions[i]),
                )
                .unwrap();
            frame(&mut manager, &mut sfx);
            v
        })
        .collect();
    let _ = sfx.play(sounds[3], PlayParams::default());
    (
        voices.iter().map(|v| sfx.state(*v).is_live()).collect(),
        sfx,
    )
}

#[test]
fn the_voice_cap_steals_by_each_policy() {
    assert_eq!(steal_with(Stealing::Oldest).0, [false, true, true]);
    assert_eq!(steal_with(Stealing::Quietest).0, [true, true, false]);
    assert_eq!(steal_with(Stealing::Furthest).0, [true, false, true]);
    assert_eq!(steal_with(Stealing::LowestPriority).0, [true, false, true]);
    let (alive, sfx) = steal_with(Stealing::Strict);
    assert_eq!(alive, [true, true, true]);
    assert_eq!(sfx.stats().refused_voice_cap, 1);
    let (_, sfx) = steal_with(Stealing::Oldest);
    assert_eq!((sfx.stats().stolen_voices, sfx.stats().real_voices), (1, 3));
}

#[test]
fn the_retrigger_interval_refuses_plays_too_close_together() {
    let (mut manager, mut sfx, _) = setup(SoundEffectsSettings::default());
    let step = sfx
        .add_sound(
            "step",
            sine(0.2),
            SoundSettings::default().min_retrigger(std::time::Duration::from_secs_f64(0.05)),
        )
        .unwrap();
    sfx.play(step, PlayParams::default()).unwrap();
    assert_eq!(
        sfx.play(step, PlayParams::default()),
        Err(PlayError::Retrigger)
    );
    frame(&mut manager, &mut sfx); // 16.7 ms
    assert_eq!(
        sfx.play(step, PlayParams::default()),
        Err(PlayError::Retrigger)
    );
    for _ in 0..3 {
        frame(&mut manager, &mut sfx);
    }
    assert!(
        sfx.play(step, PlayParams::default()).is_ok(),
        "66.7 ms later"
    );
    assert_eq!(sfx.stats().refused_retrigger, 2);
}

#[test]
fn ended_voices_go_back_to_the_pool_on_update_and_their_handles_go_stale() {
    let (mut manager, mut sfx, _) = setup(SoundEffectsSettings::default());
    let blip = sfx
        .add_sound("blip", sine(0.01), SoundSettings::default())
        .unwrap();
    let voice = sfx.play(blip, PlayParams::default()).unwrap();
    manager.backend_mut().render(0.05).unwrap();
    assert!(sfx.state(voice).is_live(), "until update notices");
    sfx.update(FRAME).unwrap();
    assert!(!sfx.state(voice).is_live());
    assert_eq!(sfx.sound_info(blip).copies_playing(), 0);
    assert!(sfx.voice(voice).stop(linear_fade(Duration::ZERO)).is_err());
    assert!(
        sfx.voice(voice).pause(Tween::default()).is_err()
            && sfx.voice(voice).resume(Tween::default()).is_err()
    );
    assert!(
        sfx.voice(voice)
            .set_volume(-6.0206, Tween::default())
            .is_err()
            && sfx.voice(voice).set_position([0.0; 3]).is_err()
    );
}

#[test]
fn pause_resume_and_stop_control_the_kira_sound() {
    let (mut manager, mut sfx, meter) = setup(SoundEffectsSettings::default());
    let hum = sfx
        .add_sound("hum", sine(2.0), SoundSettings::default())
        .unwrap();
    let voice = sfx.play(hum, PlayParams::default()).unwrap();
    frame(&mut manager, &mut sfx);
    sfx.voice(voice).pause(Tween::default()).unwrap();
    frame(&mut manager, &mut sfx);
    meter.reset();
    manager.backend_mut().render(0.1).unwrap();
    assert_eq!(meter.peak(), 0.0, "silent while paused");
    assert!(sfx.state(voice).is_live(), "a paused voice keeps its voice");
    sfx.voice(voice).resume(Tween::default()).unwrap();
    manager.backend_mut().render(0.1).unwrap();
    assert!(meter.peak() > 0.1, "audible again");
    sfx.voice(voice)
        .stop(linear_fade(Duration::from_millis(5)))
        .unwrap();
    frame(&mut manager, &mut sfx);
    meter.reset();
    manager.backend_mut().render(0.1).unwrap();
    assert_eq!(meter.peak(), 0.0, "silent once stopped");
}

/// A square wave at full scale: kira's resampling overshoots it (peak ~1.25),
/// so its budget is the tightest.
fn square(seconds: f32) -> kira::sound::static_sound::StaticSoundData {
    let frames = (0..(seconds * RATE as f32) as usize)
        .map(|i| kira::Frame::from_mono(if i % 40 < 20 { 1.0 } else { -1.0 }))
        .collect();
    kira::sound::static_sound::StaticSoundData {
        sample_rate: RATE,
        frames,
        settings: Default::default(),
        slice: None,
    }
}

#[test]
fn a_burst_starts_exactly_max_voices_copies_or_the_settings_are_refused() {
    let (mut manager, mut sfx, _) = setup(SoundEffectsSettings {
        voice_cap: 64,
        ..Default::default()
    });
    let (mut sounds, mut refused, mut refused_at_default) = (0, 0, 0);
    for floor in [-60.0, -40.0, -20.0] {
        for first in [0.05, 0.2, 0.5, 0.8, 1.0] {
            for copies in [1, 2, 4, 8, 10, 16, 32, 64] {
                for (kind, data) in [("sine", sine(1.0)), ("square", square(1.0))] {
                    let settings = SoundSettings::default()
                        .max_voices(copies)
                        .first_volume(common::db(first))
                        .audibility_floor(floor as f32);
                    let name = format!("{kind} {floor} {first} {copies}");
                    // 64 plays in one frame (at least `max_voices`), then every
                    // voice let go of.
                    let mut burst = |sfx: &mut SoundEffects, sound| {
                        for i in 0..64 {
                            if let Err(e) = sfx.play(sound, PlayParams::default()) {
                                panic!(
                                    "{name}: play {i}: {e}, {:?}",
                                    sfx.sound_info(sound).copy_volumes()
                                );
                            }
                        }
                        let playing = sfx.sound_info(sound).copies_playing();
                        sfx.stop_sound(sound, linear_fade(Duration::ZERO)).unwrap();
                        for _ in 0..2 {
                            frame(&mut manager, sfx);
                        }
                        playing
                    };
                    match sfx.add_sound(&name, data.clone(), settings) {
                        Ok(sound) => {
                            sounds += 1;
                            assert_eq!(burst(&mut sfx, sound), copies, "{name}");
                            let volumes = sfx.sound_info(sound).copy_volumes().unwrap();
                            let quietest = 20.0 * volumes.volume(copies as u32 - 1).log10();
                            assert!(quietest >= floor - 1e-9, "{name}: {quietest} dB");
                            sfx.remove_sound(sound, Tween::default()).unwrap();
                        }
                        Err(AddSoundError::Settings(SettingsError::InaudibleCopies {
                            max_voices,
                            fits,
                        })) => {
                            refused += 1;
                            refused_at_default += usize::from(floor == -60.0);
                            assert!(max_voices == copies && fits < copies, "{name}");
                            // The error names what fits: that many play, one more does not.
                            let fitting = settings.max_voices(fits);
                            let sound = sfx.add_sound(&name, data.clone(), fitting).unwrap();
                            assert_eq!(burst(&mut sfx, sound), fits, "{name}");
                            sfx.remove_sound(sound, Tween::default()).unwrap();
                            let one_more = settings.max_voices(fits + 1);
                            assert!(sfx.add_sound(&name, data.clone(), one_more).is_err());
                        }
                        Err(AddSoundError::Settings(SettingsError::FirstVolumeUnderFloor(v))) => {
                            refused += 1;
                            refused_at_default += usize::from(floor == -60.0);
                            assert_eq!(v, common::db(first), "{name}");
                            // The remedy the error names: a lower floor plays.
                            let lower = settings.audibility_floor(-60.0);
                            let sound = sfx.add_sound(&name, data.clone(), lower).unwrap();
                            sfx.remove_sound(sound, Tween::default()).unwrap();
                        }
                        Err(error) => panic!("{name}: {error}"),
                    }
                }
            }
        }
    }
    // At the default floor every setting plays as asked; higher floors refuse
    // some (a first volume under them, or too many copies at them).
    assert_eq!(refused_at_default, 0);
    eprintln!("{sounds} settings played as asked, {refused} refused");
    assert!(refused > 0 && sounds > refused);
    // Before the floor lifted the copies, the default first volume's 10 copies
    // started only those above -60 dB.
    let budget = 10f64.powf(-1.0 / 20.0);
    let unlifted = pool_audio::sound::CopyVolumes::solve(10, 0.5, budget).unwrap();
    let above = (0..10).filter(|i| unlifted.volume(*i) >= 0.001).count();
    eprintln!("max_voices(10) at the default first volume: {above} copies before, 10 now");
    assert!(above < 10);
}

#[test]
fn a_positioned_burst_of_fifty_explosions_starts_the_ten_copies_asked_for() {
    let (mut manager, mut sfx, _) = setup(SoundEffectsSettings::default());
    let settings = SoundSettings::default()
        .max_voices(10)
        .first_volume(-7.9588);
    let boom = sfx.add_sound("boom", sine(1.0), settings).unwrap();
    sfx.listener().set_position([0.0, 0.0, 0.0]).unwrap();
    let started = (0..50)
        .filter(|i| {
            let at = [5.0 + (*i as f32 * 0.5), 0.0, 0.0];
            sfx.play(boom, PlayParams::default().position(at)).is_ok()
        })
        .count();
    assert_eq!((started, sfx.sound_info(boom).copies_playing()), (50, 10));
    // Once settled, the budget keeps the newest copies above the floor; the
    // update lets the others go.
    frame(&mut manager, &mut sfx);
    let kept = sfx.sound_info(boom).copies_kept().unwrap();
    assert!((2..10).contains(&kept), "{kept}");
    assert_eq!(sfx.sound_info(boom).copies_playing(), kept);
    assert_eq!(sfx.stats().crowded_copies, 10 - kept as u64);
}

#[derive(Debug, Clone)]
enum Op {
    Play(usize, u8),
    PlayAt(usize, i8),
    Stop(usize),
    Pause(usize),
    Resume(usize),
    Frame,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0..3usize, 0..=10u8).prop_map(|(s, v)| Op::Play(s, v)),
        2 => (0..3usize, any::<i8>()).prop_map(|(s, x)| Op::PlayAt(s, x)),
        1 => any::<usize>().prop_map(Op::Stop),
        1 => any::<usize>().prop_map(Op::Pause),
        1 => any::<usize>().prop_map(Op::Resume),
        3 => Just(Op::Frame),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::proptest_cases(48), ..ProptestConfig::default() })]

    #[test]
    fn random_sequences_respect_every_limit(
        cap in 1..6usize,
        stealing in prop::sample::select(vec![Stealing::Oldest, Stealing::Quietest, Stealing::Strict]),
        ops in prop::collection::vec(op(), 0..120),
    ) {
        let (mut manager, mut sfx, _) = setup(SoundEffectsSettings { voice_cap: cap, stealing, ..Default::default() });
        let limits = [2usize, 3, 5];
        let sounds: Vec<SoundId> = limits
            .iter()
            .enumerate()
            .map(|(i, n)| sfx.add_sound(&format!("s{i}"), sine(0.05 * (i + 1) as f32), SoundSettings::default().max_voices(*n).first_volume(-10.4576)).unwrap())
            .collect();
        let mut handles = Vec::new();
        for op in ops {
            match op {
                Op::Play(s, v) => match sfx.play(sounds[s], PlayParams::default().volume(common::db(f64::from(v) / 10.0))) {
                    Ok(handle) => handles.push(handle),
                    Err(error) => prop_assert!(
                        matches!(error, PlayError::VoiceCap | PlayError::NoFreeVoice | PlayError::Inaudible),
                        "unexpected {error:?}"
                    ),
                },
                Op::PlayAt(s, x) => match sfx.play(sounds[s], PlayParams::default().position([f32::from(x), 0.0, 1.0])) {
                    Ok(handle) => handles.push(handle),
                    Err(error) => prop_assert!(
                        matches!(error, PlayError::VoiceCap | PlayError::NoFreeVoice | PlayError::Inaudible),
                        "unexpected {error:?}"
                    ),
                },
                Op::Stop(i) if !handles.is_empty() => {
                    // Fades from none to longer than a frame.
                    let out = linear_fade(Duration::from_millis((i % 40) as u64));
                    let _ = sfx.voice(handles[i % handles.len()]).stop(out);
                }
                Op::Pause(i) if !handles.is_empty() => { let _ = sfx.voice(handles[i % handles.len()]).pause(Tween::default()); }
                Op::Resume(i) if !handles.is_empty() => { let _ = sfx.voice(handles[i % handles.len()]).resume(Tween::default()); }
                Op::Frame => frame(&mut manager, &mut sfx),
                _ => {}
            }
            let stats = sfx.stats();
            prop_assert!(stats.real_voices <= cap);
            prop_assert!(stats.real_voices + stats.fading_voices <= 2 * cap, "the bank's slots");
            let mut fading = 0;
            for (sound, limit) in sounds.iter().zip(limits) {
                prop_assert!(sfx.sound_info(*sound).copies_playing() <= limit);
                fading += sfx.sound_info(*sound).copies_fading();
            }
            // Copies still fading hold a slot of the bank each, until it is done.
            prop_assert!(fading <= stats.fading_voices);
            let live = handles.iter().filter(|h| sfx.state(**h).is_live()).count();
            prop_assert_eq!(live, stats.real_voices);
        }
    }
}

#[test]
fn the_banks_slots_are_never_overrun_however_seldom_the_mixer_renders() {
    // A stopped voice keeps its slot of the voice bank until the mixer has faded
    // it out: with updates and renders out of step, the manager must count it
    // until then.
    let (mut manager, mut sfx, _) = setup(SoundEffectsSettings {
        voice_cap: 4,
        ..Default::default()
    });
    let sounds: Vec<SoundId> = (0..6)
        .map(|i| {
            sfx.add_sound(
                &format!("s{i}"),
                sine(1.0),
                SoundSettings::default().max_voices(1),
            )
            .unwrap()
        })
        .collect();
    let mut refused = 0;
    for round in 0..40 {
        for sound in &sounds {
            match sfx.play(*sound, PlayParams::default()) {
                Ok(_) => {}
                Err(PlayError::NoFreeVoice) => refused += 1,
                Err(other) => panic!("round {round}: {other:?}"),
            }
        }
        sfx.stop_all(linear_fade(Duration::ZERO))
            .expect("a linear fade is valid");
        if round % 3 == 0 {
            manager.backend_mut().render(0.001).unwrap(); // a single block of the mixer
        }
        sfx.update(FRAME).unwrap();
        let stats = sfx.stats();
        assert!(stats.real_voices + stats.fading_voices <= 8);
    }
    assert!(refused > 0, "the guard was exercised");
    // Said as what it is: voices still fading out, not a strict voice cap.
    let stats = sfx.stats();
    assert_eq!(
        (stats.refused_no_free_voice, stats.refused_voice_cap),
        (refused, 0)
    );
    assert!(
        PlayError::NoFreeVoice
            .to_string()
            .contains("still fading out")
    );
}

/// The peak of one positioned copy, heard from the origin.
fn peak_at(position: [f32; 3], blend: f32) -> f32 {
    let (mut manager, mut sfx, meter) = setup(SoundEffectsSettings::default());
    let hum = sfx
        .add_sound(
            "hum",
            sine(0.5),
            SoundSettings::default().first_volume(-6.0206),
        )
        .unwrap();
    sfx.play(
        hum,
        PlayParams::default()
            .position(position)
            .spatial_blend(blend),
    )
    .unwrap();
    manager.backend_mut().render(0.3).unwrap();
    meter.peak()
}

#[test]
fn positioned_sounds_fade_with_distance_unless_their_blend_is_zero() {
    let near = peak_at([2.0, 0.0, 0.0], 1.0);
    let far = peak_at([60.0, 0.0, 0.0], 1.0);
    assert!(near > 0.05, "near {near}");
    assert!(
        far < near * 0.7,
        "far {far} should be quieter than near {near}"
    );
    let unspatialized = peak_at([60.0, 0.0, 0.0], 0.0);
    assert!(
        unspatialized > far,
        "a blend of 0 ignores the distance: {unspatialized} vs {far}"
    );
}

#[test]
fn positioned_voices_are_limited_by_the_voice_cap_only() {
    let (mut manager, mut sfx, meter) = setup(SoundEffectsSettings {
        voice_cap: 48,
        ..Default::default()
    });
    let hum = sfx
        .add_sound(
            "hum",
            sine(0.5),
            // 48 copies at 0.015 fit in -1 dBFS at once: all are kept.
            SoundSettings::default()
                .max_voices(48)
                .first_volume(-36.4782),
        )
        .unwrap();
    for i in 0..48 {
        let angle = i as f32 / 48.0 * std::f32::consts::TAU;
        let here = PlayParams::default().position([3.0 * angle.cos(), 0.0, 3.0 * angle.sin()]);
        sfx.play(hum, here).unwrap();
        if i % 8 == 7 {
            frame(&mut manager, &mut sfx);
        }
    }
    assert_eq!(sfx.stats().real_voices, 48);
    // One more recycles a copy: the cap holds.
    sfx.play(hum, PlayParams::default().position([1.0, 0.0, 0.0]))
        .unwrap();
    assert_eq!(sfx.stats().real_voices, 48);
    manager.backend_mut().render(0.1).unwrap();
    assert!(meter.peak() > 0.0 && meter.peak() < 0.9);
}

#[test]
fn the_manager_handles_and_readings_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<SoundEffects>();
    send_sync::<pool_audio::VoiceHandle>();
    send_sync::<pool_audio::dsp::LimiterHandle>();
    send_sync::<MeterHandle>();
    send_sync::<pool_audio::sound::SoundPeak>();
}

#[test]
fn a_full_command_queue_is_a_typed_error_counted_and_nothing_changes() {
    // The mixer never runs: the voice bank's queue (1,024 commands at a cap of
    // 64) fills up, and every call that would send one more says so.
    let (mut manager, mut sfx, _) = setup(SoundEffectsSettings::default());
    let hum = sfx
        .add_sound("hum", sine(1.0), SoundSettings::default())
        .unwrap();
    let voice = sfx.play(hum, PlayParams::default()).unwrap();
    let mut sent = 1;
    while sfx.listener().set_position([sent as f32, 0.0, 0.0]).is_ok() {
        sent += 1;
    }
    assert_eq!(sent, 1_024, "commands the queue held");
    assert_eq!(sfx.stats().queue_full, 1);
    assert_eq!(
        sfx.play(hum, PlayParams::default()),
        Err(PlayError::QueueFull)
    );
    assert_eq!(
        sfx.voice(voice).set_volume(-6.0206, Tween::default()),
        Err(pool_audio::VoiceError::QueueFull)
    );
    assert_eq!(
        sfx.voice(voice).stop(Tween::default()),
        Err(pool_audio::VoiceError::QueueFull)
    );
    assert!(
        sfx.state(voice).is_live(),
        "the refused stop changed nothing"
    );
    assert_eq!(sfx.sound_info(hum).copies_playing(), 1);
    assert_eq!(sfx.stats().queue_full, 4);
    // One block of the mixer reads the queue: room again.
    manager.backend_mut().render(0.01).unwrap();
    assert!(sfx.play(hum, PlayParams::default()).is_ok());
    sfx.voice(voice).stop(Tween::default()).unwrap();
    assert!(!sfx.state(voice).is_live());
}

#[test]
fn quietest_stealing_hears_each_copy_at_its_rank() {
    // Two copies of one sound at full play volume and one of another at 0.9:
    // copy volumes 0.3 then 0.24 (four copies sharing -1 dBFS), so the older
    // copy of the first sound (0.24) is quieter than the other sound (0.27).
    let (mut manager, mut sfx, _) = setup(SoundEffectsSettings {
        voice_cap: 3,
        stealing: Stealing::Quietest,
        ..Default::default()
    });
    let settings = SoundSettings::default()
        .max_voices(4)
        .first_volume(-10.4576);
    let a = sfx.add_sound("a", sine(2.0), settings).unwrap();
    let b = sfx.add_sound("b", sine(2.0), settings).unwrap();
    let older = sfx.play(a, PlayParams::default()).unwrap();
    frame(&mut manager, &mut sfx);
    let newer = sfx.play(a, PlayParams::default()).unwrap();
    frame(&mut manager, &mut sfx);
    let other = sfx.play(b, PlayParams::default().volume(-0.9151)).unwrap();
    frame(&mut manager, &mut sfx);
    let volumes = sfx.sound_info(a).copy_volumes().unwrap();
    assert!(volumes.volume(1) < 0.9 * volumes.volume(0), "{volumes:?}");
    let played = sfx.play_detailed(b, PlayParams::default()).unwrap();
    assert_eq!(played.displaced.map(|(voice, _)| voice), Some(older));
    assert!(sfx.state(newer).is_live() && sfx.state(other).is_live());
}

//! The voice table agrees with what is heard: in a scene of ten tones
//! (positioned left and right at several distances, panned, occluded, in a
//! group under a snapshot, one through a volume curve, three in the
//! loudness window at different loudness), each real voice's
//! reported level in each channel is its own tone's level in the render
//! within 0.5 dB, and each virtual voice is silent, through 10 seconds.

use pool_audio::game::{Curve, CurveTarget, GameParamSettings};
use pool_audio::mix::Snapshot;
use pool_audio::spatial::Muffle;
use pool_audio::voices::WhyVirtual;
use pool_audio::{
    GroupSettings, PlayParams, SoundEffectsSettings, SoundSettings, VoiceState, kira::Decibels,
    kira::Tween,
};

use super::common::{self, RATE};

/// The tones, Hz: one per voice, apart enough to be told apart in 0.25 s.
const TONES: [f32; 10] = [
    200.0, 260.0, 330.0, 410.0, 500.0, 610.0, 730.0, 870.0, 1030.0, 1210.0,
];

/// The amplitude of the tone at `hz` in `samples` (one channel), through
/// a Hann window: the other tones, loud in the other ear, leak nothing.
fn amplitude(samples: &[f32], hz: f32) -> f64 {
    let (mut re, mut im) = (0.0f64, 0.0f64);
    let n_all = samples.len() as f64;
    for (n, s) in samples.iter().enumerate() {
        let window = 0.5 - 0.5 * (std::f64::consts::TAU * n as f64 / n_all).cos();
        let phase = f64::from(hz) * std::f64::consts::TAU * n as f64 / f64::from(RATE);
        re += window * f64::from(*s) * phase.cos();
        im += window * f64::from(*s) * phase.sin();
    }
    // The window's coherent gain is 1/2.
    4.0 * re.hypot(im) / n_all
}

#[test]
fn every_voices_reported_level_is_its_level_in_the_render() {
    let window = pool_audio::mix::LoudnessWindow::default()
        .height(30.0)
        .floor(50.0);
    let settings = SoundEffectsSettings {
        voice_cap: 8,
        limiter: None,
        loudness_window: Some(window),
        ..Default::default()
    };
    let (mut manager, mut sfx, _meter) = common::metered(RATE, settings);
    let quiet = sfx.add_group("quiet", GroupSettings::default()).unwrap();
    let loud = GroupSettings::default().loudness_window(true);
    let loud = sfx.add_group("loud", loud).unwrap();
    let hush = sfx
        .mix_mut()
        .add_snapshot(Snapshot::new("hush").set(quiet, -9.0))
        .unwrap();
    let rain = sfx
        .add_game_param("rain", GameParamSettings::new(0.0, 1.0))
        .unwrap();
    let wall = Muffle {
        volume: Decibels(-10.0),
        cutoff_hz: 20_000.0,
        ..Muffle::OCCLUSION
    };
    // Each voice: its place (or none), panning, group, occlusion, curve.
    let mut voices = Vec::new();
    for (i, hz) in TONES.iter().enumerate() {
        let mut settings = SoundSettings::default().first_volume(-8.0).occlusion(wall);
        if i % 4 == 1 {
            settings = settings.group(quiet);
        }
        if i % 4 == 2 {
            settings = settings.group(loud).loudness(70.0 + i as f32 * 2.0);
        }
        if i == 3 {
            let down = [(0.0, 0.0), (1.0, -7.0)];
            settings = settings.curve(Curve::new(rain, CurveTarget::Volume, &down).unwrap());
        }
        let data = common::sine_at(0.25, *hz, 1.0).loop_region(..);
        let sound = sfx.add_sound(&format!("tone {i}"), data, settings).unwrap();
        let mut params = PlayParams {
            volume: Decibels(-(i as f32 % 3.0) * 2.0),
            ..Default::default()
        };
        if i % 3 != 2 {
            // Left and right, near and far: the farthest rank lowest.
            let side = if i % 2 == 0 { -1.0 } else { 1.0 };
            params = params.position([side * (2.0 + i as f32 * 3.0), 0.0, -1.0]);
        } else {
            params.panning = if i % 2 == 0 { -0.5 } else { 0.3 };
        }
        let voice = sfx.play(sound, params).unwrap();
        if i == 5 {
            sfx.voice(voice).set_occlusion(0.6).unwrap();
        }
        voices.push((voice, *hz));
    }
    sfx.mix_mut()
        .apply_snapshot(hush, 1.0, Tween::default())
        .unwrap();
    sfx.set_game_param(rain, 1.0).unwrap();
    let (mut checked_real, mut checked_virtual) = (0, 0);
    for second in 0..10 {
        // A second of game frames, then what the table says against the
        // next quarter second of the render.
        for _ in 0..60 {
            sfx.update(1.0 / 60.0).unwrap();
            manager.backend_mut().render(1.0 / 60.0).unwrap();
        }
        let table: Vec<_> = sfx.voices().collect();
        // Where each voice is in its one-second loop: the audio rendered for
        // a real one, the game's time for a virtual one (the quarter
        // seconds rendered for listening have no update).
        let rendered = (second + 1) as f64 + second as f64 * 0.25;
        let game = (second + 1) as f64;
        for info in &table {
            let expected = if info.state == VoiceState::Real {
                rendered
            } else {
                game
            } % 1.0;
            let at = info.playhead.expect("a playhead");
            let off = (at - expected).rem_euclid(1.0);
            assert!(
                off.min(1.0 - off) < 0.011,
                "second {second}: at {at:.4} s, expected {expected:.4} s"
            );
        }
        let audio = manager.backend_mut().render(0.25).unwrap();
        let channels = [0, 1]
            .map(|c| -> Vec<f32> { audio.samples().iter().skip(c).step_by(2).copied().collect() });
        for (voice, hz) in &voices {
            let info = table
                .iter()
                .find(|v| v.voice == *voice)
                .expect("every voice is in the table");
            let heard = [0, 1].map(|c| amplitude(&channels[c], *hz) / 0.25);
            match info.state {
                VoiceState::Real => {
                    for (c, (said, heard)) in info.level.iter().zip(heard).enumerate() {
                        let said = f64::from(said.0);
                        let got = 20.0 * heard.log10();
                        assert!(
                            (said - got).abs() < 0.5,
                            "second {second}, {hz} Hz, channel {c}: said {said:.2} dB, heard {got:.2} dB"
                        );
                    }
                    checked_real += 1;
                }
                VoiceState::Virtual => {
                    assert!(info.why_virtual.is_some(), "{hz} Hz: virtual, and why");
                    assert!(
                        heard.iter().all(|a| *a < 1e-3),
                        "{hz} Hz virtual, heard {heard:?}"
                    );
                    checked_virtual += 1;
                }
                other => panic!("{hz} Hz: {other:?}"),
            }
        }
    }
    assert_eq!(
        (checked_real, checked_virtual),
        (80, 20),
        "8 real and 2 virtual each second"
    );
    let outranked = sfx
        .voices()
        .filter(|v| v.why_virtual == Some(WhyVirtual::Outranked))
        .count();
    assert_eq!(outranked, 2, "the two farthest, under the voice cap");
}

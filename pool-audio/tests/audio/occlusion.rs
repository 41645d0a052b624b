//! Obstruction and occlusion, measured in the render: occlusion 1 lowers
//! white noise above 4 kHz by the curve's volume and its low-pass (the
//! render's spectrum, by FFT), and below the cutoff by the curve's volume; a
//! change from 0 to 1 in one frame makes no step larger than the sound's
//! own; a voice occluded under its sound's audibility floor goes virtual,
//! and comes back when cleared; bad amounts and curves are refused. The game
//! updates every 10 ms, before each block the offline mixer renders.

use std::sync::Arc;

use kira::Frame;
use kira::sound::static_sound::StaticSoundData;
use kira::{AudioManager, AudioManagerSettings};
use pool_audio::{
    OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundId, SoundSettings,
    VoiceError, VoiceState, error::ParamError, error::SettingsError, spatial::Muffle,
};
use rustfft::FftPlanner;
use rustfft::num_complex::Complex;

use crate::common::{self, BLOCK, largest_step};

const RATE: f64 = common::RATE as f64;
/// The FFT's length: 5.9 Hz bins.
const FFT: usize = 8192;

struct Scene {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    /// The left channel, every frame rendered.
    left: Vec<f32>,
}

impl Scene {
    /// No limiter: what is measured is the voice alone.
    fn new() -> Self {
        let mut manager =
            AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
        let settings = SoundEffectsSettings {
            limiter: None,
            ..Default::default()
        };
        let sfx = SoundEffects::new(&mut manager, settings).unwrap();
        Self {
            manager,
            sfx,
            left: Vec::new(),
        }
    }

    fn add(&mut self, data: StaticSoundData, settings: SoundSettings) -> SoundId {
        self.sfx.add_sound("sound", data, settings).unwrap()
    }

    fn run(&mut self, seconds: f64) {
        for _ in 0..(seconds / BLOCK).round() as usize {
            self.sfx.update(BLOCK).unwrap();
            let out = self.manager.backend_mut().render(BLOCK).unwrap();
            self.left
                .extend(out.samples().chunks(2).map(|frame| frame[0]));
        }
    }

    /// The power spectrum of the left channel from `from` seconds on,
    /// averaged over `count` Hann-windowed FFTs overlapping by half.
    fn spectrum(&self, from: f64, count: usize) -> Vec<f64> {
        let fft = FftPlanner::new().plan_fft_forward(FFT);
        let start = (from * RATE) as usize;
        let mut power = vec![0.0; FFT / 2];
        for k in 0..count {
            let at = start + k * FFT / 2;
            let mut buffer: Vec<Complex<f64>> = (0..FFT)
                .map(|i| {
                    let hann = 0.5 - 0.5 * (std::f64::consts::TAU * i as f64 / FFT as f64).cos();
                    Complex::new(f64::from(self.left[at + i]) * hann, 0.0)
                })
                .collect();
            fft.process(&mut buffer);
            for (p, c) in power.iter_mut().zip(&buffer) {
                *p += c.norm_sqr();
            }
        }
        power
    }
}

/// A second of white noise (a fixed seed), looping, at half scale.
fn noise() -> StaticSoundData {
    let mut state = 0x2545_f491_u32;
    let frames: Arc<[Frame]> = (0..RATE as usize)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            Frame::from_mono((state as f32 / u32::MAX as f32 - 0.5) * 0.5)
        })
        .collect();
    StaticSoundData {
        sample_rate: RATE as u32,
        frames,
        settings: Default::default(),
        slice: None,
    }
    .loop_region(..)
}

fn bin_hz(bin: usize) -> f64 {
    bin as f64 * RATE / FFT as f64
}

/// The one-pole low-pass's power gain at `hz` for a cutoff of `cutoff` Hz:
/// `a^2 / |1 - (1 - a) e^-jw|^2` with `a = 1 - exp(-2 pi fc / fs)`.
fn one_pole_power(hz: f64, cutoff: f64) -> f64 {
    let a = 1.0 - (-std::f64::consts::TAU * cutoff / RATE).exp();
    let w = std::f64::consts::TAU * hz / RATE;
    a * a / (1.0 - 2.0 * (1.0 - a) * w.cos() + (1.0 - a) * (1.0 - a))
}

fn db(power_ratio: f64) -> f64 {
    10.0 * power_ratio.log10()
}

#[test]
fn occlusion_lowers_the_noise_above_4_khz_by_its_curve_and_below_its_cutoff_by_its_volume() {
    let mut scene = Scene::new();
    let noise = scene.add(noise(), SoundSettings::default());
    let voice = scene.sfx.play(noise, PlayParams::default()).unwrap();
    scene.run(1.0);
    scene.sfx.voice(voice).set_occlusion(1.0).unwrap();
    scene.run(1.5);
    // Clear from 0.1 s; occluded from 1.2 s (the glide is 50 ms).
    let clear = scene.spectrum(0.1, 8);
    let occluded = scene.spectrum(1.2, 8);
    let curve = Muffle::OCCLUSION;
    let volume = 10f64.powf(f64::from(curve.volume.0) / 10.0);
    for (name, band) in [
        ("above 4 kHz", 4_000.0..20_000.0),
        ("below 150 Hz", 20.0..150.0),
    ] {
        let bins = || (0..FFT / 2).filter(|b| band.contains(&bin_hz(*b)));
        let heard: f64 =
            bins().map(|b| occluded[b]).sum::<f64>() / bins().map(|b| clear[b]).sum::<f64>();
        // The clear noise through the curve: its volume and its low-pass.
        let expected: f64 = bins()
            .map(|b| clear[b] * volume * one_pole_power(bin_hz(b), curve.cutoff_hz))
            .sum::<f64>()
            / bins().map(|b| clear[b]).sum::<f64>();
        assert!(
            (db(heard) - db(expected)).abs() < 0.5,
            "{name}: {:.2} dB heard, {:.2} dB expected",
            db(heard),
            db(expected)
        );
        if name == "below 150 Hz" {
            // Under the cutoff, it is the curve's volume.
            assert!(
                (db(heard) - f64::from(curve.volume.0)).abs() < 0.5,
                "{:.2} dB",
                db(heard)
            );
        } else {
            // Far more than the volume alone: the low-pass is heard.
            assert!(
                db(heard) < f64::from(curve.volume.0) - 10.0,
                "{:.2} dB",
                db(heard)
            );
        }
    }
}

#[test]
fn obstruction_and_occlusion_from_0_to_1_in_one_frame_make_no_step_larger_than_the_sounds_own() {
    let mut scene = Scene::new();
    // A low tone: its own steps are small, so a click would stand out.
    let tone = scene.add(
        common::sine(100.0, 1.0).loop_region(..),
        SoundSettings::default(),
    );
    let voice = scene.sfx.play(tone, PlayParams::default()).unwrap();
    scene.run(0.5);
    let own = largest_step(&scene.left[4800..]);
    scene.sfx.voice(voice).set_obstruction(1.0).unwrap();
    scene.sfx.voice(voice).set_occlusion(1.0).unwrap();
    scene.run(0.3);
    scene.sfx.voice(voice).set_occlusion(0.0).unwrap();
    scene.sfx.voice(voice).set_obstruction(0.0).unwrap();
    scene.run(0.3);
    let during = largest_step(&scene.left[24_000..]);
    // The glides add their own slope to the tone's (at most 0.82 x 0.5 over
    // 2,400 frames, 3% of it); a click (the volume or the filter at once)
    // would be a step of up to 0.4, sixty times the tone's own.
    assert!(
        during <= own * 1.05,
        "a step of {during} against the sound's own {own}"
    );
    // And it did go down: the muffled part is 21 dB and a low-pass quieter.
    let peak = |from: f64, to: f64| {
        scene.left[(from * RATE) as usize..(to * RATE) as usize]
            .iter()
            .fold(0f32, |m, s| m.max(s.abs()))
    };
    let muffled = 20.0 * f64::from(peak(0.6, 0.8) / peak(0.2, 0.4)).log10();
    assert!(muffled < -21.0 && muffled > -23.0, "{muffled} dB");
    let back = 20.0 * f64::from(peak(0.9, 1.1) / peak(0.2, 0.4)).log10();
    assert!(back.abs() < 0.01, "back to {back} dB");
}

#[test]
fn a_voice_occluded_under_its_audibility_floor_goes_virtual_and_returns_when_cleared() {
    let mut scene = Scene::new();
    let settings = SoundSettings::default().audibility_floor(-45.0);
    let hum = scene.add(common::sine(200.0, 1.0).loop_region(..), settings);
    // 50 m away: -6 dB (the first copy) and -29.7 dB (distance), above -45.
    let voice = scene
        .sfx
        .play(hum, PlayParams::default().position([0.0, 0.0, -50.0]))
        .unwrap();
    scene.run(0.2);
    assert_eq!(scene.sfx.state(voice), VoiceState::Real);
    // Occluded: 15 dB further down, under the floor.
    scene.sfx.voice(voice).set_occlusion(1.0).unwrap();
    scene.run(0.01);
    assert_eq!(scene.sfx.state(voice), VoiceState::Virtual);
    scene.run(0.2);
    let silent = scene.left[scene.left.len() - 4800..]
        .iter()
        .all(|s| *s == 0.0);
    assert!(silent, "a virtual voice is not heard");
    // Obstruction does not lower audibility: an obstructed voice stays real.
    scene.sfx.voice(voice).set_occlusion(0.0).unwrap();
    scene.run(0.01);
    // Real again, fading in over the steal fade.
    assert_eq!(scene.sfx.state(voice), VoiceState::Fading);
    scene.sfx.voice(voice).set_obstruction(1.0).unwrap();
    scene.run(0.1);
    assert_eq!(scene.sfx.state(voice), VoiceState::Real);
    // A new play behind the wall is not started: it would be inaudible.
    let behind = PlayParams::default()
        .position([0.0, 0.0, -50.0])
        .occlusion(1.0);
    let played = scene.sfx.play(hum, behind).unwrap();
    assert_eq!(scene.sfx.state(played), VoiceState::Virtual);
}

#[test]
fn bad_amounts_curves_and_handles_are_refused_and_change_nothing() {
    let mut scene = Scene::new();
    let hum = scene.add(
        common::sine(200.0, 1.0).loop_region(..),
        SoundSettings::default(),
    );
    let voice = scene.sfx.play(hum, PlayParams::default()).unwrap();
    scene.run(0.2);
    for bad in [f32::NAN, -0.01, 1.01, f32::INFINITY] {
        assert!(matches!(
            scene.sfx.voice(voice).set_occlusion(bad),
            Err(VoiceError::InvalidParam(ParamError::Amount(_)))
        ));
        assert!(matches!(
            scene.sfx.voice(voice).set_obstruction(bad),
            Err(VoiceError::InvalidParam(ParamError::Amount(_)))
        ));
        assert!(matches!(
            PlayParams::default().occlusion(bad).validate(),
            Err(ParamError::Amount(_))
        ));
    }
    // Another manager's voice, and a stopped one.
    let mut other = Scene::new();
    let foreign = other.add(common::sine(200.0, 1.0), SoundSettings::default());
    let foreign = other.sfx.play(foreign, PlayParams::default()).unwrap();
    assert!(scene.sfx.voice(foreign).set_occlusion(1.0).is_err());
    scene.run(0.2);
    let before = scene.left[scene.left.len() - 2400..].to_vec();
    scene.run(0.2);
    // Unchanged: the same loop, a whole number of its periods later.
    let after = &scene.left[scene.left.len() - 2400..];
    for (a, b) in before.iter().zip(after) {
        assert!((a - b).abs() < 1e-4);
    }
    scene.sfx.voice(voice).stop(Default::default()).unwrap();
    assert!(matches!(
        scene.sfx.voice(voice).set_occlusion(1.0),
        Err(VoiceError::Stale(_))
    ));
    for curve in [
        Muffle {
            volume: kira::Decibels(1.0),
            ..Muffle::OCCLUSION
        },
        Muffle {
            volume: kira::Decibels(f32::NAN),
            ..Muffle::OCCLUSION
        },
        Muffle {
            cutoff_hz: 10.0,
            ..Muffle::OCCLUSION
        },
        Muffle {
            cutoff_hz: 30_000.0,
            ..Muffle::OCCLUSION
        },
        Muffle {
            easing: kira::Easing::InPowf(f64::NAN),
            ..Muffle::OCCLUSION
        },
    ] {
        assert!(matches!(
            SoundSettings::default().occlusion(curve).validate(),
            Err(SettingsError::Muffle(_))
        ));
        assert!(matches!(
            SoundSettings::default().obstruction(curve).validate(),
            Err(SettingsError::Muffle(_))
        ));
    }
}

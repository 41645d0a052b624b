//! A sound at the listener plays at the unpositioned level, centred: within
//! 2 m of the listener (the near field) a voice's gains move steadily from
//! kira's ears at 2 m to both channels at 1, so a player's own gun or
//! footsteps, played where the listener is, are heard in full, and a voice
//! that passes through the listener's head does so without a jump.
//!
//! Measured in the render, with constant data: every sample of a channel is
//! that channel's gain.

use kira::{AudioManager, Tween};
use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};

use crate::common;

const FRAME: f64 = 0.01;

struct Scene {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    id: pool_audio::SoundId,
}

fn scene() -> Scene {
    let (mut manager, mut sfx, _) = common::metered(
        common::RATE,
        SoundEffectsSettings {
            limiter: None,
            ..Default::default()
        },
    );
    let data = common::constant(0.5, 1.0).loop_region(..);
    let settings = SoundSettings::default().max_voices(1).first_volume(0.0);
    let id = sfx.add_sound("hum", data, settings).unwrap();
    manager.backend_mut().render(FRAME).unwrap();
    Scene { manager, sfx, id }
}

impl Scene {
    /// One frame: the update, then the frame's audio, whose last frame is
    /// returned (the voice's gains once they have moved there).
    fn frame(&mut self) -> [f32; 2] {
        self.sfx.update(FRAME).unwrap();
        let out = self.manager.backend_mut().render(FRAME).unwrap();
        let s = out.samples();
        [s[s.len() - 2], s[s.len() - 1]]
    }

    /// Both channels' level together (their power), once `params` plays.
    fn level_of(&mut self, params: PlayParams) -> f64 {
        let voice = self.sfx.play(self.id, params).unwrap();
        self.frame();
        let [l, r] = self.frame();
        self.sfx.voice(voice).stop(Tween::default()).unwrap();
        self.frame();
        power([l, r])
    }
}

fn power([l, r]: [f32; 2]) -> f64 {
    (f64::from(l).powi(2) + f64::from(r).powi(2)).sqrt()
}

fn db(ratio: f64) -> f64 {
    20.0 * ratio.log10()
}

#[test]
fn a_voice_nearing_the_listener_rises_steadily_to_the_unpositioned_level() {
    let mut scene = scene();
    let unpositioned = scene.level_of(PlayParams::default());
    let listener = [3.0, 0.0, -7.0];
    scene.sfx.listener().set_position(listener).unwrap();
    for (name, direction) in [
        ("in front", [0.0, 0.0, -1.0]),
        ("beside", [1.0, 0.0, 0.0]),
        ("behind", [0.0, 0.0, 1.0]),
        ("above, to the left", [-0.6, 0.8, 0.0]),
    ] {
        let at = |cm: u32| [0, 1, 2].map(|i| listener[i] + direction[i] * cm as f32 / 100.0);
        let voice = scene
            .sfx
            .play(scene.id, PlayParams::default().position(at(0)))
            .unwrap();
        let mut levels = Vec::new();
        for cm in 0..=200 {
            scene.sfx.voice(voice).set_position(at(cm)).unwrap();
            scene.frame();
            levels.push(power(scene.frame()));
        }
        scene.sfx.voice(voice).stop(Tween::default()).unwrap();
        scene.frame();
        let at_zero = db(levels[0] / unpositioned);
        assert!(
            at_zero.abs() < 0.1,
            "{name}: {at_zero:+.3} dB at the listener"
        );
        for (cm, pair) in levels.windows(2).enumerate() {
            let step = db(pair[1] / pair[0]);
            assert!(
                step <= 1e-4,
                "{name}: {step:+.4} dB louder at {} cm",
                cm + 1
            );
            assert!(
                step.abs() <= 0.5,
                "{name}: a {step:+.3} dB step at {} cm",
                cm + 1
            );
        }
        eprintln!(
            "{name}: {:+.2} dB at 50 cm, {:+.2} dB at 1 m, {:+.2} dB at 2 m",
            db(levels[50] / unpositioned),
            db(levels[100] / unpositioned),
            db(levels[200] / unpositioned)
        );
    }
}

#[test]
fn a_voice_through_the_listener_moves_without_a_jump() {
    let mut scene = scene();
    let voice = scene
        .sfx
        .play(scene.id, PlayParams::default().position([-2.5, 0.0, 0.0]))
        .unwrap();
    scene.frame();
    let mut samples = Vec::new();
    let mut gains = Vec::new();
    // A walk at 1 m/s, 1 cm a frame, from 2.5 m on the left to 2.5 m on the
    // right, straight through the listener.
    for cm in -250i32..=250 {
        let x = cm as f32 / 100.0;
        scene.sfx.voice(voice).set_position([x, 0.0, 0.0]).unwrap();
        scene.sfx.update(FRAME).unwrap();
        let out = scene.manager.backend_mut().render(FRAME).unwrap();
        samples.extend_from_slice(out.samples());
        let s = out.samples();
        gains.push([s[s.len() - 2], s[s.len() - 1]]);
    }
    // Through the listener both channels reach the unpositioned level.
    let [l, r] = gains[250];
    assert!((l - 0.5).abs() < 1e-3 && (r - 0.5).abs() < 1e-3, "{l} {r}");
    for (i, pair) in gains.windows(2).enumerate() {
        for (c, (now, before)) in pair[1].iter().zip(pair[0]).enumerate() {
            let step = (now - before).abs() / 0.5;
            let cm = i as i32 - 249;
            assert!(step < 0.02, "channel {c}: a step of {step} at {cm} cm");
        }
    }
    // Sample by sample, no jump either.
    for c in 0..2 {
        let jump = samples
            .iter()
            .skip(c)
            .step_by(2)
            .collect::<Vec<_>>()
            .windows(2)
            .map(|w| (w[1] - w[0]).abs())
            .fold(0.0f32, f32::max);
        assert!(jump < 1e-3, "channel {c}: a jump of {jump}");
    }
}

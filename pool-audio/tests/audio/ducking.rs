//! Ducking, measured in the render: footsteps (a voice group, hard left) and
//! the music (a kira track of the game's, hard right) go down while dialogue
//! sounds and come back after the hold and the release; two ducks follow the
//! rule; a duck that comes back while it is fading in reverses without a step.
//!
//! The footsteps and the music are constant (DC) loops, so every sample of the
//! render is their gain. The game updates every 10 ms, before each block the
//! offline mixer renders.

use std::time::Duration;

use kira::effect::volume_control::VolumeControlBuilder;
use kira::track::TrackBuilder;
use kira::{AudioManager, AudioManagerSettings, Decibels, Panning};
use pool_audio::{
    GroupSettings, OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundId,
    SoundSettings, dsp::LimiterSettings, mix::DuckRule, mix::DuckSettings, mix::MixError,
};

use crate::common::{self, BLOCK};

const RATE: usize = common::RATE as usize;

struct Scene {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    line: SoundId,
    boom: SoundId,
    /// Left (footsteps) and right (music), every frame rendered.
    left: Vec<f32>,
    right: Vec<f32>,
}

const SETTINGS: DuckSettings = DuckSettings {
    amount: kira::Decibels(-12.0),
    attack: linear(Duration::from_millis(100)),
    hold: Duration::from_millis(250),
    release: linear(Duration::from_millis(500)),
};

/// A linear tween of `duration`, starting now.
const fn linear(duration: Duration) -> kira::Tween {
    kira::Tween {
        start_time: kira::StartTime::Immediate,
        duration,
        easing: kira::Easing::Linear,
    }
}

impl Scene {
    /// Footsteps looping hard left, music looping hard right on its own
    /// track, both ducked by dialogue with `SETTINGS`; explosions duck the
    /// footsteps by 6 dB.
    fn new() -> Self {
        let mut manager =
            AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
        let mut music_track = TrackBuilder::new();
        let control = music_track.add_effect(VolumeControlBuilder::new(Decibels::IDENTITY));
        let mut music_track = manager.add_sub_track(music_track).unwrap();
        let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
        let music_id = sfx.mix_mut().add_track("music", control).unwrap();
        let dialogue = sfx.add_group("dialogue", GroupSettings::default()).unwrap();
        let steps = sfx
            .add_group("footsteps", GroupSettings::default())
            .unwrap();
        let explosions = sfx
            .add_group("explosions", GroupSettings::default())
            .unwrap();
        sfx.mix_mut().add_duck(dialogue, steps, SETTINGS).unwrap();
        sfx.mix_mut()
            .add_duck(dialogue, music_id, SETTINGS)
            .unwrap();
        let under_boom = SETTINGS.amount(-6.0);
        sfx.mix_mut()
            .add_duck(explosions, steps, under_boom)
            .unwrap();
        let step = common::constant(0.25, 0.1).loop_region(..);
        let step = sfx
            .add_sound("step", step, SoundSettings::default().group(steps))
            .unwrap();
        // Silent: what is heard is only what the ducks do.
        let line = sfx
            .add_sound(
                "line",
                common::constant(0.0, 0.5),
                SoundSettings::default().group(dialogue),
            )
            .unwrap();
        let boom = sfx
            .add_sound(
                "boom",
                common::constant(0.0, 0.3),
                SoundSettings::default().group(explosions),
            )
            .unwrap();
        let music = common::constant(0.25, 0.1)
            .loop_region(..)
            .panning(Panning::RIGHT);
        music_track.play(music).unwrap();
        std::mem::forget(music_track);
        let mut scene = Self {
            manager,
            sfx,
            line,
            boom,
            left: Vec::new(),
            right: Vec::new(),
        };
        scene
            .sfx
            .play(step, PlayParams::default().panning(-1.0))
            .unwrap();
        scene
    }

    /// Updates and renders one block at a time for `seconds`.
    fn run(&mut self, seconds: f64) {
        for _ in 0..(seconds / BLOCK).round() as usize {
            self.sfx.update(BLOCK).unwrap();
            let out = self.manager.backend_mut().render(BLOCK).unwrap();
            for frame in out.samples().chunks(2) {
                self.left.push(frame[0]);
                self.right.push(frame[1]);
            }
        }
    }

    fn play(&mut self, sound: SoundId) {
        self.sfx.play(sound, PlayParams::default()).unwrap();
    }

    /// The gain of channel `channel` at `t` seconds, in dB, against the first
    /// block's level.
    fn db(&self, channel: &[f32], t: f64) -> f64 {
        let at = (t * RATE as f64) as usize;
        20.0 * (f64::from(channel[at]) / f64::from(channel[RATE / 20])).log10()
    }
}

fn frames(t: f64) -> usize {
    (t * RATE as f64) as usize
}

#[test]
fn dialogue_ducks_a_group_and_a_named_track_within_the_attack_and_returns_after_hold_and_release() {
    let mut scene = Scene::new();
    scene.run(0.2);
    scene.play(scene.line); // heard from 0.2 s to 0.7 s
    scene.run(1.8);
    for channel in [&scene.left, &scene.right] {
        let db = |t| scene.db(channel, t);
        assert!(
            db(0.199).abs() < 0.01,
            "untouched before the line: {}",
            db(0.199)
        );
        // The attack is a fade: half way in dB at half the attack.
        assert!(
            (db(0.25) + 6.0).abs() < 0.5,
            "half way at 50 ms: {}",
            db(0.25)
        );
        // Down by the end of the attack (within one block), and held there
        // while the line sounds and for the hold after it.
        for t in [0.2 + 0.1 + BLOCK, 0.5, 0.7, 0.7 + 0.25] {
            assert!((db(t) + 12.0).abs() < 0.05, "ducked at {t} s: {}", db(t));
        }
        // Back after the hold and the release, within one block.
        let back = 0.7 + 0.25 + 0.5 + BLOCK;
        assert!(db(back).abs() < 0.05, "back at {back} s: {}", db(back));
        assert!(
            db(back - 2.0 * BLOCK) < -0.1,
            "not back early: {}",
            db(back - 2.0 * BLOCK)
        );
        assert!((db(1.2) + 6.0).abs() < 0.8, "half way back: {}", db(1.2));
    }
    // Group and track follow one timeline: the group is heard through the
    // sound-effects track's limiter, whose look-ahead delays it; shifted
    // back by that, the two agree within 0.07 dB at every 1 ms. (The release
    // starts hold after the line's end, a delay into the block that sends
    // it: kira starts a delayed tween at its next 128-frame chunk, the bank
    // at its next 16-frame step, so the track may follow up to 2.7 ms late,
    // 0.064 dB on this release's slope of 24 dB a second.)
    let latency = LimiterSettings::default().lookahead.as_secs_f64();
    for at in (frames(0.2)..frames(1.6)).step_by(48) {
        let t = at as f64 / RATE as f64;
        let (l, r) = (
            scene.db(&scene.left, t + latency),
            scene.db(&scene.right, t),
        );
        assert!(
            (l - r).abs() <= 0.07,
            "at {t} s: group {l} dB, track {r} dB"
        );
    }
    assert_eq!(scene.sfx.mix().stats().ducks_active, 0);
}

#[test]
fn two_ducks_take_the_deepest_by_default_and_sum_to_the_maximum_by_rule() {
    let mut scene = Scene::new();
    scene.run(0.2);
    scene.play(scene.boom); // -6 dB from 0.2 s to 0.5 s
    scene.run(0.2);
    assert!((scene.db(&scene.left, 0.39) + 6.0).abs() < 0.05);
    assert!(
        scene.db(&scene.right, 0.39).abs() < 0.01,
        "explosions do not duck the music"
    );
    scene.play(scene.line); // -12 dB from 0.4 s
    scene.run(0.2);
    let deepest = scene.db(&scene.left, 0.59);
    assert!(
        (deepest + 12.0).abs() < 0.05,
        "the deepest of -6 and -12: {deepest}"
    );

    // The same with Wwise's rule: -6 + -12 = -18, held at the maximum -15.
    let mut scene = Scene::new();
    scene
        .sfx
        .mix_mut()
        .set_duck_rule(DuckRule::Sum {
            max: kira::Decibels(-15.0),
        })
        .unwrap();
    scene.run(0.2);
    scene.play(scene.boom);
    scene.play(scene.line);
    scene.run(0.2);
    let summed = scene.db(&scene.left, 0.39);
    assert!((summed + 15.0).abs() < 0.05, "-18 held at -15: {summed}");
    let music = scene.db(&scene.right, 0.39);
    assert!(
        (music + 12.0).abs() < 0.05,
        "the music has one duck: {music}"
    );
    assert_eq!(
        scene.sfx.mix_mut().set_duck_rule(DuckRule::Sum {
            max: kira::Decibels(3.0)
        }),
        Err(MixError::Amount(kira::Decibels(3.0)))
    );
}

#[test]
fn a_duck_that_returns_while_fading_in_reverses_without_a_step() {
    let mut scene = Scene::new();
    scene.run(0.2);
    scene.play(scene.line); // ends at 0.7 s; the release runs from about 0.96 s
    scene.run(0.95);
    scene.play(scene.line); // at 1.15 s, half way back
    scene.run(0.5);
    let db: Vec<f64> = scene.left[frames(0.2)..]
        .iter()
        .map(|s| 20.0 * (f64::from(*s) / 0.25).log10())
        .collect();
    // The steepest slope of the duck's own fades, per frame.
    let slope = 12.0 / (0.1 * RATE as f64);
    let steepest = db
        .windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .fold(0.0, f64::max);
    assert!(
        steepest <= slope * 1.5,
        "a step of {steepest} dB, the attack moves {slope} dB a frame"
    );
    // It turned around: up at 1.15 s, down again by the end of the attack.
    let at = |t: f64| db[frames(t - 0.2)] - db[0];
    assert!(
        at(1.15) > -11.0 && at(1.15) < -1.0,
        "part way back: {}",
        at(1.15)
    );
    assert!((at(1.15 + 0.1 + BLOCK) + 12.0).abs() < 0.05);
}

#[test]
fn a_duck_that_comes_on_during_another_ones_hold_does_not_cut_the_hold_short() {
    let mut scene = Scene::new();
    scene.run(0.2);
    scene.play(scene.line); // -12 dB from 0.2 s to 0.7 s, held until 0.95 s
    scene.run(0.6);
    scene.play(scene.boom); // -6 dB from 0.8 s to 1.1 s
    scene.run(0.3);
    // Still -12 through the hold, though a shallower duck came on in it.
    for t in [0.81, 0.9, 0.94] {
        let db = scene.db(&scene.left, t);
        assert!((db + 12.0).abs() < 0.05, "at {t} s: {db} dB");
    }
    // Then up to the explosion's -6 over the dialogue's release.
    let db = scene.db(&scene.left, 1.09);
    assert!(db > -11.0 && db < -6.0, "on its way up at 1.09 s: {db} dB");
}

#[test]
fn bad_ducks_are_typed_errors_and_add_nothing() {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
    let mut other = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
    let a = sfx.add_group("a", GroupSettings::default()).unwrap();
    let b = sfx.add_group("b", GroupSettings::default()).unwrap();
    let foreign = other.add_group("a", GroupSettings::default()).unwrap();
    let ok = DuckSettings::default();
    assert_eq!(
        sfx.mix_mut().add_duck(foreign, b, ok),
        Err(MixError::UnknownGroup)
    );
    assert_eq!(
        sfx.mix_mut().add_duck(a, foreign, ok),
        Err(MixError::UnknownGroup)
    );
    let mut radio = TrackBuilder::new();
    let control = radio.add_effect(VolumeControlBuilder::new(Decibels::IDENTITY));
    let _radio = manager.add_sub_track(radio).unwrap();
    let radio = other.mix_mut().add_track("radio", control).unwrap();
    assert_eq!(
        sfx.mix_mut().add_duck(a, radio, ok),
        Err(MixError::ForeignTrack(radio))
    );
    assert_eq!(
        sfx.mix().track("radio"),
        Err(MixError::UnknownTrack("radio".into()))
    );
    for amount in [f32::NAN, f32::INFINITY, 1.0, -61.0] {
        assert!(matches!(
            sfx.mix_mut().add_duck(a, b, ok.amount(amount)),
            Err(MixError::Amount(_))
        ));
    }
    let long = Duration::from_secs(7200);
    for bad in [
        ok.attack(linear(long)),
        ok.hold(long),
        ok.release(linear(long)),
    ] {
        assert_eq!(sfx.mix_mut().add_duck(a, b, bad), Err(MixError::Time(long)));
    }
    let nan_curve = kira::Tween {
        easing: kira::Easing::InPowf(f64::NAN),
        ..Default::default()
    };
    for bad in [ok.attack(nan_curve), ok.release(nan_curve)] {
        assert!(matches!(
            sfx.mix_mut().add_duck(a, b, bad),
            Err(MixError::Easing(_))
        ));
    }
    // An attack or a release starts when its time comes.
    let delayed = kira::Tween {
        start_time: kira::StartTime::Delayed(Duration::from_millis(5)),
        ..Default::default()
    };
    assert_eq!(
        sfx.mix_mut().add_duck(a, b, ok.release(delayed)),
        Err(MixError::DuckStart)
    );
    // Nothing was added: the first duck gets the first id, and no voice of
    // `a` ducks anything yet.
    let duck = sfx.mix_mut().add_duck(a, b, ok).unwrap();
    assert!(!sfx.mix().duck_active(duck).unwrap());
    assert_eq!(other.mix().duck_active(duck), Err(MixError::Unknown));
}

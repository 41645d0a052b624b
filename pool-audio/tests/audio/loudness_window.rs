//! The loudness window (Wwise's HDR audio), measured in the render: a grenade
//! 20 dB louder than the footsteps raises the window's top at its play, the
//! footsteps drop by 20 dB in that block and come back over the release; a
//! far or occluded grenade raises it by what is heard of it; a hum
//! 50 dB under the top goes virtual and comes back when the falling top brings
//! it into the window; a group outside the window is untouched; 10,000 random
//! events render with nothing over -1 dBFS and nothing NaN.
//!
//! Constant (DC) loops make every sample a gain: footsteps hard left, the
//! grenade or the UI hard right.

use std::sync::Arc;
use std::time::Duration;

use kira::sound::static_sound::StaticSoundData;
use kira::{AudioManager, AudioManagerSettings, Decibels, Frame};
use pool_audio::{
    GroupSettings, OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundId,
    SoundSettings, VoiceHandle, VoiceState, dsp::LimiterSettings, error::SettingsError,
    mix::LoudnessWindow, voices::Virtualization,
};

use crate::common::{self, BLOCK};

mod ends;

const RATE: usize = common::RATE as usize;
const RELEASE: f64 = 1.0;

struct Scene {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    step: SoundId,
    grenade: SoundId,
    hum: SoundId,
    ui: SoundId,
    left: Vec<f32>,
    right: Vec<f32>,
    /// The top after each update.
    tops: Vec<f64>,
}

impl Scene {
    fn new() -> Self {
        let mut manager =
            AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
        let window = LoudnessWindow::default()
            .height(40.0)
            .release(Duration::from_secs_f64(RELEASE));
        let settings = SoundEffectsSettings {
            loudness_window: Some(window),
            ..Default::default()
        };
        let mut sfx = SoundEffects::new(&mut manager, settings).unwrap();
        let world = sfx
            .add_group("world", GroupSettings::default().loudness_window(true))
            .unwrap();
        let ui = sfx.add_group("ui", GroupSettings::default()).unwrap();
        let in_world = |db| SoundSettings::default().group(world).loudness(db);
        let step = sfx
            .add_sound(
                "step",
                common::constant(0.25, 0.1).loop_region(..),
                in_world(60.0),
            )
            .unwrap();
        let grenade = sfx
            .add_sound("grenade", common::constant(0.25, 0.3), in_world(80.0))
            .unwrap();
        let hum = sfx
            .add_sound(
                "hum",
                common::constant(0.0, 0.1).loop_region(..),
                in_world(30.0),
            )
            .unwrap();
        // A loudness outside the window is ignored.
        let beep = SoundSettings::default().group(ui).loudness(10.0);
        let ui = sfx
            .add_sound("beep", common::constant(0.25, 0.1).loop_region(..), beep)
            .unwrap();
        Self {
            manager,
            sfx,
            step,
            grenade,
            hum,
            ui,
            left: Vec::new(),
            right: Vec::new(),
            tops: Vec::new(),
        }
    }

    fn play(&mut self, sound: SoundId, panning: f32) -> VoiceHandle {
        let params = PlayParams::default().panning(panning);
        self.sfx.play(sound, params).unwrap()
    }

    fn run(&mut self, seconds: f64) {
        for _ in 0..(seconds / BLOCK).round() as usize {
            self.sfx.update(BLOCK).unwrap();
            self.tops
                .push(f64::from(self.sfx.mix().stats().window_top.unwrap().0));
            let out = self.manager.backend_mut().render(BLOCK).unwrap();
            for frame in out.samples().chunks(2) {
                self.left.push(frame[0]);
                self.right.push(frame[1]);
            }
        }
    }

    /// Channel `channel`'s level at `t` seconds against `reference`, in dB.
    fn db(channel: &[f32], t: f64, reference: f32) -> f64 {
        20.0 * f64::from(channel[(t * RATE as f64) as usize] / reference).log10()
    }
}

#[test]
fn a_louder_event_raises_the_top_at_once_and_the_rest_make_room_until_the_release() {
    let mut scene = Scene::new();
    scene.play(scene.step, -1.0);
    scene.run(0.2);
    let reference = scene.left[RATE / 10];
    assert_eq!(
        scene.sfx.mix().stats().window_top,
        Some(Decibels(60.0)),
        "the footsteps' loudness"
    );
    // At the top, a sound plays as recorded: the footsteps' level is the
    // sound's own (0.25 through the pan law, the same on either side).
    scene.play(scene.grenade, 1.0); // heard from 0.2 s to 0.5 s
    assert_eq!(
        scene.sfx.mix().stats().window_top,
        Some(Decibels(80.0)),
        "raised by the play itself, before any update"
    );
    scene.run(1.8);
    let left = |t| Scene::db(&scene.left, t, reference);
    let right = |t| Scene::db(&scene.right, t, reference);
    assert!(left(0.199).abs() < 0.01);
    // In the grenade's first block: footsteps 20 dB down, the grenade as loud
    // as the footsteps were (it is the top now). The sound-effects track is
    // heard through its limiter's look-ahead.
    let latency = LimiterSettings::default().lookahead.as_secs_f64();
    assert!(
        left(0.2 + latency - 0.0001).abs() < 0.01,
        "not before the block"
    );
    for t in [0.2 + latency + 0.0005, 0.35, 0.49] {
        assert!(
            (left(t) + 20.0).abs() < 0.05,
            "footsteps at {t} s: {} dB",
            left(t)
        );
        assert!(right(t).abs() < 0.05, "grenade at {t} s: {} dB", right(t));
    }
    // The grenade ends at 0.5 s and the fall starts there (loudness_window/ends.rs measures
    // it to the sample): 20 dB over the release, linear in dB.
    let half = 0.5 + latency + RELEASE / 2.0;
    assert!(
        (left(half) + 10.0).abs() < 0.05,
        "half way back: {} dB",
        left(half)
    );
    let back = 0.5 + latency + RELEASE + 0.001;
    assert!(
        left(back).abs() < 0.05,
        "back by {back} s: {} dB",
        left(back)
    );
    // The top the stats give followed the same line.
    let top_at = |t: f64| scene.tops[(t / BLOCK).round() as usize];
    assert_eq!(top_at(0.3), 80.0);
    assert!((top_at(half) - 70.0).abs() < 0.05, "{}", top_at(half));
    assert_eq!(top_at(1.9), 60.0);
}

#[test]
fn a_sound_50_db_under_the_top_goes_virtual_and_returns_as_the_top_falls() {
    let mut scene = Scene::new();
    let hum = scene.play(scene.hum, 0.0);
    scene.run(0.1);
    assert_eq!(scene.sfx.state(hum), VoiceState::Real);
    assert_eq!(scene.sfx.mix().stats().window_top, Some(Decibels(30.0)));
    scene.play(scene.grenade, 1.0); // 80 dB: the hum is 50 dB under, 10 under the bottom
    scene.sfx.update(BLOCK).unwrap();
    assert_eq!(
        scene.sfx.state(hum),
        VoiceState::Virtual,
        "out of the window within one update"
    );
    scene.run(0.3);
    assert_eq!(scene.sfx.state(hum), VoiceState::Virtual);
    // The grenade is over; the top falls from 80 to the hum's 30 over the
    // release, and the bottom (top - 40) reaches 30 when the top is at 70:
    // a fifth of the release into the fall.
    let (mut fall, mut back) = (None, None);
    for update in 0..=(2.0 * RELEASE / BLOCK) as usize {
        scene.run(BLOCK);
        let top = f64::from(scene.sfx.mix().stats().window_top.unwrap().0);
        if fall.is_none() && top < 80.0 {
            // The fall started at the update before: the first step down.
            fall = Some(update - 1);
        }
        if scene.sfx.state(hum) != VoiceState::Virtual {
            back = Some(update);
            break;
        }
    }
    let (fall, back) = (
        fall.expect("the top fell"),
        back.expect("the hum came back"),
    );
    let after = (back - fall) as f64 * BLOCK;
    let expected = 0.2 * RELEASE;
    assert!(
        (after - expected).abs() <= BLOCK + 1e-9,
        "real again {after} s into the fall, expected {expected} s within one update"
    );
    assert!(
        fall <= 3,
        "the fall starts within 3 updates of the grenade's end: {fall}"
    );
}

#[test]
fn the_top_follows_what_is_heard_a_far_grenade_does_not_push_the_footsteps_down() {
    let mut scene = Scene::new();
    scene.play(scene.step, -1.0);
    scene.run(0.1);
    let reference = scene.left[RATE / 20];
    // 60 m away, kira's curve takes 60 * 59 / 99 = 35.8 dB off the grenade's
    // 80: heard at 44.2 dB, under the footsteps' 60.
    let far = PlayParams::default().position([60.0, 0.0, 0.0]);
    scene.sfx.play(scene.grenade, far).unwrap();
    scene.run(0.2);
    assert_eq!(scene.sfx.mix().stats().window_top, Some(Decibels(60.0)));
    // Not pushed down (the far grenade leaks a little into the left channel).
    let db = Scene::db(&scene.left, 0.25, reference);
    assert!((-0.01..0.1).contains(&db), "the footsteps moved by {db} dB");
    // The same grenade 5 m away is heard at 80 - 60 * 4 / 99 = 77.6 dB.
    let near = PlayParams::default().position([5.0, 0.0, 0.0]);
    scene.sfx.play(scene.grenade, near).unwrap();
    let top = f64::from(scene.sfx.mix().stats().window_top.unwrap().0);
    assert!((top - (80.0 - 60.0 * 4.0 / 99.0)).abs() < 0.01, "top {top}");
}

/// Occlusion is part of what is heard, at the play as at every update: a
/// grenade behind a wall (occlusion 1, the default curve's -15 dB) raises the
/// top to 65 dB, not to its 80, and the footsteps make room by 5 dB.
#[test]
fn an_occluded_grenade_raises_the_top_by_what_is_heard_through_the_wall() {
    let mut scene = Scene::new();
    scene.play(scene.step, -1.0);
    scene.run(0.1);
    let reference = scene.left[RATE / 20];
    let behind = PlayParams::default().panning(1.0).occlusion(1.0);
    scene.sfx.play(scene.grenade, behind).unwrap();
    let top = f64::from(scene.sfx.mix().stats().window_top.unwrap().0);
    assert!((top - 65.0).abs() < 0.01, "top {top} at the play");
    scene.run(0.2);
    for t in [0.15, 0.25] {
        let db = Scene::db(&scene.left, t, reference);
        assert!((db + 5.0).abs() < 0.05, "the footsteps at {db} dB at {t} s");
    }
}

#[test]
fn a_one_shot_out_of_the_window_ends_and_says_why() {
    let mut scene = Scene::new();
    // A looping step is virtualizing; a one-shot step of 30 dB kills.
    let world = scene.sfx.group("world").unwrap();
    let click = SoundSettings::default().group(world).loudness(30.0);
    let click = scene
        .sfx
        .add_sound("click", common::constant(0.1, 1.0), click)
        .unwrap();
    let voice = scene.play(click, 0.0);
    scene.run(0.05);
    assert_eq!(scene.sfx.state(voice), VoiceState::Real);
    scene.play(scene.grenade, 1.0); // 80 dB: the click is 50 dB under
    scene.run(BLOCK);
    assert_eq!(scene.sfx.state(voice), VoiceState::Gone);
    let ended = scene.sfx.ended().iter().find(|e| e.voice == voice).copied();
    assert_eq!(ended.map(|e| e.reason), Some(pool_audio::EndReason::Stolen));
    // A new play of it under the window is refused for the window, and
    // counted there: it would not be heard.
    let before = scene.sfx.stats();
    assert_eq!(
        scene.sfx.play(click, PlayParams::default()),
        Err(pool_audio::PlayError::OutOfWindow)
    );
    let after = scene.sfx.stats();
    assert_eq!(
        after.refused_out_of_window,
        before.refused_out_of_window + 1
    );
    assert_eq!(after.refused_inaudible, before.refused_inaudible);
}

#[test]
fn a_refused_play_leaves_the_top_where_it_was() {
    let mut scene = Scene::new();
    let world = scene.sfx.group("world").unwrap();
    let siren = SoundSettings::default()
        .group(world)
        .loudness(90.0)
        .min_retrigger(std::time::Duration::from_secs_f64(5.0));
    let siren = scene
        .sfx
        .add_sound("siren", common::constant(0.1, 0.1), siren)
        .unwrap();
    scene.play(scene.step, -1.0);
    scene.play(siren, 1.0);
    assert_eq!(scene.sfx.mix().stats().window_top, Some(Decibels(90.0)));
    scene.run(1.5); // the siren ends, the top falls back to the footsteps
    assert_eq!(scene.sfx.mix().stats().window_top, Some(Decibels(60.0)));
    let refused = scene.sfx.play(siren, PlayParams::default());
    assert_eq!(refused, Err(pool_audio::PlayError::Retrigger));
    assert_eq!(scene.sfx.mix().stats().window_top, Some(Decibels(60.0)));
    let at = scene.left.len();
    scene.run(0.1);
    let reference = scene.left[at - 1];
    assert!(
        scene.left[at..]
            .iter()
            .all(|s| (s - reference).abs() < 1e-6),
        "the footsteps did not move"
    );
}

#[test]
fn a_group_added_while_the_top_falls_leaves_the_fall_smooth() {
    let mut scene = Scene::new();
    scene.play(scene.step, -1.0);
    scene.run(0.1);
    scene.play(scene.grenade, 1.0); // 0.1 s to 0.4 s
    scene.run(0.8); // the top falls from about 0.43 s
    scene
        .sfx
        .add_group("late", GroupSettings::default().loudness_window(true))
        .unwrap();
    scene.run(1.0);
    // 20 dB over the 1 s release, at most 20 / 48,000 dB a frame.
    let slope = 20.0 / RATE as f64;
    let db: Vec<f64> = scene.left[RATE / 2..]
        .iter()
        .map(|s| 20.0 * f64::from(*s).log10())
        .collect();
    let steepest = db
        .windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .fold(0.0, f64::max);
    assert!(
        steepest <= slope * 1.5,
        "a step of {steepest} dB, the fall moves {slope}"
    );
    let top = f64::from(scene.sfx.mix().stats().window_top.unwrap().0);
    assert_eq!(top, 60.0, "the fall ended");
}

#[test]
fn a_sound_without_a_loudness_in_the_window_plays_at_its_floor() {
    let mut scene = Scene::new();
    let world = scene.sfx.group("world").unwrap();
    let settings = SoundSettings::default().group(world);
    let plain = scene
        .sfx
        .add_sound("plain", common::constant(0.1, 0.2), settings)
        .unwrap();
    // Alone, at the floor (0 dB here), it is the top and plays.
    let alone = scene.play(plain, 0.0);
    assert_eq!(scene.sfx.state(alone), VoiceState::Real);
    scene.run(0.3);
    // Beside 60 dB footsteps it is 60 dB under the top: out of the window.
    scene.play(scene.step, -1.0);
    assert_eq!(
        scene.sfx.play(plain, PlayParams::default()),
        Err(pool_audio::PlayError::OutOfWindow)
    );
}

#[test]
fn a_group_outside_the_window_is_untouched() {
    let mut scene = Scene::new();
    scene.play(scene.ui, 1.0);
    scene.play(scene.step, -1.0);
    scene.run(0.1);
    let reference = scene.right[RATE / 20];
    scene.play(scene.grenade, -1.0);
    scene.run(1.0);
    for at in (0..scene.right.len()).step_by(240).skip(1) {
        let db = 20.0 * f64::from(scene.right[at] / reference).log10();
        assert!(db.abs() < 1e-3, "the UI moved by {db} dB at frame {at}");
    }
}

#[test]
fn bad_window_settings_are_typed_errors() {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let with = |window| SoundEffectsSettings {
        loudness_window: Some(window),
        ..Default::default()
    };
    let ok = LoudnessWindow::default();
    for (window, error) in [
        (ok.height(0.0), SettingsError::WindowHeight(Decibels(0.0))),
        (
            ok.height(f32::INFINITY),
            SettingsError::WindowHeight(Decibels(f32::INFINITY)),
        ),
        (ok.floor(1e9), SettingsError::WindowFloor(Decibels(1e9))),
        (
            ok.release(Duration::from_secs(7200)),
            SettingsError::WindowRelease(Duration::from_secs(7200)),
        ),
    ] {
        assert_eq!(with(window).validate(), Err(error));
        assert!(SoundEffects::new(&mut manager, with(window)).is_err());
    }
    let mut sfx = SoundEffects::new(&mut manager, with(ok)).unwrap();
    let bad = SoundSettings::default().loudness(f32::NAN);
    assert!(
        sfx.add_sound("nan", common::constant(0.1, 0.1), bad)
            .is_err()
    );
    assert!(sfx.sound("nan").is_none(), "nothing added");
}

#[test]
fn ten_thousand_random_events_never_exceed_minus_1_dbfs_and_nothing_is_nan() {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let settings = SoundEffectsSettings {
        loudness_window: Some(LoudnessWindow::default().floor(20.0)),
        voice_cap: 32,
        ..Default::default()
    };
    let mut sfx = SoundEffects::new(&mut manager, settings).unwrap();
    let world = sfx
        .add_group("world", GroupSettings::default().loudness_window(true))
        .unwrap();
    let mut rng = fastrand::Rng::with_seed(35);
    let sounds: Vec<SoundId> = (0..12)
        .map(|i| {
            let hz = 80.0 + 150.0 * i as f32;
            let seconds = 0.05 + 0.1 * (i % 5) as f32;
            let frames: Arc<[Frame]> = (0..(seconds * RATE as f32) as usize)
                .map(|n| {
                    Frame::from_mono((n as f32 * hz * std::f32::consts::TAU / RATE as f32).sin())
                })
                .collect();
            let data = StaticSoundData {
                sample_rate: RATE as u32,
                frames,
                settings: Default::default(),
                slice: None,
            };
            let looped = i % 4 == 0;
            let data = if looped { data.loop_region(..) } else { data };
            let settings = SoundSettings::default()
                .group(world)
                .loudness((20 + 10 * i) as f32)
                .first_volume(0.0)
                .virtualization(if looped {
                    Virtualization::Auto
                } else {
                    Virtualization::Kill
                });
            sfx.add_sound(&format!("s{i}"), data, settings).unwrap()
        })
        .collect();
    let mut loops = Vec::new();
    let mut peak = 0.0f32;
    let mut events = 0;
    let mut buffer = Vec::with_capacity(2 * RATE / 100);
    while events < 10_000 {
        for _ in 0..rng.usize(0..5) {
            let sound = sounds[rng.usize(0..sounds.len())];
            let params = PlayParams::default()
                .panning(rng.f32() * 2.0 - 1.0)
                .playback_rate(0.5 + 1.5 * rng.f64())
                .position([rng.f32() * 60.0 - 30.0, 0.0, rng.f32() * 60.0 - 30.0]);
            if let Ok(voice) = sfx.play(sound, params)
                && sfx.state(voice).is_live()
                && loops.len() < 40
                && sound.index().is_multiple_of(4)
            {
                loops.push(voice);
            }
            events += 1;
        }
        if loops.len() >= 40 {
            for voice in loops.drain(..) {
                let _ = sfx.voice(voice).stop(kira::Tween::default());
            }
        }
        sfx.update(BLOCK).unwrap();
        let top = f64::from(sfx.mix().stats().window_top.unwrap().0);
        // Within the floor and the loudest sound (the top is kept as heard
        // amplitudes in f32: a millionth of a dB).
        assert!((20.0..=130.001).contains(&top), "top {top}");
        buffer.clear();
        manager
            .backend_mut()
            .render_append(BLOCK, &mut buffer)
            .unwrap();
        for s in &buffer {
            assert!(!s.is_nan(), "NaN in the render");
            peak = peak.max(s.abs());
        }
    }
    let ceiling = 10f32.powf(-1.0 / 20.0);
    assert!(peak <= ceiling + 1e-4, "peak {peak} over -1 dBFS");
    assert!(peak > 0.1, "the mix was heard: {peak}");
}

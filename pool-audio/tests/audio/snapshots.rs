//! Snapshots, measured in the render: override and blend by priority and
//! intensity on a voice group (rain, a constant loop hard left), a kira track
//! of the game's (music, a constant loop hard right) and every sound effect;
//! applying, re-applying and releasing in one frame; typed refusals that change
//! nothing.

use std::time::Duration;

use kira::effect::volume_control::VolumeControlBuilder;
use kira::sound::static_sound::StaticSoundData;
use kira::track::TrackBuilder;
use kira::{AudioManager, AudioManagerSettings, Decibels, Panning, Tween};
use pool_audio::{
    GroupId, GroupSettings, OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings,
    SoundSettings, mix::MixError, mix::MixTarget, mix::Snapshot, mix::SnapshotId,
    mix::SnapshotMode, mix::TrackId, music::Music, music::MusicSettings,
};

use crate::common;

const LEVEL: f32 = 0.25;

fn constant(seconds: f64) -> StaticSoundData {
    common::constant(LEVEL, seconds).loop_region(..)
}

struct Scene {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    rain: GroupId,
    music: TrackId,
    /// Rain's and music's gains at the start, the reference of `db`.
    reference: (f32, f32),
}

impl Scene {
    fn new() -> Self {
        let mut manager =
            AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
        let mut track = TrackBuilder::new();
        let control = track.add_effect(VolumeControlBuilder::new(Decibels::IDENTITY));
        let mut track = manager.add_sub_track(track).unwrap();
        track.play(constant(0.1).panning(Panning::RIGHT)).unwrap();
        std::mem::forget(track);
        let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
        let music = sfx.mix_mut().add_track("music", control).unwrap();
        let rain = sfx.add_group("rain", GroupSettings::default()).unwrap();
        let loop_ = sfx
            .add_sound("rain", constant(0.1), SoundSettings::default().group(rain))
            .unwrap();
        sfx.play(loop_, PlayParams::default().panning(-1.0))
            .unwrap();
        let mut scene = Self {
            manager,
            sfx,
            rain,
            music,
            reference: (0.0, 0.0),
        };
        let (left, right) = scene.render(0.05);
        scene.reference = (left, right);
        scene
    }

    /// Updates and renders `seconds` in 10 ms blocks; the last frame's levels.
    fn render(&mut self, seconds: f64) -> (f32, f32) {
        let mut last = (0.0, 0.0);
        for _ in 0..(seconds / 0.01).round() as usize {
            self.sfx.update(0.01).unwrap();
            let out = self.manager.backend_mut().render(0.01).unwrap();
            let s = out.samples();
            last = (s[s.len() - 2], s[s.len() - 1]);
        }
        last
    }

    /// Rain's and music's gains in dB after `seconds` more.
    fn db(&mut self, seconds: f64) -> (f64, f64) {
        let (left, right) = self.render(seconds);
        let db = |x: f32, reference: f32| 20.0 * f64::from(x / reference).log10();
        (db(left, self.reference.0), db(right, self.reference.1))
    }

    fn add(&mut self, snapshot: Snapshot) -> SnapshotId {
        self.sfx.mix_mut().add_snapshot(snapshot).unwrap()
    }
}

const NOW: Tween = Tween {
    start_time: kira::StartTime::Immediate,
    duration: Duration::ZERO,
    easing: kira::Easing::Linear,
};

fn close(got: (f64, f64), want: (f64, f64)) -> bool {
    (got.0 - want.0).abs() < 0.05 && (got.1 - want.1).abs() < 0.05
}

#[test]
fn override_and_blend_combine_by_priority_and_intensity() {
    let mut scene = Scene::new();
    let rain = scene.rain;
    let storm = scene.add(Snapshot::new("storm").set(rain, 6.0).set(scene.music, -6.0));
    let menu = scene.add(Snapshot::new("menu").priority(1).set(rain, -20.0));
    let wind = scene.add(
        Snapshot::new("wind")
            .priority(2)
            .mode(SnapshotMode::Blend)
            .set(rain, -3.0),
    );
    // Override by intensity: half of +6 and of -6.
    scene.sfx.mix_mut().apply_snapshot(storm, 0.5, NOW).unwrap();
    let got = scene.db(0.03);
    assert!(close(got, (3.0, -3.0)), "storm at 0.5: {got:?}");
    // A higher priority overrides what it names, and only that.
    scene.sfx.mix_mut().apply_snapshot(storm, 1.0, NOW).unwrap();
    scene.sfx.mix_mut().apply_snapshot(menu, 1.0, NOW).unwrap();
    let got = scene.db(0.03);
    assert!(close(got, (-20.0, -6.0)), "menu over storm: {got:?}");
    scene.sfx.mix_mut().apply_snapshot(menu, 0.5, NOW).unwrap();
    let got = scene.db(0.03);
    assert!(close(got, (-7.0, -6.0)), "half of menu over storm: {got:?}");
    // A blend adds its volume times its intensity on top.
    scene.sfx.mix_mut().apply_snapshot(wind, 1.0, NOW).unwrap();
    let got = scene.db(0.03);
    assert!(close(got, (-10.0, -6.0)), "wind over both: {got:?}");
    scene.sfx.mix_mut().release_snapshot(menu, NOW).unwrap();
    let got = scene.db(0.03);
    assert!(close(got, (3.0, -6.0)), "storm and wind: {got:?}");
    assert_eq!(scene.sfx.mix().stats().snapshots_active, 2);
    scene.sfx.mix_mut().release_snapshot(storm, NOW).unwrap();
    scene.sfx.mix_mut().release_snapshot(wind, NOW).unwrap();
    let got = scene.db(0.03);
    assert!(close(got, (0.0, 0.0)), "all released: {got:?}");

    // Priority, not the order applied, decides.
    let mut scene = Scene::new();
    let rain = scene.rain;
    let storm = scene.add(Snapshot::new("storm").set(rain, 6.0));
    let menu = scene.add(Snapshot::new("menu").priority(1).set(rain, -20.0));
    scene.sfx.mix_mut().apply_snapshot(menu, 1.0, NOW).unwrap();
    scene.sfx.mix_mut().apply_snapshot(storm, 1.0, NOW).unwrap();
    let got = scene.db(0.03);
    assert!(
        close(got, (-20.0, 0.0)),
        "menu applied first still wins: {got:?}"
    );
}

#[test]
fn a_snapshot_fades_with_its_tween_and_sets_every_sound_effect() {
    let mut scene = Scene::new();
    let pause = scene.add(Snapshot::new("pause").set(MixTarget::SoundEffects, -12.0));
    let fade = Tween {
        duration: Duration::from_millis(200),
        ..Default::default()
    };
    scene
        .sfx
        .mix_mut()
        .apply_snapshot(pause, 1.0, fade)
        .unwrap();
    let half = scene.db(0.1);
    assert!((half.0 + 6.0).abs() < 0.3, "half way at 100 ms: {half:?}");
    assert!(half.1.abs() < 0.01, "the music is no sound effect");
    let got = scene.db(0.15);
    assert!(close(got, (-12.0, 0.0)), "there after 200 ms: {got:?}");
    scene.sfx.mix_mut().release_snapshot(pause, fade).unwrap();
    let got = scene.db(0.25);
    assert!(close(got, (0.0, 0.0)), "back: {got:?}");
}

#[test]
fn applying_reapplying_and_releasing_in_one_frame() {
    let mut scene = Scene::new();
    let storm = scene.add(
        Snapshot::new("storm")
            .set(scene.rain, 6.0)
            .set(scene.music, 6.0),
    );
    scene.sfx.mix_mut().apply_snapshot(storm, 1.0, NOW).unwrap();
    scene.sfx.mix_mut().apply_snapshot(storm, 0.5, NOW).unwrap();
    scene.sfx.mix_mut().release_snapshot(storm, NOW).unwrap();
    let got = scene.db(0.03);
    assert!(
        close(got, (0.0, 0.0)),
        "released in the same frame: {got:?}"
    );
    assert_eq!(scene.sfx.mix().stats().snapshots_active, 0);
    scene.sfx.mix_mut().apply_snapshot(storm, 1.0, NOW).unwrap();
    scene
        .sfx
        .mix_mut()
        .apply_snapshot(storm, 0.25, NOW)
        .unwrap();
    let got = scene.db(0.03);
    assert!(close(got, (1.5, 1.5)), "the last intensity: {got:?}");
}

#[test]
fn blends_add_up_to_the_loudest_a_snapshot_may_set() {
    let mut scene = Scene::new();
    let rain = scene.rain;
    let blend = |name: &str| {
        Snapshot::new(name)
            .mode(SnapshotMode::Blend)
            .set(rain, 12.0)
    };
    let a = scene.add(blend("a"));
    let b = scene.add(blend("b"));
    scene.sfx.mix_mut().apply_snapshot(a, 1.0, NOW).unwrap();
    scene.sfx.mix_mut().apply_snapshot(b, 1.0, NOW).unwrap();
    assert_eq!(
        scene.sfx.mix().level(rain).unwrap().0,
        12.0,
        "+24 held at +12"
    );
    let got = scene.db(0.03);
    assert!(close(got, (12.0, 0.0)), "{got:?}");
}

#[test]
fn bad_snapshots_are_typed_errors_and_change_nothing() {
    let mut scene = Scene::new();
    let mut other = SoundEffects::new(&mut scene.manager, SoundEffectsSettings::default()).unwrap();
    let foreign = other.add_group("rain", GroupSettings::default()).unwrap();
    let other_music = Music::new(&mut other, MusicSettings::default()).unwrap();
    let ambience = other_music.track("ambience").unwrap();
    let rain = scene.rain;
    let sfx = &mut scene.sfx;
    assert_eq!(
        sfx.mix_mut()
            .add_snapshot(Snapshot::new("a").set(foreign, -6.0)),
        Err(MixError::UnknownGroup)
    );
    assert_eq!(
        sfx.mix_mut()
            .add_snapshot(Snapshot::new("a").set(ambience, -6.0)),
        Err(MixError::ForeignTrack(ambience))
    );
    for db in [f32::NAN, f32::INFINITY, 13.0, -61.0] {
        assert!(matches!(
            sfx.mix_mut().add_snapshot(Snapshot::new("a").set(rain, db)),
            Err(MixError::Volume(_))
        ));
    }
    let storm = sfx
        .mix_mut()
        .add_snapshot(Snapshot::new("storm").set(rain, 6.0))
        .unwrap();
    assert_eq!(sfx.mix().snapshot("storm"), Some(storm));
    assert_eq!(
        sfx.mix_mut().add_snapshot(Snapshot::new("storm")),
        Err(MixError::DuplicateSnapshot("storm".into()))
    );
    for intensity in [f32::NAN, -0.1, 1.5] {
        assert!(matches!(
            sfx.mix_mut().apply_snapshot(storm, intensity, NOW),
            Err(MixError::Intensity(_))
        ));
    }
    let long = Tween {
        duration: Duration::from_secs(7200),
        ..NOW
    };
    assert!(matches!(
        sfx.mix_mut().apply_snapshot(storm, 1.0, long),
        Err(MixError::Time(_))
    ));
    let late = Tween {
        start_time: kira::StartTime::Delayed(Duration::from_secs(7200)),
        ..NOW
    };
    assert!(matches!(
        sfx.mix_mut().apply_snapshot(storm, 1.0, late),
        Err(MixError::Time(_))
    ));
    let clock = scene
        .manager
        .add_clock(kira::clock::ClockSpeed::TicksPerSecond(1.0))
        .unwrap();
    let on_clock = Tween {
        start_time: kira::StartTime::ClockTime(clock.time()),
        ..NOW
    };
    let sfx = &mut scene.sfx;
    assert_eq!(
        sfx.mix_mut().apply_snapshot(storm, 1.0, on_clock),
        Err(MixError::ClockStart)
    );
    let other_storm = other
        .mix_mut()
        .add_snapshot(Snapshot::new("storm"))
        .unwrap();
    assert_eq!(
        sfx.mix_mut().apply_snapshot(other_storm, 1.0, NOW),
        Err(MixError::Unknown)
    );
    assert_eq!(
        sfx.mix_mut().release_snapshot(other_storm, NOW),
        Err(MixError::Unknown)
    );
    assert_eq!(sfx.mix().stats().snapshots_active, 0);
    let got = scene.db(0.03);
    assert!(close(got, (0.0, 0.0)), "nothing changed: {got:?}");
}

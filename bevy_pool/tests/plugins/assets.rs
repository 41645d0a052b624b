//! Sounds as assets: loaded by Bevy's `AssetServer` from files, with their
//! settings, added to the sound effects under their path.

use std::path::PathBuf;
use std::time::Duration;

use bevy::asset::{AssetPlugin, AssetServer, LoadState};
use bevy::prelude::*;
use bevy_pool::{
    Sfx, SoundAsset, SoundAssetRefused, SoundAssetSettings, SoundAssetsPlugin, SoundEffectsPlugin,
    SoundEmitter, SoundEmitterAsset, SoundIds,
};
use pool_audio::{GroupSettings, VoiceState};

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bevy-pool-assets-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 48_000,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut wav = hound::WavWriter::create(dir.join("hum.wav"), spec).unwrap();
    for i in 0..24_000 {
        wav.write_sample(((i as f32 * 0.05).sin() * 16_000.0) as i16)
            .unwrap();
    }
    wav.finalize().unwrap();
    dir
}

fn app(dir: &std::path::Path) -> App {
    let mut app = App::new();
    app.add_plugins((
        bevy::app::TaskPoolPlugin::default(),
        bevy::time::TimePlugin,
        bevy::transform::TransformPlugin,
        AssetPlugin {
            file_path: dir.to_string_lossy().into_owned(),
            ..Default::default()
        },
        SoundEffectsPlugin::default(),
        SoundAssetsPlugin,
    ));
    app
}

/// Updates until `done` or 5 s.
fn until(app: &mut App, mut done: impl FnMut(&mut App) -> bool) {
    for _ in 0..1000 {
        app.update();
        if done(app) {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("timed out");
}

#[test]
fn a_sound_file_loads_with_its_settings_and_plays_from_an_emitter() {
    let dir = folder("load");
    let mut app = app(&dir);
    let feet = app
        .world_mut()
        .resource_mut::<Sfx>()
        .add_group("feet", GroupSettings::default().max_voices(2))
        .unwrap();
    let handle: Handle<SoundAsset> = app
        .world()
        .resource::<AssetServer>()
        .load_builder()
        .with_settings(|settings: &mut SoundAssetSettings| {
            settings.max_voices = 3;
            settings.looping = true;
            settings.group = Some("feet".into());
        })
        .load("hum.wav");
    let car = app
        .world_mut()
        .spawn((SoundEmitterAsset::new(handle.clone()), Transform::default()))
        .id();
    until(&mut app, |app| {
        app.world().resource::<SoundIds>().get(&handle).is_some()
    });
    let sound = app.world().resource::<SoundIds>().get(&handle).unwrap();
    app.update();
    let sfx = app.world().resource::<Sfx>();
    assert_eq!(
        sfx.sound_info(sound).name(),
        Some("hum.wav"),
        "added under its path"
    );
    assert_eq!(sfx.sound_info(sound).copy_volumes().unwrap().copies(), 3);
    let voice = app
        .world()
        .get::<SoundEmitter>(car)
        .and_then(SoundEmitter::voice);
    let voice = voice.expect("the waiting emitter started once the sound loaded");
    assert_eq!(sfx.state(voice), VoiceState::Real);
    assert_eq!(
        sfx.group_stats(feet).unwrap().real_voices,
        1,
        "in its group"
    );
    // Looping: it plays on past its 0.5 s.
    for _ in 0..60 {
        app.update();
    }
    let sfx = app.world().resource::<Sfx>();
    assert!(sfx.state(voice).is_live());
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_file_over_its_budget_or_in_an_unknown_group_is_refused() {
    let dir = folder("refuse");
    let mut app = app(&dir);
    let server = app.world().resource::<AssetServer>().clone();
    let long: Handle<SoundAsset> = server
        .load_builder()
        .with_settings(|settings: &mut SoundAssetSettings| settings.max_frames = 1_000)
        .load("hum.wav");
    until(&mut app, |_| {
        matches!(server.load_state(&long), LoadState::Failed(_))
    });
    let LoadState::Failed(error) = server.load_state(&long) else {
        unreachable!()
    };
    assert!(error.to_string().contains("max_frames"), "{error}");

    #[derive(Resource, Default)]
    struct Refusals(Vec<String>);
    app.init_resource::<Refusals>().add_systems(
        Last,
        |mut seen: ResMut<Refusals>, mut refused: MessageReader<SoundAssetRefused>| {
            seen.0.extend(refused.read().map(|r| r.reason.clone()));
        },
    );
    // A copy of the file under another path, so that it loads anew.
    std::fs::copy(dir.join("hum.wav"), dir.join("bark.wav")).unwrap();
    let lost: Handle<SoundAsset> = server
        .load_builder()
        .with_settings(|settings: &mut SoundAssetSettings| settings.group = Some("nowhere".into()))
        .load("bark.wav");
    let nowhere = |app: &App| {
        let refusals = &app.world().resource::<Refusals>().0;
        refusals
            .iter()
            .any(|r| r.starts_with("bark.wav") && r.contains("nowhere"))
    };
    until(&mut app, |app| nowhere(app));
    assert!(app.world().resource::<SoundIds>().get(&lost).is_none());
    std::fs::remove_dir_all(dir).ok();
}

/// A sound asset that fails to load sends a message naming the file and why:
/// a missing file, and one whose data is no sound.
#[test]
fn a_sound_that_fails_to_load_sends_a_message_naming_its_file() {
    let dir = folder("failed");
    std::fs::write(dir.join("noise.ogg"), b"not an ogg file at all").unwrap();
    let mut app = app(&dir);
    #[derive(Resource, Default)]
    struct Refusals(Vec<SoundAssetRefused>);
    app.init_resource::<Refusals>().add_systems(
        Last,
        |mut seen: ResMut<Refusals>, mut refused: MessageReader<SoundAssetRefused>| {
            seen.0.extend(refused.read().cloned());
        },
    );
    let server = app.world().resource::<AssetServer>().clone();
    let missing: Handle<SoundAsset> = server.load("sounds/missing.wav");
    let corrupt: Handle<SoundAsset> = server.load("noise.ogg");
    until(&mut app, |app| {
        app.world().resource::<Refusals>().0.len() >= 2
    });
    let refusals = &app.world().resource::<Refusals>().0;
    let of = |handle: &Handle<SoundAsset>| {
        let found: Vec<_> = refusals.iter().filter(|r| r.id == handle.id()).collect();
        assert_eq!(found.len(), 1, "one message per failed file: {refusals:?}");
        found[0].clone()
    };
    let (missing, corrupt) = (of(&missing), of(&corrupt));
    assert_eq!(missing.path, "sounds/missing.wav");
    assert!(
        missing.reason.starts_with("sounds/missing.wav: "),
        "{}",
        missing.reason
    );
    assert!(
        missing.reason.to_lowercase().contains("not found")
            || missing.reason.contains("No such file"),
        "{}",
        missing.reason
    );
    assert_eq!(corrupt.path, "noise.ogg");
    assert!(
        corrupt.reason.contains("cannot be decoded"),
        "{}",
        corrupt.reason
    );
    std::fs::remove_dir_all(dir).ok();
}

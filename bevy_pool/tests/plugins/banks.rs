//! Sound banks as assets: a `.bank.ron` file and its recordings loaded by
//! Bevy's `AssetServer` and added to the sound effects; the file edited on
//! disk under the running app (the asset server's file watcher) changes what
//! is heard; a broken edit is a message with its line and column, and the
//! game plays on as it did.

use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::asset::{AssetPlugin, AssetServer};
use bevy::prelude::*;
use bevy_pool::{
    Sfx, SoundAssetsPlugin, SoundBankApplied, SoundBankAsset, SoundBankRefused, SoundEffectsPlugin,
};
use pool_audio::{PlayParams, data::BankProblem};

use super::common::{self, amplitude, last};

const BANK: &str = "level.bank.ron";

fn bank(first_volume: &str) -> String {
    format!(
        "(\n    sounds: {{\n        \"hum\": (recordings: [\"hum.wav\"], looping: true, first_volume: {first_volume}),\n    }},\n)\n"
    )
}

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bevy-pool-banks-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("hum.wav"), common::tone(220.0, 1)).unwrap();
    std::fs::write(dir.join(BANK), bank("-12.0")).unwrap();
    dir
}

/// Every bank message seen.
#[derive(Resource, Default)]
struct Seen {
    applied: Vec<SoundBankApplied>,
    refused: Vec<SoundBankRefused>,
}

fn app(dir: &Path) -> App {
    let mut app = App::new();
    app.add_plugins((
        bevy::app::TaskPoolPlugin::default(),
        AssetPlugin {
            file_path: dir.to_string_lossy().into_owned(),
            watch_for_changes_override: Some(true),
            ..Default::default()
        },
    ));
    let sound = SoundEffectsPlugin {
        output: bevy_pool::Output::Offline {
            settings: Default::default(),
            record: true,
        },
        ..Default::default()
    };
    app.add_plugins((
        bevy::time::TimePlugin,
        bevy::transform::TransformPlugin,
        sound,
    ))
    .add_plugins(SoundAssetsPlugin)
    .insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        Duration::from_secs_f64(common::DT),
    ))
    .init_resource::<Seen>()
    .add_systems(
        Last,
        |mut seen: ResMut<Seen>,
         mut applied: MessageReader<SoundBankApplied>,
         mut refused: MessageReader<SoundBankRefused>| {
            seen.applied.extend(applied.read().cloned());
            seen.refused.extend(refused.read().cloned());
        },
    );
    app
}

/// Updates until `done`, sleeping between frames (the watcher's thread
/// sees the file), or panics after 20 s.
fn until(app: &mut App, mut done: impl FnMut(&Seen) -> bool) {
    for _ in 0..2000 {
        app.update();
        if done(app.world().resource::<Seen>()) {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("timed out");
}

/// The hum's level (its 220 Hz amplitude) over the last 0.2 s, after 30
/// more frames.
fn hum_level(app: &mut App) -> f32 {
    common::frames(app, 30);
    amplitude(&last(app, 0.2), 220.0)
}

#[test]
fn a_bank_edited_on_disk_changes_what_is_heard_and_a_broken_edit_changes_nothing() {
    let dir = folder("edit");
    let mut app = app(&dir);
    let handle: Handle<SoundBankAsset> = app.world().resource::<AssetServer>().load(BANK);
    until(&mut app, |seen| !seen.applied.is_empty());
    let applied = &app.world().resource::<Seen>().applied[0];
    assert_eq!((applied.id, applied.reloaded), (handle.id(), None), "added");
    let mut sfx = app.world_mut().resource_mut::<Sfx>();
    let hum = sfx.sound("hum").expect("the bank's hum");
    let voice = sfx.play(hum, PlayParams::default()).unwrap();
    let quiet = hum_level(&mut app);
    let expected = 0.5 * 10f32.powf(-12.0 / 20.0);
    assert!((20.0 * (quiet / expected).log10()).abs() < 0.2, "{quiet}");

    // The designer raises the hum 6 dB.
    std::fs::write(dir.join(BANK), bank("-6.0")).unwrap();
    until(&mut app, |seen| seen.applied.len() > 1);
    let reloaded = app.world().resource::<Seen>().applied[1].reloaded;
    let reloaded = reloaded.expect("a reload");
    assert_eq!(
        (reloaded.changed, reloaded.added, reloaded.removed),
        (1, 0, 0)
    );
    let louder = hum_level(&mut app);
    let rise = 20.0 * (louder / quiet).log10();
    assert!((rise - 6.0).abs() < 0.2, "{quiet} to {louder}: {rise} dB");
    assert!(
        app.world().resource::<Sfx>().state(voice).is_live(),
        "the same voice"
    );

    // A broken edit: a message placed in the text; the hum plays on.
    std::fs::write(dir.join(BANK), bank("-3.0, max_voices: NaN")).unwrap();
    until(&mut app, |seen| !seen.refused.is_empty());
    let refused = app.world().resource::<Seen>().refused[0].clone();
    assert_eq!(refused.path, BANK);
    assert!(
        refused.reason.contains("level.bank.ron:3:"),
        "{}",
        refused.reason
    );
    let still = hum_level(&mut app);
    assert!(
        (20.0 * (still / louder).log10()).abs() < 0.05,
        "{louder} to {still}"
    );
    // A NaN where a level goes: read, then refused by the sound effects.
    std::fs::write(dir.join(BANK), bank("NaN")).unwrap();
    until(&mut app, |seen| {
        seen.refused.iter().any(|r| r.error.is_some())
    });
    let refused = app.world().resource::<Seen>().refused.clone();
    let error = refused.into_iter().find_map(|r| r.error).unwrap();
    assert_eq!(
        (error.line, error.path.as_str()),
        (3, "sounds.hum.first_volume")
    );
    assert!(matches!(error.problem, BankProblem::Sound(_)), "{error}");
    let still = hum_level(&mut app);
    assert!(
        (20.0 * (still / louder).log10()).abs() < 0.05,
        "{louder} to {still}"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn music_loads_through_the_asset_server_and_plays() {
    let dir = std::env::temp_dir().join(format!("bevy-pool-music-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("theme.wav"), common::tone(330.0, 2)).unwrap();
    let mut app = app(&dir);
    let server = app.world().resource::<AssetServer>().clone();
    let theme: Handle<bevy_pool::MusicAsset> = server.load("theme.wav");
    // A sound asset of the same file beside it: each loader by its type.
    let sound: Handle<bevy_pool::SoundAsset> = server.load("theme.wav");
    for _ in 0..2000 {
        app.update();
        let music = app.world().resource::<Assets<bevy_pool::MusicAsset>>();
        let sounds = app.world().resource::<Assets<bevy_pool::SoundAsset>>();
        if music.get(&theme).is_some() && sounds.get(&sound).is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let source = app.world().resource::<Assets<bevy_pool::MusicAsset>>();
    let source = source.get(&theme).expect("the theme loads").source.clone();
    let track = app
        .world()
        .resource::<bevy_pool::MusicTracks>()
        .track("music")
        .unwrap();
    app.world_mut().write_message(bevy_pool::PlayMusic {
        track,
        source,
        params: Default::default(),
    });
    common::frames(&mut app, 30);
    let heard = amplitude(&last(&app, 0.2), 330.0);
    assert!(
        (heard - 0.5).abs() < 0.05,
        "the theme at its own level: {heard}"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_recording_saved_over_on_disk_plays_from_the_next_play() {
    let dir = folder("take");
    let mut app = app(&dir);
    let _bank: Handle<SoundBankAsset> = app.world().resource::<AssetServer>().load(BANK);
    until(&mut app, |seen| !seen.applied.is_empty());
    let mut sfx = app.world_mut().resource_mut::<Sfx>();
    let hum = sfx.sound("hum").unwrap();
    let voice = sfx.play(hum, PlayParams::default()).unwrap();
    common::frames(&mut app, 20);
    assert!(amplitude(&last(&app, 0.2), 220.0) > 0.05);
    // A new take saved over the file: the bank reloads with it.
    std::fs::write(dir.join("hum.wav"), common::tone(330.0, 1)).unwrap();
    until(&mut app, |seen| seen.applied.len() > 1);
    let reloaded = app.world().resource::<Seen>().applied[1].reloaded.unwrap();
    assert_eq!(reloaded.changed, 1, "the sound that plays the file");
    // The voice playing keeps its take; the next play has the new one.
    common::frames(&mut app, 20);
    assert!(amplitude(&last(&app, 0.2), 220.0) > 0.05);
    let mut sfx = app.world_mut().resource_mut::<Sfx>();
    sfx.voice(voice).stop(Default::default()).unwrap();
    sfx.play(hum, PlayParams::default()).unwrap();
    common::frames(&mut app, 30);
    let heard = last(&app, 0.2);
    assert!(amplitude(&heard, 330.0) > 0.05 && amplitude(&heard, 220.0) < 0.005);
    std::fs::remove_dir_all(dir).ok();
}

//! `Output::Device` with no device to open: the plugin falls back to the
//! offline output, says why, and the game plays on (silent) instead of stopping.
//!
//! No sound card is made to disappear: the test runs itself again in a child
//! process whose ALSA configuration does not exist (`ALSA_CONFIG_PATH`), so
//! ALSA opens no device whatever the machine has. Linux only (ALSA), with the
//! `device` feature.
#![cfg(all(feature = "device", target_os = "linux"))]

use std::process::Command;

use bevy::prelude::*;
use bevy_pool::{AudioOutput, PlaySound, Sfx, SoundEffectsPlugin, SoundListener, SoundWarning};
use pool_audio::kira::Frame;
use pool_audio::kira::sound::static_sound::StaticSoundData;
use pool_audio::{PlayParams, SoundSettings};

const CHILD: &str = "BEVY_POOL_DEVICE_FALLBACK_CHILD";
const TEST: &str = "without_a_device_the_plugin_falls_back_and_plays_on";

#[test]
fn without_a_device_the_plugin_falls_back_and_plays_on() {
    if std::env::var_os(CHILD).is_some() {
        return in_the_child();
    }
    let dir = std::env::temp_dir().join(format!("bevy-pool-no-alsa-{}", std::process::id()));
    let output = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", TEST, "--nocapture", "--test-threads", "1"])
        .env(CHILD, "1")
        .env("ALSA_CONFIG_PATH", dir.join("missing.conf"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("fell back: no audio device"),
        "the child failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn in_the_child() {
    let mut app = App::new();
    app.add_plugins((
        bevy::time::TimePlugin,
        bevy::transform::TransformPlugin,
        // With the device feature, the default output is the sound card.
        SoundEffectsPlugin::default(),
    ));
    let output = app.world().non_send::<AudioOutput>();
    let why = output.fallback().expect("no device opened: a fallback");
    assert!(!output.is_device());
    println!("fell back: {why}");
    // The game plays on: plays are accepted and counted, as offline.
    let blip = app
        .world_mut()
        .resource_mut::<Sfx>()
        .add_sound(
            "blip",
            StaticSoundData {
                sample_rate: 48_000,
                frames: vec![Frame::from_mono(0.5); 4_800].into(),
                settings: Default::default(),
                slice: None,
            },
            SoundSettings::default(),
        )
        .unwrap();
    app.world_mut().spawn((SoundListener, Transform::default()));
    for _ in 0..3 {
        app.world_mut().write_message(PlaySound {
            sound: blip,
            params: PlayParams::default(),
        });
        app.update();
    }
    assert_eq!(app.world().resource::<Sfx>().stats().plays, 3);
    // The game was told, once, on its first frame.
    let warnings: Vec<SoundWarning> = app
        .world_mut()
        .resource_mut::<Messages<SoundWarning>>()
        .drain()
        .collect();
    assert_eq!(
        warnings
            .iter()
            .filter(|w| **w == SoundWarning::NoDevice)
            .count(),
        1
    );
}

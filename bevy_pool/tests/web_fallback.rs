//! `Output::Web` outside a browser: the plugin falls back to the offline
//! output, says why, and the game plays on (silent) instead of stopping. (In a
//! browser the web example's page plays through it: `scripts/web.sh`.)
#![cfg(all(feature = "web", not(target_arch = "wasm32")))]

use bevy::prelude::*;
use bevy_pool::{AudioOutput, PlaySound, Sfx, SoundEffectsPlugin, SoundListener, SoundWarning};
use pool_audio::kira::Frame;
use pool_audio::kira::sound::static_sound::StaticSoundData;
use pool_audio::web::WebSettings;
use pool_audio::{PlayParams, SoundSettings};

#[test]
fn outside_a_browser_the_web_output_falls_back_and_plays_on() {
    let mut app = App::new();
    app.add_plugins((
        bevy::time::TimePlugin,
        bevy::transform::TransformPlugin,
        SoundEffectsPlugin {
            output: bevy_pool::Output::Web(WebSettings::default()),
            ..Default::default()
        },
    ));
    let output = app.world().non_send::<AudioOutput>();
    let why = output.fallback().expect("not in a browser: a fallback");
    assert!(why.contains("browser"), "{why}");
    assert!(output.web().is_none());
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
    let warnings: Vec<SoundWarning> = app
        .world_mut()
        .resource_mut::<Messages<SoundWarning>>()
        .drain()
        .collect();
    let told = warnings.iter().filter(|w| **w == SoundWarning::NoDevice);
    assert_eq!(told.count(), 1, "told once, on the first frame");
}

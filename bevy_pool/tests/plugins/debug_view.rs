//! The debug view's text is the voice table of what plays: the counts of
//! real and virtual voices and of refused emitters as the game sees them,
//! and a line per voice with its sound's name and state; in an app without
//! Bevy's gizmos too.

use std::time::Duration;

use bevy::prelude::*;
use bevy_pool::{
    Sfx, SoundDebugPlugin, SoundDebugText, SoundEffectsPlugin, SoundEmitter, SoundVoices,
};
use pool_audio::kira::Frame;
use pool_audio::kira::sound::static_sound::StaticSoundData;
use pool_audio::voices::{Virtualization, WhenFull};
use pool_audio::{SoundEffectsSettings, SoundSettings, VoiceState};

use super::common;

fn hum() -> StaticSoundData {
    StaticSoundData {
        sample_rate: 48_000,
        frames: vec![Frame::from_mono(0.2); 4_800].into(),
        settings: Default::default(),
        slice: None,
    }
    .loop_region(..)
}

#[test]
fn the_debug_text_is_the_voice_table_of_what_plays() {
    let mut app = common::app_of(SoundEffectsPlugin {
        settings: SoundEffectsSettings {
            voice_cap: 4,
            ..Default::default()
        },
        ..Default::default()
    });
    // No gizmos in this app: the view draws nothing and writes its text.
    app.add_plugins(SoundDebugPlugin {
        table_every: Duration::ZERO,
        ..Default::default()
    });
    let mut sfx = app.world_mut().resource_mut::<Sfx>();
    let torch = sfx
        .add_sound("torch", hum(), SoundSettings::default())
        .unwrap();
    let bell = (SoundSettings::default().max_voices(1))
        .when_full(WhenFull::Strict)
        .virtualization(Virtualization::Kill);
    let bell = sfx.add_sound("bell", hum(), bell).unwrap();
    for i in 0..10 {
        let at = Transform::from_xyz(2.0 + i as f32 * 5.0, 0.0, 0.0);
        app.world_mut().spawn((SoundEmitter::new(torch), at));
    }
    // Two bells: the second is refused (one copy, strict).
    for x in [1.0, -1.0] {
        let at = Transform::from_xyz(x, 0.0, 0.0);
        app.world_mut().spawn((SoundEmitter::new(bell), at));
    }
    common::frames(&mut app, 6);
    let voices = app.world().resource::<SoundVoices>();
    let real = voices
        .iter()
        .filter(|(v, _)| v.state == VoiceState::Real)
        .count();
    let virtual_ = voices
        .iter()
        .filter(|(v, _)| v.state == VoiceState::Virtual)
        .count();
    assert_eq!(
        (voices.len(), real),
        (11, 4),
        "the voice cap keeps four real"
    );
    let text = {
        let world = app.world_mut();
        let mut query = world.query_filtered::<&Text, With<SoundDebugText>>();
        query.single(world).unwrap().0.clone()
    };
    let first = text.lines().next().unwrap();
    assert_eq!(
        first,
        format!("11 voices: {real} real, {virtual_} virtual; 1 emitters refused")
    );
    let rows: Vec<&str> = text.lines().skip(2).collect();
    assert_eq!(rows.len(), 11, "{text}");
    assert_eq!(rows.iter().filter(|r| r.contains(" real ")).count(), 4);
    assert_eq!(rows.iter().filter(|r| r.contains("bell")).count(), 1);
    assert!(
        rows[..4].iter().all(|r| r.contains(" real ")),
        "real voices first"
    );
}

//! The mix in Bevy: the music tracks are in the sound effects' mix, so a duck
//! of a voice group lowers the `"music"` track by its id (measured in the
//! recorded render, at the music's frequency), an `ApplySnapshot` message sets
//! it, and a bad one comes back as `MixRefused`.

use bevy::ecs::message::Messages;
use bevy::prelude::*;
use bevy_pool::pool_audio::{mix::DuckSettings, mix::MixError};
use bevy_pool::prelude::*;

use crate::common::{RATE, amplitude, app, frames, last, tone};

fn db(x: f32) -> f32 {
    20.0 * x.log10()
}

#[test]
fn a_duck_and_a_snapshot_set_the_music_track_and_bad_messages_are_refused() {
    let mut app = app();
    let music = app
        .world()
        .resource::<MusicTracks>()
        .track("music")
        .unwrap();
    let ambience = app
        .world()
        .resource::<Sfx>()
        .mix()
        .track("ambience")
        .unwrap();
    let (line, storm) = {
        let mut sfx = app.world_mut().resource_mut::<Sfx>();
        let dialogue = sfx.add_group("dialogue", GroupSettings::default()).unwrap();
        sfx.mix_mut()
            .add_duck(dialogue, music, DuckSettings::default().amount(-12.0))
            .unwrap();
        let silence = StaticSoundData {
            sample_rate: RATE,
            frames: vec![Frame::from_mono(0.0); RATE as usize].into(),
            settings: Default::default(),
            slice: None,
        };
        let line = sfx
            .add_sound("line", silence, SoundSettings::default().group(dialogue))
            .unwrap();
        let storm = sfx
            .mix_mut()
            .add_snapshot(Snapshot::new("storm").set(ambience, -6.0).set(music, -6.0))
            .unwrap();
        (line, storm)
    };
    app.world_mut().write_message(PlayMusic {
        track: music,
        source: MusicSource::encoded("theme", tone(300.0, 4)),
        params: MusicParams::default().looped(),
    });
    frames(&mut app, 30);
    let own = amplitude(&last(&app, 0.2), 300.0);
    assert!(own > 0.3, "the music plays: {own}");
    // A line of dialogue: the music goes 12 dB down within the attack.
    app.world_mut().write_message(PlaySound {
        sound: line,
        params: PlayParams::default(),
    });
    frames(&mut app, 24);
    let ducked = db(amplitude(&last(&app, 0.2), 300.0) / own);
    assert!((ducked + 12.0).abs() < 0.2, "ducked by {ducked} dB");
    // After the line (1 s), the hold and the release (0.75 s), it is back;
    // then the storm snapshot takes it 6 dB down.
    frames(&mut app, 120);
    let back = db(amplitude(&last(&app, 0.2), 300.0) / own);
    assert!(back.abs() < 0.2, "back: {back} dB");
    app.world_mut().write_message(ApplySnapshot {
        snapshot: storm,
        intensity: 1.0,
        tween: Default::default(),
    });
    frames(&mut app, 30);
    let stormy = db(amplitude(&last(&app, 0.2), 300.0) / own);
    assert!((stormy + 6.0).abs() < 0.2, "storm: {stormy} dB");
    assert_eq!(
        app.world().resource::<Sfx>().mix().stats().snapshots_active,
        1
    );
    // A bad intensity changes nothing and says why.
    app.world_mut().write_message(ApplySnapshot {
        snapshot: storm,
        intensity: f32::NAN,
        tween: Default::default(),
    });
    app.update();
    let refused: Vec<MixRefused> = app
        .world_mut()
        .resource_mut::<Messages<MixRefused>>()
        .drain()
        .collect();
    assert_eq!(refused.len(), 1);
    assert!(matches!(refused[0].error, MixError::Intensity(i) if i.is_nan()));
    assert_eq!(
        app.world().resource::<Sfx>().mix().level(music).unwrap(),
        bevy_pool::kira::Decibels(-6.0)
    );
}

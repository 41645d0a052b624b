//! The mix in Bevy: the plugin hands the music tracks to the sound effects,
//! so a duck of a voice group lowers the `"music"` track (measured in the
//! recorded render, at the music's frequency), an `ApplySnapshot` message sets
//! it, and a bad one comes back as `MixRefused`.

use std::f32::consts::TAU;
use std::time::Duration;

use bevy::app::App;
use bevy::ecs::message::Messages;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_pool::pool_audio::{DuckSettings, MixError, OfflineSettings};
use bevy_pool::prelude::*;

const DT: f64 = 1.0 / 60.0;
const RATE: u32 = 48_000;

/// A 16-bit mono WAV of `seconds` of a sine at `hz`, amplitude 0.5.
fn tone(hz: f32, seconds: u32) -> Vec<u8> {
    let frames = seconds * RATE;
    let mut wav = Vec::new();
    wav.extend(b"RIFF");
    wav.extend((36 + frames * 2).to_le_bytes());
    wav.extend(b"WAVEfmt ");
    wav.extend(16u32.to_le_bytes());
    wav.extend(1u16.to_le_bytes());
    wav.extend(1u16.to_le_bytes());
    wav.extend(RATE.to_le_bytes());
    wav.extend((RATE * 2).to_le_bytes());
    wav.extend(2u16.to_le_bytes());
    wav.extend(16u16.to_le_bytes());
    wav.extend(b"data");
    wav.extend((frames * 2).to_le_bytes());
    for i in 0..frames {
        let s = ((i as f32 * hz * TAU / RATE as f32).sin() * 16_383.0) as i16;
        wav.extend(s.to_le_bytes());
    }
    wav
}

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((
        bevy::time::TimePlugin,
        bevy::transform::TransformPlugin,
        SoundEffectsPlugin {
            output: Output::Offline {
                settings: OfflineSettings::default(),
                record: true,
            },
            ..Default::default()
        },
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        DT,
    )));
    app.update();
    app
}

fn frames(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
    }
}

/// The left channel of the last `seconds` recorded.
fn last(app: &App, seconds: f64) -> Vec<f32> {
    let samples = app.world().non_send::<AudioOutput>().recorded_samples();
    let n = (seconds * f64::from(RATE)) as usize * 2;
    samples[samples.len() - n..]
        .iter()
        .step_by(2)
        .copied()
        .collect()
}

/// The amplitude at `hz` (a window of whole cycles).
fn amplitude(left: &[f32], hz: f32) -> f32 {
    let (mut re, mut im) = (0.0f64, 0.0f64);
    for (n, s) in left.iter().enumerate() {
        let phase = f64::from(hz) * std::f64::consts::TAU * n as f64 / f64::from(RATE);
        re += f64::from(*s) * phase.cos();
        im += f64::from(*s) * phase.sin();
    }
    (2.0 * re.hypot(im) / left.len() as f64) as f32
}

fn db(x: f32) -> f32 {
    20.0 * x.log10()
}

#[test]
fn a_duck_and_a_snapshot_set_the_music_track_and_bad_messages_are_refused() {
    let mut app = app();
    let (line, storm) = {
        let mut sfx = app.world_mut().resource_mut::<Sfx>();
        let dialogue = sfx.add_group("dialogue", GroupSettings::default()).unwrap();
        sfx.add_duck(dialogue, "music", DuckSettings::default().amount_db(-12.0))
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
            .add_snapshot(
                Snapshot::new("storm")
                    .set("ambience", -6.0)
                    .set("music", -6.0),
            )
            .unwrap();
        (line, storm)
    };
    app.world_mut().write_message(PlayMusic {
        track: "music".into(),
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
        app.world().resource::<Sfx>().mix_stats().snapshots_active,
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
    assert_eq!(app.world().resource::<Sfx>().mix_db("music").unwrap(), -6.0);
}

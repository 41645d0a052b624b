//! Music and ambience in Bevy: `PlayMusic` crossfades with equal power (the
//! summed level within 1 dB of each piece's own) and finishes in its time; a
//! track that pauses with the game stops with `Time<Virtual>` and comes back
//! where it was, while the music plays on; bad requests come back as
//! `MusicRefused`. Measured in the recorded render.

use bevy::app::App;
use bevy::ecs::message::Messages;
use bevy::prelude::*;
use bevy_pool::pool_audio::{dsp::LimiterSettings, music::MusicError};
use bevy_pool::prelude::*;

mod common;

use common::{RATE, amplitude, app, app_with, frames, last, tone};

fn rms_db(left: &[f32]) -> f32 {
    10.0 * (left.iter().map(|s| s * s).sum::<f32>() / left.len() as f32).log10()
}

/// The amplitude at `hz` (a window of whole cycles).
fn play(app: &mut App, track: &str, source: &MusicSource, params: MusicParams) {
    app.world_mut().write_message(PlayMusic {
        track: track.into(),
        source: source.clone(),
        params,
    });
}

#[test]
fn play_music_crossfades_with_equal_power() {
    let mut app = app();
    let calm = MusicSource::encoded("calm", tone(200.0, 4));
    let boss = MusicSource::encoded("boss", tone(300.0, 4));
    play(&mut app, "music", &calm, MusicParams::default().looped());
    frames(&mut app, 30);
    let own = rms_db(&last(&app, 0.2));
    play(
        &mut app,
        "music",
        &boss,
        MusicParams::default().fade(1.0).looped(),
    );
    // Each frame's level through the one-second crossfade.
    let mut worst: f32 = 0.0;
    for _ in 0..60 {
        app.update();
        worst = worst.max((rms_db(&last(&app, 0.05)) - own).abs());
    }
    println!("crossfade: at most {worst:.2} dB from a piece alone ({own:.2} dB)");
    assert!(worst < 1.0, "the summed level strays {worst} dB");
    // A tenth of a second after the fade's end: the new piece alone.
    frames(&mut app, 7);
    let after = last(&app, 0.1);
    let (old, new) = (amplitude(&after, 200.0), amplitude(&after, 300.0));
    println!("after it: 200 Hz {old:.3}, 300 Hz {new:.3}");
    assert!(old < 0.005 && (new - 0.5).abs() < 0.01, "{old} {new}");
    let music = app.world().resource::<MusicTracks>();
    assert_eq!(music.piece("music").unwrap(), Some("boss"));
    assert_eq!(music.stats().streams, 1);
}

#[test]
fn ambience_pauses_with_virtual_time_and_music_plays_on() {
    let mut app = app();
    let song = MusicSource::encoded("song", tone(200.0, 8));
    let wind = MusicSource::encoded("wind", tone(300.0, 8));
    play(&mut app, "music", &song, MusicParams::default());
    play(&mut app, "ambience", &wind, MusicParams::default());
    frames(&mut app, 30);
    let both = last(&app, 0.1);
    assert!(amplitude(&both, 200.0) > 0.45 && amplitude(&both, 300.0) > 0.45);

    app.world_mut().resource_mut::<Time<Virtual>>().pause();
    frames(&mut app, 10);
    let held = app
        .world()
        .resource::<MusicTracks>()
        .position("ambience")
        .unwrap()
        .unwrap();
    frames(&mut app, 30);
    let paused = last(&app, 0.1);
    let (song_level, wind_level) = (amplitude(&paused, 200.0), amplitude(&paused, 300.0));
    println!("paused: music {song_level:.3}, ambience {wind_level:.3}");
    assert!(song_level > 0.45 && wind_level < 0.005);
    let still = app
        .world()
        .resource::<MusicTracks>()
        .position("ambience")
        .unwrap()
        .unwrap();
    assert_eq!(held, still, "the ambience holds its place");

    app.world_mut().resource_mut::<Time<Virtual>>().unpause();
    frames(&mut app, 30);
    let back = last(&app, 0.1);
    assert!(amplitude(&back, 300.0) > 0.45, "the ambience is back");
    let on = app
        .world()
        .resource::<MusicTracks>()
        .position("ambience")
        .unwrap()
        .unwrap();
    assert!(
        on > still + 0.3,
        "and goes on from where it was: {still} -> {on}"
    );
}

#[test]
fn bad_music_requests_come_back_as_messages() {
    let mut app = app();
    let song = MusicSource::encoded("song", tone(200.0, 1));
    play(&mut app, "radio", &song, MusicParams::default());
    play(
        &mut app,
        "music",
        &song,
        MusicParams::default().fade(f64::NAN),
    );
    app.world_mut().write_message(StopMusic {
        track: "music".into(),
        fade: -1.0,
    });
    app.update();
    let refused: Vec<MusicRefused> = app
        .world_mut()
        .resource_mut::<Messages<MusicRefused>>()
        .drain()
        .collect();
    assert_eq!(refused.len(), 3, "{refused:?}");
    assert_eq!(refused[0].error, MusicError::Fade(-1.0));
    assert_eq!(refused[1].error, MusicError::UnknownTrack("radio".into()));
    assert!(matches!(refused[2].error, MusicError::Fade(f) if f.is_nan()));
    assert_eq!(app.world().resource::<MusicTracks>().stats().streams, 0);
}

/// The effects' limiter holds the effects alone: music beside them lifts the
/// mix over -1 dBFS; `main_limiter` holds both together.
#[test]
fn a_main_limiter_holds_music_and_effects_together() {
    let ceiling = 10f32.powf(-1.0 / 20.0);
    let mut peaks = Vec::new();
    for main_limiter in [None, Some(LimiterSettings::default())] {
        let mut app = app_with(main_limiter);
        let loud = StaticSoundData {
            sample_rate: RATE,
            frames: vec![Frame::from_mono(1.0); RATE as usize].into(),
            settings: Default::default(),
            slice: None,
        };
        let settings = SoundSettings::default().max_voices(4).first_volume(0.0);
        let sound = app
            .world_mut()
            .resource_mut::<Sfx>()
            .add_sound("wall", loud, settings)
            .unwrap();
        app.world_mut().write_message(PlaySound {
            sound,
            params: PlayParams::default(),
        });
        play(
            &mut app,
            "music",
            &MusicSource::encoded("song", tone(200.0, 2)),
            MusicParams::default(),
        );
        frames(&mut app, 30);
        let last = last(&app, 0.3);
        peaks.push(last.iter().fold(0.0f32, |m, s| m.max(s.abs())));
        let reduction = app
            .world()
            .non_send::<AudioOutput>()
            .main_limiter()
            .map(|l| l.take_max_gain_reduction());
        assert_eq!(reduction.is_some(), main_limiter.is_some());
    }
    println!(
        "peaks: beside {:.3}, under the main limiter {:.3} (ceiling {ceiling:.3})",
        peaks[0], peaks[1]
    );
    assert!(
        peaks[0] > ceiling + 0.1,
        "music lifts the mix: {}",
        peaks[0]
    );
    assert!(peaks[1] <= ceiling + 1e-4, "held: {}", peaks[1]);
}

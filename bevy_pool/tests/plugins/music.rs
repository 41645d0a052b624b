//! Music and ambience in Bevy: `PlayMusic` crossfades with equal power (the
//! summed level within 1 dB of each piece's own) and finishes in its time; a
//! track that pauses with the game stops with `Time<Virtual>` and comes back
//! where it was, while the music plays on; bad requests come back as
//! `MusicRefused`. Measured in the recorded render.

use bevy::app::App;
use bevy::ecs::message::Messages;
use bevy::prelude::*;
use std::time::Duration;

use bevy_pool::pool_audio::mix::TrackId;
use bevy_pool::pool_audio::{dsp::LimiterSettings, linear_fade, music::MusicError};
use bevy_pool::prelude::*;

use crate::common::{RATE, amplitude, app, frames, last, tone};

fn rms_db(left: &[f32]) -> f32 {
    10.0 * (left.iter().map(|s| s * s).sum::<f32>() / left.len() as f32).log10()
}

/// The id of the music track named `name`.
fn track(app: &App, name: &str) -> TrackId {
    app.world().resource::<MusicTracks>().track(name).unwrap()
}

/// Plays `source` on the track named `name`.
fn play(app: &mut App, name: &str, source: &MusicSource, params: MusicParams) {
    let track = track(app, name);
    app.world_mut().write_message(PlayMusic {
        track,
        source: source.clone(),
        params,
    });
}

/// Where the piece on the track named `name` is, in seconds.
fn position(app: &App, name: &str) -> f64 {
    let music = app.world().resource::<MusicTracks>();
    let at = music.position(track(app, name)).unwrap().unwrap();
    at.as_secs_f64()
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
        MusicParams::default()
            .fade(linear_fade(Duration::from_secs(1)))
            .looped(),
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
    assert_eq!(music.piece(track(&app, "music")).unwrap(), Some("boss"));
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
    let held = position(&app, "ambience");
    frames(&mut app, 30);
    let paused = last(&app, 0.1);
    let (song_level, wind_level) = (amplitude(&paused, 200.0), amplitude(&paused, 300.0));
    println!("paused: music {song_level:.3}, ambience {wind_level:.3}");
    assert!(song_level > 0.45 && wind_level < 0.005);
    let still = position(&app, "ambience");
    assert_eq!(held, still, "the ambience holds its place");

    app.world_mut().resource_mut::<Time<Virtual>>().unpause();
    frames(&mut app, 30);
    let back = last(&app, 0.1);
    assert!(amplitude(&back, 300.0) > 0.45, "the ambience is back");
    let on = position(&app, "ambience");
    assert!(
        on > still + 0.3,
        "and goes on from where it was: {still} -> {on}"
    );
}

#[test]
fn bad_music_requests_come_back_as_messages() {
    let mut app = app();
    let song = MusicSource::encoded("song", tone(200.0, 1));
    // Another app's track: another manager's id.
    let foreign = track(&crate::common::app(), "music");
    app.world_mut().write_message(PlayMusic {
        track: foreign,
        source: song.clone(),
        params: MusicParams::default(),
    });
    let too_long = linear_fade(Duration::from_secs(7_200));
    play(
        &mut app,
        "music",
        &song,
        MusicParams::default().fade(too_long),
    );
    let later = pool_audio::kira::Tween {
        start_time: pool_audio::kira::StartTime::Delayed(Duration::from_secs(1)),
        ..Default::default()
    };
    let music = track(&app, "music");
    app.world_mut().write_message(StopMusic {
        track: music,
        fade: later,
    });
    app.update();
    let refused: Vec<MusicRefused> = app
        .world_mut()
        .resource_mut::<Messages<MusicRefused>>()
        .drain()
        .collect();
    assert_eq!(refused.len(), 3, "{refused:?}");
    assert_eq!(refused[0].error, MusicError::Fade(later));
    assert_eq!(refused[1].error, MusicError::NotMusicTrack(foreign));
    assert_eq!(refused[2].error, MusicError::Fade(too_long));
    assert_eq!(app.world().resource::<MusicTracks>().stats().streams, 0);
}

/// The sound effects' limiter holds the music with them: a full-scale wall
/// and music over it stay under the ceiling by default, go over it with the
/// limiter off, and `main_limiter` (for the game's own kira sounds) holds them
/// as well.
#[test]
fn one_limiter_holds_music_and_effects_together() {
    let ceiling = 10f32.powf(-1.0 / 20.0);
    let mut peaks = Vec::new();
    let limiter = Some(LimiterSettings::default());
    for (effects_limiter, main_limiter) in [(None, None), (limiter, None), (None, limiter)] {
        let mut app = crate::common::app_of(SoundEffectsPlugin {
            settings: SoundEffectsSettings {
                limiter: effects_limiter,
                ..Default::default()
            },
            main_limiter,
            ..Default::default()
        });
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
        "peaks: unlimited {:.3}, effects' limiter {:.3}, main limiter {:.3} (ceiling {ceiling:.3})",
        peaks[0], peaks[1], peaks[2]
    );
    assert!(peaks[0] > ceiling + 0.1, "unlimited, over: {}", peaks[0]);
    assert!(peaks[1] <= ceiling + 1e-4, "held: {}", peaks[1]);
    assert!(peaks[2] <= ceiling + 1e-4, "held: {}", peaks[2]);
}

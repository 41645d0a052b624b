//! The plugin on the sound card: `Output::Device`, a second of a Bevy app with a
//! listener, a looping emitter and one-shots, then a check that the voices
//! played and nothing was refused.
//!
//! `cargo run -p bevy_pool --features device --example bevy_device`
//!
//! CI runs it on ALSA's null device (see `.ci/run`). Exits with an error saying
//! what failed otherwise, and with one when no device opened (the plugin itself
//! falls back to offline output then; this example's point is the device).

use std::error::Error;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy_pool::{AudioOutput, PlaySound, Sfx, SoundEffectsPlugin, SoundEmitter, SoundListener};
use pool_audio::kira::Frame;
use pool_audio::kira::sound::static_sound::StaticSoundData;
use pool_audio::{PlayParams, SoundSettings};

fn tone(seconds: f32, hz: f32) -> StaticSoundData {
    StaticSoundData {
        sample_rate: 48_000,
        frames: (0..(seconds * 48_000.0) as usize)
            .map(|i| {
                Frame::from_mono((i as f32 / 48_000.0 * hz * std::f32::consts::TAU).sin() * 0.5)
            })
            .collect(),
        settings: Default::default(),
        slice: None,
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut app = App::new();
    app.add_plugins((
        bevy::time::TimePlugin,
        bevy::transform::TransformPlugin,
        // With the `device` feature, the default output is the sound card.
        SoundEffectsPlugin::default(),
    ));
    if let Some(why) = app.world().non_send::<AudioOutput>().fallback() {
        return Err(why.to_string().into());
    }
    let (engine, blip) = {
        let mut sfx = app.world_mut().resource_mut::<Sfx>();
        (
            sfx.add_sound(
                "engine",
                tone(0.5, 110.0).loop_region(..),
                SoundSettings::default(),
            )?,
            sfx.add_sound(
                "blip",
                tone(0.1, 880.0),
                SoundSettings::default().max_voices(4),
            )?,
        )
    };
    app.world_mut().spawn((SoundListener, Transform::default()));
    let car = app
        .world_mut()
        .spawn((
            SoundEmitter::new(engine),
            Transform::from_xyz(5.0, 0.0, 0.0),
        ))
        .id();
    let started = Instant::now();
    let mut frames = 0u32;
    while started.elapsed() < Duration::from_secs(1) {
        if frames.is_multiple_of(6) {
            app.world_mut().write_message(PlaySound {
                sound: blip,
                params: PlayParams::default().position([1.0, 0.0, 0.0]),
            });
        }
        app.update();
        frames += 1;
        std::thread::sleep(Duration::from_millis(16));
    }
    let sfx = app.world().resource::<Sfx>();
    let stats = sfx.stats();
    let voice = app
        .world()
        .get::<SoundEmitter>(car)
        .and_then(SoundEmitter::voice);
    println!(
        "{frames} frames on the device; {} plays, peak {} real voices, engine {:?}",
        stats.plays,
        stats.peak_voices,
        voice.map(|v| sfx.state(v))
    );
    if !app.world().non_send::<AudioOutput>().is_device() {
        return Err("the output is not the device".into());
    }
    if stats.plays < 5
        || stats.refused_voice_cap + stats.refused_no_free_voice + stats.queue_full > 0
    {
        return Err(format!("the voices did not play as asked: {stats:?}").into());
    }
    Ok(())
}

//! Helpers shared by the tests that listen to the recorded render.

use std::f32::consts::TAU;
use std::time::Duration;

use bevy::app::App;
use bevy::time::TimeUpdateStrategy;
use bevy_pool::pool_audio::{dsp::LimiterSettings, offline::OfflineSettings};
use bevy_pool::prelude::*;

pub(crate) const DT: f64 = 1.0 / 60.0;
pub(crate) const RATE: u32 = 48_000;

/// A 16-bit mono WAV of `seconds` of a sine at `hz`, amplitude 0.5.
pub(crate) fn tone(hz: f32, seconds: u32) -> Vec<u8> {
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

pub(crate) fn app() -> App {
    app_with(None)
}

pub(crate) fn app_with(main_limiter: Option<LimiterSettings>) -> App {
    app_of(SoundEffectsPlugin {
        main_limiter,
        ..Default::default()
    })
}

/// An app with `plugin`, recording its render offline, one frame run.
pub(crate) fn app_of(plugin: SoundEffectsPlugin) -> App {
    let mut app = App::new();
    app.add_plugins((
        bevy::time::TimePlugin,
        bevy::transform::TransformPlugin,
        SoundEffectsPlugin {
            output: Output::Offline {
                settings: OfflineSettings::default(),
                record: true,
            },
            ..plugin
        },
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        DT,
    )));
    app.update();
    app
}

pub(crate) fn frames(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
    }
}

/// The left channel of the last `seconds` recorded.
pub(crate) fn last(app: &App, seconds: f64) -> Vec<f32> {
    let samples = app.world().non_send::<AudioOutput>().recorded_samples();
    let n = (seconds * f64::from(RATE)) as usize * 2;
    samples[samples.len() - n..]
        .iter()
        .step_by(2)
        .copied()
        .collect()
}

pub(crate) fn amplitude(left: &[f32], hz: f32) -> f32 {
    let (mut re, mut im) = (0.0f64, 0.0f64);
    for (n, s) in left.iter().enumerate() {
        let phase = f64::from(hz) * std::f64::consts::TAU * n as f64 / f64::from(RATE);
        re += f64::from(*s) * phase.cos();
        im += f64::from(*s) * phase.sin();
    }
    (2.0 * re.hypot(im) / left.len() as f64) as f32
}

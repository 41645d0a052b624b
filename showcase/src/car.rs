//! The passing car: an engine loop with doppler, driving across the
//! listener's walk at the middle of the run, heard up to 250 m away (its own
//! distances). Its path is recorded with the listener's, frame by frame, so
//! its pitch can be measured in a render of the car alone and set against
//! the doppler formula.

use std::sync::Arc;

use kira::sound::static_sound::StaticSoundData;
use kira::{AudioManager, AudioManagerSettings, Frame};
use pool_audio::{
    OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundId, SoundSettings,
    error::AddSoundError, offline::OfflineSettings, spatial::Distances, spatial::doppler_factor,
};

use crate::content::{FPS, RATE, listener_at};

/// The engine's pitch at rest, Hz.
pub const ENGINE_HZ: f64 = 110.0;
/// The car's speed, m/s (108 km/h).
pub const SPEED: f32 = 30.0;
/// How far from the listener's path (at the middle of the run) its road runs, m.
const OFFSET: f32 = 4.0;

/// A second of the engine: its fundamental and a quarter of its octave
/// (`sin x (1 + cos x / 2)`: one rising zero crossing a period, so its pitch
/// can be counted).
pub fn engine() -> StaticSoundData {
    let frames: Arc<[Frame]> = (0..RATE)
        .map(|i| {
            let x = std::f64::consts::TAU * ENGINE_HZ * f64::from(i) / f64::from(RATE);
            Frame::from_mono(0.8 * (x.sin() + 0.25 * (2.0 * x).sin()) as f32)
        })
        .collect();
    StaticSoundData {
        sample_rate: RATE,
        frames,
        settings: Default::default(),
        slice: None,
    }
    .loop_region(..)
}

/// The engine's settings: one copy, doppler at its physical scale, heard
/// from 3 m (full level) to 250 m.
pub fn settings() -> SoundSettings {
    SoundSettings::default()
        .max_voices(1)
        .first_volume(-6.0206)
        .doppler_scale(1.0)
        .distances(Distances {
            min: 3.0,
            max: 250.0,
            ..Default::default()
        })
}

/// Adds the engine to `sfx`.
///
/// # Errors
/// What `add_sound` returns (nothing for this sound).
pub fn add(sfx: &mut SoundEffects) -> Result<SoundId, AddSoundError> {
    sfx.add_sound("car", engine(), settings())
}

/// Where the car is `seconds` into a run of `run` seconds: on a straight road
/// across the listener's diagonal walk, passing `OFFSET` m from where the
/// listener is at the middle of the run, at [`SPEED`].
pub fn at(seconds: f64, run: f64) -> [f32; 2] {
    let middle = listener_at(0.5);
    let road = [
        std::f32::consts::FRAC_1_SQRT_2,
        -std::f32::consts::FRAC_1_SQRT_2,
    ];
    let side = [
        std::f32::consts::FRAC_1_SQRT_2,
        std::f32::consts::FRAC_1_SQRT_2,
    ];
    let along = SPEED * (seconds - run / 2.0) as f32;
    [0, 1].map(|i| middle[i] + OFFSET * side[i] + along * road[i])
}

/// The car's and the listener's map positions, one pair per frame.
pub type Track = Vec<([f32; 2], [f32; 2])>;

/// A pitch over time: `(seconds, Hz)` points.
pub type Curve = Vec<(f64, f64)>;

/// A map position in the world: `(x, 0, z)`.
fn world(at: [f32; 2]) -> [f32; 3] {
    [at[0], 0.0, at[1]]
}

/// The car's pitch along `track`: measured in a render of the car alone
/// (rising zero crossings over windows of 50 ms, where the car is heard),
/// and what the doppler formula gives for the same positions (their
/// velocities from frame to frame). `(seconds, Hz)` each.
pub fn pitch(track: &Track) -> (Curve, Curve) {
    let Ok(mut manager) = AudioManager::<OfflineBackend>::new(AudioManagerSettings {
        backend_settings: OfflineSettings { sample_rate: RATE },
        ..Default::default()
    }) else {
        return (Vec::new(), Vec::new());
    };
    let settings = SoundEffectsSettings {
        limiter: None,
        ..Default::default()
    };
    let (Ok(mut sfx), dt) = (SoundEffects::new(&mut manager, settings), 1.0 / FPS as f64) else {
        return (Vec::new(), Vec::new());
    };
    let mut samples = Vec::new();
    let mut expected = Vec::new();
    let mut voice = None;
    for (frame, &(car, listener)) in track.iter().enumerate() {
        let _ = sfx.listener().set_position(world(listener));
        match voice {
            None => {
                let Ok(sound) = add(&mut sfx) else { break };
                voice = sfx
                    .play(sound, PlayParams::default().position(world(car)))
                    .ok();
            }
            Some(voice) => {
                let _ = sfx.voice(voice).set_position(world(car));
            }
        }
        if let Some(&(car_was, listener_was)) = frame.checked_sub(1).and_then(|f| track.get(f)) {
            let velocity = |now: [f32; 2], was: [f32; 2]| {
                world([0, 1].map(|i| ((now[i] - was[i]) as f64 / dt) as f32))
            };
            let factor = doppler_factor(
                (world(car), velocity(car, car_was)),
                (world(listener), velocity(listener, listener_was)),
                1.0,
                f64::from(pool_audio::spatial::SPEED_OF_SOUND),
            );
            expected.push(((frame as f64 + 0.5) * dt, ENGINE_HZ * factor));
        }
        let _ = sfx.update(dt);
        if let Ok(out) = manager.backend_mut().render(dt) {
            samples.extend(out.samples().chunks(2).map(|f| f[0] + f[1]));
        }
    }
    (measured(&samples), expected)
}

/// Rising zero crossings over windows of 50 ms, each placed between its two
/// samples: `(middle of the window, Hz)` where the window is loud enough to
/// count (its peak above 0.002).
fn measured(samples: &[f32]) -> Vec<(f64, f64)> {
    let window = RATE as usize / 20;
    samples
        .chunks_exact(window)
        .enumerate()
        .filter(|(_, w)| w.iter().fold(0.0f32, |m, s| m.max(s.abs())) > 0.002)
        .filter_map(|(k, w)| {
            let crossings: Vec<f64> = w
                .windows(2)
                .enumerate()
                .filter(|(_, p)| p[0] < 0.0 && p[1] >= 0.0)
                .map(|(i, p)| i as f64 + f64::from(p[0] / (p[0] - p[1])))
                .collect();
            let span = crossings.last()? - crossings.first()?;
            (crossings.len() > 2).then(|| {
                let seconds = (k as f64 + 0.5) * window as f64 / f64::from(RATE);
                (
                    seconds,
                    (crossings.len() - 1) as f64 / span * f64::from(RATE),
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cars_measured_pitch_follows_the_doppler_formula() {
        let run = 10.0;
        let frames = (run * FPS as f64) as usize;
        let track: Track = (0..frames)
            .map(|f| {
                let seconds = f as f64 / FPS as f64;
                (at(seconds, run), listener_at(f as f32 / frames as f32))
            })
            .collect();
        let (measured, expected) = pitch(&track);
        assert!(
            measured.len() > 100,
            "heard most of the run: {}",
            measured.len()
        );
        let highest = measured.iter().fold(0.0f64, |m, p| m.max(p.1));
        let lowest = measured.iter().fold(f64::MAX, |m, p| m.min(p.1));
        assert!(
            highest > ENGINE_HZ * 1.1 && lowest < ENGINE_HZ * 0.92,
            "{lowest} to {highest} Hz"
        );
        // Away from the pass (where the pitch moves within a window), every
        // window is within 1% of the formula at its middle; but the first
        // tenth of a second, before the first update has derived a velocity.
        let mut compared = 0;
        for &(t, hz) in &measured {
            if (t - run / 2.0).abs() < 0.5 || t < 0.1 {
                continue;
            }
            let near = expected
                .iter()
                .min_by(|a, b| (a.0 - t).abs().total_cmp(&(b.0 - t).abs()))
                .unwrap();
            assert!(
                (hz / near.1 - 1.0).abs() < 0.01,
                "at {t} s: {hz} Hz, {} expected",
                near.1
            );
            compared += 1;
        }
        assert!(compared > 80);
    }
}

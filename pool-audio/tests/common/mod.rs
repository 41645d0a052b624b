//! Helpers shared by the integration tests.

use std::sync::Arc;

use kira::Frame;
use kira::sound::static_sound::StaticSoundData;

/// The offline sample rate the tests render at.
pub(crate) const RATE: u32 = 48_000;

/// A full-scale sine of `frequency` Hz lasting `seconds`.
pub(crate) fn sine(frequency: f32, seconds: f32) -> StaticSoundData {
    let frames: Arc<[Frame]> = (0..(seconds * RATE as f32) as usize)
        .map(|i| {
            let s = (i as f32 / RATE as f32 * frequency * std::f32::consts::TAU).sin();
            Frame { left: s, right: s }
        })
        .collect();
    StaticSoundData {
        sample_rate: RATE,
        frames,
        settings: Default::default(),
        slice: None,
    }
}

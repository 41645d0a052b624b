//! Spatial cues, measured: the voice bank's mixing of 32 positioned voices
//! with doppler and a low-pass active (`bank_render_32_cues`, against
//! `bank_render_32_positioned`).

use std::hint::black_box;

use kira::AudioManager;
use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, VoiceHandle};

use crate::Workload;
use crate::audio_cases::{SECOND, looping_tone, manager, settle, spiral, torch_settings};

/// One second of audio from the voice bank with the 32 positioned voices of
/// `bank_render_32_positioned`, each with doppler (a velocity of its own, the
/// listener moving too) and half occluded (its low-pass on). Each cycle gives
/// the listener another velocity and every voice another occlusion, so every
/// voice's rate and filter coefficient glide at the start of each second, as
/// in a game where things move. No limiter.
pub struct CuesRender {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    voices: Vec<VoiceHandle>,
    cycles: u64,
    buffer: Vec<f32>,
}

impl CuesRender {
    /// The 32 voices playing, with their cues.
    pub fn new() -> Self {
        let mut manager = manager();
        let settings = SoundEffectsSettings {
            voice_cap: 32,
            limiter: None,
            ..Default::default()
        };
        let mut sfx = SoundEffects::new(&mut manager, settings).expect("valid settings");
        let torch = sfx
            .add_sound(
                "torch",
                looping_tone(),
                torch_settings(32).doppler_scale(1.0),
            )
            .expect("valid sound");
        let voices = spiral(300)
            .take(32)
            .enumerate()
            .map(|(i, position)| {
                let params = PlayParams::default()
                    .position(position)
                    .velocity([(i % 7) as f32 * 4.0 - 12.0, 0.0, 10.0])
                    .occlusion(0.5);
                sfx.play(torch, params).expect("a voice")
            })
            .collect();
        sfx.listener()
            .set_velocity([3.0, 0.0, -2.0])
            .expect("room in the queue");
        settle(&mut manager, &mut sfx);
        Self {
            manager,
            sfx,
            voices,
            cycles: 0,
            buffer: vec![0.0; 2 * SECOND],
        }
    }

    /// Real voices, and the cues they play with (for the tests).
    pub fn real_voices(&self) -> usize {
        self.sfx.stats().real_voices
    }

    /// The last second rendered, interleaved stereo.
    pub fn rendered(&self) -> &[f32] {
        &self.buffer
    }
}

impl Default for CuesRender {
    fn default() -> Self {
        Self::new()
    }
}

impl Workload for CuesRender {
    fn cycle(&mut self) {
        self.cycles += 1;
        let odd = self.cycles % 2 == 1;
        let _ = self
            .sfx
            .listener()
            .set_velocity([if odd { 5.0 } else { 3.0 }, 0.0, -2.0]);
        for voice in &self.voices {
            let _ = self
                .sfx
                .voice(*voice)
                .set_occlusion(if odd { 0.7 } else { 0.5 });
        }
        let _ = self.manager.backend_mut().render_into(&mut self.buffer);
        black_box(&self.buffer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::VoicesRender;

    #[test]
    fn the_cues_render_has_32_real_voices_heard_lower_than_without_cues() {
        let mut case = CuesRender::new();
        case.cycle();
        case.cycle();
        assert_eq!(case.real_voices(), 32);
        let peak = |samples: &[f32]| samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
        let mut plain = VoicesRender::new(32, true);
        plain.cycle();
        let (cued, plain) = (peak(case.rendered()), peak(plain.rendered()));
        // Occlusion 0.5 takes 7.5 dB and a low-pass off.
        assert!(cued > 0.01 && cued < plain * 0.5, "{cued} against {plain}");
    }
}

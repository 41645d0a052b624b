//! `audio_voice_table`: one read of the voice table (`SoundEffects::voices`)
//! over 300 positioned looping voices, 32 of them real (the showcase's
//! level): what a debug view pays each frame.

use std::hint::black_box;

use kira::AudioManager;
use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings};

use crate::Workload;
use crate::audio_cases::{manager, settle, spiral, tone, torch_settings};

/// The voice table of 300 voices.
pub struct VoiceTable {
    _manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
}

impl VoiceTable {
    /// Voices in the table.
    pub const VOICES: usize = 300;

    /// 300 torches on a spiral, 32 real.
    pub fn new() -> Self {
        let mut manager = manager();
        let settings = SoundEffectsSettings {
            voice_cap: 32,
            ..Default::default()
        };
        let mut sfx = SoundEffects::new(&mut manager, settings).expect("valid settings");
        let torch = sfx
            .add_sound("torch", tone().loop_region(..), torch_settings(32))
            .expect("valid sound");
        for position in spiral(Self::VOICES) {
            sfx.play(torch, PlayParams::default().position(position))
                .expect("a virtualizing play is never refused");
        }
        settle(&mut manager, &mut sfx);
        Self {
            _manager: manager,
            sfx,
        }
    }
}

impl Default for VoiceTable {
    fn default() -> Self {
        Self::new()
    }
}

impl Workload for VoiceTable {
    fn cycle(&mut self) {
        let mut loudest = f32::MIN;
        for voice in self.sfx.voices() {
            loudest = loudest.max(voice.level[0].0.max(voice.level[1].0));
        }
        black_box(loudest);
    }
}

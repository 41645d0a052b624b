//! `audio_voice_table`: one read of the voice table (`SoundEffects::voices`)
//! over 300 positioned looping voices, 32 of them real (the showcase's
//! level): what a debug view pays each frame. `audio_frame` and
//! `audio_frame_capture`: a game frame of that level's manager (the listener
//! moves, a shot plays, the update), without and with a capture recording.

use std::hint::black_box;

use kira::AudioManager;
use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings};

use crate::audio_cases::{manager, settle, spiral, tone, torch_settings};
use crate::{Sample, Workload};

/// The voice table of 300 voices.
pub struct VoiceTableRead {
    _manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
}

impl VoiceTableRead {
    /// Voices in the table.
    pub const VOICES: usize = 300;

    /// 300 torches on a spiral, 32 real.
    pub fn new() -> Self {
        let (manager, sfx) = torches(|_| {});
        Self {
            _manager: manager,
            sfx,
        }
    }
}

/// The level both cases read: 300 torches on a spiral under a voice cap of
/// 32, settled; `before_plays` runs on the manager before the torches play.
fn torches(
    before_plays: impl FnOnce(&mut SoundEffects),
) -> (AudioManager<OfflineBackend>, SoundEffects) {
    let mut manager = manager();
    let settings = SoundEffectsSettings {
        voice_cap: 32,
        ..Default::default()
    };
    let mut sfx = SoundEffects::new(&mut manager, settings).expect("valid settings");
    let torch = sfx
        .add_sound(
            "torch",
            crate::audio_cases::looping_tone(),
            torch_settings(32),
        )
        .expect("valid sound");
    before_plays(&mut sfx);
    for position in spiral(VoiceTableRead::VOICES) {
        sfx.play(torch, PlayParams::default().position(position))
            .expect("a virtualizing play is never refused");
    }
    settle(&mut manager, &mut sfx);
    (manager, sfx)
}

impl Default for VoiceTableRead {
    fn default() -> Self {
        Self::new()
    }
}

impl Workload for VoiceTableRead {
    fn cycle(&mut self) {
        let mut loudest = f32::MIN;
        for voice in self.sfx.voices() {
            loudest = loudest.max(voice.level[0].0.max(voice.level[1].0));
        }
        black_box(loudest);
    }
}

/// A frame of the level's manager: 300 torches on a spiral (32 real), the
/// listener walking a circle, a shot at a new place each frame, the update;
/// with a capture recording every call and decision, or not. The frame's
/// audio is rendered between batches, untimed; a capture is started afresh
/// before each batch (its buffer made then, untimed).
pub struct AudioFrame {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    shot: pool_audio::SoundId,
    capture: bool,
    frame: u32,
}

impl AudioFrame {
    /// Events a capture has room for: a batch's, with room to spare.
    const EVENTS: usize = 4_096;

    /// The level, its capture on if `capture`.
    pub fn new(capture: bool) -> Self {
        let mut shot = None;
        let (manager, sfx) = torches(|sfx| {
            let settings = pool_audio::SoundSettings::default().max_voices(4);
            shot = Some(
                sfx.add_sound("shot", tone(), settings)
                    .expect("valid sound"),
            );
            if capture {
                sfx.start_capture(Self::EVENTS);
            }
        });
        let shot = shot.expect("added");
        Self {
            manager,
            sfx,
            shot,
            capture,
            frame: 0,
        }
    }

    /// Emitters in the level.
    pub const VOICES: usize = 300;

    fn flush(&mut self) {
        let _ = self.manager.backend_mut().render(1.0 / 60.0);
        if self.capture {
            black_box(self.sfx.stop_capture());
            self.sfx.start_capture(Self::EVENTS);
        }
    }
}

impl Workload for AudioFrame {
    fn cycle(&mut self) {
        self.frame = self.frame.wrapping_add(1);
        let angle = self.frame as f32 * 0.01;
        let listener = [30.0 * angle.cos(), 0.0, 30.0 * angle.sin()];
        let _ = self.sfx.listener().set_position(listener);
        let at = [listener[0] + 3.0 * angle.sin(), 0.0, listener[2]];
        let _ = black_box(self.sfx.play(self.shot, PlayParams::default().position(at)));
        let _ = self.sfx.update(1.0 / 60.0);
    }

    fn sampled_run(&mut self, cycles: u64) -> Sample {
        crate::audio_cases::batched(self, cycles, Self::flush)
    }
}

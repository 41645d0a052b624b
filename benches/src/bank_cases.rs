//! Sound banks: a bank of 200 sounds (its recordings already decoded, in a
//! `MemoryLoader`) read from its text and added to a fresh manager
//! (`bank_add_200`: parsing, the rehearsal on a scratch manager, then the
//! adds), beside the same 200 sounds added in code to a fresh manager
//! (`bank_code_200`). A cycle is one whole load, the manager's creation
//! included in both.

use std::fmt::Write;

use kira::{AudioManager, AudioManagerSettings};
use pool_audio::data::SoundBank;
use pool_audio::loader::MemoryLoader;
use pool_audio::{
    GroupSettings, OfflineBackend, SoundEffects, SoundEffectsSettings, SoundSettings,
};

use crate::Workload;

/// Sounds in the bank.
pub const BANK_SOUNDS: usize = 200;

/// The bank's text: four groups, and 200 sounds of one to three recordings
/// with varied settings.
fn bank_text() -> String {
    bank_text_with(0.0)
}

/// The bank's text with every tenth sound's first volume `lift` dB higher.
fn bank_text_with(lift: f32) -> String {
    let mut text = String::from("(\n    groups: {\n");
    for g in 0..4 {
        let _ = writeln!(text, "        \"group {g}\": (max_voices: {}),", 8 + 4 * g);
    }
    text.push_str("    },\n    sounds: {\n");
    for s in 0..BANK_SOUNDS {
        let recordings = (0..1 + s % 3)
            .map(|r| format!("\"take {}\"", (s + r) % 16))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(
            text,
            "        \"sound {s}\": (recordings: [{recordings}], max_voices: {}, first_volume: {:.1}, pitch_semitones: (-1.0, 1.0), group: \"group {}\"),",
            2 + s % 6,
            -(8.0 + (s % 5) as f32) + if s % 10 == 0 { lift } else { 0.0 },
            s % 4
        );
    }
    text.push_str("    },\n)\n");
    text
}

/// Sixteen takes of 0.1 s (short sines), decoded.
fn takes() -> MemoryLoader {
    let mut loader = MemoryLoader::new();
    for t in 0..16 {
        let frequency = 200.0 + 50.0 * t as f32;
        let frames: std::sync::Arc<[kira::Frame]> = (0..4_800)
            .map(|i| {
                let phase = i as f32 / 48_000.0 * frequency * std::f32::consts::TAU;
                kira::Frame::from_mono(0.5 * phase.sin())
            })
            .collect();
        let data = kira::sound::static_sound::StaticSoundData {
            sample_rate: 48_000,
            frames,
            settings: Default::default(),
            slice: None,
        };
        loader.insert_sound(format!("take {t}"), data);
    }
    loader
}

/// A fresh manager and its sound effects.
fn fresh() -> (AudioManager<OfflineBackend>, SoundEffects) {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())
        .expect("the offline backend starts");
    let sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())
        .expect("default settings are valid");
    (manager, sfx)
}

/// `bank_add_200` (`bank: true`) or `bank_code_200`.
pub struct BankLoad {
    text: String,
    loader: MemoryLoader,
    bank: bool,
}

impl BankLoad {
    /// The load of the 200-sound bank from its text, or of the same sounds
    /// in code.
    pub fn new(bank: bool) -> Self {
        Self {
            text: bank_text(),
            loader: takes(),
            bank,
        }
    }

    /// The same sounds in code.
    fn in_code(&mut self, sfx: &mut SoundEffects) {
        let groups: Vec<_> = (0..4)
            .map(|g| {
                let settings = GroupSettings::default().max_voices(8 + 4 * g);
                sfx.add_group(&format!("group {g}"), settings)
                    .expect("a new group")
            })
            .collect();
        for s in 0..BANK_SOUNDS {
            let recordings: pool_audio::sound::Recordings = (0..1 + s % 3)
                .map(|r| {
                    self.loader
                        .load(&format!("take {}", (s + r) % 16))
                        .expect("a take")
                })
                .collect();
            let settings = SoundSettings::default()
                .max_voices(2 + s % 6)
                .first_volume(-(8.0 + (s % 5) as f32))
                .pitch_semitones(-1.0, 1.0)
                .group(groups[s % 4]);
            sfx.add_sound(&format!("sound {s}"), recordings, settings)
                .expect("a new sound");
        }
    }
}

impl Workload for BankLoad {
    fn cycle(&mut self) {
        let (_manager, mut sfx) = fresh();
        if self.bank {
            let bank = SoundBank::from_ron("bench.ron", &self.text).expect("the bank reads");
            sfx.add_bank(&bank, &mut self.loader, None)
                .expect("the bank adds");
        } else {
            self.in_code(&mut sfx);
        }
        assert!(sfx.sound("sound 199").is_some());
    }
}

/// `bank_reload_20`: the 200-sound bank reloaded with 20 of its sounds
/// changed (every tenth sound's first volume, up 2 dB and back, one copy of
/// each playing), then an update and a short block of the mixer, which lets
/// the replaced recordings go.
pub struct BankReload {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    texts: [SoundBank; 2],
    loader: MemoryLoader,
    next: usize,
    block: Vec<f32>,
}

impl BankReload {
    /// The bank added to a fresh manager, a voice of every changed sound
    /// playing.
    pub fn new() -> Self {
        let (manager, mut sfx) = fresh();
        let mut loader = takes();
        let read =
            |lift| SoundBank::from_ron("bench.ron", &bank_text_with(lift)).expect("the bank reads");
        let texts = [read(0.0), read(2.0)];
        sfx.add_bank(&texts[0], &mut loader, None)
            .expect("the bank adds");
        for s in (0..BANK_SOUNDS).step_by(10) {
            let sound = sfx.sound(&format!("sound {s}")).expect("a sound");
            sfx.play(sound, pool_audio::PlayParams::default())
                .expect("a play");
        }
        Self {
            manager,
            sfx,
            texts,
            loader,
            next: 1,
            block: vec![0.0; 2 * 128],
        }
    }
}

impl Default for BankReload {
    fn default() -> Self {
        Self::new()
    }
}

impl Workload for BankReload {
    fn cycle(&mut self) {
        let fade = pool_audio::linear_fade(std::time::Duration::from_millis(50));
        let reloaded = (self.sfx)
            .reload_bank(&self.texts[self.next], &mut self.loader, None, fade)
            .expect("the bank reloads");
        assert_eq!(reloaded.changed, BANK_SOUNDS / 10);
        self.next = 1 - self.next;
        self.sfx.update(1.0 / 60.0).expect("an update");
        self.manager.backend_mut().render_into(&mut self.block);
    }
}

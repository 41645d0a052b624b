//! The mix that makes room, measured: the voice bank's mixing with ducks,
//! snapshots and the loudness window all on (`bank_render_32_mixed`, against
//! `bank_render_32`), and the per-frame update with the window on
//! (`audio_update_window`, against `audio_update`).

use std::hint::black_box;
use std::time::Duration;

use kira::AudioManager;
use pool_audio::{
    GroupSettings, OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings,
    linear_fade, mix::DuckSettings, mix::LoudnessWindow, mix::MixTarget, mix::Snapshot,
    mix::SnapshotId, mix::SnapshotMode,
};

use crate::Workload;
use crate::audio_cases::{SECOND, VOICE_CAP, manager, settle, tone, torch_settings};

/// One second of audio from the voice bank with 32 real looping voices in four
/// groups of 8, every group in the loudness window, three ducks on (each group
/// ducks the next while its voices sound) and two snapshots applied, one
/// overriding and one blending; each cycle re-applies the overriding one with a
/// one-second tween, so a group's gain is always moving. No limiter, as in
/// `bank_render_32`. Its plain twin (`bank_render_32_groups`) has the same
/// voices in the same groups and no mix: the two side by side isolate what the
/// mix costs.
pub struct MixedRender {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    storm: Option<SnapshotId>,
    cycles: u64,
    buffer: Vec<f32>,
}

impl MixedRender {
    /// The voices started, and with `mixed` the ducks on and the snapshots
    /// applied.
    pub fn new(mixed: bool) -> Self {
        let mut manager = manager();
        let settings = SoundEffectsSettings {
            voice_cap: 32,
            limiter: None,
            loudness_window: mixed.then(LoudnessWindow::default),
            ..Default::default()
        };
        let mut sfx = SoundEffects::new(&mut manager, settings).expect("valid settings");
        let in_window = GroupSettings::default().loudness_window(mixed);
        let groups: Vec<_> = (0..4)
            .map(|i| sfx.add_group(&format!("g{i}"), in_window).expect("a group"))
            .collect();
        let storm = mixed.then(|| mix(&mut sfx, &groups));
        for (i, group) in groups.iter().enumerate() {
            let settings = torch_settings(8)
                .group(*group)
                .loudness(60.0 + 2.0 * i as f32);
            let torch = sfx
                .add_sound(
                    &format!("torch{i}"),
                    crate::audio_cases::looping_tone(),
                    settings,
                )
                .expect("valid sound");
            for _ in 0..8 {
                sfx.play(torch, PlayParams::default()).expect("a voice");
            }
        }
        settle(&mut manager, &mut sfx);
        Self {
            manager,
            sfx,
            storm,
            cycles: 0,
            buffer: vec![0.0; 2 * SECOND],
        }
    }

    /// Real voices, active ducks and snapshots (for the tests).
    pub fn state(&self) -> (usize, usize, usize) {
        let mix = self.sfx.mix().stats();
        let real = self.sfx.stats().real_voices;
        (real, mix.ducks_active, mix.snapshots_active)
    }

    /// The last second rendered, interleaved stereo.
    pub fn rendered(&self) -> &[f32] {
        &self.buffer
    }
}

/// Three ducks (each group ducks the next) and two snapshots applied on
/// `groups`; returns the overriding snapshot.
fn mix(sfx: &mut SoundEffects, groups: &[pool_audio::GroupId]) -> SnapshotId {
    for pair in groups.windows(2) {
        sfx.mix_mut()
            .add_duck(pair[0], pair[1], DuckSettings::default().amount(-6.0))
            .expect("a duck");
    }
    let storm = Snapshot::new("storm")
        .set(groups[0], -3.0)
        .set(groups[3], -2.0);
    let storm = sfx.mix_mut().add_snapshot(storm).expect("a snapshot");
    let night = Snapshot::new("night")
        .priority(1)
        .mode(SnapshotMode::Blend)
        .set(MixTarget::SoundEffects, -1.0)
        .set(groups[1], -2.0);
    let night = sfx.mix_mut().add_snapshot(night).expect("a snapshot");
    let now = linear_fade(Duration::ZERO);
    sfx.mix_mut()
        .apply_snapshot(storm, 1.0, now)
        .expect("applied");
    sfx.mix_mut()
        .apply_snapshot(night, 0.5, now)
        .expect("applied");
    storm
}

impl Workload for MixedRender {
    fn cycle(&mut self) {
        self.cycles += 1;
        let intensity = if self.cycles.is_multiple_of(2) {
            1.0
        } else {
            0.5
        };
        let tween = linear_fade(Duration::from_secs(1));
        if let Some(storm) = self.storm {
            let _ = self.sfx.mix_mut().apply_snapshot(storm, intensity, tween);
        }
        let _ = self.manager.backend_mut().render_into(&mut self.buffer);
        black_box(&self.buffer);
    }
}

/// `SoundEffects::update` with 64 voices playing, as `audio_update`, every
/// voice in the loudness window (loudness from 70 to 101.5 dB, all inside its
/// 40 dB): each is weighed against the window's top, and the top follows the
/// loudest.
pub struct AudioUpdateWindow {
    _manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
}

impl AudioUpdateWindow {
    /// 64 voices playing in the window.
    pub fn new() -> Self {
        let mut manager = manager();
        let settings = SoundEffectsSettings {
            loudness_window: Some(LoudnessWindow::default()),
            ..Default::default()
        };
        let mut sfx = SoundEffects::new(&mut manager, settings).expect("valid settings");
        let world = sfx
            .add_group(
                "world",
                GroupSettings::default()
                    .max_voices(VOICE_CAP)
                    .loudness_window(true),
            )
            .expect("a group");
        let data = tone();
        for i in 0..VOICE_CAP {
            let settings = SoundSettings::default()
                .max_voices(1)
                .group(world)
                .loudness(70.0 + 0.5 * i as f32);
            let id = sfx
                .add_sound(&format!("tone{i}"), data.clone(), settings)
                .expect("valid sound");
            sfx.play(id, PlayParams::default()).expect("a free voice");
        }
        let _ = manager.backend_mut().render(0.01);
        Self {
            _manager: manager,
            sfx,
        }
    }

    /// Real voices and the window's top (for the tests).
    pub fn state(&self) -> (usize, Option<f64>) {
        (
            self.sfx.stats().real_voices,
            self.sfx
                .mix()
                .stats()
                .window_top
                .map(|top| f64::from(top.0)),
        )
    }
}

impl Default for AudioUpdateWindow {
    fn default() -> Self {
        Self::new()
    }
}

impl Workload for AudioUpdateWindow {
    fn cycle(&mut self) {
        let _ = black_box(self.sfx.update(0.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mixed_render_has_its_ducks_snapshots_and_window_on_and_is_heard() {
        let mut case = MixedRender::new(true);
        case.cycle();
        assert_eq!(case.state(), (32, 3, 2));
        let peak = |case: &MixedRender| case.rendered().iter().fold(0.0f32, |m, s| m.max(s.abs()));
        let mixed = peak(&case);
        let mut plain = MixedRender::new(false);
        plain.cycle();
        assert_eq!(plain.state(), (32, 0, 0));
        assert!(
            mixed > 0.01 && mixed < peak(&plain),
            "heard, lower than without the mix: {mixed}"
        );
    }

    #[test]
    fn the_window_update_has_64_real_voices_under_the_loudest_top() {
        let mut case = AudioUpdateWindow::new();
        case.cycle();
        assert_eq!(case.state(), (64, Some(101.5)));
    }
}

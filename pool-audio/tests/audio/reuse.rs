//! A reused voice carries nothing over: every slot of a full voice bank plays
//! a fully occluded, far, doppler-shifted voice first; each is then reused
//! for a near (or unpositioned), clear, still one, whose first block matches a fresh manager's
//! first block of the same plays within 1e-6, sample by sample.

use kira::{AudioManager, AudioManagerSettings, Tween};
use pool_audio::{
    OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundId, SoundSettings,
};

use crate::common::{self, BLOCK};

/// The voice cap: the bank holds twice as many slots.
const CAP: usize = 8;

struct Scene {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    sound: SoundId,
}

impl Scene {
    /// No limiter (its memory would differ between the two managers); one
    /// looping tone with doppler.
    fn new() -> Self {
        let mut manager =
            AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
        let settings = SoundEffectsSettings {
            voice_cap: CAP,
            limiter: None,
            ..Default::default()
        };
        let mut sfx = SoundEffects::new(&mut manager, settings).unwrap();
        let tone = common::sine(997.0, 1.0).loop_region(..);
        let settings = SoundSettings::default()
            .max_voices(CAP)
            .doppler_scale(1.0)
            .audibility_floor(f32::NEG_INFINITY);
        let sound = sfx.add_sound("tone", tone, settings).unwrap();
        Self {
            manager,
            sfx,
            sound,
        }
    }

    /// Updates and renders one block; its samples.
    fn block(&mut self) -> Vec<f32> {
        self.sfx.update(BLOCK).unwrap();
        let out = self.manager.backend_mut().render(BLOCK).unwrap();
        out.samples().to_vec()
    }

    /// `CAP` plays of the tone with `params` for copy `i`.
    fn play_all(&mut self, params: impl Fn(usize) -> PlayParams) {
        for i in 0..CAP {
            self.sfx.play(self.sound, params(i)).unwrap();
        }
    }

    /// `CAP` near, clear, still plays, rendered a block; then stopped at
    /// once and `CAP` more, on the other slots, rendered a block.
    fn clean_rounds(&mut self) -> [Vec<f32>; 2] {
        // Half of them positioned near, half not positioned at all.
        let clean = |i: usize| match i % 2 {
            0 => PlayParams::default().position([i as f32 - 4.0, 0.0, -2.0]),
            _ => PlayParams::default(),
        };
        self.play_all(clean);
        let first = self.block();
        self.sfx.stop_all(Tween::default()).unwrap();
        self.play_all(clean);
        let second = self.block();
        [first, second]
    }
}

/// Far (80 m), fully occluded and obstructed, approaching at 60 m/s.
fn dirty(i: usize) -> PlayParams {
    PlayParams::default()
        .position([i as f32, 0.0, -80.0])
        .velocity([0.0, 0.0, 60.0])
        .occlusion(1.0)
        .obstruction(1.0)
        .playback_rate(1.5)
        .panning(0.7)
        .volume(-10.4576)
}

#[test]
fn every_slot_reused_after_an_occluded_far_doppler_shifted_voice_starts_as_a_fresh_one() {
    let mut used = Scene::new();
    // Every slot: CAP dirty voices, stopped (fading on their slots) while
    // CAP more take the other slots; then all of them played out.
    used.play_all(dirty);
    for _ in 0..30 {
        used.block();
    }
    used.sfx.stop_all(Tween::default()).unwrap();
    used.play_all(dirty);
    for _ in 0..30 {
        used.block();
    }
    used.sfx.stop_all(Tween::default()).unwrap();
    for _ in 0..10 {
        used.block();
    }
    assert_eq!(used.sfx.stats().real_voices, 0);
    // The render is silent again: nothing left ringing.
    assert!(used.block().iter().all(|s| *s == 0.0));

    let reused = used.clean_rounds();
    let mut fresh = Scene::new();
    let expected = fresh.clean_rounds();
    for (round, (reused, expected)) in reused.iter().zip(&expected).enumerate() {
        assert!(
            expected.iter().any(|s| s.abs() > 0.01),
            "the clean plays are heard"
        );
        for (i, (a, b)) in reused.iter().zip(expected).enumerate() {
            assert!(
                (a - b).abs() <= 1e-6,
                "round {round}, sample {i}: {a} reused, {b} fresh"
            );
        }
    }
}

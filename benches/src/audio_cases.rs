//! The audio cases: the game-thread cost of `SoundEffects::play` (free voice,
//! voice-cap steal) beside a raw kira `play` on a track of the same capacity, and
//! `update` with 64 active voices. Rendering (the audio thread's work) is not
//! timed: kira frees a sound's slot only when the renderer has processed it, so the
//! play cases flush every batch (stop, render 1 ms, update) outside the timed span.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kira::sound::static_sound::{StaticSoundData, StaticSoundHandle};
use kira::track::{TrackBuilder, TrackHandle};
use kira::{AudioManager, AudioManagerSettings, Frame, Tween};
use pool_audio::{
    OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundId, SoundSettings,
};

use crate::Workload;

const VOICE_CAP: usize = 64;

fn manager() -> AudioManager<OfflineBackend> {
    AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())
        .expect("the offline backend needs no device")
}

/// Two seconds of a quiet tone: long enough that no voice ends by itself.
fn tone() -> StaticSoundData {
    let frames: Arc<[Frame]> = (0..96_000)
        .map(|i| {
            let s = 0.1 * (i as f32 * 0.0576).sin();
            Frame { left: s, right: s }
        })
        .collect();
    StaticSoundData {
        sample_rate: 48_000,
        frames,
        settings: Default::default(),
        slice: None,
    }
}

/// Runs `cycles` cycles in batches of [`AudioPlay::BATCH`], calling `flush` before
/// each batch, and returns the time spent in the batches alone.
fn batched<W: Workload>(case: &mut W, cycles: u64, flush: fn(&mut W)) -> Duration {
    let mut timed = Duration::ZERO;
    let mut left = cycles;
    while left > 0 {
        let batch = left.min(AudioPlay::BATCH);
        flush(case);
        let start = Instant::now();
        for _ in 0..batch {
            case.cycle();
        }
        timed += start.elapsed();
        left -= batch;
    }
    timed
}

/// `SoundEffects::play` on a free voice (`steal: false`), or with every voice busy
/// so that each play steals the oldest (`steal: true`).
pub struct AudioPlay {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    sounds: Vec<SoundId>,
    steal: bool,
    next: usize,
}

impl AudioPlay {
    /// A manager with a 64-voice cap and 64 sounds of 1 copy each (so a play never
    /// recycles a copy of its own sound).
    pub fn new(steal: bool) -> Self {
        let mut manager = manager();
        let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())
            .expect("valid settings");
        let data = tone();
        let sounds = (0..VOICE_CAP * 2)
            .map(|i| {
                sfx.add_sound(
                    &format!("tone{i}"),
                    data.clone(),
                    SoundSettings::default().max_voices(1),
                )
                .expect("valid sound")
            })
            .collect();
        let mut this = Self {
            manager,
            sfx,
            sounds,
            steal,
            next: 0,
        };
        this.flush();
        this
    }

    /// Untimed: frees every kira slot, then (for the steal case) fills the cap.
    fn flush(&mut self) {
        // Stolen voices fade for 10 ms, and a stopped sound leaves kira one
        // processing pass after it stops: render past the fade, update, render one
        // more pass, update, and every slot is free.
        self.sfx.stop_all(Duration::ZERO);
        for seconds in [0.012, 0.001] {
            let _ = self.manager.backend_mut().render(seconds);
            let _ = self.sfx.update(seconds);
        }
        if self.steal {
            for i in 0..VOICE_CAP {
                let _ = self
                    .sfx
                    .play(self.sounds[VOICE_CAP + i], PlayParams::default());
            }
        }
    }

    /// Plays per flush: a free voice each (32 of 64), or one steal each (each
    /// stolen voice fades in kira until the next flush; 32 fit beside 64 voices).
    const BATCH: u64 = 32;
}

impl Workload for AudioPlay {
    fn cycle(&mut self) {
        let _ = black_box(self.sfx.play(self.sounds[self.next], PlayParams::default()));
        self.next = (self.next + 1) % VOICE_CAP;
    }

    fn timed_run(&mut self, cycles: u64) -> Duration {
        batched(self, cycles, Self::flush)
    }
}

/// Baseline: a raw kira `play` on a sub-track with the manager's capacity.
pub struct KiraPlay {
    manager: AudioManager<OfflineBackend>,
    track: TrackHandle,
    data: StaticSoundData,
    handles: Vec<StaticSoundHandle>,
}

impl KiraPlay {
    /// A sub-track with room for 128 sounds.
    pub fn new() -> Self {
        let mut manager = manager();
        let track = manager
            .add_sub_track(TrackBuilder::new().sound_capacity(VOICE_CAP * 2))
            .expect("room for a track");
        Self {
            manager,
            track,
            data: tone(),
            handles: Vec::with_capacity(VOICE_CAP),
        }
    }

    fn flush(&mut self) {
        for mut handle in self.handles.drain(..) {
            handle.stop(Tween {
                duration: Duration::ZERO,
                ..Default::default()
            });
        }
        let _ = self.manager.backend_mut().render(0.001);
        let _ = self.manager.backend_mut().render(0.001);
    }
}

impl Default for KiraPlay {
    fn default() -> Self {
        Self::new()
    }
}

impl Workload for KiraPlay {
    fn cycle(&mut self) {
        if let Ok(handle) = self.track.play(self.data.clone()) {
            self.handles.push(handle);
        }
    }

    fn timed_run(&mut self, cycles: u64) -> Duration {
        batched(self, cycles, Self::flush)
    }
}

/// `SoundEffects::update` with 64 active voices, none ending.
pub struct AudioUpdate {
    _manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
}

impl AudioUpdate {
    /// 64 voices playing.
    pub fn new() -> Self {
        let mut manager = manager();
        let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())
            .expect("valid settings");
        let data = tone();
        for i in 0..VOICE_CAP {
            let id = sfx
                .add_sound(
                    &format!("tone{i}"),
                    data.clone(),
                    SoundSettings::default().max_voices(1),
                )
                .expect("valid sound");
            sfx.play(id, PlayParams::default()).expect("a free voice");
        }
        let _ = manager.backend_mut().render(0.01);
        Self {
            _manager: manager,
            sfx,
        }
    }

    /// Active voices (for the tests).
    pub fn active(&self) -> usize {
        self.sfx.stats().active_voices
    }
}

impl Default for AudioUpdate {
    fn default() -> Self {
        Self::new()
    }
}

impl Workload for AudioUpdate {
    fn cycle(&mut self) {
        let _ = black_box(self.sfx.update(0.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_play_cases_never_run_out_of_voices_or_kira_room() {
        for steal in [false, true] {
            let mut case = AudioPlay::new(steal);
            case.timed_run(500);
            let stats = case.sfx.stats();
            assert_eq!(stats.refused_voice_cap, 0, "steal={steal}: {stats:?}");
            if steal {
                assert!(stats.stolen_voices >= 500, "{stats:?}");
            }
        }
        let mut kira = KiraPlay::new();
        kira.timed_run(500);
    }

    #[test]
    fn the_update_case_keeps_64_voices() {
        let mut case = AudioUpdate::new();
        case.run(100);
        assert_eq!(case.active(), 64);
    }
}

//! Ends known at the sample: the loudness window's fall and a duck's hold
//! start from the audio end of the voice that ended them, as the voice bank
//! reports it, not from the update that learns of the end (up to a game frame
//! later). Measured in the render for an end on a block boundary and one in
//! the middle of a block: the fall's line and the release's start, worked
//! back from the level heard, lie within one 16-frame gain step of the last
//! sample of the voice that ended.
//!
//! Constant (DC) sounds make every sample a gain: what is measured (hard
//! left) is a loop, what ends (hard right) is a one-shot at a level of its
//! own. The game updates every 10 ms, before each block the mixer renders.

use std::time::Duration;

use kira::{AudioManager, AudioManagerSettings};
use pool_audio::{
    GroupSettings, OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundId,
    SoundSettings, dsp::LimiterSettings, mix::DuckSettings, mix::LoudnessWindow,
};

use crate::common::{self, BLOCK};

const RATE: f64 = common::RATE as f64;
/// One gain step of the voice bank, in seconds.
const STEP: f64 = 16.0 / RATE;

struct Scene {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    left: Vec<f32>,
    right: Vec<f32>,
    /// The window's top after each update.
    tops: Vec<f64>,
}

impl Scene {
    fn new(settings: SoundEffectsSettings) -> Self {
        let mut manager =
            AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
        let sfx = SoundEffects::new(&mut manager, settings).unwrap();
        Self {
            manager,
            sfx,
            left: Vec::new(),
            right: Vec::new(),
            tops: Vec::new(),
        }
    }

    fn play(&mut self, sound: SoundId, panning: f32) {
        let params = PlayParams::default().panning(panning);
        self.sfx.play(sound, params).unwrap();
    }

    fn run(&mut self, seconds: f64) {
        for _ in 0..(seconds / BLOCK).round() as usize {
            self.sfx.update(BLOCK).unwrap();
            self.tops.push(
                self.sfx
                    .mix()
                    .stats()
                    .window_top
                    .map_or(0.0, |d| f64::from(d.0)),
            );
            let out = self.manager.backend_mut().render(BLOCK).unwrap();
            for frame in out.samples().chunks(2) {
                self.left.push(frame[0]);
                self.right.push(frame[1]);
            }
        }
    }

    /// The last sample (in seconds) at which the right channel sounds.
    fn end_of_right(&self) -> f64 {
        let last = self.right.iter().rposition(|s| s.abs() > 1e-6).unwrap();
        (last + 1) as f64 / RATE
    }

    /// The left channel at `t` seconds against its level at `reference`, dB.
    fn left_db(&self, t: f64, reference: f64) -> f64 {
        let at = |t: f64| f64::from(self.left[(t * RATE) as usize]);
        20.0 * (at(t) / at(reference)).log10()
    }
}

/// A grenade `length` seconds long, played at 0.2 s, 20 dB louder than the
/// footsteps looping under it in the window (release 1 s): when its end is
/// heard, and where the footsteps' rise back says the fall started, at every
/// millisecond of it once the mixer has joined it.
fn window_fall(length: f64) -> (f64, Vec<f64>, Vec<f64>) {
    let window = LoudnessWindow::default()
        .height(40.0)
        .release(Duration::from_secs(1));
    let mut scene = Scene::new(SoundEffectsSettings {
        loudness_window: Some(window),
        ..Default::default()
    });
    let world = scene
        .sfx
        .add_group("world", GroupSettings::default().loudness_window(true))
        .unwrap();
    let in_world = |db| SoundSettings::default().group(world).loudness(db);
    let step = common::constant(0.25, 0.1).loop_region(..);
    let step = scene.sfx.add_sound("step", step, in_world(60.0)).unwrap();
    let grenade = common::constant(0.25, length);
    let grenade = scene
        .sfx
        .add_sound("grenade", grenade, in_world(80.0))
        .unwrap();
    scene.play(step, -1.0);
    scene.run(0.2);
    scene.play(grenade, 1.0);
    scene.run(1.6);
    let end = scene.end_of_right();
    // The footsteps' level says how far into the 20 dB fall the top is, so
    // when it started: t - (20 + level) / 20 x 1 s.
    let reference = 0.15;
    let starts = (0..900)
        .map(|ms| {
            let t = end + 0.025 + ms as f64 / 1000.0;
            t - (20.0 + scene.left_db(t, reference)) / 20.0
        })
        .collect();
    (end, starts, scene.tops)
}

#[test]
fn the_window_falls_from_the_sample_its_top_ended_on() {
    // 0.3 s ends on a block's boundary (0.5 s), 0.3053 s in a block.
    for length in [0.3, 0.3053] {
        let (end, starts, tops) = window_fall(length);
        for (ms, start) in starts.iter().enumerate() {
            let off = (start - end) / STEP;
            assert!(
                (-0.0625..=1.0625).contains(&off),
                "{length} s: {ms} ms into the fall it started {off:.2} steps from the end"
            );
        }
        // The top the stats give is on the fall's line from the first update
        // that learns of the end: under 80 dB there, not one update later.
        // (The render is heard through the limiter's look-ahead; the game's
        // clock is the mixer's.)
        let lookahead = LimiterSettings::default().lookahead.as_secs_f64();
        let end = end - lookahead;
        let learned = (end / BLOCK).ceil() as usize;
        let top = tops[learned];
        let line = 80.0 - 20.0 * (learned as f64 * BLOCK - end);
        assert!(
            (top - line).abs() < 20.0 * STEP,
            "{length} s: top {top}, line {line}"
        );
    }
}

/// Dialogue `length` seconds long, played at 0.2 s, ducking footsteps (a
/// loop) by 12 dB with a 250 ms hold and a 500 ms linear release: when its
/// end is heard, and where the footsteps' rise says the release started.
fn duck_release(length: f64) -> (f64, Vec<f64>) {
    let mut scene = Scene::new(SoundEffectsSettings::default());
    let dialogue = scene
        .sfx
        .add_group("dialogue", GroupSettings::default())
        .unwrap();
    let steps = scene
        .sfx
        .add_group("footsteps", GroupSettings::default())
        .unwrap();
    let duck = DuckSettings::default()
        .amount(-12.0)
        .attack(pool_audio::linear_fade(Duration::from_millis(100)))
        .hold(Duration::from_millis(250))
        .release(pool_audio::linear_fade(Duration::from_millis(500)));
    scene.sfx.mix_mut().add_duck(dialogue, steps, duck).unwrap();
    let step = common::constant(0.25, 0.1).loop_region(..);
    let step = scene
        .sfx
        .add_sound("step", step, SoundSettings::default().group(steps))
        .unwrap();
    let line = common::constant(0.25, length);
    let line = scene
        .sfx
        .add_sound("line", line, SoundSettings::default().group(dialogue))
        .unwrap();
    scene.play(step, -1.0);
    scene.run(0.2);
    scene.play(line, 1.0);
    scene.run(1.4);
    let end = scene.end_of_right();
    let reference = 0.15;
    // Release: 12 dB in 0.5 s; the start is t - (12 + level) / 24.
    let starts = (0..450)
        .map(|ms| {
            let t = end + 0.255 + ms as f64 / 1000.0;
            t - (12.0 + scene.left_db(t, reference)) / 24.0
        })
        .collect();
    (end, starts)
}

#[test]
fn a_ducks_hold_starts_at_the_sample_its_source_ended_on() {
    for length in [0.5, 0.5047] {
        let (end, starts) = duck_release(length);
        for (ms, start) in starts.iter().enumerate() {
            let off = (start - 0.25 - end) / STEP;
            assert!(
                (-0.0625..=1.0625).contains(&off),
                "{length} s: {ms} ms into the release it started {off:.2} steps from end + hold"
            );
        }
    }
}

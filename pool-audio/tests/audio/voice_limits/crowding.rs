//! No copy under the floor, no silent copy holding a voice: a sound's copies
//! share its budget, and the copies it can no longer keep at or above the
//! audibility floor leave at the next update (`SoundInfo::copies_kept`).
//! Measured in the render, for first volumes 0.1 to 1 and 2, 8 or 32 copies:
//! - each copy plays its own recording, a tone of its own, so a copy's level
//!   is read off the render by correlation with its tone: every copy still
//!   counted is at or above the floor, every copy that left is silent;
//! - in a steady stream every onset is within 0.1 dB of the first;
//! - the same plays of constant data (every copy in phase, the worst case)
//!   never sum above the headroom at any sample.

use pool_audio::kira::sound::static_sound::StaticSoundData;
use pool_audio::kira::{AudioManager, Frame};
use pool_audio::{
    OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundId, SoundSettings,
    VoiceHandle, VoiceState, sound::Recordings,
};

use crate::common::{self, HEADROOM};

const RATE: u32 = common::RATE;
/// A frame of the game: 10 ms (480 frames of audio).
const FRAME: usize = 480;
const DT: f64 = FRAME as f64 / RATE as f64;
/// A tone's level is read over 10 ms: every tone (a multiple of 100 Hz)
/// fills it with whole periods, so the tones do not leak into each other.
const WINDOW: usize = 480;
/// The amplitude of every recording.
const LEVEL: f32 = 0.5;
/// The audibility floor's default, -60 dB, as a gain.
const FLOOR: f64 = 0.001;

fn hz(recording: usize) -> f64 {
    300.0 + 100.0 * recording as f64
}

/// A tone of `recording`'s at `level` for `seconds`, its phase worked out in
/// `f64` (an `f32` phase would smear it into its neighbours).
fn tone(recording: usize, level: f32, seconds: f64) -> StaticSoundData {
    let w = std::f64::consts::TAU * hz(recording) / f64::from(RATE);
    let frames: Vec<Frame> = (0..(seconds * f64::from(RATE)) as usize)
        .map(|i| Frame::from_mono(level * (w * i as f64).sin() as f32))
        .collect();
    StaticSoundData {
        sample_rate: RATE,
        frames: frames.into(),
        settings: Default::default(),
        slice: None,
    }
}

/// 32 recordings, each a tone of its own at [`LEVEL`], two seconds long.
fn tones() -> Recordings {
    (0..32).map(|r| tone(r, LEVEL, 2.0)).collect()
}

/// Two seconds of [`LEVEL`], every sample.
fn constant() -> StaticSoundData {
    common::constant(LEVEL, 2.0)
}

struct Run {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    sound: SoundId,
    /// The left channel so far.
    left: Vec<f32>,
    /// Every play: its voice, its recording and the sample it starts at.
    plays: Vec<(VoiceHandle, usize, usize)>,
}

impl Run {
    fn new(data: impl Into<Recordings>, first: f64, copies: usize) -> Self {
        let (manager, mut sfx, _) = common::metered(
            RATE,
            SoundEffectsSettings {
                limiter: None,
                ..Default::default()
            },
        );
        let settings = SoundSettings::default()
            .max_voices(copies)
            .first_volume(common::db(first));
        let sound = sfx.add_sound("copies", data, settings).unwrap();
        Self {
            manager,
            sfx,
            sound,
            left: Vec::new(),
            plays: Vec::new(),
        }
    }

    fn play(&mut self, recording: usize) {
        let params = PlayParams::default().recording(recording);
        let voice = self.sfx.play(self.sound, params).unwrap();
        self.plays.push((voice, recording, self.left.len()));
    }

    /// The update, then the frame's audio.
    fn frame(&mut self) {
        self.sfx.update(DT).unwrap();
        let out = self.manager.backend_mut().render(DT).unwrap();
        self.left.extend(common::left(out.samples()));
    }

    /// The plays whose voices count now (real, live).
    fn counted(&self) -> Vec<(usize, usize)> {
        self.plays
            .iter()
            .filter(|(voice, ..)| self.sfx.state(*voice) == VoiceState::Real)
            .map(|&(_, recording, start)| (recording, start))
            .collect()
    }
}

/// The gain a tone of `recording` is heard at over [`WINDOW`] from `at`.
fn gain(left: &[f32], at: usize, recording: usize) -> f64 {
    let w = std::f64::consts::TAU * hz(recording) / f64::from(RATE);
    let (mut re, mut im) = (0.0, 0.0);
    for (n, x) in left[at..at + WINDOW].iter().enumerate() {
        re += f64::from(*x) * (w * n as f64).cos();
        im += f64::from(*x) * (w * n as f64).sin();
    }
    2.0 / WINDOW as f64 * re.hypot(im) / f64::from(LEVEL)
}

/// Every copy counted at `counted` is heard at or above the floor over the
/// window at `at`, and every other one of the `plays` so far is silent.
/// Returns the gains of the counted ones.
fn check_window(run: &Run, counted: &[(usize, usize)], at: usize, what: &str) -> Vec<f64> {
    let mut gains = Vec::new();
    for &(_, recording, start) in run.plays.iter().filter(|p| p.2 < at) {
        let g = gain(&run.left, at, recording);
        if counted.contains(&(recording, start)) {
            assert!(
                g >= FLOOR * 0.99,
                "{what}: a counted copy (recording {recording}) at {:.1} dB",
                20.0 * g.log10()
            );
            gains.push(g);
        } else if !counted.iter().any(|c| c.0 == recording) {
            assert!(g < FLOOR / 10.0, "{what}: a copy that left is heard at {g}");
        }
    }
    gains
}

const FIRSTS: [f64; 5] = [0.1, 0.2, 0.5, 0.8, 1.0];
const COPIES: [usize; 3] = [2, 8, 32];

#[test]
fn every_counted_copy_of_a_steady_stream_is_heard_and_every_onset_is_even() {
    for first in FIRSTS {
        for copies in COPIES {
            let what = format!("stream, first volume {first}, {copies} copies");
            let mut run = Run::new(tones(), first, copies);
            let kept = run.sfx.sound_info(run.sound).copies_kept().unwrap();
            let plays = copies + 3;
            let mut onsets = Vec::new();
            // A play every 30 ms; each copy's level read 15 to 25 ms after
            // the newest copy's start, once every ramp is over.
            for k in 0..plays {
                run.play(k % 32);
                let mut counted = Vec::new();
                for j in 0..3 {
                    run.frame();
                    if j == 0 {
                        counted = run.counted();
                    }
                }
                assert!(counted.len() <= kept, "{what}: {} counted", counted.len());
                let at = run.plays[k].2 + 720;
                check_window(&run, &counted, at, &what);
                onsets.push(gain(&run.left, at, k % 32));
            }
            // 100 ms after the last start, the same.
            let counted = run.counted();
            for _ in 0..12 {
                run.frame();
            }
            check_window(&run, &counted, run.plays[plays - 1].2 + 4_800, &what);
            for (k, onset) in onsets.iter().enumerate() {
                let db = 20.0 * (onset / onsets[0]).log10();
                assert!(db.abs() <= 0.1, "{what}: onset {k} at {db:+.3} dB");
            }
            let stats = run.sfx.stats();
            assert_eq!(
                stats.crowded_copies > 0,
                kept < copies,
                "{what}: kept {kept}, {stats:?}"
            );
        }
    }
}

#[test]
fn a_burst_keeps_the_copies_its_budget_keeps_and_each_is_heard() {
    for first in FIRSTS {
        for copies in COPIES {
            let what = format!("burst, first volume {first}, {copies} copies");
            let mut run = Run::new(tones(), first, copies);
            let kept = run.sfx.sound_info(run.sound).copies_kept().unwrap();
            // More plays than copies in one frame: the newest take over the
            // oldest before the mixer reads them.
            for k in 0..copies.min(28) + 4 {
                run.play(k);
            }
            assert_eq!(
                run.sfx.sound_info(run.sound).copies_playing(),
                copies,
                "{what}"
            );
            run.frame();
            let counted = run.counted();
            assert_eq!(counted.len(), kept, "{what}");
            for _ in 0..12 {
                run.frame();
            }
            let gains = check_window(&run, &counted, FRAME * 10, &what);
            assert_eq!(gains.len(), kept, "{what}");
        }
    }
}

#[test]
fn in_phase_copies_never_sum_above_the_headroom() {
    for first in FIRSTS {
        for copies in COPIES {
            let what = format!("first volume {first}, {copies} copies");
            // A stream, then a burst, of constant data: the render is the
            // sum of the copies' gains.
            let mut run = Run::new(constant(), first, copies);
            for _ in 0..copies + 3 {
                run.play(0);
                for _ in 0..3 {
                    run.frame();
                }
            }
            for _ in 0..copies + 4 {
                run.play(0);
            }
            for _ in 0..20 {
                run.frame();
            }
            let peak = run.left.iter().fold(0.0f32, |m, s| m.max(s.abs()));
            assert!(peak <= HEADROOM + 1e-5, "{what}: peak {peak}");
            let onset = (first as f32 * LEVEL).min(HEADROOM);
            assert!(
                peak >= onset * 0.99,
                "{what}: peak {peak}, a copy's onset {onset}"
            );
        }
    }
}

/// A burst of in-phase copies in silence starts at its copy volumes, the
/// ones its budget will not keep included (they fade out over the steal
/// fade): its first samples reach the sum of the copy volumes.
#[test]
fn a_burst_starts_at_every_copy_volume_before_the_crowded_ones_leave() {
    for first in FIRSTS {
        for copies in COPIES {
            let what = format!("first volume {first}, {copies} copies");
            let mut run = Run::new(constant(), first, copies);
            for _ in 0..copies {
                run.play(0);
            }
            run.frame();
            let volumes = run.sfx.sound_info(run.sound).copy_volumes().unwrap();
            let peak = f64::from(run.left[..FRAME].iter().fold(0.0f32, |m, s| m.max(s.abs())));
            // The copies that leave fade from their first sample: within
            // 0.2% of the sum (a copy left without its onset takes 1% or
            // more), and never above the headroom.
            let sum = volumes.total() * f64::from(LEVEL);
            assert!(peak >= sum * 0.998, "{what}: {peak} against {sum}");
            assert!(peak <= f64::from(HEADROOM) + 1e-5, "{what}: {peak}");
        }
    }
}

/// `first_volume`'s example, measured: a burst of 8 copies of full-scale
/// data at 0.5 starts at the copy volumes (a sum of -1 dBFS) and settles to
/// the one copy its budget keeps, heard at -6 dBFS; nothing under the floor
/// is left counted.
#[test]
fn the_first_volume_example_as_measured() {
    let (mut manager, mut sfx, meter) = common::metered(RATE, SoundEffectsSettings::default());
    let data: Recordings = (0..8).map(|r| tone(r, 1.0, 1.0)).collect();
    let sound = sfx
        .add_sound("boom", data, SoundSettings::default())
        .unwrap();
    assert_eq!(sfx.sound_info(sound).copies_kept(), Some(1));
    for r in 0..8 {
        sfx.play(sound, PlayParams::default().recording(r)).unwrap();
    }
    sfx.update(DT).unwrap();
    let mut left = Vec::new();
    for _ in 0..11 {
        let out = manager.backend_mut().render(DT).unwrap();
        left.extend(common::left(out.samples()));
    }
    assert_eq!(sfx.sound_info(sound).copies_playing(), 1);
    assert_eq!(sfx.stats().crowded_copies, 7);
    // They started at the copy volumes, 0.5, 0.22, 0.10, ...: together
    // -1 dBFS (the burst below measures such onsets in the render).
    let volumes = sfx.sound_info(sound).copy_volumes().unwrap();
    let onsets: f64 = (0..8).map(|rank| volumes.volume(rank)).sum();
    assert!((onsets - f64::from(HEADROOM)).abs() < 0.01, "{onsets}");
    assert!((volumes.volume(1) - 0.22).abs() < 0.005);
    // 100 ms on: the newest alone, at 0.5 of full scale.
    let heard: Vec<f64> = (0..8)
        .map(|r| gain(&left, 4_800, r) * f64::from(LEVEL))
        .collect();
    assert!((heard[7] - 0.5).abs() < 0.01, "{heard:?}");
    assert!(heard[..7].iter().all(|g| *g < 1e-5), "{heard:?}");
    assert!(meter.peak() <= HEADROOM + 1e-5);
}

//! The bank on kira's mixer (the offline backend): a voice plays what a kira
//! static sound plays, sample for sample; fades of any length are fades; a steal
//! crossfades inside the budget; commands reach only their own voice.

use std::sync::Arc;
use std::time::Duration;

use kira::sound::static_sound::StaticSoundData;
use kira::sound::{PlaybackPosition, Region};
use kira::{AudioManager, AudioManagerSettings, Decibels, Frame, Panning};

use super::*;
use crate::CopyVolumes;
use crate::offline::{OfflineBackend, OfflineSettings};
use crate::params::linear_fade;

const RATE: u32 = 48_000;

fn manager() -> AudioManager<OfflineBackend> {
    AudioManager::<OfflineBackend>::new(AudioManagerSettings {
        backend_settings: OfflineSettings { sample_rate: RATE },
        ..Default::default()
    })
    .unwrap()
}

fn bank(manager: &mut AudioManager<OfflineBackend>, slots: usize) -> BankHandle {
    manager
        .play(BankBuilder {
            slots,
            commands: 64,
            steal_fade: Duration::from_millis(10),
            speed_of_sound: 343.0,
            outs: Vec::new(),
            gains: crate::bus::KeyedGains::new(1),
        })
        .unwrap()
}

/// A stereo test signal with sharp and smooth parts, at `rate`.
fn signal(rate: u32, frames: usize) -> StaticSoundData {
    let frames: Arc<[Frame]> = (0..frames)
        .map(|i| {
            let t = i as f32 / rate as f32;
            Frame::new(
                0.6 * (t * 440.0 * std::f32::consts::TAU).sin(),
                if i % 50 < 25 { 0.4 } else { -0.3 },
            )
        })
        .collect();
    StaticSoundData {
        sample_rate: rate,
        frames,
        settings: Default::default(),
        slice: None,
    }
}

/// `data` with its left channel in both: a mono sound.
fn mono(data: &StaticSoundData) -> StaticSoundData {
    StaticSoundData {
        frames: data
            .frames
            .iter()
            .map(|f| Frame::from_mono(f.left))
            .collect(),
        ..data.clone()
    }
}

/// `frames` frames at a constant `value`: its level is its output.
fn level(value: f32, frames: usize) -> StaticSoundData {
    StaticSoundData {
        frames: vec![Frame::from_mono(value); frames].into(),
        ..signal(RATE, 1)
    }
}

/// A budget that lets one copy play at full level, `copies` copies at `first`;
/// a sound of its own (voices of one source share its budget).
fn source(data: &StaticSoundData, copies: usize, first: f64, total: f64) -> Arc<Source> {
    static NEXT_KEY: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let key = NEXT_KEY.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let levels = CopyVolumes::solve(copies, first, total).unwrap();
    let peak = crate::SoundPeak::measure(data).unwrap();
    Arc::new(Source::new(data, Budget::new(levels, total), peak, key))
}

fn start(slot: u32, ticket: u32, source: &Arc<Source>) -> Start {
    Start {
        slot,
        ticket,
        source: source.clone(),
        volume: 1.0,
        panning: 0.0,
        rate: 1.0,
        position: None,
        spatial_blend: 1.0,
        begin: Begin::Fresh,
        start_time: source.start_time,
        group: super::NO_GROUP,
        out: 0,
        sends: Default::default(),
        zones: false,
        loudness: 1.0,
        velocity: [0.0; 3],
        doppler: 0.0,
        muffle: (1.0, None),
        distances: crate::Distances::default(),
    }
}

fn play(handle: &mut BankHandle, start: Start) {
    handle.shared().queue(start.slot, start.ticket);
    assert!(handle.send(Command::Start(start)).is_ok());
}

/// Stops the voice `ticket` on `slot` with a linear fade of `millis`.
fn stop(handle: &mut BankHandle, slot: u32, ticket: u32, millis: u64) {
    let fade = linear_fade(Duration::from_millis(millis));
    assert!(handle.send(Command::Stop { slot, ticket, fade }).is_ok());
}

fn left(samples: &[f32]) -> Vec<f32> {
    samples.iter().step_by(2).copied().collect()
}

#[test]
fn a_voice_plays_what_a_kira_static_sound_plays() {
    let base = signal(RATE, 9_000);
    let cases: Vec<(&str, StaticSoundData, f64, f32, f64)> = vec![
        ("plain", base.clone(), 1.0, 0.0, 1.0),
        ("pitched up", base.clone(), 1.37, 0.0, 1.0),
        ("pitched down", base.clone(), 0.8, 0.0, 1.0),
        ("resampled", signal(44_100, 9_000), 1.0, 0.0, 1.0),
        (
            "resampled and pitched",
            signal(22_050, 4_000),
            1.2,
            0.0,
            1.0,
        ),
        ("panned", base.clone(), 1.0, -0.4, 1.0),
        ("quieter", base.clone(), 1.0, 0.0, 0.5),
        (
            "looped",
            base.loop_region(Region {
                start: PlaybackPosition::Samples(1_000),
                end: kira::sound::EndPosition::Custom(PlaybackPosition::Samples(3_000)),
            }),
            1.0,
            0.0,
            1.0,
        ),
        (
            "sliced",
            StaticSoundData {
                slice: Some((2_000, 5_000)),
                ..base.clone()
            },
            1.1,
            0.0,
            1.0,
        ),
        ("reversed", base.reverse(true), 1.0, 0.0, 1.0),
        ("mono", mono(&base), 1.0, 0.0, 1.0),
        ("mono, pitched up", mono(&base), 1.37, 0.0, 1.0),
        (
            "mono, resampled and panned",
            mono(&signal(44_100, 9_000)),
            0.9,
            0.3,
            0.7,
        ),
        (
            "mono, looped",
            mono(&base)
                .loop_region(PlaybackPosition::Samples(700)..PlaybackPosition::Samples(1_900)),
            1.25,
            0.0,
            1.0,
        ),
        ("mono, reversed", mono(&base).reverse(true), 1.1, 0.0, 1.0),
        (
            "reversed loop",
            base.reverse(true)
                .loop_region(PlaybackPosition::Samples(500)..PlaybackPosition::Samples(2_500)),
            0.9,
            0.0,
            1.0,
        ),
        (
            "from a start position",
            base.start_position(PlaybackPosition::Samples(4_321)),
            1.0,
            0.0,
            1.0,
        ),
    ];
    for (name, data, rate, panning, volume) in cases {
        let mut kira = manager();
        // The bank lowers a panned play by the pan law's gain on its louder
        // channel: kira is asked for the same.
        let compensation = 1.0
            / crate::SoundPeak::measure(&data)
                .unwrap()
                .pan_gain(panning)
                .max(1.0);
        let reference = data
            .clone()
            .playback_rate(rate)
            .panning(Panning(panning))
            .volume(crate::level::kira_volume(volume * compensation));
        kira.play(reference).unwrap();
        let expected = kira.backend_mut().render(0.25).unwrap();

        let mut ours = manager();
        let mut handle = bank(&mut ours, 4);
        let source = source(&data, 1, 1.0, 1e6);
        play(
            &mut handle,
            Start {
                rate,
                panning,
                volume,
                ..start(0, 1, &source)
            },
        );
        let got = ours.backend_mut().render(0.25).unwrap();
        let worst = expected
            .samples()
            .iter()
            .zip(got.samples())
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(worst < 1e-5, "{name}: off by {worst}");
        assert!(got.peak() > 0.1, "{name}: silent");
    }
}

/// A mono sound is mixed one channel at a time and heard in both: the same
/// samples, bit for bit, as the two-channel mixing of a sound that differs
/// from it only in a frame never reached.
#[test]
fn a_mono_sound_mixes_exactly_as_two_equal_channels() {
    let looped = |data: StaticSoundData| {
        data.loop_region(PlaybackPosition::Samples(2_000)..PlaybackPosition::Samples(6_000))
    };
    let one = looped(mono(&signal(44_100, 30_000)));
    let mut frames: Vec<Frame> = one.frames.to_vec();
    frames[29_999].right += 0.5; // past the loop: never read
    let two = StaticSoundData {
        frames: frames.into(),
        ..one.clone()
    };
    let render = |data: &StaticSoundData| {
        let mut manager = manager();
        let mut handle = bank(&mut manager, 4);
        let source = source(data, 2, 0.5, 1.0);
        for (slot, rate) in [(0, 1.3), (1, 0.77)] {
            play(
                &mut handle,
                Start {
                    rate,
                    panning: 0.2,
                    ..start(slot, slot + 1, &source)
                },
            );
        }
        manager
            .backend_mut()
            .render(0.5)
            .unwrap()
            .samples()
            .to_vec()
    };
    let (mono_mix, stereo_mix) = (render(&one), render(&two));
    assert!(mono_mix.iter().any(|s| s.abs() > 0.1), "silent");
    let differ = mono_mix
        .iter()
        .zip(&stereo_mix)
        .filter(|(a, b)| a.to_bits() != b.to_bits())
        .count();
    assert_eq!(differ, 0, "{differ} samples differ");
}

#[test]
fn a_voice_starts_on_the_first_frame_of_the_next_block() {
    let mut manager = manager();
    let mut handle = bank(&mut manager, 2);
    let data = level(0.5, 4_800);
    let source = source(&data, 1, 1.0, 1e6);
    manager.backend_mut().render(0.003).unwrap();
    play(&mut handle, start(0, 1, &source));
    let out = left(manager.backend_mut().render(0.01).unwrap().samples());
    assert_eq!(out[0], 0.5, "heard from the block's first frame");
}

#[test]
fn a_one_millisecond_stop_is_a_fade_from_its_first_sample() {
    let mut manager = manager();
    let mut handle = bank(&mut manager, 2);
    let data = level(0.8, 48_000);
    let source = source(&data, 1, 1.0, 1e6);
    play(&mut handle, start(0, 1, &source));
    manager.backend_mut().render(0.01).unwrap();
    stop(&mut handle, 0, 1, 1);
    let out = left(manager.backend_mut().render(0.01).unwrap().samples());
    // 48 frames down to silence: every step small, silence after.
    let steps: Vec<f32> = out.windows(2).map(|w| (w[0] - w[1]).abs()).collect();
    assert!(
        out[0] < 0.8 && out[0] > 0.7,
        "fading from the first sample: {}",
        out[0]
    );
    assert!(
        steps.iter().all(|s| *s <= 0.8 / 40.0),
        "largest step {:?}",
        steps.iter().fold(0.0f32, |m, s| m.max(*s))
    );
    assert!(out[48..].iter().all(|s| *s == 0.0));
    assert_eq!(handle.status(0).phase, Phase::Done);
}

#[test]
fn a_steal_crossfades_in_the_same_block_and_the_sum_stays_in_the_budget() {
    // One copy at the whole budget (0.5): the incoming copy starts at once,
    // rising as the outgoing one fades, and the two never sum above 0.5.
    let mut manager = manager();
    let mut handle = bank(&mut manager, 4);
    let data = level(1.0, 48_000);
    let source = source(&data, 1, 1.0, 0.5);
    play(&mut handle, start(0, 1, &source));
    manager.backend_mut().render(0.01).unwrap();
    stop(&mut handle, 0, 1, 10);
    play(&mut handle, start(1, 1, &source));
    let out = left(manager.backend_mut().render(0.03).unwrap().samples());
    assert!(
        out.iter().all(|s| *s <= 0.5 + 1e-6),
        "{}",
        out.iter().fold(0.0f32, |m, s| m.max(*s))
    );
    assert!(
        out[..480].iter().all(|s| *s >= 0.5 - 1e-4),
        "an even crossfade: {:?}",
        &out[..4]
    );
}

#[test]
fn commands_for_another_ticket_or_an_ended_voice_do_nothing() {
    let mut manager = manager();
    let mut handle = bank(&mut manager, 2);
    let data = level(0.5, 480);
    let source = source(&data, 1, 1.0, 1e6);
    play(&mut handle, start(0, 7, &source));
    handle
        .send(Command::SetVolume {
            slot: 0,
            ticket: 6,
            volume: Decibels::SILENCE,
            fade: linear_fade(Duration::ZERO),
        })
        .unwrap();
    let out = left(manager.backend_mut().render(0.005).unwrap().samples());
    assert_eq!(out[200], 0.5, "another ticket's volume did not apply");
    manager.backend_mut().render(0.02).unwrap();
    assert_eq!(handle.status(0).phase, Phase::Done, "480 frames played out");
    assert_eq!(
        handle.shared().stopped_at(0),
        480.0,
        "it ended past its last frame"
    );
}

#[test]
fn a_start_replaced_before_the_mixer_read_it_is_never_played() {
    let mut manager = manager();
    let mut handle = bank(&mut manager, 1);
    let quiet = level(0.25, 4_800);
    let loud = level(0.5, 4_800);
    let (quiet, loud) = (source(&quiet, 1, 1.0, 1e6), source(&loud, 1, 1.0, 1e6));
    play(&mut handle, start(0, 1, &quiet));
    assert!(handle.shared().replace(0, 1, 2));
    handle.send(Command::Start(start(0, 2, &loud))).unwrap();
    let out = left(manager.backend_mut().render(0.005).unwrap().samples());
    assert_eq!(out[10], 0.5);
    assert_eq!(handle.status(0).ticket, 2);
}

/// What the game side waits for before it drops a removed sound: two reads of
/// the command queue after a start was sent, and the start's voice over. By
/// then the mixer holds no reference to the sound, whether the start played
/// (and ended) or was replaced before the mixer read it.
#[test]
fn two_reads_after_a_start_the_mixer_holds_no_reference_once_its_voice_is_over() {
    let mut manager = manager();
    let mut handle = bank(&mut manager, 2);
    let short = source(&level(0.1, 480), 1, 1.0, 1e6);
    let other = source(&level(0.1, 48_000), 1, 1.0, 1e6);
    // Slot 0: a start replaced before the mixer reads it. Slot 1: a start that
    // plays 10 ms and ends.
    handle.shared().queue(0, 1);
    handle.send(Command::Start(start(0, 1, &short))).unwrap();
    play(&mut handle, start(0, 2, &other));
    play(&mut handle, start(1, 1, &short));
    let sent_after = handle.drains() + 2;
    assert_eq!(Arc::strong_count(&short), 3, "two starts in the queue");
    let mut rendered = 0;
    while handle.drains() < sent_after || handle.status(1).phase != Phase::Done {
        manager.backend_mut().render(0.001).unwrap();
        rendered += 1;
        assert!(rendered < 100, "the voice ends");
    }
    assert_eq!(Arc::strong_count(&short), 1, "only the game side's is left");
    assert_eq!(Arc::strong_count(&other), 2, "slot 0 still plays the other");
}

#[test]
fn a_resumed_voice_continues_from_its_playhead() {
    // A ramp whose value is its frame index: the output says where it is.
    let frames: Arc<[Frame]> = (0..48_000)
        .map(|i| Frame::from_mono(i as f32 / 48_000.0))
        .collect();
    let data = StaticSoundData {
        frames,
        ..signal(RATE, 1)
    };
    let mut manager = manager();
    let mut handle = bank(&mut manager, 2);
    let source = source(&data, 1, 1.0, 1e6);
    play(
        &mut handle,
        Start {
            begin: Begin::At(12_000.75),
            ..start(0, 1, &source)
        },
    );
    let out = left(manager.backend_mut().render(0.1).unwrap().samples());
    // Past the 10 ms fade-in: frame 480 of the render reads frame 12,480, the
    // whole frame the playhead was at (read as it lies, not interpolated).
    for (n, sample) in out.iter().enumerate().take(600).skip(480) {
        let expected = (12_000 + n) as f32 / 48_000.0;
        assert!((sample - expected).abs() < 1e-6, "{sample} vs {expected}");
    }
}

mod model {
    //! Random commands against a model of the slots: a voice is over when the
    //! model says it must be (a one-shot played out, a stop's fade done, a
    //! paused voice stopped) and never before (a loop, a paused voice); and with
    //! constant data (every copy in phase, the worst case), each sound's copies
    //! never exceed its budget at any sample (each sound has a channel of its
    //! own: a one-shot hard left, a loop hard right).
    use proptest::prelude::*;

    use super::*;

    /// Frames of the one-shot (sound 0); sound 1 loops.
    const LENGTHS: [Option<usize>; 2] = [Some(2_000), None];
    const BUDGETS: [f64; 2] = [0.3, 0.2];
    /// Each sound on one channel (the bank takes the pan law's sqrt 2 back).
    const PANNING: [f32; 2] = [-1.0, 1.0];
    const SLOTS: u32 = 6;

    #[derive(Debug, Clone)]
    enum Op {
        Start {
            slot: u32,
            sound: usize,
            rate: f64,
        },
        TakeOver {
            slot: u32,
            sound: usize,
        },
        Stop {
            slot: u32,
            millis: u64,
        },
        Pause(u32),
        Resume(u32),
        /// Obstruction or occlusion: a volume and a low-pass, never above
        /// the budget (the filter averages, it never overshoots).
        Muffle {
            slot: u32,
            gain: f32,
            cutoff: Option<f32>,
        },
        Render(usize),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => (0..SLOTS, 0..2usize, prop::sample::select(vec![0.5, 1.0, 1.7]))
                .prop_map(|(slot, sound, rate)| Op::Start { slot, sound, rate }),
            1 => (0..SLOTS, 0..2usize).prop_map(|(slot, sound)| Op::TakeOver { slot, sound }),
            2 => (0..SLOTS, prop::sample::select(vec![0u64, 1, 5, 40]))
                .prop_map(|(slot, millis)| Op::Stop { slot, millis }),
            1 => (0..SLOTS).prop_map(Op::Pause),
            1 => (0..SLOTS).prop_map(Op::Resume),
            1 => (
                0..SLOTS,
                prop::sample::select(vec![0.1f32, 0.5, 1.0]),
                prop::sample::select(vec![None, Some(150.0f32), Some(4_000.0)]),
            )
                .prop_map(|(slot, gain, cutoff)| Op::Muffle { slot, gain, cutoff }),
            3 => (1..3_000usize).prop_map(Op::Render),
        ]
    }

    /// What the model knows of a slot's voice.
    #[derive(Debug, Clone, Copy, PartialEq)]
    enum ModelSlot {
        Free,
        /// Started at frame `at` (not yet rendered if `at` is the current frame).
        Live {
            ticket: u32,
            sound: usize,
            rate: f64,
            at: usize,
            paused: bool,
            ever_paused: bool,
        },
        /// Stopped: over by frame `by` at the latest.
        Leaving {
            ticket: u32,
            by: usize,
        },
    }

    /// 96 sequences by default; `PROPTEST_CASES` sets another count.
    fn cases() -> u32 {
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|cases| cases.parse().ok())
            .unwrap_or(96)
    }

    /// Frames a voice may take beyond its exact end: the ring's last frames and
    /// a step of the mixer.
    const SLACK: usize = 4 + STEP;

    proptest! {
        #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

        #[test]
        fn voices_end_exactly_when_they_should_and_the_budget_holds(
            ops in prop::collection::vec(op(), 1..80),
        ) {
            let mut manager = manager();
            let mut handle = bank(&mut manager, SLOTS as usize);
            let sources: Vec<Arc<Source>> = (0..2)
                .map(|s| {
                    let data = level(1.0, LENGTHS[s].unwrap_or(1_000));
                    let data = if LENGTHS[s].is_none() { data.loop_region(..) } else { data };
                    source(&data, 4, 0.15, BUDGETS[s])
                })
                .collect();
            // Constant data overshoots by at most 7.3% at its start (kira's
            // cubic from the silent frame before it).
            let ceilings = BUDGETS.map(|budget| budget as f32 * 1.073 + 1e-5);
            let on = |sound: usize, slot: u32, ticket: u32| Start {
                panning: PANNING[sound],
                ..start(slot, ticket, &sources[sound])
            };
            let mut slots = [ModelSlot::Free; SLOTS as usize];
            let mut tickets = [0u32; SLOTS as usize];
            let mut now = 0usize;
            for op in ops {
                match op {
                    Op::Start { slot, sound, rate } if slots[slot as usize] == ModelSlot::Free => {
                        tickets[slot as usize] += 1;
                        let ticket = tickets[slot as usize];
                        play(&mut handle, Start { rate, ..on(sound, slot, ticket) });
                        slots[slot as usize] = ModelSlot::Live { ticket, sound, rate, at: now, paused: false, ever_paused: false };
                    }
                    Op::TakeOver { slot, sound } => {
                        if let ModelSlot::Live { ticket, at, .. } = slots[slot as usize]
                            && at == now
                        {
                            let next = ticket + 1;
                            prop_assert!(handle.shared().replace(slot, ticket, next), "a start not yet read can be replaced");
                            tickets[slot as usize] = next;
                            handle.send(Command::Start(on(sound, slot, next))).unwrap();
                            slots[slot as usize] = ModelSlot::Live { ticket: next, sound, rate: 1.0, at: now, paused: false, ever_paused: false };
                        }
                    }
                    Op::Stop { slot, millis } => {
                        if let ModelSlot::Live { ticket, .. } = slots[slot as usize] {
                            stop(&mut handle, slot, ticket, millis);
                            // A paused voice ends at once; one still fading into its
                            // pause fades out with the stop's fade.
                            let fade = millis as usize * 48;
                            slots[slot as usize] = ModelSlot::Leaving { ticket, by: now + fade + SLACK };
                        }
                    }
                    Op::Pause(slot) => {
                        if let ModelSlot::Live { ticket, ref mut paused, ref mut ever_paused, .. } = slots[slot as usize] {
                            handle.send(Command::Pause { slot, ticket, fade: linear_fade(Duration::from_millis(2)) }).unwrap();
                            *paused = true;
                            *ever_paused = true;
                        }
                    }
                    Op::Resume(slot) => {
                        if let ModelSlot::Live { ticket, ref mut paused, .. } = slots[slot as usize] {
                            handle.send(Command::Resume { slot, ticket, fade: linear_fade(Duration::from_millis(2)) }).unwrap();
                            *paused = false;
                        }
                    }
                    Op::Muffle { slot, gain, cutoff } => {
                        if let ModelSlot::Live { ticket, .. } = slots[slot as usize] {
                            handle.send(Command::SetMuffle { slot, ticket, gain, cutoff }).unwrap();
                        }
                    }
                    Op::Render(frames) => {
                        let out = manager.backend_mut().render(frames as f64 / f64::from(RATE)).unwrap();
                        now += out.frames();
                        for (channel, ceiling) in ceilings.iter().enumerate() {
                            let peak = out.samples().iter().skip(channel).step_by(2).fold(0.0f32, |m, s| m.max(s.abs()));
                            prop_assert!(peak <= *ceiling, "sound {channel}: peak {peak} above its budget's {ceiling}");
                        }
                        for (index, slot) in slots.iter_mut().enumerate() {
                            let status = handle.status(index as u32);
                            match *slot {
                                ModelSlot::Free => {}
                                ModelSlot::Live { ticket, sound, rate, at, paused, ever_paused } => {
                                    prop_assert_eq!(status.ticket, ticket);
                                    let over = status.phase == Phase::Done;
                                    let end = LENGTHS[sound].map(|frames| at + ((frames + 3) as f64 / rate).ceil() as usize + SLACK);
                                    match end {
                                        Some(end) if !ever_paused && now >= end => {
                                            prop_assert!(over, "a one-shot played out by frame {end} is still on at {now}");
                                        }
                                        Some(end) if !ever_paused && now + SLACK < end - SLACK => {
                                            prop_assert!(!over, "a one-shot over before frame {end}, at {now}");
                                        }
                                        None => prop_assert!(!over, "a loop ended"),
                                        _ if paused && status.phase == Phase::Paused => prop_assert!(!over),
                                        _ => {}
                                    }
                                    if over {
                                        *slot = ModelSlot::Free;
                                    }
                                }
                                ModelSlot::Leaving { ticket, by } => {
                                    prop_assert_eq!(status.ticket, ticket);
                                    let over = status.phase == Phase::Done;
                                    if now >= by {
                                        prop_assert!(over, "a stop due by frame {by} is still on at {now}");
                                    }
                                    if over {
                                        *slot = ModelSlot::Free;
                                    }
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

/// A voice whose playhead sits on a frame and moves a frame at a time takes
/// the frame itself: Hermite's interpolation at 0 is that frame plus a signed
/// zero, and once weighted and added to a mix that starts at +0 the two are
/// the same bits, for every frame, gain and mix so far.
mod unit_step {
    use proptest::prelude::*;

    use super::read::hermite;

    fn sample() -> impl Strategy<Value = f32> {
        prop_oneof![
            Just(0.0f32),
            Just(-0.0f32),
            -1.0f32..1.0,
            Just(f32::MIN_POSITIVE),
            Just(-f32::MIN_POSITIVE),
        ]
    }

    proptest! {
        #[test]
        fn the_frame_is_the_interpolation_at_zero(
            a in sample(), b in sample(), c in sample(), d in sample(),
            gain in prop_oneof![Just(0.0f32), 0.0f32..2.0],
            mix in proptest::collection::vec((sample(), prop_oneof![Just(0.0f32), 0.0f32..2.0]), 0..4),
            x in prop_oneof![Just(0.0f32), Just(-0.0f32)],
        ) {
            // A mix built as the bank builds it: +0, then weighted samples added.
            let so_far = mix.iter().fold(0.0f32, |sum, (s, g)| sum + s * g);
            let interpolated = so_far + hermite(a, b, c, d, x) * gain;
            let taken = so_far + b * gain;
            prop_assert_eq!(interpolated.to_bits(), taken.to_bits());
        }
    }
}

//! The two ways through a step agree: a step read four frames at a time
//! ([`lanes::mix_direct`]) hears what the same step read frame by frame
//! through the transport ([`mix_frames`], kira's own walk) hears, and leaves
//! the voice where that one does, for any rate (steady or gliding, a frame a
//! frame or not), fraction, gains, low-pass (steady or gliding) and step
//! length, on mono and two-channel sounds.

use kira::Frame;
use proptest::prelude::*;

use super::{Gains, General, Reader, lanes, mix_frames};
use crate::bank::transport::Transport;

/// A step as the voice hands it to its reader.
#[derive(Debug, Clone)]
struct Case {
    frames: Vec<Frame>,
    mono: bool,
    at: usize,
    fraction: f64,
    rate: f64,
    rate_step: f64,
    gains: [f32; 4],
    /// The low-pass's coefficient and its step, if on.
    filter: Option<(f32, f32)>,
    memory: [f32; 2],
    mix: Vec<Frame>,
}

fn case() -> impl Strategy<Value = Case> {
    let sample = -1.0f32..1.0;
    let frames = proptest::collection::vec((sample.clone(), sample.clone()), 400);
    // A rate of exactly one with no fraction reads the frames themselves.
    let rate = prop_oneof![
        Just((1.0, 0.0, 0.0)),
        (0.07f64..4.0, 0.0f64..1.0, Just(0.0)),
        (0.1f64..4.0, 0.0f64..1.0, -0.005f64..0.005)
    ];
    let gain = 0.0f32..1.0;
    let gain_step = -0.01f32..0.01;
    let filter = proptest::option::of((0.05f32..=1.0, prop_oneof![Just(0.0f32), -4e-4f32..4e-4]));
    (
        frames,
        any::<bool>(),
        4usize..200,
        rate,
        (gain.clone(), gain, gain_step.clone(), gain_step),
        filter,
        (sample.clone(), sample),
        1usize..=16,
    )
        .prop_map(
            |(frames, mono, at, (rate, fraction, rate_step), gains, filter, memory, len)| {
                let frames = frames
                    .into_iter()
                    .map(|(left, right)| Frame {
                        left,
                        right: if mono { left } else { right },
                    })
                    .collect();
                Case {
                    frames,
                    mono,
                    at,
                    fraction,
                    rate,
                    rate_step,
                    gains: [gains.0, gains.1, gains.2, gains.3],
                    filter,
                    memory: [memory.0, if mono { 0.0 } else { memory.1 }],
                    mix: (0..len)
                        .map(|i| Frame {
                            left: i as f32 * 0.01,
                            right: -0.02,
                        })
                        .collect(),
                }
            },
        )
}

impl Case {
    fn gains(&self) -> Gains {
        let (coef, coef_step) = self.filter.unwrap_or((1.0, 0.0));
        Gains {
            left: self.gains[0],
            right: self.gains[1],
            left_step: self.gains[2],
            right_step: self.gains[3],
            rate: self.rate,
            rate_step: self.rate_step,
            sample_rate: 48_000.0,
            dt: 1.0 / 48_000.0,
            coef,
            coef_step,
            memory: self.memory,
        }
    }

    /// A reader whose ring holds the four frames before `at`, as a voice's
    /// holds them once it has read four.
    fn reader(&self) -> Reader {
        let at = self.at;
        Reader {
            ring: [0, 1, 2, 3].map(|i| self.frames[at - 4 + i]),
            ring_at: [at - 4, at - 3, at - 2, at - 1],
            transport: Transport {
                position: at,
                loop_region: None,
                reverse: false,
                frames: self.frames.len(),
                playing: true,
            },
            until_empty: 4,
        }
    }
}

/// What a step left: the mix, the gains (low-pass memory included) and the
/// playhead (the frame heard plus the fraction past it).
struct Heard {
    mix: Vec<Frame>,
    gains: Gains,
    playhead: f64,
}

fn four_at_a_time(case: &Case) -> Option<Heard> {
    let (mut mix, mut gains, mut fraction) = (case.mix.clone(), case.gains(), case.fraction);
    let reach = fraction + mix.len() as f64 * (case.rate.max(case.rate + case.rate_step * 16.0));
    let next = lanes::mix_direct(
        &mut mix,
        &mut gains,
        &mut fraction,
        (&case.frames, case.at),
        (case.mono, case.filter.is_some(), reach),
    )?;
    // The window ends before `next`: the frame heard is its second.
    let playhead = (next - 3) as f64 + fraction;
    Some(Heard {
        mix,
        gains,
        playhead,
    })
}

fn frame_by_frame(case: &Case) -> Heard {
    let (mut mix, mut gains, mut fraction) = (case.mix.clone(), case.gains(), case.fraction);
    let mut reader = case.reader();
    let mut general = General {
        reader: &mut reader,
        frames: &case.frames,
    };
    let ended = mix_frames(
        &mut mix,
        &mut gains,
        &mut fraction,
        &mut general,
        (case.mono, case.filter.is_some()),
    );
    assert!(!ended, "the sound goes on");
    let playhead = reader.ring_at[1] as f64 + fraction;
    Heard {
        mix,
        gains,
        playhead,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn four_frames_at_a_time_hear_what_one_at_a_time_hears(case in case()) {
        let lanes = four_at_a_time(&case).expect("a step within the span");
        let single = frame_by_frame(&case);
        // A gliding low-pass moves its coefficient a block (four frames) at a
        // time instead of every frame: each frame hears at most a block of
        // steps of it away, on samples within 1.5 of the memory.
        let glide = case.filter.map_or(0.0, |(_, step)| step.abs()) * 4.0 * 3.0;
        let tolerance = 2e-5 + glide * case.mix.len() as f32;
        for (i, (a, b)) in lanes.mix.iter().zip(&single.mix).enumerate() {
            prop_assert!(
                (a.left - b.left).abs() <= tolerance && (a.right - b.right).abs() <= tolerance,
                "frame {i}: {a:?} against {b:?} (tolerance {tolerance})"
            );
        }
        for (a, b) in lanes.gains.memory.iter().zip(&single.gains.memory) {
            prop_assert!((a - b).abs() <= tolerance, "memory {a} against {b}");
        }
        prop_assert!((lanes.gains.left - single.gains.left).abs() <= 1e-5);
        prop_assert!((lanes.gains.right - single.gains.right).abs() <= 1e-5);
        prop_assert!((lanes.gains.coef - single.gains.coef).abs() <= 1e-5);
        prop_assert!(
            (lanes.playhead - single.playhead).abs() <= 1e-9,
            "playhead {} against {}", lanes.playhead, single.playhead
        );
    }
}

/// A step that reaches past the span, or a window past the sound's end, is
/// left to the transport, with nothing done.
#[test]
fn a_step_beyond_the_span_or_the_end_is_read_frame_by_frame() {
    let frames = vec![
        Frame {
            left: 0.5,
            right: 0.5
        };
        300
    ];
    let step = |at: usize, rate: f64| {
        let mut gains = Gains {
            left: 1.0,
            right: 1.0,
            left_step: 0.0,
            right_step: 0.0,
            rate,
            rate_step: 0.0,
            sample_rate: 48_000.0,
            dt: 1.0 / 48_000.0,
            coef: 1.0,
            coef_step: 0.0,
            memory: [0.0; 2],
        };
        let (mut mix, mut fraction) = (vec![Frame::ZERO; 16], 0.25);
        let reach = fraction + 16.0 * rate;
        let read = (true, false, reach);
        let next = lanes::mix_direct(&mut mix, &mut gains, &mut fraction, (&frames, at), read);
        (next, mix[15].left)
    };
    assert_eq!(
        step(10, 8.0),
        (None, 0.0),
        "16 frames at 8 a frame reach past the span"
    );
    assert_eq!(
        step(200, 0.5),
        (None, 0.0),
        "the span runs past the sound's end"
    );
    assert_eq!(
        step(10, 0.5),
        (Some(18), 0.5),
        "8 frames on, every frame heard"
    );
}

//! The two ways through a step agree: a step read four frames at a time
//! ([`lanes::mix_direct`]) hears what the same step read frame by frame
//! through the transport ([`mix_frames`], kira's own walk) hears, and leaves
//! the voice where that one does, for any rate (steady or gliding, a frame a
//! frame or not, sounds at the mixer's sample rate or resampled), fraction,
//! gains, low-pass (steady or gliding) and step length, on mono and
//! two-channel sounds; and steps through [`Reader::mix`], which picks the
//! way, agree with the transport alone, step after step, loops and ends
//! included.

use kira::Frame;
use kira::sound::PlaybackPosition;
use kira::sound::static_sound::StaticSoundData;
use proptest::prelude::*;

use super::{Gains, General, Reader, Sample, lanes, mix_frames};
use crate::CopyVolumes;
use crate::SoundPeak;
use crate::bank::budget::Budget;
use crate::bank::source::{Read, Source};
use crate::bank::transport::Transport;

/// A step as the voice hands it to its reader.
#[derive(Debug, Clone)]
struct Case {
    frames: Vec<Frame>,
    mono: bool,
    /// A mono sound stored as its one channel (else as frames).
    one_channel: bool,
    /// The sound's sample rate (the mixer's is 48 kHz).
    sample_rate: f64,
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

/// Sounds at the mixer's rate, and at others: resampled, a frame a frame is
/// not a rate of one.
const SAMPLE_RATES: [f64; 5] = [48_000.0, 44_100.0, 37_800.0, 22_050.0, 96_000.0];

fn case() -> impl Strategy<Value = Case> {
    let sample = -1.0f32..1.0;
    let frames = proptest::collection::vec((sample.clone(), sample.clone()), 1_300);
    // Frames moved a frame (up to 7, as far as a step of 128 may reach), and
    // whether the rate glides; exactly a frame a frame from a frame reads the
    // frames themselves.
    let moves = prop_oneof![
        Just((None, 0.0)),
        (0.07f64..7.0).prop_map(|moves| (Some(moves), 0.0)),
        (0.1f64..6.9, -0.005f64..0.005).prop_map(|(moves, glide)| (Some(moves), glide)),
    ];
    let fraction = prop_oneof![Just(0.0), 0.0f64..1.0, Just(1e-12), Just(1.0 - 1e-12)];
    let gain = 0.0f32..1.0;
    let gain_step = -0.01f32..0.01;
    // Coefficients from a 20 Hz cutoff's (0.0026) to none (1); a glide
    // reaches its target over 50 ms (2,400 frames) at the most.
    let filter = proptest::option::of((0.002f32..=1.0, prop_oneof![Just(0.0f32), -4e-4f32..4e-4]));
    (
        (
            frames,
            (any::<bool>(), any::<bool>()),
            proptest::sample::select(SAMPLE_RATES.to_vec()),
        ),
        (4usize..200, moves, fraction),
        (gain.clone(), gain, gain_step.clone(), gain_step),
        (filter, (sample.clone(), sample), 1usize..=128),
    )
        .prop_map(
            |(
                (frames, (mono, one_channel), sample_rate),
                (at, (moves, glide), fraction),
                gains,
                (filter, memory, len),
            )| {
                let ratio = sample_rate / 48_000.0;
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
                    one_channel,
                    sample_rate,
                    at,
                    // No moves given: a frame a frame, as a voice asks for it.
                    fraction: if moves.is_none() { 0.0 } else { fraction },
                    rate: moves.map_or(48_000.0 / sample_rate, |moves| moves / ratio),
                    // A voice's rate glides between two rates in range: it
                    // never reaches zero within a step.
                    rate_step: moves.map_or(glide, |moves| glide.max((0.05 - moves) / len as f64))
                        / ratio,
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
    /// Its frames' left channel.
    fn one_channel(&self) -> Vec<f32> {
        self.frames.iter().map(|frame| frame.left).collect()
    }

    fn gains(&self) -> Gains {
        let (coef, coef_step) = self.filter.unwrap_or((1.0, 0.0));
        Gains {
            left: self.gains[0],
            right: self.gains[1],
            left_step: self.gains[2],
            right_step: self.gains[3],
            rate: self.rate,
            rate_step: self.rate_step,
            sample_rate: self.sample_rate,
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
    let fastest = case.rate.max(case.rate + case.rate_step * mix.len() as f64);
    let reach = fraction + mix.len() as f64 * fastest * case.sample_rate / 48_000.0;
    let read = (case.filter.is_some(), reach);
    let step = (&mut mix[..], &mut gains, &mut fraction);
    let next = match (case.mono, case.one_channel) {
        // A mono sound as the bank stores it: its one channel.
        (true, true) => direct::<_, true>(&case.one_channel(), case.at, step, read),
        (true, false) => direct::<_, true>(&case.frames, case.at, step, read),
        (false, _) => direct::<_, false>(&case.frames, case.at, step, read),
    }?;
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
    let step = (
        &mut mix[..],
        &mut gains,
        &mut fraction,
        case.filter.is_some(),
    );
    let ended = match (case.mono, case.one_channel) {
        (true, true) => one_at_a_time::<_, true>(&mut reader, &case.one_channel(), step),
        (true, false) => one_at_a_time::<_, true>(&mut reader, &case.frames, step),
        (false, _) => one_at_a_time::<_, false>(&mut reader, &case.frames, step),
    };
    assert!(ended.is_none(), "the sound goes on");
    let playhead = reader.ring_at[1] as f64 + fraction;
    Heard {
        mix,
        gains,
        playhead,
    }
}

/// A step of `reader` through the transport alone, reading `frames`.
fn one_at_a_time<S: Sample, const MONO: bool>(
    reader: &mut Reader,
    frames: &[S],
    (mix, gains, fraction, filter): (&mut [Frame], &mut Gains, &mut f64, bool),
) -> Option<usize> {
    let mut general = General { reader, frames };
    mix_frames::<S, MONO>(mix, gains, fraction, &mut general, filter)
}

/// A step read straight from `frames` at `at`, four frames at a time.
fn direct<S: Sample, const MONO: bool>(
    frames: &[S],
    at: usize,
    (mix, gains, fraction): (&mut [Frame], &mut Gains, &mut f64),
    read: (bool, f64),
) -> Option<usize> {
    lanes::mix_direct::<S, MONO>(mix, gains, fraction, (frames, at), read)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn four_frames_at_a_time_hear_what_one_at_a_time_hears(case in case()) {
        let lanes = four_at_a_time(&case).expect("a step within the span");
        let single = frame_by_frame(&case);
        // A gliding low-pass moves its coefficient a block (four frames) at a
        // time, the block's middle frame's: each frame's is at most 1.5 steps
        // off, on samples within 3 of the memory, and the errors add up.
        let glide = case.filter.map_or(0.0, |(_, step)| step.abs()) * 1.5 * 3.0;
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
    // A mono sound, as the bank stores it.
    let frames = vec![0.5f32; 2_000];
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
        let (mut mix, mut fraction) = (vec![Frame::ZERO; 128], 0.25);
        let reach = fraction + 128.0 * rate;
        let read = (false, reach);
        let next =
            lanes::mix_direct::<_, true>(&mut mix, &mut gains, &mut fraction, (&frames, at), read);
        (next, mix[127].left)
    };
    assert_eq!(
        step(10, 8.0),
        (None, 0.0),
        "128 frames at 8 a frame reach past the span"
    );
    assert_eq!(
        step(1_000, 0.5),
        (None, 0.0),
        "the span runs past the sound's end"
    );
    assert_eq!(
        step(10, 0.5),
        (Some(74), 0.5),
        "64 frames on, every frame heard"
    );
}

/// A voice's reader as a voice starts it at `position`: the frame before
/// (silence, as kira starts a sound), then three frames read.
fn started(source: &Source, position: usize) -> Reader {
    let mut reader = Reader {
        ring: [Frame::ZERO; 4],
        ring_at: [position; 4],
        transport: source.transport(position),
        until_empty: 0,
    };
    for _ in 0..3 {
        reader.push_from(source);
    }
    reader
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Steps through [`Reader::mix`] (four frames at a time where it can, the
    /// transport near a loop's end, the sound's end and the first frames)
    /// hear what the same steps through the transport alone hear, end when
    /// those end, and leave the reader at the same playhead, step after step.
    #[test]
    fn steps_through_the_reader_hear_what_the_transport_alone_hears(
        (mono, sample_rate, looped) in (any::<bool>(), proptest::sample::select(SAMPLE_RATES.to_vec()), any::<bool>()),
        shared in any::<bool>(),
        (rate, glide) in (0.2f64..3.0, prop_oneof![Just(0.0), -0.002f64..0.002]),
        filter in proptest::option::of(0.01f32..=1.0),
        lengths in proptest::collection::vec(1usize..=128, 30..90),
    ) {
        let frames: Vec<Frame> = (0..4_000)
            .map(|i| {
                let left = 0.6 * (i as f32 * 0.37).sin();
                Frame { left, right: if mono { left } else if i % 40 < 20 { 0.4 } else { -0.3 } }
            })
            .collect();
        let data = StaticSoundData {
            sample_rate: sample_rate as u32,
            frames: frames.into(),
            settings: Default::default(),
            slice: None,
        };
        let region = PlaybackPosition::Samples(150)..PlaybackPosition::Samples(3_000);
        // kira's `loop_region` clones: the data it was made from goes.
        let data = if looped {
            let looping = data.loop_region(region);
            drop(data);
            looping
        } else {
            data
        };
        let levels = CopyVolumes::solve(1, 1.0, 1.0).unwrap();
        let peak = SoundPeak::measure(&data).unwrap();
        // Frames something else holds (a game's clone) are shared.
        let held = shared.then(|| data.frames.clone());
        let source = Source::new(&data, Budget::new(levels, 1.0), peak, 0);
        // Handed over whole (nothing else holds its frames), a mono sound is
        // stored as its one channel.
        prop_assert_eq!(source.one_channel(), mono && held.is_none());
        let (mut four, mut one) = (started(&source, 0), started(&source, 0));
        let (mut fraction_four, mut fraction_one) = (0.0, 0.0);
        let (coef, memory) = (filter.unwrap_or(1.0), [0.0; 2]);
        let gains = |rate: f64, rate_step: f64| Gains {
            left: 0.8, right: 0.6, left_step: 0.0, right_step: 0.0,
            rate, rate_step, sample_rate, dt: 1.0 / 48_000.0,
            coef, coef_step: 0.0, memory,
        };
        let (mut gains_four, mut gains_one) = (gains(rate, 0.0), gains(rate, 0.0));
        let mut rate = rate;
        for (step, &len) in lengths.iter().enumerate() {
            let target = (rate + glide * len as f64).clamp(0.1, 4.0);
            let rate_step = (target - rate) / len as f64;
            let dt = 1.0 / 48_000.0;
            let reach = fraction_four + len as f64 * rate.max(target) * sample_rate * dt;
            for gains in [&mut gains_four, &mut gains_one] {
                (gains.rate, gains.rate_step) = (rate, rate_step);
            }
            let (mut mix_four, mut mix_one) = (vec![Frame::ZERO; len], vec![Frame::ZERO; len]);
            let read = (&source, filter.is_some());
            let ended_four = four.mix(&mut mix_four, &mut gains_four, &mut fraction_four, read, reach);
            let one_step = (&mut mix_one[..], &mut gains_one, &mut fraction_one, filter.is_some());
            let ended_one = match source.read() {
                Read::Frames(frames, false) => one_at_a_time::<_, false>(&mut one, frames, one_step),
                Read::Frames(frames, true) => one_at_a_time::<_, true>(&mut one, frames, one_step),
                Read::Mono(samples) => one_at_a_time::<_, true>(&mut one, samples, one_step),
            };
            prop_assert_eq!(ended_four, ended_one, "step {}", step);
            for (i, (a, b)) in mix_four.iter().zip(&mix_one).enumerate() {
                prop_assert!(
                    (a.left - b.left).abs() <= 5e-5 && (a.right - b.right).abs() <= 5e-5,
                    "step {step}, frame {i}: {a:?} against {b:?}"
                );
            }
            if ended_four.is_some() {
                break;
            }
            let playhead = |reader: &Reader, fraction: f64| reader.ring_at[1] as f64 + fraction;
            prop_assert!(
                (playhead(&four, fraction_four) - playhead(&one, fraction_one)).abs() <= 1e-9,
                "step {step}: playhead {} against {}",
                playhead(&four, fraction_four),
                playhead(&one, fraction_one)
            );
            rate = target;
        }
    }
}

//! Direct reads, four frames at a time.
//!
//! Where a voice reads straight from its sound (see [`Reader::mix`]), the
//! four frames a step renders next are read side by side, one a lane of a
//! four-wide vector (`wide::f32x4`: SSE2 on x86-64, NEON on AArch64, plain
//! arrays elsewhere), hearing what [`mix_channels`] hears frame by frame,
//! within rounding (a gliding low-pass's coefficient moves a block at a
//! time, each block at its middle frame's):
//! - their playheads first, in fixed point: one integer addition a frame,
//!   no loop over pushes, the fraction into each window from its low bits;
//! - the four windows' samples, then kira's Hermite interpolation on the four
//!   at once (or, for a voice that moves a frame a frame from a frame, the
//!   frames themselves);
//! - the low-pass as a scan over the block (the memory of the block before
//!   is the only chain from block to block);
//! - the gains, two frames a vector, as the output holds them.
//!
//! The step's end, where the next step starts, is worked out in `f64` from
//! the step's start (kira adds a frame's move frame by frame: the same within
//! rounding), so the fixed point never accumulates from step to step.
//!
//! Left to itself, the compiler keeps the interpolation scalar (the windows
//! are gathered from four places): explicit vectors take a pitched voice
//! from 1.76x a positioned voice's time to 1.38x (`report --audio`).
//!
//! [`Reader::mix`]: super::Reader::mix
//! [`mix_channels`]: super::mix_channels

use kira::Frame;
use wide::{f32x4, i32x4};

use super::{Gains, Sample, hermite};

/// One frame in the fixed point of the playhead.
const ONE: f64 = 4_294_967_296.0;

/// The frames of a block, one a lane.
const LANES: usize = 4;

/// Frames a step of lanes reads within: the four before the transport and
/// what the step can reach (a step of 128 frames moving at most 7 frames a
/// frame). A window starts at a position masked to the span, and ends at most
/// three frames past it: no read needs a check of its own.
const SPAN: usize = 1024;

/// The span and the three frames a window at its last position reads on.
type Span<S> = [S; SPAN + 3];

/// The playhead within a step: the window `pos` frames (32.32 fixed point)
/// past the span's first, moving by `inc` a frame, `inc` by `dinc` (a
/// gliding rate).
#[derive(Clone, Copy)]
struct Head {
    pos: u64,
    inc: i64,
    dinc: i64,
}

/// Adds `out.len()` frames of a voice reading `frames` directly from `start`
/// (see [`Reader::direct_from`](super::Reader::direct_from): nothing within
/// `reach` is past a loop end or the sound's end) to `out`, as
/// [`mix_channels`](super::mix_channels) would within rounding, and returns
/// the transport position where the step ends (`fraction` moved on with it).
/// `None`, with nothing done, for a step that reaches beyond the span or
/// starts within a span of the sound's end: those are read frame by frame.
#[inline(always)]
pub(super) fn mix_direct<S: Sample, const MONO: bool>(
    out: &mut [Frame],
    gains: &mut Gains,
    fraction: &mut f64,
    (frames, start): (&[S], usize),
    (filter, reach): (bool, f64),
) -> Option<usize> {
    if reach + 8.0 >= SPAN as f64 {
        return None;
    }
    let span = frames
        .get(start.checked_sub(4)?..)?
        .first_chunk::<{ SPAN + 3 }>()?;
    // A step that moves a frame a frame from a frame reads the frames
    // themselves (Hermite's interpolation at 0).
    let (unit, steady) = (super::unit(gains, *fraction), gains.rate_step == 0.0);
    let step = (out, gains, fraction, span);
    let moved = match (unit, steady, filter) {
        (true, _, false) => mix_span::<S, MONO, true, true, false>(step),
        (true, _, true) => mix_span::<S, MONO, true, true, true>(step),
        (false, true, true) => mix_span::<S, MONO, true, false, true>(step),
        (false, true, false) => mix_span::<S, MONO, true, false, false>(step),
        (false, false, true) => mix_span::<S, MONO, false, false, true>(step),
        (false, false, false) => mix_span::<S, MONO, false, false, false>(step),
    };
    Some(start + moved)
}

/// What every block of a step shares: the span, the lanes' offsets from the
/// block's first playhead (the fractions' part, steady rate), the low-pass's
/// powers (steady coefficient) and the gains' steps, two frames a vector as
/// the output holds them (left, right, left, right).
struct Step<'a, S> {
    span: &'a Span<S>,
    offsets: i32x4,
    lowpass: Option<Lowpass>,
    /// Each frame's gain past the block's start: frames 1-2, then 3-4.
    ramp: [f32x4; 2],
    /// A frame's gain step, twice.
    slope: f32x4,
}

/// The gains at a block's start, per channel, twice: left, right, left, right.
struct Gain(f32x4);

/// [`mix_direct`]'s step, within `span`; returns the frames the transport
/// moved.
#[inline(always)]
fn mix_span<
    S: Sample,
    const MONO: bool,
    const STEADY: bool,
    const UNIT: bool,
    const FILTER: bool,
>(
    (out, gains, fraction, span): (&mut [Frame], &mut Gains, &mut f64, &Span<S>),
) -> usize {
    let mut g = *gains;
    // Frames moved a frame at `rate`, worked out as the frame-by-frame path
    // and `unit` work it out.
    let (sample_rate, dt) = (g.sample_rate, g.dt);
    let advance = |rate: f64| sample_rate * rate * dt;
    // kira moves the rate before a frame is read and the playhead after it.
    let first = if STEADY { g.rate } else { g.rate + g.rate_step };
    let mut head = Head {
        pos: (*fraction * ONE) as u64,
        // A frame a frame is exactly one: `advance` is exactly 1 for `unit`,
        // but the same product in fixed point may fall a hair short of it.
        inc: if UNIT {
            1 << 32
        } else {
            (advance(first) * ONE) as i64
        },
        dinc: if STEADY {
            0
        } else {
            (advance(g.rate_step) * ONE) as i64
        },
    };
    let slope = f32x4::new([g.left_step, g.right_step, g.left_step, g.right_step]);
    let step = Step {
        span,
        offsets: offsets(head),
        lowpass: (FILTER && g.coef_step == 0.0).then(|| Lowpass::new(g.coef)),
        ramp: [[1.0, 1.0, 2.0, 2.0], [3.0, 3.0, 4.0, 4.0]].map(|n| f32x4::new(n) * slope),
        slope,
    };
    let mut gain = Gain(f32x4::new([g.left, g.right, g.left, g.right]));
    let (blocks, rest) = out.as_chunks_mut::<LANES>();
    if !(UNIT && !FILTER && unit_blocks(blocks, &mut gain, &mut head, &step)) {
        for block in blocks {
            let block = (block, LANES);
            mix_lanes::<S, MONO, STEADY, UNIT, FILTER>(
                block,
                (&mut g, &mut gain),
                &mut head,
                &step,
            );
        }
    }
    // A step's last frames, fewer than a block: read as a block, and kept.
    if !rest.is_empty() {
        let mut block = [Frame::ZERO; LANES];
        block[..rest.len()].copy_from_slice(rest);
        let lanes = (&mut block, rest.len());
        mix_lanes::<S, MONO, STEADY, UNIT, FILTER>(lanes, (&mut g, &mut gain), &mut head, &step);
        rest.copy_from_slice(&block[..rest.len()]);
    }
    [g.left, g.right] = [gain.0.to_array()[0], gain.0.to_array()[1]];
    // Where the step ends, from where it began, in f64 (kira adds a frame's
    // move frame by frame: the same within rounding).
    let n = out.len() as f64;
    let moved = if UNIT {
        n
    } else if STEADY {
        n * advance(g.rate)
    } else {
        advance(n * g.rate + g.rate_step * n * (n + 1.0) / 2.0)
    };
    let end = *fraction + moved;
    let pushes = end as usize;
    *fraction = end - pushes as f64;
    if !STEADY {
        g.rate += g.rate_step * n;
    }
    *gains = g;
    pushes
}

/// Whole blocks of a voice that moves a frame a frame from a frame, with no
/// filter: the frames as they lie, two a vector as the output holds them,
/// the step's frames checked once. False, with nothing done, where they are
/// not all within the span (never, within the reach checked).
#[inline(always)]
fn unit_blocks<S: Sample>(
    blocks: &mut [[Frame; LANES]],
    gain: &mut Gain,
    head: &mut Head,
    step: &Step<'_, S>,
) -> bool {
    let first = ((head.pos >> 32) as usize & (SPAN - 1)) + 1;
    let Some(frames) = step.span.get(first..first + blocks.len() * LANES) else {
        return false;
    };
    for (block, four) in blocks.iter_mut().zip(frames.as_chunks::<LANES>().0) {
        add_pairs(block, pairs(*four), gain, step);
        gain.0 += step.slope * LANES as f32;
    }
    head.pos = head.pos.wrapping_add(((blocks.len() * LANES) as u64) << 32);
    true
}

/// The low 32 bits (the fraction) of each lane's playhead past the first's,
/// at `head`'s rate, steady.
#[inline(always)]
fn offsets(head: Head) -> i32x4 {
    i32x4::new([0, 1, 2, 3].map(|lane| (lane * head.inc) as i32))
}

/// A one-pole low-pass at a steady coefficient `c` over a block of four
/// frames at once: `y[j] = k^(j+1) m + c (x[j] + k x[j-1] + ... + k^j x[0])`,
/// `k = 1 - c`, `m` the memory before the block; the memory after it is the
/// last of them. The sum is a scan: each frame takes `c` of its own sample
/// and `c k` of the one before, then `k^2` of the sum two before.
#[derive(Clone, Copy)]
struct Lowpass {
    /// `c`, `c k` and `k^2` in every lane.
    c: [f32x4; 3],
    /// `k, k^2, k^3, k^4`.
    powers: f32x4,
}

impl Lowpass {
    #[inline(always)]
    fn new(c: f32) -> Self {
        let k = 1.0 - c;
        Self {
            c: [c, c * k, k * k].map(f32x4::splat),
            powers: f32x4::new([k, k * k, k * k * k, k * k * k * k]),
        }
    }

    /// The block `x` through the filter, and its memory `m` moved to the
    /// block's `len`-th frame.
    #[inline(always)]
    fn block(&self, x: f32x4, m: &mut f32, len: usize) -> f32x4 {
        let [c, ck, k2] = self.c;
        let s = x.to_array();
        let y = (x * c + ck * f32x4::new([0.0, s[0], s[1], s[2]])).to_array();
        let y = f32x4::new(y) + k2 * f32x4::new([0.0, 0.0, y[0], y[1]]);
        // The memory last: the only chain from block to block.
        let y = y + self.powers * *m;
        *m = y.to_array()[len - 1];
        y
    }
}

/// The first `len` frames of a block (all [`LANES`] of it but at a step's
/// end): their windows and the fraction into each, the interpolations lane
/// by lane, the filter, then the gains lane by lane. Lanes past `len` are
/// read, and neither heard nor counted.
#[inline(always)]
fn mix_lanes<
    S: Sample,
    const MONO: bool,
    const STEADY: bool,
    const UNIT: bool,
    const FILTER: bool,
>(
    (out, len): (&mut [Frame; LANES], usize),
    (g, gain): (&mut Gains, &mut Gain),
    head: &mut Head,
    step: &Step<'_, S>,
) {
    if UNIT && !FILTER {
        // A frame a frame from a frame: the block's four frames as they lie,
        // already two a vector as the output holds them.
        let first = ((head.pos >> 32) as usize) & (SPAN - 1);
        head.pos = head.pos.wrapping_add((len as u64) << 32);
        if let Some(&four) = step.span.get(first + 1..).and_then(|s| s.first_chunk()) {
            add_pairs(out, pairs(four), gain, step);
        }
        gain.0 += step.slope * len as f32;
        return;
    }
    let mut at = [0usize; LANES];
    let mut low = [0i32; LANES];
    let mut lane = *head;
    for j in 0..LANES {
        if j == len {
            *head = lane;
        }
        // Masked to the span, where the reach checked keeps it anyway.
        at[j] = ((lane.pos >> 32) as usize) & (SPAN - 1);
        low[j] = lane.pos as i32;
        lane.pos = lane.pos.wrapping_add(lane.inc as u64);
        if !STEADY {
            lane.inc = (lane.inc + lane.dinc).max(0);
        }
    }
    if len == LANES {
        *head = lane;
    }
    let [mut left, mut right] = samples::<S, MONO, STEADY, UNIT>(at, low, step);
    if FILTER {
        // A gliding coefficient (for 50 ms after a change) is the block's
        // own, its middle frame's: a glide in steps of four frames.
        let lowpass = match step.lowpass {
            Some(steady) => steady,
            None => {
                let n = len as f32;
                let middle = g.coef + g.coef_step * (n + 1.0) * 0.5;
                g.coef += g.coef_step * n;
                Lowpass::new(middle)
            }
        };
        left = lowpass.block(left, &mut g.memory[0], len);
        if !MONO {
            right = lowpass.block(right, &mut g.memory[1], len);
        }
    }
    add(out, [left, if MONO { left } else { right }], gain, step);
    gain.0 += step.slope * len as f32;
}

/// The samples of a block's four lanes, left and right, from the windows at
/// `at` (in the span) with the fractions in the low bits of the playheads
/// (`low`, or the first's and the step's offsets at a steady rate): kira's
/// interpolation, or the frames themselves (`UNIT`).
#[inline(always)]
fn samples<S: Sample, const MONO: bool, const STEADY: bool, const UNIT: bool>(
    at: [usize; LANES],
    low: [i32; LANES],
    step: &Step<'_, S>,
) -> [f32x4; 2] {
    let span = step.span;
    if UNIT {
        let read = |take: fn(S) -> f32| f32x4::new(at.map(|at| take(span[at + 1])));
        let left = read(S::left);
        [left, if MONO { left } else { read(S::right) }]
    } else {
        // The fraction into each window, from the low bits of its playhead
        // (offset by half a frame to read them as signed).
        let low = if STEADY {
            i32x4::splat(low[0]) + step.offsets
        } else {
            i32x4::new(low)
        };
        let x = f32x4::from_i32x4((low ^ i32x4::splat(i32::MIN)) >> 8) * (1.0 / 16_777_216.0) + 0.5;
        // The same sample of every window side by side, for each of the four.
        let channel = |take: fn(S) -> f32| {
            let tap = |k: usize| f32x4::new(at.map(|at| take(span[at + k])));
            hermite(tap(0), tap(1), tap(2), tap(3), x)
        };
        let left = channel(S::left);
        [left, if MONO { left } else { channel(S::right) }]
    }
}

/// Four frames' samples, two frames a vector as the output holds them (left,
/// right, left, right).
#[inline(always)]
fn pairs<S: Sample>([a, b, c, d]: [S; LANES]) -> [f32x4; 2] {
    [
        f32x4::new([a.left(), a.right(), b.left(), b.right()]),
        f32x4::new([c.left(), c.right(), d.left(), d.right()]),
    ]
}

/// Adds a block's samples, left and right, to `out` through the gains at
/// its start (`gain`) and each frame's step past it.
#[inline(always)]
fn add<S>(out: &mut [Frame; LANES], [left, right]: [f32x4; 2], gain: &Gain, step: &Step<'_, S>) {
    // Two frames a vector, left and right side by side, as the output
    // holds them.
    let (l, r) = (left.to_array(), right.to_array());
    let pairs = [
        f32x4::new([l[0], r[0], l[1], r[1]]),
        f32x4::new([l[2], r[2], l[3], r[3]]),
    ];
    add_pairs(out, pairs, gain, step);
}

/// Adds a block's frames, two a vector (left, right, left, right), to `out`
/// through the gains at its start (`gain`) and each frame's step past it.
#[inline(always)]
fn add_pairs<S>(out: &mut [Frame; LANES], pairs: [f32x4; 2], gain: &Gain, step: &Step<'_, S>) {
    for (two, (pair, ramp)) in out.chunks_exact_mut(2).zip(pairs.iter().zip(&step.ramp)) {
        if let [a, b] = two {
            // Read, added and written back two frames a vector.
            let mixed = f32x4::new([a.left, a.right, b.left, b.right]) + *pair * (gain.0 + *ramp);
            let [l0, r0, l1, r1] = mixed.to_array();
            *a = Frame {
                left: l0,
                right: r0,
            };
            *b = Frame {
                left: l1,
                right: r1,
            };
        }
    }
}

//! Reading a voice's sound: the playhead moved as kira's static sounds move
//! it, the frames interpolated as kira interpolates them, and the step's gains
//! moving frame by frame.
//!
//! Two ways through a step: straight from the sound, four frames at a time
//! ([`lanes`]), wherever the voice plays forwards, nothing within the step's
//! reach is a loop end, the sound's end or a frame not read yet, the step
//! moves fewer than 1,016 frames and 1,027 frames of the sound lie ahead (almost
//! always); else frame by frame through the transport ([`mix_frames`]),
//! which knows loops, reversal and ends. Both hear the same samples within
//! rounding (tested in `tests.rs`; a gliding low-pass moves its coefficient
//! a block of four frames at a time in the first).

mod lanes;
#[cfg(test)]
mod tests;

use std::ops::{Add, Mul, Sub};

use kira::Frame;

use super::source::{Read, Source};
use super::transport::Transport;

/// What a sound's samples are as the bank stores them: two channels (kira's
/// [`Frame`]), or one, a mono sound's, heard in both (`f32`: half the memory
/// and half the reading). The voice's ring holds frames either way.
pub(super) trait Sample: Copy {
    /// The sample as a frame.
    fn frame(self) -> Frame;
    /// Its left channel (a mono sample's only one).
    fn left(self) -> f32;
    /// Its right channel (a mono sample's only one).
    fn right(self) -> f32;
}

impl Sample for Frame {
    #[inline(always)]
    fn frame(self) -> Frame {
        self
    }
    #[inline(always)]
    fn left(self) -> f32 {
        self.left
    }
    #[inline(always)]
    fn right(self) -> f32 {
        self.right
    }
}

impl Sample for f32 {
    #[inline(always)]
    fn frame(self) -> Frame {
        Frame::from_mono(self)
    }
    #[inline(always)]
    fn left(self) -> f32 {
        self
    }
    #[inline(always)]
    fn right(self) -> f32 {
        self
    }
}

/// The part of a voice that reads its sound, kept in locals while a step renders.
pub(super) struct Reader {
    pub(super) ring: [Frame; 4],
    pub(super) ring_at: [usize; 4],
    pub(super) transport: Transport,
    pub(super) until_empty: u8,
}

impl Reader {
    /// Adds a step of the voice to `out`, reading `source` directly
    /// ([`lanes::mix_direct`]) where no loop end and no sound end is within
    /// `reach` frames, else through the transport ([`mix_frames`]); if the
    /// sound ended, after how many frames of `out`.
    #[inline(always)]
    pub(super) fn mix(
        &mut self,
        out: &mut [Frame],
        gains: &mut Gains,
        fraction: &mut f64,
        (source, filter): (&Source, bool),
        reach: f64,
    ) -> Option<usize> {
        let step = (out, gains, fraction);
        match source.read() {
            Read::Frames(frames, false) => self.mix_from::<_, false>(step, (frames, filter), reach),
            Read::Frames(frames, true) => self.mix_from::<_, true>(step, (frames, filter), reach),
            Read::Mono(samples) => self.mix_from::<_, true>(step, (samples, filter), reach),
        }
    }

    /// [`mix`](Self::mix), from the sound's samples `frames` (`MONO`: both
    /// channels the same, one interpolated and heard in both).
    #[inline(always)]
    fn mix_from<S: Sample, const MONO: bool>(
        &mut self,
        (out, gains, fraction): (&mut [Frame], &mut Gains, &mut f64),
        (frames, filter): (&[S], bool),
        reach: f64,
    ) -> Option<usize> {
        if let Some(start) = self.direct_from(frames.len(), reach)
            && let Some(next) =
                lanes::mix_direct::<S, MONO>(out, gains, fraction, (frames, start), (filter, reach))
        {
            self.skip_to(four_before(frames, next), start, next);
            return None;
        }
        let mut general = General {
            reader: self,
            frames,
        };
        mix_frames::<S, MONO>(out, gains, fraction, &mut general, filter)
    }

    /// Where direct reads can start (the transport's position) in a sound of
    /// `len` frames, if the next
    /// `reach` frames read, and one more, cross no loop end and no sound end,
    /// and the ring holds the four frames before it (not the silence a voice
    /// starts with, nor the end of a loop it just wrapped from): forwards
    /// only, while the sound plays.
    #[inline(always)]
    fn direct_from(&self, len: usize, reach: f64) -> Option<usize> {
        let t = &self.transport;
        let p = t.position;
        // Compared a position at a time: an array made to compare with is
        // read back from the stack in halves it was not written in.
        let [a, b, c, d] = self.ring_at;
        if !t.playing || t.reverse || p < 4 || a + 4 != p || b + 3 != p || c + 2 != p || d + 1 != p
        {
            return None;
        }
        let end = t.loop_region.map_or(usize::MAX, |(_, end)| end);
        let limit = end.min(t.frames).min(len);
        (t.position as f64 + reach + 2.0 < limit as f64).then_some(t.position)
    }

    /// Takes the state direct reads from `start` to `next` (exclusive) leave:
    /// the ring they filled, the positions they read, the transport after them.
    #[inline(always)]
    fn skip_to(&mut self, ring: [Frame; 4], start: usize, next: usize) {
        self.ring = ring;
        if next >= start + 4 {
            self.ring_at = [next - 4, next - 3, next - 2, next - 1];
        } else {
            for position in start..next {
                self.ring_at = [self.ring_at[1], self.ring_at[2], self.ring_at[3], position];
            }
        }
        self.transport.position = next;
        if next > start {
            self.until_empty = 4;
        }
    }

    /// Reads the frame of `source` at the transport into the ring and moves
    /// the transport on (kira's `update_position`).
    pub(super) fn push_from(&mut self, source: &Source) {
        match source.read() {
            Read::Frames(frames, _) => self.push(frames),
            Read::Mono(samples) => self.push(samples),
        }
    }

    /// Reads the frame at the transport into the ring and moves the transport on
    /// (kira's `update_position`).
    #[inline(always)]
    pub(super) fn push<S: Sample>(&mut self, frames: &[S]) {
        let frame = if self.transport.playing {
            frames.get(self.transport.position).map(|s| s.frame())
        } else {
            None
        };
        self.until_empty = if frame.is_some() {
            4
        } else {
            self.until_empty.saturating_sub(1)
        };
        self.ring = [
            self.ring[1],
            self.ring[2],
            self.ring[3],
            frame.unwrap_or_default(),
        ];
        self.ring_at = [
            self.ring_at[1],
            self.ring_at[2],
            self.ring_at[3],
            self.transport.position,
        ];
        self.transport.step();
    }
}

/// The gains and the rate of a step, moving by equal steps frame by frame.
#[derive(Clone, Copy)]
pub(super) struct Gains {
    pub(super) left: f32,
    pub(super) right: f32,
    pub(super) left_step: f32,
    pub(super) right_step: f32,
    pub(super) rate: f64,
    pub(super) rate_step: f64,
    pub(super) sample_rate: f64,
    /// A frame's duration.
    pub(super) dt: f64,
    /// The low-pass filter's coefficient, moving by equal steps, and its
    /// memory per channel.
    pub(super) coef: f32,
    pub(super) coef_step: f32,
    pub(super) memory: [f32; 2],
}

/// Reading through the transport, frame by frame: loops, reversal and the
/// sound's end.
struct General<'a, S> {
    reader: &'a mut Reader,
    frames: &'a [S],
}

impl<S: Sample> General<'_, S> {
    /// The four frames around the playhead.
    #[inline(always)]
    fn ring(&self) -> [Frame; 4] {
        self.reader.ring
    }

    /// Reads the next frame into the ring.
    #[inline(always)]
    fn push(&mut self) {
        self.reader.push(self.frames);
    }

    /// The sound is over and its last frames heard.
    #[inline(always)]
    fn ended(&self) -> bool {
        !self.reader.transport.playing && self.reader.until_empty == 0
    }
}

/// The four frames before `next` (`next` is at least 4 and within `frames`:
/// see [`Reader::direct_from`]; silence otherwise, never reached).
#[inline(always)]
fn four_before<S: Sample>(frames: &[S], next: usize) -> [Frame; 4] {
    match frames.get(next.wrapping_sub(4)..next) {
        Some(&[a, b, c, d]) => [a, b, c, d].map(S::frame),
        _ => [Frame::ZERO; 4],
    }
}

/// A step that moves the playhead by exactly one frame a frame from a frame:
/// the interpolation at 0 is the frame itself.
#[inline(always)]
fn unit(gains: &Gains, fraction: f64) -> bool {
    gains.rate_step == 0.0 && fraction == 0.0 && gains.sample_rate * gains.rate * gains.dt == 1.0
}

/// Adds `out.len()` frames of a voice to `out` (kira's interpolation, the
/// playhead moved as kira's static sounds move it); if its sound ended, after
/// how many frames (the rest of `out` is left as it was). A mono sound's
/// one channel is interpolated and heard in both. With `filter`, each channel
/// goes through the one-pole low-pass first.
#[inline(always)]
fn mix_frames<S: Sample, const MONO: bool>(
    out: &mut [Frame],
    gains: &mut Gains,
    fraction: &mut f64,
    read: &mut General<S>,
    filter: bool,
) -> Option<usize> {
    // A rate that does not move this step moves the playhead by the same
    // amount every frame: computed once, the same value. When that amount is
    // exactly one frame and the playhead sits on a frame, it stays on one:
    // the interpolation at 0 is the frame itself (`unit`).
    let steady = gains.rate_step == 0.0;
    let unit = unit(gains, *fraction);
    match (filter, steady, unit) {
        (true, true, _) => mix_channels::<S, MONO, true, false, true>(out, gains, fraction, read),
        (true, false, _) => mix_channels::<S, MONO, false, false, true>(out, gains, fraction, read),
        (false, _, true) => mix_channels::<S, MONO, true, true, false>(out, gains, fraction, read),
        (false, true, false) => {
            mix_channels::<S, MONO, true, false, false>(out, gains, fraction, read)
        }
        (false, false, _) => {
            mix_channels::<S, MONO, false, false, false>(out, gains, fraction, read)
        }
    }
}

#[inline(always)]
fn mix_channels<
    S: Sample,
    const MONO: bool,
    const STEADY: bool,
    const UNIT: bool,
    const FILTER: bool,
>(
    out: &mut [Frame],
    gains: &mut Gains,
    fraction: &mut f64,
    read: &mut General<S>,
) -> Option<usize> {
    let mut g = *gains;
    let mut at = *fraction;
    let mut ended = None;
    let steady = g.sample_rate * g.rate * g.dt;
    for (i, frame) in out.iter_mut().enumerate() {
        if !STEADY {
            g.rate += g.rate_step;
        }
        let [a, b, c, d] = read.ring();
        let x = at as f32;
        // At 0 the interpolation is the frame plus a signed zero: the same
        // bits once added to the mix (a sum that starts at +0 is never -0,
        // and adding a zero of either sign to it changes nothing).
        let left = if UNIT {
            b.left
        } else {
            hermite(a.left, b.left, c.left, d.left, x)
        };
        let right = if MONO || UNIT {
            b.right
        } else {
            hermite(a.right, b.right, c.right, d.right, x)
        };
        weigh::<MONO, FILTER>(frame, left, right, &mut g);
        at += if STEADY {
            steady
        } else {
            g.sample_rate * g.rate * g.dt
        };
        while at >= 1.0 {
            at -= 1.0;
            read.push();
        }
        if read.ended() {
            ended = Some(i + 1);
            break;
        }
    }
    *gains = g;
    *fraction = at;
    ended
}

/// Adds a frame of a voice, `left` and `right` as read, to `out`: through the
/// low-pass (with `FILTER`), then its gains, each a step further. A `MONO`
/// sound's `right` is its `left`.
#[inline(always)]
fn weigh<const MONO: bool, const FILTER: bool>(
    out: &mut Frame,
    mut left: f32,
    mut right: f32,
    g: &mut Gains,
) {
    g.left += g.left_step;
    g.right += g.right_step;
    if FILTER {
        [left, right] = filter::<MONO>(g, [left, right]);
    }
    if MONO {
        right = left;
    }
    out.left += left * g.left;
    out.right += right * g.right;
}

/// A frame through the one-pole low-pass, its coefficient a step further
/// (a `MONO` sound's right channel is left as it is).
#[inline(always)]
fn filter<const MONO: bool>(g: &mut Gains, [left, right]: [f32; 2]) -> [f32; 2] {
    // The filter's memory is the only chain from frame to frame: kept to
    // one multiplication and one addition (`y (1 - a) + a x`).
    g.coef += g.coef_step;
    let keep = 1.0 - g.coef;
    g.memory[0] = g.memory[0] * keep + g.coef * left;
    if !MONO {
        g.memory[1] = g.memory[1] * keep + g.coef * right;
        return g.memory;
    }
    [g.memory[0], right]
}

/// kira's `interpolate_frame` on one channel: the same 4-point, 3rd-order
/// Hermite polynomial (the x-form), its coefficients and its value worked out
/// in short chains of operations (sums paired, `(c3 x + c2) x^2 + (c1 x +
/// c0)`) rather than kira's long ones, so that four frames in flight wait
/// less on each other; within rounding of kira's samples. Generic over what a
/// sample is: one (`f32`), or four side by side (`wide::f32x4`, in
/// [`lanes`]), the same operations on each.
#[inline(always)]
pub(super) fn hermite<S>(previous: S, current: S, next_1: S, next_2: S, x: S) -> S
where
    S: Copy + Add<Output = S> + Sub<Output = S> + Mul<Output = S> + Mul<f32, Output = S>,
{
    let c0 = current;
    let c1 = (next_1 - previous) * 0.5;
    let c2 = (previous + next_1 * 2.0) - (current * 2.5 + next_2 * 0.5);
    let c3 = (next_2 - previous) * 0.5 + (current - next_1) * 1.5;
    (c3 * x + c2) * (x * x) + (c1 * x + c0)
}

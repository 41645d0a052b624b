//! kira's clocks, seen from the bank. kira moves its clocks once per chunk,
//! before the mixer renders that chunk: a clock that reaches a voice's start
//! time during a chunk is already past it when the chunk is rendered, and
//! kira's own sounds start at the chunk's first frame, up to a chunk early.
//! The bank remembers where each clock it waits on stood at the end of the
//! last chunk and places the moment between the two positions on its frame
//! (exact for a clock at a steady speed; a chunk is 128 frames by default).

use kira::clock::ClockId;
use kira::info::Info;

use super::voice::{State, Voice, Wait};

/// How many clocks the bank follows at once (a game waits on one or two).
const CLOCKS: usize = 8;

/// A followed clock: its position (ticks and fraction) at the end of chunk
/// `chunk`.
#[derive(Clone, Copy)]
struct Known {
    clock: ClockId,
    position: f64,
    chunk: u64,
}

/// The clocks the bank follows.
#[derive(Default)]
pub(super) struct Clocks {
    known: [Option<Known>; CLOCKS],
    /// Chunks rendered.
    chunk: u64,
}

/// Whether `clock` ticks and where it stands, in ticks.
fn position(info: &Info, clock: ClockId) -> Option<(bool, f64)> {
    let info = info.clock_info(clock)?;
    Some((info.ticking, info.time.ticks as f64 + info.time.fraction))
}

impl Clocks {
    /// A chunk of `frames` frames begins: each voice of `waiting` whose
    /// clock reached its time during the chunk waits the frames until that
    /// moment instead (none if the clock was not followed yet).
    pub(super) fn chunk(
        &mut self,
        frames: usize,
        info: &Info,
        waiting: &[u32],
        voices: &mut [Voice],
    ) {
        self.chunk += 1;
        for &slot in waiting {
            let voice = &mut voices[slot as usize];
            let State::Waiting(Wait::Clock(time)) = voice.state else {
                continue;
            };
            self.follow(time.clock);
            let Some((true, now)) = position(info, time.clock) else {
                continue;
            };
            let target = time.ticks as f64 + time.fraction;
            if now < target {
                continue;
            }
            let wait = match self.before(time.clock) {
                Some(before) if before < target && now > before => {
                    let along = (target - before) / (now - before) * frames as f64;
                    // Up to a millionth of a frame of rounding in the clock's sum.
                    (along - 1e-6).ceil().max(0.0) as u64
                }
                _ => 0,
            };
            voice.clock_reached(wait);
        }
        for known in self.known.iter_mut().flatten() {
            if let Some((_, now)) = position(info, known.clock) {
                known.position = now;
                known.chunk = self.chunk;
            }
        }
    }

    /// Where `clock` stood at the end of the last chunk, if followed then.
    fn before(&self, clock: ClockId) -> Option<f64> {
        self.known
            .iter()
            .flatten()
            .find(|k| k.clock == clock && k.chunk + 1 == self.chunk)
            .map(|k| k.position)
    }

    /// Follows `clock` from this chunk on, in place of the one seen longest
    /// ago if all places are taken.
    fn follow(&mut self, clock: ClockId) {
        if self.known.iter().flatten().any(|k| k.clock == clock) {
            return;
        }
        let oldest = self
            .known
            .iter_mut()
            .min_by_key(|k| k.map_or(0, |k| k.chunk + 1));
        if let Some(place) = oldest {
            *place = Some(Known {
                clock,
                position: f64::NAN,
                chunk: 0,
            });
        }
    }
}

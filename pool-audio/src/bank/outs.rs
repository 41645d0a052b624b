//! Where the bank mixes each voice: the sound-effects track (the bank's own
//! output, out 0), or the out of the bus its group routes to (see `bus.rs`):
//! a ring a tap on the bus's track reads in the same block.

use kira::Frame;
use rtrb::Producer;

use super::STEP;

/// One ring and the step being mixed into it.
struct Ring {
    producer: Producer<Frame>,
    step: [Frame; STEP],
    /// A voice has been mixed into it: from then on it gets every step, so
    /// its tap reads whole blocks (or, the first time, a block's end).
    active: bool,
}

/// The outs beside the bank's own.
pub(super) struct Outs {
    rings: Box<[Ring]>,
}

impl Outs {
    pub(super) fn new(producers: Vec<Producer<Frame>>) -> Self {
        Self {
            rings: producers
                .into_iter()
                .map(|producer| Ring {
                    producer,
                    step: [Frame::ZERO; STEP],
                    active: false,
                })
                .collect(),
        }
    }

    /// Where a voice of out `out` adds this step: `main` (the bank's own
    /// output) for out 0, or a ring's step of `main.len()` frames.
    #[inline]
    pub(super) fn target<'a>(&'a mut self, out: u8, main: &'a mut [Frame]) -> &'a mut [Frame] {
        let len = main.len();
        match usize::from(out)
            .checked_sub(1)
            .and_then(|i| self.rings.get_mut(i))
        {
            Some(ring) => {
                ring.active = true;
                &mut ring.step[..len]
            }
            None => main,
        }
    }

    /// Whether a voice has been mixed into a ring (which then gets every
    /// step).
    pub(super) fn active(&self) -> bool {
        self.rings.iter().any(|r| r.active)
    }

    /// The frames mixed into out `out` in this step (`None` for none).
    pub(super) fn step(&self, out: u8, len: usize) -> Option<&[Frame]> {
        let ring = self.rings.get(usize::from(out).checked_sub(1)?)?;
        ring.active.then(|| &ring.step[..len])
    }

    /// Writes every active ring's step of `len` frames (dropped if its tap has
    /// not read the last ones: a bus whose track does not play) and clears it.
    pub(super) fn flush(&mut self, len: usize) {
        for ring in self.rings.iter_mut().filter(|r| r.active) {
            if let Ok(chunk) = ring.producer.write_chunk_uninit(len) {
                chunk.fill_from_iter(ring.step[..len].iter().copied());
            }
            ring.step[..len].fill(Frame::ZERO);
        }
    }
}

//! The kira sound that plays a bus's out on the bus's track, and the effect
//! that learns the size of kira's blocks.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use kira::Frame;
use kira::effect::{Effect, EffectBuilder};
use kira::info::Info;
use kira::sound::{Sound, SoundData};
use rtrb::Consumer;

/// A bus's tap, before kira plays it.
pub(super) struct TapData(pub(super) Consumer<Frame>);

impl SoundData for TapData {
    type Error = Infallible;
    type Handle = ();

    fn into_sound(self) -> Result<(Box<dyn Sound>, ()), Infallible> {
        Ok((Box::new(Tap(self.0)), ()))
    }
}

/// Plays the frames the bank mixed into a bus's out in this block.
struct Tap(Consumer<Frame>);

impl Sound for Tap {
    fn process(&mut self, out: &mut [Frame], _dt: f64, _info: &Info) {
        let n = out.len();
        let available = self.0.slots();
        // Frames the bank wrote before the bus played (none in a running mix,
        // where it writes a block and the tap reads it): the oldest go.
        if available > n
            && let Ok(old) = self.0.read_chunk(available - n)
        {
            old.commit_all();
        }
        let take = available.min(n);
        // An out that began mid-block has frames for the block's end only.
        let (silent, heard) = out.split_at_mut(n - take);
        silent.fill(Frame::ZERO);
        if let Ok(chunk) = self.0.read_chunk(take) {
            let (first, second) = chunk.as_slices();
            heard[..first.len()].copy_from_slice(first);
            heard[first.len()..].copy_from_slice(second);
            chunk.commit_all();
        } else {
            heard.fill(Frame::ZERO);
        }
    }

    fn finished(&self) -> bool {
        self.0.is_abandoned() && self.0.is_empty()
    }
}

/// An effect that does nothing but learn, when kira adds its track, how many
/// frames kira's blocks hold at most (kira's internal buffer size).
pub(crate) struct Probe(pub(crate) Arc<AtomicUsize>);

impl EffectBuilder for Probe {
    type Handle = ();

    fn build(self) -> (Box<dyn Effect>, ()) {
        (Box::new(self), ())
    }
}

impl Effect for Probe {
    fn init(&mut self, _sample_rate: u32, internal_buffer_size: usize) {
        self.0.store(internal_buffer_size, Ordering::Relaxed);
    }

    fn process(&mut self, _input: &mut [Frame], _dt: f64, _info: &Info) {}
}

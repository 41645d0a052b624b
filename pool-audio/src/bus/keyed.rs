//! The gains side-chains set (see `sidechain.rs`): one slot per track of the
//! mix, written by the voice bank at the end of its block, and the effect
//! every bus and music track is made with that moves its track to its slot's
//! gain through the track's block.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use kira::Frame;
use kira::effect::{Effect, EffectBuilder};
use kira::info::Info;

/// A gain per track of the mix, as `f32` bits (1 when no side-chain acts).
pub(crate) struct KeyedGains(Box<[AtomicU32]>);

impl KeyedGains {
    pub(crate) fn new(slots: usize) -> Arc<Self> {
        Arc::new(Self(
            (0..slots)
                .map(|_| AtomicU32::new(1.0f32.to_bits()))
                .collect(),
        ))
    }

    /// Sets slot `slot`'s gain.
    pub(crate) fn set(&self, slot: usize, gain: f32) {
        if let Some(cell) = self.0.get(slot) {
            cell.store(gain.to_bits(), Ordering::Relaxed);
        }
    }

    fn get(&self, slot: usize) -> f32 {
        self.0
            .get(slot)
            .map_or(1.0, |cell| f32::from_bits(cell.load(Ordering::Relaxed)))
    }
}

/// The effect of one track's slot.
pub(crate) struct KeyedGain {
    gains: Arc<KeyedGains>,
    slot: usize,
    /// The gain at the end of the last block.
    last: f32,
}

impl KeyedGain {
    /// The effect of `slot`, starting at the gain the slot holds now (a track
    /// made while a side-chain holds it down starts down).
    pub(crate) fn new(gains: Arc<KeyedGains>, slot: usize) -> Self {
        let last = gains.get(slot);
        Self { gains, slot, last }
    }
}

impl EffectBuilder for KeyedGain {
    type Handle = ();

    fn build(self) -> (Box<dyn Effect>, ()) {
        (Box::new(self), ())
    }
}

impl Effect for KeyedGain {
    fn process(&mut self, input: &mut [Frame], _dt: f64, _info: &Info) {
        let to = self.gains.get(self.slot);
        let from = self.last;
        if from == 1.0 && to == 1.0 {
            return;
        }
        let delta = (to - from) / input.len() as f32;
        let mut gain = from;
        for frame in input.iter_mut() {
            gain += delta;
            *frame *= gain;
        }
        self.last = to;
    }
}

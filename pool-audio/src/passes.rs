//! Counting kira's processing passes, to know when kira has let go of a sound.
//!
//! kira removes a finished sound (freeing its slot on the track) at the start of
//! the processing pass *after* the sound reports `Stopped`. A track's effects get
//! `on_start_processing` right after the track has removed its finished sounds, so
//! an effect that counts those calls tells the game thread: once the count has moved
//! past the value seen when a sound was stopped, its slot is free again.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use kira::Frame;
use kira::effect::{Effect, EffectBuilder};
use kira::info::Info;

/// Added to the sound-effects track; passes audio through untouched.
pub(crate) struct PassCounterBuilder(pub(crate) Arc<AtomicU64>);

impl EffectBuilder for PassCounterBuilder {
    type Handle = ();

    fn build(self) -> (Box<dyn Effect>, ()) {
        (Box::new(PassCounter(self.0)), ())
    }
}

struct PassCounter(Arc<AtomicU64>);

impl Effect for PassCounter {
    fn on_start_processing(&mut self) {
        self.0.fetch_add(1, Ordering::Release);
    }

    fn process(&mut self, _input: &mut [Frame], _dt: f64, _info: &Info) {}
}

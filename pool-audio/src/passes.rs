//! What the game thread needs to know of kira's audio thread, read off the
//! sound-effects track by an effect that passes the audio through untouched.
//!
//! - Processing passes. kira removes a finished sound (freeing its slot on the
//!   track) at the start of the pass *after* the sound reports `Stopped`. A track's
//!   effects get `on_start_processing` right after the track has removed its
//!   finished sounds, so once the count has moved past the value seen when a sound
//!   was stopped, its slot is free again.
//! - The length of kira's processing chunk. Fades and delayed starts move in
//!   whole chunks (`internal_buffer_size` frames): a fade ends at the first chunk
//!   boundary at or after its duration, a delayed start begins at a chunk boundary
//!   up to one chunk early. A copy that must wait for another to fade out waits
//!   the fade plus one chunk. kira calls `init` on the game thread when the track is
//!   added, so the length is known before the first play.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use kira::Frame;
use kira::effect::{Effect, EffectBuilder};
use kira::info::Info;

/// Shared between the probe on the audio thread and the manager.
#[derive(Debug, Default)]
pub(crate) struct Probe {
    passes: AtomicU64,
    chunk_nanos: AtomicU64,
}

impl Probe {
    /// Processing passes so far.
    pub(crate) fn passes(&self) -> u64 {
        self.passes.load(Ordering::Acquire)
    }

    /// The longest kira processing chunk, rounded up to the nanosecond (a
    /// conservative 128 frames at 8 kHz until kira has told).
    pub(crate) fn chunk(&self) -> Duration {
        match self.chunk_nanos.load(Ordering::Relaxed) {
            0 => Duration::from_millis(16),
            nanos => Duration::from_nanos(nanos),
        }
    }
}

/// Added to the sound-effects track.
pub(crate) struct ProbeBuilder(pub(crate) Arc<Probe>);

impl EffectBuilder for ProbeBuilder {
    type Handle = ();

    fn build(self) -> (Box<dyn Effect>, ()) {
        (
            Box::new(ProbeEffect {
                probe: self.0,
                chunk_frames: 0,
            }),
            (),
        )
    }
}

struct ProbeEffect {
    probe: Arc<Probe>,
    chunk_frames: usize,
}

impl ProbeEffect {
    fn publish(&self, sample_rate: u32) {
        let nanos =
            (self.chunk_frames as u64 * 1_000_000_000).div_ceil(u64::from(sample_rate.max(1)));
        self.probe.chunk_nanos.store(nanos, Ordering::Relaxed);
    }
}

impl Effect for ProbeEffect {
    fn init(&mut self, sample_rate: u32, internal_buffer_size: usize) {
        self.chunk_frames = internal_buffer_size;
        self.publish(sample_rate);
    }

    fn on_change_sample_rate(&mut self, sample_rate: u32) {
        self.publish(sample_rate);
    }

    fn on_start_processing(&mut self) {
        self.probe.passes.fetch_add(1, Ordering::Release);
    }

    fn process(&mut self, _input: &mut [Frame], _dt: f64, _info: &Info) {}
}

//! What the mixer reports back to the game thread, through atomics: per slot, the
//! voice's ticket and phase, and its playhead when it was stopped; and how many
//! times it has read the command queue, which tells the game when the mixer can
//! no longer hold a removed sound.
//!
//! A slot's status is one `u64`: the ticket of the voice on it (the game counts
//! them per slot) and its [`Phase`]. The game writes [`Phase::Queued`] before it
//! sends a start, and may replace a queued start by a newer one (a same-frame
//! take-over) with a compare-and-swap; the mixer claims the start with a
//! compare-and-swap too, so a start the game replaced is never played, and one the
//! mixer already played is never replaced.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::source::Source;

/// Where a voice on a slot is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Phase {
    /// Sent by the game, not yet read by the mixer.
    Queued = 0,
    /// Read, waiting for its start time.
    Waiting = 1,
    Playing = 2,
    Pausing = 3,
    Paused = 4,
    Resuming = 5,
    Stopping = 6,
    /// Over: the slot is free.
    Done = 7,
}

impl Phase {
    fn from_bits(bits: u8) -> Self {
        match bits {
            0 => Self::Queued,
            1 => Self::Waiting,
            2 => Self::Playing,
            3 => Self::Pausing,
            4 => Self::Paused,
            5 => Self::Resuming,
            6 => Self::Stopping,
            _ => Self::Done,
        }
    }
}

/// A slot's ticket and phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Status {
    pub(crate) ticket: u32,
    pub(crate) phase: Phase,
}

impl Status {
    fn bits(self) -> u64 {
        (u64::from(self.ticket) << 8) | self.phase as u64
    }

    fn from_bits(bits: u64) -> Self {
        Self {
            ticket: (bits >> 8) as u32,
            phase: Phase::from_bits(bits as u8),
        }
    }
}

/// One slot's reports.
#[derive(Debug)]
struct SlotReport {
    status: AtomicU64,
    /// `f64` bits: the playhead (transport frames) when the voice was stopped
    /// or ended.
    stopped_at: AtomicU64,
    /// `f64` bits: the mixer's clock (see [`Shared::clock`]) when the voice
    /// ended, at the end of the 16-frame step it ended in.
    ended_at: AtomicU64,
    /// `f64` bits: its playhead (transport frames) at the end of the
    /// mixer's last chunk, for the voice table.
    playhead: AtomicU64,
}

/// Shared between the bank on the audio thread and the manager.
#[derive(Debug)]
pub(crate) struct Shared {
    slots: Box<[SlotReport]>,
    /// `false` once the game side is dropped: the bank is finished.
    alive: AtomicBool,
    /// `f64` bits: the seconds of audio the bank has rendered, stored at the
    /// end of each chunk: where the commands sent now take effect (offline,
    /// exactly; on a device, the block after the one under way).
    clock: AtomicU64,
    /// Times the mixer has read the whole command queue: counted after every
    /// command of the read was carried out, so every start sent before a read
    /// began has been played or dropped once the count is past that read.
    drains: AtomicU64,
    /// Sounds the game side left behind when it was dropped, kept until the
    /// bank (which holds this) is dropped by kira, on the game thread. Only the
    /// game thread locks it.
    kept: Mutex<Vec<Arc<Source>>>,
}

impl Shared {
    /// `slots` free slots.
    pub(crate) fn new(slots: usize) -> Self {
        let done = Status {
            ticket: 0,
            phase: Phase::Done,
        }
        .bits();
        Self {
            slots: (0..slots)
                .map(|_| SlotReport {
                    status: AtomicU64::new(done),
                    stopped_at: AtomicU64::new(0),
                    ended_at: AtomicU64::new(0),
                    playhead: AtomicU64::new(0),
                })
                .collect(),
            alive: AtomicBool::new(true),
            clock: AtomicU64::new(0),
            drains: AtomicU64::new(0),
            kept: Mutex::new(Vec::new()),
        }
    }

    pub(crate) fn slots(&self) -> usize {
        self.slots.len()
    }

    pub(crate) fn status(&self, slot: u32) -> Status {
        Status::from_bits(self.slots[slot as usize].status.load(Ordering::Acquire))
    }

    /// The playhead a voice had when it stopped or ended (read after its status
    /// says [`Phase::Stopping`] or [`Phase::Done`] for its ticket).
    pub(crate) fn stopped_at(&self, slot: u32) -> f64 {
        f64::from_bits(self.slots[slot as usize].stopped_at.load(Ordering::Relaxed))
    }

    /// Game side: a start for `ticket` is about to be sent to a free slot.
    pub(crate) fn queue(&self, slot: u32, ticket: u32) {
        let queued = Status {
            ticket,
            phase: Phase::Queued,
        };
        self.slots[slot as usize]
            .status
            .store(queued.bits(), Ordering::Release);
    }

    /// Game side: replaces the queued start of `old` by one of `new`; `false` if
    /// the mixer has read it already.
    pub(crate) fn replace(&self, slot: u32, old: u32, new: u32) -> bool {
        let queued = |ticket| {
            Status {
                ticket,
                phase: Phase::Queued,
            }
            .bits()
        };
        self.slots[slot as usize]
            .status
            .compare_exchange(
                queued(old),
                queued(new),
                Ordering::AcqRel,
                Ordering::Acquire,
            )
            .is_ok()
    }

    /// Mixer side: claims the queued start of `ticket`; `false` if the game
    /// replaced it.
    pub(crate) fn claim(&self, slot: u32, ticket: u32, phase: Phase) -> bool {
        let from = Status {
            ticket,
            phase: Phase::Queued,
        };
        let to = Status { ticket, phase };
        self.slots[slot as usize]
            .status
            .compare_exchange(from.bits(), to.bits(), Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// Mixer side: a claimed voice changed phase.
    pub(crate) fn publish(&self, slot: u32, ticket: u32, phase: Phase) {
        self.slots[slot as usize]
            .status
            .store(Status { ticket, phase }.bits(), Ordering::Release);
    }

    /// Mixer side: where a voice stopped, published before its phase.
    pub(crate) fn record_stop(&self, slot: u32, playhead: f64) {
        self.slots[slot as usize]
            .stopped_at
            .store(playhead.to_bits(), Ordering::Relaxed);
    }

    /// Mixer side: a voice ended at `seconds` of the mixer's clock,
    /// published before its phase.
    pub(crate) fn record_end(&self, slot: u32, seconds: f64) {
        self.slots[slot as usize]
            .ended_at
            .store(seconds.to_bits(), Ordering::Relaxed);
    }

    /// Mixer side: where the voice on `slot` is at the end of a chunk.
    pub(crate) fn record_playhead(&self, slot: u32, playhead: f64) {
        self.slots[slot as usize]
            .playhead
            .store(playhead.to_bits(), Ordering::Relaxed);
    }

    /// Game side: where the voice on `slot` was at the end of the mixer's
    /// last chunk (transport frames; read after its status names its
    /// ticket).
    pub(crate) fn playhead(&self, slot: u32) -> f64 {
        f64::from_bits(self.slots[slot as usize].playhead.load(Ordering::Relaxed))
    }

    /// When the voice on `slot` ended, on the mixer's clock (read after its
    /// status says [`Phase::Done`] for its ticket).
    pub(crate) fn ended_at(&self, slot: u32) -> f64 {
        f64::from_bits(self.slots[slot as usize].ended_at.load(Ordering::Relaxed))
    }

    /// Mixer side: `seconds` of audio rendered so far.
    pub(crate) fn set_clock(&self, seconds: f64) {
        self.clock.store(seconds.to_bits(), Ordering::Release);
    }

    /// Game side: the seconds of audio the bank has rendered.
    pub(crate) fn clock(&self) -> f64 {
        f64::from_bits(self.clock.load(Ordering::Acquire))
    }

    /// Game side: how long ago, in audio seconds, the voice on `slot` ended
    /// (read after its status says [`Phase::Done`]): 0 at the latest.
    pub(crate) fn ended_ago(&self, slot: u32) -> f64 {
        (self.clock() - self.ended_at(slot)).max(0.0)
    }

    /// Mixer side: the command queue was read to its end; `count` reads so
    /// far (only the mixer writes it).
    pub(crate) fn drained(&self, count: u64) {
        self.drains.store(count, Ordering::Release);
    }

    /// Game side: the reads of the command queue the mixer has finished.
    pub(crate) fn drains(&self) -> u64 {
        self.drains.load(Ordering::Acquire)
    }

    /// Game side: keeps `sources` until this is dropped.
    pub(crate) fn keep(&self, sources: impl Iterator<Item = Arc<Source>>) {
        let mut kept = match self.kept.lock() {
            Ok(kept) => kept,
            Err(poisoned) => poisoned.into_inner(),
        };
        kept.extend(sources);
    }

    pub(crate) fn alive(&self) -> bool {
        self.alive.load(Ordering::Relaxed)
    }

    pub(crate) fn close(&self) {
        self.alive.store(false, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_queued_start_is_either_replaced_or_claimed_never_both() {
        let shared = Shared::new(1);
        shared.queue(0, 1);
        assert!(shared.replace(0, 1, 2));
        assert!(!shared.claim(0, 1, Phase::Playing), "replaced: not played");
        assert!(shared.claim(0, 2, Phase::Playing));
        assert!(!shared.replace(0, 2, 3), "played: not replaced");
        assert_eq!(
            shared.status(0),
            Status {
                ticket: 2,
                phase: Phase::Playing
            }
        );
    }

    #[test]
    fn tickets_survive_the_round_trip() {
        for ticket in [0, 1, u32::MAX] {
            for phase in [Phase::Queued, Phase::Stopping, Phase::Done] {
                let status = Status { ticket, phase };
                assert_eq!(Status::from_bits(status.bits()), status);
            }
        }
    }
}

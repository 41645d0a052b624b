//! The voices that ended: collected as they end, reported by the next update,
//! in lists sized when the manager is made and never grown.

use crate::handles::{EndReason, Ended, SoundId, VoiceHandle, VoiceKey};

/// The fewest ends one update lists, whatever the settings: a burst of plays
/// that take over or recycle copies ends a voice per play.
pub(crate) const MIN_ENDED_REPORTS: usize = 1024;

pub(super) struct Reports {
    owner: u32,
    /// Ended since the last turn.
    ending: Vec<Ended>,
    /// Ended before the last turn: what the game reads.
    ended: Vec<Ended>,
    /// The most either list holds.
    capacity: usize,
    /// Ends not listed because `ending` was full.
    unreported: u64,
    /// For a capture, while one is under way: the voices made virtual (with
    /// why) or real again (`None`) since the last drain, in a list made when
    /// the capture started; and the moves it had no room for.
    moves: Option<Vec<(VoiceKey, Option<crate::voice_info::WhyVirtual>)>>,
    moves_dropped: u64,
}

impl Reports {
    /// Lists of `max(records, MIN_ENDED_REPORTS)` ends, as `owner`'s.
    pub(super) fn new(owner: u32, records: usize) -> Self {
        let capacity = records.max(MIN_ENDED_REPORTS);
        Self {
            owner,
            ending: Vec::with_capacity(capacity),
            ended: Vec::with_capacity(capacity),
            capacity,
            unreported: 0,
            moves: None,
            moves_dropped: 0,
        }
    }

    /// Lists the voices' moves (for a capture) or stops.
    pub(super) fn log_moves(&mut self, on: bool) {
        self.moves = on.then(|| Vec::with_capacity(2 * self.capacity));
        self.moves_dropped = 0;
    }

    /// The voice `key` was made virtual for `why`, or real again (`None`).
    #[inline]
    pub(super) fn moved(&mut self, key: VoiceKey, why: Option<crate::voice_info::WhyVirtual>) {
        if let Some(moves) = &mut self.moves {
            if moves.len() < moves.capacity() {
                moves.push((key, why));
            } else {
                self.moves_dropped += 1;
            }
        }
    }

    /// Hands each move since the last drain to `f`, and returns the moves
    /// not listed.
    pub(super) fn drain_moves(
        &mut self,
        mut f: impl FnMut(VoiceKey, Option<crate::voice_info::WhyVirtual>),
    ) -> u64 {
        if let Some(moves) = &mut self.moves {
            for (key, why) in moves.drain(..) {
                f(key, why);
            }
        }
        std::mem::take(&mut self.moves_dropped)
    }

    pub(super) fn handle(&self, key: VoiceKey) -> VoiceHandle {
        VoiceHandle {
            key,
            owner: self.owner,
        }
    }

    /// The voice `key` of `sound` ended for `reason`: listed, or counted if the
    /// list is full.
    pub(super) fn push(&mut self, key: VoiceKey, sound: SoundId, reason: EndReason) {
        if self.ending.len() < self.capacity {
            self.ending.push(Ended {
                voice: self.handle(key),
                sound,
                reason,
            });
        } else {
            self.unreported += 1;
        }
    }

    /// The ends listed since the last turn become the reported ones.
    pub(super) fn turn(&mut self) {
        self.ended.clear();
        std::mem::swap(&mut self.ended, &mut self.ending);
    }

    pub(super) fn ended(&self) -> &[Ended] {
        &self.ended
    }

    pub(super) fn unreported(&self) -> u64 {
        self.unreported
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_list_counts_what_it_cannot_hold_and_never_grows() {
        let mut reports = Reports::new(1, 0);
        let sound = SoundId {
            index: 0,
            generation: 0,
            owner: 1,
        };
        let extra = 10;
        let allocated = reports.ending.capacity();
        for _ in 0..MIN_ENDED_REPORTS + extra {
            reports.push(VoiceKey::default(), sound, EndReason::Recycled);
        }
        assert_eq!(reports.unreported(), extra as u64);
        assert_eq!(reports.ending.capacity(), allocated, "never grown");
        reports.turn();
        assert_eq!(reports.ended().len(), MIN_ENDED_REPORTS);
        reports.turn();
        assert!(reports.ended().is_empty());
    }
}

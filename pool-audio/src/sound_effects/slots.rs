//! kira slot accounting: everything the manager has asked kira for besides the
//! voice pool (the sounds with their copy indices, the kira sounds fading out),
//! and the bookkeeping that keeps kira's own limits from ever firing.
//!
//! The sound-effects track holds twice the voice cap: every live voice plus as
//! many stopped sounds still fading out. A stopped kira sound keeps its slot until
//! the first processing pass after it stopped, which the track's probe effect
//! counts (`passes.rs`), so a sound is counted here until that pass has begun.

use std::sync::Arc;
use std::time::Duration;

use kira::StartTime;
use kira::sound::PlaybackState;

use crate::copies::{FadingPool, Retire, Sound};
use crate::passes::Probe;
use crate::voice::VoiceKey;

pub(super) struct Slots {
    pub(super) sounds: Vec<Sound>,
    /// kira sounds that no voice owns any more but that may still be heard or
    /// hold a slot on the track.
    pub(super) fading: FadingPool,
    pub(super) probe: Arc<Probe>,
    /// The track's kira sound capacity: twice the voice cap.
    pub(super) capacity: usize,
    /// The real voices (a kira sound behind each), at most the voice cap.
    pub(super) real: Vec<VoiceKey>,
}

impl Slots {
    /// The one way a voice ends, borrowed apart from the voice pool (see
    /// [`Retire::voice`]).
    pub(super) fn retire(&mut self) -> Retire<'_> {
        Retire {
            sounds: &mut self.sounds,
            fading: &mut self.fading,
            real: &mut self.real,
        }
    }

    /// Room on the track for one more kira sound besides the real voices,
    /// counting the ones fading out.
    pub(super) fn has_room(&self) -> bool {
        self.real.len() + self.fading.live_len() < self.capacity
    }

    /// How long a copy that takes over an index waits: the steal fade and one
    /// kira chunk (see `passes.rs`).
    pub(super) fn handoff_delay(&self, steal_fade: Duration) -> Duration {
        steal_fade + self.probe.chunk() + Duration::from_micros(1)
    }

    /// When a copy that takes over an index may start: after the steal fade and
    /// one kira chunk (see `passes.rs`), or later if the data asks for later. A
    /// clock-synced start is kept as it is.
    pub(super) fn handoff(&self, start: StartTime, steal_fade: Duration) -> StartTime {
        let wait = self.handoff_delay(steal_fade);
        match start {
            StartTime::Immediate => StartTime::Delayed(wait),
            StartTime::Delayed(own) => StartTime::Delayed(own.max(wait)),
            clock => clock,
        }
    }

    /// Forgets the fading sounds kira has let go of. kira frees a sound's slot at the start of the first processing
    /// pass after it stopped: a sound is forgotten once a pass has started since it
    /// was seen stopped. The pass is read after the sound is seen stopped, so it is
    /// never one that began before the sound stopped.
    pub(super) fn forget_released(&mut self) {
        let probe = &self.probe;
        let pass = probe.passes();
        self.fading.reclaim(|_, fading| {
            let stopped = fading
                .kira
                .as_ref()
                .is_none_or(|kira| kira.state() == PlaybackState::Stopped);
            if stopped && fading.seen_stopped.is_none() {
                fading.seen_stopped = Some(probe.passes());
            }
            let gone = fading.seen_stopped.is_some_and(|seen| pass > seen);
            if gone {
                fading.kira = None;
            }
            gone
        });
    }
}

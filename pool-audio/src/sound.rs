//! A registered sound, its real copies and the plays remembered for its
//! retrigger interval.
//!
//! Copies of a sound are ranked by age, newest first, and copy `r` plays at
//! [`CopyVolumes::volume`]`(r)`: the voice bank applies those levels sample by
//! sample and keeps the copies' sum inside the sound's budget (see
//! `bank/budget.rs`). The manager keeps the copies in start order to know how
//! many there are, which is the oldest, and each one's level.

use std::sync::Arc;

use arrayvec::ArrayVec;

use crate::attenuation::{CopyVolumes, MAX_VOICES_PER_SOUND};
use crate::bank::Source;
use crate::level::decibels;
use crate::peak::SoundPeak;
use crate::playhead::Timeline;
use crate::settings::SoundSettings;
use crate::voice::VoiceKey;

/// A sound added to the manager.
pub(crate) struct Sound {
    pub(crate) name: String,
    /// Its frames and budget, as the voice bank reads them.
    pub(crate) source: Arc<Source>,
    pub(crate) settings: SoundSettings,
    pub(crate) peak: SoundPeak,
    pub(crate) volumes: CopyVolumes,
    pub(crate) min_retrigger: u64,
    /// Its real copies, oldest first.
    pub(crate) copies: ArrayVec<VoiceKey, MAX_VOICES_PER_SOUND>,
    /// The copies that may be real at once: `max_voices`, or fewer if the older
    /// ones would fall under the audibility floor (a play that would push the
    /// oldest copy under it is not started).
    pub(crate) audible: usize,
    /// Game time (microseconds), update count and place of the latest plays,
    /// newest last: one without a retrigger radius, up to `RECENT_PLAYS` with one.
    pub(crate) recent: ArrayVec<RecentPlay, RECENT_PLAYS>,
    /// Where its voices are in time (see `playhead.rs`).
    pub(crate) timeline: Timeline,
    /// The audibility floor as an amplitude (0 for a floor of -infinity).
    pub(crate) floor: f32,
}

impl Sound {
    /// `true` when a new copy needs an older one to give way.
    pub(crate) fn full(&self) -> bool {
        self.copies.len() >= self.audible
    }
}

/// How many of `volumes`' copies are at or above `floor_db`.
pub(crate) fn audible_copies(volumes: &CopyVolumes, floor_db: f64) -> usize {
    (0..volumes.copies())
        .take_while(|i| {
            let volume = volumes.volume(*i);
            volume > 0.0 && decibels(volume) >= floor_db
        })
        .count()
}

/// A play remembered for the retrigger interval.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RecentPlay {
    pub(crate) micros: u64,
    pub(crate) frame: u64,
    pub(crate) position: [f32; 3],
}

/// Plays remembered per sound with a retrigger radius: a play is held back by any
/// of them within the radius and the interval. Beyond 16 places at once in one
/// interval, the oldest is forgotten (and may let one more play through).
pub(crate) const RECENT_PLAYS: usize = 16;

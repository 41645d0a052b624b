//! Side-chain ducks: a target (a bus or a music track) lowered by as much as
//! a source bus is loud, and for as long, as a compressor keyed by the
//! source would (FMOD's and Wwise's side-chain, the dialogue that lowers the
//! music only while someone speaks and only as far as they are loud).
//!
//! The voice bank measures the source (the voices it mixes into the source
//! bus's out, before the bus's effects) at every step of the mixer (16
//! frames, or 128 while nothing fades): its peak, in
//! decibels, followed with the attack while it rises and the release while it
//! falls (a one-pole per step). Above the threshold, the target goes down by
//! `(level - threshold) * (1 - 1 / ratio)`, at most to `max`; the bank
//! publishes the gain at the end of each block, and a gain effect made with
//! every bus and music track moves to it through the target's own block, which
//! kira mixes after the bank's. A music track routed to no bus and made
//! (at its first piece) before the first bus was added sits beside the bank
//! and is mixed before it: a side-chain reaches it one block (kira's, 128
//! frames by default) later. Several side-chains on one target take the
//! deepest.

use std::time::Duration;

use kira::Decibels;

use crate::{MIN_MIX, MixError};

/// The most side-chains a manager holds.
pub const MAX_SIDECHAINS: usize = 8;

/// How a side-chain lowers its target. Fields are public, with builder
/// methods of the same names.
///
/// ```
/// use std::time::Duration;
/// use pool_audio::mix::SideChainSettings;
///
/// let under_dialogue = SideChainSettings::default().threshold(-36.0).ratio(4.0);
/// // 12 dB over the threshold: down by 9 dB, three quarters of it.
/// assert_eq!(under_dialogue.reduction_db(-24.0), -9.0);
/// assert_eq!(under_dialogue.attack, Duration::from_millis(50));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct SideChainSettings {
    /// The source level above which the target goes down, dBFS,
    /// `MIN_MIX..=0` (default -30).
    pub threshold: Decibels,
    /// How much the source over the threshold lowers the target: by
    /// `1 - 1 / ratio` of it (`1..=100`, default 4).
    pub ratio: f32,
    /// The deepest the target goes, `MIN_MIX..=0` (default -24 dB).
    pub max: Decibels,
    /// How fast the measured level follows a rising source (the time to 63%,
    /// `1 ms..=10 s`, default 50 ms).
    pub attack: Duration,
    /// How fast it follows a falling one (default 300 ms, same range).
    pub release: Duration,
}

impl Default for SideChainSettings {
    fn default() -> Self {
        Self {
            threshold: Decibels(-30.0),
            ratio: 4.0,
            max: Decibels(-24.0),
            attack: Duration::from_millis(50),
            release: Duration::from_millis(300),
        }
    }
}

impl SideChainSettings {
    /// Its threshold (an `f32` is dBFS).
    pub fn threshold(mut self, threshold: impl Into<Decibels>) -> Self {
        self.threshold = threshold.into();
        self
    }

    /// Its ratio.
    pub fn ratio(mut self, ratio: f32) -> Self {
        self.ratio = ratio;
        self
    }

    /// The deepest it lowers the target (an `f32` is decibels).
    pub fn max(mut self, max: impl Into<Decibels>) -> Self {
        self.max = max.into();
        self
    }

    /// Its attack.
    pub fn attack(mut self, attack: Duration) -> Self {
        self.attack = attack;
        self
    }

    /// Its release.
    pub fn release(mut self, release: Duration) -> Self {
        self.release = release;
        self
    }

    /// How far the target goes down (dB, at most 0) with the source
    /// measured at `level` dBFS.
    pub fn reduction_db(&self, level: f32) -> f32 {
        let over = (level - self.threshold.0).max(0.0);
        (-over * (1.0 - 1.0 / self.ratio)).max(self.max.0)
    }

    pub(crate) fn check(&self) -> Result<(), MixError> {
        let level = |db: Decibels| (MIN_MIX.0..=0.0).contains(&db.0);
        let time = |t: Duration| (Duration::from_millis(1)..=Duration::from_secs(10)).contains(&t);
        let ok = level(self.threshold)
            && level(self.max)
            && (1.0..=100.0).contains(&self.ratio)
            && time(self.attack)
            && time(self.release);
        if ok {
            Ok(())
        } else {
            Err(MixError::SideChain(*self))
        }
    }
}

/// A side-chain added to a manager.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SideChainId {
    pub(crate) index: u32,
    pub(crate) owner: u32,
}

/// A side-chain as the mixer gets it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SideChainOut {
    pub(crate) settings: SideChainSettings,
    /// The source bus's out.
    pub(crate) source: u8,
    /// The target's index in the mix (its gain's slot).
    pub(crate) target: u16,
}

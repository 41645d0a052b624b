//! The mix's gains inside the bank: one entry per voice group, and one for
//! every voice (the sound-effects track's own), each the sum in decibels of
//! three kira `Parameter`s the game sets with tweens: the group's ducking, its
//! snapshots and its loudness window. The game decides the values (see
//! `mix.rs`); the mixer moves them sample block by sample block, so a duck's
//! attack or a snapshot's blend is heard as a fade from its first block.
//!
//! Only the entries the game has touched are updated per step: a bank whose
//! mix is never used does no more work than before.

use kira::info::Info;
use kira::{Parameter, Tween, Value};

use crate::MAX_GROUPS;
use crate::level::amplitude;

/// The entry of every voice: the sound-effects track's mix (after the groups).
pub(crate) const ALL: u16 = MAX_GROUPS as u16;
/// The entry of every send (and zone) into out `n` is `SENDS + n`.
pub(crate) const SENDS: u16 = ALL + 1;
/// A voice in no group.
pub(crate) const NO_GROUP: u16 = u16::MAX;

/// Which of an entry's gains a command sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MixPart {
    Duck = 0,
    Snapshot = 1,
    Window = 2,
}

/// One entry: its three gains in dB, and their sum as an amplitude at the end
/// of the last step.
struct Entry {
    parts: [Parameter<f64>; 3],
    /// Already in `active`.
    listed: bool,
    /// Which parts have a tween not over yet (a bit each, delayed ones too).
    tweening: u8,
}

/// Every entry of the bank's mix.
pub(super) struct MixGains {
    entries: Box<[Entry]>,
    /// Amplitudes by entry, 1 for an untouched one.
    amplitude: Box<[f32]>,
    /// The entries touched so far (never more than `entries`: no allocation).
    active: Vec<u16>,
    /// An entry has a tween not over yet.
    moving: bool,
}

fn zero() -> Parameter<f64> {
    Parameter::new(Value::Fixed(0.0), 0.0)
}

impl MixGains {
    pub(super) fn new() -> Self {
        let n = MAX_GROUPS + 2 + crate::MAX_VOICE_BUSES;
        Self {
            entries: (0..n)
                .map(|_| Entry {
                    parts: [zero(), zero(), zero()],
                    listed: false,
                    tweening: 0,
                })
                .collect(),
            amplitude: vec![1.0; n].into_boxed_slice(),
            active: Vec::with_capacity(n),
            moving: false,
        }
    }

    /// Sets one gain of entry `entry` to `db` with `tween`, from `from` if
    /// given.
    pub(super) fn set(
        &mut self,
        entry: u16,
        part: MixPart,
        from: Option<f64>,
        db: f64,
        tween: Tween,
    ) {
        let Some(e) = self.entries.get_mut(usize::from(entry)) else {
            return;
        };
        let parameter = &mut e.parts[part as usize];
        if let Some(from) = from {
            *parameter = Parameter::new(Value::Fixed(from), from);
        }
        parameter.set(Value::Fixed(db), tween);
        e.tweening |= 1 << part as u8;
        self.moving = true;
        if !e.listed {
            e.listed = true;
            self.active.push(entry);
        }
    }

    /// Moves every touched entry on by `seconds`.
    pub(super) fn update(&mut self, seconds: f64, info: &Info) {
        let mut moving = false;
        for &index in &self.active {
            let entry = &mut self.entries[usize::from(index)];
            let mut db = 0.0;
            for (bit, part) in entry.parts.iter_mut().enumerate() {
                if part.update(seconds, info) {
                    entry.tweening &= !(1 << bit);
                }
                db += part.value();
            }
            moving |= entry.tweening != 0;
            // Every part is bounded where it is decided (at most +12 dB in
            // all); the clamp keeps a gain finite whatever comes.
            self.amplitude[usize::from(index)] = amplitude(db.clamp(-600.0, 24.0)) as f32;
        }
        self.moving = moving;
    }

    /// A gain's tween is not over (or has not begun): steps are fine ones.
    pub(super) fn moving(&self) -> bool {
        self.moving
    }

    /// The gain of a voice of group `group` (or [`NO_GROUP`]): its group's
    /// times every voice's.
    #[inline]
    pub(super) fn gain(&self, group: u16) -> f32 {
        let all = self.amplitude[usize::from(ALL)];
        self.amplitude
            .get(usize::from(group))
            .map_or(all, |g| g * all)
    }

    /// The gain of every send into out `out` (1 for an untouched one).
    #[inline]
    pub(super) fn send_gain(&self, out: u8) -> f32 {
        self.amplitude
            .get(usize::from(SENDS) + usize::from(out))
            .copied()
            .unwrap_or(1.0)
    }
}

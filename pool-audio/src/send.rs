//! Sends: a voice feeds a return bus (a reverb, a delay) beside its own, at a
//! level its sound's settings give, that the game changes while it plays and
//! that can follow the voice's distance (Wwise's game-defined auxiliary sends,
//! FMOD's and Unreal's sends to a return).
//!
//! A send is mixed where the voice is mixed: the bank renders a voice that has
//! sends once, into a scratch step, and adds the step to its own out and to
//! each send's out times the send's gain, which moves by equal steps to its
//! new value within the 16-frame step, as every gain of a voice does. A voice
//! with no send renders straight into its out, as before.

use kira::Decibels;

use crate::TrackId;
use crate::settings::SettingsError;

/// The most sends a sound's voices have.
pub const MAX_SENDS: usize = 4;

/// A send of a sound's voices to a return bus: its level, and optionally a
/// curve by distance added to it. The voice's own output goes on as before;
/// the return bus usually holds its reverb or delay fully wet (kira's
/// `Mix::WET`). Fields are public, with builder methods of the same names.
///
/// ```
/// use pool_audio::mix::{SendCurve, SendSettings};
/// # use pool_audio::kira::{AudioManager, AudioManagerSettings};
/// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings, mix::BusBuilder};
/// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
/// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
/// # let hall = sfx.mix_mut().add_bus("hall", BusBuilder::new())?;
///
/// // More reverb further away: -18 dB within 2 m, 0 dB from 40 m on.
/// let send = SendSettings::new(hall).distance(SendCurve::new(2.0..=40.0, -18.0, 0.0));
/// assert_eq!(send.curve_db(21.0), -9.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct SendSettings {
    /// The return bus (a bus of the manager the sound is added to).
    pub bus: TrackId,
    /// The send's level, `MIN_MIX..=MAX_MIX` (default 0 dB): what
    /// [`Voice::set_send`](crate::voices::Voice::set_send) changes.
    pub level: Decibels,
    /// Added to the level by the voice's distance from the listener (default
    /// none).
    pub distance: Option<SendCurve>,
}

impl SendSettings {
    /// A send to `bus` at 0 dB.
    pub fn new(bus: TrackId) -> Self {
        Self {
            bus,
            level: Decibels::IDENTITY,
            distance: None,
        }
    }

    /// Its level (an `f32` is decibels).
    pub fn level(mut self, level: impl Into<Decibels>) -> Self {
        self.level = level.into();
        self
    }

    /// A curve by distance added to its level.
    pub fn distance(mut self, curve: SendCurve) -> Self {
        self.distance = Some(curve);
        self
    }

    /// What the curve adds at `distance` metres (0 dB without one).
    pub fn curve_db(&self, distance: f32) -> f32 {
        self.distance.map_or(0.0, |curve| curve.at(distance))
    }

    /// Every value in range, and the bus's `out` resolved by the caller.
    pub(crate) fn check(&self) -> Result<(), SettingsError> {
        if !in_mix_range(self.level) {
            return Err(SettingsError::SendLevel(self.level));
        }
        if let Some(curve) = self.distance {
            curve.check()?;
        }
        Ok(())
    }
}

/// A send level that moves with distance: `near` dB at or within
/// `distances.start()` metres, `far` dB at or beyond `distances.end()`, linear
/// in decibels between.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SendCurve {
    /// Where the curve starts and ends, metres (`0 <= start < end`, finite).
    pub distances: (f32, f32),
    /// What it adds near, `MIN_MIX..=MAX_MIX`.
    pub near: Decibels,
    /// What it adds far, `MIN_MIX..=MAX_MIX`.
    pub far: Decibels,
}

impl SendCurve {
    /// A curve from `near` dB at the range's start to `far` dB at its end (an
    /// `f32` is decibels).
    pub fn new(
        distances: std::ops::RangeInclusive<f32>,
        near: impl Into<Decibels>,
        far: impl Into<Decibels>,
    ) -> Self {
        Self {
            distances: (*distances.start(), *distances.end()),
            near: near.into(),
            far: far.into(),
        }
    }

    /// What it adds at `distance` metres, dB.
    pub(crate) fn at(&self, distance: f32) -> f32 {
        let (start, end) = self.distances;
        let along = ((distance - start) / (end - start)).clamp(0.0, 1.0);
        let along = if along.is_nan() { 0.0 } else { along };
        self.near.0 + (self.far.0 - self.near.0) * along
    }

    fn check(&self) -> Result<(), SettingsError> {
        let (start, end) = self.distances;
        let ordered = start.is_finite() && end.is_finite() && start >= 0.0 && start < end;
        if ordered && in_mix_range(self.near) && in_mix_range(self.far) {
            Ok(())
        } else {
            Err(SettingsError::SendCurve(*self))
        }
    }
}

/// `level` in `MIN_MIX..=MAX_MIX`.
fn in_mix_range(level: Decibels) -> bool {
    (crate::MIN_MIX.0..=crate::MAX_MIX.0).contains(&level.0)
}

/// A sound's sends, at most [`MAX_SENDS`]: add them with
/// [`SoundSettings::send`](crate::SoundSettings::send).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Sends {
    list: [Option<SendSettings>; MAX_SENDS],
    /// A send was added to a full list (refused when the sound is added).
    overflow: bool,
}

impl Sends {
    /// Adds `send` (one more than [`MAX_SENDS`] makes the settings invalid).
    pub(crate) fn push(&mut self, send: SendSettings) {
        match self.list.iter_mut().find(|s| s.is_none()) {
            Some(free) => *free = Some(send),
            None => self.overflow = true,
        }
    }

    /// The sends, in the order added.
    pub fn iter(&self) -> impl Iterator<Item = &SendSettings> {
        self.list.iter().flatten()
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list[0].is_none()
    }

    /// Every send in range, and no more than [`MAX_SENDS`].
    pub(crate) fn check(&self) -> Result<(), SettingsError> {
        if self.overflow {
            return Err(SettingsError::TooManySends);
        }
        self.iter().try_for_each(SendSettings::check)
    }
}

/// A send as the mixer gets it: the out of its bus (0: no send), its level in
/// dB and its curve.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct SendOut {
    pub(crate) out: u8,
    pub(crate) level: f32,
    pub(crate) curve: Option<SendCurve>,
}

/// A voice's sends as the mixer gets them.
pub(crate) type SendOuts = [SendOut; MAX_SENDS];

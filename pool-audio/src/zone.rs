//! Zones: places of a level with a room sound (a cave, a hall, a tunnel). A
//! voice inside a zone sends to the zone's return bus at the zone's level;
//! outside, the send falls to nothing over the zone's fade distance, linearly,
//! so crossing the edge is a crossfade, never a step (Unreal's reverb volumes,
//! Godot's `Area3D` reverb buses, Wwise's rooms and game-defined sends). A
//! zone set to follow the listener sends every voice by where the listener
//! is: the room the player hears.
//!
//! The mixer weighs each voice against each zone once a chunk (when the voice,
//! the listener or a zone moved) and moves the send gains through the chunk by
//! equal steps, as it moves the spatial gains.

use crate::{MixError, TrackId};

/// The most zones a manager holds.
pub const MAX_ZONES: usize = 8;

/// A zone's shape, in the same space as positions.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum ZoneShape {
    /// A ball.
    Sphere {
        /// Its centre.
        center: [f32; 3],
        /// Its radius, metres (> 0).
        radius: f32,
    },
    /// A box aligned with the axes.
    Box {
        /// Its centre.
        center: [f32; 3],
        /// Half its size along each axis, metres (each > 0).
        half_extents: [f32; 3],
    },
}

impl ZoneShape {
    /// How far `point` is outside the shape, metres (0 inside).
    pub fn outside(&self, point: [f32; 3]) -> f32 {
        match *self {
            Self::Sphere { center, radius } => {
                let d = [0, 1, 2].map(|i| point[i] - center[i]);
                ((d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt() - radius).max(0.0)
            }
            Self::Box {
                center,
                half_extents,
            } => {
                let d =
                    [0, 1, 2].map(|i| ((point[i] - center[i]).abs() - half_extents[i]).max(0.0));
                (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
            }
        }
    }

    fn valid(&self) -> bool {
        let finite = |v: [f32; 3]| v.iter().all(|x| x.is_finite());
        match *self {
            Self::Sphere { center, radius } => finite(center) && radius.is_finite() && radius > 0.0,
            Self::Box {
                center,
                half_extents,
            } => finite(center) && finite(half_extents) && half_extents.iter().all(|h| *h > 0.0),
        }
    }
}

/// A zone: its shape, the return bus it sends to and at what level (a bus
/// whose reverb is usually fully wet: the voices' own output goes on as
/// before), how far outside its edge the send fades, and whose position
/// counts. Fields are
/// public, with builder methods of the same names.
///
/// ```
/// use pool_audio::mix::{ZoneSettings, ZoneShape};
/// # use pool_audio::kira::{AudioManager, AudioManagerSettings};
/// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings, mix::BusBuilder};
/// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
/// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
/// # let cave_reverb = sfx.mix_mut().add_bus("cave", BusBuilder::new())?;
///
/// let cave = ZoneSettings::new(ZoneShape::Sphere { center: [40.0, 0.0, 0.0], radius: 12.0 }, cave_reverb)
///     .level(-3.0)
///     .fade(4.0);
/// // Half faded 2 m outside its edge.
/// assert_eq!(cave.weight([54.0, 0.0, 0.0]), 0.5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct ZoneSettings {
    /// Where it is.
    pub shape: ZoneShape,
    /// The return bus it sends to (a bus of the manager).
    pub bus: TrackId,
    /// The send's level inside, `MIN_MIX..=MAX_MIX` (default 0 dB).
    pub level: kira::Decibels,
    /// How far outside the edge the send falls to nothing, metres (finite,
    /// `>= 0`; default 2 m; 0 is a step).
    pub fade: f32,
    /// Every voice sends by where the listener is, not by where it is itself
    /// (default `false`).
    pub follows_listener: bool,
}

impl ZoneSettings {
    /// A zone of `shape` sending to `bus` at 0 dB, fading over 2 m, by each
    /// voice's position.
    pub fn new(shape: ZoneShape, bus: TrackId) -> Self {
        Self {
            shape,
            bus,
            level: kira::Decibels::IDENTITY,
            fade: 2.0,
            follows_listener: false,
        }
    }

    /// The send's level inside (an `f32` is decibels).
    pub fn level(mut self, level: impl Into<kira::Decibels>) -> Self {
        self.level = level.into();
        self
    }

    /// How far outside the edge the send fades, metres.
    pub fn fade(mut self, fade: f32) -> Self {
        self.fade = fade;
        self
    }

    /// Every voice sends by where the listener is.
    pub fn follows_listener(mut self, follows: bool) -> Self {
        self.follows_listener = follows;
        self
    }

    /// The share of the zone's send at `point`: 1 inside, falling linearly to
    /// 0 at `fade` metres outside.
    pub fn weight(&self, point: [f32; 3]) -> f32 {
        let outside = self.shape.outside(point);
        if outside <= 0.0 {
            1.0
        } else if self.fade > 0.0 {
            (1.0 - outside / self.fade).max(0.0)
        } else {
            0.0
        }
    }

    /// Every value in range (its bus is checked by the caller).
    pub(crate) fn check(&self) -> Result<(), MixError> {
        if !self.shape.valid() {
            return Err(MixError::ZoneShape(self.shape));
        }
        if !(self.fade.is_finite() && self.fade >= 0.0) {
            return Err(MixError::ZoneFade(self.fade));
        }
        if !(crate::MIN_MIX.0..=crate::MAX_MIX.0).contains(&self.level.0) {
            return Err(MixError::Volume(self.level));
        }
        Ok(())
    }
}

/// A zone added to a manager.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ZoneId {
    pub(crate) index: u32,
    pub(crate) owner: u32,
    pub(crate) generation: u32,
}

/// A zone as the mixer gets it: its settings and the out of its bus.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ZoneOut {
    pub(crate) settings: ZoneSettings,
    pub(crate) out: u8,
}

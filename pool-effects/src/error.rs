//! Typed errors: kinds refused when added, refused spawns. Bad times are
//! [`pool_core::TimeError`], shared by every `update` of the workspace.

use core::fmt;

use pool_core::{AcquireError, KindId, SettingsError};

/// Why [`Effects::add_kind`](crate::Effects::add_kind) refused an effect kind.
///
/// ```
/// # use std::time::Duration;
/// use pool_effects::{AddKindError, EffectKind, Effects};
///
/// let mut effects = Effects::new();
/// let err = effects.add_kind(EffectKind::new("spark", 0, Duration::from_millis(50))).unwrap_err();
/// assert!(matches!(err, AddKindError::NoFrames { .. }));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum AddKindError {
    /// A kind of this name is already added.
    DuplicateName(String),
    /// `frame_count` is 0.
    NoFrames {
        /// The kind's name.
        name: String,
    },
    /// The frame interval is under a microsecond, or the whole animation
    /// would last longer than [`MAX_DURATION`](crate::MAX_DURATION).
    BadInterval {
        /// The kind's name.
        name: String,
        /// The interval given.
        interval: std::time::Duration,
    },
    /// The kind's time scale is NaN, infinite or negative.
    BadTimeScale {
        /// The kind's name.
        name: String,
        /// The scale given.
        scale: f32,
    },
    /// The kind's cull radius is NaN, infinite or negative.
    BadCullRadius {
        /// The kind's name.
        name: String,
        /// The radius given.
        radius: f32,
    },
    /// The kind's pool sizes are invalid.
    Pool {
        /// The kind's name.
        name: String,
        /// What is wrong with them.
        error: SettingsError,
    },
    /// The effects hold [`pool_core::MAX_KINDS`] (65,536) kinds already.
    TooManyKinds,
    /// The kinds' registry refused the kind for a reason of its own.
    Registry(pool_core::AddKindError),
}

impl fmt::Display for AddKindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DuplicateName(name) => {
                write!(f, "an effect kind named {name:?} is already added")
            }
            Self::NoFrames { name } => write!(
                f,
                "effect kind {name:?} has no frames (frame_count must be at least 1)"
            ),
            Self::BadInterval { name, interval } => write!(
                f,
                "effect kind {name:?} has frame interval {interval:?} (must be at least 1 us, and all frames at most 71 minutes)"
            ),
            Self::BadTimeScale { name, scale } => write!(
                f,
                "effect kind {name:?} has time scale {scale} (must be finite and at least 0)"
            ),
            Self::BadCullRadius { name, radius } => write!(
                f,
                "effect kind {name:?} has cull radius {radius} (must be finite and at least 0)"
            ),
            Self::Pool { name, error } => write!(f, "effect kind {name:?}: {error}"),
            Self::TooManyKinds => write!(
                f,
                "no more effect kinds: a registry holds at most {} kinds",
                pool_core::MAX_KINDS
            ),
            Self::Registry(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for AddKindError {}

/// Why [`Effects::set_kind_time_scale`](crate::Effects::set_kind_time_scale)
/// changed nothing.
///
/// ```
/// # use std::time::Duration;
/// use pool_effects::{EffectKind, Effects, KindScaleError};
///
/// let mut effects = Effects::new();
/// let hit = effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)))?;
/// assert!(matches!(effects.set_kind_time_scale(hit, -1.0), Err(KindScaleError::Time(_))));
/// assert!(matches!(Effects::new().set_kind_time_scale(hit, 1.0), Err(KindScaleError::UnknownKind(_))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum KindScaleError {
    /// The kind id was not issued by this `Effects`.
    UnknownKind(KindId),
    /// The scale is NaN, infinite or negative.
    Time(pool_core::TimeError),
}

impl fmt::Display for KindScaleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownKind(kind) => write!(f, "effect kind #{} is not defined", kind.index()),
            Self::Time(error) => write!(f, "time scale: {error}"),
        }
    }
}

impl std::error::Error for KindScaleError {}

/// Why [`Effects::spawn`](crate::Effects::spawn) did not spawn.
///
/// ```
/// # use std::time::Duration;
/// use pool_effects::{EffectKind, Effects, SpawnError};
///
/// let mut effects = Effects::new();
/// let flash = effects.add_kind(EffectKind::new("flash", 2, Duration::from_millis(50)).pool(0, 1).strict())?;
/// effects.spawn(flash, [0.0, 0.0])?;
/// assert!(matches!(effects.spawn(flash, [0.0, 0.0]), Err(SpawnError::PoolFull { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SpawnError {
    /// The kind id was not issued by this `Effects`.
    UnknownKind(KindId),
    /// No kind has this name (from [`Effects::spawn_named`](crate::Effects::spawn_named)).
    UnknownName(String),
    /// A spawn position with a NaN or infinite coordinate (the position given).
    /// Such an effect could never be culled or drawn where it is meant to be;
    /// as [`Effects::set_view`](crate::Effects::set_view) refuses such a view,
    /// a spawn refuses such a place, before anything changes.
    BadPosition(crate::Vec2),
    /// A spawn offset above [`MAX_SPAWN_OFFSET`](crate::MAX_SPAWN_OFFSET)
    /// (from [`Effects::spawn_offset`](crate::Effects::spawn_offset)).
    BadOffset(std::time::Duration),
    /// The kind's pool is full and its policy is strict.
    PoolFull {
        /// The kind.
        kind: KindId,
        /// Why the pool refused.
        error: AcquireError,
    },
}

impl fmt::Display for SpawnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownKind(kind) => write!(f, "effect kind #{} is not defined", kind.index()),
            Self::UnknownName(name) => write!(f, "no effect kind is named {name:?}"),
            Self::BadPosition(at) => write!(
                f,
                "spawn position ({}, {}) is not finite: both coordinates must be numbers, not NaN or infinite",
                at.x, at.y
            ),
            Self::BadOffset(offset) => write!(
                f,
                "spawn offset {offset:?} is over {:?}",
                crate::MAX_SPAWN_OFFSET
            ),
            Self::PoolFull { kind, error } => {
                write!(f, "effect kind #{}: {error}", kind.index())
            }
        }
    }
}

impl std::error::Error for SpawnError {}

/// Why [`Effects::set_view`](crate::Effects::set_view) kept the view it had.
///
/// ```
/// use pool_effects::{Effects, View, ViewError};
///
/// let mut effects = Effects::new();
/// let flipped = View::new([10.0, 0.0], [0.0, 10.0]);
/// assert!(matches!(effects.set_view(flipped), Err(ViewError::Inverted { .. })));
/// let broken = View::new([f32::NAN, 0.0], [1.0, 1.0]);
/// assert!(matches!(effects.set_view(broken), Err(ViewError::NotFinite { .. })));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum ViewError {
    /// A corner has a NaN or infinite coordinate.
    NotFinite {
        /// The view given.
        view: crate::View,
    },
    /// `min` is above `max` on an axis.
    Inverted {
        /// The view given.
        view: crate::View,
    },
}

impl fmt::Display for ViewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, view) = match self {
            Self::NotFinite { view } => ("has a coordinate that is not finite", view),
            Self::Inverted { view } => ("has min above max", view),
        };
        write!(
            f,
            "view ({}, {})..({}, {}) {what}",
            view.min.x, view.min.y, view.max.x, view.max.y
        )
    }
}

impl std::error::Error for ViewError {}

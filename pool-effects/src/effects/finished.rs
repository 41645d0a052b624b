//! What the game learns of the one-shots that ended in an update, and of what
//! followed them.

use pool_core::{AcquireError, KindId};

use super::EffectHandle;
use crate::effect::{Rgba, Vec2};

/// A one-shot effect that ended during the last
/// [`Effects::update`](super::Effects::update): a queued message the game reads
/// after the update, instead of a callback from inside it (which could not touch
/// `Effects` while the update holds it).
///
/// ```
/// # use std::time::Duration;
/// use pool_effects::{EffectKind, Effects};
///
/// let mut effects = Effects::new();
/// let boom = effects.add_kind(EffectKind::new("boom", 3, Duration::from_millis(100)))?;
/// let handle = effects.spawn(boom, [5.0, 5.0])?;
/// effects.update(0.3)?;
/// let done = &effects.finished()[0];
/// assert_eq!((done.handle, done.kind), (handle, boom));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Finished {
    /// The effect's (now stale) handle.
    pub handle: EffectHandle,
    /// Its kind.
    pub kind: KindId,
    /// Its tag, to find the game entity it belonged to.
    pub tag: u64,
    /// Where it was.
    pub position: Vec2,
    /// Its rotation, radians.
    pub rotation: f32,
    /// Its scale.
    pub scale: Vec2,
    /// Its tint.
    pub tint: Rgba,
    /// What its kind's [follow-up](crate::EffectKind::follow_up) did.
    pub follow_up: FollowUp,
}

/// What followed an effect that ended: see
/// [`EffectKind::follow_up`](crate::EffectKind::follow_up).
///
/// ```
/// # use std::time::Duration;
/// use pool_effects::{EffectKind, Effects, FollowUp};
///
/// let mut effects = Effects::new();
/// let flash = effects.add_kind(EffectKind::new("flash", 1, Duration::from_millis(50)).follow_up("spark"))?;
/// effects.add_kind(EffectKind::new("spark", 2, Duration::from_millis(50)).pool(0, 1).strict())?;
/// effects.spawn(flash, [0.0, 0.0])?;
/// effects.spawn(flash, [1.0, 0.0])?;
/// effects.update(0.05)?;
/// // One spark fits its strict pool of 1; the second is refused, and counted.
/// assert!(matches!(effects.finished()[0].follow_up, FollowUp::Spawned(_)));
/// assert!(matches!(effects.finished()[1].follow_up, FollowUp::Refused(_)));
/// assert_eq!(effects.stats(flash).unwrap().follow_ups_refused, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FollowUp {
    /// The kind has no follow-up.
    None,
    /// The follow-up started: its handle.
    Spawned(EffectHandle),
    /// The follow-up kind's pool refused (a strict kind at its cap).
    Refused(AcquireError),
    /// No kind of the follow-up's name has been added.
    Undefined,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finished_event_takes_88_bytes() {
        // The crate docs' memory figures use this size.
        assert_eq!(core::mem::size_of::<Finished>(), 88);
    }
}

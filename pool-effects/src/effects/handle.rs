//! The handle the game keeps for a live effect.

use pool_core::{Handle, KindHandle, KindId};

/// A handle to a live effect: its kind and a generational handle in the kind's
/// pool. `Copy`, 12 bytes. Stale once the effect finished, was stopped, recycled or
/// cleared.
///
/// ```
/// # use std::time::Duration;
/// use pool_effects::{EffectKind, Effects};
///
/// let mut effects = Effects::new();
/// let hit = effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)))?;
/// let spark = effects.spawn(hit, [0.0, 0.0])?;
/// assert_eq!(spark.kind(), hit);
/// effects.update(0.2)?; // two frames of 0.1 s: done
/// assert!(effects.get(spark).is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EffectHandle(pub(crate) KindHandle<Handle>);

impl EffectHandle {
    pub(crate) fn from_parts(handle: KindHandle<Handle>) -> Self {
        Self(handle)
    }

    /// The effect's kind.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// # let mut effects = Effects::new();
    /// # let hit = effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)))?;
    /// assert_eq!(effects.spawn(hit, [0.0, 0.0])?.kind(), hit);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn kind(&self) -> KindId {
        self.0.kind()
    }
}

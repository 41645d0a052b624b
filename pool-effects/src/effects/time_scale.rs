//! How fast effects run: one scale for all, one per kind (each effect's own
//! is on [`EffectMut`](crate::EffectMut)).

use pool_core::{KindId, TimeError};

use super::Effects;
use crate::clock;
use crate::error::KindScaleError;

impl Effects {
    /// How fast every effect runs (1 by default; 0 pauses them all: a pause
    /// menu, a hit-stop; 0.25 is slow motion). It multiplies each kind's scale
    /// ([`EffectKind::time_scale`](crate::EffectKind::time_scale)) and each
    /// effect's own. Kept to 1/65536.
    ///
    /// # Errors
    /// [`TimeError`] for a NaN, infinite or negative scale; nothing changes.
    ///
    /// ```
    /// # use std::time::Duration;
    /// use pool_effects::{EffectKind, Effects};
    ///
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 4, Duration::from_millis(100)))?;
    /// let spark = effects.spawn(hit, [0.0, 0.0])?;
    /// effects.set_time_scale(0.0)?; // hit-stop
    /// effects.update(1.0)?;
    /// assert_eq!(effects.get(spark).unwrap().elapsed(), Duration::ZERO);
    /// effects.set_time_scale(0.5)?;
    /// effects.update(0.2)?;
    /// assert_eq!(effects.get(spark).unwrap().frame(), 1);
    /// assert!(effects.set_time_scale(f32::NAN).is_err());
    /// assert_eq!(effects.time_scale(), 0.5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_time_scale(&mut self, scale: f32) -> Result<(), TimeError> {
        self.time_scale = clock::fixed_scale(scale)?;
        Ok(())
    }

    /// The global time scale (see [`set_time_scale`](Self::set_time_scale)).
    pub fn time_scale(&self) -> f32 {
        clock::scale_to_f32(self.time_scale)
    }

    /// Sets one kind's time scale (see
    /// [`EffectKind::time_scale`](crate::EffectKind::time_scale)): slow one kind
    /// down, or pause it, while the rest play on.
    ///
    /// # Errors
    /// [`KindScaleError::UnknownKind`] for an id this `Effects` did not issue,
    /// [`KindScaleError::Time`] for a NaN, infinite or negative scale; nothing
    /// changes.
    ///
    /// ```
    /// # use std::time::Duration;
    /// use pool_effects::{EffectKind, Effects};
    ///
    /// let mut effects = Effects::new();
    /// let smoke = effects.add_kind(EffectKind::new("smoke", 4, Duration::from_millis(100)))?;
    /// let puff = effects.spawn(smoke, [0.0, 0.0])?;
    /// effects.set_kind_time_scale(smoke, 0.0)?;
    /// effects.update(1.0)?;
    /// assert_eq!(effects.get(puff).unwrap().frame(), 0);
    /// assert_eq!(effects.kind_time_scale(smoke), Some(0.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_kind_time_scale(&mut self, kind: KindId, scale: f32) -> Result<(), KindScaleError> {
        let fixed = clock::fixed_scale(scale).map_err(KindScaleError::Time)?;
        let Some((_, entry)) = self.pools.with_data_mut(kind) else {
            return Err(KindScaleError::UnknownKind(kind));
        };
        entry.time_scale = fixed;
        entry.definition.time_scale = scale;
        Ok(())
    }

    /// A kind's time scale, `None` for an id this `Effects` did not issue.
    pub fn kind_time_scale(&self, kind: KindId) -> Option<f32> {
        self.entry(kind)
            .map(|entry| clock::scale_to_f32(entry.time_scale))
    }
}

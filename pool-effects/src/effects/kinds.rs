//! Effect kinds: added once, with their pools; names resolved to ids there.

use pool_core::{AddKindError as PoolAddKindError, KindId, Pool};

use super::{Effects, KindEntry};
use crate::clock;
use crate::effect::Effect;
use crate::error::AddKindError;
use crate::kind::{EffectKind, Playback, Timing};
use crate::lane::Lane;

impl Effects {
    /// Adds a kind and creates its `initial` instances now.
    ///
    /// # Errors
    /// [`AddKindError`] for a duplicate name, no frames, an interval that is not a
    /// finite number of seconds above 0, or invalid pool sizes. Nothing is added
    /// then.
    ///
    /// ```
    /// # use std::time::Duration;
    /// use pool_effects::{EffectKind, Effects};
    ///
    /// let mut effects = Effects::new();
    /// let explosion = effects.add_kind(EffectKind::new("explosion", 12, Duration::from_secs_f64(1.0 / 30.0)).pool(1000, 1000))?;
    /// assert_eq!(effects.stats(explosion).unwrap().pool.idle, 1000);
    /// assert!(effects.add_kind(EffectKind::new("explosion", 1, Duration::from_millis(100))).is_err());
    /// # Ok::<(), pool_effects::AddKindError>(())
    /// ```
    pub fn add_kind(&mut self, kind: EffectKind) -> Result<KindId, AddKindError> {
        self.insert(kind, true)
    }

    /// Like [`add_kind`](Self::add_kind) but creates no instance yet: spread the
    /// `initial` instances over frames with [`prewarm_step`](Self::prewarm_step).
    ///
    /// # Errors
    /// The same as [`add_kind`](Self::add_kind).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let smoke = effects.add_kind_lazy(EffectKind::new("smoke", 8, Duration::from_millis(100)).pool(1000, 1000))?;
    /// assert_eq!(effects.stats(smoke).unwrap().pool.total, 0);
    /// # Ok::<(), pool_effects::AddKindError>(())
    /// ```
    pub fn add_kind_lazy(&mut self, kind: EffectKind) -> Result<KindId, AddKindError> {
        self.insert(kind, false)
    }

    fn insert(&mut self, kind: EffectKind, prewarm: bool) -> Result<KindId, AddKindError> {
        let timing = validate(&kind)?;
        let time_scale =
            clock::fixed_scale(kind.time_scale).map_err(|_| AddKindError::BadTimeScale {
                name: kind.name.clone(),
                scale: kind.time_scale,
            })?;
        if !(kind.cull_radius.is_finite() && kind.cull_radius >= 0.0) {
            return Err(AddKindError::BadCullRadius {
                name: kind.name.clone(),
                radius: kind.cull_radius,
            });
        }
        if self.pools.kind(&kind.name).is_some() {
            return Err(AddKindError::DuplicateName(kind.name));
        }
        let builder = Pool::builder(Effect::idle)
            .initial(kind.initial)
            .max_objects(kind.max_objects)
            .policy(kind.policy);
        let name = kind.name.clone();
        let entry = KindEntry {
            timing,
            finished: 0,
            reinitialized: 0,
            // Resolved below, once the kind is added (it may follow itself).
            follow_up: None,
            time_scale,
            follow_ups: 0,
            follow_ups_refused: 0,
            lane: Lane::default(),
            culled: 0,
            ended_offscreen: 0,
            offscreen: kind.offscreen,
            cull_radius: kind.cull_radius,
            definition: kind,
        };
        let added = if prewarm {
            self.pools.add_kind_with(&name, builder, entry)
        } else {
            self.pools.add_kind_lazy_with(&name, builder, entry)
        };
        let id = added.map_err(|error| registry_error(&name, error))?;
        // Resolve chains both ways: the kinds whose follow-up is this kind
        // (this one included), and this kind's follow-up.
        let mut follows = None;
        for (kind, _, entry) in self.pools.iter_with_data_mut() {
            if entry.definition.follow_up.as_deref() == Some(name.as_str()) {
                entry.follow_up = Some(id);
            }
            if kind == id {
                follows = entry.definition.follow_up.clone();
            }
        }
        let follow_up = follows.and_then(|next| self.pools.kind(&next));
        if let Some((_, entry)) = self.pools.with_data_mut(id) {
            entry.follow_up = follow_up;
        }
        self.reserve_for_instances();
        self.draw_order.push(id);
        let pools = &self.pools;
        self.draw_order.sort_by_key(|kind| {
            (
                pools
                    .with_data(*kind)
                    .map_or(0, |(_, e)| e.definition.layer),
                kind.index(),
            )
        });
        Ok(id)
    }

    /// The id of the kind named `name`. Resolve once, keep the id.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)))?;
    /// assert_eq!(effects.kind("hit"), Some(hit));
    /// # Ok::<(), pool_effects::AddKindError>(())
    /// ```
    pub fn kind(&self, name: &str) -> Option<KindId> {
        self.pools.kind(name)
    }

    /// The name a kind was added under (`None` for another `Effects`' id).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)))?;
    /// assert_eq!(effects.name(hit), Some("hit"));
    /// assert_eq!(Effects::new().name(hit), None);
    /// # Ok::<(), pool_effects::AddKindError>(())
    /// ```
    pub fn name(&self, kind: KindId) -> Option<&str> {
        self.pools.name(kind)
    }

    /// The definition of a kind.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 2, Duration::from_millis(100)))?;
    /// assert_eq!(effects.definition(hit).unwrap().name, "hit");
    /// # Ok::<(), pool_effects::AddKindError>(())
    /// ```
    pub fn definition(&self, kind: KindId) -> Option<&EffectKind> {
        self.entry(kind).map(|entry| &entry.definition)
    }

    /// Every defined kind, in definition order.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let a = effects.add_kind(EffectKind::new("a", 2, Duration::from_millis(100)))?;
    /// let b = effects.add_kind(EffectKind::new("b", 2, Duration::from_millis(100)))?;
    /// assert!(effects.kinds().eq([a, b]));
    /// # Ok::<(), pool_effects::AddKindError>(())
    /// ```
    pub fn kinds(&self) -> impl ExactSizeIterator<Item = KindId> + '_ {
        self.pools.kinds()
    }
}

fn validate(kind: &EffectKind) -> Result<Timing, AddKindError> {
    if kind.frame_count == 0 {
        return Err(AddKindError::NoFrames {
            name: kind.name.clone(),
        });
    }
    let interval = match crate::clock::duration_micros(kind.frame_interval) {
        micros if micros > 0 => micros,
        _ => {
            return Err(AddKindError::BadInterval {
                name: kind.name.clone(),
                interval: kind.frame_interval,
            });
        }
    };
    // The whole animation, with the clock's `START`, fits a clock's `u32`.
    let fits = interval
        .checked_mul(u64::from(kind.frame_count))
        .is_some_and(|duration| duration <= u64::from(u32::MAX) - clock::START);
    if !fits {
        return Err(AddKindError::BadInterval {
            name: kind.name.clone(),
            interval: kind.frame_interval,
        });
    }
    Ok(Timing::new(
        interval,
        kind.frame_count,
        kind.playback == Playback::Loop,
    ))
}
/// The effects' own error for what the kinds' registry refused.
fn registry_error(name: &str, error: PoolAddKindError) -> AddKindError {
    match error {
        PoolAddKindError::Settings(error) => AddKindError::Pool {
            name: name.to_string(),
            error,
        },
        PoolAddKindError::DuplicateName(name) => AddKindError::DuplicateName(name),
        PoolAddKindError::TooManyKinds => AddKindError::TooManyKinds,
        other => AddKindError::Registry(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_registry_is_reported_as_too_many_kinds_not_a_duplicate_name() {
        let full = registry_error("spark", PoolAddKindError::TooManyKinds);
        assert_eq!(full, AddKindError::TooManyKinds);
        assert!(full.to_string().contains("at most 65536 kinds"), "{full}");
        let taken = registry_error("spark", PoolAddKindError::DuplicateName("spark".into()));
        assert_eq!(taken, AddKindError::DuplicateName("spark".into()));
    }
}

//! Positioned sounds: the emitters (pooled kira spatial sub-tracks, see
//! `emitter_pool.rs`) created ahead of need, and the listener they are heard from.

use super::SoundEffects;
use crate::params::{ParamError, check_position};

impl SoundEffects {
    /// Creates up to `count` more emitters now (never beyond
    /// [`SoundEffectsSettings::emitters`](crate::SoundEffectsSettings::emitters)), so the first positioned sounds do not
    /// create them; returns how many were created. Each idle emitter costs the
    /// audio thread a little, which is why none exists until needed.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings { emitters: 8, ..Default::default() })?;
    /// assert_eq!(sfx.prewarm_emitters(100), 8);
    /// assert_eq!(sfx.prewarm_emitters(1), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prewarm_emitters(&mut self, count: usize) -> usize {
        self.slots.emitters.prewarm(&mut self.track, count)
    }

    /// Moves the listener positioned sounds are heard from (and measured from by
    /// [`Stealing::Furthest`](crate::Stealing::Furthest)).
    ///
    /// # Errors
    /// [`ParamError::Position`] for a NaN or infinite coordinate; the listener
    /// stays where it was.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// sfx.set_listener([1.0, 2.0, 3.0])?;
    /// assert!(sfx.set_listener([f32::NAN, 0.0, 0.0]).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_listener(
        &mut self,
        position: impl Into<mint::Vector3<f32>>,
    ) -> Result<(), ParamError> {
        let position = check_position(position.into())?;
        self.listener = position;
        self.slots.emitters.set_listener(position);
        Ok(())
    }
}

//! The listener positioned voices are heard from (see `spatial.rs`).

use super::SoundEffects;
use crate::params::{ParamError, check_position};

impl SoundEffects {
    /// Moves the listener positioned voices are heard from (and measured from by
    /// [`Stealing::Furthest`](crate::Stealing::Furthest)). The real positioned
    /// voices are heard from the new place at once (kira spreads the change over
    /// its next processing chunk); which voices are real follows at the next
    /// [`update`](Self::update).
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
        for key in &self.slots.real {
            if let Some(voice) = self.voices.get_mut(*key) {
                voice.respatialize(position, self.now);
            }
        }
        Ok(())
    }
}

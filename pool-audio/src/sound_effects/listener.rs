//! The listener positioned voices are heard from (see `spatial.rs`).

use super::SoundEffects;
use crate::bank::Command;
use crate::error::VoiceError;
use crate::params::check_position;

impl SoundEffects {
    /// Moves the listener positioned voices are heard from (and measured from by
    /// [`Stealing::Furthest`](crate::Stealing::Furthest)). The real positioned
    /// voices are heard from the new place from the mixer's next block (the change
    /// spread over its first processing chunk); which voices are real follows at
    /// the next [`update`](Self::update). One command, however many voices.
    ///
    /// # Errors
    /// [`VoiceError::InvalidParam`] for a NaN or infinite coordinate,
    /// [`VoiceError::QueueFull`] when the voice bank's queue is full; the
    /// listener stays where it was.
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
    ) -> Result<(), VoiceError> {
        let position = check_position(position.into())?;
        self.room_for(1)?;
        let _ = self.bank.send(Command::SetListener(position));
        self.listener = position;
        Ok(())
    }
}

//! The listener positioned voices are heard from (see `spatial.rs`).

use super::SoundEffects;
use crate::bank::Command;
use crate::error::VoiceError;
use crate::params::{check_orientation, check_position};

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
        self.voices.send(Command::SetListener(position));
        self.now.listener = position;
        Ok(())
    }

    /// Moves the listener in a flat world: `(x, y)` is `(x, y, 0)` (see
    /// [`PlayParams::position_2d`](crate::PlayParams::position_2d)); as
    /// [`set_listener`](Self::set_listener) otherwise.
    ///
    /// # Errors
    /// As [`set_listener`](Self::set_listener).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// sfx.set_listener_2d([10.0, -4.0])?;
    /// assert!(sfx.set_listener_2d([f32::NAN, 0.0]).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_listener_2d(
        &mut self,
        position: impl Into<mint::Vector2<f32>>,
    ) -> Result<(), VoiceError> {
        self.set_listener(crate::params::flat(position.into()))
    }

    /// Turns the listener: which way its head faces, as a rotation
    /// (a quaternion `[x, y, z, w]`, normalized here). With no rotation (the
    /// default) it faces -z with +x to its right, as kira's listener does; a
    /// game rotating its camera passes the camera's rotation. Only the two
    /// channels' balance changes: which voices are real depends on distance,
    /// never on direction (it would make voices flap as the player turns).
    ///
    /// # Errors
    /// [`VoiceError::InvalidParam`] for a NaN or infinite component or a
    /// quaternion of length 0, [`VoiceError::QueueFull`] when the voice bank's
    /// queue is full; the listener keeps its orientation.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// // A quarter turn to the left about +y: the head now faces -x.
    /// let half_angle = std::f32::consts::FRAC_PI_4;
    /// sfx.set_listener_orientation(mint::Quaternion { v: [0.0, half_angle.sin(), 0.0].into(), s: half_angle.cos() })?;
    /// assert!(sfx.set_listener_orientation(mint::Quaternion { v: [0.0; 3].into(), s: 0.0 }).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_listener_orientation(
        &mut self,
        orientation: impl Into<mint::Quaternion<f32>>,
    ) -> Result<(), VoiceError> {
        let orientation = check_orientation(orientation.into())?;
        self.room_for(1)?;
        self.voices
            .send(Command::SetListenerOrientation(orientation));
        Ok(())
    }
}

//! Doppler, obstruction and occlusion on the game side (see `cues.rs`): the
//! velocities, the amounts, and the listener's motion.

use super::SoundEffects;
use crate::bank::Command;
use crate::cues::{Muffled, check_amount, check_velocity};
use crate::error::VoiceError;
use crate::handles::VoiceHandle;

/// Which of a voice's two muffles a call sets.
#[derive(Clone, Copy)]
enum Muffle {
    Obstruction,
    Occlusion,
}

impl SoundEffects {
    /// Gives a voice its velocity, in m/s, for doppler (see
    /// [`Muffle`](crate::Muffle) for the cues): from now on it is the game's,
    /// no longer derived from the voice's moves. Heard from the mixer's next
    /// chunk, for a sound whose
    /// [`doppler_scale`](crate::SoundSettings::doppler_scale) is not 0.
    ///
    /// # Errors
    /// [`VoiceError::Stale`] for a handle that is not a live voice of this
    /// manager, [`VoiceError::InvalidParam`] for a
    /// NaN or infinite component, [`VoiceError::QueueFull`]; nothing changes.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let hum = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let engine = sfx.add_sound("engine", hum, SoundSettings::default().doppler_scale(1.0))?;
    /// let car = sfx.play(engine, PlayParams::default().position([0.0, 0.0, -50.0]))?;
    /// sfx.set_velocity(car, [0.0, 0.0, 30.0])?;
    /// assert!(sfx.set_velocity(car, [f32::NAN, 0.0, 0.0]).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_velocity(
        &mut self,
        voice: VoiceHandle,
        velocity: impl Into<mint::Vector3<f32>>,
    ) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let velocity = check_velocity(velocity.into())?;
        self.room_for(1)?;
        if let Some(record) = self.voices.get_mut(key) {
            record.cues.motion.give(velocity);
        }
        self.voices.tell(key, |slot, ticket| Command::SetVelocity {
            slot,
            ticket,
            velocity,
        });
        Ok(())
    }

    /// Gives a voice its velocity in a flat world: `(x, y)` is `(x, y, 0)`, as
    /// [`set_position_2d`](Self::set_position_2d) places it; as
    /// [`set_velocity`](Self::set_velocity) otherwise.
    ///
    /// # Errors
    /// As [`set_velocity`](Self::set_velocity).
    pub fn set_velocity_2d(
        &mut self,
        voice: VoiceHandle,
        velocity: impl Into<mint::Vector2<f32>>,
    ) -> Result<(), VoiceError> {
        self.set_velocity(voice, crate::params::flat(velocity.into()))
    }

    /// Takes back a velocity given with [`set_velocity`](Self::set_velocity)
    /// or [`PlayParams::velocity`](crate::PlayParams::velocity): from the next
    /// [`update`](Self::update), the voice's velocity is derived from its
    /// moves again (a voice that stays where it is is still, and heard
    /// unshifted).
    ///
    /// # Errors
    /// [`VoiceError::Stale`] for a handle that is not a live voice of this
    /// manager; nothing changes.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let hum = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let engine = sfx.add_sound("engine", hum, SoundSettings::default().doppler_scale(1.0))?;
    /// let car = sfx.play(engine, PlayParams::default().position([0.0, 0.0, -50.0]))?;
    /// sfx.set_velocity(car, [0.0, 0.0, 30.0])?; // from the physics engine
    /// sfx.derive_velocity(car)?; // the body is gone: from its moves again
    /// sfx.stop(car, Default::default())?;
    /// assert!(sfx.derive_velocity(car).unwrap_err().is_stale());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn derive_velocity(&mut self, voice: VoiceHandle) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        if let Some(record) = self.voices.get_mut(key) {
            record.cues.motion.derive();
        }
        Ok(())
    }

    /// Takes back a velocity given with
    /// [`set_listener_velocity`](Self::set_listener_velocity): from the next
    /// [`update`](Self::update), the listener's velocity is derived from its
    /// moves again.
    pub fn derive_listener_velocity(&mut self) {
        self.now.listener_motion.derive();
    }

    /// Gives the listener its velocity, in m/s, for doppler: from now on it is
    /// the game's, no longer derived from the listener's moves.
    ///
    /// # Errors
    /// [`VoiceError::InvalidParam`] for a NaN or infinite component,
    /// [`VoiceError::QueueFull`]; nothing changes.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// sfx.set_listener_velocity([5.0, 0.0, 0.0])?;
    /// assert!(sfx.set_listener_velocity([0.0, f32::INFINITY, 0.0]).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_listener_velocity(
        &mut self,
        velocity: impl Into<mint::Vector3<f32>>,
    ) -> Result<(), VoiceError> {
        let velocity = check_velocity(velocity.into())?;
        self.room_for(1)?;
        self.now.listener_motion.give(velocity);
        self.voices.send(Command::SetListenerVelocity(velocity));
        Ok(())
    }

    /// Gives the listener its velocity in a flat world: `(x, y)` is
    /// `(x, y, 0)`, as [`set_listener_2d`](Self::set_listener_2d) places it;
    /// as [`set_listener_velocity`](Self::set_listener_velocity) otherwise.
    ///
    /// # Errors
    /// As [`set_listener_velocity`](Self::set_listener_velocity).
    pub fn set_listener_velocity_2d(
        &mut self,
        velocity: impl Into<mint::Vector2<f32>>,
    ) -> Result<(), VoiceError> {
        self.set_listener_velocity(crate::params::flat(velocity.into()))
    }

    /// At an update `dt` seconds after the last: the listener's derived
    /// velocity, sent if it changed (if the queue is full, at a later update).
    pub(super) fn move_listener(&mut self, dt: f64) {
        let motion = self.now.listener_motion;
        let teleport = self.rules.settings.teleport_speed;
        if self
            .now
            .listener_motion
            .step(self.now.listener, dt, teleport)
        {
            let velocity = self.now.listener_motion.velocity;
            if !self.voices.send(Command::SetListenerVelocity(velocity)) {
                self.now.listener_motion = motion;
            }
        }
    }

    /// How much is in a voice's direct path, `0..=1` (Wwise's obstruction: a
    /// pillar, a crate), through its sound's
    /// [`obstruction`](crate::SoundSettings::obstruction) curve: quieter and
    /// duller, gliding there over [`MUFFLE_FADE`](crate::MUFFLE_FADE). Its
    /// audibility does not change.
    ///
    /// # Errors
    /// [`VoiceError::Stale`] for a handle that is not a live voice of this
    /// manager, [`VoiceError::InvalidParam`] for an
    /// amount not in `[0, 1]`, [`VoiceError::QueueFull`]; nothing changes.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let hum = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("hum", hum, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default().position([0.0, 0.0, -10.0]))?;
    /// sfx.set_obstruction(voice, 0.5)?;
    /// assert!(sfx.set_obstruction(voice, -0.1).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_obstruction(&mut self, voice: VoiceHandle, amount: f32) -> Result<(), VoiceError> {
        self.set_muffle(voice, Muffle::Obstruction, amount)
    }

    /// How much is between a voice and the listener, `0..=1` (Wwise's
    /// occlusion: a wall, a closed door), through its sound's
    /// [`occlusion`](crate::SoundSettings::occlusion) curve: quieter and
    /// duller, gliding there over [`MUFFLE_FADE`](crate::MUFFLE_FADE). Its
    /// audibility falls by the curve's volume: at the next
    /// [`update`](Self::update) a voice under its sound's audibility floor
    /// goes virtual, and one that can no longer compete yields its place.
    ///
    /// # Errors
    /// As [`set_obstruction`](Self::set_obstruction).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let hum = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("hum", hum, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default().position([0.0, 0.0, -10.0]))?;
    /// sfx.set_occlusion(voice, 1.0)?; // behind a wall
    /// assert!(sfx.set_occlusion(voice, f32::NAN).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_occlusion(&mut self, voice: VoiceHandle, amount: f32) -> Result<(), VoiceError> {
        self.set_muffle(voice, Muffle::Occlusion, amount)
    }

    fn set_muffle(
        &mut self,
        voice: VoiceHandle,
        which: Muffle,
        amount: f32,
    ) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let amount = check_amount(amount)?;
        self.room_for(1)?;
        let Some(record) = self.voices.get_mut(key) else {
            return Ok(());
        };
        let Some(sound) = self.sounds.entry(record.sound) else {
            return Ok(());
        };
        let was = record.cues.muffled;
        let (obstruction, occlusion) = match which {
            Muffle::Obstruction => (amount, was.occlusion),
            Muffle::Occlusion => (was.obstruction, amount),
        };
        let curves = (&sound.settings.obstruction, &sound.settings.occlusion);
        let muffled = Muffled::new(obstruction, occlusion, curves);
        record.cues.muffled = muffled;
        self.voices.tell(key, |slot, ticket| Command::SetMuffle {
            slot,
            ticket,
            gain: muffled.gain,
            cutoff: muffled.cutoff,
        });
        Ok(())
    }
}

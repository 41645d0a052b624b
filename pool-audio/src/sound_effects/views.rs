//! The views a game reaches a part of the manager through: one voice
//! ([`SoundEffects::voice`]), the listener ([`SoundEffects::listener`]), the
//! mix ([`SoundEffects::mix`], [`SoundEffects::mix_mut`]) and what the manager
//! knows of a sound ([`SoundEffects::sound_info`]). Each borrows the manager
//! for as long as it is held, and each call checks what it names as the
//! manager's own calls did: a view of a voice that ended answers
//! [`VoiceError::Stale`].

use kira::effect::volume_control::VolumeControlHandle;
use kira::{Decibels, Tween};

use super::SoundEffects;
use crate::handles::{GroupId, SoundId, VoiceHandle};
use crate::{
    CopyVolumes, DuckId, DuckRule, DuckSettings, MixError, MixStats, MixTarget, Snapshot,
    SnapshotId, SoundPeak, TrackId, VoiceError,
};

impl SoundEffects {
    /// A voice, to change while it plays: `sfx.voice(handle).set_volume(-6.0,
    /// fade)?`. The handle is checked by each call.
    pub fn voice(&mut self, voice: VoiceHandle) -> Voice<'_> {
        Voice { sfx: self, voice }
    }

    /// The listener: where the voices are heard from, which way it faces,
    /// how fast it moves.
    pub fn listener(&mut self) -> Listener<'_> {
        Listener { sfx: self }
    }

    /// The mix, read: its tracks and buses, effect parameters, snapshots, each
    /// target's level, the loudness window.
    pub fn mix(&self) -> Mix<'_> {
        Mix { sfx: self }
    }

    /// The mix, changed: buses, named tracks, effect parameters, ducks,
    /// side-chains, snapshots, zones (see the [`mix`](crate::mix) module).
    pub fn mix_mut(&mut self) -> MixMut<'_> {
        MixMut { sfx: self }
    }

    /// What the manager knows of a sound: its name, recordings, copies,
    /// copy volumes and measured peak (nothing, or 0, for an id that is not
    /// one of its sounds).
    pub fn sound_info(&self, sound: SoundId) -> SoundInfo<'_> {
        SoundInfo { sfx: self, sound }
    }
}

/// One voice of a [`SoundEffects`] ([`SoundEffects::voice`]).
pub struct Voice<'a> {
    sfx: &'a mut SoundEffects,
    voice: VoiceHandle,
}

impl Voice<'_> {
    /// Stops a voice, fading out with `fade` (kira's [`Tween`](https://docs.rs/kira/0.12/kira/struct.Tween.html), applied to its
    /// amplitude); its handle goes stale. It no longer counts among its sound's
    /// copies, but it keeps its share of the sound's budget while it fades: a
    /// new copy of the sound cuts a fade longer than the steal fade short.
    ///
    /// # Errors
    /// [`VoiceError::Stale`] if it already ended or is another manager's handle,
    /// [`VoiceError::InvalidParam`] for a fade whose
    /// easing power is NaN, infinite or negative, [`VoiceError::QueueFull`] when
    /// the voice bank's queue is full (nothing changes then).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use std::time::Duration;
    /// # use kira::Easing;
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings, error::StaleHandle, VoiceError};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default())?;
    /// let bad = Tween { easing: Easing::InPowf(f64::NAN), ..Default::default() };
    /// assert!(matches!(sfx.voice(voice).stop(bad), Err(VoiceError::InvalidParam(_))));
    /// sfx.voice(voice).stop(Tween { duration: Duration::from_millis(20), ..Default::default() })?;
    /// assert_eq!(sfx.voice(voice).stop(Tween::default()), Err(VoiceError::Stale(StaleHandle)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stop(&mut self, fade: Tween) -> Result<(), VoiceError> {
        self.sfx.stop(self.voice, fade)
    }

    /// Pauses a voice (it keeps its place among its sound's copies), fading out
    /// with `fade`.
    /// A paused virtual voice keeps its playhead; a paused voice is the first to
    /// give up its place to a virtual one, and is never made real.
    ///
    /// # Errors
    /// As [`stop`](Self::stop).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default())?;
    /// sfx.voice(voice).pause(Tween::default())?;
    /// assert!(sfx.state(voice).is_live(), "a paused voice keeps its voice");
    /// sfx.voice(voice).resume(Tween::default())?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn pause(&mut self, fade: Tween) -> Result<(), VoiceError> {
        self.sfx.pause(self.voice, fade)
    }

    /// Resumes a paused voice, fading in with `fade`.
    ///
    /// # Errors
    /// As [`stop`](Self::stop).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default())?;
    /// sfx.voice(voice).pause(Tween::default())?;
    /// sfx.voice(voice).resume(Tween::default())?;
    /// assert!(sfx.state(voice).is_live());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resume(&mut self, fade: Tween) -> Result<(), VoiceError> {
        self.sfx.resume(self.voice, fade)
    }

    /// Sets a voice's play volume, at most 0 dB on its copy volume, reached
    /// with `fade`. A play of a sound with a volume range keeps what it drew:
    /// it plays `volume` lowered by its draw.
    ///
    /// # Errors
    /// [`VoiceError::InvalidParam`] for a volume that is NaN or above 0 dB
    /// (the voice is unchanged), or as [`stop`](Self::stop).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use pool_audio::{OfflineBackend, error::ParamError, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings, VoiceError};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default())?;
    /// sfx.voice(voice).set_volume(-12.0, Tween::default())?;
    /// assert!(matches!(sfx.voice(voice).set_volume(f32::NAN, Tween::default()), Err(VoiceError::InvalidParam(ParamError::Volume(_)))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_volume(
        &mut self,
        volume: impl Into<Decibels>,
        fade: Tween,
    ) -> Result<(), VoiceError> {
        self.sfx.set_volume(self.voice, volume.into(), fade)
    }

    /// Gives the voice a value of its own of game parameter `param` (one
    /// car's speed among many), clamped into its range: its sound's curves
    /// follow it instead of the game's value, moving there over the
    /// parameter's seek time from the next update.
    ///
    /// # Errors
    /// [`VoiceError::GameParam`] for a parameter of another manager or a
    /// value that is not finite, [`VoiceError::TooManyOwnValues`], or as
    /// [`stop`](Self::stop); nothing changes.
    pub fn set_game_param(
        &mut self,
        param: crate::game::GameParamId,
        value: f64,
    ) -> Result<(), VoiceError> {
        self.sfx.set_voice_game_param(self.voice, param, value)
    }

    /// Moves the voice's send to `bus` (one of its sound's sends) to `level`
    /// with `tween`, heard from the mixer's next block. A voice that is
    /// virtual, or becomes so, comes back at the level set last.
    ///
    /// # Errors
    /// [`VoiceError::NoSend`] if its sound has no send to `bus`,
    /// [`VoiceError::InvalidParam`] for a level not in `MIN_MIX..=MAX_MIX` or
    /// a tween kira cannot compute, or as [`stop`](Self::stop).
    pub fn set_send(
        &mut self,
        bus: crate::TrackId,
        level: impl Into<Decibels>,
        tween: Tween,
    ) -> Result<(), VoiceError> {
        self.sfx.set_send(self.voice, bus, level.into(), tween)
    }

    /// Sets a voice's playback rate (speed and pitch), reached with `fade`: an
    /// engine revving, a slow-motion effect. A play of a sound with a pitch
    /// range keeps what it drew: it plays `rate` shifted by its draw.
    ///
    /// # Errors
    /// [`VoiceError::InvalidParam`] for a rate that is NaN or outside
    /// [`MIN_PLAYBACK_RATE`](crate::MIN_PLAYBACK_RATE)`..=`[`MAX_PLAYBACK_RATE`](crate::MAX_PLAYBACK_RATE)
    /// (the voice is unchanged), or as [`stop`](Self::stop).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let hum = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 4800].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("engine", hum.loop_region(..), SoundSettings::default())?;
    /// let engine = sfx.play(id, PlayParams::default())?;
    /// sfx.voice(engine).set_playback_rate(1.5, Tween::default())?;
    /// assert!(sfx.voice(engine).set_playback_rate(100.0, Tween::default()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_playback_rate(&mut self, rate: f64, fade: Tween) -> Result<(), VoiceError> {
        self.sfx.set_playback_rate(self.voice, rate, fade)
    }

    /// Sets a voice's panning, -1 (left) to 1 (right), reached with `fade`. A
    /// panned voice is lowered by the gain kira's pan law gives its sound's
    /// louder channel, at every point of the fade, so it stays inside its share
    /// of its sound's budget.
    ///
    /// # Errors
    /// [`VoiceError::InvalidParam`] for a panning that is NaN or outside
    /// `[-1, 1]` (the voice is unchanged), or as [`stop`](Self::stop).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let hum = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 4800].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("car", hum.loop_region(..), SoundSettings::default())?;
    /// let car = sfx.play(id, PlayParams::default().panning(-1.0))?;
    /// sfx.voice(car).set_panning(1.0, Tween { duration: std::time::Duration::from_secs(2), ..Default::default() })?;
    /// assert!(sfx.voice(car).set_panning(1.5, Tween::default()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_panning(&mut self, panning: f32, fade: Tween) -> Result<(), VoiceError> {
        self.sfx.set_panning(self.voice, panning, fade)
    }

    /// Moves a voice: how it is heard, if it is real, its place for
    /// [`Stealing::Furthest`](crate::Stealing::Furthest), and its audibility from
    /// the next update.
    ///
    /// # Errors
    /// [`VoiceError::InvalidParam`] for a NaN or infinite coordinate (the voice is
    /// unchanged), or as [`stop`](Self::stop).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default().position([0.0, 0.0, 5.0]))?;
    /// sfx.voice(voice).set_position([0.0, 0.0, 8.0])?;
    /// assert!(sfx.voice(voice).set_position([f32::NAN, 0.0, 0.0]).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_position(
        &mut self,
        position: impl Into<mint::Vector3<f32>>,
    ) -> Result<(), VoiceError> {
        self.sfx.set_position(self.voice, position)
    }

    /// Moves a positioned voice in a flat world: `(x, y)` is `(x, y, 0)` (see
    /// [`PlayParams::position_2d`](crate::PlayParams::position_2d)); as
    /// [`set_position`](Self::set_position) otherwise.
    ///
    /// # Errors
    /// As [`set_position`](Self::set_position).
    pub fn set_position_2d(
        &mut self,
        position: impl Into<mint::Vector2<f32>>,
    ) -> Result<(), VoiceError> {
        self.sfx.set_position_2d(self.voice, position)
    }

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
    /// sfx.voice(car).set_velocity([0.0, 0.0, 30.0])?;
    /// assert!(sfx.voice(car).set_velocity([f32::NAN, 0.0, 0.0]).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_velocity(
        &mut self,
        velocity: impl Into<mint::Vector3<f32>>,
    ) -> Result<(), VoiceError> {
        self.sfx.set_velocity(self.voice, velocity)
    }

    /// Gives a voice its velocity in a flat world: `(x, y)` is `(x, y, 0)`, as
    /// [`set_position_2d`](Self::set_position_2d) places it; as
    /// [`set_velocity`](Self::set_velocity) otherwise.
    ///
    /// # Errors
    /// As [`set_velocity`](Self::set_velocity).
    pub fn set_velocity_2d(
        &mut self,
        velocity: impl Into<mint::Vector2<f32>>,
    ) -> Result<(), VoiceError> {
        self.sfx.set_velocity_2d(self.voice, velocity)
    }

    /// Takes back a velocity given with [`set_velocity`](Self::set_velocity)
    /// or [`PlayParams::velocity`](crate::PlayParams::velocity): from the next
    /// [`update`](SoundEffects::update), the voice's velocity is derived from its
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
    /// sfx.voice(car).set_velocity([0.0, 0.0, 30.0])?; // from the physics engine
    /// sfx.voice(car).derive_velocity()?; // the body is gone: from its moves again
    /// sfx.voice(car).stop(Default::default())?;
    /// assert!(sfx.voice(car).derive_velocity().unwrap_err().is_stale());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn derive_velocity(&mut self) -> Result<(), VoiceError> {
        self.sfx.derive_velocity(self.voice)
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
    /// sfx.voice(voice).set_obstruction(0.5)?;
    /// assert!(sfx.voice(voice).set_obstruction(-0.1).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_obstruction(&mut self, amount: f32) -> Result<(), VoiceError> {
        self.sfx.set_obstruction(self.voice, amount)
    }

    /// How much is between a voice and the listener, `0..=1` (Wwise's
    /// occlusion: a wall, a closed door), through its sound's
    /// [`occlusion`](crate::SoundSettings::occlusion) curve: quieter and
    /// duller, gliding there over [`MUFFLE_FADE`](crate::MUFFLE_FADE). Its
    /// audibility falls by the curve's volume: at the next
    /// [`update`](SoundEffects::update) a voice under its sound's audibility floor
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
    /// sfx.voice(voice).set_occlusion(1.0)?; // behind a wall
    /// assert!(sfx.voice(voice).set_occlusion(f32::NAN).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_occlusion(&mut self, amount: f32) -> Result<(), VoiceError> {
        self.sfx.set_occlusion(self.voice, amount)
    }
}

/// The listener of a [`SoundEffects`] ([`SoundEffects::listener`]).
pub struct Listener<'a> {
    sfx: &'a mut SoundEffects,
}

impl Listener<'_> {
    /// Moves the listener positioned voices are heard from (and measured from by
    /// [`Stealing::Furthest`](crate::Stealing::Furthest)). The real positioned
    /// voices are heard from the new place from the mixer's next block (the change
    /// spread over its first processing chunk); which voices are real follows at
    /// the next [`update`](SoundEffects::update). One command, however many voices.
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
    /// sfx.listener().set_position([1.0, 2.0, 3.0])?;
    /// assert!(sfx.listener().set_position([f32::NAN, 0.0, 0.0]).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_position(
        &mut self,
        position: impl Into<mint::Vector3<f32>>,
    ) -> Result<(), VoiceError> {
        self.sfx.set_listener(position)
    }

    /// Moves the listener in a flat world: `(x, y)` is `(x, y, 0)` (see
    /// [`PlayParams::position_2d`](crate::PlayParams::position_2d)); as
    /// [`set_position`](Self::set_position) otherwise.
    ///
    /// # Errors
    /// As [`set_position`](Self::set_position).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// sfx.listener().set_position_2d([10.0, -4.0])?;
    /// assert!(sfx.listener().set_position_2d([f32::NAN, 0.0]).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_position_2d(
        &mut self,
        position: impl Into<mint::Vector2<f32>>,
    ) -> Result<(), VoiceError> {
        self.sfx.set_listener_2d(position)
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
    /// sfx.listener().set_orientation(mint::Quaternion { v: [0.0, half_angle.sin(), 0.0].into(), s: half_angle.cos() })?;
    /// assert!(sfx.listener().set_orientation(mint::Quaternion { v: [0.0; 3].into(), s: 0.0 }).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_orientation(
        &mut self,
        orientation: impl Into<mint::Quaternion<f32>>,
    ) -> Result<(), VoiceError> {
        self.sfx.set_listener_orientation(orientation)
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
    /// sfx.listener().set_velocity([5.0, 0.0, 0.0])?;
    /// assert!(sfx.listener().set_velocity([0.0, f32::INFINITY, 0.0]).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_velocity(
        &mut self,
        velocity: impl Into<mint::Vector3<f32>>,
    ) -> Result<(), VoiceError> {
        self.sfx.set_listener_velocity(velocity)
    }

    /// Gives the listener its velocity in a flat world: `(x, y)` is
    /// `(x, y, 0)`, as [`set_position_2d`](Self::set_position_2d) places it;
    /// as [`set_velocity`](Self::set_velocity) otherwise.
    ///
    /// # Errors
    /// As [`set_velocity`](Self::set_velocity).
    pub fn set_velocity_2d(
        &mut self,
        velocity: impl Into<mint::Vector2<f32>>,
    ) -> Result<(), VoiceError> {
        self.sfx.set_listener_velocity_2d(velocity)
    }

    /// Takes back a velocity given with
    /// [`set_velocity`](Self::set_velocity): from the next
    /// [`update`](SoundEffects::update), the listener's velocity is derived from its
    /// moves again.
    pub fn derive_velocity(&mut self) {
        self.sfx.derive_listener_velocity()
    }
}

/// The mix of a [`SoundEffects`], read ([`SoundEffects::mix`]).
pub struct Mix<'a> {
    pub(super) sfx: &'a SoundEffects,
}

impl Mix<'_> {
    /// `true` while duck `duck`'s source sounds or it holds.
    ///
    /// # Errors
    /// [`MixError::Unknown`] for another manager's duck.
    pub fn duck_active(&self, duck: DuckId) -> Result<bool, MixError> {
        self.sfx.duck_active(duck)
    }

    /// The id of the snapshot named `name`.
    pub fn snapshot(&self, name: &str) -> Option<SnapshotId> {
        self.sfx.snapshot(name)
    }

    /// The id of the mix track named `name`: a bus ([`MixMut::add_bus`]), a
    /// music or ambience track, or one the game added with
    /// [`MixMut::add_track`] (one namespace: a bus cannot be named `"music"`
    /// while the default music track is). Resolve names once, at load time;
    /// ducks, snapshots, groups, sends, zones and [`Music`](crate::music::Music)
    /// take the id.
    ///
    /// # Errors
    /// [`MixError::UnknownTrack`] when no track has that name.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{mix::MixError, music::Music, music::MusicSettings, OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// assert_eq!(sfx.mix().track("music"), Err(MixError::UnknownTrack("music".into())));
    /// let music = Music::new(&mut sfx, MusicSettings::default())?;
    /// assert_eq!(sfx.mix().track("music")?, music.track("music")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn track(&self, name: &str) -> Result<TrackId, MixError> {
        self.sfx.mix.track(name)
    }

    /// The level the ducks and snapshots have decided for `target` (0 dB
    /// for a target none of them sets): where the mixer is taking it, over the
    /// tween of the last change. The loudness window is per voice, and not in
    /// it.
    ///
    /// # Errors
    /// [`MixError::UnknownGroup`], [`MixError::ForeignTrack`].
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{GroupSettings, OfflineBackend, mix::Snapshot, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let rain = sfx.add_group("rain", GroupSettings::default())?;
    /// let storm = sfx.mix_mut().add_snapshot(Snapshot::new("storm").set(rain, 6.0))?;
    /// sfx.mix_mut().apply_snapshot(storm, 0.5, pool_audio::kira::Tween::default())?;
    /// assert_eq!(sfx.mix().level(rain)?, pool_audio::kira::Decibels(3.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn level(&self, target: impl Into<MixTarget>) -> Result<Decibels, MixError> {
        self.sfx.mix_db(target)
    }

    /// What the mix is doing.
    pub fn stats(&self) -> MixStats {
        self.sfx.mix_stats()
    }
}

/// The mix of a [`SoundEffects`], changed ([`SoundEffects::mix_mut`]).
pub struct MixMut<'a> {
    pub(super) sfx: &'a mut SoundEffects,
}

impl MixMut<'_> {
    /// Names a kira track of the game's in the mix, so ducks and snapshots can
    /// set it, through a volume-control effect on that track: add
    /// `kira::effect::volume_control::VolumeControlBuilder` to the track's
    /// builder and hand its handle over here. The track's own volume stays the
    /// game's. ([`Music`](crate::music::Music)'s tracks are in the mix from
    /// the start.)
    ///
    /// # Errors
    /// [`MixError::DuplicateTrack`] (music tracks included),
    /// [`MixError::TooMany`]; nothing is added.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// use pool_audio::kira::effect::volume_control::VolumeControlBuilder;
    /// use pool_audio::kira::track::TrackBuilder;
    /// # use pool_audio::{mix::DuckSettings, GroupSettings, OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let mut builder = TrackBuilder::new();
    /// let control = builder.add_effect(VolumeControlBuilder::new(0.0));
    /// let radio = manager.add_sub_track(builder)?;
    /// let radio_id = sfx.mix_mut().add_track("radio", control)?;
    /// let dialogue = sfx.add_group("dialogue", GroupSettings::default())?;
    /// sfx.mix_mut().add_duck(dialogue, radio_id, DuckSettings::default())?;
    /// # drop(radio);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_track(
        &mut self,
        name: &str,
        control: VolumeControlHandle,
    ) -> Result<TrackId, MixError> {
        self.sfx.mix.add_track(name, Some(control), false)
    }

    /// Lowers `target` by `settings.amount` while any voice of group
    /// `source` is real and not paused: the target goes down over the attack
    /// as soon as an [`update`](SoundEffects::update) sees such a voice, and comes back
    /// over the release once no voice of `source` has sounded for the hold. How
    /// several ducks on one target combine is the [`DuckRule`] (by default the
    /// deepest wins).
    ///
    /// Ducks are decided at each update, so a duck starts and ends within one
    /// update of its source's voices (a game that plays and then updates in
    /// the same frame ducks in the block the voice starts in).
    ///
    /// # Errors
    /// [`MixError::UnknownGroup`] for another manager's group,
    /// [`MixError::ForeignTrack`], [`MixError::Amount`], [`MixError::Time`],
    /// [`MixError::Easing`], [`MixError::TooMany`]; nothing is added.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{mix::DuckSettings, GroupSettings, mix::MixError, OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let dialogue = sfx.add_group("dialogue", GroupSettings::default())?;
    /// let steps = sfx.add_group("footsteps", GroupSettings::default())?;
    /// sfx.mix_mut().add_duck(dialogue, steps, DuckSettings::default().amount(-12.0))?;
    /// let bad = sfx.mix_mut().add_duck(dialogue, steps, DuckSettings::default().amount(f32::NAN));
    /// assert!(matches!(bad, Err(MixError::Amount(_))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_duck(
        &mut self,
        source: GroupId,
        target: impl Into<MixTarget>,
        settings: DuckSettings,
    ) -> Result<DuckId, MixError> {
        self.sfx.add_duck(source, target, settings)
    }

    /// How ducks on one target combine (see [`DuckRule`]).
    ///
    /// # Errors
    /// [`MixError::Amount`] for a [`DuckRule::Sum`] maximum not in
    /// `MIN_MIX..=0`; nothing changes.
    pub fn set_duck_rule(&mut self, rule: DuckRule) -> Result<(), MixError> {
        self.sfx.set_duck_rule(rule)
    }

    /// Adds a snapshot, released until applied.
    ///
    /// # Errors
    /// [`MixError::DuplicateSnapshot`], [`MixError::UnknownGroup`],
    /// [`MixError::ForeignTrack`], [`MixError::Volume`] for a volume not in
    /// `MIN_MIX..=MAX_MIX`, [`MixError::TooMany`]; nothing is added.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{GroupSettings, mix::MixError, OfflineBackend, mix::Snapshot, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let rain = sfx.add_group("rain", GroupSettings::default())?;
    /// let storm = sfx.mix_mut().add_snapshot(Snapshot::new("storm").set(rain, 6.0))?;
    /// sfx.mix_mut().apply_snapshot(storm, 1.0, pool_audio::kira::Tween::default())?;
    /// assert_eq!(sfx.mix().stats().snapshots_active, 1);
    /// let loud = sfx.mix_mut().add_snapshot(Snapshot::new("loud").set(rain, 20.0));
    /// assert!(matches!(loud, Err(MixError::Volume(_))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_snapshot(&mut self, snapshot: Snapshot) -> Result<SnapshotId, MixError> {
        self.sfx.add_snapshot(snapshot)
    }

    /// Applies `snapshot` at `intensity` (`0..=1`), every target it changes
    /// moving there with `tween`; applying an applied snapshot changes its
    /// intensity.
    ///
    /// # Errors
    /// [`MixError::Unknown`], [`MixError::Intensity`], [`MixError::Time`],
    /// [`MixError::Easing`]; nothing changes.
    pub fn apply_snapshot(
        &mut self,
        snapshot: SnapshotId,
        intensity: f32,
        tween: Tween,
    ) -> Result<(), MixError> {
        self.sfx.apply_snapshot(snapshot, intensity, tween)
    }

    /// Releases `snapshot`: every target it changed moves back with `tween`
    /// (to what the other active snapshots set).
    ///
    /// # Errors
    /// [`MixError::Unknown`], [`MixError::Time`], [`MixError::Easing`];
    /// nothing changes.
    pub fn release_snapshot(&mut self, snapshot: SnapshotId, tween: Tween) -> Result<(), MixError> {
        self.sfx.release_snapshot(snapshot, tween)
    }
}

/// What a [`SoundEffects`] knows of one of its sounds
/// ([`SoundEffects::sound_info`]).
pub struct SoundInfo<'a> {
    sfx: &'a SoundEffects,
    sound: SoundId,
}

impl SoundInfo<'_> {
    /// The name a sound was added under.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// assert_eq!(sfx.sound_info(id).name(), Some("click"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn name(&self) -> Option<&str> {
        self.sfx.name(self.sound)
    }

    /// How many recordings a sound has (0 for a removed sound's id).
    pub fn recordings(&self) -> usize {
        self.sfx.recordings(self.sound)
    }

    /// Real copies of `sound` playing now (virtual ones are not counted).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// sfx.play(id, PlayParams::default())?;
    /// assert_eq!(sfx.sound_info(id).copies_playing(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn copies_playing(&self) -> usize {
        self.sfx.copies_playing(self.sound)
    }

    /// Copies of `sound` that were stopped and may still be heard fading out.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use std::time::Duration;
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let tone = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 4800].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("tone", tone, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default())?;
    /// sfx.voice(voice).stop(pool_audio::kira::Tween { duration: Duration::from_millis(50), ..Default::default() })?;
    /// assert_eq!(sfx.sound_info(id).copies_fading(), 1);
    /// manager.backend_mut().render(0.1)?;
    /// assert_eq!(sfx.sound_info(id).copies_fading(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn copies_fading(&self) -> usize {
        self.sfx.copies_fading(self.sound)
    }

    /// How many copies of `sound` its budget keeps at or above the audibility
    /// floor once they settle (`None` for an unknown sound). A burst starts up
    /// to `max_voices` copies at their copy volumes; the copies then settle to
    /// levels that leave room for the next one's onset (see the crate docs on
    /// the mix chain), and at the next [`update`](SoundEffects::update) the copies past
    /// this many, whose settled level would be under the floor, leave: they
    /// fade out over the steal fade and end [`EndReason::Crowded`](crate::EndReason::Crowded)
    /// (or go virtual, if the sound virtualizes), counted in
    /// [`SoundEffectsStats::crowded_copies`](crate::SoundEffectsStats::crowded_copies). So a
    /// copy that still counts (in `copies_playing`, the voice cap, an owner's
    /// cap) is always audible.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let tone = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 48_000].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// // A one-second sound at half scale, at the defaults (8 copies, the
    /// // first at 0.5): the budget keeps 4 of them once settled.
    /// let id = sfx.add_sound("tone", tone, SoundSettings::default())?;
    /// assert_eq!(sfx.sound_info(id).copies_kept(), Some(4));
    /// // Seven plays 50 ms apart: the older copies leave as newer ones come.
    /// for _ in 0..7 {
    ///     sfx.play(id, PlayParams::default())?;
    ///     sfx.update(0.05)?;
    ///     manager.backend_mut().render(0.05)?;
    /// }
    /// assert_eq!(sfx.sound_info(id).copies_playing(), 4);
    /// assert_eq!(sfx.stats().crowded_copies, 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn copies_kept(&self) -> Option<usize> {
        self.sfx.copies_kept(self.sound)
    }

    /// The copy volumes of a sound: its solved attenuation, before the pan law
    /// compensation of a panned play.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let id = sfx.add_sound("click", click, SoundSettings::default().max_voices(4))?;
    /// assert_eq!(sfx.sound_info(id).copy_volumes().unwrap().copies(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn copy_volumes(&self) -> Option<CopyVolumes> {
        self.sfx.copy_volumes(self.sound)
    }

    /// A sound's measured peak, the one its copy volumes are budgeted against.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let tone = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let id = sfx.add_sound("tone", tone, SoundSettings::default())?;
    /// assert_eq!(sfx.sound_info(id).peak().unwrap().sample(), 0.5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn peak(&self) -> Option<SoundPeak> {
        self.sfx.sound_peak(self.sound)
    }
}

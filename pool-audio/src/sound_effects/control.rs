//! Per-voice control (stop, pause, resume, volume, playback rate, position) and
//! the calls that act on many voices at once. A real voice is told through a
//! command to the voice bank: every call checks that the queue has room for all
//! its commands before it changes anything.

use kira::Tween;
use pool_core::StaleHandle;

use super::SoundEffects;
use crate::bank::Command;
use crate::error::VoiceError;
use crate::handles::{EndReason, SoundId, VoiceHandle, VoiceKey};
use crate::level::kira_volume;
use crate::params::{check_fade, check_panning, check_playback_rate, check_position, check_volume};
use crate::voice_pool::VoiceRecord;

impl SoundEffects {
    /// Makes sure the queue has room for `commands` commands.
    pub(super) fn room_for(&mut self, commands: usize) -> Result<(), VoiceError> {
        if self.voices.queue_room() >= commands {
            Ok(())
        } else {
            self.stats.queue_full += 1;
            Err(VoiceError::QueueFull)
        }
    }

    /// The key of a live voice of this manager.
    pub(super) fn live(&self, voice: VoiceHandle) -> Result<VoiceKey, VoiceError> {
        let key = self.own_voice(voice)?;
        if self.voices.contains(key) {
            Ok(key)
        } else {
            Err(VoiceError::Stale(StaleHandle))
        }
    }

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
    /// assert!(matches!(sfx.stop(voice, bad), Err(VoiceError::InvalidParam(_))));
    /// sfx.stop(voice, Tween { duration: Duration::from_millis(20), ..Default::default() })?;
    /// assert_eq!(sfx.stop(voice, Tween::default()), Err(VoiceError::Stale(StaleHandle)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stop(&mut self, voice: VoiceHandle, fade: Tween) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let fade = check_fade(fade)?;
        self.room_for(1)?;
        self.voices
            .end(key, fade, EndReason::Stopped, &mut self.sounds);
        Ok(())
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
    /// sfx.pause(voice, Tween::default())?;
    /// assert!(sfx.contains(voice), "a paused voice keeps its voice");
    /// sfx.resume(voice, Tween::default())?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn pause(&mut self, voice: VoiceHandle, fade: Tween) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let fade = check_fade(fade)?;
        self.room_for(1)?;
        self.voices
            .tell(key, |slot, ticket| Command::Pause { slot, ticket, fade });
        if let Some(voice) = self.voices.get_mut(key) {
            voice.paused = true;
        }
        Ok(())
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
    /// sfx.pause(voice, Tween::default())?;
    /// sfx.resume(voice, Tween::default())?;
    /// assert!(sfx.contains(voice));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resume(&mut self, voice: VoiceHandle, fade: Tween) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let fade = check_fade(fade)?;
        self.room_for(1)?;
        self.voices
            .tell(key, |slot, ticket| Command::Resume { slot, ticket, fade });
        if let Some(voice) = self.voices.get_mut(key) {
            voice.paused = false;
        }
        Ok(())
    }

    /// Sets a voice's play volume: the linear amplitude in `[0, 1]` its copy
    /// volume is multiplied by, reached with `fade`. A play of a sound with a
    /// volume range keeps what it drew: it plays `volume` lowered by its draw.
    ///
    /// # Errors
    /// [`VoiceError::InvalidParam`] for a volume that is NaN or outside `[0, 1]`
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
    /// sfx.set_volume(voice, 0.25, Tween::default())?;
    /// assert!(matches!(sfx.set_volume(voice, f64::NAN, Tween::default()), Err(VoiceError::InvalidParam(ParamError::Volume(_)))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_volume(
        &mut self,
        voice: VoiceHandle,
        volume: f64,
        fade: Tween,
    ) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let volume = check_volume(volume)?;
        let fade = check_fade(fade)?;
        self.room_for(1)?;
        // The play's drawn variation stays: the voice varies from the new volume.
        let volume = self
            .voices
            .get(key)
            .map_or(volume, |v| v.variation.volume(volume));
        let reference = self
            .voices
            .get(key)
            .and_then(|v| self.sounds.entry(v.sound))
            .map_or(0.0, |s| s.reference(volume));
        let Some(record) = self.voices.get_mut(key) else {
            return Err(VoiceError::Stale(StaleHandle));
        };
        record.play_volume = volume;
        record.reference = reference;
        let level = kira_volume(record.play_volume);
        self.voices.tell(key, |slot, ticket| Command::SetVolume {
            slot,
            ticket,
            volume: level,
            fade,
        });
        Ok(())
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
    /// sfx.set_playback_rate(engine, 1.5, Tween::default())?;
    /// assert!(sfx.set_playback_rate(engine, 100.0, Tween::default()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_playback_rate(
        &mut self,
        voice: VoiceHandle,
        rate: f64,
        fade: Tween,
    ) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let rate = check_playback_rate(rate)?;
        let fade = check_fade(fade)?;
        self.room_for(1)?;
        // The play's drawn pitch stays: the voice varies from the new rate.
        let rate = self
            .voices
            .get(key)
            .map_or(rate, |v| v.variation.rate(rate));
        if let Some(record) = self.voices.get_mut(key) {
            record.playback_rate = rate;
        }
        self.voices
            .tell(key, |slot, ticket| Command::SetPlaybackRate {
                slot,
                ticket,
                rate,
                fade,
            });
        Ok(())
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
    /// sfx.set_panning(car, 1.0, Tween { duration: std::time::Duration::from_secs(2), ..Default::default() })?;
    /// assert!(sfx.set_panning(car, 1.5, Tween::default()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_panning(
        &mut self,
        voice: VoiceHandle,
        panning: f32,
        fade: Tween,
    ) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let panning = check_panning(panning)?;
        let fade = check_fade(fade)?;
        self.room_for(1)?;
        if let Some(record) = self.voices.get_mut(key) {
            record.panning = panning;
        }
        self.voices.tell(key, |slot, ticket| Command::SetPanning {
            slot,
            ticket,
            panning,
            fade,
        });
        Ok(())
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
    /// sfx.set_position(voice, [0.0, 0.0, 8.0])?;
    /// assert!(sfx.set_position(voice, [f32::NAN, 0.0, 0.0]).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_position(
        &mut self,
        voice: VoiceHandle,
        position: impl Into<mint::Vector3<f32>>,
    ) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let position = check_position(position.into())?;
        self.room_for(1)?;
        if let Some(record) = self.voices.get_mut(key) {
            record.position = Some(position);
        }
        self.voices.tell(key, |slot, ticket| Command::SetPosition {
            slot,
            ticket,
            position,
        });
        Ok(())
    }

    /// Moves a positioned voice in a flat world: `(x, y)` is `(x, y, 0)` (see
    /// [`PlayParams::position_2d`](crate::PlayParams::position_2d)); as
    /// [`set_position`](Self::set_position) otherwise.
    ///
    /// # Errors
    /// As [`set_position`](Self::set_position).
    pub fn set_position_2d(
        &mut self,
        voice: VoiceHandle,
        position: impl Into<mint::Vector2<f32>>,
    ) -> Result<(), VoiceError> {
        self.set_position(voice, crate::params::flat(position.into()))
    }

    /// Stops every voice, fading out with `fade`.
    ///
    /// # Errors
    /// [`VoiceError::InvalidParam`] for a fade whose easing power is NaN,
    /// infinite or negative, [`VoiceError::QueueFull`] when the voice bank's
    /// queue has no room for a stop per real voice; nothing stops then.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use std::time::Duration;
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// sfx.play(id, PlayParams::default())?;
    /// sfx.stop_all(Tween { duration: Duration::from_millis(10), ..Default::default() })?;
    /// assert_eq!(sfx.stats().real_voices, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stop_all(&mut self, fade: Tween) -> Result<(), VoiceError> {
        let fade = check_fade(fade)?;
        self.stop_where(fade, |_| true)
    }

    /// Stops every copy of one sound, fading out with `fade`. Another manager's
    /// sound id, or a removed sound's, stops nothing.
    ///
    /// # Errors
    /// As [`stop_all`](Self::stop_all).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use std::time::Duration;
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// sfx.play(id, PlayParams::default())?;
    /// sfx.stop_sound(id, Tween { duration: Duration::ZERO, ..Default::default() })?;
    /// assert_eq!(sfx.copies_playing(id), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stop_sound(&mut self, sound: SoundId, fade: Tween) -> Result<(), VoiceError> {
        let fade = check_fade(fade)?;
        if self.sounds.get(sound).is_none() {
            return Ok(());
        }
        self.stop_where(fade, |voice| voice.sound == sound.index)
    }

    /// Stops every voice an owner plays ([`PlayParams::owner`](crate::PlayParams::owner)),
    /// of every sound, fading out with `fade`: the tank is destroyed, its engine
    /// and its shots go with it. Voices of other owners, and voices without one,
    /// play on.
    ///
    /// # Errors
    /// As [`stop_all`](Self::stop_all).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 4800].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let shot = sfx.add_sound("shot", click, SoundSettings::default())?;
    /// let (tank, jeep) = (1, 2);
    /// let from_tank = sfx.play(shot, PlayParams::default().owner(tank))?;
    /// let from_jeep = sfx.play(shot, PlayParams::default().owner(jeep))?;
    /// sfx.stop_owner(tank, Tween::default())?;
    /// assert!(!sfx.contains(from_tank) && sfx.contains(from_jeep));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stop_owner(&mut self, owner: u64, fade: Tween) -> Result<(), VoiceError> {
        let fade = check_fade(fade)?;
        self.stop_where(fade, |voice| voice.owner == Some(owner))
    }

    /// Stops every voice `which` picks: all of them, or none if the queue has no
    /// room for a stop per real voice picked.
    fn stop_where(
        &mut self,
        fade: Tween,
        mut which: impl FnMut(&VoiceRecord) -> bool,
    ) -> Result<(), VoiceError> {
        self.room_for(self.voices.count_real(&mut which))?;
        self.voices
            .stop_where(fade, EndReason::Stopped, &mut self.sounds, which);
        Ok(())
    }

    /// Pauses every voice, fading out with `fade`.
    ///
    /// # Errors
    /// As [`stop_all`](Self::stop_all).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default())?;
    /// sfx.pause_all(Tween::default())?;
    /// sfx.resume_all(Tween::default())?;
    /// assert!(sfx.contains(voice));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn pause_all(&mut self, fade: Tween) -> Result<(), VoiceError> {
        let fade = check_fade(fade)?;
        self.each_voice(true, |slot, ticket| Command::Pause { slot, ticket, fade })
    }

    /// Resumes every paused voice, fading in with `fade`.
    ///
    /// # Errors
    /// As [`stop_all`](Self::stop_all).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// assert!(sfx.resume_all(Tween { easing: kira::Easing::OutPowi(-2), ..Default::default() }).is_err());
    /// sfx.resume_all(Tween::default())?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resume_all(&mut self, fade: Tween) -> Result<(), VoiceError> {
        let fade = check_fade(fade)?;
        self.each_voice(false, |slot, ticket| Command::Resume { slot, ticket, fade })
    }

    /// Marks every live voice paused (or not) and sends each real one the command
    /// `command` builds; nothing if the queue has no room for all of them.
    fn each_voice(
        &mut self,
        paused: bool,
        command: impl Fn(u32, u32) -> Command,
    ) -> Result<(), VoiceError> {
        self.room_for(self.voices.real().len())?;
        self.voices.mark_all(paused, command);
        Ok(())
    }
}

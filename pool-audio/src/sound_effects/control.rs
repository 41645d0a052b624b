//! Per-voice control (stop, pause, resume, volume, position) and the calls that
//! act on many voices at once. A voice ends only through `end_voice` or the
//! stop-where sweep, both of which end it through `Slots::retire`.

use std::time::Duration;

use kira::Tween;
use kira::sound::static_sound::StaticSoundHandle;
use pool_core::StaleHandle;

use super::SoundEffects;
use crate::error::VoiceError;
use crate::params::{ParamError, check_fade, check_position, check_volume};
use crate::voice::{SoundId, Voice, VoiceHandle, VoiceKey};

impl SoundEffects {
    /// Stops a live voice's kira sound with `fade`, frees its copy index and gives
    /// the voice back to the pool.
    pub(super) fn end_voice(&mut self, key: VoiceKey, fade: Tween) {
        let Some(voice) = self.voices.get_mut(key) else {
            return;
        };
        self.slots.retire().voice(key, voice, Some(fade));
        let _ = self.voices.release(key);
    }

    /// Stops a voice, fading out with `fade` (kira's [`Tween`]); its handle goes
    /// stale. Its copy index is free at once, but a new copy there waits for this
    /// one to fade out (at most the steal fade: a longer fade is cut short then).
    ///
    /// # Errors
    /// [`VoiceError::Stale`] if it already ended, [`VoiceError::WrongManager`] for
    /// another manager's handle, [`VoiceError::InvalidParam`] for a fade whose
    /// easing power is NaN, infinite or negative (nothing changes then).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use std::time::Duration;
    /// # use kira::Easing;
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings, StaleHandle, VoiceError};
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
        let key = self.own_voice(voice)?;
        let fade = check_fade(fade)?;
        if !self.voices.contains(key) {
            return Err(VoiceError::Stale(StaleHandle));
        }
        self.end_voice(key, fade);
        Ok(())
    }

    pub(super) fn voice_mut(&mut self, voice: VoiceHandle) -> Result<&mut Voice, VoiceError> {
        let key = self.own_voice(voice)?;
        self.voices
            .get_mut(key)
            .ok_or(VoiceError::Stale(StaleHandle))
    }

    /// Pauses a voice (it keeps its voice and copy index), fading out with `fade`.
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
        let fade = check_fade(fade)?;
        let voice = self.voice_mut(voice)?;
        voice.paused = true;
        if let Some(kira) = &mut voice.kira {
            kira.pause(fade);
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
        let fade = check_fade(fade)?;
        let voice = self.voice_mut(voice)?;
        voice.paused = false;
        if let Some(kira) = &mut voice.kira {
            kira.resume(fade);
        }
        Ok(())
    }

    /// Sets a voice's play volume: the linear amplitude in `[0, 1]` its copy
    /// volume is multiplied by, reached with `fade`.
    ///
    /// # Errors
    /// [`VoiceError::InvalidParam`] for a volume that is NaN or outside `[0, 1]`
    /// (the voice is unchanged), or as [`stop`](Self::stop).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use pool_audio::{OfflineBackend, ParamError, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings, VoiceError};
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
        let volume = check_volume(volume)?;
        let fade = check_fade(fade)?;
        let first = self
            .own_voice(voice)
            .ok()
            .and_then(|key| self.voices.get(key))
            .and_then(|v| self.slots.sounds.get(v.sound as usize))
            .map_or(0.0, |s| s.volumes.volume(0));
        let (listener, now) = (self.listener, self.now);
        let voice = self.voice_mut(voice)?;
        let delay = match fade.start_time {
            kira::StartTime::Delayed(delay) => delay,
            _ => Duration::ZERO,
        };
        let length = delay.saturating_add(fade.duration).as_micros();
        let end = now.saturating_add(u64::try_from(length).unwrap_or(u64::MAX));
        voice.fade = (end > now).then_some((end, fade.easing));
        voice.play_volume = volume;
        voice.reference = (first * volume) as f32;
        voice.volume = voice.base_volume * volume;
        let (volume, _) = voice.kira_mix(voice.volume, listener);
        if let Some(kira) = &mut voice.kira {
            kira.set_volume(volume, fade);
        }
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
        let position = check_position(position.into())?;
        let (listener, now) = (self.listener, self.now);
        let voice = self.voice_mut(voice)?;
        voice.position = Some(position);
        voice.respatialize(listener, now);
        Ok(())
    }

    /// Stops every voice, fading out with `fade`.
    ///
    /// # Errors
    /// [`ParamError::Fade`] for a fade whose easing power is NaN, infinite or
    /// negative; nothing stops then.
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
    /// assert_eq!(sfx.stats().active_voices, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stop_all(&mut self, fade: Tween) -> Result<(), ParamError> {
        let fade = check_fade(fade)?;
        self.stop_where(fade, |_| true);
        Ok(())
    }

    /// Stops every copy of one sound, fading out with `fade`. Another manager's
    /// sound id stops nothing.
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
    pub fn stop_sound(&mut self, sound: SoundId, fade: Tween) -> Result<(), ParamError> {
        let fade = check_fade(fade)?;
        if sound.owner == self.owner {
            self.stop_where(fade, |voice| voice.sound == sound.index);
        }
        Ok(())
    }

    pub(super) fn stop_where(&mut self, fade: Tween, mut which: impl FnMut(&Voice) -> bool) {
        let mut retire = self.slots.retire();
        self.voices.reclaim(|key, voice| {
            let stop = which(voice);
            if stop {
                retire.voice(key, voice, Some(fade));
            }
            stop
        });
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
    pub fn pause_all(&mut self, fade: Tween) -> Result<(), ParamError> {
        let fade = check_fade(fade)?;
        self.each_voice(true, |kira| kira.pause(fade));
        Ok(())
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
    pub fn resume_all(&mut self, fade: Tween) -> Result<(), ParamError> {
        let fade = check_fade(fade)?;
        self.each_voice(false, |kira| kira.resume(fade));
        Ok(())
    }

    /// Marks every live voice paused (or not) and calls `f` on each kira sound.
    fn each_voice(&mut self, paused: bool, mut f: impl FnMut(&mut StaticSoundHandle)) {
        self.voices.for_each_mut(|_, voice| {
            voice.paused = paused;
            if let Some(kira) = &mut voice.kira {
                f(kira);
            }
        });
    }
}

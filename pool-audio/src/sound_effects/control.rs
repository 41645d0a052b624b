//! Per-voice control (stop, pause, resume, volume, playback rate, position) and
//! the calls that act on many voices at once. A real voice is told through a
//! command to the voice bank: every call checks that the queue has room for all
//! its commands before it changes anything.

use kira::{Decibels, Tween};
use pool_core::StaleHandle;

use super::SoundEffects;
use crate::bank::Command;
use crate::capture::{VoiceCall, What};
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

    pub(crate) fn stop(&mut self, voice: VoiceHandle, fade: Tween) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let fade = check_fade(fade)?;
        self.room_for(1)?;
        self.note(|_| {
            Some(What::Voice {
                voice: Self::number_of_key(key),
                call: VoiceCall::Stop(fade),
            })
        });
        self.voices
            .end(key, fade, EndReason::Stopped, &mut self.sounds);
        Ok(())
    }

    pub(crate) fn pause(&mut self, voice: VoiceHandle, fade: Tween) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let fade = check_fade(fade)?;
        self.room_for(1)?;
        self.note(|_| {
            Some(What::Voice {
                voice: Self::number_of_key(key),
                call: VoiceCall::Pause(fade),
            })
        });
        self.voices
            .tell(key, |slot, ticket| Command::Pause { slot, ticket, fade });
        if let Some(voice) = self.voices.get_mut(key) {
            voice.paused = true;
        }
        Ok(())
    }

    pub(crate) fn resume(&mut self, voice: VoiceHandle, fade: Tween) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let fade = check_fade(fade)?;
        self.room_for(1)?;
        self.note(|_| {
            Some(What::Voice {
                voice: Self::number_of_key(key),
                call: VoiceCall::Resume(fade),
            })
        });
        self.voices
            .tell(key, |slot, ticket| Command::Resume { slot, ticket, fade });
        if let Some(voice) = self.voices.get_mut(key) {
            voice.paused = false;
        }
        Ok(())
    }

    pub(crate) fn set_volume(
        &mut self,
        voice: VoiceHandle,
        volume: Decibels,
        fade: Tween,
    ) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let checked = check_volume(volume)?;
        let fade = check_fade(fade)?;
        self.room_for(1)?;
        self.note(|_| {
            Some(What::Voice {
                voice: Self::number_of_key(key),
                call: VoiceCall::Volume(volume, fade),
            })
        });
        let volume = checked;
        // The play's drawn variation stays: the voice varies from the new volume.
        let volume = self
            .voices
            .get(key)
            .map_or(volume, |v| v.variation.volume(volume));
        let curve = self.voices.get(key).map_or(1.0, |v| v.curve.gain);
        let reference = self
            .voices
            .get(key)
            .and_then(|v| self.sounds.entry(v.sound))
            .map_or(0.0, |s| s.reference(volume * curve));
        let Some(record) = self.voices.get_mut(key) else {
            return Err(VoiceError::Stale(StaleHandle));
        };
        record.play_volume = volume;
        record.reference = reference;
        let level = kira_volume(record.volume());
        self.voices.tell(key, |slot, ticket| Command::SetVolume {
            slot,
            ticket,
            volume: level,
            fade,
        });
        Ok(())
    }

    pub(crate) fn set_send(
        &mut self,
        voice: VoiceHandle,
        bus: crate::TrackId,
        level: Decibels,
        tween: Tween,
    ) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        if !(crate::MIN_MIX.0..=crate::MAX_MIX.0).contains(&level.0) {
            return Err(VoiceError::InvalidParam(crate::ParamError::SendLevel(
                level,
            )));
        }
        let tween = check_fade(tween)?;
        let sound = self.voices.get(key).map(|v| v.sound);
        let out = self.buses.out_of(bus).ok().flatten();
        let index = sound
            .and_then(|s| self.sounds.entry(s))
            .and_then(|entry| {
                entry
                    .sends
                    .iter()
                    .position(|s| s.out != 0 && Some(s.out) == out)
            })
            .ok_or(VoiceError::NoSend(bus))?;
        self.room_for(1)?;
        let Some(record) = self.voices.get_mut(key) else {
            return Err(VoiceError::Stale(StaleHandle));
        };
        record.send_levels[index] = level.0;
        let given = level;
        let level = record.send_level(index);
        self.voices.tell(key, |slot, ticket| Command::SetSend {
            slot,
            ticket,
            index: index as u8,
            level,
            tween,
        });
        self.note(|_| {
            let call = VoiceCall::Send(bus, given, tween);
            Some(What::Voice {
                voice: Self::number_of_key(key),
                call,
            })
        });
        Ok(())
    }

    pub(crate) fn set_playback_rate(
        &mut self,
        voice: VoiceHandle,
        rate: f64,
        fade: Tween,
    ) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let rate = check_playback_rate(rate)?;
        let fade = check_fade(fade)?;
        self.room_for(1)?;
        self.note(|_| {
            Some(What::Voice {
                voice: Self::number_of_key(key),
                call: VoiceCall::Rate(rate, fade),
            })
        });

        // The play's drawn pitch stays: the voice varies from the new rate.
        let rate = self
            .voices
            .get(key)
            .map_or(rate, |v| v.variation.rate(rate));
        let rate = match self.voices.get_mut(key) {
            Some(record) => {
                record.playback_rate = rate;
                record.rate()
            }
            None => rate,
        };
        self.voices
            .tell(key, |slot, ticket| Command::SetPlaybackRate {
                slot,
                ticket,
                rate,
                fade,
            });
        Ok(())
    }

    pub(crate) fn set_panning(
        &mut self,
        voice: VoiceHandle,
        panning: f32,
        fade: Tween,
    ) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let panning = check_panning(panning)?;
        let fade = check_fade(fade)?;
        self.room_for(1)?;
        self.note(|_| {
            Some(What::Voice {
                voice: Self::number_of_key(key),
                call: VoiceCall::Panning(panning, fade),
            })
        });

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

    pub(crate) fn set_position(
        &mut self,
        voice: VoiceHandle,
        position: impl Into<mint::Vector3<f32>>,
    ) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let position = check_position(position.into())?;
        self.room_for(1)?;
        self.note(|_| {
            Some(What::Voice {
                voice: Self::number_of_key(key),
                call: VoiceCall::Position(position),
            })
        });

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

    pub(crate) fn set_position_2d(
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
    /// assert_eq!(sfx.sound_info(id).copies_playing(), 0);
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
    /// assert!(!sfx.state(from_tank).is_live() && sfx.state(from_jeep).is_live());
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
    /// assert!(sfx.state(voice).is_live());
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
    /// assert!(sfx.resume_all(Tween { easing: pool_audio::kira::Easing::OutPowi(-2), ..Default::default() }).is_err());
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

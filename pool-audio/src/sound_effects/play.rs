//! Playing a copy of a sound: choosing its copy index, recycling or refusing when
//! the sound is full, stealing when the voice cap is reached, and taking over a
//! copy started in the same frame.

use std::time::Duration;

use kira::{Decibels, Panning, PlaybackRate};

use super::SoundEffects;
use crate::clock;
use crate::copies::{Placement, linear};
use crate::error::PlayError;
use crate::level::decibels;
use crate::params::PlayParams;
use crate::settings::WhenFull;
use crate::voice::{SoundId, Voice, VoiceHandle, VoiceKey};

impl SoundEffects {
    /// Plays one copy of `sound`: a copy index, a pooled voice, and a kira sound on
    /// the sound-effects track (or an emitter, if positioned).
    ///
    /// - The copy index is the lowest one with nothing audible on it; if every free
    ///   index still has a stopped copy fading out, the lowest free one, and the new
    ///   copy starts once that fade is over.
    /// - When the sound's copies are all playing, its [`WhenFull`] decides: recycle
    ///   its oldest copy (it fades out over the steal fade, then the new copy
    ///   starts; a copy started this same frame is simply taken over, since nothing
    ///   of it has been heard) or refuse.
    /// - The copy plays at its copy volume times `params.volume`, lowered by kira's
    ///   pan-law gain when panned, so its louder channel stays inside its budget.
    /// - When the voice cap is reached, the manager's [`Stealing`](crate::Stealing)
    ///   picks a voice to fade out, or refuses.
    ///
    /// # Errors
    /// A [`PlayError`] saying why nothing was started; a refusal is counted in
    /// [`stats`](Self::stats).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, ParamError, PlayError, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default().volume(0.5))?;
    /// assert!(sfx.contains(voice));
    /// assert_eq!(
    ///     sfx.play(id, PlayParams::default().volume(2.0)),
    ///     Err(PlayError::InvalidParam(ParamError::Volume(2.0)))
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play(&mut self, sound: SoundId, params: PlayParams) -> Result<VoiceHandle, PlayError> {
        params.validate()?;
        let position: Option<[f32; 3]> = params.position.map(Into::into);
        let (frame, now) = (self.frame, self.now);
        let Some(entry) = self.own_sound(sound) else {
            return Err(PlayError::UnknownSound);
        };
        let settings = entry.settings;
        if let Some((at, frame_at)) = entry.last_play
            && entry.min_retrigger > 0
            && !clock::reached(now - at, frame - frame_at, entry.min_retrigger)
        {
            self.stats.refused_retrigger += 1;
            return Err(PlayError::Retrigger);
        }

        let voices = &self.voices;
        let placement = entry.place(&self.slots.fading, |v| voices.get(v).map(|v| v.order));
        let (copy, victim, after) = match placement {
            Some(Placement::Free { copy, after }) => (copy, None, after),
            Some(Placement::Recycle { .. }) if settings.when_full == WhenFull::Strict => {
                self.stats.refused_sound_limit += 1;
                return Err(PlayError::SoundLimit);
            }
            Some(Placement::Recycle { copy, victim }) => (copy, Some(victim), None),
            None => return Err(PlayError::SoundLimit),
        };
        let base_volume =
            entry.volumes.volume(copy as u32) / entry.peak.pan_gain(params.panning).max(1.0);
        let volume = base_volume * params.volume;
        if volume <= 0.0 || decibels(volume) < settings.audibility_floor_db {
            self.stats.refused_inaudible += 1;
            return Err(PlayError::Inaudible);
        }

        // Taking over a copy that started this frame: same sound, same start, same
        // copy index; retune its kira sound instead of starting another.
        if let Some(victim) = victim
            && self
                .voices
                .get(victim)
                .is_some_and(|v| v.frame == frame && v.emitter.is_some() == position.is_some())
        {
            return self.take_over(sound, copy, victim, base_volume, params);
        }

        // Check everything that can refuse before anything is stopped or stolen.
        if position.is_some() && !self.slots.emitters.available(&mut self.track) {
            self.stats.refused_no_emitter += 1;
            return Err(PlayError::NoEmitter);
        }
        // Room in kira for one more sound, counting the ones fading out.
        if !self.slots.has_room(self.voices.live_len()) {
            self.stats.refused_voice_cap += 1;
            return Err(PlayError::VoiceCap);
        }
        let fade = linear(self.settings.steal_fade);
        let mut wait = false;
        if let Some(victim) = victim {
            self.end_voice(victim, fade);
            self.stats.recycled_copies += 1;
            wait = true;
        } else if let Some(outgoing) = after {
            // Hurry the index's previous copy out with the steal fade (it may have
            // been stopped with a longer one): the new copy waits for exactly that.
            if let Some(kira) = self
                .slots
                .fading
                .get_mut(outgoing)
                .and_then(|f| f.kira.as_mut())
            {
                kira.stop(fade);
            }
            wait = true;
        }
        let acquired = match self.voices.try_acquire_detailed() {
            Ok(acquired) => acquired,
            Err(_) => {
                self.stats.refused_voice_cap += 1;
                return Err(PlayError::VoiceCap);
            }
        };
        if let Some(stolen) = acquired.recycled {
            // The stolen voice's object is the one just handed out: end its sound.
            self.stats.stolen_voices += 1;
            if let Some(voice) = self.voices.get_mut(acquired.handle) {
                self.slots.retire().voice(stolen, voice, Some(fade));
            }
        }
        let entry = &self.slots.sounds[sound.index()];
        let mut data = entry
            .data
            .volume(Decibels(decibels(volume) as f32))
            .playback_rate(PlaybackRate(params.playback_rate))
            .panning(Panning(params.panning));
        if wait {
            data = data.start_time(
                self.slots
                    .handoff(data.settings.start_time, self.settings.steal_fade),
            );
            self.stats.delayed_starts += 1;
        }
        let emitter =
            position.and_then(|position| self.slots.emitters.take(position, params.spatial_blend));
        let played = match emitter {
            Some(e) => self.slots.emitters.play(e, data),
            None => self.track.play(data),
        };
        let kira = match played {
            Ok(kira) => kira,
            Err(_) => {
                if let Some(e) = emitter {
                    self.slots.emitters.give_back(e);
                }
                let _ = self.voices.release(acquired.handle);
                return Err(PlayError::Backend);
            }
        };
        let order = self.next_order;
        self.next_order += 1;
        if let Some(voice) = self.voices.get_mut(acquired.handle) {
            *voice = Voice {
                sound: sound.index,
                copy: copy as u8,
                kira: Some(kira),
                base_volume,
                volume,
                priority: settings.priority,
                position,
                emitter,
                frame,
                order,
            };
        }
        let entry = &mut self.slots.sounds[sound.index()];
        entry.copies[copy].voice = Some(acquired.handle);
        entry.last_play = Some((now, frame));
        self.stats.plays += 1;
        self.stats.peak_voices = self.stats.peak_voices.max(self.voices.live_len());
        Ok(VoiceHandle {
            key: acquired.handle,
            owner: self.owner,
        })
    }

    /// A new play takes over a voice of the same sound that started this frame:
    /// the old handle goes stale, the kira sound stays and is retuned.
    pub(super) fn take_over(
        &mut self,
        sound: SoundId,
        copy: usize,
        victim: VoiceKey,
        base_volume: f64,
        params: PlayParams,
    ) -> Result<VoiceHandle, PlayError> {
        let position: Option<[f32; 3]> = params.position.map(Into::into);
        // The same voice, with its kira sound, under a new handle: the old one is
        // stale. (`renew` fails only when no slot index is left, after ~2^62 plays.)
        let Ok(handle) = self.voices.renew(victim) else {
            self.stats.refused_voice_cap += 1;
            return Err(PlayError::VoiceCap);
        };
        let order = self.next_order;
        self.next_order += 1;
        let volume = base_volume * params.volume;
        let priority = self.slots.sounds[sound.index()].settings.priority;
        if let Some(voice) = self.voices.get_mut(handle) {
            if let Some(kira) = &mut voice.kira {
                let now = linear(Duration::ZERO);
                kira.set_volume(Decibels(decibels(volume) as f32), now);
                kira.set_playback_rate(PlaybackRate(params.playback_rate), now);
                kira.set_panning(Panning(params.panning), now);
            }
            if let (Some(e), Some(position)) = (voice.emitter, position) {
                self.slots.emitters.place(e, position, params.spatial_blend);
            }
            voice.base_volume = base_volume;
            voice.volume = volume;
            voice.priority = priority;
            voice.position = position;
            voice.order = order;
            voice.copy = copy as u8;
            voice.sound = sound.index;
        }
        let entry = &mut self.slots.sounds[sound.index()];
        entry.copies[copy].voice = Some(handle);
        entry.last_play = Some((self.now, self.frame));
        self.stats.plays += 1;
        self.stats.recycled_copies += 1;
        Ok(VoiceHandle {
            key: handle,
            owner: self.owner,
        })
    }
}

//! Playing a copy of a sound: choosing its copy index, recycling or refusing when
//! the sound is full, stealing when a cap is reached, starting it virtual when it
//! cannot be real and its sound virtualizes, and taking over a copy started in
//! the same frame.

use std::time::Duration;

use kira::PlaybackRate;

use super::SoundEffects;
use super::selection::{Start, virtualizes};
use crate::audibility::{Rank, attenuation, distance};
use crate::clock;
use crate::copies::{FadingKey, Placement, RecentPlay, Sound, linear};
use crate::error::PlayError;
use crate::level::decibels;
use crate::params::PlayParams;
use crate::settings::WhenFull;
use crate::voice::{Played, SoundId, Voice, VoiceHandle, VoiceKey, VoiceState, steal};

/// Where a new real voice goes, and which voice gives up its place for it.
struct Seat {
    copy: usize,
    /// The index's previous copy is still fading out: start after it.
    wait: bool,
    victim: Option<VoiceKey>,
    /// The victim is a copy of the same sound whose index is taken over.
    recycle: bool,
    /// The free index's previous copy, still fading out.
    after: Option<FadingKey>,
}

impl SoundEffects {
    /// Plays one copy of `sound`: a copy index, a pooled voice, and a kira sound on
    /// the sound-effects track (heard from the listener, if positioned). Returns its handle;
    /// [`play_detailed`](Self::play_detailed) also says whether it is real and
    /// which voice it displaced.
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
    /// - When the voice cap or the sound's group cap is reached, the cap's
    ///   [`Stealing`](crate::Stealing) picks a real voice to give way, or refuses;
    ///   a protected group's voices are never picked for another group's play.
    /// - A sound that [`Virtualize`](crate::Virtualization::Virtualize)s is never
    ///   refused for a cap, a full sound, the audibility floor or
    ///   kira's room: it takes the place of the least audible voice it may replace
    ///   if it is more audible by the margin (see
    ///   [`SoundEffectsSettings::virtual_margin_db`](crate::SoundEffectsSettings::virtual_margin_db)),
    ///   else it starts virtual.
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
        self.play_detailed(sound, params).map(|played| played.voice)
    }

    /// Like [`play`](Self::play), and says what happened: whether the new voice is
    /// real or virtual, and which voice (if any) gave up its place for it and what
    /// became of that one.
    ///
    /// # Errors
    /// As [`play`](Self::play).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, Resume, SoundEffects, SoundEffectsSettings, SoundSettings, Virtualization, VoiceState};
    /// # let hum = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 4800].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let settings = SoundEffectsSettings { voice_cap: 1, ..Default::default() };
    /// let mut sfx = SoundEffects::new(&mut manager, settings)?;
    /// let hum = sfx.add_sound("hum", hum.loop_region(..), SoundSettings::default()
    ///     .virtualization(Virtualization::Virtualize(Resume::FromElapsed)))?;
    /// let far = sfx.play_detailed(hum, PlayParams::default().position([0.0, 0.0, 50.0]))?;
    /// assert_eq!(far.state, VoiceState::Real);
    /// // A nearer one takes the only voice; the far one goes virtual.
    /// let near = sfx.play_detailed(hum, PlayParams::default().position([0.0, 0.0, 2.0]))?;
    /// assert_eq!(near.state, VoiceState::Real);
    /// assert_eq!(near.displaced, Some((far.voice, VoiceState::Virtual)));
    /// // A third, further still, starts virtual.
    /// let further = sfx.play_detailed(hum, PlayParams::default().position([0.0, 0.0, 80.0]))?;
    /// assert_eq!((further.state, further.displaced), (VoiceState::Virtual, None));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play_detailed(
        &mut self,
        sound: SoundId,
        params: PlayParams,
    ) -> Result<Played, PlayError> {
        params.validate()?;
        let Some(entry) = self.own_sound(sound) else {
            return Err(PlayError::UnknownSound);
        };
        let group = entry.settings.group.map(|g| g.index as usize);
        let result = self.try_play(sound, params);
        if let Some(group) = group.and_then(|g| self.groups.get_mut(g)) {
            match result {
                Ok(_) => group.stats.plays += 1,
                Err(_) => group.stats.refused += 1,
            }
        }
        result
    }

    fn try_play(&mut self, sound: SoundId, params: PlayParams) -> Result<Played, PlayError> {
        let position: Option<[f32; 3]> = params.position.map(Into::into);
        let (frame, now, listener) = (self.frame, self.now, self.listener);
        let entry = &self.slots.sounds[sound.index()];
        let settings = entry.settings;
        if held_back(entry, position.unwrap_or(listener), now, frame) {
            self.stats.refused_retrigger += 1;
            return Err(PlayError::Retrigger);
        }
        let virtualizes = virtualizes(settings.virtualization);
        let group = settings.group.map(|g| g.index);
        let reference = (entry.volumes.volume(0) * params.volume) as f32;
        let gain = attenuation(position, params.spatial_blend, listener);
        let rank = Rank {
            priority: settings.priority,
            level: reference * gain,
        };

        let voices = &self.voices;
        let placement = entry.place(&self.slots.fading, |v| voices.get(v).map(|v| v.order));
        let seat = match placement {
            None => return Err(PlayError::SoundLimit),
            Some(Placement::Free { copy, after }) => {
                let victim = if virtualizes {
                    self.cap_victim(group)
                        .filter(|victim| self.beaten(rank, *victim))
                } else {
                    Some(self.steal_victim(group)?)
                };
                victim.map(|victim| Seat {
                    copy,
                    wait: after.is_some(),
                    victim,
                    recycle: false,
                    after,
                })
            }
            Some(Placement::Recycle { copy, victim }) if !virtualizes => {
                if settings.when_full == WhenFull::Strict {
                    self.stats.refused_sound_limit += 1;
                    return Err(PlayError::SoundLimit);
                }
                Some(Seat {
                    copy,
                    wait: true,
                    victim: Some(victim),
                    recycle: true,
                    after: None,
                })
            }
            Some(Placement::Recycle { .. }) => self
                .least_audible_copy(sound.index())
                .filter(|(_, victim)| self.beaten(rank, Some(*victim)))
                .map(|(copy, victim)| Seat {
                    copy,
                    wait: true,
                    victim: Some(victim),
                    recycle: true,
                    after: None,
                }),
        };

        // Below the floor at its copy index: virtual, or not started at all.
        let seat = match seat {
            Some(seat) => {
                let entry = &self.slots.sounds[sound.index()];
                let volume = entry.volumes.volume(seat.copy as u32)
                    / entry.peak.pan_gain(params.panning).max(1.0)
                    * params.volume
                    * f64::from(gain);
                if volume <= 0.0 || decibels(volume) < settings.audibility_floor_db {
                    if !virtualizes {
                        self.stats.refused_inaudible += 1;
                        return Err(PlayError::Inaudible);
                    }
                    None
                } else {
                    Some(seat)
                }
            }
            None => None,
        };

        // Taking over a copy that started this frame: same sound, same start, same
        // copy index; retune its kira sound instead of starting another.
        if let Some(Seat {
            copy,
            victim: Some(victim),
            recycle: true,
            ..
        }) = seat
            && !virtualizes
            && self.voices.get(victim).is_some_and(|v| v.frame == frame)
        {
            return self.take_over(sound, copy, victim, params);
        }

        // Check everything that can refuse before anything is stopped or stolen.
        let seat = match seat {
            // Room in kira for one more sound, counting the ones fading out.
            Some(_) if !self.slots.has_room() => {
                if !virtualizes {
                    self.stats.refused_voice_cap += 1;
                    return Err(PlayError::VoiceCap);
                }
                None
            }
            seat => seat,
        };

        let mut displaced = None;
        if let Some(Seat {
            victim: Some(victim),
            recycle,
            ..
        }) = seat
        {
            let became = if recycle && !virtualizes {
                self.end_voice(victim, linear(self.settings.steal_fade));
                self.stats.recycled_copies += 1;
                VoiceState::Gone
            } else {
                self.displace(victim)
            };
            displaced = Some((victim, became));
        }
        if let Some(Seat {
            after: Some(outgoing),
            ..
        }) = seat
        {
            self.hurry(outgoing);
        }
        let Ok(acquired) = self.voices.try_acquire_detailed() else {
            self.stats.refused_voice_cap += 1;
            return Err(PlayError::VoiceCap);
        };
        if let Some(dropped) = acquired.recycled {
            // The least audible virtual voice gave its record up.
            self.stats.dropped_virtual += 1;
            displaced = displaced.or(Some((dropped, VoiceState::Gone)));
        }
        let key = acquired.handle;
        let order = self.next_order;
        self.next_order += 1;
        let entry = &self.slots.sounds[sound.index()];
        let playhead = entry.timeline.start();
        if let Some(voice) = self.voices.get_mut(key) {
            *voice = Voice {
                sound: sound.index,
                play_volume: params.volume,
                playback_rate: params.playback_rate,
                panning: params.panning,
                spatial_blend: params.spatial_blend,
                priority: settings.priority,
                position,
                frame,
                order,
                playhead,
                reference,
                rank,
                ..Voice::idle()
            };
        }
        let mut state = VoiceState::Virtual;
        if let Some(seat) = seat {
            let start = Start {
                wait: seat.wait,
                resume: None,
            };
            match self.start_kira(key, seat.copy, start) {
                Ok(()) => state = VoiceState::Real,
                Err(error) if !virtualizes => {
                    let _ = self.voices.release(key);
                    return Err(error);
                }
                Err(_) => {}
            }
        }
        remember(
            &mut self.slots.sounds[sound.index()],
            position.unwrap_or(listener),
            now,
            frame,
        );
        self.stats.plays += 1;
        let owner = self.owner;
        Ok(Played {
            voice: VoiceHandle { key, owner },
            state,
            displaced: displaced.map(|(key, became)| {
                let became = if self.voices.contains(key) {
                    became
                } else {
                    VoiceState::Gone
                };
                (VoiceHandle { key, owner }, became)
            }),
        })
    }

    /// `true` if a voice ranked `rank` may take the place of `victim` (none: a
    /// free place).
    fn beaten(&self, rank: Rank, victim: Option<VoiceKey>) -> bool {
        victim.is_none_or(|victim| {
            self.voices
                .get(victim)
                .is_some_and(|v| rank.beats(v.holding_rank(), self.margin))
        })
    }

    /// For a new real voice of a killing sound in `group`: no victim if no cap is
    /// full, else the voice the full cap's [`Stealing`](crate::Stealing) picks, or
    /// the refusal.
    fn steal_victim(&mut self, group: Option<u32>) -> Result<Option<VoiceKey>, PlayError> {
        if let Some(g) = group
            && self.real_in_group(g) >= self.groups[g as usize].settings.max_voices
        {
            let stealing = self.groups[g as usize].settings.stealing;
            return match steal(stealing, self.listener, self.displaceable(group, true)) {
                Some(victim) => Ok(Some(victim)),
                None => {
                    self.stats.refused_group_cap += 1;
                    Err(PlayError::GroupCap)
                }
            };
        }
        if self.slots.real.len() < self.settings.voice_cap {
            return Ok(None);
        }
        match steal(
            self.settings.stealing,
            self.listener,
            self.displaceable(group, false),
        ) {
            Some(victim) => Ok(Some(victim)),
            None => {
                self.stats.refused_voice_cap += 1;
                Err(PlayError::VoiceCap)
            }
        }
    }

    /// A new play takes over a voice of the same sound that started this frame:
    /// the old handle goes stale, the kira sound stays and is retuned.
    fn take_over(
        &mut self,
        sound: SoundId,
        copy: usize,
        victim: VoiceKey,
        params: PlayParams,
    ) -> Result<Played, PlayError> {
        let position: Option<[f32; 3]> = params.position.map(Into::into);
        // The same voice, with its kira sound, under a new handle: the old one is
        // stale. (`renew` fails only when no slot index is left, after ~2^62 plays.)
        let Ok(handle) = self.voices.renew(victim) else {
            self.stats.refused_voice_cap += 1;
            return Err(PlayError::VoiceCap);
        };
        if let Some(at) = self.slots.real.iter().position(|k| *k == victim) {
            self.slots.real[at] = handle;
        }
        let order = self.next_order;
        self.next_order += 1;
        let listener = self.listener;
        let entry = &self.slots.sounds[sound.index()];
        let base_volume =
            entry.volumes.volume(copy as u32) / entry.peak.pan_gain(params.panning).max(1.0);
        let reference = (entry.volumes.volume(0) * params.volume) as f32;
        let volume = base_volume * params.volume;
        let priority = entry.settings.priority;
        if let Some(voice) = self.voices.get_mut(handle) {
            voice.base_volume = base_volume;
            voice.play_volume = params.volume;
            voice.volume = volume;
            voice.playback_rate = params.playback_rate;
            voice.panning = params.panning;
            voice.spatial_blend = params.spatial_blend;
            voice.fade = None;
            voice.priority = priority;
            voice.position = position;
            voice.order = order;
            voice.copy = copy as u8;
            voice.sound = sound.index;
            voice.reference = reference;
            voice.rank = super::selection::rank_of(voice, listener);
            let (volume, panning) = voice.kira_mix(volume, listener);
            if let Some(kira) = &mut voice.kira {
                let now = linear(Duration::ZERO);
                kira.set_volume(volume, now);
                kira.set_playback_rate(PlaybackRate(params.playback_rate), now);
                kira.set_panning(panning, now);
            }
        }
        let entry = &mut self.slots.sounds[sound.index()];
        entry.copies[copy].voice = Some(handle);
        remember(entry, position.unwrap_or(listener), self.now, self.frame);
        self.stats.plays += 1;
        self.stats.recycled_copies += 1;
        Ok(Played {
            voice: VoiceHandle {
                key: handle,
                owner: self.owner,
            },
            state: VoiceState::Real,
            displaced: Some((
                VoiceHandle {
                    key: victim,
                    owner: self.owner,
                },
                VoiceState::Gone,
            )),
        })
    }
}

/// `true` if a play at `here` comes sooner than the sound's retrigger interval
/// after an earlier one (within the retrigger radius, if it has one).
fn held_back(entry: &Sound, here: [f32; 3], now: u64, frame: u64) -> bool {
    entry.min_retrigger > 0
        && entry.recent.iter().any(|play| {
            !clock::reached(now - play.micros, frame - play.frame, entry.min_retrigger)
                && entry
                    .settings
                    .retrigger_radius
                    .is_none_or(|radius| distance(play.position, here) <= radius)
        })
}

/// Remembers a play for the retrigger interval.
fn remember(entry: &mut Sound, here: [f32; 3], now: u64, frame: u64) {
    let play = RecentPlay {
        micros: now,
        frame,
        position: here,
    };
    if entry.settings.retrigger_radius.is_none() {
        entry.recent.clear();
    } else if entry.recent.is_full() {
        entry.recent.remove(0);
    }
    entry.recent.push(play);
}

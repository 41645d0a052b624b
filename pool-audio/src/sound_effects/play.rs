//! Playing a copy of a sound: recycling or refusing when the sound is full,
//! stealing when a cap is reached, starting it virtual when it cannot be real
//! and its sound virtualizes, and taking over a copy whose start the mixer has
//! not read yet.

use super::SoundEffects;
use super::selection::{CapRoom, linear, virtualizes};
use crate::audibility::{Rank, attenuation, distance};
use crate::bank::Begin;
use crate::clock;
use crate::error::PlayError;
use crate::level::decibels;
use crate::params::PlayParams;
use crate::settings::{Stealing, WhenFull};
use crate::sound::{RecentPlay, Sound};
use crate::voice::{
    EndReason, Place, Played, Playhead, SoundId, Voice, VoiceHandle, VoiceKey, VoiceState, steal,
};

/// Where a new real voice goes: which voice gives up its place for it.
struct Seat {
    victim: Option<VoiceKey>,
    /// The victim is a copy of the same sound.
    recycle: bool,
}

impl SoundEffects {
    /// Plays one copy of `sound`: a pooled voice, and a command to the voice bank
    /// (heard from the listener, if positioned), which starts it in the next block
    /// the mixer renders. Returns its handle; [`play_detailed`](Self::play_detailed)
    /// also says whether it is real and which voice it displaced. Allocates
    /// nothing.
    ///
    /// - The new copy is its sound's newest and plays at the first copy's volume
    ///   times `params.volume`, lowered by kira's pan-law gain when panned, so its
    ///   louder channel stays inside its budget; the older copies move down a
    ///   copy volume each (see [`CopyVolumes`](crate::CopyVolumes) and the crate
    ///   docs on how copies share a budget).
    /// - When the sound's copies are all playing, its [`WhenFull`] decides: recycle
    ///   its oldest copy (it fades out over the steal fade while the new one starts
    ///   at once; a copy whose start the mixer has not read yet is simply taken
    ///   over, since nothing of it has been heard) or refuse. A play that would
    ///   push the oldest copy under the audibility floor is not started.
    /// - When the voice cap or the sound's group cap is reached, the cap's
    ///   [`Stealing`](crate::Stealing) picks a real voice to give way, or refuses;
    ///   a protected group's voices are never picked for another group's play.
    /// - A sound that [`Virtualize`](crate::Virtualization::Virtualize)s is never
    ///   refused for a cap, a full sound, the audibility floor or
    ///   the bank's room: it takes the place of the least audible voice it may replace
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
        let (frame, now, listener) = (self.frame, self.micros, self.listener);
        let entry = &self.sounds[sound.index()];
        let settings = entry.settings;
        if held_back(entry, position.unwrap_or(listener), now, frame) {
            self.stats.refused_retrigger += 1;
            return Err(PlayError::Retrigger);
        }
        let virtualizes = virtualizes(settings.virtualization);
        let group = settings.group.map(|g| g.index);
        let first = entry.volumes.volume(0);
        let reference = (first * params.volume) as f32;
        let gain = attenuation(position, params.spatial_blend, listener);
        let rank = Rank {
            priority: settings.priority,
            level: reference * gain,
        };
        let pan_compensation = 1.0 / entry.peak.pan_gain(params.panning).max(1.0);
        // The level it starts at: the newest copy's, through the play's volume,
        // panning and distance.
        let onset = first * pan_compensation * params.volume * f64::from(gain);
        let audible = onset > 0.0 && decibels(onset) >= settings.audibility_floor_db;

        let seat = if !audible {
            None
        } else if entry.full() {
            let oldest = entry.copies.first().copied();
            if virtualizes {
                self.least_audible_copy(sound.index())
                    .filter(|victim| self.beaten(rank, Some(*victim)))
                    .map(|victim| Seat {
                        victim: Some(victim),
                        recycle: true,
                    })
            } else if entry.copies.len() < settings.max_voices {
                // Another copy would push the oldest under the audibility floor.
                self.stats.refused_inaudible += 1;
                return Err(PlayError::Inaudible);
            } else if settings.when_full == WhenFull::Strict {
                self.stats.refused_sound_limit += 1;
                return Err(PlayError::SoundLimit);
            } else {
                Some(Seat {
                    victim: oldest,
                    recycle: true,
                })
            }
        } else if virtualizes {
            match self.cap_victim(group) {
                CapRoom::Room => Some(Seat {
                    victim: None,
                    recycle: false,
                }),
                CapRoom::Displace(victim) if self.beaten(rank, Some(victim)) => Some(Seat {
                    victim: Some(victim),
                    recycle: false,
                }),
                CapRoom::Displace(_) | CapRoom::Full => None,
            }
        } else {
            let victim = self.steal_victim(group)?;
            Some(Seat {
                victim,
                recycle: false,
            })
        };
        if seat.is_none() && !virtualizes {
            self.stats.refused_inaudible += 1;
            return Err(PlayError::Inaudible);
        }

        // Taking over a copy of the same sound whose start the mixer has not read
        // yet: nothing of it has been heard, so the new play replaces it on its
        // slot.
        if let Some(Seat {
            victim: Some(victim),
            recycle: true,
        }) = seat
            && !virtualizes
            && let Some(played) = self.take_over(sound, victim, params)?
        {
            return Ok(played);
        }

        // Check everything that can refuse before anything is stopped or stolen.
        let seat = match seat {
            Some(_) if !self.slots.has_room() => {
                // Every slot holds a voice or one fading out.
                if !virtualizes {
                    self.stats.refused_no_free_voice += 1;
                    return Err(PlayError::NoFreeVoice);
                }
                None
            }
            seat => seat,
        };
        // A stop for the victim and a start: both fit, or neither is sent.
        let seat = match seat {
            Some(_) if self.bank.room() < 2 => {
                self.stats.queue_full += 1;
                if !virtualizes {
                    return Err(PlayError::QueueFull);
                }
                None
            }
            seat => seat,
        };

        let mut displaced = None;
        if let Some(Seat {
            victim: Some(victim),
            recycle,
        }) = seat
        {
            let became = if recycle && !virtualizes {
                self.end_voice(
                    victim,
                    linear(self.settings.steal_fade),
                    EndReason::Recycled,
                );
                self.stats.recycled_copies += 1;
                VoiceState::Gone
            } else {
                self.displace(victim)
            };
            displaced = Some((victim, became));
        }
        let Ok(acquired) = self.voices.try_acquire_detailed() else {
            self.stats.refused_no_free_voice += 1;
            return Err(PlayError::NoFreeVoice);
        };
        if let Some(dropped) = acquired.recycled {
            // The least audible virtual voice gave its record up.
            self.stats.dropped_virtual += 1;
            // The record comes back as it was (the pool has no hooks): it still
            // names the dropped voice's sound.
            let dropped_sound = self.voices.get(acquired.handle).map_or(0, |v| v.sound);
            self.ending.push(super::control::ended(
                self.owner,
                dropped,
                dropped_sound,
                EndReason::Dropped,
            ));
            displaced = displaced.or(Some((dropped, VoiceState::Gone)));
        }
        let key = acquired.handle;
        let order = self.next_order;
        self.next_order += 1;
        let playhead = self.sounds[sound.index()].timeline.start();
        if let Some(voice) = self.voices.get_mut(key) {
            *voice = Voice {
                sound: sound.index,
                play_volume: params.volume,
                playback_rate: params.playback_rate,
                panning: params.panning,
                spatial_blend: params.spatial_blend,
                priority: settings.priority,
                position,
                order,
                place: Place::Virtual(Playhead::At(playhead)),
                reference,
                rank,
                ..Voice::idle()
            };
        }
        let mut state = VoiceState::Virtual;
        if seat.is_some() {
            match self.start_real(key, Begin::Fresh) {
                Ok(()) => state = VoiceState::Real,
                Err(error) if !virtualizes => {
                    let _ = self.voices.release(key);
                    return Err(error);
                }
                Err(_) => {}
            }
        }
        remember(
            &mut self.sounds[sound.index()],
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
            return match self.steal(stealing, group, true) {
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
        match self.steal(self.settings.stealing, group, false) {
            Some(victim) => Ok(Some(victim)),
            None => {
                self.stats.refused_voice_cap += 1;
                Err(PlayError::VoiceCap)
            }
        }
    }

    /// The voice `stealing` gives up among the real voices a new voice of `group`
    /// may displace: the oldest by the start order kept beside each real voice,
    /// the others by the voices' records (see [`steal`]).
    fn steal(&self, stealing: Stealing, group: Option<u32>, group_full: bool) -> Option<VoiceKey> {
        match stealing {
            Stealing::Strict => None,
            Stealing::Oldest => self
                .displaceable(group, group_full)
                .min_by_key(|real| real.order)
                .map(|real| real.key),
            _ => steal(
                stealing,
                self.listener,
                self.displaceable_voices(group, group_full)
                    .map(|(key, voice)| (key, voice, self.level_now(key, voice))),
            ),
        }
    }

    /// A new play takes over a copy of the same sound whose start the mixer has
    /// not read yet: the same slot plays the new one instead, the old handle goes
    /// stale. `None` if the mixer has read it (the caller steals it instead).
    fn take_over(
        &mut self,
        sound: SoundId,
        victim: VoiceKey,
        params: PlayParams,
    ) -> Result<Option<Played>, PlayError> {
        let Some(Place::Real { slot, ticket }) = self.voices.get(victim).map(|v| v.place) else {
            return Ok(None);
        };
        if self.bank.room() < 1 {
            self.stats.queue_full += 1;
            return Err(PlayError::QueueFull);
        }
        let next = ticket.wrapping_add(1);
        if !self.bank.shared().replace(slot, ticket, next) {
            return Ok(None);
        }
        self.slots.renew(slot, next);
        // The same voice record under a new handle: the old one is stale.
        // (`renew` fails only when no slot index is left, after ~2^62 plays.)
        let Ok(handle) = self.voices.renew(victim) else {
            self.stats.refused_no_free_voice += 1;
            return Err(PlayError::NoFreeVoice);
        };
        self.ending.push(super::control::ended(
            self.owner,
            victim,
            sound.index,
            EndReason::Recycled,
        ));
        let order = self.next_order;
        self.next_order += 1;
        if let Some(real) = self.slots.real.iter_mut().find(|r| r.key == victim) {
            real.key = handle;
            real.order = order;
        }
        let (listener, now, frame) = (self.listener, self.micros, self.frame);
        let position: Option<[f32; 3]> = params.position.map(Into::into);
        let entry = &mut self.sounds[sound.index()];
        // Newest now: last among its sound's copies.
        if let Some(at) = entry.copies.iter().position(|k| *k == victim) {
            entry.copies.remove(at);
        }
        entry.copies.push(handle);
        let reference = (entry.volumes.volume(0) * params.volume) as f32;
        let priority = entry.settings.priority;
        if let Some(voice) = self.voices.get_mut(handle) {
            *voice = Voice {
                sound: sound.index,
                place: Place::Real { slot, ticket: next },
                play_volume: params.volume,
                playback_rate: params.playback_rate,
                panning: params.panning,
                spatial_blend: params.spatial_blend,
                priority,
                position,
                order,
                reference,
                ..Voice::idle()
            };
            voice.rank = super::selection::rank_of(voice, listener);
        }
        self.send_start(handle, Begin::Fresh);
        let entry = &mut self.sounds[sound.index()];
        remember(entry, position.unwrap_or(listener), now, frame);
        self.stats.plays += 1;
        self.stats.recycled_copies += 1;
        Ok(Some(Played {
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
        }))
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

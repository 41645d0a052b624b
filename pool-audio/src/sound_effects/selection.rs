//! Real and virtual voices: the per-frame update that gives back ended voices,
//! advances virtual playheads, ranks every voice by audibility (see
//! `audibility.rs`) and lets the most audible virtual voices take the places of
//! the least audible real ones; starting a voice in the bank; sending a real
//! voice virtual; and a voice's state.

use std::time::Duration;

use kira::{Easing, StartTime, Tween};
use pool_core::{TimeError, seconds_to_micros};

use super::SoundEffects;
use super::control::ended as ended_report;
use super::slots::{Ending, Real, Retire};
use crate::audibility::{Rank, attenuation, compare};
use crate::bank::{Begin, Command, Phase, Start};
use crate::error::PlayError;
use crate::settings::{Resume, Virtualization};
use crate::voice::{EndReason, Place, Playhead, Voice, VoiceHandle, VoiceKey, VoiceState};

impl SoundEffects {
    /// Once per frame: advances the game clock by `dt` seconds (for retrigger
    /// intervals and virtual playheads), gives every voice the mixer reports over
    /// back to the pool, ends virtual one-shots whose time is up, and frees the
    /// slots of voices that have faded out. Then it chooses the real voices: a
    /// virtual voice more audible than the least audible real voice it may
    /// replace (by the margin, or of a higher priority) takes its place; the real
    /// one fades out over the steal fade and goes virtual (or ends, if its sound
    /// kills), the virtual one starts in the voice bank at its playhead with a
    /// steal-fade fade-in, heard from the listener. A virtualizing real voice that
    /// fell under its sound's audibility floor goes virtual. A promotion that
    /// finds every slot of the bank taken (by voices still fading out) waits for a
    /// later update.
    ///
    /// A voice that goes virtual takes the mixer's playhead, where the bank
    /// stopped it, and runs on by the game's time steps exactly: offline, where
    /// each update follows the audio of its time step, a resumed voice starts
    /// where it would be had it played all along (a test checks it within 0.1 ms
    /// after ten minutes). On a device the game and audio clocks differ by up to
    /// one audio block.
    ///
    /// O(voices), plus a sort of the virtual voices that can become real; no heap
    /// allocation.
    ///
    /// # Errors
    /// [`TimeError`] for a negative, NaN or infinite `dt`; nothing changes.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// sfx.update(1.0 / 60.0)?;
    /// assert!(sfx.update(f64::NAN).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn update(&mut self, dt: f64) -> Result<(), TimeError> {
        let micros = seconds_to_micros(dt)?;
        self.micros = self.micros.saturating_add(micros);
        self.frame += 1;
        let listener = self.listener;
        let fade = linear(self.settings.steal_fade);
        let mut candidates = std::mem::take(&mut self.candidates);
        candidates.clear();
        let (mut ended, mut virtualized, mut deferred) = (0, 0, 0);
        // Room in the queue for the voices that go virtual under the floor.
        let mut room = self.bank.room();
        let sounds = &mut self.sounds;
        let slots = &mut self.slots;
        let bank = &mut self.bank;
        let (ending, owner) = (&mut self.ending, self.owner);
        self.voices.reclaim(|key, voice| {
            let sound = &sounds[voice.sound as usize];
            let (timeline, floor) = (sound.timeline, sound.floor);
            let virtualization = sound.settings.virtualization;
            voice.rank = rank_of(voice, listener);
            match voice.place {
                Place::Real { slot, ticket } => {
                    let status = bank.status(slot);
                    let mut retire = Retire {
                        sounds: &mut *sounds,
                        slots: &mut *slots,
                        bank: &mut *bank,
                    };
                    if status.ticket == ticket && status.phase == Phase::Done {
                        // It played to its end.
                        retire.voice(key, voice, Ending::Over);
                        ending.push(ended_report(owner, key, voice.sound, EndReason::Finished));
                        return true;
                    }
                    let under_floor = voice.rank.level < floor;
                    if under_floor && !voice.paused && virtualizes(virtualization) {
                        if room == 0 {
                            deferred += 1;
                        } else {
                            room -= 1;
                            retire.voice(key, voice, Ending::Fade(fade));
                            voice.place = Place::Virtual(Playhead::Awaiting {
                                slot,
                                ticket,
                                elapsed: 0.0,
                            });
                            virtualized += 1;
                        }
                    }
                    false
                }
                Place::Virtual(playhead) => {
                    let seconds = if voice.paused { 0.0 } else { dt };
                    let next = match playhead {
                        Playhead::At(at) => timeline.advance(at, seconds, voice.playback_rate),
                        Playhead::Awaiting {
                            slot,
                            ticket,
                            elapsed,
                        } => {
                            let elapsed = elapsed + seconds;
                            let status = bank.status(slot);
                            let stopped = status.ticket == ticket
                                && matches!(status.phase, Phase::Stopping | Phase::Done);
                            if stopped {
                                // Where the mixer stopped it, and on by the game
                                // time since.
                                let at = bank.shared().stopped_at(slot);
                                timeline.advance(at, elapsed, voice.playback_rate)
                            } else {
                                voice.place = Place::Virtual(Playhead::Awaiting {
                                    slot,
                                    ticket,
                                    elapsed,
                                });
                                return false;
                            }
                        }
                    };
                    match next {
                        Some(at) => voice.place = Place::Virtual(Playhead::At(at)),
                        None => {
                            ended += 1;
                            ending.push(ended_report(owner, key, voice.sound, EndReason::Finished));
                            return true;
                        }
                    }
                    if !voice.paused && voice.rank.level >= floor && voice.rank.level > 0.0 {
                        candidates.push((voice.rank, key, voice.sound));
                    }
                    false
                }
            }
        });
        // After the playheads were taken: a leaving voice's slot is reused only
        // once its playhead is known.
        self.slots.sweep(self.bank.shared());
        self.stats.ended_virtual += ended;
        self.stats.virtualized += virtualized;
        self.stats.queue_full += deferred;

        // Only candidates that could become real are sorted, most audible first.
        self.keep_promotable(&mut candidates);
        candidates.sort_unstable_by(|a, b| compare(b.0, a.0));
        for &(rank, key, _) in &candidates {
            self.promote(key, rank);
        }
        self.candidates = candidates;
        // Report every voice that ended since the last update, this one's too.
        self.ended.clear();
        std::mem::swap(&mut self.ended, &mut self.ending);
        Ok(())
    }

    /// Keeps the candidates that have room in every limit that applies to them, or
    /// beat (by the margin) the least audible real voice they may replace: the
    /// sound's least audible copy when its copies are all real; else its group's
    /// least audible voice when its group is full; else, when the voice cap is
    /// reached, the least audible voice not in another protected group. One pass
    /// over the real voices, one over the candidates. Promotions only raise those
    /// minima and fill that room, so no candidate left out could have become real.
    fn keep_promotable(&mut self, candidates: &mut Vec<(Rank, VoiceKey, u32)>) {
        if candidates.is_empty() {
            return;
        }
        fn lower(min: &mut Option<Rank>, rank: Rank) {
            if min.is_none_or(|m| compare(rank, m).is_lt()) {
                *min = Some(rank);
            }
        }
        self.group_scratch.fill((0, None));
        self.sound_scratch.fill((0, None));
        let mut unprotected = None;
        for real in &self.slots.real {
            let Some(voice) = self.voices.get(real.key) else {
                continue;
            };
            let (rank, sound) = (voice.holding_rank(), voice.sound as usize);
            let copies = &mut self.sound_scratch[sound];
            copies.0 += 1;
            lower(&mut copies.1, rank);
            match self.sounds[sound].settings.group {
                Some(group) => {
                    let g = group.index as usize;
                    self.group_scratch[g].0 += 1;
                    lower(&mut self.group_scratch[g].1, rank);
                    if !self.groups[g].settings.protected {
                        lower(&mut unprotected, rank);
                    }
                }
                None => lower(&mut unprotected, rank),
            }
        }
        let global_full = self.slots.real.len() >= self.settings.voice_cap;
        let margin = self.margin;
        candidates.retain(|&(rank, _, sound)| {
            let sound = sound as usize;
            let entry = &self.sounds[sound];
            let (copies, sound_min) = self.sound_scratch[sound];
            let threshold = if copies >= entry.audible {
                sound_min
            } else if let Some(group) = entry.settings.group {
                let (real, group_min) = self.group_scratch[group.index as usize];
                let settings = self.groups[group.index as usize].settings;
                if real >= settings.max_voices {
                    group_min
                } else if !global_full {
                    return true;
                } else if settings.protected {
                    match (unprotected, group_min) {
                        (Some(u), Some(g)) => Some(if compare(u, g).is_lt() { u } else { g }),
                        (u, g) => u.or(g),
                    }
                } else {
                    unprotected
                }
            } else if !global_full {
                return true;
            } else {
                unprotected
            };
            threshold.is_some_and(|lowest| rank.beats(lowest, margin))
        });
    }

    /// A virtual voice becomes real if it beats the least audible real voice it
    /// may replace (or there is room); nothing happens if it does not, if the
    /// bank has no free slot this frame, or if its playhead is not known yet.
    fn promote(&mut self, key: VoiceKey, rank: Rank) {
        let Some(voice) = self.voices.get(key) else {
            return;
        };
        let sound = voice.sound as usize;
        let Some(entry) = self.sounds.get(sound) else {
            return;
        };
        let begin = match (entry.settings.virtualization, voice.place) {
            (Virtualization::Virtualize(Resume::FromStart), _) => Begin::FromStart,
            (_, Place::Virtual(Playhead::At(at))) => Begin::At(at),
            // Its playhead is on its way from the mixer.
            _ => return,
        };
        let victim = if entry.full() {
            // The sound's copies are all real: its least audible one may give its
            // place over.
            match self.least_audible_copy(sound) {
                Some(victim) => Some(victim),
                None => return,
            }
        } else {
            match self.cap_victim(self.group_of(voice)) {
                CapRoom::Room => None,
                CapRoom::Displace(victim) => Some(victim),
                CapRoom::Full => return,
            }
        };
        if let Some(victim) = victim
            && !self
                .voices
                .get(victim)
                .is_some_and(|v| rank.beats(v.holding_rank(), self.margin))
        {
            return;
        }
        if !self.slots.has_room() || self.bank.room() < 2 {
            return;
        }
        if let Some(victim) = victim {
            self.displace(victim);
        }
        if self.start_real(key, begin).is_ok() {
            self.stats.promoted += 1;
        }
    }

    /// Whether a new real voice of `group` has room under the caps, or the least
    /// audible real voice it may replace.
    pub(super) fn cap_victim(&self, group: Option<u32>) -> CapRoom {
        let group_full = group
            .is_some_and(|g| self.real_in_group(g) >= self.groups[g as usize].settings.max_voices);
        if !group_full && self.slots.real.len() < self.settings.voice_cap {
            return CapRoom::Room;
        }
        self.displaceable_voices(group, group_full)
            .min_by(|(_, a), (_, b)| compare(a.holding_rank(), b.holding_rank()))
            .map_or(CapRoom::Full, |(key, _)| CapRoom::Displace(key))
    }

    /// The least audible real copy of a sound.
    pub(super) fn least_audible_copy(&self, sound: usize) -> Option<VoiceKey> {
        self.sounds
            .get(sound)?
            .copies
            .iter()
            .filter_map(|key| Some((*key, self.voices.get(*key)?.holding_rank())))
            .min_by(|a, b| compare(a.1, b.1))
            .map(|(key, _)| key)
    }

    /// A real voice gives up its place: it goes virtual if its sound virtualizes,
    /// else it ends; both with the steal fade. Returns what became of it. The
    /// caller has made sure the queue has room.
    pub(super) fn displace(&mut self, key: VoiceKey) -> VoiceState {
        let Some(voice) = self.voices.get(key) else {
            return VoiceState::Gone;
        };
        let group = self.group_of(voice);
        let settings = self.sounds[voice.sound as usize].settings;
        self.count_stolen(group);
        let fade = linear(self.settings.steal_fade);
        if virtualizes(settings.virtualization) {
            self.virtualize(key, fade);
            self.stats.virtualized += 1;
            VoiceState::Virtual
        } else {
            self.end_voice(key, fade, EndReason::Stolen);
            self.stats.stolen_voices += 1;
            VoiceState::Gone
        }
    }

    /// A real voice goes virtual: the bank fades it out with `fade` and reports
    /// where it stopped; it keeps its handle and parameters.
    pub(super) fn virtualize(&mut self, key: VoiceKey, fade: Tween) {
        let Some(voice) = self.voices.get_mut(key) else {
            return;
        };
        let mut retire = Retire {
            sounds: &mut self.sounds,
            slots: &mut self.slots,
            bank: &mut self.bank,
        };
        if let Some((slot, ticket)) = retire.voice(key, voice, Ending::Fade(fade)) {
            voice.place = Place::Virtual(Playhead::Awaiting {
                slot,
                ticket,
                elapsed: 0.0,
            });
        }
    }

    /// Makes the voice record `key` real: a free slot of the bank, and the start
    /// command (at `begin`). The caller has checked the caps, a free slot and the
    /// queue's room.
    pub(super) fn start_real(&mut self, key: VoiceKey, begin: Begin) -> Result<(), PlayError> {
        let Some(sound) = self.voices.get(key).map(|v| v.sound) else {
            return Err(PlayError::Backend);
        };
        let Some((slot, ticket)) = self.slots.take(sound) else {
            return Err(PlayError::NoFreeVoice);
        };
        if let Some(voice) = self.voices.get_mut(key) {
            voice.place = Place::Real { slot, ticket };
        }
        self.bank.shared().queue(slot, ticket);
        if !self.send_start(key, begin) {
            return Err(PlayError::QueueFull);
        }
        let entry = &mut self.sounds[sound as usize];
        entry.copies.push(key);
        let group = entry.settings.group.map(|g| g.index);
        let order = self.voices.get(key).map_or(0, |v| v.order);
        self.slots.real.push(Real { key, order, group });
        self.stats.peak_voices = self.stats.peak_voices.max(self.slots.real.len());
        Ok(())
    }

    /// Sends the start of the real voice `key`; `false` if the queue was full.
    pub(super) fn send_start(&mut self, key: VoiceKey, begin: Begin) -> bool {
        let Some(voice) = self.voices.get(key) else {
            return false;
        };
        let Place::Real { slot, ticket } = voice.place else {
            return false;
        };
        let source = self.sounds[voice.sound as usize].source.clone();
        let start = Start {
            slot,
            ticket,
            sound: voice.sound,
            source,
            volume: voice.play_volume,
            panning: voice.panning,
            rate: voice.playback_rate,
            position: voice.position,
            spatial_blend: voice.spatial_blend,
            begin,
        };
        self.bank.send(Command::Start(start)).is_ok()
    }

    /// A real voice's level now, as [`Stealing::Quietest`](crate::Stealing::Quietest)
    /// compares it: its sound's copy volume at its rank (its place among the
    /// sound's real copies, newest first; see `sound.rs`) times the play's volume.
    pub(super) fn level_now(&self, key: VoiceKey, voice: &Voice) -> f64 {
        let Some(entry) = self.sounds.get(voice.sound as usize) else {
            return 0.0;
        };
        let rank = entry
            .copies
            .iter()
            .rev()
            .position(|k| *k == key)
            .unwrap_or(0);
        entry.volumes.volume(rank as u32) * voice.play_volume
    }

    /// What a voice is doing now: [`VoiceState::Gone`] for a stale handle or
    /// another manager's.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings, VoiceState};
    /// # let tone = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 4800].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let id = sfx.add_sound("tone", tone, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default())?;
    /// assert_eq!(sfx.state(voice), VoiceState::Real);
    /// sfx.pause(voice, Tween::default())?;
    /// manager.backend_mut().render(0.05)?;
    /// assert_eq!(sfx.state(voice), VoiceState::Paused);
    /// sfx.stop(voice, Tween::default())?;
    /// assert_eq!(sfx.state(voice), VoiceState::Gone);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn state(&self, voice: VoiceHandle) -> VoiceState {
        let Some(voice) = self
            .own_voice(voice)
            .ok()
            .and_then(|key| self.voices.get(key))
        else {
            return VoiceState::Gone;
        };
        match (voice.place, voice.paused) {
            (Place::Virtual(_), false) => VoiceState::Virtual,
            (Place::Virtual(_), true) => VoiceState::Paused,
            (Place::Real { slot, ticket }, paused) => {
                let status = self.bank.status(slot);
                let phase = if status.ticket == ticket {
                    status.phase
                } else {
                    Phase::Queued
                };
                match (phase, paused) {
                    (Phase::Paused, _) => VoiceState::Paused,
                    (Phase::Pausing | Phase::Resuming, _) => VoiceState::Fading,
                    (_, true) => VoiceState::Fading,
                    _ => VoiceState::Real,
                }
            }
        }
    }
}

/// Room for one more real voice under the voice cap and its group's cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CapRoom {
    /// No cap is full.
    Room,
    /// A cap is full: this voice, the least audible it may replace, would give way.
    Displace(VoiceKey),
    /// A cap is full and no voice may give way.
    Full,
}

/// A voice's priority and audibility now (see `audibility.rs`).
pub(super) fn rank_of(voice: &Voice, listener: [f32; 3]) -> Rank {
    let gain = attenuation(voice.position, voice.spatial_blend, listener);
    Rank {
        priority: voice.priority,
        level: voice.reference * gain,
    }
}

pub(super) fn virtualizes(virtualization: Virtualization) -> bool {
    matches!(virtualization, Virtualization::Virtualize(_))
}

/// A linear fade (linear in amplitude, as the voice bank fades) starting now.
pub(super) fn linear(duration: Duration) -> Tween {
    Tween {
        start_time: StartTime::Immediate,
        duration,
        easing: Easing::Linear,
    }
}

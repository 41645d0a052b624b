//! Real and virtual voices: the per-frame update that advances virtual playheads,
//! ranks every voice by audibility (see `audibility.rs`) and lets the most audible
//! virtual voices take the places of the least audible real ones; starting a
//! voice's kira sound; sending a real voice virtual; and a voice's state.

use std::time::Duration;

use kira::sound::PlaybackState;
use kira::{PlaybackRate, Tween};
use pool_core::{TimeError, seconds_to_micros};

use super::SoundEffects;
use crate::audibility::{Rank, attenuation, compare};
use crate::copies::{Placement, Retire, linear};
use crate::error::PlayError;
use crate::settings::{Resume, Virtualization};
use crate::voice::{Voice, VoiceHandle, VoiceKey, VoiceState};

/// How a voice's kira sound starts.
pub(super) struct Start {
    /// Wait for the index's outgoing sound to fade out first.
    pub(super) wait: bool,
    /// A virtual voice coming back: fade in, from its playhead or its start.
    pub(super) resume: Option<Resume>,
}

impl SoundEffects {
    /// Once per frame: advances the game clock by `dt` seconds (for retrigger
    /// intervals and virtual playheads), gives every voice whose kira sound has
    /// stopped back to the pool (freeing its copy index), ends virtual one-shots
    /// whose time is up, and forgets faded-out sounds. Then it chooses the real
    /// voices: a virtual voice more audible than the least audible real voice it
    /// may replace (by the margin, or of a higher priority) takes its place; the
    /// real one fades out over the steal fade and goes virtual (or ends, if its
    /// sound kills), the virtual one starts in kira at its playhead with a
    /// steal-fade fade-in, heard from the listener. A virtualizing real
    /// voice that fell under its sound's audibility floor goes virtual.
    /// A promotion that finds no room on kira's track (a stopped sound holds its
    /// slot until the render after it has faded out) waits for a later update: after a burst of plays, up to two frames.
    ///
    /// Virtual playheads run on the game clock, and so do real ones: offline,
    /// where each update follows the audio of its time step, a resumed voice
    /// starts where it would be had it played all along (a test checks it within
    /// 1 ms). On a device the game and audio clocks differ by up to one audio
    /// block and the output latency.
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
        let seconds = micros as f64 / 1e6;
        self.now = self.now.saturating_add(micros);
        self.frame += 1;
        let listener = self.listener;
        let fade = linear(self.settings.steal_fade);
        let mut candidates = std::mem::take(&mut self.candidates);
        candidates.clear();
        let (mut ended, mut virtualized) = (0, 0);
        let slots = &mut self.slots;
        self.voices.reclaim(|key, voice| {
            let sound = &slots.sounds[voice.sound as usize];
            let (timeline, floor) = (sound.timeline, sound.floor);
            let virtualization = sound.settings.virtualization;
            voice.rank = rank_of(voice, listener);
            let mut retire = Retire {
                sounds: &mut slots.sounds,
                fading: &mut slots.fading,
                real: &mut slots.real,
            };
            if let Some(kira) = &voice.kira {
                if kira.state() == PlaybackState::Stopped {
                    retire.voice(key, voice, None);
                    return true;
                }
                if !voice.paused
                    && let Some(playhead) =
                        timeline.advance(voice.playhead, seconds, voice.playback_rate)
                {
                    voice.playhead = playhead;
                }
                let under_floor = voice.rank.level < floor;
                if under_floor && !voice.paused && virtualizes(virtualization) {
                    retire.voice(key, voice, Some(fade));
                    virtualized += 1;
                }
                return false;
            }
            if !voice.paused {
                match timeline.advance(voice.playhead, seconds, voice.playback_rate) {
                    Some(playhead) => voice.playhead = playhead,
                    None => {
                        ended += 1;
                        return true;
                    }
                }
                if voice.rank.level >= floor && voice.rank.level > 0.0 {
                    candidates.push((voice.rank, key, voice.sound));
                }
            }
            false
        });
        self.stats.ended_virtual += ended;
        self.stats.virtualized += virtualized;
        self.slots.forget_released();

        // Only candidates that could become real are sorted, most audible first.
        self.keep_promotable(&mut candidates);
        candidates.sort_unstable_by(|a, b| compare(b.0, a.0));
        for &(rank, key, _) in &candidates {
            self.promote(key, rank);
        }
        self.candidates = candidates;
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
        for key in &self.slots.real {
            let Some(voice) = self.voices.get(*key) else {
                continue;
            };
            let (rank, sound) = (voice.holding_rank(), voice.sound as usize);
            let copies = &mut self.sound_scratch[sound];
            copies.0 += 1;
            lower(&mut copies.1, rank);
            match self.slots.sounds[sound].settings.group {
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
            let entry = &self.slots.sounds[sound];
            let (copies, sound_min) = self.sound_scratch[sound];
            let threshold = if copies >= entry.copies.len() {
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
    /// may replace (or there is room); nothing happens if it does not, or if kira
    /// has no room for it this frame.
    fn promote(&mut self, key: VoiceKey, rank: Rank) {
        let Some(voice) = self.voices.get(key) else {
            return;
        };
        let sound = voice.sound as usize;
        let Some(entry) = self.slots.sounds.get(sound) else {
            return;
        };
        let resume = match entry.settings.virtualization {
            Virtualization::Virtualize(resume) => resume,
            Virtualization::Kill => Resume::FromElapsed,
        };
        let voices = &self.voices;
        let (copy, victim, after, wait) =
            match entry.place(&self.slots.fading, |v| voices.get(v).map(|v| v.order)) {
                Some(Placement::Free { copy, after }) => (
                    copy,
                    self.cap_victim(self.group_of(voice)),
                    after,
                    after.is_some(),
                ),
                // The sound's copies are all real: its least audible one may give
                // its index over.
                Some(Placement::Recycle { .. }) => match self.least_audible_copy(sound) {
                    Some((copy, victim)) => (copy, Some(Some(victim)), None, true),
                    None => return,
                },
                None => return,
            };
        let victim = match victim {
            // A cap is full and nothing may give way.
            None => return,
            Some(victim) => victim,
        };
        if let Some(victim) = victim
            && !self
                .voices
                .get(victim)
                .is_some_and(|v| rank.beats(v.holding_rank(), self.margin))
        {
            return;
        }
        if !self.slots.has_room() {
            return;
        }
        if let Some(victim) = victim {
            self.displace(victim);
        }
        if let Some(outgoing) = after {
            self.hurry(outgoing);
        }
        let start = Start {
            wait,
            resume: Some(resume),
        };
        if self.start_kira(key, copy, start).is_ok() {
            self.stats.promoted += 1;
        }
    }

    /// For a new real voice of `group` with a copy index of its own: `Some(None)`
    /// if no cap is full; `Some(Some(victim))`, the least audible real voice it
    /// may replace, if one is; `None` if a cap is full and no voice may give way.
    pub(super) fn cap_victim(&self, group: Option<u32>) -> Option<Option<VoiceKey>> {
        let group_full = group
            .is_some_and(|g| self.real_in_group(g) >= self.groups[g as usize].settings.max_voices);
        if !group_full && self.slots.real.len() < self.settings.voice_cap {
            return Some(None);
        }
        self.displaceable(group, group_full)
            .min_by(|(_, a), (_, b)| compare(a.holding_rank(), b.holding_rank()))
            .map(|(key, _)| Some(key))
    }

    /// Hurries a free index's previous copy out with the steal fade (it may have
    /// been stopped with a longer one): the new copy waits for exactly that.
    pub(super) fn hurry(&mut self, outgoing: crate::copies::FadingKey) {
        let fade = linear(self.settings.steal_fade);
        if let Some(kira) = self
            .slots
            .fading
            .get_mut(outgoing)
            .and_then(|f| f.kira.as_mut())
        {
            kira.stop(fade);
        }
    }

    /// The least audible real copy of a sound: its copy index and voice.
    pub(super) fn least_audible_copy(&self, sound: usize) -> Option<(usize, VoiceKey)> {
        self.slots
            .sounds
            .get(sound)?
            .copies
            .iter()
            .enumerate()
            .filter_map(|(copy, slot)| {
                let key = slot.voice?;
                Some((copy, key, self.voices.get(key)?.holding_rank()))
            })
            .min_by(|a, b| compare(a.2, b.2))
            .map(|(copy, key, _)| (copy, key))
    }

    /// A real voice gives up its place: it goes virtual if its sound virtualizes,
    /// else it ends; both with the steal fade. Returns what became of it.
    pub(super) fn displace(&mut self, key: VoiceKey) -> VoiceState {
        let Some(voice) = self.voices.get(key) else {
            return VoiceState::Gone;
        };
        let group = self.group_of(voice);
        let settings = self.slots.sounds[voice.sound as usize].settings;
        self.count_stolen(group);
        let fade = linear(self.settings.steal_fade);
        if virtualizes(settings.virtualization) {
            self.virtualize(key, fade);
            self.stats.virtualized += 1;
            VoiceState::Virtual
        } else {
            self.end_voice(key, fade);
            self.stats.stolen_voices += 1;
            VoiceState::Gone
        }
    }

    /// A real voice goes virtual: its kira sound fades out with `fade`, it keeps
    /// its handle, parameters and playhead.
    pub(super) fn virtualize(&mut self, key: VoiceKey, fade: Tween) {
        let Some(voice) = self.voices.get_mut(key) else {
            return;
        };
        if voice.kira.is_none() {
            return;
        }
        // Its playhead ran on with the game clock while it was real.
        self.slots.retire().voice(key, voice, Some(fade));
    }

    /// Starts the kira sound of the voice record `key` at copy index `copy`: at
    /// the copy's volume times the play's, lowered by the pan law when panned, and
    /// heard from the listener if positioned. The caller has checked the caps and
    /// kira's room.
    pub(super) fn start_kira(
        &mut self,
        key: VoiceKey,
        copy: usize,
        start: Start,
    ) -> Result<(), PlayError> {
        let Some(voice) = self.voices.get(key) else {
            return Err(PlayError::Backend);
        };
        let entry = &self.slots.sounds[voice.sound as usize];
        let base_volume =
            entry.volumes.volume(copy as u32) / entry.peak.pan_gain(voice.panning).max(1.0);
        let volume = base_volume * voice.play_volume;
        let (kira_volume, panning) = voice.kira_mix(volume, self.listener);
        let mut data = entry
            .data
            .volume(kira_volume)
            .playback_rate(PlaybackRate(voice.playback_rate))
            .panning(panning);
        let delay = if start.wait {
            self.stats.delayed_starts += 1;
            // A new play is heard from its start only after the wait: its playhead
            // begins that far before its start (a resumed voice skips ahead instead).
            data = data.start_time(
                self.slots
                    .handoff(data.settings.start_time, self.settings.steal_fade),
            );
            self.slots.handoff_delay(self.settings.steal_fade)
        } else {
            Duration::ZERO
        };
        if let Some(resume) = start.resume {
            data = data.fade_in_tween(linear(self.settings.steal_fade));
            if resume == Resume::FromElapsed {
                // Where the reference would be once the wait is over.
                let at = entry
                    .timeline
                    .advance(voice.playhead, delay.as_secs_f64(), voice.playback_rate)
                    .ok_or(PlayError::Backend)?;
                data = data.start_position(entry.timeline.start_position(at));
            }
        }
        let frames_per_second = f64::from(entry.data.sample_rate) * entry.timeline.direction();
        let Ok(kira) = self.track.play(data) else {
            return Err(PlayError::Backend);
        };
        if let Some(voice) = self.voices.get_mut(key) {
            if start.resume.is_none() {
                voice.playhead -= delay.as_secs_f64() * voice.playback_rate * frames_per_second;
            }
            voice.kira = Some(kira);
            voice.copy = copy as u8;
            voice.base_volume = base_volume;
            voice.volume = volume;
            self.slots.sounds[voice.sound as usize].copies[copy].voice = Some(key);
            self.slots.real.push(key);
        }
        self.stats.peak_voices = self.stats.peak_voices.max(self.slots.real.len());
        Ok(())
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
        match (&voice.kira, voice.paused) {
            (None, false) => VoiceState::Virtual,
            (None, true) => VoiceState::Paused,
            (Some(kira), paused) => match (kira.state(), paused) {
                (PlaybackState::Paused, _) => VoiceState::Paused,
                (
                    PlaybackState::Pausing
                    | PlaybackState::Resuming
                    | PlaybackState::WaitingToResume,
                    _,
                ) => VoiceState::Fading,
                (_, true) => VoiceState::Fading,
                _ => VoiceState::Real,
            },
        }
    }
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

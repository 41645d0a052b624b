//! The per-frame update: the pass over every voice (`voices/advance.rs`), then
//! the choice of real voices: a virtual voice more audible than the least
//! audible real voice it may replace takes its place.

use pool_core::{TimeError, seconds_to_micros};

use super::SoundEffects;
use super::seats::CapRoom;
use crate::audibility::{Rank, compare};
use crate::bank::Begin;
use crate::handles::{VoiceHandle, VoiceKey, VoiceState};
use crate::settings::{Resume, Virtualization};
use crate::sound_table::Tally;
use crate::voice_info::WhyVirtual;
use crate::voice_pool::{Place, Playhead, Promotable, StartWait};

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
        self.note(|_| Some(crate::capture::What::Update { dt }));
        self.now.micros = self.now.micros.saturating_add(micros);
        self.now.frame += 1;
        let fade = self.rules.steal_tween();
        if let Some(window) = &mut self.mix.window {
            window.advance(dt);
            self.now.window = Some(window.now());
        }
        let heard = (self.now.listener, self.now.window);
        self.move_listener(dt);
        self.follow_curves(dt);
        let teleport = self.rules.settings.teleport_speed;
        let done = self
            .voices
            .advance(dt, heard, (fade, teleport), &mut self.sounds);
        if let Some(window) = &mut self.mix.window {
            window.settle(done.loudest, done.ended_loudest);
            self.now.window = Some(window.now());
        }
        self.stats.stolen_voices += done.ended_below;
        self.stats.ended_virtual += done.ended;
        self.stats.virtualized += done.virtualized;
        self.stats.queue_full += done.deferred;
        self.crowd_out();

        // Only candidates that could become real are sorted, most audible first.
        let mut candidates = self.voices.take_candidates();
        self.keep_promotable(&mut candidates);
        candidates.sort_unstable_by(|a, b| compare(b.0, a.0));
        for &(rank, key, _) in &candidates {
            self.promote(key, rank);
        }
        self.voices.restore_candidates(candidates);
        // Report every voice that ended since the last update, this one's too.
        self.voices.turn_reports();
        if self.capture.is_some() {
            self.note_ended();
        }
        self.update_mix(dt);
        self.flush_zones();
        self.flush_chains();
        if self.capture.is_some() {
            self.note_decisions();
        }
        Ok(())
    }

    /// Copies their sound's budget no longer keeps at or above the audibility
    /// floor leave, oldest first: newer copies took their room. Each fades
    /// out over the steal fade (its level was already settling towards
    /// nothing) and goes virtual if its sound virtualizes, else ends
    /// [`EndReason::Crowded`](crate::EndReason::Crowded). Bounded by the real
    /// voices; one with no room in the bank's queue waits for the next update.
    fn crowd_out(&mut self) {
        if !self.voices.take_crowding() {
            return;
        }
        while let Some(key) = self.next_crowded() {
            if self.voices.queue_room() < 1 {
                // Tried again at the next update.
                self.stats.queue_full += 1;
                self.voices.keep_crowding();
                return;
            }
            let Some(settings) = self
                .voices
                .get(key)
                .and_then(|voice| self.sounds.entry(voice.sound))
                .map(|entry| entry.settings)
            else {
                return;
            };
            let fade = self.rules.steal_tween();
            self.stats.crowded_copies += 1;
            if settings.virtualization.virtualizes() {
                let why = crate::voice_info::WhyVirtual::Crowded;
                self.voices.virtualize(key, (fade, why), &mut self.sounds);
                self.stats.virtualized += 1;
            } else {
                let reason = crate::handles::EndReason::Crowded;
                self.voices.end(key, fade, reason, &mut self.sounds);
            }
        }
    }

    /// The oldest copy of a sound with more real copies than its budget keeps.
    fn next_crowded(&self) -> Option<VoiceKey> {
        self.voices.real().iter().find_map(|real| {
            let voice = self.voices.get(real.key)?;
            self.sounds.entry(voice.sound)?.crowded()
        })
    }

    /// Keeps the candidates that have room in every limit that applies to them, or
    /// beat (by the margin) the least audible real voice they may replace: the
    /// sound's least audible copy when its copies are all real; else its group's
    /// least audible voice when its group is full; else, when the voice cap is
    /// reached, the least audible voice not in another protected group. One pass
    /// over the real voices, one over the candidates. Promotions only raise those
    /// minima and fill that room, so no candidate left out could have become real.
    fn keep_promotable(&mut self, candidates: &mut Vec<Promotable>) {
        if candidates.is_empty() {
            return;
        }
        let unprotected = self.tally_real();
        let global_full = self.voices.real().len() >= self.rules.settings.voice_cap;
        let (margin, sounds, groups) = (self.rules.margin, &self.sounds, &self.groups);
        candidates.retain(|&(rank, _, sound)| {
            let Some(entry) = sounds.entry(sound) else {
                return false;
            };
            let (copies, sound_min) = sounds.tally[sound as usize];
            let threshold = if copies >= entry.kept {
                sound_min
            } else if let Some(group) = entry.settings.group {
                let (real, group_min) = groups.tally[group.index as usize];
                let settings = groups.settings(group.index);
                if real >= settings.max_voices {
                    group_min
                } else if !global_full {
                    return true;
                } else if settings.protected {
                    lowest(unprotected, group_min)
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

    /// Counts the real voices per sound and per group with the least audible of
    /// each (in the tables' scratch), and returns the least audible real voice
    /// outside every protected group. One pass over the real voices.
    fn tally_real(&mut self) -> Option<Rank> {
        self.groups.tally.fill((0, None));
        self.sounds.tally.fill((0, None));
        let mut unprotected = None;
        for real in self.voices.real() {
            let Some(voice) = self.voices.get(real.key) else {
                continue;
            };
            let rank = voice.holding_rank();
            count(&mut self.sounds.tally[voice.sound as usize], rank);
            match real.group {
                Some(g) => {
                    count(&mut self.groups.tally[g as usize], rank);
                    if !self.groups.protected(g) {
                        lower(&mut unprotected, rank);
                    }
                }
                None => lower(&mut unprotected, rank),
            }
        }
        unprotected
    }

    /// A virtual voice becomes real if it beats the least audible real voice it
    /// may replace (or there is room); nothing happens if it does not, if the
    /// bank has no free slot this frame, or if its playhead is not known yet.
    fn promote(&mut self, key: VoiceKey, rank: Rank) {
        let view = self.view();
        let Some(voice) = view.voices.get(key) else {
            return;
        };
        let Some(entry) = view.sounds.entry(voice.sound) else {
            return;
        };
        let begin = match (entry.settings.virtualization, voice.place) {
            // It has not begun: it begins on its frame, with its wait's rest.
            _ if voice.wait != StartWait::Begun => Begin::Fresh,
            (Virtualization::Virtualize(Resume::FromStart), _) => Begin::FromStart,
            (_, Place::Virtual(Playhead::At(at))) => Begin::At(at),
            // Its playhead is on its way from the mixer.
            _ => return,
        };
        let victim = if view.owner_full(entry, voice.owner) {
            // Its owner's copies are all real: the least audible of them may
            // give its place over.
            match view.least_audible_copy(voice.sound, voice.owner) {
                Some(victim) => Some(victim),
                None => return,
            }
        } else if entry.settled_full() {
            // The sound has all the copies its budget keeps: its least audible
            // one may give its place over.
            match view.least_audible_copy(voice.sound, None) {
                Some(victim) => Some(victim),
                None => return,
            }
        } else {
            match view.cap_room(entry.settings.group.map(|g| g.index)) {
                CapRoom::Room => None,
                CapRoom::LeastAudible(victim) => Some(victim),
                CapRoom::Full => return self.stays_virtual(key, WhyVirtual::Outranked),
            }
        };
        if victim.is_some_and(|victim| !view.beaten(rank, victim)) {
            return self.stays_virtual(key, WhyVirtual::Outranked);
        }
        if !self.voices.has_free_slot() {
            return self.stays_virtual(key, WhyVirtual::NoFreeSlot);
        }
        if self.voices.queue_room() < 2 {
            return self.stays_virtual(key, WhyVirtual::QueueFull);
        }
        if let Some(victim) = victim {
            self.displace(victim);
        }
        if self.start_real(key, begin, None).is_ok() {
            self.stats.promoted += 1;
            self.voices.promoted(key);
        }
    }

    /// A virtual voice that could not become real, for `why` (the voice
    /// table's reason kept up to date).
    fn stays_virtual(&mut self, key: VoiceKey, why: WhyVirtual) {
        if let Some(record) = self.voices.get_mut(key) {
            record.why = Some(why);
        }
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
    /// sfx.voice(voice).pause(Tween::default())?;
    /// manager.backend_mut().render(0.05)?;
    /// assert_eq!(sfx.state(voice), VoiceState::Paused);
    /// sfx.voice(voice).stop(Tween::default())?;
    /// assert_eq!(sfx.state(voice), VoiceState::Gone);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn state(&self, voice: VoiceHandle) -> VoiceState {
        match self.own_voice(voice) {
            Ok(key) => self.voices.state(key),
            Err(_) => VoiceState::Gone,
        }
    }

    /// Which of its sound's recordings a live voice plays, counted from 0 in
    /// the order given (`None` once it is gone).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let take = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 4800].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let id = sfx.add_sound("shot", [take.clone(), take.clone(), take], SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default().recording(2))?;
    /// assert_eq!(sfx.recording_of(voice), Some(2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn recording_of(&self, voice: VoiceHandle) -> Option<usize> {
        let key = self.own_voice(voice).ok()?;
        self.voices
            .get(key)
            .map(|record| usize::from(record.recording))
    }
}

/// Counts a real voice of rank `rank` in `tally`.
fn count(tally: &mut Tally, rank: Rank) {
    tally.0 += 1;
    lower(&mut tally.1, rank);
}

/// Lowers `min` to `rank` if `rank` is lower.
fn lower(min: &mut Option<Rank>, rank: Rank) {
    if min.is_none_or(|m| compare(rank, m).is_lt()) {
        *min = Some(rank);
    }
}

/// The lower of two minima.
fn lowest(a: Option<Rank>, b: Option<Rank>) -> Option<Rank> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if compare(a, b).is_lt() { a } else { b }),
        (a, b) => a.or(b),
    }
}

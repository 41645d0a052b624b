//! Playing a copy of a sound: the facts of the play, its plan (`plan.rs`), and
//! the one executor that carries a plan out: recycling, displacing or stealing
//! the victim, taking over a copy whose start the mixer has not read, starting
//! the new voice real or virtual.

use super::plan::{Leaves, Plan, PlayFacts, Victim, WhyVirtual, plan};
use super::seats::{ForPlay, View};
use super::{Now, SoundEffects};
use crate::Distances;
use crate::audibility::{Rank, attenuation, heard_priority};
use crate::cues::{Motion, Muffled, VoiceCues};
use std::sync::Arc;

use crate::WhenFull;
use crate::bank::{Begin, Source};
use crate::error::PlayError;
use crate::handles::{EndReason, Played, SoundId, VoiceHandle, VoiceKey, VoiceState};
use crate::mix_core::{Saved, Window, WindowNow, heard_db};
use crate::params::PlayParams;
use crate::sound_table::SoundEntry;
use crate::variations::Variation;
use crate::voice_pool::{Place, Playhead, VoiceRecord};

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
    ///   over, since nothing of it has been heard) or refuse. (Every one of
    ///   `max_voices` copies starts at or above the audibility floor: the copy
    ///   volumes are lifted to it.) A play whose own onset (its volume, its
    ///   distance) is under the floor is not started.
    /// - When the voice cap or the sound's group cap is reached, the cap's
    ///   [`Stealing`](crate::Stealing) picks a real voice to give way, or refuses;
    ///   a protected group's voices are never picked for another group's play.
    /// - A sound that [`Virtualize`](crate::Virtualization::Virtualize)s is never
    ///   refused for a cap, a full sound, the audibility floor or
    ///   the bank's room: it takes the place of the least audible voice it may replace
    ///   if it is more audible by the margin (see
    ///   [`SoundEffectsSettings::virtual_margin`](crate::SoundEffectsSettings::virtual_margin)),
    ///   else it starts virtual.
    ///
    /// # Errors
    /// A [`PlayError`] saying why nothing was started; a refusal is counted in
    /// [`stats`](Self::stats).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, error::ParamError, PlayError, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default().volume(-6.0))?;
    /// assert!(sfx.state(voice).is_live());
    /// assert_eq!(
    ///     sfx.play(id, PlayParams::default().volume(6.0)),
    ///     Err(PlayError::InvalidParam(ParamError::Volume(pool_audio::kira::Decibels(6.0))))
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
    /// # use pool_audio::{OfflineBackend, PlayParams, voices::Resume, SoundEffects, SoundEffectsSettings, SoundSettings, voices::Virtualization, VoiceState};
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
        let result = self.play_unnoted(sound, &params);
        self.note_play(sound, &params, &result);
        result
    }

    /// [`play_detailed`](Self::play_detailed), before the capture hears of it.
    #[inline]
    fn play_unnoted(&mut self, sound: SoundId, params: &PlayParams) -> Result<Played, PlayError> {
        let checked = params.validate().map_err(PlayError::from).and_then(|()| {
            let entry = self.sounds.get(sound).ok_or(PlayError::UnknownSound)?;
            let among = match &entry.switch {
                None if params.state.is_some() => return Err(PlayError::WrongState),
                None => crate::variations::Set::MAX,
                Some((switch, sets)) => (self.switches.set_for((*switch, sets), params.state))
                    .map_err(|_| PlayError::WrongState)?,
            };
            let drawn = entry.variation(params, &mut self.dice, among)?;
            Ok((entry, (drawn, among)))
        });
        let (entry, ((recording, variation), among)) = match checked {
            Ok(checked) => checked,
            Err(refusal) => {
                self.stats.count_refusal(refusal);
                return Err(refusal);
            }
        };
        // A louder sound in the loudness window raises its top first: it
        // plays as loud as it is, and the rest make room.
        let mut saved = None;
        if let (Some(db), Some(window)) = (entry.window_db, &mut self.mix.window) {
            let (gain, _, _) = heard(params, &entry.settings, self.now.listener);
            let before = window.save();
            if window.raise(heard_db(db, gain)) {
                saved = Some(before);
                self.now.window = Some(window.now());
            }
        }
        // Its sound's curves at the game's values (see `game.rs`).
        let drawn = (params, variation, entry.curve_now);
        let mut play = Play::of((sound, recording), entry, drawn, self.now);
        play.among = match &entry.switch {
            Some((_, sets)) => crate::variations::counted_in(recording, among, sets),
            None => among,
        };
        if let (Some(owner), Some(cap)) = (params.owner, entry.settings.max_voices_per_owner) {
            let (copies, oldest) = self.view().owner_copies(entry, owner);
            play.facts.owner_full = copies >= cap;
            play.facts.owner_oldest = oldest;
        }
        let mut plan = self.plan(&play);
        if let Some(saved) = saved {
            plan = self.raise_before(plan, saved);
        }
        let result = self.execute(&play, plan);
        self.groups.count_play(play.group, result.is_ok());
        if let (Some(saved), Err(_)) = (saved, &result) {
            // The raise reached the mixer: the top goes back to where it was.
            self.restore_window(saved, true);
        }
        result
    }

    /// A play that raised the loudness window's top: the groups' new gain
    /// goes to the mixer before the voice's start, so the loud voice is never
    /// heard against the old top. A refused plan (or no room in the queue for
    /// both) puts the top back as it was, having sent nothing.
    fn raise_before(&mut self, plan: Plan, saved: Saved) -> Plan {
        let room = self.voices.queue_room();
        let groups = self.mix.window.as_ref().map_or(0, Window::groups);
        match plan {
            Plan::Refuse(_) => {
                self.restore_window(saved, false);
                plan
            }
            // The gains, a start and a victim's stop.
            _ if room < groups + 2 => {
                self.restore_window(saved, false);
                Plan::Refuse(PlayError::QueueFull)
            }
            _ => {
                self.flush_mix();
                plan
            }
        }
    }

    /// Puts the window back as `saved` (see [`Window::restore`]).
    fn restore_window(&mut self, saved: Saved, sent: bool) {
        if let Some(window) = &mut self.mix.window {
            window.restore(saved, sent);
            self.now.window = Some(window.now());
        }
        if sent {
            self.flush_mix();
        }
    }

    /// The manager's parts, read.
    pub(super) fn view(&self) -> View<'_> {
        View {
            voices: &self.voices,
            sounds: &self.sounds,
            groups: &self.groups,
            rules: &self.rules,
            listener: self.now.listener,
        }
    }

    /// What `play` becomes now.
    #[inline]
    fn plan(&mut self, play: &Play) -> Plan {
        let queue_room = self.voices.queue_room();
        let seats = ForPlay {
            view: self.view(),
            sound: play.sound.index,
            group: play.group,
            queue_room,
        };
        plan(&play.facts, &seats)
    }

    /// Carries out `plan` for `play`.
    #[inline]
    fn execute(&mut self, play: &Play, mut plan: Plan) -> Result<Played, PlayError> {
        let victim = loop {
            match plan {
                Plan::Refuse(refusal) => {
                    self.stats.count_refusal(refusal);
                    return Err(refusal);
                }
                Plan::TakeOver(victim) => {
                    if let Some(played) = self.take_over(play, victim) {
                        return played;
                    }
                    // On a device the mixer can read the victim's start between
                    // the plan and the take-over: planned again, the victim is
                    // recycled, or the play refused.
                    plan = match self.plan(play) {
                        Plan::TakeOver(_) => Plan::Real(Some(Victim {
                            key: victim,
                            leaves: Leaves::Recycled,
                        })),
                        replanned => replanned,
                    };
                }
                Plan::Virtual(why) => {
                    if why == WhyVirtual::QueueFull {
                        self.stats.queue_full += 1;
                    }
                    return self.begin(play, None, why);
                }
                Plan::Real(victim) => break victim,
            }
        };
        let displaced = victim.map(|victim| (victim.key, self.give_way(victim)));
        self.begin(play, Some(displaced), WhyVirtual::QueueFull)
    }

    /// `victim` gives up its place: recycled (it ends), or displaced (it goes
    /// virtual or is stolen, by its sound). The queue has room.
    fn give_way(&mut self, victim: Victim) -> VoiceState {
        match victim.leaves {
            Leaves::Recycled => {
                let fade = self.rules.steal_tween();
                self.voices
                    .end(victim.key, fade, EndReason::Recycled, &mut self.sounds);
                self.stats.recycled_copies += 1;
                VoiceState::Gone
            }
            Leaves::Displaced => self.displace(victim.key),
        }
    }

    /// Starts the new voice of `play`: real in the place `real` names (with the
    /// voice that gave it up and what became of it), or virtual (`None`).
    #[inline]
    fn begin(
        &mut self,
        play: &Play,
        real: Option<Option<(VoiceKey, VoiceState)>>,
        why: WhyVirtual,
    ) -> Result<Played, PlayError> {
        // The sound's reference for the mixer, taken before the record is
        // written: a locked increment waits for every store before it.
        let source = real
            .and_then(|_| self.sounds.entry(play.sound.index))
            .and_then(|entry| entry.recording(play.recording))
            .map(|recording| recording.source.clone());
        let place = Place::Virtual(Playhead::At(play.start));
        let order = self.voices.next_order();
        let record = || play.record(order, place);
        let Ok((key, dropped)) = self.voices.acquire(record, &self.sounds) else {
            self.stats.count_refusal(PlayError::NoFreeVoice);
            return Err(PlayError::NoFreeVoice);
        };
        if dropped.is_some() {
            // The least audible virtual voice gave its record up.
            self.stats.dropped_virtual += 1;
        }
        let displaced = real.flatten().or(dropped.map(|d| (d, VoiceState::Gone)));
        let mut state = VoiceState::Virtual;
        if let Some(record) = self.voices.get_mut(key) {
            // Why it is virtual, if it does not become real.
            record.why = Some(why);
        }
        if let Some(source) = source {
            match self.start_real(key, Begin::Fresh, Some(source)) {
                Ok(()) => state = VoiceState::Real,
                Err(error) if !play.facts.virtualizes => {
                    self.voices.release(key);
                    self.stats.count_refusal(error);
                    return Err(error);
                }
                Err(_) => {}
            }
        }
        Ok(self.played(play, key, state, displaced))
    }

    /// `play` started the voice `key`: remembered for the retrigger interval,
    /// counted, and said.
    #[inline(always)]
    fn played(
        &mut self,
        play: &Play,
        key: VoiceKey,
        state: VoiceState,
        displaced: Option<(VoiceKey, VoiceState)>,
    ) -> Played {
        let now = self.now;
        if let Some(entry) = self.sounds.entry_mut(play.sound.index) {
            entry.remember(play.here, now.micros, now.frame);
            entry.picker.played(play.recording, play.among);
        }
        self.stats.plays += 1;
        Played {
            voice: self.voices.handle(key),
            state,
            displaced: displaced.map(|(key, became)| {
                let became = if self.voices.contains(key) {
                    became
                } else {
                    VoiceState::Gone
                };
                (self.voices.handle(key), became)
            }),
        }
    }

    /// `play` takes over `victim`, a copy of its sound whose start the mixer
    /// has not read yet (see [`Voices::take_over`](crate::voice_pool::Voices::take_over)).
    /// `None` if the mixer has read it meanwhile.
    fn take_over(&mut self, play: &Play, victim: VoiceKey) -> Option<Result<Played, PlayError>> {
        let record = |place, order| play.record(order, place);
        let recording = play.recording;
        let key = match self
            .voices
            .take_over(victim, recording, record, &mut self.sounds)?
        {
            Ok(key) => key,
            Err(refusal) => {
                self.stats.count_refusal(refusal);
                return Some(Err(refusal));
            }
        };
        self.stats.recycled_copies += 1;
        let displaced = Some((victim, VoiceState::Gone));
        Some(Ok(self.played(play, key, VoiceState::Real, displaced)))
    }

    /// Makes the record `key` real (see [`Voices::start_real`](crate::voice_pool::Voices::start_real)),
    /// with its sound's reference for the mixer if the caller took it already.
    #[inline]
    pub(super) fn start_real(
        &mut self,
        key: VoiceKey,
        begin: Begin,
        source: Option<Arc<Source>>,
    ) -> Result<(), PlayError> {
        let real = self
            .voices
            .start_real(key, begin, &mut self.sounds, source)?;
        self.stats.peak_voices = self.stats.peak_voices.max(real);
        Ok(())
    }

    /// A real voice gives up its place: it goes virtual if its sound
    /// virtualizes, else it ends; both with the steal fade. Returns what became
    /// of it. The caller has made sure the queue has room.
    pub(super) fn displace(&mut self, key: VoiceKey) -> VoiceState {
        let Some(settings) = self
            .voices
            .get(key)
            .and_then(|voice| self.sounds.entry(voice.sound))
            .map(|entry| entry.settings)
        else {
            return VoiceState::Gone;
        };
        self.groups.count_stolen(settings.group.map(|g| g.index));
        let fade = self.rules.steal_tween();
        if settings.virtualization.virtualizes() {
            let why = crate::voice_info::WhyVirtual::Outranked;
            self.voices.virtualize(key, (fade, why), &mut self.sounds);
            self.stats.virtualized += 1;
            VoiceState::Virtual
        } else {
            self.voices
                .end(key, fade, EndReason::Stolen, &mut self.sounds);
            self.stats.stolen_voices += 1;
            VoiceState::Gone
        }
    }
}

/// One play: what it is, for its plan, and what its new voice starts with.
struct Play<'a> {
    sound: SoundId,
    /// Which of the sound's recordings it plays.
    recording: u16,
    /// The recordings whose round it counts in: its switch state's (all for
    /// a sound of no switch), or for a named recording of another state,
    /// that state's.
    among: crate::variations::Set,
    /// What its sound's curves give.
    curve: crate::game::CurveOutput,
    params: &'a PlayParams,
    /// What its variation drew, and its volume: the parameters', varied.
    variation: Variation,
    volume: f64,
    /// Its sound's priority and distance offset.
    priority: (i32, i32),
    /// Its sound's group.
    group: Option<u32>,
    facts: PlayFacts,
    /// Its level before distance.
    reference: f32,
    /// Where it is heard from, for the retrigger radius (the listener for an
    /// unpositioned play).
    here: [f32; 3],
    /// Its sound's first transport position.
    start: f64,
    /// Its loudness and the window, if it plays in the loudness window.
    window: Option<(f64, WindowNow)>,
    /// Its velocity, doppler, obstruction and occlusion.
    cues: VoiceCues,
    /// How it fades with distance: its own, or its sound's.
    distances: Distances,
    /// When it begins: the play's start time, else its recording's own.
    start_time: kira::StartTime,
    /// Its sends' first levels (dB), its sound's.
    send_levels: [f32; crate::MAX_SENDS],
}

/// How much of a play reaches `listener`: its distance attenuation (its own
/// distances, or its sound's) through its occlusion's part of the muffle, as
/// [`VoiceRecord::heard_from`] hears it at every update once it plays; with
/// the muffle and the distances.
fn heard(
    params: &PlayParams,
    settings: &crate::SoundSettings,
    listener: [f32; 3],
) -> (f32, Muffled, Distances) {
    let muffled = Muffled::new(
        params.obstruction,
        params.occlusion,
        (&settings.obstruction, &settings.occlusion),
    );
    let distances = params.distances.unwrap_or(settings.distances);
    let position = params.position.map(Into::into);
    let blend = (params.spatial_blend, &distances);
    let gain = attenuation(position, blend, listener) * muffled.audibility;
    (gain, muffled, distances)
}

impl<'a> Play<'a> {
    /// A play of `recording` of `entry` (the sound `sound`) with `params`
    /// and their volume and rate as varied, at `now`.
    #[inline]
    fn of(
        (sound, recording): (SoundId, u16),
        entry: &SoundEntry,
        (params, variation, curve): (&'a PlayParams, Variation, crate::game::CurveOutput),
        now: Now,
    ) -> Self {
        let position: Option<[f32; 3]> = params.position.map(Into::into);
        let here = position.unwrap_or(now.listener);
        let settings = &entry.settings;
        let (blend, listener) = (params.spatial_blend, now.listener);
        let (gain, muffled, distances) = heard(params, settings, listener);
        let cues = VoiceCues {
            motion: Motion {
                velocity: params.velocity.map_or([0.0; 3], Into::into),
                given: params.velocity.is_some(),
                was_at: position,
            },
            doppler: settings.doppler_scale as f32,
            muffled,
        };
        let window = entry.window_db.zip(now.window);
        let (window_gain, below) = window.map_or((1.0, false), |(db, w)| {
            (w.gain(db), w.below(heard_db(db, gain)))
        });
        let volume = variation.volume(crate::level::amplitude_of(params.volume));
        let reference = entry.reference(volume * curve.gain);
        let priority = (settings.priority, settings.distance_priority_offset);
        let heard = heard_priority(priority, position, (blend, distances.max), listener);
        let onset = entry.onset(recording, volume * curve.gain, params.panning, gain);
        let facts = PlayFacts {
            held_back: entry.held_back(here, now.micros, now.frame),
            audible: entry.reaches_floor(onset * f64::from(window_gain)),
            in_window: !below,
            virtualizes: settings.virtualization.virtualizes(),
            full: entry.full(),
            strict: settings.when_full == WhenFull::Strict,
            oldest: entry.oldest(),
            owner: params.owner,
            // Counted by the caller, for a sound that caps its owners.
            owner_full: false,
            owner_oldest: None,
            rank: Rank::heard(heard, reference * window_gain, gain),
            tie: settings.tie,
        };
        Self {
            sound,
            recording,
            among: crate::variations::Set::MAX,
            curve,
            params,
            variation,
            volume,
            priority,
            group: settings.group.map(|g| g.index),
            facts,
            reference,
            here,
            start: entry
                .recording(recording)
                .map_or(0.0, |r| r.timeline.start()),
            window,
            cues,
            distances,
            send_levels: entry.sends.map(|s| s.level),
            start_time: match params.start_time {
                kira::StartTime::Immediate => entry
                    .recording(recording)
                    .map_or(kira::StartTime::Immediate, |r| r.source.start_time),
                start_time => start_time,
            },
        }
    }

    /// The record of its voice: `order` in the start order, playing at `place`.
    #[inline]
    fn record(&self, order: u64, place: Place) -> VoiceRecord {
        let mut record = VoiceRecord::new(
            (self.sound.index, self.recording),
            self.params,
            self.priority,
            self.facts.rank,
            self.reference,
            order,
            place,
        );
        record.play_volume = self.volume;
        record.playback_rate = self.variation.rate(self.params.playback_rate);
        record.variation = self.variation;
        record.curve = self.curve;
        record.cues = self.cues;
        record.distances = self.distances;
        record.wait = crate::voice_pool::StartWait::of(self.start_time);
        record.send_levels = self.send_levels;
        if let Some((db, window)) = self.window {
            record.window_db = Some(db);
            record.loudness = window.voice_gain(db);
        }
        record
    }
}

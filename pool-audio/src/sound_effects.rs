//! The manager: sounds, the pooled voices, the sound-effects track, and kira.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use arrayvec::ArrayVec;
use kira::backend::Backend;
use kira::sound::PlaybackState;
use kira::sound::static_sound::StaticSoundData;
use kira::track::{TrackBuilder, TrackHandle};
use kira::{AudioManager, Decibels, Panning, PlaybackRate, StartTime};
use pool_core::Pool;

use crate::attenuation::CopyVolumes;
use crate::clock;
use crate::copies::{CopySlot, Fading, FadingPool, Placement, Retire, Sound, audible, linear};
use crate::emitters::{Emitters, vector};
use crate::error::{AddSoundError, InvalidTime, ParamError, PlayError, SetupError, VoiceError};
use crate::limiter::{LimiterBuilder, LimiterHandle};
use crate::loader::SoundLoader;
use crate::params::{PlayParams, check_position, check_volume};
use crate::passes::{Probe, ProbeBuilder};
use crate::peak::SoundPeak;
use crate::settings::{SettingsError, SoundEffectsSettings, SoundSettings, WhenFull, decibels};
use crate::stats::AudioStats;
use crate::voice::{SoundId, StealPolicy, Voice, VoiceHandle, VoiceKey, next_owner};

/// Sound-effect voices on the game's own kira [`AudioManager`]: per-sound copy
/// limits with attenuation, a global voice cap with stealing, and a limiter as the
/// ceiling of the whole sound-effects mix.
///
/// It owns one sub-track for all sound effects, whose kira sound capacity is twice
/// the voice cap: every active voice plus as many fading out, and `play` checks
/// that before asking kira, so kira's own `SoundLimitReached` never fires. The
/// game's music and other tracks keep working beside it.
///
/// Keep it alive while its sounds should play: like any kira track handle, dropping
/// it removes its sub-track and every sound on it.
///
/// ```
/// use kira::{AudioManager, AudioManagerSettings};
/// use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
/// # use kira::sound::static_sound::StaticSoundData;
/// # let boom = StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame { left: 0.5, right: 0.5 }; 4800].into(), settings: Default::default(), slice: None };
///
/// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
/// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
/// // 10 copies, the first at 0.2, all 10 together within -1 dBFS.
/// let settings = SoundSettings::default().max_voices(10).first_volume(0.2);
/// let explosion = sfx.add_sound("explosion", boom, settings)?;
///
/// // 100 enemies die in the same frame: 10 copies play, the stack stays below
/// // full scale, and kira is asked for 10 sounds, not 100.
/// for _ in 0..100 {
///     let _ = sfx.play(explosion, PlayParams::default());
/// }
/// assert_eq!(sfx.copies_playing(explosion), 10);
/// sfx.update(1.0 / 60.0)?; // once per frame: ended voices go back to the pool
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SoundEffects {
    owner: u32,
    track: TrackHandle,
    limiter: Option<LimiterHandle>,
    voices: Pool<Voice, StealPolicy, VoiceKey>,
    sounds: Vec<Sound>,
    names: HashMap<String, SoundId>,
    /// kira sounds that no voice owns any more but that may still be heard or
    /// hold a slot on the track.
    fading: FadingPool,
    probe: Arc<Probe>,
    emitters: Emitters,
    kira_capacity: usize,
    settings: SoundEffectsSettings,
    /// Game time in microseconds (see `clock.rs`).
    now: u64,
    frame: u64,
    next_order: u64,
    stats: AudioStats,
}

impl SoundEffects {
    /// Adds the sound-effects sub-track to `manager` (with the limiter, unless the
    /// settings turn it off) and creates every voice now.
    ///
    /// # Errors
    /// [`SetupError::Settings`] for settings out of range (see
    /// [`SoundEffectsSettings::validate`]); [`SetupError::TrackLimit`] if kira has
    /// no room for another sub-track.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let bad = SoundEffectsSettings { voice_cap: 0, ..Default::default() };
    /// assert!(SoundEffects::new(&mut manager, bad).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new<B: Backend>(
        manager: &mut AudioManager<B>,
        settings: SoundEffectsSettings,
    ) -> Result<Self, SetupError> {
        Self::with_track(manager, settings, TrackBuilder::new())
    }

    /// Like [`new`](Self::new), on a track built from `track`: add effects to it
    /// first (kira's `TrackBuilder::add_effect` returns their handles), and sends.
    /// The manager then sets the track's sound and sub-track capacities and its
    /// volume (0 dB; change it with [`set_track_volume`](Self::set_track_volume)),
    /// and appends the limiter last, so the ceiling holds whatever the effects do.
    ///
    /// # Errors
    /// As [`new`](Self::new).
    ///
    /// ```
    /// use kira::{AudioManager, AudioManagerSettings};
    /// use kira::effect::filter::FilterBuilder;
    /// use kira::track::TrackBuilder;
    /// use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    ///
    /// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut track = TrackBuilder::new();
    /// let filter = track.add_effect(FilterBuilder::new().cutoff(2_000.0));
    /// let sfx = SoundEffects::with_track(&mut manager, SoundEffectsSettings::default(), track)?;
    /// assert!(sfx.limiter().is_some());
    /// # drop(filter);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_track<B: Backend>(
        manager: &mut AudioManager<B>,
        settings: SoundEffectsSettings,
        track: TrackBuilder,
    ) -> Result<Self, SetupError> {
        settings.validate().map_err(SetupError::Settings)?;
        let kira_capacity = settings.voice_cap * 2;
        let probe = Arc::new(Probe::default());
        let mut builder = track
            .sound_capacity(kira_capacity)
            .sub_track_capacity(settings.emitters.max(1))
            .volume(Decibels::IDENTITY)
            .with_effect(ProbeBuilder(probe.clone()));
        let limiter = match settings.limiter {
            Some(limiter) => {
                let limiter = LimiterBuilder::new(limiter)
                    .map_err(|e| SetupError::Settings(SettingsError::Limiter(e)))?;
                Some(builder.add_effect(limiter))
            }
            None => None,
        };
        let track = manager
            .add_sub_track(builder)
            .map_err(|_| SetupError::TrackLimit)?;
        let listener = manager
            .add_listener(vector([0.0; 3]), Emitters::orientation())
            .map_err(|_| SetupError::TrackLimit)?;
        let voices = Pool::builder(Voice::idle)
            .initial(settings.voice_cap)
            .max_objects(settings.voice_cap)
            .policy(StealPolicy {
                stealing: settings.stealing,
                listener: [0.0; 3],
            })
            .handle::<VoiceKey>()
            .build()
            .map_err(|_| SetupError::Settings(SettingsError::Manager("voice_cap")))?;
        let fading = Pool::builder(Fading::idle)
            .initial(kira_capacity)
            .max_objects(kira_capacity)
            .handle()
            .build()
            .map_err(|_| SetupError::Settings(SettingsError::Manager("voice_cap")))?;
        Ok(Self {
            owner: next_owner(),
            track,
            limiter,
            voices,
            sounds: Vec::new(),
            names: HashMap::new(),
            fading,
            probe,
            emitters: Emitters::new(listener, settings.emitters),
            kira_capacity,
            settings,
            now: 0,
            frame: 0,
            next_order: 0,
            stats: AudioStats::default(),
        })
    }

    /// Registers a decoded sound under `name` with its settings. Its peak is
    /// measured now (see [`SoundPeak`]) and its copy volumes are solved against it:
    /// all `max_voices` copies together reach at most the headroom.
    ///
    /// # Errors
    /// [`AddSoundError::DuplicateName`], [`AddSoundError::Settings`], or
    /// [`AddSoundError::Sound`] for data kira cannot play safely (see
    /// [`SoundError`](crate::SoundError)); nothing is added then.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let id = sfx.add_sound("click", click.clone(), SoundSettings::default())?;
    /// assert_eq!(sfx.sound("click"), Some(id));
    /// assert!(sfx.add_sound("click", click.clone(), SoundSettings::default()).is_err());
    /// let never_ends = kira::sound::static_sound::StaticSoundData { sample_rate: 0, ..click };
    /// assert!(sfx.add_sound("broken", never_ends, SoundSettings::default()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_sound(
        &mut self,
        name: &str,
        data: StaticSoundData,
        settings: SoundSettings,
    ) -> Result<SoundId, AddSoundError> {
        if self.names.contains_key(name) {
            return Err(AddSoundError::DuplicateName(name.to_string()));
        }
        let peak = SoundPeak::measure(&data).map_err(AddSoundError::Sound)?;
        let volumes = settings
            .copy_volumes(peak.max())
            .map_err(AddSoundError::Settings)?;
        let id = SoundId {
            index: self.sounds.len() as u32,
            owner: self.owner,
        };
        let mut copies = ArrayVec::new();
        for _ in 0..settings.max_voices {
            copies.push(CopySlot::default());
        }
        self.sounds.push(Sound {
            name: name.to_string(),
            data,
            settings,
            peak,
            volumes,
            min_retrigger: clock::micros(settings.min_retrigger).unwrap_or(u64::MAX),
            copies,
            last_play: None,
        });
        self.names.insert(name.to_string(), id);
        Ok(id)
    }

    /// Loads `key` through `loader` and registers it under the same name.
    ///
    /// # Errors
    /// [`AddSoundError::Load`] (naming the key), or as [`add_sound`](Self::add_sound).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{MemoryLoader, OfflineBackend, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let mut loader = MemoryLoader::new();
    /// assert!(sfx.load_sound(&mut loader, "missing", SoundSettings::default()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load_sound(
        &mut self,
        loader: &mut impl SoundLoader,
        key: &str,
        settings: SoundSettings,
    ) -> Result<SoundId, AddSoundError> {
        let data = loader.load(key).map_err(AddSoundError::Load)?;
        self.add_sound(key, data, settings)
    }

    /// The id of the sound named `name`.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// assert_eq!(sfx.sound("nothing"), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sound(&self, name: &str) -> Option<SoundId> {
        self.names.get(name).copied()
    }

    fn own_sound(&self, sound: SoundId) -> Option<&Sound> {
        if sound.owner == self.owner {
            self.sounds.get(sound.index())
        } else {
            None
        }
    }

    fn own_voice(&self, voice: VoiceHandle) -> Result<VoiceKey, VoiceError> {
        if voice.owner == self.owner {
            Ok(voice.key)
        } else {
            Err(VoiceError::WrongManager)
        }
    }

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
    /// assert!(sfx.is_playing(voice));
    /// assert_eq!(
    ///     sfx.play(id, PlayParams::default().volume(2.0)),
    ///     Err(PlayError::InvalidParam(ParamError::Volume(2.0)))
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play(&mut self, sound: SoundId, params: PlayParams) -> Result<VoiceHandle, PlayError> {
        params.validate()?;
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
        let placement = entry.place(&self.fading, |v| voices.get(v).map(|v| v.order));
        let (copy, victim, after) = match placement {
            Some(Placement::Free { copy, after }) => (copy, None, after),
            Some(Placement::Recycle { .. }) if settings.when_full == WhenFull::Refuse => {
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
            && self.voices.get(victim).is_some_and(|v| {
                v.frame == frame && v.emitter.is_some() == params.position.is_some()
            })
        {
            return self.take_over(sound, copy, victim, base_volume, params);
        }

        // Check everything that can refuse before anything is stopped or stolen.
        if params.position.is_some() && !self.emitters.available(&mut self.track) {
            self.stats.refused_no_emitter += 1;
            return Err(PlayError::NoEmitter);
        }
        // Room in kira for one more sound, counting the ones fading out.
        if self.voices.live_len() + self.fading.live_len() >= self.kira_capacity {
            self.stats.refused_voice_cap += 1;
            return Err(PlayError::VoiceCap);
        }
        let fade = self.settings.steal_fade;
        let mut wait = false;
        if let Some(victim) = victim {
            self.end_voice(victim, fade);
            self.stats.recycled_copies += 1;
            wait = true;
        } else if let Some(outgoing) = after {
            // Hurry the index's previous copy out with the steal fade (it may have
            // been stopped with a longer one): the new copy waits for exactly that.
            if let Some(kira) = self.fading.get_mut(outgoing).and_then(|f| f.kira.as_mut()) {
                kira.stop(linear(fade));
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
                Retire {
                    sounds: &mut self.sounds,
                    fading: &mut self.fading,
                    quarantined: &mut self.emitters.quarantined,
                }
                .voice(stolen, voice, Some(fade));
            }
        }
        let entry = &self.sounds[sound.index()];
        let mut data = entry
            .data
            .volume(Decibels(decibels(volume) as f32))
            .playback_rate(PlaybackRate(params.playback_rate))
            .panning(Panning(params.panning));
        if wait {
            data = data.start_time(self.handoff(data.settings.start_time));
            self.stats.delayed_starts += 1;
        }
        let emitter = params
            .position
            .and_then(|position| self.emitters.take(position, params.spatial_blend));
        let played = match emitter {
            Some(e) => self.emitters.play(e, data),
            None => self.track.play(data),
        };
        let kira = match played {
            Ok(kira) => kira,
            Err(_) => {
                if let Some(e) = emitter {
                    self.emitters.give_back(e);
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
                position: params.position,
                emitter,
                frame,
                order,
            };
        }
        let entry = &mut self.sounds[sound.index()];
        entry.copies[copy].voice = Some(acquired.handle);
        entry.last_play = Some((now, frame));
        self.stats.plays += 1;
        self.stats.peak_voices = self.stats.peak_voices.max(self.voices.live_len());
        Ok(VoiceHandle {
            key: acquired.handle,
            owner: self.owner,
        })
    }

    /// When a copy that takes over an index may start: after the steal fade and
    /// one kira chunk (see `passes.rs`), or later if the data asks for later. A
    /// clock-synced start is kept as it is.
    fn handoff(&self, start: StartTime) -> StartTime {
        let wait = self.settings.steal_fade + self.probe.chunk() + Duration::from_micros(1);
        match start {
            StartTime::Immediate => StartTime::Delayed(wait),
            StartTime::Delayed(own) => StartTime::Delayed(own.max(wait)),
            clock => clock,
        }
    }

    /// A new play takes over a voice of the same sound that started this frame:
    /// the old handle goes stale, the kira sound stays and is retuned.
    fn take_over(
        &mut self,
        sound: SoundId,
        copy: usize,
        victim: VoiceKey,
        base_volume: f64,
        params: PlayParams,
    ) -> Result<VoiceHandle, PlayError> {
        // The same voice, with its kira sound, under a new handle: the old one is
        // stale. (`renew` fails only when no slot index is left, after ~2^62 plays.)
        let Ok(handle) = self.voices.renew(victim) else {
            self.stats.refused_voice_cap += 1;
            return Err(PlayError::VoiceCap);
        };
        let order = self.next_order;
        self.next_order += 1;
        let volume = base_volume * params.volume;
        let priority = self.sounds[sound.index()].settings.priority;
        if let Some(voice) = self.voices.get_mut(handle) {
            if let Some(kira) = &mut voice.kira {
                let now = linear(Duration::ZERO);
                kira.set_volume(Decibels(decibels(volume) as f32), now);
                kira.set_playback_rate(PlaybackRate(params.playback_rate), now);
                kira.set_panning(Panning(params.panning), now);
            }
            if let (Some(e), Some(position)) = (voice.emitter, params.position) {
                self.emitters.place(e, position, params.spatial_blend);
            }
            voice.base_volume = base_volume;
            voice.volume = volume;
            voice.priority = priority;
            voice.position = params.position;
            voice.order = order;
            voice.copy = copy as u8;
            voice.sound = sound.index;
        }
        let entry = &mut self.sounds[sound.index()];
        entry.copies[copy].voice = Some(handle);
        entry.last_play = Some((self.now, self.frame));
        self.stats.plays += 1;
        self.stats.recycled_copies += 1;
        Ok(VoiceHandle {
            key: handle,
            owner: self.owner,
        })
    }

    /// Stops a live voice's kira sound with `fade`, frees its copy index and gives
    /// the voice back to the pool.
    fn end_voice(&mut self, key: VoiceKey, fade: Duration) {
        let Some(voice) = self.voices.get_mut(key) else {
            return;
        };
        Retire {
            sounds: &mut self.sounds,
            fading: &mut self.fading,
            quarantined: &mut self.emitters.quarantined,
        }
        .voice(key, voice, Some(fade));
        let _ = self.voices.release(key);
    }

    /// Once per frame: advances the game clock (for retrigger intervals) by `dt`
    /// seconds, gives every voice whose kira sound has stopped back to the pool
    /// (freeing its copy index), and forgets faded-out sounds. O(active voices), no
    /// heap allocation.
    ///
    /// # Errors
    /// [`InvalidTime`] for a negative, NaN or infinite `dt`; nothing changes.
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
    pub fn update(&mut self, dt: f64) -> Result<(), InvalidTime> {
        let dt = clock::micros(dt)?;
        self.now = self.now.saturating_add(dt);
        self.frame += 1;
        let pass = self.probe.passes();
        let mut retire = Retire {
            sounds: &mut self.sounds,
            fading: &mut self.fading,
            quarantined: &mut self.emitters.quarantined,
        };
        self.voices.reclaim(|key, voice| {
            let stopped = voice
                .kira
                .as_ref()
                .is_none_or(|kira| kira.state() == PlaybackState::Stopped);
            if stopped {
                retire.voice(key, voice, None);
            }
            stopped
        });
        // kira frees a sound's slot at the start of the first processing pass after
        // it stopped: forget it once a pass has started since it was seen stopped.
        self.fading.reclaim(|_, fading| {
            let stopped = fading
                .kira
                .as_ref()
                .is_none_or(|kira| kira.state() == PlaybackState::Stopped);
            if stopped && fading.seen_stopped.is_none() {
                fading.seen_stopped = Some(pass);
            }
            let gone = fading.seen_stopped.is_some_and(|seen| pass > seen);
            if gone {
                fading.kira = None;
            }
            gone
        });
        self.emitters.release_emptied();
        Ok(())
    }

    /// Creates up to `count` more emitters now (never beyond
    /// [`SoundEffectsSettings::emitters`]), so the first positioned sounds do not
    /// create them; returns how many were created. Each idle emitter costs the
    /// audio thread a little, which is why none exists until needed.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings { emitters: 8, ..Default::default() })?;
    /// assert_eq!(sfx.prewarm_emitters(100), 8);
    /// assert_eq!(sfx.prewarm_emitters(1), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prewarm_emitters(&mut self, count: usize) -> usize {
        self.emitters.prewarm(&mut self.track, count)
    }

    /// Stops a voice, fading out over `fade`; its handle goes stale. Its copy
    /// index is free at once, but a new copy there waits for this one to fade out
    /// (at most the steal fade: a longer fade is cut short then).
    ///
    /// # Errors
    /// [`VoiceError::Stale`] if it already ended, [`VoiceError::WrongManager`] for
    /// another manager's handle.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use std::time::Duration;
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings, VoiceError};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default())?;
    /// sfx.stop(voice, Duration::from_millis(20))?;
    /// assert_eq!(sfx.stop(voice, Duration::ZERO), Err(VoiceError::Stale));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stop(&mut self, voice: VoiceHandle, fade: Duration) -> Result<(), VoiceError> {
        let key = self.own_voice(voice)?;
        if !self.voices.contains(key) {
            return Err(VoiceError::Stale);
        }
        self.end_voice(key, fade);
        Ok(())
    }

    fn voice_mut(&mut self, voice: VoiceHandle) -> Result<&mut Voice, VoiceError> {
        let key = self.own_voice(voice)?;
        self.voices.get_mut(key).ok_or(VoiceError::Stale)
    }

    /// Pauses a voice (it keeps its voice and copy index), fading out over the
    /// steal fade.
    ///
    /// # Errors
    /// As [`stop`](Self::stop).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default())?;
    /// sfx.pause(voice)?;
    /// assert!(sfx.is_playing(voice), "a paused voice keeps its voice");
    /// sfx.resume(voice)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn pause(&mut self, voice: VoiceHandle) -> Result<(), VoiceError> {
        let fade = linear(self.settings.steal_fade);
        if let Some(kira) = &mut self.voice_mut(voice)?.kira {
            kira.pause(fade);
        }
        Ok(())
    }

    /// Resumes a paused voice, fading in over the steal fade.
    ///
    /// # Errors
    /// As [`stop`](Self::stop).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default())?;
    /// sfx.pause(voice)?;
    /// sfx.resume(voice)?;
    /// assert!(sfx.is_playing(voice));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resume(&mut self, voice: VoiceHandle) -> Result<(), VoiceError> {
        let fade = linear(self.settings.steal_fade);
        if let Some(kira) = &mut self.voice_mut(voice)?.kira {
            kira.resume(fade);
        }
        Ok(())
    }

    /// Sets a voice's play volume: the linear amplitude in `[0, 1]` its copy
    /// volume is multiplied by, over 5 ms.
    ///
    /// # Errors
    /// [`VoiceError::InvalidParam`] for a volume that is NaN or outside `[0, 1]`
    /// (the voice is unchanged), or as [`stop`](Self::stop).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, ParamError, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings, VoiceError};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default())?;
    /// sfx.set_volume(voice, 0.25)?;
    /// assert!(matches!(sfx.set_volume(voice, f64::NAN), Err(VoiceError::InvalidParam(ParamError::Volume(_)))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_volume(&mut self, voice: VoiceHandle, volume: f64) -> Result<(), VoiceError> {
        let volume = check_volume(volume)?;
        let voice = self.voice_mut(voice)?;
        voice.volume = voice.base_volume * volume;
        let amplitude = voice.volume;
        if let Some(kira) = &mut voice.kira {
            kira.set_volume(
                Decibels(decibels(amplitude) as f32),
                linear(Duration::from_millis(5)),
            );
        }
        Ok(())
    }

    /// Moves a voice: its emitter, if it is positioned, and its place for
    /// [`Stealing::Furthest`](crate::Stealing::Furthest).
    ///
    /// # Errors
    /// [`VoiceError::InvalidParam`] for a NaN or infinite coordinate (the voice is
    /// unchanged), or as [`stop`](Self::stop).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
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
        position: [f32; 3],
    ) -> Result<(), VoiceError> {
        let position = check_position(position)?;
        let voice = self.voice_mut(voice)?;
        voice.position = Some(position);
        if let Some(e) = voice.emitter {
            self.emitters.set_position(e, position);
        }
        Ok(())
    }

    /// Moves the listener positioned sounds are heard from (and measured from by
    /// [`Stealing::Furthest`](crate::Stealing::Furthest)).
    ///
    /// # Errors
    /// [`ParamError::Position`] for a NaN or infinite coordinate; the listener
    /// stays where it was.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// sfx.set_listener([1.0, 2.0, 3.0])?;
    /// assert!(sfx.set_listener([f32::NAN, 0.0, 0.0]).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_listener(&mut self, position: [f32; 3]) -> Result<(), ParamError> {
        let position = check_position(position)?;
        self.voices.policy_mut().listener = position;
        self.emitters.set_listener(position);
        Ok(())
    }

    /// Stops every voice, fading out over `fade`.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use std::time::Duration;
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// sfx.play(id, PlayParams::default())?;
    /// sfx.stop_all(Duration::from_millis(10));
    /// assert_eq!(sfx.stats().active_voices, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stop_all(&mut self, fade: Duration) {
        self.stop_where(fade, |_| true);
    }

    /// Stops every copy of one sound, fading out over `fade`. Another manager's
    /// sound id stops nothing.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use std::time::Duration;
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// sfx.play(id, PlayParams::default())?;
    /// sfx.stop_sound(id, Duration::ZERO);
    /// assert_eq!(sfx.copies_playing(id), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stop_sound(&mut self, sound: SoundId, fade: Duration) {
        if sound.owner == self.owner {
            self.stop_where(fade, |voice| voice.sound == sound.index);
        }
    }

    fn stop_where(&mut self, fade: Duration, mut which: impl FnMut(&Voice) -> bool) {
        let mut retire = Retire {
            sounds: &mut self.sounds,
            fading: &mut self.fading,
            quarantined: &mut self.emitters.quarantined,
        };
        self.voices.reclaim(|key, voice| {
            let stop = which(voice);
            if stop {
                retire.voice(key, voice, Some(fade));
            }
            stop
        });
    }

    /// Pauses every voice.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// sfx.pause_all();
    /// sfx.resume_all();
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn pause_all(&mut self) {
        let fade = linear(self.settings.steal_fade);
        self.voices.for_each_mut(|_, voice| {
            if let Some(kira) = &mut voice.kira {
                kira.pause(fade);
            }
        });
    }

    /// Resumes every paused voice.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// sfx.resume_all();
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resume_all(&mut self) {
        let fade = linear(self.settings.steal_fade);
        self.voices.for_each_mut(|_, voice| {
            if let Some(kira) = &mut voice.kira {
                kira.resume(fade);
            }
        });
    }

    /// `true` while the voice is live (playing or paused); `false` for another
    /// manager's handle.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default())?;
    /// assert!(sfx.is_playing(voice));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_playing(&self, voice: VoiceHandle) -> bool {
        self.own_voice(voice)
            .is_ok_and(|key| self.voices.contains(key))
    }

    /// Copies of `sound` playing now.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// sfx.play(id, PlayParams::default())?;
    /// assert_eq!(sfx.copies_playing(id), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn copies_playing(&self, sound: SoundId) -> usize {
        self.own_sound(sound)
            .map_or(0, |s| s.copies.iter().filter(|c| c.voice.is_some()).count())
    }

    /// Copies of `sound` that were stopped and may still be heard fading out.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use std::time::Duration;
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let tone = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 4800].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("tone", tone, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default())?;
    /// sfx.stop(voice, Duration::from_millis(50))?;
    /// assert_eq!(sfx.copies_fading(id), 1);
    /// manager.backend_mut().render(0.1)?;
    /// assert_eq!(sfx.copies_fading(id), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn copies_fading(&self, sound: SoundId) -> usize {
        self.own_sound(sound).map_or(0, |s| {
            s.copies
                .iter()
                .filter(|c| audible(&self.fading, c.outgoing))
                .count()
        })
    }

    /// The copy volumes of a sound: its solved attenuation, before the pan law
    /// compensation of a panned play.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let id = sfx.add_sound("click", click, SoundSettings::default().max_voices(4))?;
    /// assert_eq!(sfx.copy_volumes(id).unwrap().copies(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn copy_volumes(&self, sound: SoundId) -> Option<CopyVolumes> {
        self.own_sound(sound).map(|s| s.volumes)
    }

    /// A sound's measured peak, the one its copy volumes are budgeted against.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let tone = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let id = sfx.add_sound("tone", tone, SoundSettings::default())?;
    /// assert_eq!(sfx.sound_peak(id).unwrap().sample(), 0.5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sound_peak(&self, sound: SoundId) -> Option<SoundPeak> {
        self.own_sound(sound).map(|s| s.peak)
    }

    /// The name a sound was added under.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// assert_eq!(sfx.sound_name(id), Some("click"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sound_name(&self, sound: SoundId) -> Option<&str> {
        self.own_sound(sound).map(|s| s.name.as_str())
    }

    /// Counters and levels for a profiler overlay.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// assert_eq!(sfx.stats().plays, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stats(&self) -> AudioStats {
        AudioStats {
            active_voices: self.voices.live_len(),
            fading_voices: self.fading.live_len(),
            ..self.stats
        }
    }

    /// The volume of every sound effect together: a linear amplitude in `[0, 1]`
    /// on the sound-effects track, reached over `fade`. (Above 1 it would lift
    /// the track past its limiter's ceiling, which is why the track itself is not
    /// handed out.)
    ///
    /// # Errors
    /// [`ParamError::Volume`] for a volume that is NaN or outside `[0, 1]`.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// sfx.set_track_volume(0.5, Duration::from_millis(100))?;
    /// assert!(sfx.set_track_volume(2.0, Duration::ZERO).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_track_volume(&mut self, volume: f64, fade: Duration) -> Result<(), ParamError> {
        let volume = check_volume(volume)?;
        self.track
            .set_volume(Decibels(decibels(volume) as f32), linear(fade));
        Ok(())
    }

    /// The limiter on the sound-effects track, to read its gain reduction (`None`
    /// if the settings turned it off).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// assert_eq!(sfx.limiter().unwrap().gain_reduction_db(), 0.0);
    /// let unlimited = SoundEffects::new(&mut manager, SoundEffectsSettings { limiter: None, ..Default::default() })?;
    /// assert!(unlimited.limiter().is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn limiter(&self) -> Option<&LimiterHandle> {
        self.limiter.as_ref()
    }
}

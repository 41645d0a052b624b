//! The manager: sounds, per-sound copy slots, the pooled voices, and kira.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use arrayvec::ArrayVec;
use kira::backend::Backend;
use kira::listener::ListenerHandle;
use kira::sound::PlaybackState;
use kira::sound::static_sound::{StaticSoundData, StaticSoundHandle};
use kira::track::{SpatialTrackBuilder, SpatialTrackHandle, TrackBuilder, TrackHandle};
use kira::{AudioManager, Decibels, Easing, Panning, PlaybackRate, StartTime, Tween};
use pool_core::Pool;

use crate::attenuation::{CopyVolumes, MAX_VOICES_PER_SOUND};
use crate::error::{PlayError, StaleVoice};
use crate::loader::{LoadError, SoundLoader};
use crate::params::PlayParams;
use crate::passes::PassCounterBuilder;
use crate::settings::{SettingsError, SoundEffectsSettings, SoundSettings, WhenFull, decibels};
use crate::voice::{SoundId, StealPolicy, Voice, VoiceHandle};

/// What a profiler overlay shows about sound effects.
///
/// ```
/// # use pool_audio::AudioStats;
/// let stats = AudioStats::default();
/// assert_eq!(stats.active_voices, 0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AudioStats {
    /// Voices playing (or paused) now.
    pub active_voices: usize,
    /// The most voices ever active at once.
    pub peak_voices: usize,
    /// Stopped or stolen voices still fading out in kira.
    pub fading_voices: usize,
    /// Plays that started (or took over) a voice.
    pub plays: u64,
    /// Copies stopped because their sound was at `max_voices` (recycle-oldest).
    pub recycled_copies: u64,
    /// Voices stolen because the voice cap was reached.
    pub stolen_voices: u64,
    /// Plays refused: the sound's copies were all playing and it refuses.
    pub refused_sound_limit: u64,
    /// Plays refused: the voice cap was reached and stealing is off, or kira had
    /// no room left for another fading voice.
    pub refused_voice_cap: u64,
    /// Plays refused by the retrigger interval.
    pub refused_retrigger: u64,
    /// Positioned plays refused because every emitter was busy.
    pub refused_no_emitter: u64,
    /// Copies not started because they would be below the audibility floor.
    pub refused_inaudible: u64,
}

/// Why a sound could not be added.
///
/// ```
/// # use pool_audio::{AddSoundError, SettingsError};
/// let err = AddSoundError::Settings(SettingsError::MaxVoices(0));
/// assert!(err.to_string().contains("max_voices"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum AddSoundError {
    /// A sound of that name exists.
    DuplicateName(String),
    /// Its settings are out of range.
    Settings(SettingsError),
    /// Its loader failed.
    Load(LoadError),
}

impl fmt::Display for AddSoundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DuplicateName(name) => write!(f, "a sound named {name:?} already exists"),
            Self::Settings(error) => error.fmt(f),
            Self::Load(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for AddSoundError {}

/// Why [`SoundEffects::new`] failed.
///
/// ```
/// # use pool_audio::{SetupError, SettingsError};
/// assert!(SetupError::TrackLimit.to_string().contains("track"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SetupError {
    /// The settings are out of range.
    Settings(SettingsError),
    /// kira has no room for another sub-track or listener.
    TrackLimit,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Settings(error) => error.fmt(f),
            Self::TrackLimit => f.write_str("kira has no room for the sound-effects sub-track"),
        }
    }
}

impl std::error::Error for SetupError {}

/// A negative, NaN or infinite time step given to [`SoundEffects::update`].
///
/// ```
/// # use pool_audio::InvalidTime;
/// assert!(InvalidTime(-1.0).to_string().contains("-1"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InvalidTime(pub f64);

impl fmt::Display for InvalidTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "time step {} s is not a finite, non-negative number",
            self.0
        )
    }
}

impl std::error::Error for InvalidTime {}

struct Sound {
    name: String,
    data: StaticSoundData,
    settings: SoundSettings,
    volumes: CopyVolumes,
    /// Copy index -> the voice playing it; `max_voices` entries.
    copies: ArrayVec<Option<VoiceHandle>, { MAX_VOICES_PER_SOUND as usize }>,
    last_play: Option<f64>,
}

/// Sound-effect voices on the game's own kira [`AudioManager`]: per-sound copy
/// limits with attenuation, a global voice cap with stealing.
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
/// // Source 003's numbers: 10 copies, the first at 0.2, all 10 within -1 dBFS.
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
    track: TrackHandle,
    voices: Pool<Voice, StealPolicy, VoiceHandle>,
    sounds: Vec<Sound>,
    names: HashMap<String, SoundId>,
    /// kira sounds that no voice owns any more (stopped, stolen, or ended) but
    /// that may still hold a slot on the track: the processing pass at which each
    /// was first seen stopped, once it has been.
    fading: Vec<(StaticSoundHandle, Option<u64>)>,
    /// kira processing passes on the sound-effects track (see `passes.rs`).
    passes: Arc<AtomicU64>,
    /// The listener positioned sounds are heard from.
    listener: ListenerHandle,
    /// Spatial sub-tracks positioned voices play through, created up front.
    emitters: Vec<SpatialTrackHandle>,
    /// Emitters ready for a voice.
    free_emitters: Vec<u16>,
    /// Emitters whose voice ended, until kira has let go of its sound
    /// (`num_sounds() == 0`): an emitter holds one sound at a time.
    quarantined: Vec<u16>,
    kira_capacity: usize,
    settings: SoundEffectsSettings,
    now: f64,
    frame: u64,
    next_order: u64,
    stats: AudioStats,
}

/// A listener facing kira's default direction.
const IDENTITY: mint::Quaternion<f32> = mint::Quaternion {
    v: mint::Vector3 {
        x: 0.0,
        y: 0.0,
        z: 0.0,
    },
    s: 1.0,
};

fn vector([x, y, z]: [f32; 3]) -> mint::Vector3<f32> {
    mint::Vector3 { x, y, z }
}

fn tween(duration: Duration) -> Tween {
    Tween {
        start_time: StartTime::Immediate,
        duration,
        easing: Easing::Linear,
    }
}

impl SoundEffects {
    /// Adds the sound-effects sub-track to `manager` and creates every voice now.
    ///
    /// # Errors
    /// [`SetupError::Settings`] for a voice cap of 0 (or above 4096) or a fade
    /// longer than a second; [`SetupError::TrackLimit`] if kira has no room for
    /// another sub-track.
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
        if !(1..=4096).contains(&settings.voice_cap) {
            return Err(SetupError::Settings(SettingsError::Manager(
                "voice_cap must be in 1..=4096",
            )));
        }
        if settings.emitters > 1024 {
            return Err(SetupError::Settings(SettingsError::Manager(
                "emitters must be at most 1024",
            )));
        }
        if settings.steal_fade > Duration::from_secs(1) {
            return Err(SetupError::Settings(SettingsError::Manager(
                "steal_fade must be at most 1 s",
            )));
        }
        let kira_capacity = settings.voice_cap * 2;
        let passes = Arc::new(AtomicU64::new(0));
        let track = manager
            .add_sub_track(
                TrackBuilder::new()
                    .sound_capacity(kira_capacity)
                    .sub_track_capacity(settings.emitters.max(1))
                    .with_effect(PassCounterBuilder(passes.clone())),
            )
            .map_err(|_| SetupError::TrackLimit)?;
        let listener = manager
            .add_listener(vector([0.0; 3]), IDENTITY)
            .map_err(|_| SetupError::TrackLimit)?;
        // Emitters are made on demand (or by `prewarm_emitters`): an idle kira
        // spatial track still costs the audio thread (16 idle ones took the bomb
        // example's pooled render from 9 ms to 50 ms per second of audio).
        let emitters = Vec::with_capacity(settings.emitters);
        let free_emitters = Vec::with_capacity(settings.emitters);
        let voices = Pool::builder(Voice::idle)
            .initial(settings.voice_cap)
            .max_objects(settings.voice_cap)
            .policy(StealPolicy {
                stealing: settings.stealing,
                listener: [0.0; 3],
            })
            .handle::<VoiceHandle>()
            .build()
            .map_err(|_| SetupError::Settings(SettingsError::Manager("voice_cap")))?;
        Ok(Self {
            track,
            voices,
            sounds: Vec::new(),
            names: HashMap::new(),
            fading: Vec::with_capacity(kira_capacity),
            passes,
            listener,
            emitters,
            free_emitters,
            quarantined: Vec::with_capacity(settings.emitters),
            kira_capacity,
            settings,
            now: 0.0,
            frame: 0,
            next_order: 0,
            stats: AudioStats::default(),
        })
    }

    /// Registers a decoded sound under `name` with its settings.
    ///
    /// # Errors
    /// [`AddSoundError::DuplicateName`] or [`AddSoundError::Settings`]; nothing is
    /// added then.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let id = sfx.add_sound("click", click.clone(), SoundSettings::default())?;
    /// assert_eq!(sfx.sound("click"), Some(id));
    /// assert!(sfx.add_sound("click", click, SoundSettings::default()).is_err());
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
        let volumes = settings.validate().map_err(AddSoundError::Settings)?;
        let id = SoundId(self.sounds.len() as u32);
        let mut copies = ArrayVec::new();
        for _ in 0..settings.max_voices {
            copies.push(None);
        }
        self.sounds.push(Sound {
            name: name.to_string(),
            data,
            settings,
            volumes,
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

    /// Plays one copy of `sound`: the lowest free copy index (the loudest free
    /// volume), a pooled voice, and a kira sound on the sound-effects track.
    ///
    /// When the sound's copies are all playing, its [`WhenFull`] decides: recycle
    /// its oldest copy (faded out; if that copy started this same frame, its kira
    /// sound is simply taken over, since nothing of it has been heard) or refuse.
    /// When the voice cap is reached, the manager's [`Stealing`](crate::Stealing)
    /// picks a voice to fade out, or refuses.
    ///
    /// # Errors
    /// A [`PlayError`] saying why nothing was started; the refusal is counted in
    /// [`stats`](Self::stats).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayError, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default().volume(0.5))?;
    /// assert!(sfx.is_playing(voice));
    /// assert_eq!(sfx.play(id, PlayParams::default().volume(2.0)), Err(PlayError::InvalidParams));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play(&mut self, sound: SoundId, params: PlayParams) -> Result<VoiceHandle, PlayError> {
        params.validate()?;
        let frame = self.frame;
        let now = self.now;
        let Some(entry) = self.sounds.get(sound.index()) else {
            return Err(PlayError::UnknownSound);
        };
        let settings = entry.settings;
        if settings.min_retrigger > 0.0
            && entry
                .last_play
                .is_some_and(|last| now - last < settings.min_retrigger)
        {
            self.stats.refused_retrigger += 1;
            return Err(PlayError::Retrigger);
        }

        // Which copy index, and whose copy it takes over if the sound is full.
        let free = entry.copies.iter().position(Option::is_none);
        let (copy, victim) = match free {
            Some(copy) => (copy, None),
            None if settings.when_full == WhenFull::Refuse => {
                self.stats.refused_sound_limit += 1;
                return Err(PlayError::SoundLimit);
            }
            None => {
                let oldest = entry
                    .copies
                    .iter()
                    .enumerate()
                    .filter_map(|(copy, voice)| Some((copy, (*voice)?)))
                    .min_by_key(|(_, voice)| self.voices.get(*voice).map_or(0, |v| v.order));
                match oldest {
                    Some((copy, voice)) => (copy, Some(voice)),
                    None => return Err(PlayError::SoundLimit),
                }
            }
        };
        let volume = entry.volumes.volume(copy as u32) * params.volume;
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
            return self.take_over(sound, copy, victim, volume, params, settings.priority);
        }

        // A positioned sound needs an emitter: check before anything is stolen.
        if params.position.is_some() && self.free_emitters.is_empty() {
            self.release_emitters();
            if self.free_emitters.is_empty() && self.prewarm_emitters(1) == 0 {
                self.stats.refused_no_emitter += 1;
                return Err(PlayError::NoEmitter);
            }
        }
        // Room in kira for one more sound, counting the ones fading out.
        if self.voices.live_len() + self.fading.len() >= self.kira_capacity {
            self.stats.refused_voice_cap += 1;
            return Err(PlayError::VoiceCap);
        }
        if let Some(victim) = victim {
            self.end_voice(victim, self.settings.steal_fade);
            self.stats.recycled_copies += 1;
        }
        let acquired = match self.voices.try_acquire_detailed() {
            Ok(acquired) => acquired,
            Err(_) => {
                self.stats.refused_voice_cap += 1;
                return Err(PlayError::VoiceCap);
            }
        };
        if acquired.recycled.is_some() {
            // The stolen voice's object is the one just handed out: end its sound.
            self.stats.stolen_voices += 1;
            let fade = tween(self.settings.steal_fade);
            if let Some(voice) = self.voices.get_mut(acquired.handle) {
                if let Some(mut kira) = voice.kira.take() {
                    kira.stop(fade);
                    self.fading.push((kira, None));
                }
                if let Some(emitter) = voice.emitter.take() {
                    self.quarantined.push(emitter);
                }
                if let Some(slot) = self
                    .sounds
                    .get_mut(voice.sound as usize)
                    .and_then(|s| s.copies.get_mut(usize::from(voice.copy)))
                {
                    *slot = None;
                }
            }
        }
        let entry = &self.sounds[sound.index()];
        let data = entry
            .data
            .volume(Decibels(decibels(volume) as f32))
            .playback_rate(PlaybackRate(params.playback_rate))
            .panning(Panning(params.panning));
        let emitter = match params.position {
            Some(position) => self.free_emitters.pop().inspect(|e| {
                let track = &mut self.emitters[usize::from(*e)];
                track.set_position(vector(position), tween(Duration::ZERO));
                track.set_spatialization_strength(params.spatial_blend, tween(Duration::ZERO));
            }),
            None => None,
        };
        let played = match emitter {
            Some(e) => self.emitters[usize::from(e)].play(data),
            None => self.track.play(data),
        };
        let kira = match played {
            Ok(kira) => kira,
            Err(_) => {
                if let Some(e) = emitter {
                    self.free_emitters.push(e);
                }
                let _ = self.voices.release(acquired.handle);
                return Err(PlayError::Backend);
            }
        };
        let order = self.next_order;
        self.next_order += 1;
        if let Some(voice) = self.voices.get_mut(acquired.handle) {
            *voice = Voice {
                sound: sound.0,
                copy: copy as u8,
                kira: Some(kira),
                volume,
                priority: settings.priority,
                position: params.position,
                emitter,
                frame,
                order,
            };
        }
        let entry = &mut self.sounds[sound.index()];
        entry.copies[copy] = Some(acquired.handle);
        entry.last_play = Some(now);
        self.stats.plays += 1;
        self.stats.peak_voices = self.stats.peak_voices.max(self.voices.live_len());
        Ok(acquired.handle)
    }

    /// A new play takes over a voice of the same sound that started this frame:
    /// the old handle goes stale, the kira sound stays and is retuned.
    fn take_over(
        &mut self,
        sound: SoundId,
        copy: usize,
        victim: VoiceHandle,
        volume: f64,
        params: PlayParams,
        priority: i32,
    ) -> Result<VoiceHandle, PlayError> {
        // The same voice, with its kira sound, under a new handle: the old one is
        // stale. (`renew` fails only when no slot index is left, after ~2^62 plays.)
        let Ok(handle) = self.voices.renew(victim) else {
            self.stats.refused_voice_cap += 1;
            return Err(PlayError::VoiceCap);
        };
        let order = self.next_order;
        self.next_order += 1;
        if let Some(voice) = self.voices.get_mut(handle) {
            if let Some(kira) = &mut voice.kira {
                let now = tween(Duration::ZERO);
                kira.set_volume(Decibels(decibels(volume) as f32), now);
                kira.set_playback_rate(PlaybackRate(params.playback_rate), now);
                kira.set_panning(Panning(params.panning), now);
            }
            if let (Some(e), Some(position)) = (voice.emitter, params.position) {
                let track = &mut self.emitters[usize::from(e)];
                track.set_position(vector(position), tween(Duration::ZERO));
                track.set_spatialization_strength(params.spatial_blend, tween(Duration::ZERO));
            }
            voice.volume = volume;
            voice.priority = priority;
            voice.position = params.position;
            voice.order = order;
            voice.copy = copy as u8;
            voice.sound = sound.0;
        }
        let entry = &mut self.sounds[sound.index()];
        entry.copies[copy] = Some(handle);
        entry.last_play = Some(self.now);
        self.stats.plays += 1;
        self.stats.recycled_copies += 1;
        Ok(handle)
    }

    /// Stops a live voice's kira sound with `fade`, frees its copy slot and gives
    /// the voice back to the pool.
    fn end_voice(&mut self, handle: VoiceHandle, fade: Duration) {
        let Some(voice) = self.voices.get_mut(handle) else {
            return;
        };
        if let Some(mut kira) = voice.kira.take() {
            kira.stop(tween(fade));
            self.fading.push((kira, None));
        }
        if let Some(emitter) = voice.emitter.take() {
            self.quarantined.push(emitter);
        }
        let (sound, copy) = (voice.sound as usize, usize::from(voice.copy));
        if let Some(slot) = self
            .sounds
            .get_mut(sound)
            .and_then(|s| s.copies.get_mut(copy))
            && *slot == Some(handle)
        {
            *slot = None;
        }
        let _ = self.voices.release(handle);
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
        if !(dt.is_finite() && dt >= 0.0) {
            return Err(InvalidTime(dt));
        }
        self.now += dt;
        self.frame += 1;
        let pass = self.passes.load(Ordering::Acquire);
        let (sounds, fading, quarantined) =
            (&mut self.sounds, &mut self.fading, &mut self.quarantined);
        self.voices.reclaim(|handle, voice| {
            let stopped = voice
                .kira
                .as_ref()
                .is_none_or(|kira| kira.state() == PlaybackState::Stopped);
            if stopped {
                // kira frees its slot one pass later: count it until then.
                if let Some(kira) = voice.kira.take() {
                    fading.push((kira, Some(pass)));
                }
                if let Some(emitter) = voice.emitter.take() {
                    quarantined.push(emitter);
                }
                if let Some(slot) = sounds
                    .get_mut(voice.sound as usize)
                    .and_then(|s| s.copies.get_mut(usize::from(voice.copy)))
                    && *slot == Some(handle)
                {
                    *slot = None;
                }
            }
            stopped
        });
        // A sound's slot is free once a full processing pass has started after it
        // was seen stopped (kira removes finished sounds at the start of a pass).
        for (kira, seen) in &mut self.fading {
            if seen.is_none() && kira.state() == PlaybackState::Stopped {
                *seen = Some(pass);
            }
        }
        self.fading
            .retain(|(_, seen)| seen.is_none_or(|seen_at| pass <= seen_at));
        self.release_emitters();
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
        let mut created = 0;
        while created < count && self.emitters.len() < self.settings.emitters {
            let Ok(emitter) = self.track.add_spatial_sub_track(
                self.listener.id(),
                vector([0.0; 3]),
                SpatialTrackBuilder::new().sound_capacity(1),
            ) else {
                break;
            };
            self.free_emitters.push(self.emitters.len() as u16);
            self.emitters.push(emitter);
            created += 1;
        }
        created
    }

    /// Emitters whose last sound kira has let go of are free again.
    fn release_emitters(&mut self) {
        let (emitters, free) = (&self.emitters, &mut self.free_emitters);
        self.quarantined.retain(|e| {
            let empty = emitters[usize::from(*e)].num_sounds() == 0;
            if empty {
                free.push(*e);
            }
            !empty
        });
    }

    /// Stops a voice, fading out over `fade`; its handle goes stale.
    ///
    /// # Errors
    /// [`StaleVoice`] if it already ended.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use std::time::Duration;
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default())?;
    /// sfx.stop(voice, Duration::from_millis(20))?;
    /// assert!(sfx.stop(voice, Duration::ZERO).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stop(&mut self, voice: VoiceHandle, fade: Duration) -> Result<(), StaleVoice> {
        if !self.voices.contains(voice) {
            return Err(StaleVoice);
        }
        self.end_voice(voice, fade);
        Ok(())
    }

    /// Pauses a voice (it keeps its voice and copy index).
    ///
    /// # Errors
    /// [`StaleVoice`] if it already ended.
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
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn pause(&mut self, voice: VoiceHandle) -> Result<(), StaleVoice> {
        let fade = tween(self.settings.steal_fade);
        let voice = self.voices.get_mut(voice).ok_or(StaleVoice)?;
        if let Some(kira) = &mut voice.kira {
            kira.pause(fade);
        }
        Ok(())
    }

    /// Resumes a paused voice.
    ///
    /// # Errors
    /// [`StaleVoice`] if it already ended.
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
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resume(&mut self, voice: VoiceHandle) -> Result<(), StaleVoice> {
        let fade = tween(self.settings.steal_fade);
        let voice = self.voices.get_mut(voice).ok_or(StaleVoice)?;
        if let Some(kira) = &mut voice.kira {
            kira.resume(fade);
        }
        Ok(())
    }

    /// Sets a voice's play volume (the multiplier on its copy's volume, `[0, 1]`).
    ///
    /// # Errors
    /// [`StaleVoice`] if it ended; a volume out of range is clamped into `[0, 1]`
    /// (NaN counts as 0).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default())?;
    /// sfx.set_volume(voice, 0.25)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_volume(&mut self, voice: VoiceHandle, volume: f64) -> Result<(), StaleVoice> {
        let volume = if volume.is_nan() {
            0.0
        } else {
            volume.clamp(0.0, 1.0)
        };
        let voice = self.voices.get_mut(voice).ok_or(StaleVoice)?;
        let sound = &self.sounds[voice.sound as usize];
        let amplitude = sound.volumes.volume(u32::from(voice.copy)) * volume;
        voice.volume = amplitude;
        if let Some(kira) = &mut voice.kira {
            kira.set_volume(
                Decibels(decibels(amplitude) as f32),
                tween(Duration::from_millis(5)),
            );
        }
        Ok(())
    }

    /// Moves a voice: its emitter, if it is positioned, and its place for
    /// [`Stealing::Furthest`](crate::Stealing::Furthest).
    ///
    /// # Errors
    /// [`StaleVoice`] if it ended.
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
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_position(
        &mut self,
        voice: VoiceHandle,
        position: [f32; 3],
    ) -> Result<(), StaleVoice> {
        let voice = self.voices.get_mut(voice).ok_or(StaleVoice)?;
        voice.position = Some(position);
        if let Some(e) = voice.emitter {
            self.emitters[usize::from(e)].set_position(vector(position), tween(Duration::ZERO));
        }
        Ok(())
    }

    /// Moves the listener positioned sounds are heard from (and measured from by
    /// [`Stealing::Furthest`](crate::Stealing::Furthest)).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// sfx.set_listener([1.0, 2.0, 3.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_listener(&mut self, position: [f32; 3]) {
        self.voices.policy_mut().listener = position;
        self.listener
            .set_position(vector(position), tween(Duration::ZERO));
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

    /// Stops every copy of one sound, fading out over `fade`.
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
        self.stop_where(fade, |voice| voice.sound == sound.0);
    }

    fn stop_where(&mut self, fade: Duration, mut which: impl FnMut(&Voice) -> bool) {
        let (sounds, fading, quarantined) =
            (&mut self.sounds, &mut self.fading, &mut self.quarantined);
        self.voices.reclaim(|handle, voice| {
            if !which(voice) {
                return false;
            }
            if let Some(mut kira) = voice.kira.take() {
                kira.stop(tween(fade));
                fading.push((kira, None));
            }
            if let Some(emitter) = voice.emitter.take() {
                quarantined.push(emitter);
            }
            if let Some(slot) = sounds
                .get_mut(voice.sound as usize)
                .and_then(|s| s.copies.get_mut(usize::from(voice.copy)))
                && *slot == Some(handle)
            {
                *slot = None;
            }
            true
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
        let fade = tween(self.settings.steal_fade);
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
        let fade = tween(self.settings.steal_fade);
        self.voices.for_each_mut(|_, voice| {
            if let Some(kira) = &mut voice.kira {
                kira.resume(fade);
            }
        });
    }

    /// `true` while the voice is live (playing or paused).
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
        self.voices.contains(voice)
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
        self.sounds
            .get(sound.index())
            .map_or(0, |s| s.copies.iter().filter(|c| c.is_some()).count())
    }

    /// The copy volumes of a sound (its solved attenuation).
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
        self.sounds.get(sound.index()).map(|s| s.volumes)
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
        self.sounds.get(sound.index()).map(|s| s.name.as_str())
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
            fading_voices: self.fading.len(),
            ..self.stats
        }
    }

    /// The sound-effects sub-track: one volume for every sound effect.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Decibels, Tween};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// sfx.track().set_volume(Decibels(-6.0), Tween::default());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn track(&mut self) -> &mut TrackHandle {
        &mut self.track
    }
}

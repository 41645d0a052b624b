//! The manager: setting it up on the game's kira manager, adding sounds, the
//! per-frame update and the queries. Playing is in `sound_effects/play.rs`,
//! per-voice control in `sound_effects/control.rs`, the listener in
//! `sound_effects/listener.rs`, and the voice bank's slots in
//! `sound_effects/slots.rs`.

mod control;
mod groups;
mod listener;
mod play;
mod selection;
mod slots;

use std::collections::HashMap;
use std::sync::Arc;

use arrayvec::ArrayVec;
use kira::backend::Backend;
use kira::sound::static_sound::StaticSoundData;
use kira::track::{TrackBuilder, TrackHandle};
use kira::{AudioManager, Decibels, Tween};
use pool_core::{Pool, StaleHandle, seconds_to_micros};

use crate::attenuation::CopyVolumes;
use crate::bank::{BankBuilder, BankHandle, Budget, Source};
use crate::error::{AddSoundError, SetupError, VoiceError};
use crate::groups::Group;
use crate::level::kira_volume;
use crate::limiter::{LimiterBuilder, LimiterHandle};
use crate::loader::SoundLoader;
use crate::params::{ParamError, check_fade, check_volume};
use crate::peak::SoundPeak;
use crate::playhead::Timeline;
use crate::settings::{SettingsError, SoundEffectsSettings, SoundSettings};
use crate::sound::{Sound, audible_copies};
use crate::stats::AudioStats;
use crate::voice::{DropLeastAudible, Ended, SoundId, Voice, VoiceHandle, VoiceKey, next_owner};
use slots::Slots;

/// Sound-effect voices on the game's own kira [`AudioManager`]: per-sound copy
/// limits with attenuation, a global voice cap with stealing, and a limiter as the
/// ceiling of the whole sound-effects mix.
///
/// It owns one sub-track for all sound effects, and on it the voice bank: one
/// kira sound holding every real voice, created once (twice the voice cap:
/// every real voice and as many fading out). A play sends the bank a command
/// and allocates nothing. The game's music and other tracks keep working beside
/// it; streaming sounds (music, long ambiences) are played on them, as plain
/// kira sounds.
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
/// // full scale, and the mixer is asked for 10 voices, not 100.
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
    /// The game thread's end of the voice bank.
    bank: BankHandle,
    /// Every voice, real or virtual: `voice_cap + virtual_voices` records.
    voices: Pool<Voice, DropLeastAudible, VoiceKey>,
    slots: Slots,
    sounds: Vec<Sound>,
    names: HashMap<String, SoundId>,
    groups: Vec<Group>,
    settings: SoundEffectsSettings,
    listener: [f32; 3],
    /// `virtual_margin_db` as a gain.
    margin: f32,
    /// Scratch for `update`'s choice of real voices, as long as the voice pool.
    candidates: Vec<(crate::audibility::Rank, VoiceKey, u32)>,
    /// Voices that ended since the last `update` began, reported by the next.
    ending: Vec<Ended>,
    /// What the last `update` reported: `ended()`.
    ended: Vec<Ended>,
    /// Scratch for `update`: real voices and the least audible one, per group and
    /// per sound (grown when a group or sound is added, never in `update`).
    group_scratch: Vec<(usize, Option<crate::audibility::Rank>)>,
    sound_scratch: Vec<(usize, Option<crate::audibility::Rank>)>,
    /// Game time in microseconds, for retrigger intervals (see `clock.rs`).
    micros: u64,
    frame: u64,
    next_order: u64,
    stats: AudioStats,
}

/// Commands the bank's queue holds between two blocks of the mixer, per voice of
/// the cap (and at least 1024).
const COMMANDS_PER_VOICE: usize = 16;

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
        let slots = settings.voice_cap * 2;
        let mut builder = track.sound_capacity(1).volume(Decibels::IDENTITY);
        let limiter = match settings.limiter {
            Some(limiter) => {
                let limiter = LimiterBuilder::new(limiter)
                    .map_err(|e| SetupError::Settings(SettingsError::Limiter(e)))?;
                Some(builder.add_effect(limiter))
            }
            None => None,
        };
        let mut track = manager
            .add_sub_track(builder)
            .map_err(|_| SetupError::TrackLimit)?;
        let bank = track
            .play(BankBuilder {
                slots,
                commands: (settings.voice_cap * COMMANDS_PER_VOICE).max(1024),
                steal_fade: settings.steal_fade,
            })
            .map_err(|_| SetupError::TrackLimit)?;
        let records = settings.voice_cap + settings.virtual_voices;
        let voices = Pool::builder(Voice::idle)
            .initial(records)
            .max_objects(records)
            .policy(DropLeastAudible)
            .handle::<VoiceKey>()
            .build()
            .map_err(|_| SetupError::Settings(SettingsError::Manager("voice_cap")))?;
        Ok(Self {
            owner: next_owner(),
            track,
            limiter,
            bank,
            voices,
            slots: Slots::new(slots, settings.voice_cap),
            sounds: Vec::new(),
            names: HashMap::new(),
            groups: Vec::new(),
            settings,
            listener: [0.0; 3],
            margin: crate::level::amplitude(settings.virtual_margin_db) as f32,
            candidates: Vec::with_capacity(records),
            ending: Vec::with_capacity(records),
            ended: Vec::with_capacity(records),
            group_scratch: Vec::new(),
            sound_scratch: Vec::new(),
            micros: 0,
            frame: 0,
            next_order: 0,
            stats: AudioStats::default(),
        })
    }

    /// Adds a decoded sound under `name` with its settings. Its peak is
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
        if let Some(group) = settings.group
            && (group.owner != self.owner || group.index as usize >= self.groups.len())
        {
            return Err(AddSoundError::UnknownGroup);
        }
        let peak = SoundPeak::measure(&data).map_err(AddSoundError::Sound)?;
        let volumes = settings
            .copy_volumes(peak.max())
            .map_err(AddSoundError::Settings)?;
        let id = SoundId {
            index: self.sounds.len() as u32,
            owner: self.owner,
        };
        let budget = Budget::new(volumes, settings.budget(peak.max()));
        let mut settings = settings;
        settings.virtualization = settings
            .virtualization
            .resolve(data.settings.loop_region.is_some());
        self.sounds.push(Sound {
            name: name.to_string(),
            source: Arc::new(Source::new(&data, budget, peak)),
            settings,
            peak,
            volumes,
            min_retrigger: seconds_to_micros(settings.min_retrigger).unwrap_or(u64::MAX),
            copies: ArrayVec::new(),
            audible: audible_copies(&volumes, settings.audibility_floor_db),
            recent: ArrayVec::new(),
            timeline: Timeline::of(&data),
            floor: crate::level::amplitude(settings.audibility_floor_db) as f32,
        });
        self.names.insert(name.to_string(), id);
        self.sound_scratch.push((0, None));
        Ok(id)
    }

    /// Loads `key` through `loader` and adds it under the same name.
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

    /// The voices that ended by the last [`update`](Self::update): every voice
    /// whose handle went stale since the update before it, whether a call ended
    /// it (`stop`, a recycled copy, a stolen voice, a dropped virtual voice) or
    /// the update did (a one-shot that played to its end). Each voice is reported
    /// once, by one update. Replaced at the next update; reading it allocates
    /// nothing, and the lists keep their capacity.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use pool_audio::{EndReason, OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 480].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let short = sfx.play(id, PlayParams::default())?;
    /// let long = sfx.play(id, PlayParams::default())?;
    /// sfx.stop(long, Tween::default())?;
    /// sfx.update(1.0 / 60.0)?;
    /// assert_eq!(sfx.ended().len(), 1);
    /// assert_eq!((sfx.ended()[0].voice, sfx.ended()[0].reason), (long, EndReason::Stopped));
    /// // 10 ms later the mixer has played the click to its end.
    /// manager.backend_mut().render(0.05)?;
    /// sfx.update(1.0 / 60.0)?;
    /// assert_eq!((sfx.ended()[0].voice, sfx.ended()[0].reason), (short, EndReason::Finished));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn ended(&self) -> &[Ended] {
        &self.ended
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
            Err(VoiceError::Stale(StaleHandle))
        }
    }

    /// `true` while the voice is live (real or virtual, playing or paused); `false`
    /// once it ended, was stopped or stolen, and for another manager's handle.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// # let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let voice = sfx.play(id, PlayParams::default())?;
    /// assert!(sfx.contains(voice));
    /// sfx.stop(voice, kira::Tween::default())?;
    /// assert!(!sfx.contains(voice));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn contains(&self, voice: VoiceHandle) -> bool {
        self.own_voice(voice)
            .is_ok_and(|key| self.voices.contains(key))
    }

    /// Real copies of `sound` playing now (virtual ones are not counted).
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
        self.own_sound(sound).map_or(0, |s| s.copies.len())
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
    /// sfx.stop(voice, kira::Tween { duration: Duration::from_millis(50), ..Default::default() })?;
    /// assert_eq!(sfx.copies_fading(id), 1);
    /// manager.backend_mut().render(0.1)?;
    /// assert_eq!(sfx.copies_fading(id), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn copies_fading(&self, sound: SoundId) -> usize {
        if self.own_sound(sound).is_none() {
            return 0;
        }
        self.slots.leaving_of(sound.index, self.bank.shared())
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
    /// assert_eq!(sfx.name(id), Some("click"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn name(&self, sound: SoundId) -> Option<&str> {
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
            real_voices: self.slots.real.len(),
            virtual_voices: self.voices.live_count() - self.slots.real.len(),
            fading_voices: self.slots.leaving(),
            ..self.stats
        }
    }

    /// The volume of every sound effect together: a linear amplitude in `[0, 1]`
    /// on the sound-effects track, reached with `fade`. (Above 1 it would lift
    /// the track past its limiter's ceiling, which is why the track itself is not
    /// handed out.)
    ///
    /// # Errors
    /// [`ParamError::Volume`] for a volume that is NaN or outside `[0, 1]`,
    /// [`ParamError::Fade`] for a fade kira cannot compute.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let fade = kira::Tween { duration: Duration::from_millis(100), ..Default::default() };
    /// sfx.set_track_volume(0.5, fade)?;
    /// assert!(sfx.set_track_volume(2.0, fade).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_track_volume(&mut self, volume: f64, fade: Tween) -> Result<(), ParamError> {
        let volume = check_volume(volume)?;
        let fade = check_fade(fade)?;
        self.track.set_volume(kira_volume(volume), fade);
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

//! The sounds: adding, loading and removing them, and what the manager knows of
//! each.

use kira::Tween;

use super::SoundEffects;
use crate::CopyVolumes;
use crate::SoundPeak;
use crate::error::{AddSoundError, RemoveSoundError};
use crate::handles::{EndReason, SoundId};
use crate::params::check_fade;
use crate::settings::SoundSettings;
use crate::variations::{Dice, Recordings};

impl SoundEffects {
    /// Adds a decoded sound under `name` with its settings: one recording, or
    /// several ([`Recordings`]: each play picks one by the sound's
    /// [`Pick`](crate::Pick)). Each recording's peak is measured now (see
    /// [`SoundPeak`]) and the copy volumes are solved against the loudest: all
    /// `max_voices` copies together reach at most the headroom, whichever
    /// recordings play.
    ///
    /// The voice bank stores each recording as it reads it: a mono one (both
    /// channels of every frame the same) handed over whole (nothing else holds
    /// its frames: not the game, not another sound) as its one channel, copied
    /// once now, half the memory and half the reading; any other as kira's
    /// frames, shared with the data (no copy). kira's builder methods
    /// (`loop_region`, `volume`, ...) clone the data they are called on: the
    /// data a game still holds is shared, never held twice.
    ///
    /// # Errors
    /// [`AddSoundError::DuplicateName`], [`AddSoundError::UnknownGroup`], then
    /// the recordings' errors ([`AddSoundError::NoRecordings`],
    /// [`TooManyRecordings`](AddSoundError::TooManyRecordings),
    /// [`Weight`](AddSoundError::Weight), [`NoWeight`](AddSoundError::NoWeight),
    /// and for data kira cannot play safely (see
    /// [`SoundError`](crate::SoundError)) [`AddSoundError::Sound`], or
    /// [`AddSoundError::Recording`] naming which of several), then
    /// [`AddSoundError::Settings`]; nothing is added then.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{error::AddSoundError, OfflineBackend, sound::Recordings, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let id = sfx.add_sound("click", click.clone(), SoundSettings::default())?;
    /// assert_eq!(sfx.sound("click"), Some(id));
    /// assert!(sfx.add_sound("click", click.clone(), SoundSettings::default()).is_err());
    /// let never_ends = pool_audio::kira::sound::static_sound::StaticSoundData { sample_rate: 0, ..click.clone() };
    /// assert!(sfx.add_sound("broken", never_ends.clone(), SoundSettings::default()).is_err());
    /// let two = sfx.add_sound("clicks", [click.clone(), click.clone()], SoundSettings::default())?;
    /// assert_eq!(sfx.sound_info(two).recordings(), 2);
    /// assert!(matches!(
    ///     sfx.add_sound("mixed", [click, never_ends], SoundSettings::default()),
    ///     Err(AddSoundError::Recording { recording: 1, .. })
    /// ));
    /// assert_eq!(sfx.add_sound("none", Recordings::new(), SoundSettings::default()), Err(AddSoundError::NoRecordings));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_sound(
        &mut self,
        name: &str,
        recordings: impl Into<Recordings>,
        settings: SoundSettings,
    ) -> Result<SoundId, AddSoundError> {
        let recordings = recordings.into();
        // Every send's bus and the switch's states are checked before
        // anything changes; the sound gets them once it is in.
        self.check_sends(&settings)?;
        self.check_curves(&settings)?;
        let switch = self.switch_sets(&recordings, &settings)?;
        let groups = &self.groups;
        let id = self
            .sounds
            .add(name, &recordings, settings, |group| groups.out(group))?;
        self.fit_entry(id, &settings, switch);
        Ok(id)
    }

    /// Gives the sound `id`, just added or changed, what the manager keeps
    /// beside its entry: its sends' outs, its switch's states, its curves'
    /// outputs and its loudness in the window.
    pub(super) fn fit_entry(
        &mut self,
        id: SoundId,
        settings: &SoundSettings,
        switch: Option<crate::switch::StateSets>,
    ) {
        self.game.curved |= !settings.curves.is_empty();
        let sends = self.route_sends(settings);
        if let Some(entry) = self.sounds.entry_mut(id.index) {
            entry.sends = sends;
            if let Some((switch, sets)) = switch {
                entry.set_switch(switch, sets);
            }
            let game = &self.game;
            entry.curve_now = (settings.curves).outputs(|id| game.global(id), &settings.sends);
        }
        // In a group that opts in, a sound that declares no loudness plays
        // at the window's floor.
        let floor = self.mix.window.as_ref().map(|w| w.now().floor);
        let in_window = settings
            .group
            .is_some_and(|g| self.groups.settings(g.index).loudness_window);
        if let (Some(entry), Some(floor), true) =
            (self.sounds.entry_mut(id.index), floor, in_window)
        {
            entry.window_db = Some(settings.loudness.map_or(floor, |l| f64::from(l.0)));
        }
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
        self.sounds.find(name)
    }

    /// The name of the sound `sound` (`None` for a removed sound's id or
    /// another manager's): what a voice table prints.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// # let tone = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 480].into(), settings: Default::default(), slice: None };
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let click = sfx.add_sound("click", tone, SoundSettings::default())?;
    /// assert_eq!(sfx.sound_name(click), Some("click"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sound_name(&self, sound: SoundId) -> Option<&str> {
        self.sounds.get(sound).map(|entry| entry.name.as_str())
    }

    pub(crate) fn recordings(&self, sound: SoundId) -> usize {
        self.sounds.get(sound).map_or(0, |s| s.recordings())
    }

    /// Starts every random choice over from `seed`: the generator, and what
    /// each sound remembers of its picks (Random's window, Shuffle's round,
    /// Sequential's place), as when the sounds were added: the same seed and
    /// the same calls after it make the same choices (a replay, a lockstep
    /// game, a test). A new manager given the seed in
    /// [`SoundEffectsSettings::seed`](crate::SoundEffectsSettings::seed) renders
    /// the same calls to the same samples, bit for bit, on the offline backend;
    /// one that has played before mixes its voices on other slots of the bank,
    /// so its render matches within float rounding (1e-6).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let take = |n: usize| kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.1); 480 * (n + 1)].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let steps = sfx.add_sound("steps", [take(0), take(1), take(2), take(3)], SoundSettings::default())?;
    /// let mut walk = |sfx: &mut SoundEffects| -> Vec<usize> {
    ///     sfx.reseed(7);
    ///     (0..8).map(|_| {
    ///         let voice = sfx.play(steps, PlayParams::default()).unwrap();
    ///         sfx.recording_of(voice).unwrap()
    ///     }).collect()
    /// };
    /// let first = walk(&mut sfx);
    /// assert_eq!(walk(&mut sfx), first);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reseed(&mut self, seed: u64) {
        self.dice = Dice::new(seed);
        self.sounds.reset_picks();
        self.note(|_| Some(crate::capture::What::Reseed(seed)));
    }

    pub(crate) fn name(&self, sound: SoundId) -> Option<&str> {
        self.sounds.get(sound).map(|s| s.name.as_str())
    }

    pub(crate) fn copies_playing(&self, sound: SoundId) -> usize {
        self.sounds.get(sound).map_or(0, |s| s.copies.len())
    }

    pub(crate) fn copies_fading(&self, sound: SoundId) -> usize {
        if self.sounds.get(sound).is_none() {
            return 0;
        }
        self.voices.fading_of(sound)
    }

    pub(crate) fn copies_kept(&self, sound: SoundId) -> Option<usize> {
        self.sounds.get(sound).map(|s| s.kept)
    }

    pub(crate) fn copy_volumes(&self, sound: SoundId) -> Option<CopyVolumes> {
        self.sounds.get(sound).map(|s| s.volumes)
    }

    pub(crate) fn sound_peak(&self, sound: SoundId) -> Option<SoundPeak> {
        self.sounds.get(sound).map(|s| s.peak)
    }

    /// Removes a sound, as a game unloads a level's sounds: its real voices fade
    /// out with `fade`, its virtual voices end, each reported
    /// [`EndReason::Removed`] by the next [`update`](Self::update); its id and
    /// every handle of its voices go stale ([`PlayError::UnknownSound`](crate::PlayError::UnknownSound),
    /// [`VoiceError::Stale`](crate::VoiceError::Stale)); its name is free for
    /// another sound. Its samples are freed once the mixer has let go of them,
    /// by an update on the game thread: the game side keeps a reference until
    /// the mixer can hold none (its voices over, no start of it left in the
    /// queue), so the mixer never frees memory.
    ///
    /// # Errors
    /// [`RemoveSoundError::UnknownSound`] for a removed sound's id or another
    /// manager's, [`RemoveSoundError::InvalidParam`] for a fade whose easing
    /// power is NaN, infinite or negative, [`RemoveSoundError::QueueFull`] when
    /// the voice bank's queue has no room for a stop per real voice of the
    /// sound; nothing changes then.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use pool_audio::{EndReason, OfflineBackend, PlayError, PlayParams, error::RemoveSoundError, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 4800].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let level_one = sfx.add_sound("door", click.clone(), SoundSettings::default())?;
    /// let voice = sfx.play(level_one, PlayParams::default())?;
    /// sfx.remove_sound(level_one, Tween::default())?;
    /// assert!(!sfx.state(voice).is_live());
    /// assert_eq!(sfx.play(level_one, PlayParams::default()), Err(PlayError::UnknownSound));
    /// assert_eq!(sfx.remove_sound(level_one, Tween::default()), Err(RemoveSoundError::UnknownSound));
    /// sfx.update(1.0 / 60.0)?;
    /// assert_eq!((sfx.ended()[0].voice, sfx.ended()[0].reason), (voice, EndReason::Removed));
    /// // The name is free again: the next level's door.
    /// let level_two = sfx.add_sound("door", click, SoundSettings::default())?;
    /// assert_ne!(level_two, level_one);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn remove_sound(&mut self, sound: SoundId, fade: Tween) -> Result<(), RemoveSoundError> {
        let fade = check_fade(fade)?;
        if self.sounds.get(sound).is_none() {
            return Err(RemoveSoundError::UnknownSound);
        }
        let real = self.voices.count_real(|record| record.sound == sound.index);
        self.room_for(real)
            .map_err(|_| RemoveSoundError::QueueFull)?;
        self.voices
            .stop_where(fade, EndReason::Removed, &mut self.sounds, |record| {
                record.sound == sound.index
            });
        if let Some(entry) = self.sounds.remove(sound) {
            self.voices
                .retire_sound(sound.bank_key(), entry.into_sources());
        }
        Ok(())
    }
}

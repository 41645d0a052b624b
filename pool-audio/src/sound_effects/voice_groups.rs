//! Voice groups: adding them, finding them, and their counters.

use super::SoundEffects;
use crate::AddGroupError;
use crate::groups::{GroupSettings, GroupStats};
use crate::handles::GroupId;

impl SoundEffects {
    /// Adds a voice group under `name`. Sounds join it through
    /// [`SoundSettings::group`](crate::SoundSettings::group).
    ///
    /// # Errors
    /// [`AddGroupError::DuplicateName`], [`AddGroupError::MaxVoices`] for a cap
    /// not in `1..=`[`MAX_VOICE_CAP`](crate::MAX_VOICE_CAP), [`AddGroupError::TooMany`] beyond [`MAX_GROUPS`](crate::MAX_GROUPS); nothing is
    /// added then.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{error::AddGroupError, GroupSettings, OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let ui = sfx.add_group("ui", GroupSettings::default().max_voices(4).protected(true))?;
    /// assert_eq!(sfx.group_stats(ui).unwrap().real_voices, 0);
    /// assert_eq!(sfx.add_group("ui", GroupSettings::default()), Err(AddGroupError::DuplicateName("ui".into())));
    /// assert_eq!(sfx.add_group("bad", GroupSettings::default().max_voices(0)), Err(AddGroupError::MaxVoices(0)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_group(
        &mut self,
        name: &str,
        settings: GroupSettings,
    ) -> Result<GroupId, AddGroupError> {
        self.groups.check(name, settings)?;
        let out = match settings.bus {
            Some(bus) => self.route_to(bus)?,
            None => 0,
        };
        let id = self.groups.add(name, settings, out)?;
        if let Some(window) = &mut self.mix.window
            && settings.loudness_window
        {
            window.add_group(id.index as u16);
            self.flush_mix();
        }
        Ok(id)
    }

    /// The id of the group named `name`. Resolve once, keep the id.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{GroupSettings, OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let ui = sfx.add_group("ui", GroupSettings::default())?;
    /// assert_eq!(sfx.group("ui"), Some(ui));
    /// assert_eq!(sfx.group("music"), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn group(&self, name: &str) -> Option<GroupId> {
        self.groups.find(name)
    }

    /// The counters of a group (`None` for another manager's id). O(voices).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{GroupSettings, OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 4800].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let barks = sfx.add_group("barks", GroupSettings::default().max_voices(2).stealing(pool_audio::voices::Stealing::Strict))?;
    /// let bark = sfx.add_sound("bark", click, SoundSettings::default().group(barks))?;
    /// for _ in 0..3 {
    ///     let _ = sfx.play(bark, PlayParams::default());
    /// }
    /// let stats = sfx.group_stats(barks).unwrap();
    /// assert_eq!((stats.real_voices, stats.plays, stats.refused), (2, 2, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn group_stats(&self, group: GroupId) -> Option<GroupStats> {
        let mut stats = self.groups.stats(group)?;
        for (_, voice) in self.voices.iter() {
            let of_group = self
                .sounds
                .entry(voice.sound)
                .and_then(|s| s.settings.group)
                .is_some_and(|g| g == group);
            if of_group {
                if voice.is_real() {
                    stats.real_voices += 1;
                } else {
                    stats.virtual_voices += 1;
                }
            }
        }
        Some(stats)
    }
}

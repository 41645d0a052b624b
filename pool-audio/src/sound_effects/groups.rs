//! Voice groups: adding them, their stats, and which real voices a group's play
//! may take the place of.

use super::SoundEffects;
use super::slots::Real;
use crate::error::AddGroupError;
use crate::groups::{Group, GroupId, GroupSettings, GroupStats};
use crate::voice::{Voice, VoiceKey};

/// The most groups one manager holds.
pub(crate) const MAX_GROUPS: usize = 256;

impl SoundEffects {
    /// Adds a voice group under `name`. Sounds join it through
    /// [`SoundSettings::group`](crate::SoundSettings::group).
    ///
    /// # Errors
    /// [`AddGroupError::DuplicateName`], [`AddGroupError::MaxVoices`] for a cap
    /// not in `1..=4096`, [`AddGroupError::TooMany`] beyond 256 groups; nothing is
    /// added then.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{AddGroupError, GroupSettings, OfflineBackend, SoundEffects, SoundEffectsSettings};
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
        if self.groups.iter().any(|g| g.name == name) {
            return Err(AddGroupError::DuplicateName(name.to_string()));
        }
        if !(1..=4096).contains(&settings.max_voices) {
            return Err(AddGroupError::MaxVoices(settings.max_voices));
        }
        if self.groups.len() >= MAX_GROUPS {
            return Err(AddGroupError::TooMany);
        }
        self.group_scratch.push((0, None));
        self.groups.push(Group {
            name: name.to_string(),
            settings,
            stats: GroupStats::default(),
        });
        Ok(GroupId {
            index: (self.groups.len() - 1) as u32,
            owner: self.owner,
        })
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
        let index = self.groups.iter().position(|g| g.name == name)?;
        Some(GroupId {
            index: index as u32,
            owner: self.owner,
        })
    }

    /// The counters of a group (`None` for another manager's id). O(voices).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{GroupSettings, OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 4800].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let barks = sfx.add_group("barks", GroupSettings::default().max_voices(2).stealing(pool_audio::Stealing::Strict))?;
    /// let bark = sfx.add_sound("bark", click, SoundSettings::default().group(barks))?;
    /// for _ in 0..3 {
    ///     let _ = sfx.play(bark, PlayParams::default());
    /// }
    /// let stats = sfx.group_stats(barks).unwrap();
    /// assert_eq!((stats.real_voices, stats.plays, stats.refused), (2, 2, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn group_stats(&self, group: GroupId) -> Option<GroupStats> {
        if group.owner != self.owner {
            return None;
        }
        let entry = self.groups.get(group.index as usize)?;
        let mut stats = entry.stats;
        for (_, voice) in self.voices.iter() {
            if self.group_of(voice) == Some(group.index) {
                if voice.is_real() {
                    stats.real_voices += 1;
                } else {
                    stats.virtual_voices += 1;
                }
            }
        }
        Some(stats)
    }

    /// The group of a voice's sound.
    pub(super) fn group_of(&self, voice: &Voice) -> Option<u32> {
        self.sounds
            .get(voice.sound as usize)
            .and_then(|s| s.settings.group)
            .map(|g| g.index)
    }

    /// The real voices of `group`.
    pub(super) fn real_in_group(&self, group: u32) -> usize {
        self.slots
            .real
            .iter()
            .filter(|real| real.group == Some(group))
            .count()
    }

    /// The real voices a new voice of `group` may take the place of when a cap is
    /// full: its group's, if its group is full; else every real voice but those of
    /// other protected groups.
    pub(super) fn displaceable(
        &self,
        group: Option<u32>,
        group_full: bool,
    ) -> impl Iterator<Item = &Real> + '_ {
        self.slots.real.iter().filter(move |real| {
            if group_full {
                real.group == group
            } else {
                real.group == group
                    || real
                        .group
                        .is_none_or(|g| !self.groups[g as usize].settings.protected)
            }
        })
    }

    /// The displaceable voices with their records.
    pub(super) fn displaceable_voices(
        &self,
        group: Option<u32>,
        group_full: bool,
    ) -> impl Iterator<Item = (VoiceKey, &Voice)> + '_ {
        self.displaceable(group, group_full)
            .filter_map(|real| Some((real.key, self.voices.get(real.key)?)))
    }

    /// Counts a voice of `group` stolen or displaced.
    pub(super) fn count_stolen(&mut self, group: Option<u32>) {
        if let Some(g) = group.and_then(|g| self.groups.get_mut(g as usize)) {
            g.stats.stolen += 1;
        }
    }
}

//! The mix that makes room (see `mix.rs`): named tracks, ducks and snapshots.

use kira::Tween;
use kira::effect::volume_control::VolumeControlHandle;

use super::SoundEffects;
use crate::handles::GroupId;
use crate::mix::{
    DuckId, DuckRule, DuckSettings, MixError, MixStats, MixTarget, Snapshot, SnapshotId,
    check_amount, check_duck, check_tween,
};
use crate::mix::{MAX_MIX_DB, MIN_MIX_DB};

impl SoundEffects {
    /// Lets ducks and snapshots set a kira track of the game's (its music or
    /// ambience), named `name`, through a volume-control effect on that track:
    /// add `kira::effect::volume_control::VolumeControlBuilder` to the track's
    /// builder and hand its handle over here ([`Music`](crate::Music) tracks
    /// have one: [`Music::take_mix_control`](crate::Music::take_mix_control)).
    /// The track's own volume stays the game's.
    ///
    /// # Errors
    /// [`MixError::DuplicateTrack`], [`MixError::TooMany`]; nothing is added.
    pub fn add_mix_track(
        &mut self,
        name: &str,
        control: VolumeControlHandle,
    ) -> Result<(), MixError> {
        self.mix.add_track(name, control)
    }

    /// Lowers `target` by `settings.amount_db` while any voice of group
    /// `source` is real and not paused: the target goes down over the attack
    /// as soon as an [`update`](Self::update) sees such a voice, and comes back
    /// over the release once no voice of `source` has sounded for the hold. How
    /// several ducks on one target combine is the [`DuckRule`] (by default the
    /// deepest wins).
    ///
    /// Ducks are decided at each update, so a duck starts and ends within one
    /// update of its source's voices (a game that plays and then updates in
    /// the same frame ducks in the block the voice starts in).
    ///
    /// # Errors
    /// [`MixError::UnknownGroup`] for another manager's group,
    /// [`MixError::UnknownTrack`], [`MixError::Amount`], [`MixError::Time`],
    /// [`MixError::Easing`], [`MixError::TooMany`]; nothing is added.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{mix::DuckSettings, GroupSettings, mix::MixError, OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let dialogue = sfx.add_group("dialogue", GroupSettings::default())?;
    /// let steps = sfx.add_group("footsteps", GroupSettings::default())?;
    /// sfx.add_duck(dialogue, steps, DuckSettings::default().amount_db(-12.0))?;
    /// let bad = sfx.add_duck(dialogue, steps, DuckSettings::default().amount_db(f32::NAN));
    /// assert!(matches!(bad, Err(MixError::Amount(_))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_duck(
        &mut self,
        source: GroupId,
        target: impl Into<MixTarget>,
        settings: DuckSettings,
    ) -> Result<DuckId, MixError> {
        if !self.groups.contains(source) {
            return Err(MixError::UnknownGroup);
        }
        let settings = check_duck(settings)?;
        let groups = &self.groups;
        let target = self.mix.resolve(&target.into(), |g| groups.contains(g))?;
        self.mix.add_duck(source.index, target, settings)
    }

    /// `true` while duck `duck`'s source sounds or it holds.
    ///
    /// # Errors
    /// [`MixError::Unknown`] for another manager's duck.
    pub fn duck_active(&self, duck: DuckId) -> Result<bool, MixError> {
        self.mix.duck_active(duck)
    }

    /// How ducks on one target combine (see [`DuckRule`]).
    ///
    /// # Errors
    /// [`MixError::Amount`] for a [`DuckRule::Sum`] maximum not in
    /// `MIN_MIX_DB..=0`; nothing changes.
    pub fn set_duck_rule(&mut self, rule: DuckRule) -> Result<(), MixError> {
        if let DuckRule::Sum { max_db } = rule {
            check_amount(max_db)?;
        }
        self.mix.set_rule(rule);
        self.flush_mix();
        Ok(())
    }

    /// Adds a snapshot, released until applied.
    ///
    /// # Errors
    /// [`MixError::DuplicateSnapshot`], [`MixError::UnknownGroup`],
    /// [`MixError::UnknownTrack`], [`MixError::Volume`] for a volume not in
    /// `MIN_MIX_DB..=MAX_MIX_DB`, [`MixError::TooMany`]; nothing is added.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{GroupSettings, mix::MixError, OfflineBackend, mix::Snapshot, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let rain = sfx.add_group("rain", GroupSettings::default())?;
    /// let storm = sfx.add_snapshot(Snapshot::new("storm").set(rain, 6.0))?;
    /// sfx.apply_snapshot(storm, 1.0, kira::Tween::default())?;
    /// assert_eq!(sfx.mix_stats().snapshots_active, 1);
    /// let missing = sfx.add_snapshot(Snapshot::new("menu").set("music", -12.0));
    /// assert_eq!(missing, Err(MixError::UnknownTrack("music".into())));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_snapshot(&mut self, snapshot: Snapshot) -> Result<SnapshotId, MixError> {
        let mut volumes = Vec::with_capacity(snapshot.volumes.len());
        for (target, db) in &snapshot.volumes {
            if !(MIN_MIX_DB..=MAX_MIX_DB).contains(db) {
                return Err(MixError::Volume(*db));
            }
            let groups = &self.groups;
            let target = self.mix.resolve(target, |g| groups.contains(g))?;
            volumes.push((target, f64::from(*db)));
        }
        self.mix.add_snapshot(snapshot, volumes)
    }

    /// The id of the snapshot named `name`.
    pub fn snapshot(&self, name: &str) -> Option<SnapshotId> {
        self.mix.snapshot_named(name)
    }

    /// Applies `snapshot` at `intensity` (`0..=1`), every target it changes
    /// moving there with `tween`; applying an applied snapshot changes its
    /// intensity.
    ///
    /// # Errors
    /// [`MixError::Unknown`], [`MixError::Intensity`], [`MixError::Time`],
    /// [`MixError::Easing`]; nothing changes.
    pub fn apply_snapshot(
        &mut self,
        snapshot: SnapshotId,
        intensity: f32,
        tween: Tween,
    ) -> Result<(), MixError> {
        if !(0.0..=1.0).contains(&intensity) {
            return Err(MixError::Intensity(intensity));
        }
        let tween = check_tween(tween)?;
        self.mix
            .set_snapshot(snapshot, Some(f64::from(intensity)), tween)?;
        self.flush_mix();
        Ok(())
    }

    /// Releases `snapshot`: every target it changed moves back with `tween`
    /// (to what the other active snapshots set).
    ///
    /// # Errors
    /// [`MixError::Unknown`], [`MixError::Time`], [`MixError::Easing`];
    /// nothing changes.
    pub fn release_snapshot(&mut self, snapshot: SnapshotId, tween: Tween) -> Result<(), MixError> {
        let tween = check_tween(tween)?;
        self.mix.set_snapshot(snapshot, None, tween)?;
        self.flush_mix();
        Ok(())
    }

    /// The gain the ducks and snapshots have decided for `target`, in dB (0
    /// for a target none of them sets): where the mixer is taking it, over the
    /// tween of the last change. The loudness window is per voice, and not in
    /// it.
    ///
    /// # Errors
    /// [`MixError::UnknownGroup`], [`MixError::UnknownTrack`].
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{GroupSettings, OfflineBackend, mix::Snapshot, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let rain = sfx.add_group("rain", GroupSettings::default())?;
    /// let storm = sfx.add_snapshot(Snapshot::new("storm").set(rain, 6.0))?;
    /// sfx.apply_snapshot(storm, 0.5, kira::Tween::default())?;
    /// assert_eq!(sfx.mix_db(rain)?, 3.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn mix_db(&self, target: impl Into<MixTarget>) -> Result<f64, MixError> {
        let groups = &self.groups;
        let target = self.mix.resolve(&target.into(), |g| groups.contains(g))?;
        Ok(self.mix.value_db(target))
    }

    /// What the mix is doing.
    pub fn mix_stats(&self) -> MixStats {
        self.mix.stats()
    }

    /// The ducks' part of [`update`](Self::update): which groups sound, then
    /// every changed value to the mixer.
    pub(super) fn update_mix(&mut self, dt: f64) {
        if !self.mix.has_ducks() {
            self.flush_mix();
            return;
        }
        let groups = self.groups.tally.len();
        let sounding = &mut self.mix.sounding;
        sounding.clear();
        sounding.resize(groups, 0);
        for real in self.voices.real() {
            let Some(group) = real.group else { continue };
            let heard = self.voices.get(real.key).is_some_and(|v| !v.paused);
            match sounding.get_mut(group as usize) {
                Some(n) if heard => *n += 1,
                _ => {}
            }
        }
        let ended = &mut self.mix.ended;
        ended.clear();
        ended.resize(groups, (0, f64::INFINITY));
        for &(group, ago) in self.voices.ends() {
            if let Some((count, latest)) = ended.get_mut(group as usize) {
                *count += 1;
                *latest = latest.min(ago);
            }
        }
        self.mix.update_ducks(dt);
        self.flush_mix();
    }

    pub(super) fn flush_mix(&mut self) {
        let voices = &mut self.voices;
        self.mix.flush(|command| voices.send(command));
    }
}

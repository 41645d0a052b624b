//! The mix that makes room (see `mix.rs`): named tracks, ducks and snapshots.

use kira::{Decibels, Tween};

use super::SoundEffects;
use crate::bank::SENDS;
use crate::handles::GroupId;
use crate::mix_core::Target;
use crate::mix_core::{
    DuckId, DuckRule, DuckSettings, MixError, MixStats, MixTarget, Snapshot, SnapshotId,
    check_amount, check_duck, check_tween,
};
use crate::mix_core::{MAX_MIX, MIN_MIX};

impl SoundEffects {
    pub(crate) fn add_duck(
        &mut self,
        source: GroupId,
        target: impl Into<MixTarget>,
        settings: DuckSettings,
    ) -> Result<DuckId, MixError> {
        if !self.groups.contains(source) {
            return Err(MixError::UnknownGroup);
        }
        let settings = check_duck(settings)?;
        let target = self.target(&target.into())?;
        self.mix.add_duck(source.index, target, settings)
    }

    pub(crate) fn duck_active(&self, duck: DuckId) -> Result<bool, MixError> {
        self.mix.duck_active(duck)
    }

    pub(crate) fn set_duck_rule(&mut self, rule: DuckRule) -> Result<(), MixError> {
        if let DuckRule::Sum { max } = rule {
            check_amount(max)?;
        }
        self.mix.set_rule(rule);
        self.flush_mix();
        Ok(())
    }

    pub(crate) fn add_snapshot(&mut self, snapshot: Snapshot) -> Result<SnapshotId, MixError> {
        let mut volumes = Vec::with_capacity(snapshot.volumes.len());
        for (target, db) in &snapshot.volumes {
            if !(MIN_MIX.0..=MAX_MIX.0).contains(&db.0) {
                return Err(MixError::Volume(*db));
            }
            let target = self.target(target)?;
            volumes.push((target, f64::from(db.0)));
        }
        for &(param, value) in &snapshot.params {
            volumes.push(self.mix.resolve_param(param, value)?);
        }
        self.mix.add_snapshot(snapshot, volumes)
    }

    pub(crate) fn snapshot(&self, name: &str) -> Option<SnapshotId> {
        self.mix.snapshot_named(name)
    }

    pub(crate) fn apply_snapshot(
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
        let intensity = Some(f64::from(intensity));
        self.note(|_| {
            Some(crate::capture::What::Snapshot {
                snapshot,
                intensity,
                tween,
            })
        });
        Ok(())
    }

    pub(crate) fn release_snapshot(
        &mut self,
        snapshot: SnapshotId,
        tween: Tween,
    ) -> Result<(), MixError> {
        let tween = check_tween(tween)?;
        self.mix.set_snapshot(snapshot, None, tween)?;
        self.flush_mix();
        self.note(|_| {
            Some(crate::capture::What::Snapshot {
                snapshot,
                intensity: None,
                tween,
            })
        });
        Ok(())
    }

    pub(crate) fn mix_db(&self, target: impl Into<MixTarget>) -> Result<Decibels, MixError> {
        let target = match target.into() {
            MixTarget::Sends(bus) => {
                self.own_bus(bus)?;
                match self.buses.out_of(bus)? {
                    Some(out) => Target::Entry(SENDS + u16::from(out)),
                    // Nothing sends to it yet: nothing set it either.
                    None => return Ok(Decibels::IDENTITY),
                }
            }
            target => {
                let groups = &self.groups;
                self.mix.resolve(&target, |g| groups.contains(g))?
            }
        };
        Ok(Decibels(self.mix.value_db(target) as f32))
    }

    /// Where `target`'s values go; the sends into a bus get the bus's out
    /// (a ring, the first time).
    fn target(&mut self, target: &MixTarget) -> Result<Target, MixError> {
        match *target {
            MixTarget::Sends(bus) => {
                let out = self.bus_out(bus)?;
                Ok(Target::Entry(SENDS + u16::from(out)))
            }
            _ => {
                let groups = &self.groups;
                self.mix.resolve(target, |g| groups.contains(g))
            }
        }
    }

    pub(crate) fn mix_stats(&self) -> MixStats {
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

//! The game side of the mix: which ducks are on, which snapshots are applied,
//! and the value each target should have. Values go to the mixer only when
//! they change; one the voice bank's queue has no room for waits for the next
//! call.

use kira::effect::volume_control::VolumeControlHandle;
use std::time::Duration;

use kira::{Decibels, StartTime, Tween};

use super::params::{Param, ParamId};
use super::window::Window;
use super::{
    DuckRule, DuckSettings, LoudnessWindow, MAX_MIX, MAX_MIX_ITEMS, MIN_MIX, MixError, MixStats,
    MixTarget, Snapshot, SnapshotMode, TrackId,
};
use crate::bank::{ALL, Command, MixPart};

/// Where a value goes: a bank entry (a group's, or `ALL`), a named track, or
/// an effect parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    Entry(u16),
    Track(u16),
    Param(u16),
}

/// Whether a duck's source sounds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum DuckState {
    Off,
    On,
    /// Its source went quiet: seconds of hold left.
    Holding(f64),
}

struct Duck {
    source: u32,
    target: Target,
    settings: DuckSettings,
    state: DuckState,
    /// Turned on or off in this pass.
    changed: bool,
    /// Seconds of hold left when it went off (its release's delay).
    delay: f64,
}

struct Applied {
    snapshot: Snapshot,
    volumes: Vec<(Target, f64)>,
    /// `Some(intensity)` while applied.
    intensity: Option<f64>,
}

/// One target's ducking and snapshot values, as last decided, and the tween to
/// send each with while it is not sent.
struct Value {
    target: Target,
    duck: f64,
    snapshot: f64,
    duck_pending: Option<Tween>,
    snapshot_pending: Option<Tween>,
}

struct Track {
    name: String,
    /// `None` for a music track kira has not made yet (it is made with the
    /// level the mix holds for it then: [`MixEngine::track_db`]).
    control: Option<VolumeControlHandle>,
    /// Made by the crate (a bus or a music track), with a side-chain's gain.
    keyed: bool,
}

/// The ducks, snapshots and named tracks of one manager.
pub(crate) struct MixEngine {
    owner: u32,
    tracks: Vec<Track>,
    params: Vec<Param>,
    ducks: Vec<Duck>,
    rule: DuckRule,
    snapshots: Vec<Applied>,
    /// Applied snapshots in combining order (indices into `snapshots`).
    order: Vec<usize>,
    values: Vec<Value>,
    /// Scratch: sounding voices per group.
    pub(crate) sounding: Vec<u32>,
    /// Sounding voices per group at the last update.
    was_sounding: Vec<u32>,
    /// Scratch: per group, the voices that played to their end since the last
    /// update and how long ago (audio seconds) the latest of them ended.
    pub(crate) ended: Vec<(u32, f64)>,
    /// The loudness window, if on.
    pub(crate) window: Option<Window>,
}

impl MixEngine {
    pub(crate) fn new(owner: u32, window: Option<LoudnessWindow>) -> Self {
        Self {
            owner,
            tracks: Vec::new(),
            params: Vec::new(),
            ducks: Vec::new(),
            rule: DuckRule::Deepest,
            snapshots: Vec::new(),
            order: Vec::with_capacity(MAX_MIX_ITEMS),
            values: Vec::new(),
            sounding: Vec::new(),
            was_sounding: Vec::new(),
            ended: Vec::new(),
            window: window.map(Window::new),
        }
    }

    pub(crate) fn add_track(
        &mut self,
        name: &str,
        control: Option<VolumeControlHandle>,
        keyed: bool,
    ) -> Result<TrackId, MixError> {
        if self.tracks.iter().any(|t| t.name == name) {
            return Err(MixError::DuplicateTrack(name.to_string()));
        }
        if self.tracks.len() >= MAX_MIX_ITEMS {
            return Err(MixError::TooMany);
        }
        self.tracks.push(Track {
            name: name.to_string(),
            control,
            keyed,
        });
        Ok(TrackId {
            index: self.tracks.len() as u32 - 1,
            owner: self.owner,
        })
    }

    /// How many tracks the mix names: the next one's index.
    pub(crate) fn track_count(&self) -> usize {
        self.tracks.len()
    }

    /// The level the mix holds for track `index` (its ducking and snapshot
    /// summed, in dB): what it was last told, sent or not.
    pub(crate) fn track_db(&self, index: u32) -> f32 {
        self.values
            .iter()
            .filter(|v| matches!(v.target, Target::Track(t) if u32::from(t) == index))
            .map(|v| (v.duck + v.snapshot) as f32)
            .sum()
    }

    /// Hands track `index` the volume control kira made it with: what the
    /// mix decides from now on goes to it.
    pub(crate) fn set_track_control(&mut self, index: u32, control: VolumeControlHandle) {
        if let Some(track) = self.tracks.get_mut(index as usize) {
            track.control = Some(control);
        }
    }

    /// Whether track `index` was made by the crate, with a side-chain's gain.
    pub(crate) fn keyed(&self, index: u32) -> bool {
        self.tracks.get(index as usize).is_some_and(|t| t.keyed)
    }

    /// How many ducks and snapshots there are.
    pub(crate) fn counts(&self) -> (usize, usize) {
        (self.ducks.len(), self.snapshots.len())
    }

    /// The mix names [`MAX_MIX_ITEMS`] tracks already.
    pub(crate) fn tracks_full(&self) -> bool {
        self.tracks.len() >= MAX_MIX_ITEMS
    }

    /// The track named `name`.
    pub(crate) fn track(&self, name: &str) -> Result<TrackId, MixError> {
        self.tracks
            .iter()
            .position(|t| t.name == name)
            .map(|index| TrackId {
                index: index as u32,
                owner: self.owner,
            })
            .ok_or_else(|| MixError::UnknownTrack(name.to_string()))
    }

    /// `target` as this mix names it; `group` tells whether a group id is one
    /// of the manager's.
    pub(crate) fn resolve(
        &self,
        target: &MixTarget,
        group: impl Fn(crate::GroupId) -> bool,
    ) -> Result<Target, MixError> {
        match *target {
            MixTarget::Group(id) if group(id) => Ok(Target::Entry(id.index as u16)),
            MixTarget::Group(_) => Err(MixError::UnknownGroup),
            MixTarget::SoundEffects => Ok(Target::Entry(ALL)),
            MixTarget::Track(id)
                if id.owner == self.owner && (id.index as usize) < self.tracks.len() =>
            {
                Ok(Target::Track(id.index as u16))
            }
            MixTarget::Track(id) => Err(MixError::ForeignTrack(id)),
            // Resolved with the bus's out by the caller (`SoundEffects::target`).
            MixTarget::Sends(id) => Err(MixError::NotBus(id)),
        }
    }

    /// Gives `target` a value slot (once).
    fn value_of(&mut self, target: Target) {
        if !self.values.iter().any(|v| v.target == target) {
            self.values.push(Value {
                target,
                duck: 0.0,
                snapshot: self.start(target),
                duck_pending: None,
                snapshot_pending: None,
            });
        }
    }

    pub(crate) fn add_duck(
        &mut self,
        source: u32,
        target: Target,
        settings: DuckSettings,
    ) -> Result<super::DuckId, MixError> {
        if self.ducks.len() >= MAX_MIX_ITEMS {
            return Err(MixError::TooMany);
        }
        self.value_of(target);
        self.ducks.push(Duck {
            source,
            target,
            settings,
            state: DuckState::Off,
            changed: false,
            delay: 0.0,
        });
        Ok(super::DuckId {
            index: self.ducks.len() as u32 - 1,
            owner: self.owner,
        })
    }

    /// Adds an effect parameter, named among the parameters.
    pub(crate) fn add_param(&mut self, param: Param) -> Result<ParamId, MixError> {
        if self.params.iter().any(|p| p.name == param.name) {
            return Err(MixError::DuplicateParam(param.name));
        }
        if self.params.len() >= MAX_MIX_ITEMS {
            return Err(MixError::TooMany);
        }
        self.params.push(param);
        Ok(ParamId {
            index: self.params.len() as u32 - 1,
            owner: self.owner,
        })
    }

    /// `id`'s target and its value clamped to its range, if it is this
    /// manager's; `value` must be in its range.
    pub(crate) fn resolve_param(&self, id: ParamId, value: f64) -> Result<(Target, f64), MixError> {
        let param = self
            .params
            .get(id.index as usize)
            .filter(|_| id.owner == self.owner)
            .ok_or(MixError::Unknown)?;
        if param.range.contains(&value) {
            Ok((Target::Param(id.index as u16), value))
        } else {
            Err(MixError::ParamValue(value))
        }
    }

    /// The default and range of the parameter named `name`.
    pub(crate) fn param_shape(&self, name: &str) -> Option<(f64, std::ops::RangeInclusive<f64>)> {
        let param = self.params.iter().find(|p| p.name == name)?;
        Some((param.default, param.range.clone()))
    }

    /// The parameter named `name`.
    pub(crate) fn param_named(&self, name: &str) -> Option<ParamId> {
        let index = self.params.iter().position(|p| p.name == name)?;
        Some(ParamId {
            index: index as u32,
            owner: self.owner,
        })
    }

    /// What a target's snapshot value is with no snapshot: 0 dB, or a
    /// parameter's default.
    fn start(&self, target: Target) -> f64 {
        start_of(&self.params, target)
    }

    /// The ducking and snapshot value decided for `target`, in dB.
    pub(crate) fn value_db(&self, target: Target) -> f64 {
        self.values
            .iter()
            .find(|v| v.target == target)
            .map_or(0.0, |v| v.duck + v.snapshot)
    }

    pub(crate) fn has_ducks(&self) -> bool {
        !self.ducks.is_empty()
    }

    pub(crate) fn set_rule(&mut self, rule: DuckRule) {
        self.rule = rule;
        self.decide_ducks();
    }

    pub(crate) fn add_snapshot(
        &mut self,
        snapshot: Snapshot,
        volumes: Vec<(Target, f64)>,
    ) -> Result<super::SnapshotId, MixError> {
        if self
            .snapshots
            .iter()
            .any(|s| s.snapshot.name == snapshot.name)
        {
            return Err(MixError::DuplicateSnapshot(snapshot.name));
        }
        if self.snapshots.len() >= MAX_MIX_ITEMS {
            return Err(MixError::TooMany);
        }
        for &(target, _) in &volumes {
            self.value_of(target);
        }
        self.snapshots.push(Applied {
            snapshot,
            volumes,
            intensity: None,
        });
        Ok(super::SnapshotId {
            index: self.snapshots.len() as u32 - 1,
            owner: self.owner,
        })
    }

    pub(crate) fn snapshot_named(&self, name: &str) -> Option<super::SnapshotId> {
        let index = self
            .snapshots
            .iter()
            .position(|s| s.snapshot.name == name)?;
        Some(super::SnapshotId {
            index: index as u32,
            owner: self.owner,
        })
    }

    fn own_snapshot(&self, id: super::SnapshotId) -> Result<usize, MixError> {
        let index = id.index as usize;
        if id.owner == self.owner && index < self.snapshots.len() {
            Ok(index)
        } else {
            Err(MixError::Unknown)
        }
    }

    /// Applies snapshot `id` at `intensity` (checked), or releases it
    /// (`None`), every changed target moving with `tween`.
    pub(crate) fn set_snapshot(
        &mut self,
        id: super::SnapshotId,
        intensity: Option<f64>,
        tween: Tween,
    ) -> Result<(), MixError> {
        let index = self.own_snapshot(id)?;
        self.snapshots[index].intensity = intensity;
        self.order.retain(|&i| i != index);
        if intensity.is_some() {
            let key = |i: usize| (self.snapshots[i].snapshot.priority, i);
            let at = self.order.partition_point(|&i| key(i) < key(index));
            self.order.insert(at, index);
        }
        for v in 0..self.values.len() {
            let db = self.stacked(self.values[v].target);
            let value = &mut self.values[v];
            if db != value.snapshot || value.snapshot_pending.is_some() {
                value.snapshot = db;
                value.snapshot_pending = Some(tween);
            }
        }
        Ok(())
    }

    /// `target`'s value with the applied snapshots, in priority order, from
    /// its value with none.
    fn stacked(&self, target: Target) -> f64 {
        let mut db = start_of(&self.params, target);
        for &i in &self.order {
            let applied = &self.snapshots[i];
            let Some(&(_, own)) = applied.volumes.iter().find(|(t, _)| *t == target) else {
                continue;
            };
            let intensity = applied.intensity.unwrap_or(0.0);
            db = match applied.snapshot.mode {
                SnapshotMode::Override => db + (own - db) * intensity,
                SnapshotMode::Blend => db + own * intensity,
            };
        }
        // Blends add up: the sum stays in the range a snapshot may set.
        match target {
            Target::Param(i) => self.params.get(usize::from(i)).map_or(db, |p| p.clamp(db)),
            _ => db.clamp(f64::from(MIN_MIX.0), f64::from(MAX_MIX.0)),
        }
    }

    /// Parameter `id` follows `curve` (a game parameter's, its outputs in
    /// the parameter's range), from the game's values now.
    pub(crate) fn set_param_curve(
        &mut self,
        id: ParamId,
        curve: crate::game::Curve,
        game: &crate::game::GameParams,
    ) -> Result<(), MixError> {
        let param = self
            .params
            .get_mut(id.index as usize)
            .filter(|_| id.owner == self.owner)
            .ok_or(MixError::Unknown)?;
        if let Some(&(_, y)) = curve
            .points()
            .iter()
            .find(|(_, y)| !param.range.contains(y))
        {
            return Err(MixError::ParamValue(y));
        }
        param.curve = Some(curve);
        let now = kira::Tween {
            duration: std::time::Duration::ZERO,
            ..Default::default()
        };
        self.follow_params(game, now);
        Ok(())
    }

    /// Each parameter with a curve follows the game's values: a moved value
    /// reaches its effect over `glide`, through the snapshots applied.
    pub(crate) fn follow_params(&mut self, game: &crate::game::GameParams, glide: Tween) {
        for i in 0..self.params.len() {
            let param = &mut self.params[i];
            let Some(curve) = param.curve else {
                continue;
            };
            let base = param.clamp(curve.at(game.global(curve.param)));
            if base == param.base {
                continue;
            }
            param.base = base;
            let target = Target::Param(i as u16);
            let value = self.stacked(target);
            match self.values.iter_mut().find(|v| v.target == target) {
                Some(entry) => {
                    entry.snapshot = value;
                    entry.snapshot_pending = Some(glide);
                }
                None => self.params[i].set(value, glide),
            }
        }
    }

    /// Moves the ducks on by `dt` seconds given which groups sound now
    /// (`sounding`) and which voices played to their end (`ended`), both
    /// filled by the caller, and decides their targets' values.
    ///
    /// A duck whose source went quiet holds, and still counts, until its hold
    /// is over. The hold starts when the source went quiet in the audio: the
    /// end of its last voice, if every voice that left it since the last
    /// update played to its end (else now). Its hold ends before the next
    /// update (taken as `dt` away) when it has less than `dt` left: it goes
    /// off then, and its release is sent delayed by what is left, so the
    /// mixer starts it on time.
    pub(crate) fn update_ducks(&mut self, dt: f64) {
        for duck in &mut self.ducks {
            let source = duck.source as usize;
            let sounding = self.sounding.get(source).is_some_and(|&n| n > 0);
            // How long ago the source went quiet in the audio.
            let quiet_for = match (self.ended.get(source), self.was_sounding.get(source)) {
                (Some(&(ended, ago)), Some(&was)) if ended > 0 && ended >= was => ago,
                _ => 0.0,
            };
            let left = match (duck.state, sounding) {
                (_, true) => None,
                (DuckState::On, false) => Some(duck.settings.hold.as_secs_f64() - quiet_for),
                (DuckState::Holding(left), false) => Some(left - dt),
                (DuckState::Off, false) => Some(0.0),
            };
            let next = match left {
                None => DuckState::On,
                Some(left) if left > dt => DuckState::Holding(left),
                Some(left) => {
                    duck.delay = left.max(0.0);
                    DuckState::Off
                }
            };
            duck.changed = (duck.state == DuckState::Off) != (next == DuckState::Off);
            duck.state = next;
        }
        self.was_sounding.clone_from(&self.sounding);
        self.decide_ducks();
    }

    /// Each ducked target's value by the rule (a holding duck still counts).
    /// A value going down moves with the attack of a duck that came on; going
    /// up, with the release of a duck that went off, delayed by the rest of
    /// its hold.
    fn decide_ducks(&mut self) {
        for value in &mut self.values {
            let mut deepest = 0.0f64;
            let mut sum = 0.0f64;
            let (mut down, mut up) = (None, None);
            for duck in self.ducks.iter().filter(|d| d.target == value.target) {
                let on = duck.state != DuckState::Off;
                if on {
                    let amount = f64::from(duck.settings.amount.0);
                    deepest = deepest.min(amount);
                    sum += amount;
                }
                match (duck.changed, on) {
                    (true, true) => {
                        down.get_or_insert(duck.settings.attack);
                    }
                    (true, false) => {
                        up.get_or_insert(Tween {
                            start_time: StartTime::Delayed(Duration::from_secs_f64(duck.delay)),
                            ..duck.settings.release
                        });
                    }
                    _ => {}
                }
            }
            let db = match self.rule {
                DuckRule::Deepest => deepest,
                DuckRule::Sum { max } => sum.max(f64::from(max.0)),
            };
            if db != value.duck {
                let tween = if db < value.duck {
                    down.or(up)
                } else {
                    up.or(down)
                };
                value.duck = db;
                value.duck_pending = Some(tween.unwrap_or_default());
            }
        }
        for duck in &mut self.ducks {
            duck.changed = false;
        }
    }

    /// Sends every value not sent yet: a group's to the bank through `send`
    /// (`false` when its queue is full: sent again at the next call), a track's
    /// to its volume-control effect (its ducking and snapshot summed, with the
    /// tween of the later change).
    pub(crate) fn flush(&mut self, mut send: impl FnMut(Command) -> bool) {
        if let Some(window) = &mut self.window {
            window.flush(&mut send);
        }
        for value in &mut self.values {
            match value.target {
                Target::Entry(entry) => {
                    for (part, db, pending) in [
                        (MixPart::Duck, value.duck, &mut value.duck_pending),
                        (
                            MixPart::Snapshot,
                            value.snapshot,
                            &mut value.snapshot_pending,
                        ),
                    ] {
                        if let Some(tween) = *pending {
                            let sent = send(Command::SetMix {
                                entry,
                                part,
                                from: None,
                                db,
                                tween,
                            });
                            if sent {
                                *pending = None;
                            }
                        }
                    }
                }
                Target::Track(track) => {
                    let tween = value.snapshot_pending.take().or(value.duck_pending.take());
                    let control = self
                        .tracks
                        .get_mut(usize::from(track))
                        .and_then(|t| t.control.as_mut());
                    if let (Some(tween), Some(control)) = (tween, control) {
                        let db = (value.duck + value.snapshot) as f32;
                        control.set_volume(Decibels(db), tween);
                    }
                }
                Target::Param(param) => {
                    let tween = value.snapshot_pending.take();
                    if let (Some(tween), Some(param)) =
                        (tween, self.params.get_mut(usize::from(param)))
                    {
                        param.set(value.snapshot, tween);
                    }
                }
            }
        }
    }

    pub(crate) fn stats(&self) -> MixStats {
        MixStats {
            ducks_active: self
                .ducks
                .iter()
                .filter(|d| d.state != DuckState::Off)
                .count(),
            snapshots_active: self.order.len(),
            window_top: self.window.as_ref().map(|w| Decibels(w.now().top as f32)),
            pending: self
                .values
                .iter()
                .filter(|v| v.duck_pending.is_some() || v.snapshot_pending.is_some())
                .count()
                + usize::from(self.window.as_ref().is_some_and(Window::is_pending)),
        }
    }

    pub(crate) fn duck_active(&self, id: super::DuckId) -> Result<bool, MixError> {
        match self.ducks.get(id.index as usize) {
            Some(duck) if id.owner == self.owner => Ok(duck.state != DuckState::Off),
            _ => Err(MixError::Unknown),
        }
    }
}

/// What `target`'s snapshot value is with no snapshot applied.
fn start_of(params: &[Param], target: Target) -> f64 {
    match target {
        Target::Param(i) => params.get(usize::from(i)).map_or(0.0, |p| p.base),
        _ => 0.0,
    }
}

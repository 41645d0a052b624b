//! A bank added to a manager through the calls a game makes: buses, music
//! tracks, groups, sounds, ducks, snapshots, in that order, each name
//! resolved as it comes. The same code adds it to the rehearsal's scratch
//! manager and then to the game's (see `SoundEffects::add_bank`).

use std::time::Duration;

use kira::Decibels;

use super::effects::{Exposed, add_effect};
use super::schema::{CurveFile, CurveTargetFile, SendCurveFile, SoundFile, TargetFile};
use super::{BankError, BankProblem, SoundBank, ValuePath};
use crate::error::{AddGroupError, AddSoundError};
use crate::game::{Curve, CurveTarget, GameParamError, GameParamSettings};
use crate::mix::{
    BusBuilder, DuckSettings, MixError, MixTarget, SendCurve, SendSettings, Snapshot,
};
use crate::music::{Music, MusicError, TrackSettings};
use crate::settings::SettingsError;
use crate::sound::Recordings;
use crate::{GroupId, GroupSettings, SoundEffects, SoundSettings, TrackId, linear_fade};

/// A bank being added to `sfx` (and its music tracks to `music`).
pub(crate) struct Adding<'a> {
    pub(crate) sfx: &'a mut SoundEffects,
    pub(crate) bank: &'a SoundBank,
    pub(crate) music: Option<&'a mut Music>,
    /// On the scratch manager: the zones are added too, to check them (the
    /// game places them itself, with [`SoundBank::zone`]).
    pub(crate) rehearsal: bool,
}

impl Adding<'_> {
    /// Adds everything, stopping at the first error.
    pub(crate) fn all(mut self, recordings: Vec<Recordings>) -> Result<(), BankError> {
        self.game_params()?;
        self.buses()?;
        self.tracks()?;
        self.groups()?;
        self.switches()?;
        self.sounds(recordings)?;
        self.ducks()?;
        self.snapshots()?;
        for (name, _) in self.bank.bank.music.pieces.iter() {
            self.bank.piece(name)?;
        }
        if self.rehearsal {
            for (name, _) in self.bank.bank.zones.iter() {
                let zone = self.bank.zone(name, self.sfx)?;
                let path = ValuePath::default().key("zones").key(name);
                let bank = self.bank;
                self.sfx.mix_mut().add_zone(zone).map_err(|error| {
                    let field = match error {
                        MixError::ZoneShape(_) => "shape",
                        MixError::ZoneFade(_) => "fade",
                        MixError::Volume(_) => "level",
                        _ => "",
                    };
                    bank.error(&sub(&path, field), BankProblem::Mix(error))
                })?;
            }
        }
        Ok(())
    }

    fn error(&self, path: &ValuePath, problem: BankProblem) -> BankError {
        self.bank.error(path, problem)
    }

    fn unknown(&self, path: &ValuePath, what: &'static str, name: &str) -> BankError {
        let name = name.to_string();
        self.error(path, BankProblem::Unknown { what, name })
    }

    fn group(&self, name: &str, path: &ValuePath) -> Result<GroupId, BankError> {
        self.sfx
            .group(name)
            .ok_or_else(|| self.unknown(path, "group", name))
    }

    fn track(&self, name: &str, path: &ValuePath) -> Result<TrackId, BankError> {
        self.sfx
            .mix()
            .track(name)
            .map_err(|_| self.unknown(path, "bus or track", name))
    }

    fn target(&self, target: &TargetFile, path: &ValuePath) -> Result<MixTarget, BankError> {
        Ok(match target {
            TargetFile::Group(name) => MixTarget::Group(self.group(name, path)?),
            TargetFile::Track(name) => MixTarget::Track(self.track(name, path)?),
            TargetFile::SoundEffects => MixTarget::SoundEffects,
            TargetFile::Sends(name) => MixTarget::Sends(self.track(name, path)?),
        })
    }

    fn buses(&mut self) -> Result<(), BankError> {
        let top = ValuePath::default().key("buses");
        for (i, (name, bus)) in self.bank.bank.buses.iter().enumerate() {
            let path = top.key(name);
            let mut builder = BusBuilder::new().volume(bus.volume);
            if let Some(parent) = &bus.parent {
                let declared = self.bank.bank.buses.0.iter().position(|(n, _)| n == parent);
                if declared.is_some_and(|at| at >= i) {
                    let problem = BankProblem::ParentLater(parent.clone());
                    return Err(self.error(&path.key("parent"), problem));
                }
                builder = builder.parent(self.track(parent, &path.key("parent"))?);
            }
            for (c, curve) in bus.curves.iter().enumerate() {
                let at = path.key("curves").index(c);
                match curve.target {
                    CurveTargetFile::Volume => builder = builder.curve(self.curve(curve, &at)?),
                    CurveTargetFile::Param(_) => {}
                    _ => {
                        let problem = BankProblem::Mix(MixError::Curves);
                        return Err(self.error(&at.key("target"), problem));
                    }
                }
            }
            let mut exposed = Vec::new();
            for (e, effect) in bus.effects.iter().enumerate() {
                let at = path.key("effects").index(e);
                let named = add_effect(&mut builder, effect).map_err(|(field, message)| {
                    self.error(&at.key(field), BankProblem::Number(message))
                })?;
                exposed.extend(named.map(|named| (at, named)));
            }
            let bank = self.bank;
            self.sfx.mix_mut().add_bus(name, builder).map_err(|error| {
                let field = match error {
                    MixError::Volume(_) => "volume",
                    MixError::NotBus(_) | MixError::ForeignTrack(_) => "parent",
                    _ => "",
                };
                bank.error(&sub(&path, field), BankProblem::Mix(error))
            })?;
            self.params(exposed)?;
            self.param_curves(&bus.curves, &path)?;
        }
        Ok(())
    }

    /// Adds the effect values a bus names as parameters of the mix.
    fn params(&mut self, exposed: Vec<(ValuePath, Exposed)>) -> Result<(), BankError> {
        for (at, named) in exposed {
            let bank = self.bank;
            let Exposed {
                name,
                default,
                range,
                set,
            } = named;
            (self.sfx.mix_mut())
                .add_param(&name, default, range, set)
                .map_err(|error| bank.error(&at.key("param"), BankProblem::Mix(error)))?;
        }
        Ok(())
    }

    /// Gives the parameters a bus's curves name their curves.
    fn param_curves(&mut self, curves: &[CurveFile], path: &ValuePath) -> Result<(), BankError> {
        for (c, curve) in curves.iter().enumerate() {
            if !matches!(curve.target, CurveTargetFile::Param(_)) {
                continue;
            }
            let at = path.key("curves").index(c);
            let made = self.curve(curve, &at)?;
            let bank = self.bank;
            self.sfx.mix_mut().add_param_curve(made).map_err(|error| {
                let field = if matches!(error, MixError::ParamValue(_)) {
                    "points"
                } else {
                    ""
                };
                bank.error(&sub(&at, field), BankProblem::Mix(error))
            })?;
        }
        Ok(())
    }

    fn tracks(&mut self) -> Result<(), BankError> {
        let top = ValuePath::default().key("music").key("tracks");
        if self.bank.bank.music.tracks.0.is_empty() {
            return Ok(());
        }
        if self.music.is_none() {
            return Err(self.error(&top, BankProblem::NoMusic));
        }
        for (name, track) in self.bank.bank.music.tracks.iter() {
            let path = top.key(name);
            let mut settings = TrackSettings::new(name).volume(track.volume);
            settings.pause_with_game = track.pause_with_game;
            if let Some(bus) = &track.bus {
                settings = settings.bus(self.track(bus, &path.key("bus"))?);
            }
            let bank = self.bank;
            let Some(music) = self.music.as_deref_mut() else {
                return Err(bank.error(&top, BankProblem::NoMusic));
            };
            music.add_track(self.sfx, settings).map_err(|error| {
                let field = match error {
                    MusicError::Volume(_) => "volume",
                    MusicError::NotBus(_) => "bus",
                    _ => "",
                };
                bank.error(&sub(&path, field), BankProblem::Music(error))
            })?;
        }
        Ok(())
    }

    fn groups(&mut self) -> Result<(), BankError> {
        let top = ValuePath::default().key("groups");
        for (name, group) in self.bank.bank.groups.iter() {
            let path = top.key(name);
            let mut settings = GroupSettings::default()
                .max_voices(group.max_voices)
                .stealing(group.stealing)
                .protected(group.protected)
                .loudness_window(group.loudness_window);
            if let Some(bus) = &group.bus {
                settings = settings.bus(self.track(bus, &path.key("bus"))?);
            }
            let bank = self.bank;
            self.sfx.add_group(name, settings).map_err(|error| {
                let field = match error {
                    AddGroupError::MaxVoices(_) => "max_voices",
                    AddGroupError::NotBus(_) | AddGroupError::TooManyBuses => "bus",
                    _ => "",
                };
                bank.error(&sub(&path, field), BankProblem::Group(error))
            })?;
        }
        Ok(())
    }

    fn switches(&mut self) -> Result<(), BankError> {
        let top = ValuePath::default().key("switches");
        for (name, states) in self.bank.bank.switches.iter() {
            let states: Vec<&str> = states.iter().map(String::as_str).collect();
            let bank = self.bank;
            self.sfx
                .add_switch(name, &states)
                .map_err(|error| bank.error(&top.key(name), BankProblem::Switch(error)))?;
        }
        Ok(())
    }

    fn game_params(&mut self) -> Result<(), BankError> {
        let top = ValuePath::default().key("game_params");
        for (name, param) in self.bank.bank.game_params.iter() {
            let path = top.key(name);
            let seek = self.seconds(param.seek, &path.key("seek"))?;
            let (low, high) = param.range;
            let settings = GameParamSettings::new(low, high)
                .initial(param.initial.unwrap_or(low))
                .seek(seek);
            let bank = self.bank;
            self.sfx.add_game_param(name, settings).map_err(|error| {
                let field = match error {
                    GameParamError::Range(..) => "range",
                    GameParamError::Value(_) => "initial",
                    GameParamError::Seek(_) => "seek",
                    _ => "",
                };
                bank.error(&sub(&path, field), BankProblem::GameParam(error))
            })?;
        }
        Ok(())
    }

    fn sounds(&mut self, recordings: Vec<Recordings>) -> Result<(), BankError> {
        let top = ValuePath::default().key("sounds");
        let sounds = self.bank.bank.sounds.iter().zip(recordings);
        for ((name, sound), recordings) in sounds {
            let path = top.key(name);
            let settings = self.sound_settings(sound, &path)?;
            let bank = self.bank;
            self.sfx
                .add_sound(name, recordings, settings)
                .map_err(|error| {
                    bank.error(&sound_field(&path, &error), BankProblem::Sound(error))
                })?;
        }
        Ok(())
    }

    /// The settings of `sound`, at `path`, with its names resolved.
    pub(crate) fn sound_settings(
        &self,
        sound: &SoundFile,
        path: &ValuePath,
    ) -> Result<SoundSettings, BankError> {
        let time = |field: &str, seconds: f64| self.seconds(seconds, &path.key(field));
        let mut settings = SoundSettings {
            max_voices: sound.max_voices,
            first_volume: Decibels(sound.first_volume),
            headroom: Decibels(sound.headroom),
            audibility_floor: Decibels(sound.audibility_floor),
            min_retrigger: time("min_retrigger", sound.min_retrigger)?,
            priority: sound.priority,
            when_full: sound.when_full,
            virtualization: sound.virtualization,
            retrigger_radius: sound.retrigger_radius,
            max_voices_per_owner: sound.max_voices_per_owner,
            pick: sound.pick,
            pitch_semitones: sound.pitch_semitones,
            volume_range: (
                Decibels(sound.volume_range.0),
                Decibels(sound.volume_range.1),
            ),
            distance_priority_offset: sound.distance_priority_offset,
            tie: sound.tie,
            loudness: sound.loudness.map(Decibels),
            doppler_scale: sound.doppler_scale,
            obstruction: muffle(sound.obstruction),
            occlusion: muffle(sound.occlusion),
            distances: crate::spatial::Distances {
                min: sound.distances.min,
                max: sound.distances.max,
                curve: sound.distances.curve,
            },
            zones: sound.zones,
            ..SoundSettings::default()
        };
        if let Some(group) = &sound.group {
            settings.group = Some(self.group(group, &path.key("group"))?);
        }
        for (i, curve) in sound.curves.iter().enumerate() {
            settings = settings.curve(self.curve(curve, &path.key("curves").index(i))?);
        }
        if let Some(switch) = &sound.switch {
            let found = self.sfx.switch(switch);
            settings.switch =
                Some(found.ok_or_else(|| self.unknown(&path.key("switch"), "switch", switch))?);
        }
        for (i, send) in sound.sends.iter().enumerate() {
            let at = path.key("sends").index(i);
            let mut settings_send =
                SendSettings::new(self.track(&send.bus, &at.key("bus"))?).level(send.level);
            if let Some(SendCurveFile {
                from,
                to,
                near,
                far,
            }) = send.distance
            {
                settings_send = settings_send.distance(SendCurve::new(from..=to, near, far));
            }
            settings = settings.send(settings_send);
        }
        Ok(settings)
    }

    /// The curve `curve`, at `at`, its names resolved.
    fn curve(&self, curve: &CurveFile, at: &ValuePath) -> Result<Curve, BankError> {
        let param = self.sfx.game_param(&curve.param);
        let param =
            param.ok_or_else(|| self.unknown(&at.key("param"), "game parameter", &curve.param))?;
        let target = match &curve.target {
            CurveTargetFile::Volume => CurveTarget::Volume,
            CurveTargetFile::Pitch => CurveTarget::Pitch,
            CurveTargetFile::LowPass => CurveTarget::LowPass,
            CurveTargetFile::Send(bus) => {
                CurveTarget::Send(self.track(bus, &at.key("target").index(0))?)
            }
            CurveTargetFile::Param(name) => {
                let param = self.sfx.mix().param(name);
                let at = at.key("target").index(0);
                CurveTarget::Param(
                    param.ok_or_else(|| self.unknown(&at, "effect parameter", name))?,
                )
            }
        };
        let made = Curve::new(param, target, &curve.points)
            .map_err(|error| self.error(&at.key("points"), BankProblem::GameParam(error)))?;
        Ok(made.easing(curve.easing))
    }

    fn seconds(&self, seconds: f64, path: &ValuePath) -> Result<Duration, BankError> {
        Duration::try_from_secs_f64(seconds).map_err(|_| {
            let message = format!("{seconds} is not a time in seconds (at least 0, finite)");
            self.error(path, BankProblem::Number(message))
        })
    }

    fn ducks(&mut self) -> Result<(), BankError> {
        let top = ValuePath::default().key("ducks");
        let defaults = DuckSettings::default();
        for (i, duck) in self.bank.bank.ducks.iter().enumerate() {
            let path = top.index(i);
            let source = self.group(&duck.source, &path.key("source"))?;
            let target = self.target(&duck.target, &path.key("target"))?;
            let fade = |field: &str, value: Option<f64>, default: Duration| match value {
                Some(seconds) => self.seconds(seconds, &path.key(field)),
                None => Ok(default),
            };
            let settings = DuckSettings {
                amount: duck.amount.map_or(defaults.amount, Decibels),
                attack: linear_fade(fade("attack", duck.attack, defaults.attack.duration)?),
                hold: fade("hold", duck.hold, defaults.hold)?,
                release: linear_fade(fade("release", duck.release, defaults.release.duration)?),
            };
            let bank = self.bank;
            self.sfx
                .mix_mut()
                .add_duck(source, target, settings)
                .map_err(|error| {
                    let field = match error {
                        MixError::Amount(_) => "amount",
                        MixError::Time(_) => "attack",
                        _ => "",
                    };
                    bank.error(&sub(&path, field), BankProblem::Mix(error))
                })?;
        }
        Ok(())
    }

    fn snapshots(&mut self) -> Result<(), BankError> {
        let top = ValuePath::default().key("snapshots");
        for (name, snapshot) in self.bank.bank.snapshots.iter() {
            let path = top.key(name);
            let mut built = Snapshot::new(name)
                .priority(snapshot.priority)
                .mode(snapshot.mode);
            for (i, (target, volume)) in snapshot.volumes.iter().enumerate() {
                let at = path.key("volumes").index(i);
                built = built.set(self.target(target, &at.index(0))?, *volume);
            }
            for (i, (param, value)) in snapshot.params.iter().enumerate() {
                let at = path.key("params").index(i);
                let id = self
                    .sfx
                    .mix()
                    .param(param)
                    .ok_or_else(|| self.unknown(&at.index(0), "effect parameter", param))?;
                built = built.set_param(id, *value);
            }
            let bank = self.bank;
            self.sfx.mix_mut().add_snapshot(built).map_err(|error| {
                let field = match error {
                    MixError::Volume(_) => "volumes",
                    MixError::ParamValue(_) => "params",
                    _ => "",
                };
                bank.error(&sub(&path, field), BankProblem::Mix(error))
            })?;
        }
        Ok(())
    }
}

/// `path`'s field `field`, or `path` itself for none.
fn sub(path: &ValuePath, field: &str) -> ValuePath {
    if field.is_empty() {
        path.clone()
    } else {
        path.key(field)
    }
}

/// The field of a sound that `error` is about.
fn sound_field(path: &ValuePath, error: &AddSoundError) -> ValuePath {
    let field = match error {
        AddSoundError::Settings(settings) => match settings {
            SettingsError::MaxVoices(_) | SettingsError::InaudibleCopies { .. } => "max_voices",
            SettingsError::FirstVolume(_) | SettingsError::FirstVolumeUnderFloor(_) => {
                "first_volume"
            }
            SettingsError::Headroom(_) | SettingsError::HeadroomUnderFloor { .. } => "headroom",
            SettingsError::AudibilityFloor(_) => "audibility_floor",
            SettingsError::MinRetrigger(_) => "min_retrigger",
            SettingsError::RetriggerRadius(_) => "retrigger_radius",
            SettingsError::MaxVoicesPerOwner(_) => "max_voices_per_owner",
            SettingsError::PitchSemitones(..) => "pitch_semitones",
            SettingsError::VolumeRange(..) => "volume_range",
            SettingsError::SendLevel(_)
            | SettingsError::SendCurve(_)
            | SettingsError::TooManySends => "sends",
            _ => "",
        },
        AddSoundError::Recording { recording, .. } | AddSoundError::Weight { recording, .. } => {
            return path.key("recordings").index(*recording);
        }
        AddSoundError::Sound(_) | AddSoundError::NoRecordings | AddSoundError::NoWeight => {
            "recordings"
        }
        AddSoundError::TooManyRecordings(_) => "recordings",
        AddSoundError::UnknownGroup => "group",
        AddSoundError::NotBus(_) | AddSoundError::TooManyBuses => "sends",
        AddSoundError::Switch(crate::sound::SwitchError::NoState { recording }) => {
            return path.key("recordings").index(*recording);
        }
        AddSoundError::Switch(crate::sound::SwitchError::EmptyState(_)) => "recordings",
        AddSoundError::Switch(_) => "switch",
        AddSoundError::Curves | AddSoundError::CurveSend(_) => "curves",
        _ => "",
    };
    sub(path, field)
}

/// kira's obstruction or occlusion curve from the file's.
fn muffle(m: super::schema::MuffleFile) -> crate::Muffle {
    crate::Muffle {
        volume: Decibels(m.volume),
        cutoff_hz: m.cutoff_hz,
        easing: m.easing,
    }
}

//! Adding a sound bank (see `data.rs`): its recordings loaded, the names it
//! declares checked free, the whole bank rehearsed on a scratch manager, the
//! room it takes checked, then the bank added. Nothing changes before the
//! last step, and the last step makes only calls the rehearsal made.

use kira::{AudioManager, AudioManagerSettings};

use super::SoundEffects;
use crate::data::adding::Adding;
use crate::data::schema::{BankFile, TargetFile};
use crate::data::{BankError, BankProblem, SoundBank, ValuePath};
use crate::loader::SoundLoader;
use crate::mix::{BusBuilder, MAX_MIX_ITEMS, MAX_VOICE_BUSES};
use crate::music::{Music, MusicSettings, TrackSettings};
use crate::sound::Recordings;
use crate::{GroupSettings, MAX_GROUPS, OfflineBackend};

impl SoundEffects {
    /// Adds everything `bank` declares (see [`data`](crate::data)): its
    /// buses, groups and sounds (their recordings loaded by `loader`), ducks
    /// and snapshots, and its music tracks to `music`. The bank may name
    /// groups, buses, tracks and effect parameters this manager has already.
    ///
    /// # Errors
    /// A [`BankError`] placed in the bank's text, for the first thing that
    /// is wrong: a recording that does not load, a name it uses that is
    /// nowhere or one it declares that is taken, a setting any of the calls
    /// it makes would refuse, a bank with more than a manager holds, or
    /// music tracks with no `music`. Nothing changes.
    pub fn add_bank(
        &mut self,
        bank: &SoundBank,
        loader: &mut impl SoundLoader,
        music: Option<&mut Music>,
    ) -> Result<(), BankError> {
        let mut recordings = load(bank, loader)?;
        self.check_names(bank)?;
        // The rehearsal measured every recording's peak: not again.
        let peaks = self.rehearse(bank, &recordings, music.is_some())?;
        for (recordings, peaks) in recordings.iter_mut().zip(peaks) {
            recordings.peaks = Some(peaks);
        }
        self.check_room(bank)?;
        let adding = Adding {
            sfx: self,
            bank,
            music,
            rehearsal: false,
        };
        adding.all(recordings)?;
        let mut kept = bank.clone();
        kept.changed_files.clear();
        self.banks.push(kept);
        Ok(())
    }

    /// Refuses a name the bank declares that this manager has.
    pub(super) fn check_names(&self, bank: &SoundBank) -> Result<(), BankError> {
        let file = &bank.bank;
        let top = ValuePath::default();
        let taken = |path: ValuePath, what, name: &str| {
            let name = name.to_string();
            Err(bank.error(&path, BankProblem::Taken { what, name }))
        };
        for (name, _) in file.sounds.iter() {
            if self.sound(name).is_some() {
                return taken(top.key("sounds").key(name), "sound", name);
            }
        }
        for (name, _) in file.groups.iter() {
            if self.group(name).is_some() {
                return taken(top.key("groups").key(name), "group", name);
            }
        }
        let tracks = (file.buses.iter().map(|(n, _)| ("buses", n)))
            .chain(file.music.tracks.iter().map(|(n, _)| ("tracks", n)));
        for (kind, name) in tracks {
            if self.mix.track(name).is_ok() {
                let path = match kind {
                    "buses" => top.key("buses").key(name),
                    _ => top.key("music").key("tracks").key(name),
                };
                return taken(path, "bus or track", name);
            }
        }
        for (name, _) in file.game_params.iter() {
            if self.game_param(name).is_some() {
                return taken(top.key("game_params").key(name), "game parameter", name);
            }
        }
        for (name, _) in file.switches.iter() {
            if self.switch(name).is_some() {
                return taken(top.key("switches").key(name), "switch", name);
            }
        }
        for (name, _) in file.snapshots.iter() {
            if self.mix.snapshot_named(name).is_some() {
                return taken(top.key("snapshots").key(name), "snapshot", name);
            }
        }
        for (bus, b) in file.buses.iter() {
            for (e, effect) in b.effects.iter().enumerate() {
                if let Some(name) = effect.param().filter(|n| self.mix.param_named(n).is_some()) {
                    let path = top
                        .key("buses")
                        .key(bus)
                        .key("effects")
                        .index(e)
                        .key("param");
                    return taken(path, "effect parameter", name);
                }
            }
        }
        Ok(())
    }

    /// Adds the whole bank to a scratch manager with this one's settings and
    /// stand-ins for what the bank names from this one; returns the peaks it
    /// measured, by sound and recording.
    pub(super) fn rehearse(
        &self,
        bank: &SoundBank,
        recordings: &[Recordings],
        with_music: bool,
    ) -> Result<Vec<Vec<crate::SoundPeak>>, BankError> {
        let scratch_error =
            |error: String| bank.error(&ValuePath::default(), BankProblem::Scratch(error));
        let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())
            .map_err(|e| scratch_error(e.to_string()))?;
        let mut scratch = SoundEffects::new(&mut manager, self.rules.settings)
            .map_err(|e| scratch_error(e.to_string()))?;
        let settings = MusicSettings {
            tracks: Vec::new(),
            ..MusicSettings::default()
        };
        let mut music =
            Music::new(&mut scratch, settings).map_err(|e| scratch_error(e.to_string()))?;
        self.stand_ins(&bank.bank, &mut scratch, &mut music)
            .map_err(scratch_error)?;
        let adding = Adding {
            sfx: &mut scratch,
            bank,
            music: with_music.then_some(&mut music),
            rehearsal: true,
        };
        adding.all(recordings.to_vec())?;
        let peaks = bank.bank.sounds.iter().map(|(name, _)| {
            let id = scratch.sounds.find(name);
            id.map(|id| scratch.sounds.peaks(id)).unwrap_or_default()
        });
        Ok(peaks.collect())
    }

    /// Adds to `scratch` the groups, buses, tracks and parameters of this
    /// manager the bank names and does not declare.
    fn stand_ins(
        &self,
        file: &BankFile,
        scratch: &mut SoundEffects,
        music: &mut Music,
    ) -> Result<(), String> {
        let names = Undeclared::of(file);
        for name in names.groups {
            if let Some(id) = self.group(name) {
                let settings = GroupSettings {
                    bus: None,
                    ..self.groups.settings(id.index)
                };
                scratch
                    .add_group(name, settings)
                    .map_err(|e| e.to_string())?;
            }
        }
        for name in names.tracks {
            let Ok(id) = self.mix.track(name) else {
                continue;
            };
            if self.buses.contains(id) {
                scratch
                    .mix_mut()
                    .add_bus(name, BusBuilder::new())
                    .map_err(|e| e.to_string())?;
            } else {
                music
                    .add_track(scratch, TrackSettings::new(name))
                    .map_err(|e| e.to_string())?;
            }
        }
        for name in names.game_params {
            if let Some(settings) = self
                .game_param(name)
                .and_then(|id| self.game.settings(id).ok())
            {
                let param = scratch.add_game_param(name, *settings);
                param.map_err(|e| e.to_string())?;
            }
        }
        for name in names.switches {
            if let Some(id) = self.switch(name) {
                let states = self.switches.states(id);
                let states: Vec<&str> = states.iter().map(String::as_str).collect();
                scratch
                    .add_switch(name, &states)
                    .map_err(|e| e.to_string())?;
            }
        }
        for name in names.params {
            if let Some((default, range)) = self.mix.param_shape(name) {
                let param = scratch.mix_mut().add_param(name, default, range, |_, _| {});
                param.map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }

    /// Refuses a bank that would take more groups, tracks, ducks,
    /// snapshots or voice buses than this manager has room for.
    pub(super) fn check_room(&self, bank: &SoundBank) -> Result<(), BankError> {
        let file = &bank.bank;
        let top = ValuePath::default();
        let too_many = |path: ValuePath| {
            Err(bank.error(&path, BankProblem::Mix(crate::mix::MixError::TooMany)))
        };
        if self.groups.len() + file.groups.0.len() > MAX_GROUPS {
            return too_many(top.key("groups"));
        }
        if self.mix.track_count() + file.buses.0.len() + file.music.tracks.0.len() > MAX_MIX_ITEMS {
            return too_many(top.key("buses"));
        }
        let (ducks, snapshots) = self.mix.counts();
        if ducks + file.ducks.len() > MAX_MIX_ITEMS {
            return too_many(top.key("ducks"));
        }
        if snapshots + file.snapshots.0.len() > MAX_MIX_ITEMS {
            return too_many(top.key("snapshots"));
        }
        // Each bus a group or send of the bank reaches may take a ring.
        let reached = voice_buses(file);
        if reached > self.buses.free().min(MAX_VOICE_BUSES) {
            let problem = BankProblem::Mix(crate::mix::MixError::TooManyVoiceBuses);
            return Err(bank.error(&top.key("groups"), problem));
        }
        Ok(())
    }
}

/// Every recording of the bank, loaded, by sound.
pub(super) fn load(
    bank: &SoundBank,
    loader: &mut impl SoundLoader,
) -> Result<Vec<Recordings>, BankError> {
    let top = ValuePath::default().key("sounds");
    let mut all = Vec::with_capacity(bank.bank.sounds.0.len());
    for (name, sound) in bank.bank.sounds.iter() {
        let mut recordings = Recordings::new();
        for (i, recording) in sound.recordings.iter().enumerate() {
            let data = loader.load(&recording.file).map_err(|error| {
                let path = top.key(name).key("recordings").index(i);
                bank.error(&path, BankProblem::Load(error))
            })?;
            let data = if sound.looping {
                data.loop_region(..)
            } else {
                data
            };
            recordings = match &recording.state {
                Some(state) => recordings.for_state(state, data, recording.weight),
                None => recordings.with(data, recording.weight),
            };
        }
        all.push(recordings);
    }
    Ok(all)
}

/// The names a bank uses without declaring them.
struct Undeclared<'f> {
    groups: Vec<&'f str>,
    game_params: Vec<&'f str>,
    switches: Vec<&'f str>,
    tracks: Vec<&'f str>,
    params: Vec<&'f str>,
}

impl<'f> Undeclared<'f> {
    fn of(file: &'f BankFile) -> Self {
        let mut named = Self {
            groups: Vec::new(),
            game_params: Vec::new(),
            switches: Vec::new(),
            tracks: Vec::new(),
            params: Vec::new(),
        };
        let targets = (file.ducks.iter().map(|d| &d.target)).chain(
            file.snapshots
                .iter()
                .flat_map(|(_, s)| s.volumes.iter().map(|(t, _)| t)),
        );
        for target in targets {
            match target {
                TargetFile::Group(name) => named.groups.push(name),
                TargetFile::Track(name) | TargetFile::Sends(name) => named.tracks.push(name),
                TargetFile::SoundEffects => {}
            }
        }
        named
            .groups
            .extend(file.ducks.iter().map(|d| d.source.as_str()));
        named
            .groups
            .extend(file.sounds.iter().filter_map(|(_, s)| s.group.as_deref()));
        named
            .tracks
            .extend(file.buses.iter().filter_map(|(_, b)| b.parent.as_deref()));
        named
            .tracks
            .extend(file.groups.iter().filter_map(|(_, g)| g.bus.as_deref()));
        named.tracks.extend(
            file.music
                .tracks
                .iter()
                .filter_map(|(_, t)| t.bus.as_deref()),
        );
        named
            .tracks
            .extend(file.zones.iter().map(|(_, z)| z.bus.as_str()));
        named.tracks.extend(
            file.sounds
                .iter()
                .flat_map(|(_, s)| s.sends.iter().map(|x| x.bus.as_str())),
        );
        named.params.extend(
            file.snapshots
                .iter()
                .flat_map(|(_, s)| s.params.iter().map(|(p, _)| p.as_str())),
        );
        named
            .switches
            .extend(file.sounds.iter().filter_map(|(_, s)| s.switch.as_deref()));
        named.switches.retain(|n| file.switches.get(n).is_none());
        named.curves(file);
        named
            .game_params
            .retain(|n| file.game_params.get(n).is_none());
        named.groups.retain(|n| file.groups.get(n).is_none());
        named
            .tracks
            .retain(|n| file.buses.get(n).is_none() && file.music.tracks.get(n).is_none());
        for list in [
            &mut named.groups,
            &mut named.game_params,
            &mut named.switches,
            &mut named.tracks,
            &mut named.params,
        ] {
            list.sort_unstable();
            list.dedup();
        }
        named
    }
}

impl<'f> Undeclared<'f> {
    /// Adds the game parameters the bank's curves follow and the buses its
    /// send curves name.
    fn curves(&mut self, file: &'f BankFile) {
        let curves = || file.sounds.iter().flat_map(|(_, s)| s.curves.iter());
        let bus_curves = file.buses.iter().flat_map(|(_, b)| b.curves.iter());
        (self.game_params).extend(curves().chain(bus_curves).map(|c| c.param.as_str()));
        self.tracks.extend(curves().filter_map(|c| match &c.target {
            crate::data::schema::CurveTargetFile::Send(bus) => Some(bus.as_str()),
            _ => None,
        }));
        let bus_curves = file.buses.iter().flat_map(|(_, b)| b.curves.iter());
        self.params
            .extend(curves().chain(bus_curves).filter_map(|c| match &c.target {
                crate::data::schema::CurveTargetFile::Param(name) => Some(name.as_str()),
                _ => None,
            }));
    }
}

/// How many different buses the bank's groups and sends reach.
fn voice_buses(file: &BankFile) -> usize {
    let mut buses: Vec<&str> = (file.groups.iter().filter_map(|(_, g)| g.bus.as_deref()))
        .chain(
            file.sounds
                .iter()
                .flat_map(|(_, s)| s.sends.iter().map(|x| x.bus.as_str())),
        )
        .collect();
    buses.sort_unstable();
    buses.dedup();
    buses.len()
}

//! A bank reloaded while the game runs (see `data.rs`): what the new text
//! changes is found against the bank as it was added, checked as a bank is
//! (its new and changed sounds rehearsed on a scratch manager), then applied
//! to the voices already playing.

use kira::Tween;

use super::SoundEffects;
use crate::data::adding::Adding;
use crate::data::schema::{BankFile, SoundFile};
use crate::data::{BankError, BankProblem, Reloaded, SoundBank, ValuePath};
use crate::error::AddSoundError;
use crate::handles::SoundId;
use crate::loader::SoundLoader;
use crate::music::Music;
use crate::settings::SoundSettings;
use crate::sound::Recordings;

impl SoundEffects {
    /// Applies `bank`, a new text of a bank added before under the same
    /// [`file`](SoundBank::file) name, to the running game:
    ///
    /// - a sound whose settings changed keeps its id and its voices: each
    ///   glides over `fade` to its new level (first volume, headroom,
    ///   copies, volume range), pitch range and curves, keeping its place
    ///   in its ranges; the other settings apply from its next play, and
    ///   new recordings from its next play (a voice playing one keeps it);
    /// - a sound the new text leaves out is removed: its voices fade out
    ///   over `fade` and its handles go stale, as
    ///   [`remove_sound`](Self::remove_sound);
    /// - what the new text adds (sounds, buses, groups, switches, game
    ///   parameters, snapshots, music tracks) is added;
    /// - a bus's changed volume moves over `fade`.
    ///
    /// Zones and music pieces are read from the bank when the game places
    /// them ([`SoundBank::zone`], [`SoundBank::piece`]): the new text's from
    /// then on. Only the sounds whose text changed, or that play a file
    /// marked with [`SoundBank::file_changed`], load their recordings again.
    ///
    /// # Errors
    /// [`BankProblem::NotAdded`] for a bank of a file never added;
    /// [`BankProblem::Fixed`] for a change a running game cannot take (a
    /// group, switch, game parameter, duck, snapshot or music track changed
    /// or left out, a bus's parent, effects or curves, a sound's group, switch or
    /// sends); [`BankProblem::Busy`] when the voice bank's queue has no room
    /// for the changes this frame; and every error
    /// [`add_bank`](Self::add_bank) gives. Nothing changes then: the game
    /// plays on with the bank it had.
    pub fn reload_bank(
        &mut self,
        bank: &SoundBank,
        loader: &mut impl SoundLoader,
        music: Option<&mut Music>,
        fade: Tween,
    ) -> Result<Reloaded, BankError> {
        let top = ValuePath::default();
        let fade = crate::params::check_fade(fade)
            .map_err(|e| bank.error(&top, BankProblem::Number(e.to_string())))?;
        let Some(at) = self.banks.iter().position(|b| b.file() == bank.file()) else {
            return Err(bank.error(&top, BankProblem::NotAdded));
        };
        let old = self.banks[at].bank.clone();
        fixed(&old, bank)?;
        let (rehearsed, added) = deltas(&old, bank);
        let mut recordings = super::banks::load(&rehearsed, loader)?;
        self.check_names(&added)?;
        let peaks = self.rehearse(&rehearsed, &recordings, music.is_some())?;
        for (recordings, peaks) in recordings.iter_mut().zip(peaks) {
            recordings.peaks = Some(peaks);
        }
        self.check_room(&added)?;
        let removed = self.removed(&old, bank);
        self.check_queue(&rehearsed, &removed)
            .map_err(|()| bank.error(&top, BankProblem::Busy))?;
        for &id in &removed {
            // Checked above: the sound is this manager's, the fade safe,
            // the queue has room.
            let _ = self.remove_sound(id, fade);
        }
        let (new, changed): (Vec<_>, Vec<_>) = (rehearsed.bank.sounds.iter())
            .zip(recordings)
            .partition(|((name, _), _)| added.bank.sounds.get(name).is_some());
        let report = Reloaded {
            added: new.len(),
            changed: changed.len(),
            removed: removed.len(),
        };
        let adding = Adding {
            sfx: self,
            bank: &added,
            music,
            rehearsal: false,
        };
        adding.all(new.into_iter().map(|(_, r)| r).collect())?;
        for ((name, sound), recordings) in changed {
            self.change(bank, (name, sound), recordings, fade)?;
        }
        self.bus_volumes(&old, bank, fade);
        let mut kept = bank.clone();
        kept.changed_files.clear();
        self.banks[at] = kept;
        Ok(report)
    }

    /// The sounds of `old` that `bank` leaves out, as this manager has them.
    fn removed(&self, old: &BankFile, bank: &SoundBank) -> Vec<SoundId> {
        (old.sounds.iter())
            .filter(|(name, _)| bank.bank.sounds.get(name).is_none())
            .filter_map(|(name, _)| self.sound(name))
            .collect()
    }

    /// Whether the voice bank's queue has room for removing `removed` and
    /// changing the sounds of `rehearsed` this manager has.
    fn check_queue(&mut self, rehearsed: &SoundBank, removed: &[SoundId]) -> Result<(), ()> {
        let removing: usize = (removed.iter())
            .map(|id| self.voices.count_real(|r| r.sound == id.index))
            .sum();
        let changing: usize = (rehearsed.bank.sounds.iter())
            .filter_map(|(name, _)| self.sound(name))
            .map(|id| self.voices.reshape_commands(id.index))
            .sum();
        self.room_for(removing + changing).map_err(|_| ())
    }

    /// Gives the sound `name` of `bank` its changed settings and recordings.
    fn change(
        &mut self,
        bank: &SoundBank,
        (name, sound): (&str, &SoundFile),
        recordings: Recordings,
        fade: Tween,
    ) -> Result<(), BankError> {
        let path = ValuePath::default().key("sounds").key(name);
        let adding = Adding {
            sfx: self,
            bank,
            music: None,
            rehearsal: false,
        };
        let settings = adding.sound_settings(sound, &path)?;
        let Some(id) = self.sound(name) else {
            return Ok(());
        };
        let was = self.banks.iter().find(|b| b.file() == bank.file());
        let touched = (sound.recordings.iter()).any(|r| bank.changed_files.contains(&r.file));
        let keep_picks = !touched
            && was.and_then(|b| b.bank.sounds.get(name)).is_some_and(|s| {
                s.recordings == sound.recordings
                    && s.pick == sound.pick
                    && s.looping == sound.looping
            });
        self.change_sound(id, recordings, (settings, keep_picks), fade)
            .map_err(|error| bank.error(&path, BankProblem::Sound(error)))
    }

    /// Gives the sound `id` new recordings and settings, its voices
    /// reshaped (see `voice_pool/reshape.rs`) and its old recordings let go
    /// once the mixer holds them no more.
    pub(crate) fn change_sound(
        &mut self,
        id: SoundId,
        recordings: Recordings,
        (settings, keep_picks): (SoundSettings, bool),
        fade: Tween,
    ) -> Result<(), AddSoundError> {
        self.check_sends(&settings)?;
        self.check_curves(&settings)?;
        let switch = self.switch_sets(&recordings, &settings)?;
        let Some(was) = self.sounds.get(id).map(|entry| entry.settings) else {
            return Ok(());
        };
        let groups = &self.groups;
        let replaced = (self.sounds).replace(id, &recordings, (settings, keep_picks), |group| {
            groups.out(group)
        })?;
        let Some(old) = replaced else {
            return Ok(());
        };
        self.fit_entry(id, &settings, switch);
        if let Some(entry) = self.sounds.get(id) {
            self.voices.reshape(entry, &was, &self.game, fade);
        }
        self.voices.retire_sound(id.bank_key(), old.into_sources());
        Ok(())
    }

    /// Moves the volume of each bus of `bank` whose volume changed from `old`.
    fn bus_volumes(&mut self, old: &BankFile, bank: &SoundBank, fade: Tween) {
        for (name, bus) in bank.bank.buses.iter() {
            let moved = old.buses.get(name).is_some_and(|b| b.volume != bus.volume);
            if let (true, Ok(id)) = (moved, self.mix.track(name)) {
                // Checked by the rehearsal of the bank as it was added:
                // the volume is in range, the bus this manager's.
                let _ = self.mix_mut().set_bus_volume(id, bus.volume, fade);
            }
        }
    }
}

/// Refuses a change from `old` to `bank` that a running game cannot take.
fn fixed(old: &BankFile, bank: &SoundBank) -> Result<(), BankError> {
    let new = &bank.bank;
    let top = ValuePath::default();
    let refuse =
        |path: ValuePath, what: &'static str| Err(bank.error(&path, BankProblem::Fixed(what)));
    for (name, bus) in old.buses.iter() {
        match new.buses.get(name) {
            None => return refuse(top.key("buses"), "a bus"),
            Some(now) if now.parent != bus.parent => {
                return refuse(top.key("buses").key(name).key("parent"), "a bus's parent");
            }
            Some(now) if now.effects != bus.effects => {
                return refuse(top.key("buses").key(name).key("effects"), "a bus's effects");
            }
            Some(now) if now.curves != bus.curves => {
                return refuse(top.key("buses").key(name).key("curves"), "a bus's curves");
            }
            Some(_) => {}
        }
    }
    same(
        &old.groups,
        &new.groups,
        &top.key("groups"),
        "a group",
        bank,
    )?;
    same(
        &old.switches,
        &new.switches,
        &top.key("switches"),
        "a switch",
        bank,
    )?;
    let params = &top.key("game_params");
    same(
        &old.game_params,
        &new.game_params,
        params,
        "a game parameter",
        bank,
    )?;
    same(
        &old.snapshots,
        &new.snapshots,
        &top.key("snapshots"),
        "a snapshot",
        bank,
    )?;
    let tracks = &top.key("music").key("tracks");
    same(
        &old.music.tracks,
        &new.music.tracks,
        tracks,
        "a music track",
        bank,
    )?;
    if old.ducks != new.ducks {
        return refuse(top.key("ducks"), "the ducks");
    }
    for (name, sound) in old.sounds.iter() {
        let Some(now) = new.sounds.get(name) else {
            continue;
        };
        let path = top.key("sounds").key(name);
        if now.group != sound.group {
            return refuse(path.key("group"), "a sound's group");
        }
        if now.switch != sound.switch {
            return refuse(path.key("switch"), "a sound's switch");
        }
        if now.sends != sound.sends {
            return refuse(path.key("sends"), "a sound's sends");
        }
    }
    Ok(())
}

/// Refuses an entry of `old` that `new` changes or leaves out.
fn same<T: PartialEq>(
    old: &crate::data::schema::Named<T>,
    new: &crate::data::schema::Named<T>,
    path: &ValuePath,
    what: &'static str,
    bank: &SoundBank,
) -> Result<(), BankError> {
    for (name, value) in old.iter() {
        match new.get(name) {
            Some(now) if now == value => {}
            Some(_) => return Err(bank.error(&path.key(name), BankProblem::Fixed(what))),
            None => return Err(bank.error(path, BankProblem::Fixed(what))),
        }
    }
    Ok(())
}

/// What of `bank` is new or changed against `old`, to rehearse (the new
/// and changed sounds, zones and pieces, and every new declaration), and
/// what of it to add (the same less the changed sounds): banks of the same
/// text, so their errors are placed in it.
fn deltas(old: &BankFile, bank: &SoundBank) -> (SoundBank, SoundBank) {
    let new = &bank.bank;
    fn fresh<T: Clone>(
        old: &crate::data::schema::Named<T>,
        new: &crate::data::schema::Named<T>,
    ) -> crate::data::schema::Named<T> {
        let list = new.0.iter().filter(|(name, _)| old.get(name).is_none());
        crate::data::schema::Named(list.cloned().collect())
    }
    let mut rehearsed = BankFile {
        buses: fresh(&old.buses, &new.buses),
        groups: fresh(&old.groups, &new.groups),
        switches: fresh(&old.switches, &new.switches),
        game_params: fresh(&old.game_params, &new.game_params),
        sounds: fresh(&old.sounds, &new.sounds),
        ducks: Vec::new(),
        snapshots: fresh(&old.snapshots, &new.snapshots),
        zones: new.zones.clone(),
        music: crate::data::schema::MusicFile {
            tracks: fresh(&old.music.tracks, &new.music.tracks),
            pieces: new.music.pieces.clone(),
        },
    };
    let added = bank.with(rehearsed.clone());
    let touched =
        |sound: &SoundFile| (sound.recordings.iter()).any(|r| bank.changed_files.contains(&r.file));
    let changed = (new.sounds.0.iter()).filter(|(name, sound)| {
        old.sounds
            .get(name)
            .is_some_and(|was| was != sound || touched(sound))
    });
    rehearsed.sounds.0.extend(changed.cloned());
    (bank.with(rehearsed), added)
}

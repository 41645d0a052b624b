//! The manager's sounds: each sound's entry (its samples as the voice bank reads
//! them, its settings, copy volumes and real copies, the plays remembered for
//! its retrigger interval), found by id or name, in a table whose places are
//! reused after a sound is removed under a new generation, so an old id stays
//! stale.
//!
//! Copies of a sound are ranked by age, newest first, and copy `r` plays at
//! [`CopyVolumes::volume`]`(r)`: the voice bank applies those levels sample by
//! sample and keeps the copies' sum inside the sound's budget (see
//! `bank/budget.rs`). The table keeps each sound's real copies in start order to
//! know how many there are, which is the oldest, and each one's level.

use std::collections::HashMap;
use std::sync::Arc;

use arrayvec::ArrayVec;
use kira::Decibels;

use crate::AddSoundError;
use crate::MAX_RECORDINGS;
use crate::SoundPeak;
use crate::audibility::{Rank, distance};
use crate::bank::{Budget, Source};
use crate::clock;
use crate::error::PlayError;
use crate::handles::{GroupId, SoundId, VoiceKey};
use crate::level::amplitude;
use crate::params::PlayParams;
use crate::playhead::Timeline;
use crate::settings::{SoundSettings, reaches};
use crate::variations::{Dice, Picker, Recordings, Variation, vary};
use crate::{CopyVolumes, MAX_VOICES_PER_SOUND};

/// One recording of a sound, as the voice bank and the playheads read it.
pub(crate) struct Recording {
    /// Its frames and the sound's budget, as the voice bank reads them.
    pub(crate) source: Arc<Source>,
    /// Where its voices are in time (see `playhead.rs`).
    pub(crate) timeline: Timeline,
    pub(crate) peak: SoundPeak,
}

/// A sound added to the manager.
pub(crate) struct SoundEntry {
    pub(crate) id: SoundId,
    pub(crate) name: String,
    /// Its first recording, kept beside the entry (a sound of one recording
    /// reads no other memory to play), and the others, in the order given.
    first: Recording,
    others: Vec<Recording>,
    /// How the next play picks one.
    pub(crate) picker: Picker,
    /// One recording, no ranges, no switch: nothing to draw.
    plain: bool,
    /// Its switch (by index) and the recordings of each of its states.
    pub(crate) switch: Option<crate::switch::StateSets>,
    /// Its curves' gain and rate factor at the game's values as of the last
    /// update: what a play starts with (see `game.rs`).
    pub(crate) curve_now: crate::game::CurveOutput,
    pub(crate) settings: SoundSettings,
    /// Where the bank mixes its voices: its group's bus's out, 0 for the
    /// sound-effects track.
    pub(crate) out: u8,
    /// Its voices' sends as the mixer gets them.
    pub(crate) sends: crate::send::SendOuts,
    /// Its loudest recording's peak: what the copy volumes are solved against.
    pub(crate) peak: SoundPeak,
    pub(crate) volumes: CopyVolumes,
    min_retrigger: u64,
    /// Its real copies, oldest first.
    pub(crate) copies: ArrayVec<VoiceKey, MAX_VOICES_PER_SOUND>,
    /// How many copies its budget keeps at or above the audibility floor once
    /// they settle (see `Budget::kept`): the older ones leave at the next
    /// update.
    pub(crate) kept: usize,
    /// Game time (microseconds), update count and place of the latest plays,
    /// newest last: one without a retrigger radius, up to [`RECENT_PLAYS`] with
    /// one.
    recent: ArrayVec<RecentPlay, RECENT_PLAYS>,
    /// The audibility floor as an amplitude (0 for a floor of -infinity).
    pub(crate) floor: f32,
    /// The same, in `f64`: what a play's onset is compared with.
    floor_level: f64,
    /// Its loudness, if it plays in the loudness window (the window is on,
    /// its group opts in, and it declares one).
    pub(crate) window_db: Option<f64>,
}

impl SoundEntry {
    /// Checks `recordings`, measures each one's peak, solves the copy volumes
    /// against the loudest and makes the voice bank's view of each.
    fn new(
        id: SoundId,
        name: &str,
        recordings: &Recordings,
        settings: SoundSettings,
    ) -> Result<Self, AddSoundError> {
        let peaks = measure(recordings)?;
        let peak = peaks
            .iter()
            .copied()
            .reduce(|a, b| if b.max() > a.max() { b } else { a })
            .ok_or(AddSoundError::NoRecordings)?;
        let volumes = settings
            .copy_volumes(peak.max())
            .map_err(AddSoundError::Settings)?;
        let budget = Budget::new(volumes, settings.budget(peak.max()));
        let mut settings = settings;
        let looping = recordings
            .list
            .iter()
            .any(|(data, _)| data.settings.loop_region.is_some());
        settings.virtualization = settings.virtualization.resolve(looping);
        let mut recordings_of =
            recordings
                .list
                .iter()
                .zip(peaks)
                .map(|((data, _), peak)| Recording {
                    source: Arc::new(Source::new(data, budget, peak, id.bank_key())),
                    timeline: Timeline::of(data),
                    peak,
                });
        let first = recordings_of.next().ok_or(AddSoundError::NoRecordings)?;
        let floor_level = amplitude(f64::from(settings.audibility_floor.0));
        let kept = budget.kept(floor_level as f32);
        Ok(Self {
            id,
            name: name.to_string(),
            first,
            others: recordings_of.collect(),
            picker: Picker::new(settings.pick, recordings.list.iter().map(|(_, w)| *w)),
            plain: recordings.len() == 1
                && settings.volume_range == (Decibels::IDENTITY, Decibels::IDENTITY)
                && settings.pitch_semitones == (0.0, 0.0),
            settings,
            switch: None,
            curve_now: crate::game::CurveOutput::NONE,
            out: 0,
            sends: Default::default(),
            peak,
            volumes,
            min_retrigger: u64::try_from(settings.min_retrigger.as_micros()).unwrap_or(u64::MAX),
            copies: ArrayVec::new(),
            kept,
            recent: ArrayVec::new(),
            floor: floor_level as f32,
            floor_level,
            window_db: None,
        })
    }

    /// Gives it switch `switch` (by index), with the recordings of each of
    /// its states.
    pub(crate) fn set_switch(&mut self, switch: u32, sets: Box<[crate::variations::Set]>) {
        self.switch = Some((switch, sets));
        self.plain = false;
    }

    /// Recording `index` (every voice's index was checked when it was played).
    pub(crate) fn recording(&self, index: u16) -> Option<&Recording> {
        match index {
            0 => Some(&self.first),
            n => self.others.get(usize::from(n) - 1),
        }
    }

    /// Its recordings' samples, as it goes.
    pub(crate) fn into_sources(self) -> impl Iterator<Item = Arc<Source>> {
        std::iter::once(self.first)
            .chain(self.others)
            .map(|r| r.source)
    }

    /// The recording a play with `params` plays, and its variation: drawn
    /// from `dice` for a sound that varies, else none.
    ///
    /// # Errors
    /// [`PlayError::UnknownRecording`] for a recording the sound does not have.
    #[inline]
    pub(crate) fn variation(
        &self,
        params: &PlayParams,
        dice: &mut Dice,
        among: crate::variations::Set,
    ) -> Result<(u16, Variation), PlayError> {
        match params.recording {
            None | Some(0) if self.plain => Ok((0, Variation::NONE)),
            Some(r) if r >= self.recordings() => Err(PlayError::UnknownRecording(r)),
            named => {
                let s = &self.settings;
                let recording = named.map_or_else(|| self.picker.choose(dice, among), |r| r as u16);
                let (low, high) = s.volume_range;
                let volume = (f64::from(low.0), f64::from(high.0));
                Ok((recording, vary(dice, volume, s.pitch_semitones)))
            }
        }
    }

    /// How many recordings it has.
    pub(crate) fn recordings(&self) -> usize {
        1 + self.others.len()
    }

    /// `true` when a new copy needs an older one to give way.
    pub(crate) fn full(&self) -> bool {
        self.copies.len() >= self.settings.max_voices
    }

    /// `true` when its copies are as many as its budget keeps once settled: a
    /// virtual copy becomes real only in the place of one of them.
    pub(crate) fn settled_full(&self) -> bool {
        self.copies.len() >= self.kept
    }

    /// Its oldest copy, if it has more than its budget keeps once settled.
    pub(crate) fn crowded(&self) -> Option<VoiceKey> {
        (self.copies.len() > self.kept)
            .then(|| self.oldest())
            .flatten()
    }

    /// The copy that has played longest, if any plays.
    pub(crate) fn oldest(&self) -> Option<VoiceKey> {
        self.copies.first().copied()
    }

    /// The level of the copy ranked `rank` (0 is the newest) of a play at
    /// `volume`: its copy volume times the play's volume.
    pub(crate) fn copy_level(&self, rank: u32, volume: f64) -> f64 {
        self.volumes.volume(rank) * volume
    }

    /// A play's level before distance: the newest copy's level (see
    /// `audibility.rs`).
    pub(crate) fn reference(&self, volume: f64) -> f32 {
        self.copy_level(0, volume) as f32
    }

    /// The level a play of `recording` at `volume` starts at, as the newest
    /// copy: through its panning (kira's pan law, compensated on the
    /// recording's louder channel) and its distance `gain`.
    pub(crate) fn onset(&self, recording: u16, volume: f64, panning: f32, gain: f32) -> f64 {
        let peak = self.recording(recording).map_or(self.peak, |r| r.peak);
        self.volumes.volume(0) * peak.pan_compensation(panning) * volume * f64::from(gain)
    }

    /// `true` if `level` (an amplitude) reaches the sound's audibility floor.
    pub(crate) fn reaches_floor(&self, level: f64) -> bool {
        reaches(level, self.floor_level)
    }

    /// Where the real copy `key` ranks among the sound's copies, newest first.
    pub(crate) fn copy_rank(&self, key: VoiceKey) -> u32 {
        self.copies
            .iter()
            .rev()
            .position(|k| *k == key)
            .unwrap_or(0) as u32
    }

    /// `key` is a real copy now, the newest.
    pub(crate) fn add_copy(&mut self, key: VoiceKey) {
        // At most `max_voices` (<= MAX_VOICES_PER_SOUND) copies are real: a
        // play or a promotion makes room first.
        let pushed = self.copies.try_push(key);
        debug_assert!(pushed.is_ok(), "more real copies than MAX_VOICES_PER_SOUND");
    }

    /// `key` is no longer a real copy.
    pub(crate) fn forget_copy(&mut self, key: VoiceKey) {
        if let Some(at) = self.copies.iter().position(|k| *k == key) {
            self.copies.remove(at);
        }
    }

    /// `true` if a play at `here` comes sooner than the sound's retrigger
    /// interval after an earlier one (within the retrigger radius, if it has
    /// one), at game time `now` (microseconds) and update `frame`.
    pub(crate) fn held_back(&self, here: [f32; 3], now: u64, frame: u64) -> bool {
        self.min_retrigger > 0
            && self.recent.iter().any(|play| {
                !clock::reached(now - play.micros, frame - play.frame, self.min_retrigger)
                    && self
                        .settings
                        .retrigger_radius
                        .is_none_or(|radius| distance(play.position, here) <= radius)
            })
    }

    /// Remembers a play at `here` for the retrigger interval.
    pub(crate) fn remember(&mut self, here: [f32; 3], now: u64, frame: u64) {
        let play = RecentPlay {
            micros: now,
            frame,
            position: here,
        };
        if self.settings.retrigger_radius.is_none() {
            self.recent.clear();
        } else if self.recent.is_full() {
            self.recent.remove(0);
        }
        self.recent.push(play);
    }
}

/// Each recording's peak, once every recording is checked: weights, count and
/// kira's safety.
fn measure(recordings: &Recordings) -> Result<Vec<SoundPeak>, AddSoundError> {
    let list = &recordings.list;
    if list.is_empty() {
        return Err(AddSoundError::NoRecordings);
    }
    if list.len() > MAX_RECORDINGS {
        return Err(AddSoundError::TooManyRecordings(list.len()));
    }
    if let Some((recording, (_, weight))) = list
        .iter()
        .enumerate()
        .find(|(_, (_, w))| !(w.is_finite() && *w >= 0.0))
    {
        return Err(AddSoundError::Weight {
            recording,
            weight: *weight,
        });
    }
    if list.iter().all(|(_, w)| *w == 0.0) {
        return Err(AddSoundError::NoWeight);
    }
    if let Some(peaks) = recordings.peaks.as_ref().filter(|p| p.len() == list.len()) {
        return Ok(peaks.clone());
    }
    list.iter()
        .enumerate()
        .map(|(recording, (data, _))| {
            SoundPeak::measure(data).map_err(|error| match list.len() {
                1 => AddSoundError::Sound(error),
                _ => AddSoundError::Recording { recording, error },
            })
        })
        .collect()
}

/// A play remembered for the retrigger interval.
#[derive(Debug, Clone, Copy)]
struct RecentPlay {
    micros: u64,
    frame: u64,
    position: [f32; 3],
}

/// Plays remembered per sound with a retrigger radius: a play is held back by any
/// of them within the radius and the interval. Beyond 16 places at once in one
/// interval, the oldest is forgotten (and may let one more play through).
pub(crate) const RECENT_PLAYS: usize = 16;

/// One place of the table.
struct Shelf {
    /// Sounds that held this place before the one on it (or the next one).
    generation: u32,
    entry: Option<SoundEntry>,
}

/// Real copies and the least audible of them, per sound or per group: scratch
/// for choosing real voices, sized when a sound or group is added.
pub(crate) type Tally = (usize, Option<Rank>);

/// Every sound of one manager.
pub(crate) struct SoundTable {
    owner: u32,
    shelves: Vec<Shelf>,
    /// Empty places, the most recently emptied last.
    free: Vec<u32>,
    names: HashMap<String, SoundId>,
    /// Scratch for `update`, one per place.
    pub(crate) tally: Vec<Tally>,
}

impl SoundTable {
    pub(crate) fn new(owner: u32) -> Self {
        Self {
            owner,
            shelves: Vec::new(),
            free: Vec::new(),
            names: HashMap::new(),
            tally: Vec::new(),
        }
    }

    /// Adds `data` under `name`, in an empty place if there is one; the
    /// sound's group, if it has one, must be known to `route`, which gives the
    /// out its voices are mixed into.
    ///
    /// # Errors
    /// [`AddSoundError::DuplicateName`], [`AddSoundError::UnknownGroup`], or the
    /// entry's own errors, in that order; nothing is added then.
    pub(crate) fn add(
        &mut self,
        name: &str,
        data: &Recordings,
        settings: SoundSettings,
        route: impl FnOnce(GroupId) -> Option<u8>,
    ) -> Result<SoundId, AddSoundError> {
        if self.names.contains_key(name) {
            return Err(AddSoundError::DuplicateName(name.to_string()));
        }
        let out = match settings.group {
            Some(group) => route(group).ok_or(AddSoundError::UnknownGroup)?,
            None => 0,
        };
        let index = match self.free.last() {
            Some(index) => *index,
            None => self.shelves.len() as u32,
        };
        let generation = self.shelves.get(index as usize).map_or(0, |s| s.generation);
        let id = SoundId {
            index,
            generation,
            owner: self.owner,
        };
        let mut entry = SoundEntry::new(id, name, data, settings)?;
        entry.out = out;
        match self.shelves.get_mut(index as usize) {
            Some(shelf) => {
                self.free.pop();
                shelf.entry = Some(entry);
            }
            None => {
                self.shelves.push(Shelf {
                    generation,
                    entry: Some(entry),
                });
                self.tally.push((0, None));
            }
        }
        self.names.insert(name.to_string(), id);
        Ok(id)
    }

    /// Gives the sound `id` new recordings and settings (a bank's reload),
    /// its group's out from `route`: its real copies, its recent plays and,
    /// if `keep_picks`, what its picker remembers stay. Returns the entry it
    /// had (whose sources the mixer may still hold), or `None` if `id` is
    /// not this table's or gone.
    ///
    /// # Errors
    /// [`AddSoundError::UnknownGroup`], or the entry's own errors; nothing
    /// changes then.
    pub(crate) fn replace(
        &mut self,
        id: SoundId,
        data: &Recordings,
        (settings, keep_picks): (SoundSettings, bool),
        route: impl FnOnce(GroupId) -> Option<u8>,
    ) -> Result<Option<SoundEntry>, AddSoundError> {
        let Some(old) = self.get(id) else {
            return Ok(None);
        };
        let out = match settings.group {
            Some(group) => route(group).ok_or(AddSoundError::UnknownGroup)?,
            None => 0,
        };
        let mut entry = SoundEntry::new(id, &old.name, data, settings)?;
        entry.out = out;
        let Some(old) = self.shelves[id.index as usize].entry.as_mut() else {
            return Ok(None);
        };
        entry.copies = std::mem::take(&mut old.copies);
        entry.recent = std::mem::take(&mut old.recent);
        if keep_picks {
            std::mem::swap(&mut entry.picker, &mut old.picker);
        }
        Ok(Some(std::mem::replace(old, entry)))
    }

    /// Takes the sound `id` out; its place is reused under the next generation
    /// (a place whose generation would wrap is never reused).
    pub(crate) fn remove(&mut self, id: SoundId) -> Option<SoundEntry> {
        self.get(id)?;
        let shelf = &mut self.shelves[id.index as usize];
        let entry = shelf.entry.take()?;
        self.names.remove(&entry.name);
        if let Some(next) = shelf.generation.checked_add(1) {
            shelf.generation = next;
            self.free.push(id.index);
        }
        Some(entry)
    }

    /// The sound `id` is, if it is this table's and still here.
    /// The measured peak of each recording of sound `id`.
    pub(crate) fn peaks(&self, id: SoundId) -> Vec<SoundPeak> {
        let Some(entry) = self.get(id) else {
            return Vec::new();
        };
        (0..entry.recordings())
            .filter_map(|i| entry.recording(i as u16).map(|r| r.peak))
            .collect()
    }

    pub(crate) fn get(&self, id: SoundId) -> Option<&SoundEntry> {
        if id.owner != self.owner {
            return None;
        }
        self.entry(id.index).filter(|entry| entry.id == id)
    }

    /// The sound in place `index` (a voice record's sound).
    pub(crate) fn entry(&self, index: u32) -> Option<&SoundEntry> {
        self.shelves.get(index as usize)?.entry.as_ref()
    }

    /// Every sound.
    pub(crate) fn entries_mut(&mut self) -> impl Iterator<Item = &mut SoundEntry> {
        self.shelves.iter_mut().filter_map(|s| s.entry.as_mut())
    }

    pub(crate) fn entry_mut(&mut self, index: u32) -> Option<&mut SoundEntry> {
        self.shelves.get_mut(index as usize)?.entry.as_mut()
    }

    /// Every sound's id and name.
    pub(crate) fn named(&self) -> impl Iterator<Item = (SoundId, &str)> {
        self.names.iter().map(|(name, id)| (*id, name.as_str()))
    }

    /// The id of the sound named `name`.
    pub(crate) fn find(&self, name: &str) -> Option<SoundId> {
        self.names.get(name).copied()
    }

    /// The id of the sound in place `index` (a null id for an empty place,
    /// which no live voice names).
    pub(crate) fn id_of(&self, index: u32) -> SoundId {
        self.entry(index).map_or(
            SoundId {
                index,
                generation: u32::MAX,
                owner: self.owner,
            },
            |entry| entry.id,
        )
    }

    /// Takes every sound's samples out, as the manager goes.
    pub(crate) fn drain_sources(&mut self) -> impl Iterator<Item = Arc<Source>> + '_ {
        self.names.clear();
        self.shelves
            .iter_mut()
            .filter_map(|shelf| shelf.entry.take())
            .flat_map(SoundEntry::into_sources)
    }

    /// Every sound forgets what it picked.
    pub(crate) fn reset_picks(&mut self) {
        for entry in self.shelves.iter_mut().filter_map(|s| s.entry.as_mut()) {
            entry.picker.reset();
        }
    }

    /// `key`, a real copy of the sound in place `sound`, ends.
    pub(crate) fn forget_copy(&mut self, sound: u32, key: VoiceKey) {
        if let Some(entry) = self.entry_mut(sound) {
            entry.forget_copy(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use kira::Frame;
    use kira::sound::static_sound::StaticSoundData;

    use super::*;

    fn click() -> Recordings {
        Recordings::from(StaticSoundData {
            sample_rate: 48_000,
            frames: vec![Frame::from_mono(0.5); 48].into(),
            settings: Default::default(),
            slice: None,
        })
    }

    #[test]
    fn a_removed_sound_leaves_its_id_stale_and_its_place_to_the_next() {
        let mut table = SoundTable::new(7);
        let a = table
            .add("a", &click(), SoundSettings::default(), |_| Some(0))
            .unwrap();
        let b = table
            .add("b", &click(), SoundSettings::default(), |_| Some(0))
            .unwrap();
        assert_eq!((a.index, b.index), (0, 1));
        assert!(table.remove(a).is_some());
        assert!(table.get(a).is_none() && table.remove(a).is_none());
        assert_eq!(table.find("a"), None);
        let c = table
            .add("a", &click(), SoundSettings::default(), |_| Some(0))
            .unwrap();
        assert_eq!(
            (c.index, c.generation),
            (0, 1),
            "the place again, a new generation"
        );
        assert!(table.get(a).is_none(), "the old id stays stale");
        assert_eq!(table.get(c).map(|e| e.name.as_str()), Some("a"));
        assert_ne!(a.bank_key(), c.bank_key());
        assert_eq!(
            table.tally.len(),
            2,
            "scratch per place, not per sound added"
        );
    }

    #[test]
    fn another_tables_id_and_a_refused_add_change_nothing() {
        let mut table = SoundTable::new(1);
        let mut other = SoundTable::new(2);
        let mine = table
            .add("a", &click(), SoundSettings::default(), |_| Some(0))
            .unwrap();
        let theirs = other
            .add("a", &click(), SoundSettings::default(), |_| Some(0))
            .unwrap();
        assert!(table.get(theirs).is_none() && table.remove(theirs).is_none());
        assert!(table.get(mine).is_some());
        let bad = SoundSettings::default().max_voices(0);
        assert!(table.add("b", &click(), bad, |_| Some(0)).is_err());
        let grouped = SoundSettings::default().group(GroupId { index: 0, owner: 1 });
        assert_eq!(
            table.add("b", &click(), grouped, |_| None),
            Err(AddSoundError::UnknownGroup)
        );
        assert_eq!(
            table.add("a", &click(), grouped, |_| None),
            Err(AddSoundError::DuplicateName("a".into())),
            "the name first"
        );
        assert_eq!(
            table.add("a", &click(), SoundSettings::default(), |_| Some(0)),
            Err(AddSoundError::DuplicateName("a".into()))
        );
        assert_eq!(table.find("b"), None);
        let next = table
            .add("b", &click(), SoundSettings::default(), |_| Some(0))
            .unwrap();
        assert_eq!(next.index, 1);
    }
}

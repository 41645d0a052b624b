//! Voice groups: games think in groups (footsteps at most 6, enemy barks at most
//! 2, UI and dialogue never stolen), Wwise and Unreal call them playback limits
//! and sound concurrency groups. A group caps its real voices inside the global
//! voice cap, with its own stealing policy; a protected group is never stolen from
//! by another group's plays.

use crate::AddGroupError;
use crate::Stealing;
use crate::handles::GroupId;
use crate::limits::{MAX_GROUPS, MAX_VOICE_CAP};
use crate::sound_table::Tally;

/// How a voice group limits its sounds. Fields are public, with builder methods of
/// the same names.
///
/// ```
/// use pool_audio::{GroupSettings, voices::Stealing};
///
/// let barks = GroupSettings::default().max_voices(2).stealing(Stealing::Oldest);
/// assert_eq!((barks.max_voices, barks.protected), (2, false));
/// let dialogue = GroupSettings::default().max_voices(4).protected(true);
/// assert!(dialogue.protected);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub struct GroupSettings {
    /// The most real voices of the group's sounds at once,
    /// `1..=`[`MAX_VOICE_CAP`](crate::MAX_VOICE_CAP) (default 16;
    /// the global voice cap still applies).
    pub max_voices: usize,
    /// Which of the group's voices a full group gives up for a new play of a
    /// [`Virtualization::Kill`](crate::Virtualization::Kill) sound (default: the
    /// oldest). Virtualizing sounds compare audibility instead.
    pub stealing: Stealing,
    /// Never stolen or displaced by another group's voices (default `false`):
    /// UI, dialogue.
    pub protected: bool,
    /// Mixed in the loudness window, when the manager has one (default
    /// `false`: UI and music stay outside; see
    /// [`LoudnessWindow`](crate::LoudnessWindow)).
    pub loudness_window: bool,
    /// The bus its voices are mixed into (default `None`: the sound-effects
    /// track). See [`MixMut::add_bus`](crate::mix::MixMut::add_bus).
    pub bus: Option<crate::TrackId>,
}

impl Default for GroupSettings {
    fn default() -> Self {
        Self {
            max_voices: 16,
            stealing: Stealing::Oldest,
            protected: false,
            loudness_window: false,
            bus: None,
        }
    }
}

impl GroupSettings {
    /// The most real voices of the group at once.
    ///
    /// ```
    /// # use pool_audio::GroupSettings;
    /// assert_eq!(GroupSettings::default().max_voices(6).max_voices, 6);
    /// ```
    pub fn max_voices(mut self, max_voices: usize) -> Self {
        self.max_voices = max_voices;
        self
    }

    /// Which voice a full group gives up.
    ///
    /// ```
    /// # use pool_audio::{GroupSettings, voices::Stealing};
    /// assert_eq!(GroupSettings::default().stealing(Stealing::Strict).stealing, Stealing::Strict);
    /// ```
    pub fn stealing(mut self, stealing: Stealing) -> Self {
        self.stealing = stealing;
        self
    }

    /// Never stolen by other groups.
    ///
    /// ```
    /// # use pool_audio::GroupSettings;
    /// assert!(GroupSettings::default().protected(true).protected);
    /// ```
    pub fn protected(mut self, protected: bool) -> Self {
        self.protected = protected;
        self
    }

    /// Mixed in the loudness window.
    ///
    /// ```
    /// # use pool_audio::GroupSettings;
    /// assert!(GroupSettings::default().loudness_window(true).loudness_window);
    /// ```
    pub fn loudness_window(mut self, loudness_window: bool) -> Self {
        self.loudness_window = loudness_window;
        self
    }

    /// Mixes the group's voices into `bus` (a bus of the manager the group is
    /// added to) instead of the sound-effects track.
    pub fn bus(mut self, bus: crate::TrackId) -> Self {
        self.bus = Some(bus);
        self
    }
}

/// Counters of one voice group, from [`SoundEffects::group_stats`](crate::SoundEffects::group_stats).
///
/// ```
/// # use pool_audio::voices::GroupStats;
/// assert_eq!(GroupStats::default().refused, 0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct GroupStats {
    /// The group's real voices now.
    pub real_voices: usize,
    /// The group's virtual voices now.
    pub virtual_voices: usize,
    /// Plays of the group's sounds that started a voice, real or virtual.
    pub plays: u64,
    /// Plays of the group's sounds refused, for any reason.
    pub refused: u64,
    /// The group's voices stolen or displaced (ended or sent virtual) to make room
    /// for another voice.
    pub stolen: u64,
}

/// A group inside the manager.
struct Group {
    name: String,
    settings: GroupSettings,
    stats: GroupStats,
    /// Where the bank mixes its voices: its bus's out, or 0.
    out: u8,
}

/// Every voice group of one manager.
pub(crate) struct Groups {
    owner: u32,
    groups: Vec<Group>,
    /// Scratch for `update`, one per group.
    pub(crate) tally: Vec<Tally>,
}

impl Groups {
    pub(crate) fn new(owner: u32) -> Self {
        Self {
            owner,
            groups: Vec::new(),
            tally: Vec::new(),
        }
    }

    /// Adds a group.
    ///
    /// # Errors
    /// See [`SoundEffects::add_group`](crate::SoundEffects::add_group); nothing
    /// is added then.
    pub(crate) fn add(
        &mut self,
        name: &str,
        settings: GroupSettings,
        out: u8,
    ) -> Result<GroupId, AddGroupError> {
        self.check(name, settings)?;
        self.tally.push((0, None));
        self.groups.push(Group {
            name: name.to_string(),
            settings,
            stats: GroupStats::default(),
            out,
        });
        Ok(self.id(self.groups.len() - 1))
    }

    /// Whether a group of `name` and `settings` can be added (its bus aside).
    pub(crate) fn check(&self, name: &str, settings: GroupSettings) -> Result<(), AddGroupError> {
        if self.groups.iter().any(|g| g.name == name) {
            return Err(AddGroupError::DuplicateName(name.to_string()));
        }
        if !(1..=MAX_VOICE_CAP).contains(&settings.max_voices) {
            return Err(AddGroupError::MaxVoices(settings.max_voices));
        }
        if self.groups.len() >= MAX_GROUPS {
            return Err(AddGroupError::TooMany);
        }
        Ok(())
    }

    /// The out the bank mixes `group`'s voices into, if it is this manager's.
    pub(crate) fn out(&self, group: GroupId) -> Option<u8> {
        if group.owner != self.owner {
            return None;
        }
        self.groups.get(group.index as usize).map(|g| g.out)
    }

    fn id(&self, index: usize) -> GroupId {
        GroupId {
            index: index as u32,
            owner: self.owner,
        }
    }

    /// The id of the group named `name`.
    pub(crate) fn find(&self, name: &str) -> Option<GroupId> {
        let index = self.groups.iter().position(|g| g.name == name)?;
        Some(self.id(index))
    }

    /// How many groups there are.
    pub(crate) fn len(&self) -> usize {
        self.groups.len()
    }

    /// `true` for a group of this manager.
    pub(crate) fn contains(&self, id: GroupId) -> bool {
        id.owner == self.owner && (id.index as usize) < self.groups.len()
    }

    /// The counters kept of group `id` (voices not counted).
    pub(crate) fn stats(&self, id: GroupId) -> Option<GroupStats> {
        if id.owner != self.owner {
            return None;
        }
        self.groups.get(id.index as usize).map(|g| g.stats)
    }

    /// The settings of group `index` (of a sound's settings: always added).
    pub(crate) fn settings(&self, index: u32) -> GroupSettings {
        self.groups
            .get(index as usize)
            .map_or(GroupSettings::default(), |g| g.settings)
    }

    /// `true` if group `index` is protected.
    pub(crate) fn protected(&self, index: u32) -> bool {
        self.settings(index).protected
    }

    fn stats_mut(&mut self, group: Option<u32>) -> Option<&mut GroupStats> {
        group.and_then(|g| self.groups.get_mut(g as usize).map(|g| &mut g.stats))
    }

    /// Counts a play of one of `group`'s sounds, started or refused.
    pub(crate) fn count_play(&mut self, group: Option<u32>, started: bool) {
        if let Some(stats) = self.stats_mut(group) {
            if started {
                stats.plays += 1;
            } else {
                stats.refused += 1;
            }
        }
    }

    /// Counts a voice of `group` stolen or displaced.
    pub(crate) fn count_stolen(&mut self, group: Option<u32>) {
        if let Some(stats) = self.stats_mut(group) {
            stats.stolen += 1;
        }
    }
}

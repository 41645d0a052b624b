//! Voice groups: games think in groups (footsteps at most 6, enemy barks at most
//! 2, UI and dialogue never stolen), Wwise and Unreal call them playback limits
//! and sound concurrency groups. A group caps its real voices inside the global
//! voice cap, with its own stealing policy; a protected group is never stolen from
//! by another group's plays.

use crate::settings::Stealing;

/// A voice group added with [`SoundEffects::add_group`](crate::SoundEffects::add_group):
/// a small id, valid only with the manager that issued it.
///
/// ```
/// assert_eq!(std::mem::size_of::<pool_audio::GroupId>(), 8);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GroupId {
    pub(crate) index: u32,
    pub(crate) owner: u32,
}

/// How a voice group limits its sounds. Fields are public, with builder methods of
/// the same names.
///
/// ```
/// use pool_audio::{GroupSettings, Stealing};
///
/// let barks = GroupSettings::default().max_voices(2).stealing(Stealing::Oldest);
/// assert_eq!((barks.max_voices, barks.protected), (2, false));
/// let dialogue = GroupSettings::default().max_voices(4).protected(true);
/// assert!(dialogue.protected);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub struct GroupSettings {
    /// The most real voices of the group's sounds at once, `1..=4096` (default 16;
    /// the global voice cap still applies).
    pub max_voices: usize,
    /// Which of the group's voices a full group gives up for a new play of a
    /// [`Virtualization::Kill`](crate::Virtualization::Kill) sound (default: the
    /// oldest). Virtualizing sounds compare audibility instead.
    pub stealing: Stealing,
    /// Never stolen or displaced by another group's voices (default `false`):
    /// UI, dialogue.
    pub protected: bool,
}

impl Default for GroupSettings {
    fn default() -> Self {
        Self {
            max_voices: 16,
            stealing: Stealing::Oldest,
            protected: false,
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
    /// # use pool_audio::{GroupSettings, Stealing};
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
}

/// Counters of one voice group, from [`SoundEffects::group_stats`](crate::SoundEffects::group_stats).
///
/// ```
/// # use pool_audio::GroupStats;
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
pub(crate) struct Group {
    pub(crate) name: String,
    pub(crate) settings: GroupSettings,
    pub(crate) stats: GroupStats,
}

//! Where a new real voice may go: room under the voice cap and its group's cap,
//! the real voice a full cap gives up (by its stealing policy, or the least
//! audible one a more audible voice may replace), a protected group's voices
//! kept from other groups. Read-only: the plan of a play and the update's
//! promotions ask, the executor acts.

use super::Rules;
use super::plan::{CapSeat, Seats};
use crate::audibility::Rank;
use crate::error::PlayError;
use crate::groups::Groups;
use crate::handles::VoiceKey;
use crate::sound_table::{SoundEntry, SoundTable};
use crate::stealing::{Candidate, Stealing, Tie, steal};
use crate::voice_pool::{Real, Voices, least_audible};

/// The manager's voices, sounds and groups, read.
#[derive(Clone, Copy)]
pub(super) struct View<'a> {
    pub(super) voices: &'a Voices,
    pub(super) sounds: &'a SoundTable,
    pub(super) groups: &'a Groups,
    pub(super) rules: &'a Rules,
    pub(super) listener: [f32; 3],
}

impl<'a> View<'a> {
    /// `true` if a voice ranked `rank` may take the place of `victim`.
    pub(super) fn beaten(&self, rank: Rank, victim: VoiceKey) -> bool {
        self.voices
            .get(victim)
            .is_some_and(|v| rank.beats(v.holding_rank(), self.rules.margin))
    }

    /// The least audible real copy of the sound in place `sound` (of `owner`,
    /// if given).
    pub(super) fn least_audible_copy(&self, sound: u32, owner: Option<u64>) -> Option<VoiceKey> {
        let copies = self.sounds.entry(sound)?.copies.iter();
        let records = copies.filter_map(|key| Some((*key, self.voices.get(*key)?)));
        least_audible(records.filter(|(_, voice)| owner.is_none_or(|o| voice.owner == Some(o))))
    }

    /// How many real copies of `entry`'s sound `owner` plays, and its oldest.
    pub(super) fn owner_copies(&self, entry: &SoundEntry, owner: u64) -> (usize, Option<VoiceKey>) {
        let mut owned = entry.copies.iter().filter(|key| {
            self.voices
                .get(**key)
                .is_some_and(|v| v.owner == Some(owner))
        });
        let oldest = owned.next().copied();
        (oldest.map_or(0, |_| 1 + owned.count()), oldest)
    }

    /// `true` if `owner` plays as many real copies of `entry`'s sound as the
    /// sound lets one owner play.
    pub(super) fn owner_full(&self, entry: &SoundEntry, owner: Option<u64>) -> bool {
        match (owner, entry.settings.max_voices_per_owner) {
            (Some(owner), Some(cap)) => self.owner_copies(entry, owner).0 >= cap,
            _ => false,
        }
    }

    /// The real voices of `group`.
    fn real_in_group(&self, group: u32) -> usize {
        self.voices
            .real()
            .iter()
            .filter(|real| real.group == Some(group))
            .count()
    }

    /// `true` if `group` has as many real voices as its cap.
    fn group_full(&self, group: Option<u32>) -> bool {
        group.is_some_and(|g| self.real_in_group(g) >= self.groups.settings(g).max_voices)
    }

    fn global_full(&self) -> bool {
        self.voices.real().len() >= self.rules.settings.voice_cap
    }

    /// Whether a new real voice of `group` has room under the caps, or the
    /// least audible real voice it may replace.
    pub(super) fn cap_room(&self, group: Option<u32>) -> CapRoom {
        let group_full = self.group_full(group);
        if !group_full && !self.global_full() {
            return CapRoom::Room;
        }
        let replaceable = self
            .replaceable(group, group_full)
            .filter_map(|real| Some((real.key, self.voices.get(real.key)?)));
        least_audible(replaceable).map_or(CapRoom::Full, CapRoom::LeastAudible)
    }

    /// The real voices a new voice of `group` may take the place of when a cap
    /// is full: its group's, if its group is full; else every real voice but
    /// those of other protected groups.
    fn replaceable(&self, group: Option<u32>, group_full: bool) -> impl Iterator<Item = &Real> {
        self.voices.real().iter().filter(move |real| {
            if group_full {
                real.group == group
            } else {
                real.group == group || real.group.is_none_or(|g| !self.groups.protected(g))
            }
        })
    }

    /// For a new real voice of a killing sound in `group`, of `play`'s
    /// priority and tie rule: no victim if no cap is full, else the voice the
    /// full cap's [`Stealing`] picks, or the refusal.
    fn steal_victim(
        &self,
        group: Option<u32>,
        play: (i32, Tie),
    ) -> Result<Option<VoiceKey>, PlayError> {
        if let Some(g) = group
            && self.group_full(group)
        {
            let stealing = self.groups.settings(g).stealing;
            return self
                .victim(stealing, group, true, play)
                .map(Some)
                .ok_or(PlayError::GroupCap);
        }
        if !self.global_full() {
            return Ok(None);
        }
        self.victim(self.rules.settings.stealing, group, false, play)
            .map(Some)
            .ok_or(PlayError::VoiceCap)
    }

    /// The voice `stealing` gives up among the real voices a new voice of
    /// `group` may displace: the oldest by the start order kept beside each
    /// real voice, the others by the voices' records.
    fn victim(
        &self,
        stealing: Stealing,
        group: Option<u32>,
        group_full: bool,
        play: (i32, Tie),
    ) -> Option<VoiceKey> {
        match stealing {
            Stealing::Strict => None,
            Stealing::Oldest => self
                .replaceable(group, group_full)
                .min_by_key(|real| real.order)
                .map(|real| real.key),
            _ => steal(
                stealing,
                self.listener,
                play,
                self.replaceable(group, group_full)
                    .filter_map(|real| self.candidate(real.key)),
            ),
        }
    }

    /// A real voice as a stealing policy compares it: its level now is its
    /// sound's copy level at its place among the copies, newest first.
    fn candidate(&self, key: VoiceKey) -> Option<Candidate> {
        let record = self.voices.get(key)?;
        let level = self.sounds.entry(record.sound).map_or(0.0, |entry| {
            entry.copy_level(entry.copy_rank(key), record.volume())
        });
        Some(Candidate {
            key,
            order: record.order,
            priority: record.holding_rank().priority,
            position: record.position,
            level,
        })
    }
}

/// Room for one more real voice under the voice cap and its group's cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CapRoom {
    /// No cap is full.
    Room,
    /// A cap is full: this voice, the least audible one the new voice may
    /// replace, would give way.
    LeastAudible(VoiceKey),
    /// A cap is full and no voice may give way.
    Full,
}

/// The answers for one play: of the sound in place `sound`, of `group`.
pub(super) struct ForPlay<'a> {
    pub(super) view: View<'a>,
    pub(super) sound: u32,
    pub(super) group: Option<u32>,
    /// The queue's room, read once before the plan.
    pub(super) queue_room: usize,
}

impl Seats for ForPlay<'_> {
    #[inline]
    fn weaker_copy(&self, rank: Rank, owner: Option<u64>) -> Option<VoiceKey> {
        self.view
            .least_audible_copy(self.sound, owner)
            .filter(|victim| self.view.beaten(rank, *victim))
    }

    #[inline]
    fn cap_seat(&self, rank: Rank) -> CapSeat {
        match self.view.cap_room(self.group) {
            CapRoom::Room => CapSeat::Room,
            CapRoom::LeastAudible(victim) if self.view.beaten(rank, victim) => {
                CapSeat::Displace(victim)
            }
            CapRoom::LeastAudible(_) | CapRoom::Full => CapSeat::Full,
        }
    }

    #[inline]
    fn steal(&self, play: (i32, Tie)) -> Result<Option<VoiceKey>, PlayError> {
        self.view.steal_victim(self.group, play)
    }

    #[inline]
    fn free_slot(&self) -> bool {
        self.view.voices.has_free_slot()
    }

    #[inline]
    fn queue_room(&self) -> usize {
        self.queue_room
    }

    #[inline]
    fn unread(&self, victim: VoiceKey) -> bool {
        self.view.voices.unread(victim)
    }
}

//! What a play becomes, decided before anything changes: refused (and why),
//! started virtual, a take-over of a copy whose start the mixer has not read, or
//! a real voice on a free place or in the place of a victim. A pure function of
//! what the play is ([`PlayFacts`]) and what the manager answers about its
//! places ([`Seats`]); the executor in `play.rs` carries the plan out.

use crate::Tie;
use crate::audibility::Rank;
use crate::error::PlayError;
use crate::handles::VoiceKey;

/// What a play is, computed from the sound and the parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PlayFacts {
    /// A play of the sound came sooner than its retrigger interval.
    pub(crate) held_back: bool,
    /// Its onset reaches the sound's audibility floor.
    pub(crate) audible: bool,
    /// It is heard inside the loudness window (or there is none).
    pub(crate) in_window: bool,
    /// Its sound keeps voices it cannot make real as virtual ones.
    pub(crate) virtualizes: bool,
    /// The sound's `max_voices` copies are all playing.
    pub(crate) full: bool,
    /// The sound refuses when full (`WhenFull::Strict`).
    pub(crate) strict: bool,
    /// The sound's oldest real copy.
    pub(crate) oldest: Option<VoiceKey>,
    /// Who plays it.
    pub(crate) owner: Option<u64>,
    /// The copies its owner may have of the sound are all playing.
    pub(crate) owner_full: bool,
    /// Its owner's oldest real copy of the sound.
    pub(crate) owner_oldest: Option<VoiceKey>,
    /// The new voice's priority and audibility.
    pub(crate) rank: Rank,
    /// Which loses a tie in priority with a voice it could steal.
    pub(crate) tie: Tie,
}

/// What the manager answers about its places, for the sound being played.
pub(crate) trait Seats {
    /// The sound's least audible real copy (of `owner`, if given), if `rank`
    /// beats it by the margin.
    fn weaker_copy(&self, rank: Rank, owner: Option<u64>) -> Option<VoiceKey>;
    /// For a virtualizing sound: room under the caps, or the least audible real
    /// voice it may displace if `rank` beats it.
    fn cap_seat(&self, rank: Rank) -> CapSeat;
    /// For a sound that does not virtualize, of `play`'s priority and tie
    /// rule: room under the caps (`None`), the voice the full cap's stealing
    /// gives up, or the refusal.
    fn steal(&self, play: (i32, Tie)) -> Result<Option<VoiceKey>, PlayError>;
    /// A slot of the voice bank is free.
    fn free_slot(&self) -> bool;
    /// Commands the bank's queue has room for.
    fn queue_room(&self) -> usize;
    /// The mixer has not read `victim`'s start yet.
    fn unread(&self, victim: VoiceKey) -> bool;
}

/// Room under the caps for a virtualizing sound's new real voice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CapSeat {
    /// No cap is full.
    Room,
    /// This voice gives way.
    Displace(VoiceKey),
    /// A cap is full and no voice it may replace ranks below the new one.
    Full,
}

/// What becomes of a voice that gives up its place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Leaves {
    /// Its sound's copies were all playing: it ends, recycled.
    Recycled,
    /// A cap was full or it ranks below: it goes virtual if its sound
    /// virtualizes, else it is stolen.
    Displaced,
}

/// A voice that gives up its place for the new one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Victim {
    pub(crate) key: VoiceKey,
    pub(crate) leaves: Leaves,
}

pub(crate) use crate::voice_info::WhyVirtual;

/// What a play becomes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Plan {
    /// Nothing starts.
    Refuse(PlayError),
    /// A record only, no voice in the mixer.
    Virtual(WhyVirtual),
    /// A real voice, on a free slot or in the place of the victim.
    Real(Option<Victim>),
    /// The new play replaces `victim` (a copy of the same sound) on its slot.
    /// If the mixer has read its start meanwhile (on a device), the play is
    /// planned again: the victim is then recycled, or the play refused.
    TakeOver(VoiceKey),
}

/// The plan of a play (see the module's docs).
pub(crate) fn plan(facts: &PlayFacts, seats: &impl Seats) -> Plan {
    if facts.held_back {
        return Plan::Refuse(PlayError::Retrigger);
    }
    let victim = match seat(facts, seats) {
        Ok(Some(victim)) => victim,
        Ok(None) if facts.virtualizes => {
            return Plan::Virtual(if facts.audible && facts.in_window {
                WhyVirtual::Outranked
            } else {
                WhyVirtual::Inaudible
            });
        }
        Ok(None) if !facts.in_window => return Plan::Refuse(PlayError::OutOfWindow),
        Ok(None) => return Plan::Refuse(PlayError::Inaudible),
        Err(refusal) => return Plan::Refuse(refusal),
    };
    if let Some(Victim {
        key,
        leaves: Leaves::Recycled,
    }) = victim
    {
        // A take-over needs one command; a recycle a stop and a start.
        if seats.queue_room() < 1 {
            return Plan::Refuse(PlayError::QueueFull);
        }
        if seats.unread(key) {
            return Plan::TakeOver(key);
        }
    }
    with_room(facts, seats, victim)
}

/// Where a new real voice would go: `Ok(Some(victim))` (no victim: a free
/// place), `Ok(None)` for no place (virtual, or refused as inaudible), or the
/// refusal.
fn seat(facts: &PlayFacts, seats: &impl Seats) -> Result<Option<Option<Victim>>, PlayError> {
    let displaced = |key| Victim {
        key,
        leaves: Leaves::Displaced,
    };
    let recycled = |key| Victim {
        key,
        leaves: Leaves::Recycled,
    };
    if !facts.audible || !facts.in_window {
        Ok(None)
    } else if facts.owner_full {
        // The owner's own cap first: recycling its oldest copy also makes room
        // in the sound's.
        if facts.virtualizes {
            Ok(seats
                .weaker_copy(facts.rank, facts.owner)
                .map(|key| Some(displaced(key))))
        } else if facts.strict {
            Err(PlayError::OwnerLimit)
        } else {
            Ok(Some(facts.owner_oldest.map(recycled)))
        }
    } else if facts.full {
        if facts.virtualizes {
            Ok(seats
                .weaker_copy(facts.rank, None)
                .map(|key| Some(displaced(key))))
        } else if facts.strict {
            Err(PlayError::SoundLimit)
        } else {
            Ok(Some(facts.oldest.map(recycled)))
        }
    } else if facts.virtualizes {
        Ok(match seats.cap_seat(facts.rank) {
            CapSeat::Room => Some(None),
            CapSeat::Displace(key) => Some(Some(displaced(key))),
            CapSeat::Full => None,
        })
    } else {
        seats
            .steal((facts.rank.priority, facts.tie))
            .map(|victim| Some(victim.map(displaced)))
    }
}

/// A real voice if the bank has a free slot and room for a stop and a start;
/// else virtual, or refused for a sound that does not virtualize.
fn with_room(facts: &PlayFacts, seats: &impl Seats, victim: Option<Victim>) -> Plan {
    let (why, refusal) = if !seats.free_slot() {
        (WhyVirtual::NoFreeSlot, PlayError::NoFreeVoice)
    } else if seats.queue_room() < 2 {
        (WhyVirtual::QueueFull, PlayError::QueueFull)
    } else {
        return Plan::Real(victim);
    };
    if facts.virtualizes {
        Plan::Virtual(why)
    } else {
        Plan::Refuse(refusal)
    }
}

#[cfg(test)]
mod tests {
    use pool_core::Pool;

    use super::*;

    /// A manager's answers, as a row of the table sets them.
    #[derive(Clone, Copy)]
    struct Answers {
        weaker_copy: Option<VoiceKey>,
        weaker_owner_copy: Option<VoiceKey>,
        cap_seat: CapSeat,
        steal: Result<Option<VoiceKey>, PlayError>,
        free_slot: bool,
        queue_room: usize,
        unread: bool,
    }

    impl Seats for Answers {
        fn weaker_copy(&self, _: Rank, owner: Option<u64>) -> Option<VoiceKey> {
            match owner {
                Some(_) => self.weaker_owner_copy,
                None => self.weaker_copy,
            }
        }
        fn cap_seat(&self, _: Rank) -> CapSeat {
            self.cap_seat
        }
        fn steal(&self, _: (i32, Tie)) -> Result<Option<VoiceKey>, PlayError> {
            self.steal
        }
        fn free_slot(&self) -> bool {
            self.free_slot
        }
        fn queue_room(&self) -> usize {
            self.queue_room
        }
        fn unread(&self, _: VoiceKey) -> bool {
            self.unread
        }
    }

    fn keys() -> [VoiceKey; 4] {
        let mut pool = Pool::builder(|| ())
            .max_objects(4)
            .handle::<VoiceKey>()
            .build()
            .expect("a valid pool");
        [(); 4].map(|_| pool.try_acquire().expect("room for four"))
    }

    /// One row: what differs from a play of an audible, killing sound with
    /// room everywhere, and the plan it must give.
    #[test]
    fn every_state_gets_its_plan() {
        let [oldest, weak, stolen, mine] = keys();
        let facts = PlayFacts {
            held_back: false,
            audible: true,
            in_window: true,
            virtualizes: false,
            full: false,
            strict: false,
            oldest: Some(oldest),
            owner: None,
            owner_full: false,
            owner_oldest: None,
            rank: Rank::SILENT,
            tie: Tie::OldestLoses,
        };
        let answers = Answers {
            weaker_copy: None,
            weaker_owner_copy: None,
            cap_seat: CapSeat::Room,
            steal: Ok(None),
            free_slot: true,
            queue_room: 8,
            unread: false,
        };
        let virt = PlayFacts {
            virtualizes: true,
            ..facts
        };
        let full = PlayFacts {
            full: true,
            ..facts
        };
        let recycled = Some(Victim {
            key: oldest,
            leaves: Leaves::Recycled,
        });
        let displaced = |key| {
            Some(Victim {
                key,
                leaves: Leaves::Displaced,
            })
        };
        let owned = PlayFacts {
            owner: Some(7),
            owner_full: true,
            owner_oldest: Some(mine),
            ..facts
        };
        let rows: Vec<(&str, PlayFacts, Answers, Plan)> = vec![
            ("room everywhere", facts, answers, Plan::Real(None)),
            (
                "retrigger first",
                PlayFacts {
                    held_back: true,
                    audible: false,
                    ..facts
                },
                answers,
                Plan::Refuse(PlayError::Retrigger),
            ),
            (
                "inaudible, killing",
                PlayFacts {
                    audible: false,
                    ..facts
                },
                answers,
                Plan::Refuse(PlayError::Inaudible),
            ),
            (
                "inaudible, virtualizing",
                PlayFacts {
                    audible: false,
                    ..virt
                },
                answers,
                Plan::Virtual(WhyVirtual::Inaudible),
            ),
            (
                "under the loudness window, killing",
                PlayFacts {
                    in_window: false,
                    ..facts
                },
                answers,
                Plan::Refuse(PlayError::OutOfWindow),
            ),
            (
                "under the window and the floor, killing: the window's reason",
                PlayFacts {
                    in_window: false,
                    audible: false,
                    ..facts
                },
                answers,
                Plan::Refuse(PlayError::OutOfWindow),
            ),
            (
                "under the loudness window, virtualizing",
                PlayFacts {
                    in_window: false,
                    ..virt
                },
                answers,
                Plan::Virtual(WhyVirtual::Inaudible),
            ),
            (
                "full: recycle the oldest",
                full,
                answers,
                Plan::Real(recycled),
            ),
            (
                "full: the oldest unread is taken over",
                full,
                Answers {
                    unread: true,
                    ..answers
                },
                Plan::TakeOver(oldest),
            ),
            (
                "a take-over needs no free slot",
                full,
                Answers {
                    unread: true,
                    free_slot: false,
                    ..answers
                },
                Plan::TakeOver(oldest),
            ),
            (
                "a take-over needs room for one command",
                full,
                Answers {
                    unread: true,
                    queue_room: 1,
                    ..answers
                },
                Plan::TakeOver(oldest),
            ),
            (
                "read by the mixer, no slot for a recycle",
                full,
                Answers {
                    free_slot: false,
                    ..answers
                },
                Plan::Refuse(PlayError::NoFreeVoice),
            ),
            (
                "read by the mixer, room for one command only",
                full,
                Answers {
                    queue_room: 1,
                    ..answers
                },
                Plan::Refuse(PlayError::QueueFull),
            ),
            (
                "a recycle with no room at all",
                full,
                Answers {
                    queue_room: 0,
                    free_slot: false,
                    ..answers
                },
                Plan::Refuse(PlayError::QueueFull),
            ),
            (
                "full and strict",
                PlayFacts {
                    strict: true,
                    ..full
                },
                answers,
                Plan::Refuse(PlayError::SoundLimit),
            ),
            (
                "full, virtualizing, beats a copy",
                PlayFacts { full: true, ..virt },
                Answers {
                    weaker_copy: Some(weak),
                    ..answers
                },
                Plan::Real(displaced(weak)),
            ),
            (
                "full, virtualizing, beats none",
                PlayFacts { full: true, ..virt },
                answers,
                Plan::Virtual(WhyVirtual::Outranked),
            ),
            (
                "virtualizing, a cap full, displaces",
                virt,
                Answers {
                    cap_seat: CapSeat::Displace(weak),
                    ..answers
                },
                Plan::Real(displaced(weak)),
            ),
            (
                "virtualizing, a cap full, outranked",
                virt,
                Answers {
                    cap_seat: CapSeat::Full,
                    ..answers
                },
                Plan::Virtual(WhyVirtual::Outranked),
            ),
            (
                "virtualizing, no free slot",
                virt,
                Answers {
                    free_slot: false,
                    queue_room: 0,
                    ..answers
                },
                Plan::Virtual(WhyVirtual::NoFreeSlot),
            ),
            (
                "virtualizing, queue full",
                virt,
                Answers {
                    queue_room: 1,
                    ..answers
                },
                Plan::Virtual(WhyVirtual::QueueFull),
            ),
            (
                "killing, a cap steals",
                facts,
                Answers {
                    steal: Ok(Some(stolen)),
                    ..answers
                },
                Plan::Real(displaced(stolen)),
            ),
            (
                "an owner at its cap recycles its own oldest",
                owned,
                answers,
                Plan::Real(Some(Victim {
                    key: mine,
                    leaves: Leaves::Recycled,
                })),
            ),
            (
                "an owner at its cap, the sound full too",
                PlayFacts {
                    full: true,
                    ..owned
                },
                answers,
                Plan::Real(Some(Victim {
                    key: mine,
                    leaves: Leaves::Recycled,
                })),
            ),
            (
                "an owner at its cap takes over its unread copy",
                owned,
                Answers {
                    unread: true,
                    ..answers
                },
                Plan::TakeOver(mine),
            ),
            (
                "an owner at its cap, strict",
                PlayFacts {
                    strict: true,
                    ..owned
                },
                answers,
                Plan::Refuse(PlayError::OwnerLimit),
            ),
            (
                "an owner at its cap, virtualizing, beats its own copy",
                PlayFacts {
                    virtualizes: true,
                    ..owned
                },
                Answers {
                    weaker_copy: Some(weak),
                    weaker_owner_copy: Some(mine),
                    ..answers
                },
                Plan::Real(displaced(mine)),
            ),
            (
                "an owner at its cap, virtualizing, beats none of its own",
                PlayFacts {
                    virtualizes: true,
                    ..owned
                },
                Answers {
                    weaker_copy: Some(weak),
                    ..answers
                },
                Plan::Virtual(WhyVirtual::Outranked),
            ),
            (
                "killing, a strict group",
                facts,
                Answers {
                    steal: Err(PlayError::GroupCap),
                    ..answers
                },
                Plan::Refuse(PlayError::GroupCap),
            ),
            (
                "killing, a strict voice cap",
                facts,
                Answers {
                    steal: Err(PlayError::VoiceCap),
                    ..answers
                },
                Plan::Refuse(PlayError::VoiceCap),
            ),
            (
                "killing, no free slot",
                facts,
                Answers {
                    free_slot: false,
                    ..answers
                },
                Plan::Refuse(PlayError::NoFreeVoice),
            ),
            (
                "killing, queue full",
                facts,
                Answers {
                    queue_room: 1,
                    ..answers
                },
                Plan::Refuse(PlayError::QueueFull),
            ),
        ];
        for (row, facts, answers, expected) in rows {
            assert_eq!(plan(&facts, &answers), expected, "{row}");
        }
    }
}

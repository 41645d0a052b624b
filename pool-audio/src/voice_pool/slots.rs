//! The voice bank's slots as the game sees them: which are free, which hold a
//! real voice, which a voice still fading out, and the real voices.
//!
//! The bank holds twice the voice cap of slots: every real voice, and as many
//! voices on their way out (stopped, stolen, gone virtual) that the mixer is
//! still fading. A slot is free again once the mixer reports its voice over.

use crate::bank::{Phase, Shared};
use crate::handles::VoiceKey;

/// Who holds a slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holder {
    Free,
    /// A real voice plays on it.
    Voice,
    /// A voice that was stopped or went virtual, fading out in the mixer.
    Leaving,
}

#[derive(Debug, Clone, Copy)]
struct Slot {
    /// The last ticket sent to it.
    ticket: u32,
    /// Its voice's sound, as the bank names it (`SoundId::bank_key`).
    sound_key: u64,
    holder: Holder,
}

pub(crate) struct Slots {
    slots: Vec<Slot>,
    free: Vec<u32>,
    /// The real voices, at most the voice cap.
    pub(crate) real: Vec<Real>,
    leaving: usize,
}

/// A real voice, with what choosing a voice to steal reads most.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Real {
    pub(crate) key: VoiceKey,
    /// Its start order (see `VoiceRecord::order`).
    pub(crate) order: u64,
    /// Its sound's group.
    pub(crate) group: Option<u32>,
}

impl Slots {
    pub(crate) fn new(slots: usize, voice_cap: usize) -> Self {
        let slot = Slot {
            ticket: 0,
            sound_key: 0,
            holder: Holder::Free,
        };
        Self {
            slots: vec![slot; slots],
            free: (0..slots as u32).rev().collect(),
            real: Vec::with_capacity(voice_cap),
            leaving: 0,
        }
    }

    /// A free slot, if any.
    pub(crate) fn has_free_slot(&self) -> bool {
        !self.free.is_empty()
    }

    /// Takes a free slot for a real voice of the sound `sound_key`, with the
    /// next ticket.
    pub(crate) fn take(&mut self, sound_key: u64) -> Option<(u32, u32)> {
        let slot = self.free.pop()?;
        let entry = &mut self.slots[slot as usize];
        entry.ticket = entry.ticket.wrapping_add(1);
        entry.sound_key = sound_key;
        entry.holder = Holder::Voice;
        Some((slot, entry.ticket))
    }

    /// `slot`'s queued start was replaced by one of `ticket`.
    pub(crate) fn renew(&mut self, slot: u32, ticket: u32) {
        self.slots[slot as usize].ticket = ticket;
    }

    /// Voices on their way out, fading in the mixer.
    pub(crate) fn leaving(&self) -> usize {
        self.leaving
    }

    /// Voices of the sound `sound_key` on their way out that the mixer has not
    /// finished.
    pub(crate) fn leaving_of(&self, sound_key: u64, shared: &Shared) -> usize {
        self.slots
            .iter()
            .enumerate()
            .filter(|(index, s)| {
                let status = shared.status(*index as u32);
                s.holder == Holder::Leaving
                    && s.sound_key == sound_key
                    && !(status.ticket == s.ticket && status.phase == Phase::Done)
            })
            .count()
    }

    /// `true` if a slot that played the sound `sound_key` is still taken.
    pub(crate) fn holds(&self, sound_key: u64) -> bool {
        self.slots
            .iter()
            .any(|slot| slot.holder != Holder::Free && slot.sound_key == sound_key)
    }

    /// Frees the slots whose leaving voice the mixer reports over.
    pub(crate) fn sweep(&mut self, shared: &Shared) {
        if self.leaving == 0 {
            return;
        }
        for (index, slot) in self.slots.iter_mut().enumerate() {
            if slot.holder == Holder::Leaving {
                let status = shared.status(index as u32);
                if status.ticket == slot.ticket && status.phase == Phase::Done {
                    slot.holder = Holder::Free;
                    self.free.push(index as u32);
                    self.leaving -= 1;
                }
            }
        }
    }

    /// `slot`'s real voice ended: the slot is free, or (`leaving`) free once
    /// the mixer reports its fade over.
    pub(crate) fn release(&mut self, slot: u32, leaving: bool) {
        let entry = &mut self.slots[slot as usize];
        if entry.holder != Holder::Voice {
            return;
        }
        if leaving {
            entry.holder = Holder::Leaving;
            self.leaving += 1;
        } else {
            entry.holder = Holder::Free;
            self.free.push(slot);
        }
    }
}

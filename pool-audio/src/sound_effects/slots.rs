//! The voice bank's slots as the manager sees them, and the one way a real voice
//! ends.
//!
//! The bank holds twice the voice cap of slots: every real voice, and as many
//! voices on their way out (stopped, stolen, gone virtual) that the mixer is
//! still fading. A slot is free again once the mixer reports its voice over.

use kira::Tween;

use crate::bank::{BankHandle, Command, Phase, Shared};
use crate::sound::Sound;
use crate::voice::{Place, Voice, VoiceKey};

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
    sound: u32,
    holder: Holder,
}

pub(super) struct Slots {
    slots: Vec<Slot>,
    free: Vec<u32>,
    /// The real voices, at most the voice cap.
    pub(super) real: Vec<Real>,
    leaving: usize,
}

/// A real voice, with what choosing a voice to steal reads most.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Real {
    pub(crate) key: VoiceKey,
    /// Its start order (see [`Voice::order`]).
    pub(crate) order: u64,
    /// Its sound's group.
    pub(crate) group: Option<u32>,
}

impl Slots {
    pub(super) fn new(slots: usize, voice_cap: usize) -> Self {
        let slot = Slot {
            ticket: 0,
            sound: 0,
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
    pub(super) fn has_room(&self) -> bool {
        !self.free.is_empty()
    }

    /// Takes a free slot for a real voice of `sound`, with the next ticket.
    pub(super) fn take(&mut self, sound: u32) -> Option<(u32, u32)> {
        let slot = self.free.pop()?;
        let entry = &mut self.slots[slot as usize];
        entry.ticket = entry.ticket.wrapping_add(1);
        entry.sound = sound;
        entry.holder = Holder::Voice;
        Some((slot, entry.ticket))
    }

    /// `slot`'s queued start was replaced by one of `ticket`.
    pub(super) fn renew(&mut self, slot: u32, ticket: u32) {
        self.slots[slot as usize].ticket = ticket;
    }

    /// Voices on their way out, fading in the mixer.
    pub(super) fn leaving(&self) -> usize {
        self.leaving
    }

    /// Voices of `sound` on their way out that the mixer has not finished.
    pub(super) fn leaving_of(&self, sound: u32, shared: &Shared) -> usize {
        self.slots
            .iter()
            .enumerate()
            .filter(|(index, s)| {
                let status = shared.status(*index as u32);
                s.holder == Holder::Leaving
                    && s.sound == sound
                    && !(status.ticket == s.ticket && status.phase == Phase::Done)
            })
            .count()
    }

    /// Frees the slots whose leaving voice the mixer reports over.
    pub(super) fn sweep(&mut self, shared: &Shared) {
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

    fn release(&mut self, slot: u32, leaving: bool) {
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

/// How a real voice ends.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Ending {
    /// Stopped (or sent virtual) with this fade: the mixer fades it out.
    Fade(Tween),
    /// The mixer reports it over by itself.
    Over,
}

/// The parts of the manager an ending voice touches, borrowed apart from the
/// voice pool.
pub(crate) struct Retire<'a> {
    pub(crate) sounds: &'a mut [Sound],
    pub(crate) slots: &'a mut Slots,
    pub(crate) bank: &'a mut BankHandle,
}

impl Retire<'_> {
    /// Ends `voice` (known as `key`) as a real voice: the bank fades it out
    /// (`Ending::Fade`, the caller has made sure the queue has room) and its slot
    /// is free once the mixer is done with it; its sound's copies no longer count
    /// it. Returns the slot and ticket it played on. The caller gives the voice
    /// back to the pool, keeps it as a virtual voice, or reuses it. A virtual
    /// voice has nothing to end here.
    pub(crate) fn voice(
        &mut self,
        key: VoiceKey,
        voice: &Voice,
        ending: Ending,
    ) -> Option<(u32, u32)> {
        let Place::Real { slot, ticket } = voice.place else {
            return None;
        };
        if let Some(at) = self.slots.real.iter().position(|r| r.key == key) {
            self.slots.real.swap_remove(at);
        }
        if let Some(sound) = self.sounds.get_mut(voice.sound as usize)
            && let Some(at) = sound.copies.iter().position(|k| *k == key)
        {
            sound.copies.remove(at);
        }
        match ending {
            Ending::Fade(fade) => {
                // Room was checked by the caller: the stop cannot be lost.
                let sent = self.bank.send(Command::Stop { slot, ticket, fade });
                self.slots.release(slot, sent.is_ok());
            }
            Ending::Over => self.slots.release(slot, false),
        }
        Some((slot, ticket))
    }
}

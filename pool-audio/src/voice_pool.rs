//! The voices of one manager, real and virtual: every voice's record (pooled,
//! `voice_cap + virtual_voices` of them), the voice bank's slots as the game
//! sees them, the game's end of the bank (its command queue and reports), and
//! the voices that ended since the last update.
//!
//! A real voice is a record on a slot of the bank; it ends as a real voice
//! through one function, [`Voices::retire`], whatever ends it (a stop, a steal,
//! a recycle, going virtual, the mixer reporting it over), except a copy taken
//! over before the mixer read its start, which hands its slot and record to the
//! new play ([`Voices::take_over`]). Every operation that sends the bank a
//! command has had the queue's room checked by its caller, so no command is
//! lost halfway through an operation.

mod advance;
mod curves;
mod record;
mod reports;
mod reshape;
mod slots;

use kira::Tween;
use pool_core::{AcquireError, Pool};

pub(crate) use advance::Promotable;
pub(crate) use record::{DropLeastAudible, Place, Playhead, StartWait, VoiceRecord, least_audible};
use reports::Reports;
pub(crate) use slots::Real;
use slots::Slots;

use std::sync::Arc;

use crate::bank::{BankHandle, Begin, Command, NO_GROUP, Phase, Source, Start};
use crate::handles::{EndReason, Ended, SoundId, VoiceHandle, VoiceKey, VoiceState};
use crate::sound_table::SoundTable;

/// Voices of the bank per voice of the cap: every real voice, and as many on
/// their way out (stopped, stolen, gone virtual) that the mixer still fades.
pub(crate) const SLOTS_PER_VOICE: usize = 2;

/// The voices, real and virtual.
pub(crate) struct Voices {
    records: Pool<VoiceRecord, DropLeastAudible, VoiceKey>,
    slots: Slots,
    bank: BankHandle,
    reports: Reports,
    /// Scratch for `update`'s choice of real voices: the virtual voices that
    /// may become real, as long as the voice pool.
    candidates: Vec<Promotable>,
    /// Scratch for `update`: the real voices the last pass found played to
    /// their end, by group (`u32::MAX`: none) and how long ago they ended in
    /// the audio; at most one per slot of the bank.
    ends: Vec<(u32, f64)>,
    /// A real voice started since the last [`take_crowding`](Self::take_crowding)
    /// gave its sound more copies than its budget keeps.
    crowding: bool,
    /// Start order of the next voice: a sound's oldest copy has the lowest.
    next_order: u64,
    /// Removed sounds whose samples the mixer may still hold.
    retiring: Vec<Retiring>,
}

/// A removed sound, kept until the mixer can no longer hold it: its samples'
/// last reference is the game side's, dropped here on the game thread.
struct Retiring {
    /// Its name in the bank (`SoundId::bank_key`).
    key: u64,
    /// The mixer's reads of the command queue after which no start of it is
    /// left there.
    after: u64,
    source: Arc<Source>,
}

impl Voices {
    /// `records` voice records (real and virtual) and the bank's `slots` (as
    /// many as its handle reports); ended voices reported as `owner`'s, up to
    /// `max(records, MIN_ENDED_REPORTS)` an update.
    pub(crate) fn new(
        bank: BankHandle,
        voice_cap: usize,
        records: usize,
        owner: u32,
    ) -> Result<Self, pool_core::SettingsError> {
        let slots = bank.shared().slots();
        let pool = Pool::builder(VoiceRecord::idle)
            .initial(records)
            .max_objects(records)
            .policy(DropLeastAudible)
            .handle::<VoiceKey>()
            .build()?;
        Ok(Self {
            records: pool,
            slots: Slots::new(slots, voice_cap),
            bank,
            reports: Reports::new(owner, records),
            candidates: Vec::with_capacity(records),
            ends: Vec::with_capacity(slots),
            crowding: false,
            next_order: 0,
            retiring: Vec::new(),
        })
    }

    pub(crate) fn contains(&self, key: VoiceKey) -> bool {
        self.records.contains(key)
    }

    pub(crate) fn get(&self, key: VoiceKey) -> Option<&VoiceRecord> {
        self.records.get(key)
    }

    pub(crate) fn get_mut(&mut self, key: VoiceKey) -> Option<&mut VoiceRecord> {
        self.records.get_mut(key)
    }

    /// Every live voice, real or virtual.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (VoiceKey, &VoiceRecord)> {
        self.records.iter()
    }

    pub(crate) fn live(&self) -> usize {
        self.records.live_count()
    }

    /// The real voices, with what choosing a voice to steal reads most.
    pub(crate) fn real(&self) -> &[Real] {
        &self.slots.real
    }

    /// A slot of the bank is free for a new real voice.
    pub(crate) fn has_free_slot(&self) -> bool {
        self.slots.has_free_slot()
    }

    /// Voices on their way out, still fading in the mixer.
    pub(crate) fn fading(&self) -> usize {
        self.slots.leaving()
    }

    /// Voices of `sound` on their way out that the mixer has not finished.
    pub(crate) fn fading_of(&self, sound: SoundId) -> usize {
        self.slots.leaving_of(sound.bank_key(), self.bank.shared())
    }

    /// Commands that can be sent before the mixer reads the queue again.
    pub(crate) fn queue_room(&mut self) -> usize {
        self.bank.room()
    }

    /// Sends a command that names no voice (the listener's); `false` if the
    /// queue was full.
    pub(crate) fn send(&mut self, command: Command) -> bool {
        self.bank.send(command).is_ok()
    }

    /// Sends `command` to the voice `key` if it is real: the command is built
    /// from its slot and ticket. Room was checked.
    pub(crate) fn tell(&mut self, key: VoiceKey, command: impl FnOnce(u32, u32) -> Command) {
        if let Some(Place::Real { slot, ticket }) = self.records.get(key).map(|v| v.place) {
            let _ = self.bank.send(command(slot, ticket));
        }
    }

    /// The mixer has not read the start of the real voice `key` yet: nothing of
    /// it has been heard.
    pub(crate) fn unread(&self, key: VoiceKey) -> bool {
        match self.records.get(key).map(|v| v.place) {
            Some(Place::Real { slot, ticket }) => {
                let status = self.bank.status(slot);
                status.ticket == ticket && status.phase == Phase::Queued
            }
            _ => false,
        }
    }

    /// Whether a sound may have more copies than its budget keeps (a real
    /// voice started since the last call gave it one more); cleared.
    pub(crate) fn take_crowding(&mut self) -> bool {
        std::mem::take(&mut self.crowding)
    }

    /// A crowded sound is left for the next update.
    pub(crate) fn keep_crowding(&mut self) {
        self.crowding = true;
    }

    /// The voices that ended by the last [`turn_reports`](Self::turn_reports).
    pub(crate) fn ended(&self) -> &[Ended] {
        self.reports.ended()
    }

    /// Ends not listed because the list of one update was full.
    pub(crate) fn unreported(&self) -> u64 {
        self.reports.unreported()
    }

    /// The voices that ended since the last turn become [`ended`](Self::ended).
    pub(crate) fn turn_reports(&mut self) {
        self.reports.turn();
    }

    /// The handle of `key` as the game sees it.
    pub(crate) fn handle(&self, key: VoiceKey) -> VoiceHandle {
        self.reports.handle(key)
    }

    /// A removed sound's samples (its voices were stopped): kept until the
    /// mixer can no longer hold them, then dropped by
    /// [`let_go`](Self::let_go).
    pub(crate) fn retire_sound(&mut self, key: u64, sources: impl Iterator<Item = Arc<Source>>) {
        // The read under way now may have missed the sound's last start; the
        // one after it cannot.
        let after = self.bank.drains() + 2;
        for source in sources {
            self.retiring.push(Retiring { key, after, source });
        }
    }

    /// Drops the removed sounds the mixer can no longer hold: it has read the
    /// command queue through since (no start of theirs is left in it) and no
    /// slot that played them is taken (each voice let go of its reference
    /// before the mixer said it was done, and a slot is free only once the
    /// game side has seen that).
    fn let_go(&mut self) {
        if self.retiring.is_empty() {
            return;
        }
        let drains = self.bank.drains();
        let slots = &self.slots;
        self.retiring
            .retain(|sound| drains < sound.after || slots.holds(sound.key));
    }

    /// Every sound reference the game side holds for the mixer's sake, handed
    /// to the bank as the game side goes (see `BankHandle::keep_until_dropped`).
    pub(crate) fn leave_with_bank(&mut self, sources: impl Iterator<Item = Arc<Source>>) {
        let retiring = self.retiring.drain(..).map(|sound| sound.source);
        let all: Vec<_> = sources.chain(retiring).collect();
        self.bank.keep_until_dropped(all.into_iter());
    }

    /// The next start order.
    /// The audio the bank has rendered, seconds.
    pub(crate) fn clock(&self) -> f64 {
        self.bank.shared().clock()
    }

    pub(crate) fn next_order(&mut self) -> u64 {
        let order = self.next_order;
        self.next_order += 1;
        order
    }

    /// A record for a new voice: a free one, or the least audible virtual
    /// voice's, which is reported [`EndReason::Dropped`] and returned as the
    /// second key. The record is `record()` from then on (built in place).
    #[inline]
    pub(crate) fn acquire(
        &mut self,
        record: impl FnOnce() -> VoiceRecord,
        sounds: &SoundTable,
    ) -> Result<(VoiceKey, Option<VoiceKey>), AcquireError> {
        let (acquired, slot) = self.records.try_acquire_detailed_mut()?;
        let key = acquired.handle;
        if let Some(dropped) = acquired.recycled {
            // The record comes back as it was (the pool has no hooks): it still
            // names the dropped voice's sound.
            self.reports
                .push(dropped, sounds.id_of(slot.sound), EndReason::Dropped);
        }
        *slot = record();
        Ok((key, acquired.recycled))
    }

    /// Gives a record back without a report (a play that did not happen).
    pub(crate) fn release(&mut self, key: VoiceKey) {
        let _ = self.records.release(key);
    }

    /// Ends the real voice `record` (known as `key`) as a real voice: the bank
    /// fades it out with `fade` (`None`: the mixer reported it over) and its
    /// slot is free once the mixer is done with it; its sound's copies no
    /// longer count it. Returns the slot and ticket it played on. The caller
    /// gives the record back, keeps it as a virtual voice, or reuses it. A
    /// virtual voice has nothing to end here.
    fn retire(
        slots: &mut Slots,
        bank: &mut BankHandle,
        sounds: &mut SoundTable,
        key: VoiceKey,
        record: &VoiceRecord,
        fade: Option<Tween>,
    ) -> Option<(u32, u32)> {
        let Place::Real { slot, ticket } = record.place else {
            return None;
        };
        if let Some(at) = slots.real.iter().position(|r| r.key == key) {
            slots.real.swap_remove(at);
        }
        sounds.forget_copy(record.sound, key);
        match fade {
            Some(fade) => {
                // Room was checked by the caller: the stop cannot be lost. Were
                // it lost, the slot would stay taken (its voice is in the mixer
                // and holds its sound) rather than free.
                let sent = bank.send(Command::Stop { slot, ticket, fade });
                debug_assert!(sent.is_ok(), "a stop sent without room");
                slots.release(slot, true);
            }
            // The mixer said it is over: nothing of it is left there.
            None => slots.release(slot, false),
        }
        Some((slot, ticket))
    }

    /// Stops a live voice with `fade` (the bank fades it out if it is real; the
    /// caller has made sure the queue has room), gives its record back and
    /// reports it ended for `reason`.
    pub(crate) fn end(
        &mut self,
        key: VoiceKey,
        fade: Tween,
        reason: EndReason,
        sounds: &mut SoundTable,
    ) {
        let Some(record) = self.records.get(key) else {
            return;
        };
        self.reports.push(key, sounds.id_of(record.sound), reason);
        Self::retire(
            &mut self.slots,
            &mut self.bank,
            sounds,
            key,
            record,
            Some(fade),
        );
        let _ = self.records.release(key);
    }

    /// A real voice goes virtual: the bank fades it out with `fade` and reports
    /// where it stopped; it keeps its handle and parameters.
    pub(crate) fn virtualize(
        &mut self,
        key: VoiceKey,
        (fade, why): (Tween, crate::voice_info::WhyVirtual),
        sounds: &mut SoundTable,
    ) {
        let Some(record) = self.records.get_mut(key) else {
            return;
        };
        record.why = Some(why);
        self.reports.moved(key, Some(why));
        Self::send_virtual(&mut self.slots, &mut self.bank, sounds, key, record, fade);
    }

    /// The real voice `record` (known as `key`) goes virtual: retired with
    /// `fade`, its playhead awaited from the mixer.
    fn send_virtual(
        slots: &mut Slots,
        bank: &mut BankHandle,
        sounds: &mut SoundTable,
        key: VoiceKey,
        record: &mut VoiceRecord,
        fade: Tween,
    ) {
        if let Some((slot, ticket)) = Self::retire(slots, bank, sounds, key, record, Some(fade)) {
            record.place = Place::Virtual(Playhead::Awaiting {
                slot,
                ticket,
                elapsed: 0.0,
            });
        }
    }

    /// Makes the record `key` real: a free slot of the bank, and the start
    /// command (at `begin`) carrying `source`, the sound's reference for the
    /// mixer (taken here if `None`). The caller has checked the caps, a free
    /// slot and the queue's room. Returns the real voices there are now.
    pub(crate) fn start_real(
        &mut self,
        key: VoiceKey,
        begin: Begin,
        sounds: &mut SoundTable,
        source: Option<Arc<Source>>,
    ) -> Result<usize, crate::PlayError> {
        let Self {
            records,
            slots,
            bank,
            ..
        } = self;
        let Some(record) = records.get_mut(key) else {
            return Err(crate::PlayError::Backend);
        };
        let Some(entry) = sounds.entry_mut(record.sound) else {
            return Err(crate::PlayError::Backend);
        };
        let route = Route::of(entry);
        let group = route.group;
        let Some(source) =
            source.or_else(|| Some(entry.recording(record.recording)?.source.clone()))
        else {
            return Err(crate::PlayError::Backend);
        };
        let Some((slot, ticket)) = slots.take(entry.id.bank_key()) else {
            return Err(crate::PlayError::NoFreeVoice);
        };
        record.place = Place::Real { slot, ticket };
        record.why = None;
        let start = Self::start(record, slot, ticket, source, begin, route);
        let order = record.order;
        bank.shared().queue(slot, ticket);
        if bank.send(start).is_err() {
            return Err(crate::PlayError::QueueFull);
        }
        entry.add_copy(key);
        self.crowding |= entry.crowded().is_some();
        slots.real.push(Real { key, order, group });
        Ok(slots.real.len())
    }

    /// The start of `record`, a voice of `source`, on `slot` as `ticket`.
    fn start(
        record: &VoiceRecord,
        slot: u32,
        ticket: u32,
        source: Arc<Source>,
        begin: Begin,
        route: Route,
    ) -> Command {
        let mut sends = route.sends;
        for (i, send) in sends.iter_mut().enumerate() {
            send.level = record.send_level(i).0;
        }
        Command::Start(Start {
            slot,
            ticket,
            source,
            volume: record.volume(),
            panning: record.panning,
            rate: record.rate(),
            position: record.position,
            spatial_blend: record.spatial_blend,
            distances: record.distances,
            begin,
            start_time: record.wait.start_time(),
            group: route.group.map_or(NO_GROUP, |g| g as u16),
            out: route.out,
            sends,
            zones: route.zones,
            loudness: record.loudness,
            velocity: record.cues.motion.velocity,
            doppler: record.cues.doppler,
            muffle: record.muffle(),
        })
    }

    /// A new play takes over `victim`, a real copy whose start the mixer has not
    /// read yet: the same slot plays the new one instead and the old handle goes
    /// stale (reported [`EndReason::Recycled`]). The new voice's record is
    /// `record(place, order)`, a play of the sound's `recording`. `None` if the mixer has read it meanwhile (the
    /// caller recycles it instead); the queue has room for one command.
    pub(crate) fn take_over(
        &mut self,
        victim: VoiceKey,
        recording: u16,
        record: impl FnOnce(Place, u64) -> VoiceRecord,
        sounds: &mut SoundTable,
    ) -> Option<Result<VoiceKey, crate::PlayError>> {
        let Some(&VoiceRecord {
            place: Place::Real { slot, ticket },
            sound,
            ..
        }) = self.records.get(victim)
        else {
            return None;
        };
        // Read before anything changes: a take-over either happens whole or not.
        let source = sounds.entry(sound)?.recording(recording)?.source.clone();
        let next = ticket.wrapping_add(1);
        if !self.bank.shared().replace(slot, ticket, next) {
            return None;
        }
        self.slots.renew(slot, next);
        // The same record under a new handle: the old one is stale.
        // (`renew` fails only when no slot index is left, after ~2^62 plays.)
        let Ok(key) = self.records.renew(victim) else {
            return Some(Err(crate::PlayError::NoFreeVoice));
        };
        self.reports
            .push(victim, sounds.id_of(sound), EndReason::Recycled);
        let order = self.next_order();
        if let Some(real) = self.slots.real.iter_mut().find(|r| r.key == victim) {
            real.key = key;
            real.order = order;
        }
        if let Some(entry) = sounds.entry_mut(sound) {
            // Newest now: last among its sound's copies.
            entry.forget_copy(victim);
            entry.add_copy(key);
        }
        let record = record(Place::Real { slot, ticket: next }, order);
        let route = sounds.entry(sound).map_or(Route::NONE, Route::of);
        // Room for one command was checked.
        let _ = self.bank.send(Self::start(
            &record,
            slot,
            next,
            source,
            Begin::Fresh,
            route,
        ));
        if let Some(slot_record) = self.records.get_mut(key) {
            *slot_record = record;
        }
        Some(Ok(key))
    }

    /// Stops every voice `which` picks with `fade`, reported
    /// [`EndReason::Stopped`] (or `reason`); the caller has made sure the queue
    /// has room for a stop per real voice picked (see
    /// [`count_real`](Self::count_real)).
    pub(crate) fn stop_where(
        &mut self,
        fade: Tween,
        reason: EndReason,
        sounds: &mut SoundTable,
        mut which: impl FnMut(&VoiceRecord) -> bool,
    ) {
        let (slots, bank, reports) = (&mut self.slots, &mut self.bank, &mut self.reports);
        self.records.reclaim(|key, record| {
            let stop = which(record);
            if stop {
                reports.push(key, sounds.id_of(record.sound), reason);
                Self::retire(slots, bank, sounds, key, record, Some(fade));
            }
            stop
        });
    }

    /// The real voices `which` picks.
    pub(crate) fn count_real(&self, mut which: impl FnMut(&VoiceRecord) -> bool) -> usize {
        self.slots
            .real
            .iter()
            .filter(|real| self.records.get(real.key).is_some_and(&mut which))
            .count()
    }

    /// Marks every live voice paused (or not) and sends each real one the
    /// command `command` builds; the caller has made sure the queue has room.
    pub(crate) fn mark_all(&mut self, paused: bool, command: impl Fn(u32, u32) -> Command) {
        let bank = &mut self.bank;
        self.records.for_each_mut(|_, record| {
            record.paused = paused;
            if let Place::Real { slot, ticket } = record.place {
                let _ = bank.send(command(slot, ticket));
            }
        });
    }

    /// What a voice is doing now: [`VoiceState::Gone`] for a stale key.
    /// Where the voice `key` is in its recording, in transport frames: as the
    /// mixer last said for a real voice, as followed here for a virtual one
    /// (`None` while that is not known yet).
    pub(crate) fn playhead(&self, key: VoiceKey) -> Option<f64> {
        match self.records.get(key)?.place {
            Place::Real { slot, ticket } => {
                let status = self.bank.status(slot);
                (status.ticket == ticket && status.phase != Phase::Queued)
                    .then(|| self.bank.shared().playhead(slot))
            }
            Place::Virtual(Playhead::At(at)) => Some(at),
            Place::Virtual(Playhead::Awaiting { .. }) => None,
        }
    }

    /// Lists the voices made virtual or real (for a capture), or stops.
    pub(crate) fn log_moves(&mut self, on: bool) {
        self.reports.log_moves(on);
    }

    /// The voice `key` was made real again (for a capture).
    pub(crate) fn promoted(&mut self, key: VoiceKey) {
        self.reports.moved(key, None);
    }

    /// Hands each voice made virtual (with why) or real again (`None`)
    /// since the last call to `f`; returns the moves the list had no room
    /// for.
    pub(crate) fn drain_moves(
        &mut self,
        f: impl FnMut(VoiceKey, Option<crate::voice_info::WhyVirtual>),
    ) -> u64 {
        self.reports.drain_moves(f)
    }

    pub(crate) fn state(&self, key: VoiceKey) -> VoiceState {
        let Some(record) = self.records.get(key) else {
            return VoiceState::Gone;
        };
        match (record.place, record.paused) {
            (Place::Virtual(_), false) => VoiceState::Virtual,
            (Place::Virtual(_), true) => VoiceState::Paused,
            (Place::Real { slot, ticket }, paused) => {
                let status = self.bank.status(slot);
                let phase = if status.ticket == ticket {
                    status.phase
                } else {
                    Phase::Queued
                };
                match (phase, paused) {
                    (Phase::Paused, _) => VoiceState::Paused,
                    (Phase::Pausing | Phase::Resuming, _) => VoiceState::Fading,
                    (_, true) => VoiceState::Fading,
                    _ => VoiceState::Real,
                }
            }
        }
    }
}

/// Where a sound's voices are mixed: its group (for the mix's gains), the out
/// of its bus, and its sends.
#[derive(Clone, Copy)]
struct Route {
    group: Option<u32>,
    out: u8,
    sends: crate::send::SendOuts,
    zones: bool,
}

impl Route {
    const NONE: Self = Self {
        group: None,
        out: 0,
        sends: [crate::send::SendOut {
            out: 0,
            level: 0.0,
            curve: None,
        }; crate::MAX_SENDS],
        zones: false,
    };

    fn of(entry: &crate::sound_table::SoundEntry) -> Self {
        Self {
            group: entry.settings.group.map(|g| g.index),
            out: entry.out,
            sends: entry.sends,
            zones: entry.settings.zones,
        }
    }
}

//! The voice bank: the real voices, inside kira's mixer.
//!
//! FMOD calls them channels, Wwise physical voices: a fixed set of voices that
//! live in the mixer, created once, each told by the game what to play next.
//! Nothing is created per play, so a play allocates nothing, starts in the next
//! block the mixer renders, and a steal crossfades in that same block; and the
//! playheads are the mixer's own.
//!
//! - The bank is one kira [`Sound`], added once to the sound-effects track. It
//!   holds twice the voice cap of [voices](voice): every real voice, and as many
//!   on their way out (stopped, stolen, virtualized, still fading).
//! - Each voice reads a sound's decoded samples, shared by all its voices (the
//!   [`Source`]: a mono sound handed over whole stored as its one channel, any
//!   other as kira's frames, shared), through kira's own interpolator (`kira::interpolate_frame`),
//!   with kira `Parameter`s and `Tween`s for its volume, playback rate, fades
//!   and copy level. Gains are computed every 16 frames (a third of a
//!   millisecond at 48 kHz) while anything fades and interpolated in between,
//!   so every fade is heard as a fade from its first sample, whatever its
//!   length; while nothing fades (every voice playing, no tween running), once
//!   a chunk of kira's (128 frames), where the gains move linearly anyway.
//! - The game sends [commands](Command) through a bounded, preallocated
//!   lock-free queue (rtrb), read at the start of every block; the bank reports
//!   back through atomics per slot ([`Shared`]): which voice is on the slot, its
//!   phase, and its playhead when it stopped.
//! - Copies of one sound share a budget, applied here at every sample (see
//!   `budget.rs`).
//! - The mixer never allocates and never frees. A voice holds a reference to
//!   its sound's samples, but never the last one: the game side keeps its own
//!   until the mixer can no longer hold one (after a removal: once the mixer
//!   has read the command queue through twice, so no start of the sound is left
//!   in it, and every slot that played the sound is free), and drops it then, on
//!   the game thread. If the game side goes first, it leaves its references
//!   with the bank, which kira drops on the game thread.

mod budget;
mod builder;
mod clocks;
mod command;
mod handle;
mod mix;
mod outs;
mod read;
mod sends;
mod shared;
mod sidechain;
mod source;
mod transport;
mod voice;
mod zones;

#[cfg(test)]
mod test;

use std::sync::Arc;
use std::time::Duration;

use kira::Frame;
use kira::info::Info;
use kira::sound::Sound;
use rtrb::Consumer;

pub(crate) use budget::{Budget, Settle};
pub(crate) use builder::BankBuilder;
pub(crate) use command::{Begin, Command, Start};
pub(crate) use handle::BankHandle;
pub(crate) use mix::{ALL, MixPart, NO_GROUP, SENDS};
pub(crate) use shared::{Phase, Shared};
pub(crate) use source::Source;

use crate::ears::ListenerState;
use budget::Room;
use clocks::Clocks;
use mix::MixGains;
use outs::Outs;
use sends::Routes;
use sidechain::SideChains;
use voice::{Change, State, Voice};
use zones::ZoneTable;

/// Frames between two computations of the gains (interpolated in between)
/// while nothing fades: every voice playing with no tween running, no voice
/// waiting to begin, no copy level, mix gain or send level moving. A whole
/// chunk of kira's (128 frames unless set otherwise): where the voices are
/// heard from moves linearly over a chunk, so longer steps hear the same.
const STEP: usize = 128;

/// Frames between two computations of the gains while anything fades: a
/// fade of a millisecond is heard as a fade, in steps of a third of one.
const FINE_STEP: usize = 16;

/// The long-lived kira sound that mixes every real voice.
pub(crate) struct VoiceBank {
    commands: Consumer<Command>,
    /// Reads of the whole command queue so far.
    drains: u64,
    shared: Arc<Shared>,
    voices: Box<[Voice]>,
    /// The voices that sound (begun, not yet over), by sound and then by the
    /// order they began: each sound's voices side by side, oldest first.
    order: Vec<u32>,
    /// Voices waiting for their start time.
    waiting: Vec<u32>,
    /// Where the clocks that voices wait for were at the last chunk's end.
    clocks: Clocks,
    listener: ListenerState,
    /// The listener moved since the last chunk.
    listener_moved: bool,
    steal_fade: Duration,
    /// The sounding voices changed: their copy levels are assigned again.
    relevel: bool,
    /// The gains of the groups' ducks, snapshots and loudness window.
    mix: MixGains,
    /// The buses' outs beside the bank's own output.
    outs: Outs,
    /// A step of a voice with sends, rendered once for its out and its sends.
    scratch: [Frame; STEP],
    /// Each slot's sends and zone weights, beside the voices.
    routes: Box<[Routes]>,
    /// Whether each slot's routes are read at all (see `Routes::wanted`).
    routed: Box<[bool]>,
    /// The zones voices send to by where they are.
    zones: ZoneTable,
    /// The side-chains, measuring their sources' outs.
    chains: SideChains,
    /// This chunk, no voice is routed or bused, no bus ring is in use and no
    /// side-chain listens: each step mixes every voice straight into the
    /// bank's output and skips the buses' work.
    plain: bool,
    /// The speed of sound, m/s, for doppler.
    speed: f64,
    /// Seconds rendered before the current step, and the time a voice that
    /// ends now is reported to end at (the end of the step under way, or the
    /// chunk's start while commands are read).
    clock: f64,
    now: f64,
}

impl VoiceBank {
    fn new(
        commands: Consumer<Command>,
        shared: Arc<Shared>,
        (steal_fade, speed): (Duration, f64),
        outs: Outs,
        chains: SideChains,
    ) -> Self {
        let slots = shared.slots();
        Self {
            commands,
            drains: 0,
            shared,
            voices: (0..slots).map(|_| Voice::idle()).collect(),
            order: Vec::with_capacity(slots),
            waiting: Vec::with_capacity(slots),
            clocks: Clocks::default(),
            listener: ListenerState::ORIGIN,
            listener_moved: false,
            steal_fade,
            relevel: false,
            mix: MixGains::new(),
            outs,
            scratch: [Frame::ZERO; STEP],
            routes: (0..slots).map(|_| Routes::NONE).collect(),
            routed: vec![false; slots].into_boxed_slice(),
            zones: ZoneTable::new(),
            chains,
            plain: true,
            speed,
            clock: 0.0,
            now: 0.0,
        }
    }

    /// The voice on `slot` if it is `ticket`'s.
    fn voice(&mut self, slot: u32, ticket: u32) -> Option<&mut Voice> {
        self.voices
            .get_mut(slot as usize)
            .filter(|v| v.ticket == ticket && v.state != State::Idle)
    }

    fn apply(&mut self, command: Command) {
        match command {
            Command::Start(start) => self.start(start),
            Command::Stop { slot, ticket, fade } => self.stop(slot, ticket, fade),
            Command::Pause { slot, ticket, fade } => {
                if let Some(voice) = self.voice(slot, ticket) {
                    voice.pause(fade);
                    let phase = voice.state.phase();
                    self.shared.publish(slot, ticket, phase);
                }
            }
            Command::Resume { slot, ticket, fade } => {
                if let Some(voice) = self.voice(slot, ticket) {
                    let change = voice.resume(fade);
                    let phase = voice.state.phase();
                    self.shared.publish(slot, ticket, phase);
                    if change == Change::Began {
                        self.waiting.retain(|s| *s != slot);
                        self.begin(slot);
                    }
                }
            }
            Command::SetListener(position) => {
                self.listener.position = position;
                self.listener_moved = true;
            }
            Command::SetListenerVelocity(velocity) => {
                self.listener.velocity = velocity;
                self.listener_moved = true;
            }
            Command::SetListenerOrientation(orientation) => {
                self.listener.orientation = orientation;
                self.listener_moved = true;
            }
            Command::SetMix {
                entry,
                part,
                from,
                db,
                tween,
            } => self.mix.set(entry, part, from, db, tween),
            Command::SetBudget {
                sound,
                budget,
                fade,
            } => {
                for voice in self.voices.iter_mut().filter(|v| v.sound == sound) {
                    if voice.budget.is_some() {
                        voice.budget = Some(budget);
                        voice.reramp = Some(fade);
                    }
                }
                self.relevel = true;
            }
            parameter => self.set(parameter),
        }
    }

    /// The voice `ticket` on `slot` fades out and ends; its playhead is
    /// reported now.
    fn stop(&mut self, slot: u32, ticket: u32, fade: kira::Tween) {
        let Some(voice) = self.voice(slot, ticket) else {
            return;
        };
        let playhead = voice.playhead();
        let over = voice.stop(fade);
        self.shared.record_stop(slot, playhead);
        if over {
            self.end(slot);
        } else {
            self.shared.publish(slot, ticket, Phase::Stopping);
            self.relevel = true;
        }
    }

    /// A command that sets one of a voice's parameters.
    fn set(&mut self, command: Command) {
        match command {
            Command::SetVolume {
                slot,
                ticket,
                volume,
                fade,
            } => {
                if let Some(voice) = self.voice(slot, ticket) {
                    voice.set_volume(volume, fade);
                }
            }
            Command::SetPlaybackRate {
                slot,
                ticket,
                rate,
                fade,
            } => {
                if let Some(voice) = self.voice(slot, ticket) {
                    voice.set_playback_rate(rate, fade);
                }
            }
            Command::SetPanning {
                slot,
                ticket,
                panning,
                fade,
            } => {
                if let Some(voice) = self.voice(slot, ticket) {
                    voice.set_panning(panning, fade);
                }
            }
            Command::SetPosition {
                slot,
                ticket,
                position,
            } => {
                if let Some(voice) = self.voice(slot, ticket) {
                    voice.set_position(position);
                }
            }
            Command::SetVelocity {
                slot,
                ticket,
                velocity,
            } => {
                if let Some(voice) = self.voice(slot, ticket) {
                    voice.set_velocity(velocity);
                }
            }
            Command::SetMuffle {
                slot,
                ticket,
                gain,
                cutoff,
            } => {
                if let Some(voice) = self.voice(slot, ticket) {
                    voice.set_muffle(gain, cutoff);
                }
            }
            Command::SetZone { index, zone } => self.zones.set(index, zone),
            Command::AddSideChain(chain) => self.chains.add(chain),
            Command::SetSend {
                slot,
                ticket,
                index,
                level,
                tween,
            } if self.voice(slot, ticket).is_some() => {
                self.routes[slot as usize].sends.set(index, level, tween);
            }
            _ => {}
        }
    }

    fn start(&mut self, start: Start) {
        let (slot, ticket, sound) = (start.slot, start.ticket, start.source.key);
        // A start the game replaced by a newer one is never played. (Its phase
        // is published once it has started.)
        if slot as usize >= self.voices.len() || !self.shared.claim(slot, ticket, Phase::Playing) {
            return;
        }
        if self.voices[slot as usize].state != State::Idle {
            self.forget(slot);
        }
        let (listener, steal_fade) = (self.listener, self.steal_fade);
        let routes = Routes::start(&start.sends, start.zones);
        let voice = &mut self.voices[slot as usize];
        let change = voice.start(start, listener, (steal_fade, self.speed));
        let at = (voice.position(), listener.position);
        let (fresh, at_slot) = (voice.fresh, slot as usize);
        self.routes[at_slot] = routes;
        self.routed[at_slot] = self.routes[at_slot].wanted(&self.zones);
        if self.routed[at_slot] {
            self.routes[at_slot].aim(at, (true, fresh), &self.zones);
        }
        // A new copy hurries its sound's copies on their way out.
        for &other in &self.order {
            let voice = &mut self.voices[other as usize];
            if voice.sound == sound {
                voice.hurry(steal_fade);
            }
        }
        let phase = self.voices[slot as usize].state.phase();
        self.shared.publish(slot, ticket, phase);
        match change {
            Change::Began => self.begin(slot),
            _ => self.waiting.push(slot),
        }
    }

    /// `slot` begins to sound: the newest of its sound.
    fn begin(&mut self, slot: u32) {
        let voices = &mut self.voices;
        let sound = voices[slot as usize].sound;
        let at = self
            .order
            .partition_point(|other| voices[*other as usize].sound <= sound);
        self.order.insert(at, slot);
        self.relevel = true;
    }

    /// Takes `slot` off the lists (its voice is replaced or over).
    fn forget(&mut self, slot: u32) {
        self.order.retain(|s| *s != slot);
        self.waiting.retain(|s| *s != slot);
        self.relevel = true;
    }

    /// The voice on `slot` is over: its slot is free.
    fn end(&mut self, slot: u32) {
        self.end_at(slot, self.now);
    }

    /// The voice on `slot` is over, reported ended at `seconds` on the
    /// bank's clock: its slot is free.
    fn end_at(&mut self, slot: u32, seconds: f64) {
        self.forget(slot);
        let voice = &mut self.voices[slot as usize];
        let ticket = voice.ticket;
        voice.clear();
        self.shared.record_end(slot, seconds);
        self.shared.publish(slot, ticket, Phase::Done);
    }

    /// The end of the run of voices of one sound that starts at `first` in
    /// `order`.
    fn run_end(&self, first: usize) -> usize {
        let sound = self.voices[self.order[first] as usize].sound;
        let mut end = first + 1;
        while end < self.order.len() && self.voices[self.order[end] as usize].sound == sound {
            end += 1;
        }
        end
    }

    /// Assigns every sounding voice its copy level: newest first per sound, as
    /// its onset level (if not heard yet) and the level it settles to.
    fn relevel(&mut self) {
        let mut first = 0;
        while first < self.order.len() {
            let end = self.run_end(first);
            let mut settle = Settle::default();
            for i in (first..end).rev() {
                let voice = &mut self.voices[self.order[i] as usize];
                let Some(budget) = voice.budget else {
                    continue;
                };
                let leaving = voice.state == State::Stopping;
                let (onset, settled) = settle.next(&budget, leaving);
                if !leaving {
                    let ramp = voice.reramp.take().unwrap_or(self.steal_fade);
                    voice.level(onset, settled, ramp);
                } else if voice.fresh {
                    // Stopped before it was heard (a copy of a burst that
                    // its budget does not keep): it starts at its onset and
                    // its stop fades it out.
                    voice.level(onset, onset, self.steal_fade);
                }
            }
            first = end;
        }
        self.relevel = false;
    }

    /// Shares each sound's budget among its voices, oldest first, at the start
    /// and the end of this step.
    fn share_room(&mut self) {
        let mut first = 0;
        while first < self.order.len() {
            let end = self.run_end(first);
            let (mut from, mut to) = (Room::default(), Room::default());
            for i in first..end {
                let voice = &mut self.voices[self.order[i] as usize];
                let Some(budget) = voice.budget else {
                    continue;
                };
                let start = if voice.fresh {
                    voice.wanted_at_onset()
                } else {
                    voice.weight
                };
                voice.weight_from = from.take(&budget, start);
                voice.weight = to.take(&budget, voice.wanted());
            }
            first = end;
        }
    }

    /// Nothing fades in the step about to render (see [`STEP`]): its gains
    /// and rates move linearly, however long it is.
    fn steady(&self) -> bool {
        self.waiting.is_empty()
            && !self.relevel
            && !self.mix.moving()
            && self.order.iter().all(|&slot| {
                let slot = slot as usize;
                self.voices[slot].steady() && !(self.routed[slot] && self.routes[slot].moving())
            })
    }

    /// One step of `out.len()` frames (at most [`STEP`]), at `along` of the chunk.
    fn step(&mut self, out: &mut [Frame], dt: f64, along: f32, info: &Info) {
        let seconds = dt * out.len() as f64;
        self.now = self.clock + seconds;
        let mut i = 0;
        while i < self.waiting.len() {
            let slot = self.waiting[i];
            match self.voices[slot as usize].wait(out.len(), dt, info) {
                Change::Began => {
                    self.waiting.swap_remove(i);
                    let voice = &self.voices[slot as usize];
                    self.shared.publish(slot, voice.ticket, voice.state.phase());
                    self.begin(slot);
                }
                Change::Ended => {
                    self.waiting.swap_remove(i);
                    self.end(slot);
                }
                Change::None => i += 1,
            }
        }
        if self.relevel {
            self.relevel();
        }
        let plain = self.plain;
        for &slot in &self.order {
            self.voices[slot as usize].update(seconds, info);
            if !plain && self.routed[slot as usize] {
                self.routes[slot as usize].sends.update(seconds, info);
            }
        }
        self.share_room();
        self.mix.update(seconds, info);
        let mut ended = false;
        for &slot in &self.order {
            let voice = &mut self.voices[slot as usize];
            let before = voice.state;
            let gain = self.mix.gain(voice.group);
            let change = if plain {
                voice.render(out, along, dt, gain)
            } else {
                let routes = self.routed[slot as usize].then(|| &mut self.routes[slot as usize]);
                let mixing = (&mut self.outs, &mut self.scratch, (&self.zones, &self.mix));
                render_voice((voice, routes), mixing, out, (along, dt, gain))
            };
            match change {
                Change::Ended => {
                    // A stopped voice reported its playhead when it was stopped.
                    if before != State::Stopping {
                        self.shared.record_stop(slot, voice.playhead());
                    }
                    ended = true;
                }
                _ if voice.state != before => {
                    self.shared.publish(slot, voice.ticket, voice.state.phase());
                }
                _ => {}
            }
        }
        if !plain {
            let (outs, len) = (&self.outs, out.len());
            self.chains.measure(seconds, |o| outs.step(o, len));
            self.outs.flush(len);
        }
        if ended {
            self.end_ended(dt, out.len());
        }
        self.clock = self.now;
    }

    /// Frees the slots whose voices ended in the step of `len` frames.
    fn end_ended(&mut self, dt: f64, len: usize) {
        let mut i = 0;
        while i < self.order.len() {
            let slot = self.order[i];
            let voice = &self.voices[slot as usize];
            if voice.state == State::Idle {
                // Its sound ended this many frames into the step (a stop's
                // fade ends with the step).
                let frames = if voice.ended_in > 0 {
                    voice.ended_in
                } else {
                    len
                };
                self.end_at(slot, self.clock + dt * frames as f64);
            } else {
                i += 1;
            }
        }
    }
}

/// Renders `voice`'s step into its out (`out`, the bank's own, or a bus's),
/// and, if it has sends, once into `scratch` and from there into its out and
/// each send's.
#[inline]
fn render_voice(
    (voice, routes): (&mut Voice, Option<&mut Routes>),
    (outs, scratch, (zones, mix)): (&mut Outs, &mut [Frame; STEP], (&ZoneTable, &MixGains)),
    out: &mut [Frame],
    (along, dt, gain): (f32, f64, f32),
) -> Change {
    let routes = match routes {
        Some(routes) if !routes.is_empty() => routes,
        _ => return voice.render(outs.target(voice.out, out), along, dt, gain),
    };
    let scratch = &mut scratch[..out.len()];
    scratch.fill(Frame::ZERO);
    let change = voice.render(scratch, along, dt, gain);
    for (o, s) in outs.target(voice.out, out).iter_mut().zip(&*scratch) {
        *o += *s;
    }
    routes.sends.mix(scratch, along, mix, (outs, out));
    if routes.zones.heard {
        routes.zones.mix(scratch, along, (zones, mix), (outs, out));
    }
    change
}

impl Sound for VoiceBank {
    fn on_start_processing(&mut self) {
        self.now = self.clock;
        while let Ok(command) = self.commands.pop() {
            self.apply(command);
        }
        self.drains += 1;
        self.shared.drained(self.drains);
    }

    fn process(&mut self, out: &mut [Frame], dt: f64, info: &Info) {
        out.fill(Frame::ZERO);
        self.clocks
            .chunk(out.len(), info, &self.waiting, &mut self.voices);
        let (listener, moved) = (self.listener, self.listener_moved);
        self.listener_moved = false;
        let mut plain = self.chains.is_empty() && !self.outs.active();
        for &slot in &self.order {
            let (slot, voice) = (slot as usize, &mut self.voices[slot as usize]);
            let weigh = voice.aim(listener, moved, self.speed);
            if self.zones.changed {
                self.routed[slot] = self.routes[slot].wanted(&self.zones);
            }
            if self.routed[slot] {
                let at = (voice.position(), listener.position);
                self.routes[slot].aim(at, (weigh, voice.fresh), &self.zones);
            }
            plain &= !self.routed[slot] && voice.out == 0;
        }
        // A voice waiting for its start time begins within the chunk.
        let (voices, routed) = (&self.voices, &self.routed);
        self.plain = plain
            && (self.waiting.iter()).all(|&s| !routed[s as usize] && voices[s as usize].out == 0);
        self.zones.changed = false;
        let n = out.len();
        let mut at = 0;
        while at < n {
            let len = if self.steady() { STEP } else { FINE_STEP }.min(n - at);
            let along = (at + len) as f32 / n as f32;
            self.step(&mut out[at..at + len], dt, along, info);
            at += len;
        }
        for &slot in &self.order {
            let playhead = self.voices[slot as usize].playhead();
            self.shared.record_playhead(slot, playhead);
        }
        self.shared.set_clock(self.clock);
        self.zones.settle();
        if !self.chains.is_empty() {
            self.chains.publish();
        }
    }

    fn finished(&self) -> bool {
        !self.shared.alive()
    }
}

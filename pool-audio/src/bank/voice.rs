//! One voice of the bank: a playhead in a shared sound, read through kira's
//! 4-point interpolator, with kira `Parameter`s for its volume, playback rate,
//! fades and copy level. Created once with the bank, started and stopped by
//! commands, forever.

use std::sync::Arc;
use std::time::Duration;

use kira::info::{Info, WhenToStart};
use kira::{Decibels, Frame, Panning, Parameter, PlaybackRate, StartTime, Tween, Value};

use super::budget::Budget;
use super::command::{Begin, Start};
use super::read::{Gains, Reader};
use super::shared::Phase;
use super::source::Source;
use super::transport::Transport;
use crate::cues::{MUFFLE_FADE, doppler_factor, one_pole};
use crate::ears::{ListenerState, spatial_gains};
use crate::params::linear_fade;
use crate::{MAX_PLAYBACK_RATE, MIN_PLAYBACK_RATE};

/// What a voice is doing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum State {
    /// No voice on this slot.
    Idle,
    /// Started, waiting for its start time (the sound's own delay or clock time).
    Waiting(Wait),
    Playing,
    /// Fading out towards a pause.
    Pausing,
    Paused,
    /// Fading back in from a pause or a start.
    Resuming,
    /// Fading out towards its end.
    Stopping,
}

impl State {
    /// Its playhead moves and it is heard.
    fn advancing(self) -> bool {
        matches!(
            self,
            Self::Playing | Self::Pausing | Self::Resuming | Self::Stopping
        )
    }

    pub(super) fn phase(self) -> Phase {
        match self {
            Self::Idle => Phase::Done,
            Self::Waiting(_) => Phase::Waiting,
            Self::Playing => Phase::Playing,
            Self::Pausing => Phase::Pausing,
            Self::Paused => Phase::Paused,
            Self::Resuming => Phase::Resuming,
            Self::Stopping => Phase::Stopping,
        }
    }
}

/// What a voice waits for before it begins.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Wait {
    /// This many seconds from the start of the next step (its first).
    Seconds(f64),
    /// This many frames from the start of the next step.
    Frames(u64),
    /// A kira clock to reach this time (turned into frames by the bank in
    /// the chunk the clock reaches it).
    Clock(kira::clock::ClockTime),
}

/// What a step of a voice changed, for the bank's lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Change {
    None,
    /// It left [`State::Waiting`]: it sounds from now on.
    Began,
    /// Over: the slot is free.
    Ended,
}

/// Where a voice of `source` starting at `begin` is: the transport frame and
/// the fraction towards the next (in its direction). A voice resumed at a
/// playhead begins on the whole frame it would be at or last was (less than a
/// frame back, under its fade-in): the playhead was moved on by the game's
/// clock, whose frames rarely come out whole, and a voice at rate 1 with no
/// fraction reads its frames as they lie, at half the cost of interpolating
/// them (see `read.rs`).
fn begin_at(source: &Source, begin: Begin) -> (usize, f64) {
    match begin {
        Begin::Fresh | Begin::FromStart => (source.start(), 0.0),
        Begin::At(playhead) => {
            let playhead = playhead.max(0.0);
            let position = if source.reverse() {
                playhead.ceil()
            } else {
                playhead.floor()
            };
            (position as usize, 0.0)
        }
    }
}

/// How long a tween runs before it has reached its value, in seconds.
fn length(tween: Tween) -> f64 {
    let delay = match tween.start_time {
        StartTime::Delayed(delay) => delay.as_secs_f64(),
        _ => 0.0,
    };
    delay + tween.duration.as_secs_f64()
}

fn fixed<T: kira::Tweenable>(value: T) -> Parameter<T> {
    Parameter::new(Value::Fixed(value), value)
}

/// The bits of `Voice::moving`, a parameter each.
const VOLUME: u8 = 1;
const RATE: u8 = 2;
const PANNING: u8 = 4;
const COPY: u8 = 8;
const FADE: u8 = 16;
const MUFFLE: u8 = 32;
const COEF: u8 = 64;

pub(super) struct Voice {
    pub(super) ticket: u32,
    pub(super) state: State,
    /// Its source's key, shared by the voices of one budget.
    pub(super) sound: u64,
    pub(super) source: Option<Arc<Source>>,
    /// Its sound's budget: its source's, until a reload changes the sound
    /// (`Command::SetBudget`).
    pub(super) budget: Option<Budget>,
    /// The ramp its copy level takes at the next relevel instead of the
    /// steal fade (a reload's fade).
    pub(super) reramp: Option<Duration>,
    // The playhead: the four frames kira's interpolator reads, their transport
    // positions, and the fraction between the second and the third.
    ring: [Frame; 4],
    ring_at: [usize; 4],
    transport: Transport,
    fraction: f64,
    /// Frames of sound left in the ring once the transport has stopped.
    until_empty: u8,
    volume: Parameter<Decibels>,
    rate: Parameter<PlaybackRate>,
    /// Which parameters are tweening (a bit each, [`VOLUME`] to [`FADE`]): a
    /// parameter set to a fixed value is still once its tween is over (kira
    /// stops updating it then too), so a step skips it.
    moving: u8,
    /// Start, pause, resume and stop fades: an amplitude in `[0, 1]`.
    fade: Parameter<f64>,
    /// `fade` has reached its value (kira's parameter says so).
    faded: bool,
    /// Seconds until `fade` should reach its value: a stop fade longer than the
    /// steal fade is hurried when another copy of the sound starts.
    fade_left: f64,
    /// Its copy level (see `budget.rs`) and where that level is heading.
    copy: Parameter<f64>,
    pub(super) settled: f32,
    /// Its level as it starts, until it has been heard.
    pub(super) onset: f32,
    /// Nothing of it has been rendered yet.
    pub(super) fresh: bool,
    panning: Parameter<Panning>,
    /// Each channel's gain from the panning (see `Source::pan`), for `pan_at`.
    pan: [f32; 2],
    pan_at: f32,
    position: Option<[f32; 3]>,
    spatial_blend: f32,
    distances: crate::Distances,
    /// Per-channel gains from where it is: at the start of the mixer's current
    /// chunk and at its end.
    spatial_from: [f32; 2],
    spatial: [f32; 2],
    /// Its share of the budget at the start and end of the current step.
    pub(super) weight_from: f32,
    pub(super) weight: f32,
    /// Per-channel gain and playback rate at the end of the last step rendered.
    gain: [f32; 2],
    rate_was: f64,
    /// Its group's mix entry (see `mix.rs`).
    pub(super) group: u16,
    /// Where it is mixed (see `outs.rs`).
    pub(super) out: u8,
    /// Its loudness in the window, an amplitude.
    loudness: f32,
    /// It moved since the mixer's last chunk: its spatial gains and doppler
    /// are aimed again at the next.
    moved: bool,
    /// Its velocity (m/s) and its sound's doppler scale (0: off).
    velocity: [f32; 3],
    doppler_scale: f32,
    /// The doppler factor at the start of the mixer's current chunk and at its end.
    doppler_from: f64,
    doppler: f64,
    /// Obstruction and occlusion's volume, an amplitude.
    muffle: Parameter<f64>,
    /// Their cutoff (Hz), and the one-pole coefficient heading for it (1: no
    /// filter); `coef_due` until the coefficient is set for the cutoff.
    cutoff: Option<f32>,
    coef: Parameter<f64>,
    coef_due: bool,
    /// The coefficient at the end of the last step rendered.
    coef_was: f32,
    /// The low-pass filter's memory, per channel.
    memory: [f32; 2],
    /// How many frames into the step it last rendered its sound ended.
    pub(super) ended_in: usize,
    /// Frames of silence before it begins, in the first step it renders: a
    /// start time lands on its frame, not on a step's start.
    lead: usize,
}

impl Voice {
    pub(super) fn idle() -> Self {
        Self {
            ticket: 0,
            state: State::Idle,
            sound: 0,
            source: None,
            budget: None,
            reramp: None,
            ring: [Frame::ZERO; 4],
            ring_at: [0; 4],
            transport: Transport {
                position: 0,
                loop_region: None,
                reverse: false,
                frames: 0,
                playing: false,
            },
            fraction: 0.0,
            until_empty: 0,
            volume: fixed(Decibels::IDENTITY),
            rate: fixed(PlaybackRate(1.0)),
            fade: fixed(1.0),
            faded: true,
            fade_left: 0.0,
            copy: fixed(0.0),
            settled: 0.0,
            onset: 0.0,
            fresh: true,
            panning: fixed(Panning::CENTER),
            moving: 0,
            pan: [1.0, 1.0],
            pan_at: 0.0,
            position: None,
            spatial_blend: 1.0,
            distances: crate::Distances::default(),
            spatial_from: [1.0, 1.0],
            spatial: [1.0, 1.0],
            weight_from: 0.0,
            weight: 0.0,
            gain: [0.0; 2],
            rate_was: 1.0,
            group: super::NO_GROUP,
            out: 0,
            loudness: 1.0,
            moved: false,
            velocity: [0.0; 3],
            doppler_scale: 0.0,
            doppler_from: 1.0,
            doppler: 1.0,
            muffle: fixed(1.0),
            cutoff: None,
            coef: fixed(1.0),
            coef_due: false,
            coef_was: 1.0,
            memory: [0.0; 2],
            ended_in: 0,
            lead: 0,
        }
    }

    /// Starts `start` on this slot; heard from `listener` if positioned.
    pub(super) fn start(
        &mut self,
        start: Start,
        listener: ListenerState,
        (steal_fade, speed): (Duration, f64),
    ) -> Change {
        let source = start.source;
        let (position, fraction) = begin_at(&source, start.begin);
        let transport = source.transport(position);
        // kira starts a sound with one silent frame before its first; a voice
        // resumed in the middle reads the frame it would have read.
        let before = match start.begin {
            Begin::At(_) => transport
                .before(position)
                .and_then(|at| source.frame(at))
                .unwrap_or_default(),
            _ => Frame::ZERO,
        };
        let fade_in = match start.begin {
            Begin::Fresh => source.fade_in,
            Begin::FromStart | Begin::At(_) => Some(linear_fade(steal_fade)),
        };
        let state = match (start.begin, start.start_time) {
            (Begin::Fresh, StartTime::Delayed(delay)) if !delay.is_zero() => {
                State::Waiting(Wait::Seconds(delay.as_secs_f64()))
            }
            (Begin::Fresh, StartTime::ClockTime(time)) => State::Waiting(Wait::Clock(time)),
            _ if fade_in.is_some() => State::Resuming,
            _ => State::Playing,
        };
        *self = Self {
            ticket: start.ticket,
            state,
            sound: source.key,
            budget: Some(source.budget),
            ring: [Frame::ZERO, Frame::ZERO, Frame::ZERO, before],
            ring_at: [position; 4],
            transport,
            fraction,
            volume: fixed(crate::level::kira_volume(start.volume)),
            rate: fixed(PlaybackRate(start.rate)),
            panning: fixed(Panning(start.panning)),
            pan: source.pan(start.panning),
            pan_at: start.panning,
            position: start.position,
            spatial_blend: start.spatial_blend,
            distances: start.distances,
            rate_was: start.rate,
            group: start.group,
            out: start.out,
            loudness: start.loudness,
            velocity: start.velocity,
            doppler_scale: start.doppler,
            muffle: fixed(f64::from(start.muffle.0)),
            cutoff: start.muffle.1,
            coef_due: start.muffle.1.is_some(),
            ..Self::idle()
        };
        if let Some(tween) = fade_in {
            self.fade = fixed(0.0);
            self.fade_to(1.0, tween);
        }
        for _ in 0..3 {
            self.push(&source);
        }
        self.source = Some(source);
        self.aim(listener, true, speed);
        if matches!(self.state, State::Waiting(_)) {
            Change::None
        } else {
            Change::Began
        }
    }

    fn fade_to(&mut self, value: f64, tween: Tween) {
        self.fade.set(Value::Fixed(value), tween);
        self.moving |= FADE;
        self.faded = false;
        self.fade_left = length(tween);
    }

    /// Fades out and ends; `true` if it ends at once (it was silent).
    pub(super) fn stop(&mut self, fade: Tween) -> bool {
        match self.state {
            State::Idle => true,
            State::Waiting(_) | State::Paused => {
                self.state = State::Idle;
                true
            }
            _ => {
                self.state = State::Stopping;
                self.fade_to(0.0, fade);
                false
            }
        }
    }

    /// A stop fade longer than `steal_fade` is cut short to it, from where it is.
    pub(super) fn hurry(&mut self, steal_fade: Duration) {
        if self.state == State::Stopping && self.fade_left > steal_fade.as_secs_f64() {
            self.fade_to(0.0, linear_fade(steal_fade));
        }
    }

    pub(super) fn pause(&mut self, fade: Tween) {
        match self.state {
            State::Playing | State::Resuming => {
                self.state = State::Pausing;
                self.fade_to(0.0, fade);
            }
            // Paused before it began: it begins when resumed.
            State::Waiting(_) => self.state = State::Paused,
            _ => {}
        }
    }

    /// Resumes; [`Change::Began`] if it had been paused before it began.
    pub(super) fn resume(&mut self, fade: Tween) -> Change {
        let began = match self.state {
            State::Pausing => Change::None,
            State::Paused if self.fresh => Change::Began,
            State::Paused => Change::None,
            _ => return Change::None,
        };
        self.state = State::Resuming;
        self.fade_to(1.0, fade);
        began
    }

    pub(super) fn set_volume(&mut self, volume: Decibels, fade: Tween) {
        self.volume.set(Value::Fixed(volume), fade);
        self.moving |= VOLUME;
    }

    pub(super) fn set_playback_rate(&mut self, rate: f64, fade: Tween) {
        self.rate.set(Value::Fixed(PlaybackRate(rate)), fade);
        self.moving |= RATE;
    }

    pub(super) fn set_panning(&mut self, panning: f32, fade: Tween) {
        self.panning.set(Value::Fixed(Panning(panning)), fade);
        self.moving |= PANNING;
    }

    pub(super) fn set_position(&mut self, position: [f32; 3]) {
        self.position = Some(position);
        self.moved = true;
    }

    pub(super) fn set_velocity(&mut self, velocity: [f32; 3]) {
        self.velocity = velocity;
        self.moved = true;
    }

    /// Obstruction and occlusion's volume (an amplitude) and cutoff, reached
    /// over [`MUFFLE_FADE`].
    pub(super) fn set_muffle(&mut self, gain: f32, cutoff: Option<f32>) {
        self.muffle
            .set(Value::Fixed(f64::from(gain)), linear_fade(MUFFLE_FADE));
        self.moving |= MUFFLE;
        self.cutoff = cutoff;
        self.coef_due = true;
    }

    /// Heads the filter's coefficient for its cutoff at a frame duration of
    /// `dt`: at once if nothing of it has been heard yet, else over
    /// [`MUFFLE_FADE`]. A filter that was off starts with an empty memory
    /// (at a coefficient of 1, where it starts, the memory is not heard).
    fn tune(&mut self, dt: f64) {
        let target = one_pole(self.cutoff.map(f64::from), dt);
        if self.fresh {
            self.coef = fixed(target);
            self.coef_was = target as f32;
        } else {
            if self.coef_was >= 1.0 && self.coef.value() >= 1.0 {
                self.memory = [0.0; 2];
            }
            self.coef
                .set(Value::Fixed(target), linear_fade(MUFFLE_FADE));
            self.moving |= COEF;
        }
        self.coef_due = false;
    }

    /// Its copy level: `onset` at once if nothing of it has been heard yet, and
    /// towards `settled` over `ramp_time`.
    pub(super) fn level(&mut self, onset: f32, settled: f32, ramp_time: Duration) {
        if self.fresh {
            self.onset = onset;
            self.copy = fixed(f64::from(onset));
            self.moving &= !COPY;
            self.settled = onset;
        }
        if settled != self.settled {
            self.copy
                .set(Value::Fixed(f64::from(settled)), linear_fade(ramp_time));
            self.moving |= COPY;
            self.settled = settled;
        }
    }

    /// Where the mixer's next chunk heads the spatial gains and the doppler
    /// factor: from where the last chunk left them towards what is heard from
    /// `listener` (if it `moved`, or the voice did), where sound travels at
    /// `speed`; at once, for a voice not heard yet.
    /// Returns whether it or the listener moved (its sends and zones weigh
    /// it again then).
    pub(super) fn aim(&mut self, listener: ListenerState, moved: bool, speed: f64) -> bool {
        self.spatial_from = self.spatial;
        self.doppler_from = self.doppler;
        if (moved || self.moved)
            && let Some(position) = self.position
        {
            let blend = (self.spatial_blend, &self.distances);
            self.spatial = spatial_gains(position, blend, listener);
            if self.doppler_scale != 0.0 {
                self.doppler = doppler_factor(
                    (position, self.velocity),
                    (listener.position, listener.velocity),
                    f64::from(self.doppler_scale),
                    speed,
                );
            }
            if self.fresh {
                self.spatial_from = self.spatial;
                self.doppler_from = self.doppler;
            }
        }
        let weigh = moved || self.moved;
        self.moved = false;
        weigh
    }

    /// Where it is (`None`: at the listener).
    pub(super) fn position(&self) -> Option<[f32; 3]> {
        self.position
    }

    /// A waiting voice through a step of `frames` frames of `dt` seconds:
    /// [`Change::Began`] if its start time falls in it (it begins on that
    /// frame), [`Change::Ended`] if its clock is gone.
    pub(super) fn wait(&mut self, frames: usize, dt: f64, info: &Info) -> Change {
        let State::Waiting(wait) = &mut self.state else {
            return Change::None;
        };
        if let Wait::Seconds(left) = *wait {
            *wait = Wait::Frames((left / dt).round().max(0.0) as u64);
        }
        match wait {
            Wait::Frames(left) if *left < frames as u64 => self.lead = *left as usize,
            Wait::Frames(left) => {
                *left -= frames as u64;
                return Change::None;
            }
            Wait::Clock(time) => {
                if info.when_to_start(*time) == WhenToStart::Never {
                    self.state = State::Idle;
                    return Change::Ended;
                }
                return Change::None;
            }
            Wait::Seconds(_) => return Change::None,
        }
        self.state = if self.faded {
            State::Playing
        } else {
            State::Resuming
        };
        Change::Began
    }

    /// A voice waiting for `time` on a clock the bank has found it at
    /// (`frames` into this chunk) waits that many frames instead.
    pub(super) fn clock_reached(&mut self, frames: u64) {
        if let State::Waiting(wait @ Wait::Clock(_)) = &mut self.state {
            *wait = Wait::Frames(frames);
        }
    }

    /// Moves on by `seconds` (a step of the mixer): every parameter, and the
    /// end of a fade.
    pub(super) fn update(&mut self, seconds: f64, info: &Info) {
        if self.moving != 0 {
            self.update_moving(seconds, info);
        }
        self.fade_left = (self.fade_left - seconds).max(0.0);
    }

    /// Playing, with no parameter tweening and no fade: its gains move
    /// linearly over a step of any length.
    pub(super) fn steady(&self) -> bool {
        self.moving == 0 && self.state == State::Playing
    }

    /// Moves each tweening parameter on; one whose tween is over is still.
    fn update_moving(&mut self, seconds: f64, info: &Info) {
        let moving = self.moving;
        let mut over = 0;
        if moving & VOLUME != 0 && self.volume.update(seconds, info) {
            over |= VOLUME;
        }
        if moving & RATE != 0 && self.rate.update(seconds, info) {
            over |= RATE;
        }
        if moving & PANNING != 0 && self.panning.update(seconds, info) {
            over |= PANNING;
        }
        if moving & COPY != 0 && self.copy.update(seconds, info) {
            over |= COPY;
        }
        if moving & FADE != 0 && self.fade.update(seconds, info) {
            over |= FADE;
            self.faded = true;
        }
        if moving & MUFFLE != 0 && self.muffle.update(seconds, info) {
            over |= MUFFLE;
        }
        if moving & COEF != 0 && self.coef.update(seconds, info) {
            over |= COEF;
        }
        self.moving &= !over;
    }

    /// What it asks of its sound's budget at the end of this step: its copy
    /// level through its fade.
    pub(super) fn wanted(&self) -> f32 {
        if matches!(self.state, State::Idle | State::Waiting(_)) {
            return 0.0;
        }
        (self.copy.value() * self.fade.value()) as f32
    }

    /// What it asked as it started (see [`level`](Self::level)), through its
    /// fade as it started: nothing for a fade-in, all of its onset for a
    /// copy stopped before it was heard (it fades out from there).
    pub(super) fn wanted_at_onset(&self) -> f32 {
        (f64::from(self.onset) * self.fade.previous_value()) as f32
    }

    /// Adds its next `out.len()` frames to `out`, its gains moving from the last
    /// step's to this one's (`weight` of the budget, its volume, its panning and
    /// the spatial gains at `along` of the chunk), times `mix`, its group's
    /// gain. `dt` is a frame's duration. Returns the change its end of fade or
    /// end of sound makes.
    pub(super) fn render(&mut self, out: &mut [Frame], along: f32, dt: f64, mix: f32) -> Change {
        if !self.state.advancing() {
            self.gain = [0.0; 2];
            return Change::None;
        }
        let lead = std::mem::take(&mut self.lead).min(out.len());
        let out = &mut out[lead..];
        if out.is_empty() {
            return Change::None;
        }
        let Some(source) = self.source.take() else {
            return Change::None;
        };
        if self.coef_due {
            self.tune(dt);
        }
        let (gain, rate) = self.step_targets(&source, along, mix);
        let coef = self.coef.value() as f32;
        // The loop runs on locals: gains and rate move by equal steps to this
        // step's values, the playhead as kira's static sounds move it.
        let n = out.len() as f32;
        let (left, right) = (self.gain[0], self.gain[1]);
        let (left_step, right_step) = ((gain[0] - left) / n, (gain[1] - right) / n);
        let step_rate = self.rate_was;
        let rate_step = (rate - self.rate_was) / f64::from(n);
        let sample_rate = f64::from(source.sample_rate);
        let mut reader = Reader {
            ring: self.ring,
            ring_at: self.ring_at,
            transport: self.transport,
            until_empty: self.until_empty,
        };
        let mut fraction = self.fraction;
        let mut gains = Gains {
            left,
            right,
            left_step,
            right_step,
            rate: step_rate,
            rate_step,
            sample_rate,
            dt,
            coef: self.coef_was,
            coef_step: (coef - self.coef_was) / n,
            memory: self.memory,
        };
        let filter = self.coef_was < 1.0 || coef < 1.0;
        // How far the playhead can move this step, in frames read.
        let reach =
            fraction + f64::from(n) * self.rate_was.abs().max(rate.abs()) * sample_rate * dt;
        let ended = reader.mix(out, &mut gains, &mut fraction, (&source, filter), reach);
        if let Some(frames) = ended {
            self.ended_in = lead + frames;
        }
        self.ring = reader.ring;
        self.ring_at = reader.ring_at;
        // A step moves the transport and may stop it, nothing more: the two
        // fields alone (the whole, read back just after a field of it was
        // written, stalls the store buffer).
        self.transport.position = reader.transport.position;
        self.transport.playing = reader.transport.playing;
        self.until_empty = reader.until_empty;
        self.fraction = fraction;
        self.memory = gains.memory;
        self.coef_was = coef;
        self.source = Some(source);
        self.gain = gain;
        self.rate_was = rate;
        self.settle(ended.is_some())
    }

    /// The per-channel gain and the playback rate this step ends at (`weight`
    /// of the budget, its volume, loudness and muffle, its group's `mix`, its
    /// panning and the spatial gains at `along` of the chunk; its rate times
    /// the doppler factor there); a voice not heard yet starts the step at its
    /// onset.
    #[inline(always)]
    fn step_targets(&mut self, source: &Source, along: f32, mix: f32) -> ([f32; 2], f64) {
        let volume =
            self.volume.value().as_amplitude() * self.loudness * mix * self.muffle.value() as f32;
        let panning = self.panning.value().0;
        if panning != self.pan_at {
            self.pan = source.pan(panning);
            self.pan_at = panning;
        }
        let spatial =
            [0, 1].map(|c| self.spatial_from[c] + (self.spatial[c] - self.spatial_from[c]) * along);
        let gain = [0, 1].map(|c| self.weight * volume * self.pan[c] * spatial[c]);
        let doppler = self.doppler_from + (self.doppler - self.doppler_from) * f64::from(along);
        let rate = (self.rate.value().0 * doppler).clamp(MIN_PLAYBACK_RATE, MAX_PLAYBACK_RATE);
        if self.fresh {
            self.gain = [0, 1].map(|c| self.weight_from * volume * self.pan[c] * spatial[c]);
            self.rate_was = rate;
            self.fresh = false;
        }
        (gain, rate)
    }

    /// The state a rendered step leaves it in: over if its sound `ended` or its
    /// stop fade is done, paused or playing once its fade is done.
    #[inline(always)]
    fn settle(&mut self, ended: bool) -> Change {
        let faded = self.faded;
        match self.state {
            _ if ended => {
                self.state = State::Idle;
                Change::Ended
            }
            State::Stopping if faded => {
                self.state = State::Idle;
                Change::Ended
            }
            State::Pausing if faded => {
                self.state = State::Paused;
                Change::None
            }
            State::Resuming if faded => {
                self.state = State::Playing;
                Change::None
            }
            _ => Change::None,
        }
    }

    /// Reads the next frame into the ring (kira's `update_position`).
    fn push(&mut self, source: &Source) {
        let mut reader = Reader {
            ring: self.ring,
            ring_at: self.ring_at,
            transport: self.transport,
            until_empty: self.until_empty,
        };
        reader.push_from(source);
        self.ring = reader.ring;
        self.ring_at = reader.ring_at;
        self.transport = reader.transport;
        self.until_empty = reader.until_empty;
    }

    /// Where it is in its sound, in transport frames: the frame being heard and
    /// the fraction towards the next.
    pub(super) fn playhead(&self) -> f64 {
        let heard = self.ring_at[1] as f64;
        match &self.source {
            Some(source) if source.reverse() => heard - self.fraction,
            _ => heard + self.fraction,
        }
    }

    /// Lets go of its sound (the bank keeps no sound alive that no voice
    /// plays; the game side holds a reference of its own until then).
    pub(super) fn clear(&mut self) {
        self.state = State::Idle;
        self.source = None;
        self.budget = None;
    }
}

//! A streamed piece inside kira's mixer: frames decoded ahead by a feed
//! (`feed.rs`) into a ring, resampled to the mix rate with kira's own
//! interpolation, faded with equal power. It allocates and frees nothing: kira
//! drops a finished sound on the game's thread.

use std::convert::Infallible;
use std::f64::consts::FRAC_PI_2;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

use kira::info::Info;
use kira::interpolate_frame;
use kira::sound::{Sound, SoundData};
use kira::{Easing, Frame};
use rtrb::Consumer;
use std::sync::Arc;

/// The index an [`Item`] carries after the last frame of a piece.
pub(crate) const END: u64 = u64::MAX;
/// No stop asked for (in [`Shared::stop`]).
const NO_STOP: u64 = u64::MAX;

/// One decoded frame and its index in the file.
#[derive(Clone, Copy)]
pub(crate) struct Item {
    pub(crate) frame: Frame,
    pub(crate) index: u64,
}

/// What the game, the feed and the sound share about one stream.
pub(crate) struct Shared {
    /// The index of the frame playing.
    pub(crate) position: AtomicU64,
    /// The sound has finished (faded out, or played to its end).
    pub(crate) finished: AtomicBool,
    /// Frames the sound waited for the feed.
    pub(crate) underruns: AtomicU64,
    /// The fade-out asked for, in seconds (`f64` bits), or `NO_STOP`.
    stop: AtomicU64,
    /// The fade-out's easing (see [`easing_bits`]), written before `stop`.
    stop_easing: (AtomicU8, AtomicU64),
    /// Why decoding failed, if it did (the feed writes it; never the mixer).
    pub(crate) error: Mutex<Option<String>>,
}

impl Shared {
    pub(crate) fn new(start: u64) -> Self {
        Self {
            position: AtomicU64::new(start),
            finished: AtomicBool::new(false),
            underruns: AtomicU64::new(0),
            stop: AtomicU64::new(NO_STOP),
            stop_easing: (AtomicU8::new(0), AtomicU64::new(0)),
            error: Mutex::new(None),
        }
    }

    /// Asks the sound to fade out over `fade` (validated) and finish.
    pub(crate) fn stop(&self, fade: Fade) {
        let (tag, power) = easing_bits(fade.easing);
        self.stop_easing.0.store(tag, Ordering::Relaxed);
        self.stop_easing.1.store(power, Ordering::Relaxed);
        self.stop.store(fade.seconds.to_bits(), Ordering::Release);
    }

    pub(crate) fn finished(&self) -> bool {
        self.finished.load(Ordering::Acquire)
    }
}

/// What kira's `play` takes: the ring's reading end and the stream's state.
pub(crate) struct StreamData {
    pub(crate) consumer: Consumer<Item>,
    pub(crate) shared: Arc<Shared>,
    pub(crate) sample_rate: u32,
    pub(crate) fade_in: Fade,
}

/// A validated music fade: its length and its easing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Fade {
    pub(crate) seconds: f64,
    pub(crate) easing: Easing,
}

/// An easing as two words, to cross to the mixer without a lock.
fn easing_bits(easing: Easing) -> (u8, u64) {
    match easing {
        Easing::Linear => (0, 0),
        Easing::InPowi(p) => (1, p as u64),
        Easing::OutPowi(p) => (2, p as u64),
        Easing::InOutPowi(p) => (3, p as u64),
        Easing::InPowf(p) => (4, p.to_bits()),
        Easing::OutPowf(p) => (5, p.to_bits()),
        Easing::InOutPowf(p) => (6, p.to_bits()),
    }
}

/// The easing [`easing_bits`] wrote.
fn easing_from_bits(tag: u8, power: u64) -> Easing {
    match tag {
        1 => Easing::InPowi(power as i32),
        2 => Easing::OutPowi(power as i32),
        3 => Easing::InOutPowi(power as i32),
        4 => Easing::InPowf(f64::from_bits(power)),
        5 => Easing::OutPowf(f64::from_bits(power)),
        6 => Easing::InOutPowf(f64::from_bits(power)),
        _ => Easing::Linear,
    }
}

impl SoundData for StreamData {
    type Error = Infallible;
    type Handle = ();

    fn into_sound(self) -> Result<(Box<dyn Sound>, ()), Infallible> {
        let fade = self.fade_in;
        let start = self.shared.position.load(Ordering::Relaxed);
        Ok((
            Box::new(StreamSound {
                consumer: self.consumer,
                shared: self.shared,
                rate: f64::from(self.sample_rate),
                history: [Frame::ZERO; 4],
                indices: [start; 4],
                fraction: 0.0,
                primed: false,
                started: false,
                drained: 0,
                level: Level::new(0.0, 1.0, fade),
                stopping: false,
                finished: false,
            }),
            (),
        ))
    }
}

/// The equal-power gain at `phase` (0 silent, 1 full): a fade in and a fade out
/// over the same time sum to constant power.
pub(crate) fn equal_power(phase: f64) -> f32 {
    (phase * FRAC_PI_2).sin() as f32
}

/// A stream's fade level (0 silent, 1 full) moving from one value to another
/// as a kira tween does: `from + (to - from) * ease(t)`, `t` from 0 to 1.
struct Level {
    from: f64,
    to: f64,
    t: f64,
    /// `t` per second (0 once there).
    speed: f64,
    easing: Easing,
}

impl Level {
    /// From `from` to `to` over `fade` (at once if it is 0 long).
    fn new(from: f64, to: f64, fade: Fade) -> Self {
        let (t, speed) = if fade.seconds > 0.0 {
            (0.0, 1.0 / fade.seconds)
        } else {
            (1.0, 0.0)
        };
        Self {
            from,
            to,
            t,
            speed,
            easing: fade.easing,
        }
    }

    fn value(&self) -> f64 {
        self.from + (self.to - self.from) * crate::cues::ease(self.easing, self.t)
    }

    fn advance(&mut self, dt: f64) {
        self.t = (self.t + self.speed * dt).min(1.0);
    }

    /// At 0 and staying there.
    fn silent(&self) -> bool {
        self.t >= 1.0 && self.to <= 0.0
    }
}

struct StreamSound {
    consumer: Consumer<Item>,
    shared: Arc<Shared>,
    /// The piece's frames per second.
    rate: f64,
    /// The frame before, the frame playing, the two after.
    history: [Frame; 4],
    indices: [u64; 4],
    /// Where between the frame playing and the next.
    fraction: f64,
    /// The history holds the piece's first frames (see [`prime`](Self::prime)).
    primed: bool,
    /// A first frame has arrived (until then the sound waits silently).
    started: bool,
    /// Frames pushed in after the end (0 before it).
    drained: u8,
    /// The fade.
    level: Level,
    stopping: bool,
    finished: bool,
}

impl StreamSound {
    /// The next frame from the feed, `None` if it is late.
    fn next(&mut self) -> Option<(Frame, u64)> {
        if self.drained > 0 {
            self.drained += 1;
            return Some((Frame::ZERO, self.indices[3]));
        }
        match self.consumer.pop() {
            Ok(item) if item.index == END => {
                self.drained = 1;
                Some((Frame::ZERO, self.indices[3]))
            }
            Ok(item) => {
                self.started = true;
                Some((item.frame, item.index))
            }
            Err(_) => None,
        }
    }

    /// Starts the piece as kira starts a sound: a silent frame before the
    /// first, the first playing, the two after it next, so the first sample
    /// out is the piece's first frame. Waits (silently, not counted late)
    /// until the feed has three frames in, or the piece's end.
    fn prime(&mut self) -> bool {
        let available = self.consumer.slots();
        let ready = available >= 3
            || self.consumer.read_chunk(available).is_ok_and(|chunk| {
                let (a, b) = chunk.as_slices();
                a.iter().chain(b).any(|item| item.index == END)
            });
        if ready {
            for _ in 0..3 {
                let (incoming, index) = self.next().unwrap_or((Frame::ZERO, self.indices[3]));
                let (h, i) = (self.history, self.indices);
                self.history = [h[1], h[2], h[3], incoming];
                self.indices = [i[1], i[2], i[3], index];
            }
            self.primed = true;
        }
        ready
    }

    fn finish(&mut self) {
        self.finished = true;
        self.shared.finished.store(true, Ordering::Release);
    }
}

impl Sound for StreamSound {
    fn on_start_processing(&mut self) {
        let stop = self.shared.stop.load(Ordering::Acquire);
        if !self.stopping && stop != NO_STOP {
            self.stopping = true;
            let (tag, power) = &self.shared.stop_easing;
            let fade = Fade {
                seconds: f64::from_bits(stop),
                easing: easing_from_bits(
                    tag.load(Ordering::Relaxed),
                    power.load(Ordering::Relaxed),
                ),
            };
            // From wherever a fade in had got to: no jump.
            self.level = Level::new(self.level.value(), 0.0, fade);
        }
    }

    fn process(&mut self, out: &mut [Frame], dt: f64, _info: &Info) {
        let mut late = 0;
        for frame in out.iter_mut() {
            if self.finished {
                *frame = Frame::ZERO;
                continue;
            }
            if self.stopping && self.level.silent() {
                self.finish();
                *frame = Frame::ZERO;
                continue;
            }
            if !self.primed && !self.prime() {
                *frame = Frame::ZERO;
                continue;
            }
            let [before, now, next, after] = self.history;
            *frame = interpolate_frame(before, now, next, after, self.fraction as f32)
                * equal_power(self.level.value());
            if self.started {
                self.level.advance(dt);
            }
            self.fraction += self.rate * dt;
            while self.fraction >= 1.0 {
                let Some((incoming, index)) = self.next() else {
                    // The feed is late: hold here and wait (not counted
                    // before the first frame arrives).
                    late += u64::from(self.started);
                    self.fraction = if self.started { 1.0 } else { 0.0 };
                    break;
                };
                let h = self.history;
                self.history = [h[1], h[2], h[3], incoming];
                self.indices = [self.indices[1], self.indices[2], self.indices[3], index];
                self.fraction -= 1.0;
            }
            if self.drained > 3 {
                self.finish();
            }
        }
        self.shared
            .position
            .store(self.indices[1], Ordering::Relaxed);
        if late > 0 {
            self.shared.underruns.fetch_add(late, Ordering::Relaxed);
        }
    }

    fn finished(&self) -> bool {
        self.finished
    }
}

//! A streamed piece inside kira's mixer: frames decoded ahead by a feed
//! (`feed.rs`) into a ring, resampled to the mix rate with kira's own
//! interpolation, faded with equal power. It allocates and frees nothing: kira
//! drops a finished sound on the game's thread.

use std::convert::Infallible;
use std::f64::consts::FRAC_PI_2;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use kira::Frame;
use kira::info::Info;
use kira::interpolate_frame;
use kira::sound::{Sound, SoundData};
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
            error: Mutex::new(None),
        }
    }

    /// Asks the sound to fade out over `seconds` (validated) and finish.
    pub(crate) fn stop(&self, seconds: f64) {
        self.stop.store(seconds.to_bits(), Ordering::Release);
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
    pub(crate) fade_in: f64,
}

impl SoundData for StreamData {
    type Error = Infallible;
    type Handle = ();

    fn into_sound(self) -> Result<(Box<dyn Sound>, ()), Infallible> {
        let phase = if self.fade_in > 0.0 { 0.0 } else { 1.0 };
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
                phase,
                speed: if self.fade_in > 0.0 {
                    1.0 / self.fade_in
                } else {
                    0.0
                },
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
    /// The fade's position (0 silent, 1 full) and speed per second.
    phase: f64,
    speed: f64,
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
            let seconds = f64::from_bits(stop);
            if seconds > 0.0 {
                self.speed = -1.0 / seconds;
            } else {
                self.phase = 0.0;
            }
        }
    }

    fn process(&mut self, out: &mut [Frame], dt: f64, _info: &Info) {
        let mut late = 0;
        for frame in out.iter_mut() {
            if self.finished {
                *frame = Frame::ZERO;
                continue;
            }
            if self.stopping && self.phase <= 0.0 {
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
                * equal_power(self.phase);
            if self.started {
                self.phase = (self.phase + self.speed * dt).clamp(0.0, 1.0);
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

//! The decoding side of a stream: decodes a piece a packet at a time into the
//! ring its sound reads, ahead of the mixer, looping where asked. On its own
//! thread (`Decode::Thread`) or when the game calls `Music::fill`.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use kira::Frame;
use rtrb::Producer;

use super::source::MusicSource;
use super::stream::{END, Item, Shared};
use crate::loader::Decoding;

/// Whether a feed has more to decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fill {
    /// The ring is full: call again once the sound has read some.
    More,
    /// The piece has ended (or failed, or its sound is gone).
    Done,
}

pub(crate) struct Feed {
    source: MusicSource,
    decoding: Decoding,
    producer: Producer<Item>,
    pub(crate) shared: Arc<Shared>,
    /// The packet decoded last, and how much of it is in the ring.
    frames: Vec<Frame>,
    at: usize,
    scratch: Vec<f32>,
    /// The file index of the next frame.
    index: u64,
    /// Frames still to drop (decoded from before a seek's target).
    skip: u64,
    /// Where a loop starts again, if the piece loops.
    loop_start: Option<u64>,
    /// Frames pushed since the piece (or its loop) last started.
    pass: u64,
    /// The end is reached; its marker still has to go into the ring.
    ending: bool,
}

/// Opens `source` at frame `start`: seeking if the format can, otherwise
/// decoding from the start and skipping to it. Returns the decoding and the
/// frames to skip.
pub(crate) fn open_at(source: &MusicSource, start: u64) -> Result<(Decoding, u64), String> {
    let mut decoding = source.open()?;
    match decoding.seek(start) {
        Ok(skip) => Ok((decoding, skip)),
        Err(_) => Ok((source.open()?, start)),
    }
}

impl Feed {
    pub(crate) fn new(
        source: MusicSource,
        (decoding, skip): (Decoding, u64),
        producer: Producer<Item>,
        shared: Arc<Shared>,
        start: u64,
        loop_start: Option<u64>,
    ) -> Self {
        Self {
            source,
            decoding,
            producer,
            shared,
            frames: Vec::new(),
            at: 0,
            scratch: Vec::new(),
            index: start,
            skip,
            loop_start,
            pass: 0,
            ending: false,
        }
    }

    /// Decodes until the ring is full or the piece ends.
    pub(crate) fn fill(&mut self) -> Fill {
        if self.shared.finished.load(Ordering::Acquire) || self.producer.is_abandoned() {
            return Fill::Done;
        }
        loop {
            if self.ending {
                let end = Item {
                    frame: Frame::ZERO,
                    index: END,
                };
                return match self.producer.push(end) {
                    Ok(()) => Fill::Done,
                    Err(_) => Fill::More,
                };
            }
            while let Some(frame) = self.frames.get(self.at).copied() {
                if self.skip > 0 {
                    self.skip -= 1;
                } else if self
                    .producer
                    .push(Item {
                        frame,
                        index: self.index,
                    })
                    .is_err()
                {
                    return Fill::More;
                } else {
                    self.index += 1;
                    self.pass += 1;
                }
                self.at += 1;
            }
            self.at = 0;
            match self.decoding.packet(&mut self.scratch, &mut self.frames) {
                Ok(true) => {}
                Ok(false) => match self.loop_start {
                    // A pass that gave no frame would loop forever.
                    Some(start) if self.pass > 0 => match open_at(&self.source, start) {
                        Ok((decoding, skip)) => {
                            (self.decoding, self.skip, self.index, self.pass) =
                                (decoding, skip, start, 0);
                        }
                        Err(reason) => self.fail(reason),
                    },
                    _ => self.ending = true,
                },
                Err(reason) => self.fail(reason),
            }
        }
    }

    fn fail(&mut self, reason: String) {
        if let Ok(mut error) = self.shared.error.lock() {
            *error = Some(reason);
        }
        self.frames.clear();
        self.ending = true;
    }
}

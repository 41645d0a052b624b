//! What a voice plays: a sound's decoded samples, shared by every voice of it
//! (never copied per play), with the transport settings and the budget of its
//! copies.
//!
//! The bank stores a sound as it reads it. A sound of two channels keeps
//! kira's frames, shared with the `StaticSoundData` it was added from (the
//! same layout as interleaved samples: nothing to convert). A mono sound
//! (every frame's channels the same) handed over whole (nothing else holds
//! its frames) is stored as its one channel, converted once when it is
//! added: half the memory, and half the bytes a voice reads a frame. One
//! whose frames something else still holds (the game, a Bevy asset, another
//! sound) keeps sharing them, so nothing is ever held twice.

use std::sync::Arc;

use kira::sound::static_sound::StaticSoundData;
use kira::{Frame, StartTime, Tween};

use super::budget::Budget;
use super::transport::Transport;
use crate::SoundPeak;
use crate::ears::pan_law;
use crate::sound_error::{loop_region, samples};

/// A sound's samples as the bank stores them.
#[derive(Debug)]
enum Samples {
    /// kira's frames, shared, the slice's first frame in them, and whether
    /// both channels of every frame are the same (a voice then interpolates
    /// one and hears it in both).
    Frames {
        frames: Arc<[Frame]>,
        offset: usize,
        mono: bool,
    },
    /// One channel, heard in both: the slice's samples alone.
    Mono(Arc<[f32]>),
}

/// A sound's samples to read, its slice's: frames (and whether they are
/// mono), or one channel.
pub(super) enum Read<'a> {
    Frames(&'a [Frame], bool),
    Mono(&'a [f32]),
}

/// A sound as the mixer reads it. Built once when the sound is added, from data
/// that passed `SoundError`'s checks.
#[derive(Debug)]
pub(crate) struct Source {
    samples: Samples,
    /// The slice's length in frames.
    len: usize,
    pub(crate) sample_rate: u32,
    /// The transport position a play starts at.
    start: usize,
    loop_region: Option<(usize, usize)>,
    reverse: bool,
    /// The data's own start time and fade-in, applied to every play.
    pub(crate) start_time: StartTime,
    pub(crate) fade_in: Option<Tween>,
    pub(crate) budget: Budget,
    /// Its measured peak per channel: what a panned play is lowered by.
    pub(crate) peak: SoundPeak,
    /// The sound it is, unique among every sound the game side ever added
    /// (`SoundId::bank_key`): voices of one key share its budget.
    pub(crate) key: u64,
}

impl Source {
    pub(crate) fn new(data: &StaticSoundData, budget: Budget, peak: SoundPeak, key: u64) -> Self {
        let (offset, len) = match data.slice {
            Some((start, end)) => (start, end - start),
            None => (0, data.frames.len()),
        };
        let start = samples(data.settings.start_position, data.sample_rate);
        let slice = &data.frames[offset..offset + len];
        // Both channels of every frame the same: stored once, heard in both.
        let mono = slice
            .iter()
            .all(|frame| frame.left.to_bits() == frame.right.to_bits());
        // Converted only if nothing else holds the frames (`data` is the
        // sound's own), so that they are freed once it is added.
        let samples = if mono && Arc::strong_count(&data.frames) == 1 {
            Samples::Mono(slice.iter().map(|frame| frame.left).collect())
        } else {
            Samples::Frames {
                frames: data.frames.clone(),
                offset,
                mono,
            }
        };
        Self {
            samples,
            len,
            sample_rate: data.sample_rate,
            start: if data.settings.reverse {
                len.saturating_sub(1 + start)
            } else {
                start
            },
            loop_region: loop_region(data, len),
            reverse: data.settings.reverse,
            start_time: data.settings.start_time,
            fade_in: data.settings.fade_in_tween,
            budget,
            peak,
            key,
        }
    }

    /// The frame at transport position `position`, if there is one.
    pub(super) fn frame(&self, position: usize) -> Option<Frame> {
        match self.read() {
            Read::Frames(frames, _) => frames.get(position).copied(),
            Read::Mono(samples) => samples.get(position).copied().map(Frame::from_mono),
        }
    }

    /// The samples a voice plays: the slice, if any; transport positions
    /// index it.
    pub(super) fn read(&self) -> Read<'_> {
        match &self.samples {
            Samples::Frames {
                frames,
                offset,
                mono,
            } => Read::Frames(&frames[*offset..*offset + self.len], *mono),
            Samples::Mono(samples) => Read::Mono(samples),
        }
    }

    /// Whether it is stored as one channel, heard in both.
    #[cfg(test)]
    pub(super) fn one_channel(&self) -> bool {
        matches!(self.samples, Samples::Mono(_))
    }

    /// A transport at `position`.
    pub(super) fn transport(&self, position: usize) -> Transport {
        Transport {
            position,
            loop_region: self.loop_region,
            reverse: self.reverse,
            frames: self.len,
            playing: position < self.len,
        }
    }

    /// The transport position a play starts at.
    pub(super) fn start(&self) -> usize {
        self.start
    }

    pub(super) fn reverse(&self) -> bool {
        self.reverse
    }

    /// Each channel's gain at `panning`: kira's pan law, lowered by the gain it
    /// gives this sound's louder channel, so that a panned copy's louder channel
    /// stays inside its share of the budget.
    pub(crate) fn pan(&self, panning: f32) -> [f32; 2] {
        let compensation = self.peak.pan_compensation(panning) as f32;
        pan_law(panning).map(|gain| gain * compensation)
    }
}

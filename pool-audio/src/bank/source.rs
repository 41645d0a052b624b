//! What a voice plays: a sound's decoded frames, shared by every voice of it
//! (kira's `Arc<[Frame]>`, never copied per play), with the transport settings
//! and the budget of its copies.

use std::sync::Arc;

use kira::sound::static_sound::StaticSoundData;
use kira::{Frame, StartTime, Tween};

use super::budget::Budget;
use super::transport::Transport;
use crate::SoundPeak;
use crate::ears::pan_law;
use crate::sound_error::{loop_region, samples};

/// A sound as the mixer reads it. Built once when the sound is added, from data
/// that passed `SoundError`'s checks.
#[derive(Debug)]
pub(crate) struct Source {
    frames: Arc<[Frame]>,
    /// The slice's first frame in `frames`, and its length.
    offset: usize,
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
    /// Both channels of every frame are the same: a voice interpolates one
    /// and hears it in both (the same samples, half the work).
    pub(super) mono: bool,
}

impl Source {
    pub(crate) fn new(data: &StaticSoundData, budget: Budget, peak: SoundPeak, key: u64) -> Self {
        let (offset, len) = match data.slice {
            Some((start, end)) => (start, end - start),
            None => (0, data.frames.len()),
        };
        let start = samples(data.settings.start_position, data.sample_rate);
        let mono = data.frames[offset..offset + len]
            .iter()
            .all(|frame| frame.left.to_bits() == frame.right.to_bits());
        Self {
            frames: data.frames.clone(),
            offset,
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
            mono,
        }
    }

    /// The frame at transport position `position`, if there is one.
    pub(super) fn frame(&self, position: usize) -> Option<Frame> {
        self.frames().get(position).copied()
    }

    /// The frames a voice plays: the slice, if any; transport positions index it.
    pub(super) fn frames(&self) -> &[Frame] {
        &self.frames[self.offset..self.offset + self.len]
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

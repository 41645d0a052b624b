//! What a game (or its debug view) can read of each voice, real or
//! virtual: [`SoundEffects::voices`](crate::SoundEffects::voices).

use std::fmt;

use kira::Decibels;

use crate::{GroupId, SoundEffects, SoundId, VoiceHandle, VoiceState};

/// Why a voice is virtual.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WhyVirtual {
    /// Under its sound's audibility floor, or outside the loudness window.
    Inaudible,
    /// Every place it may take (the voice cap, its group's, its sound's or
    /// owner's copies) holds a more audible voice, or one took its place.
    Outranked,
    /// Newer copies of its sound took its room in the sound's copy budget.
    Crowded,
    /// Every slot of the voice bank holds a voice or one fading out.
    NoFreeSlot,
    /// The voice bank's queue had no room for its start.
    QueueFull,
}

/// One voice, real or virtual, as the manager sees it after its last
/// update: what a debug view draws. Read with
/// [`SoundEffects::voices`](crate::SoundEffects::voices), which allocates
/// nothing.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct VoiceInfo {
    /// Its handle.
    pub voice: VoiceHandle,
    /// Its sound, and which of the sound's recordings it plays.
    pub sound: SoundId,
    /// The recording, by its place in the sound's recordings.
    pub recording: usize,
    /// Real, virtual, paused or fading.
    pub state: VoiceState,
    /// Why it is virtual, while it is.
    pub why_virtual: Option<WhyVirtual>,
    /// It waits for its start time.
    pub waiting: bool,
    /// Its priority as heard from the listener (its sound's, with the
    /// distance offset), and its audibility: the level the manager ranks
    /// it by (an amplitude; see `audibility.rs`).
    pub priority: i32,
    /// See [`priority`](Self::priority).
    pub audibility: f32,
    /// The level it is heard at in each channel, where the voice bank
    /// mixes it (the sound-effects track, or its group's bus before the
    /// bus's volume and effects): its copy level in its sound's budget,
    /// its volume and curves, the loudness window, obstruction's and
    /// occlusion's volume, its group's ducks and snapshots, its panning,
    /// its distance and the listener's ears. Not in it: a low-pass's cut,
    /// which depends on the sound's spectrum, and fades under way. A
    /// virtual voice's is what it would be heard at if real.
    pub level: [Decibels; 2],
    /// Where it is, if positioned, and its distance from the listener.
    pub position: Option<[f32; 3]>,
    /// See [`position`](Self::position).
    pub distance: Option<f32>,
    /// How far from the listener it can be heard, if positioned: its
    /// distances' `max`, past which it is silent (a debug view's audible
    /// radius).
    pub max_distance: Option<f32>,
    /// Who plays it.
    pub owner: Option<u64>,
    /// Its sound's group, and the bus the group routes to.
    pub group: Option<GroupId>,
    /// See [`group`](Self::group).
    pub bus: Option<crate::TrackId>,
    /// Its sends: each bus and the level the game set (before the sound's
    /// send curves and distance), in its sound's order.
    pub sends: [Option<(crate::TrackId, Decibels)>; crate::MAX_SENDS],
    /// Where it is in its recording, seconds: as the mixer said at the end
    /// of its last block for a real voice, as the manager follows it for a
    /// virtual one (`None` just after it went virtual or real again, until
    /// the mixer says where it is).
    pub playhead: Option<f64>,
}

/// The voice table as text: [`SoundEffects::voice_table`].
#[derive(Clone, Copy)]
pub struct VoiceTable<'a> {
    pub(crate) sfx: &'a SoundEffects,
    pub(crate) rows: usize,
}

impl fmt::Debug for VoiceTable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (f.debug_struct("VoiceTable"))
            .field("rows", &self.rows)
            .finish_non_exhaustive()
    }
}

impl fmt::Display for VoiceTable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:>12} {:<14} {:<8} {:<12} {:>5} {:>7} {:>7} {:>7} {:>7} {:>9}",
            "voice",
            "sound",
            "state",
            "why",
            "prio",
            "aud dB",
            "left",
            "right",
            "dist m",
            "playhead"
        )?;
        let (mut shown, mut more) = (0, 0);
        let real = |v: &VoiceInfo| v.state != VoiceState::Virtual;
        let voices = self.sfx.voices().filter(real);
        for info in voices.chain(self.sfx.voices().filter(|v| !real(v))) {
            if shown == self.rows {
                more += 1;
                continue;
            }
            shown += 1;
            self.row(f, &info)?;
        }
        if more > 0 {
            writeln!(f, "... and {more} more")?;
        }
        Ok(())
    }
}

impl VoiceTable<'_> {
    fn row(&self, f: &mut fmt::Formatter<'_>, v: &VoiceInfo) -> fmt::Result {
        let state = match v.state {
            VoiceState::Real if v.waiting => "waiting",
            VoiceState::Real => "real",
            VoiceState::Virtual => "virtual",
            VoiceState::Paused => "paused",
            VoiceState::Fading => "fading",
            VoiceState::Gone => "gone",
        };
        let why = match v.why_virtual {
            None => "",
            Some(WhyVirtual::Inaudible) => "inaudible",
            Some(WhyVirtual::Outranked) => "outranked",
            Some(WhyVirtual::Crowded) => "crowded",
            Some(WhyVirtual::NoFreeSlot) => "no free slot",
            Some(WhyVirtual::QueueFull) => "queue full",
        };
        let name = self.sfx.sound_name(v.sound).unwrap_or("?");
        let name = name.get(..14).unwrap_or(name);
        let audibility = (20.0 * v.audibility.max(1e-9).log10()).max(-99.9);
        write!(
            f,
            "{:>12} {name:<14} {state:<8} {why:<12} {:>5} {audibility:>7.1} {:>7.1} {:>7.1}",
            v.voice.number(),
            v.priority,
            v.level[0].0.max(-99.9),
            v.level[1].0.max(-99.9)
        )?;
        match v.distance {
            Some(d) => write!(f, " {d:>7.1}")?,
            None => write!(f, " {:>7}", "-")?,
        }
        match v.playhead {
            Some(p) => writeln!(f, " {p:>9.2}"),
            None => writeln!(f, " {:>9}", "-"),
        }
    }
}

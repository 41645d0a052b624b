//! What the game thread tells the bank, through a bounded lock-free queue
//! (rtrb), read at the start of every block the mixer renders. Every command
//! names its voice by slot and ticket: a command for a voice that has ended, or
//! was replaced, is ignored.

use std::sync::Arc;

use kira::{Decibels, StartTime, Tween};

use super::mix::MixPart;
use super::source::Source;

/// A command for the voice bank.
pub(crate) enum Command {
    /// Start a voice on a free slot (or replace one whose start was not read yet).
    Start(Start),
    /// Fade out and end; its playhead is reported when the command is read.
    Stop {
        slot: u32,
        ticket: u32,
        fade: Tween,
    },
    Pause {
        slot: u32,
        ticket: u32,
        fade: Tween,
    },
    Resume {
        slot: u32,
        ticket: u32,
        fade: Tween,
    },
    /// The play's volume.
    SetVolume {
        slot: u32,
        ticket: u32,
        volume: Decibels,
        fade: Tween,
    },
    SetPlaybackRate {
        slot: u32,
        ticket: u32,
        rate: f64,
        fade: Tween,
    },
    SetPanning {
        slot: u32,
        ticket: u32,
        panning: f32,
        fade: Tween,
    },
    SetPosition {
        slot: u32,
        ticket: u32,
        position: [f32; 3],
    },
    /// A positioned voice's velocity, in m/s, for doppler.
    SetVelocity {
        slot: u32,
        ticket: u32,
        velocity: [f32; 3],
    },
    /// Adds a side-chain.
    AddSideChain(crate::sidechain::SideChainOut),
    /// Sets zone `index`, or clears it (`None`).
    SetZone {
        index: u8,
        zone: Option<crate::zone::ZoneOut>,
    },
    /// Send `index`'s level.
    SetSend {
        slot: u32,
        ticket: u32,
        index: u8,
        level: Decibels,
        tween: Tween,
    },
    /// Obstruction and occlusion's volume (an amplitude) and cutoff (Hz).
    SetMuffle {
        slot: u32,
        ticket: u32,
        gain: f32,
        cutoff: Option<f32>,
    },
    /// The listener's velocity, in m/s.
    SetListenerVelocity([f32; 3]),
    /// Where positioned voices are heard from.
    SetListener([f32; 3]),
    /// The listener's orientation, a unit quaternion `[x, y, z, w]`.
    SetListenerOrientation([f32; 4]),
    /// One gain of a group's mix (or every voice's: `ALL`), in dB, moving to
    /// `db` with `tween`, from `from` if given (else from where it is).
    SetMix {
        entry: u16,
        part: MixPart,
        from: Option<f64>,
        db: f64,
        tween: Tween,
    },
    /// Every voice of the sound `sound` (its key) shares `budget` from now
    /// on, its copy level ramping to its new one over `fade` (a reload).
    SetBudget {
        sound: u64,
        budget: super::budget::Budget,
        fade: std::time::Duration,
    },
}

/// Everything a voice starts with.
pub(crate) struct Start {
    pub(crate) slot: u32,
    pub(crate) ticket: u32,
    /// What it plays; voices of one source share its budget.
    pub(crate) source: Arc<Source>,
    /// Linear amplitude: the play's volume (the bank lowers a panned play by its
    /// pan-law gain itself).
    pub(crate) volume: f64,
    pub(crate) panning: f32,
    pub(crate) rate: f64,
    pub(crate) position: Option<[f32; 3]>,
    pub(crate) spatial_blend: f32,
    /// How it fades with distance.
    pub(crate) distances: crate::Distances,
    pub(crate) begin: Begin,
    /// When a [`Begin::Fresh`] start begins: at once, after a delay counted
    /// from the first block that reads it, or at a kira clock's time; on its
    /// frame either way.
    pub(crate) start_time: StartTime,
    /// Its group's mix entry, or `NO_GROUP`.
    pub(crate) group: u16,
    /// Where it is mixed: 0 on the sound-effects track, or its bus's out.
    pub(crate) out: u8,
    /// Its sends, each with the level the game set last.
    pub(crate) sends: crate::send::SendOuts,
    /// It sends to the zones it is in.
    pub(crate) zones: bool,
    /// Its loudness in the window, as an amplitude (1 outside a window).
    pub(crate) loudness: f32,
    /// Its velocity (m/s) and its sound's doppler scale (0: off).
    pub(crate) velocity: [f32; 3],
    pub(crate) doppler: f32,
    /// Obstruction and occlusion's volume (an amplitude) and cutoff (Hz).
    pub(crate) muffle: (f32, Option<f32>),
}

/// Where a voice starts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Begin {
    /// A new play: at the sound's start, after its start time, with its fade-in.
    Fresh,
    /// A virtual voice made real again, from the sound's start, fading in over
    /// the steal fade.
    FromStart,
    /// A virtual voice made real again at its playhead (transport frames),
    /// fading in over the steal fade.
    At(f64),
}

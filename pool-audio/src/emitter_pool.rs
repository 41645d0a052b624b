//! Emitters for positioned sounds: kira spatial sub-tracks of the sound-effects
//! track, each holding one sound at a time, heard from a listener the manager owns.
//!
//! kira's spatialization never raises a level: distance attenuation is at most 1,
//! each ear's gain is at most 1, and the spatialized signal is the mono mix of the
//! panned input, never louder than its louder channel. A positioned copy therefore
//! stays inside its copy budget like an unpositioned one.

use kira::PlaySoundError;
use kira::listener::ListenerHandle;
use kira::sound::static_sound::{StaticSoundData, StaticSoundHandle};
use kira::track::{SpatialTrackBuilder, SpatialTrackHandle, TrackHandle};

use crate::copies::linear;

/// A listener facing kira's default direction.
const IDENTITY: mint::Quaternion<f32> = mint::Quaternion {
    v: mint::Vector3 {
        x: 0.0,
        y: 0.0,
        z: 0.0,
    },
    s: 1.0,
};

pub(crate) fn vector([x, y, z]: [f32; 3]) -> mint::Vector3<f32> {
    mint::Vector3 { x, y, z }
}

pub(crate) struct Emitters {
    listener: ListenerHandle,
    tracks: Vec<SpatialTrackHandle>,
    /// Emitters ready for a voice.
    free: Vec<u16>,
    /// Emitters whose voice ended, until kira has let go of its sound
    /// (`num_sounds() == 0`): an emitter holds one sound at a time.
    pub(crate) quarantined: Vec<u16>,
    max: usize,
}

impl Emitters {
    /// Room for `max` emitters; none is created yet: an idle kira spatial track
    /// still costs the audio thread (16 idle ones took the bomb example's pooled
    /// render from 9 ms to 50 ms per second of audio).
    pub(crate) fn new(listener: ListenerHandle, max: usize) -> Self {
        Self {
            listener,
            tracks: Vec::with_capacity(max),
            free: Vec::with_capacity(max),
            quarantined: Vec::with_capacity(max),
            max,
        }
    }

    pub(crate) fn orientation() -> mint::Quaternion<f32> {
        IDENTITY
    }

    /// `true` if an emitter is free now or can be made.
    pub(crate) fn available(&mut self, track: &mut TrackHandle) -> bool {
        if self.free.is_empty() {
            self.release_emptied();
        }
        !self.free.is_empty() || self.prewarm(track, 1) == 1
    }

    /// Creates up to `count` more emitters, never beyond the maximum.
    pub(crate) fn prewarm(&mut self, track: &mut TrackHandle, count: usize) -> usize {
        let mut created = 0;
        while created < count && self.tracks.len() < self.max {
            let Ok(emitter) = track.add_spatial_sub_track(
                self.listener.id(),
                vector([0.0; 3]),
                SpatialTrackBuilder::new().sound_capacity(1),
            ) else {
                break;
            };
            self.free.push(self.tracks.len() as u16);
            self.tracks.push(emitter);
            created += 1;
        }
        created
    }

    /// Takes a free emitter and places it (call [`available`](Self::available) first).
    pub(crate) fn take(&mut self, position: [f32; 3], blend: f32) -> Option<u16> {
        let emitter = self.free.pop()?;
        self.place(emitter, position, blend);
        Some(emitter)
    }

    pub(crate) fn place(&mut self, emitter: u16, position: [f32; 3], blend: f32) {
        let track = &mut self.tracks[usize::from(emitter)];
        track.set_position(vector(position), linear(std::time::Duration::ZERO));
        track.set_spatialization_strength(blend, linear(std::time::Duration::ZERO));
    }

    pub(crate) fn set_position(&mut self, emitter: u16, position: [f32; 3]) {
        self.tracks[usize::from(emitter)]
            .set_position(vector(position), linear(std::time::Duration::ZERO));
    }

    pub(crate) fn play(
        &mut self,
        emitter: u16,
        data: StaticSoundData,
    ) -> Result<StaticSoundHandle, PlaySoundError<()>> {
        self.tracks[usize::from(emitter)].play(data)
    }

    /// An emitter taken but not used.
    pub(crate) fn give_back(&mut self, emitter: u16) {
        self.free.push(emitter);
    }

    /// Emitters whose last sound kira has let go of are free again.
    pub(crate) fn release_emptied(&mut self) {
        let (tracks, free) = (&self.tracks, &mut self.free);
        self.quarantined.retain(|e| {
            let empty = tracks[usize::from(*e)].num_sounds() == 0;
            if empty {
                free.push(*e);
            }
            !empty
        });
    }

    pub(crate) fn set_listener(&mut self, position: [f32; 3]) {
        self.listener
            .set_position(vector(position), linear(std::time::Duration::ZERO));
    }
}

//! Zones inside the bank (see `zone.rs`): the table the game keeps up to
//! date, and each voice's weight in each zone, aimed once a chunk and moved
//! through it by equal steps.

use kira::Frame;

use super::mix::MixGains;
use super::outs::Outs;
use crate::MAX_ZONES;
use crate::zone::ZoneOut;

/// The zones the game has set, by slot.
pub(super) struct ZoneTable {
    list: [Option<ZoneOut>; MAX_ZONES],
    /// Each zone's level as an amplitude.
    amplitude: [f32; MAX_ZONES],
    /// A zone was set since the last chunk: every voice weighs itself again.
    pub(super) changed: bool,
    /// Zones removed in this chunk: silent now (their sends move to 0 within
    /// a step), gone at its end.
    leaving: [bool; MAX_ZONES],
}

impl ZoneTable {
    pub(super) fn new() -> Self {
        Self {
            list: [None; MAX_ZONES],
            amplitude: [0.0; MAX_ZONES],
            changed: false,
            leaving: [false; MAX_ZONES],
        }
    }

    /// Sets zone `index`, or removes it (`None`): its sends fade to nothing
    /// in the next step, and it is gone at the end of the chunk.
    pub(super) fn set(&mut self, index: u8, zone: Option<ZoneOut>) {
        let i = usize::from(index);
        if i >= MAX_ZONES {
            return;
        }
        match zone {
            Some(zone) => {
                self.list[i] = Some(zone);
                self.amplitude[i] = zone.settings.level.as_amplitude();
                self.leaving[i] = false;
            }
            None => {
                self.amplitude[i] = 0.0;
                self.leaving[i] = self.list[i].is_some();
            }
        }
        self.changed = true;
    }

    /// The end of a chunk: the zones removed in it are gone.
    pub(super) fn settle(&mut self) {
        for (zone, leaving) in self.list.iter_mut().zip(&mut self.leaving) {
            if std::mem::take(leaving) {
                *zone = None;
                self.changed = true;
            }
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.list.iter().all(Option::is_none)
    }
}

/// A voice's weights in the zones.
#[derive(Clone, Copy)]
pub(super) struct VoiceZones {
    /// Its sound sends to zones.
    pub(super) on: bool,
    from: [f32; MAX_ZONES],
    to: [f32; MAX_ZONES],
    /// The send gain per zone at the end of the last step (`None`: not heard
    /// yet in this zone).
    gain: [Option<f32>; MAX_ZONES],
    /// Some weight is above 0 in this chunk.
    pub(super) heard: bool,
}

impl VoiceZones {
    pub(super) const OFF: Self = Self {
        on: false,
        from: [0.0; MAX_ZONES],
        to: [0.0; MAX_ZONES],
        gain: [None; MAX_ZONES],
        heard: false,
    };

    pub(super) fn new(on: bool) -> Self {
        Self { on, ..Self::OFF }
    }

    /// A new chunk: the weights move on from where the last one ended, to
    /// their value at `at` (the voice's place, `listener` for zones that
    /// follow it) if `weigh`; from there at once for a voice not heard yet.
    pub(super) fn aim(
        &mut self,
        table: &ZoneTable,
        (at, listener): ([f32; 3], [f32; 3]),
        weigh: bool,
        fresh: bool,
    ) {
        self.from = self.to;
        if weigh {
            for (to, zone) in self.to.iter_mut().zip(&table.list) {
                *to = zone.map_or(0.0, |z| {
                    let point = if z.settings.follows_listener {
                        listener
                    } else {
                        at
                    };
                    z.settings.weight(point)
                });
            }
        }
        if fresh {
            self.from = self.to;
            self.gain = [None; MAX_ZONES];
        } else {
            // A zone new to a voice that plays fades in.
            for gain in &mut self.gain {
                gain.get_or_insert(0.0);
            }
        }
        self.heard = self
            .from
            .iter()
            .zip(&self.to)
            .any(|(a, b)| *a > 0.0 || *b > 0.0);
    }

    /// Adds `step`, the voice's rendered frames, to each zone's out times the
    /// zone's level and the voice's weight, moving by equal steps from the
    /// last step's gain to this one's (at `along` of the chunk).
    pub(super) fn mix(
        &mut self,
        step: &[Frame],
        along: f32,
        (table, mix): (&ZoneTable, &MixGains),
        (outs, main): (&mut Outs, &mut [Frame]),
    ) {
        let n = step.len() as f32;
        for (z, zone) in table.list.iter().enumerate() {
            let Some(zone) = zone else {
                self.gain[z] = None;
                continue;
            };
            let weight = self.from[z] + (self.to[z] - self.from[z]) * along;
            let to = table.amplitude[z] * weight * mix.send_gain(zone.out);
            let from = self.gain[z].unwrap_or(to);
            self.gain[z] = Some(to);
            if from == 0.0 && to == 0.0 {
                continue;
            }
            let delta = (to - from) / n;
            let mut gain = from;
            for (out, frame) in outs.target(zone.out, main).iter_mut().zip(step) {
                gain += delta;
                *out += *frame * gain;
            }
        }
    }
}

//! A voice's sends inside the bank (see `send.rs`): each adds the voice's
//! rendered step to a return bus's out, times a gain that moves by equal steps
//! to the send's level (a kira `Parameter`, tweened) plus its distance curve
//! (aimed once a chunk, like the spatial gains, and moved through the chunk).

use kira::info::Info;
use kira::{Decibels, Frame, Parameter, Tween, Value};

use super::mix::MixGains;
use super::outs::Outs;
use super::zones::{VoiceZones, ZoneTable};
use crate::MAX_SENDS;
use crate::send::{SendCurve, SendOuts};

/// One send of a voice.
struct VoiceSend {
    out: u8,
    level: Parameter<Decibels>,
    /// The level as an amplitude, as of the last update.
    amplitude: f32,
    curve: Option<SendCurve>,
    /// The curve's gain at the chunk's start and end.
    curve_from: f32,
    curve_to: f32,
    /// The send's gain at the end of the last step (`None` before the first).
    gain: Option<f32>,
    /// Its level has a tween not over yet.
    tweening: bool,
}

/// The sends of one voice.
pub(super) struct VoiceSends {
    list: [Option<VoiceSend>; MAX_SENDS],
    len: u8,
    /// A level is tweening.
    moving: bool,
}

/// A curve's gain at `distance` metres (1 without a curve).
fn curve_gain(curve: Option<SendCurve>, distance: f32) -> f32 {
    curve.map_or(1.0, |c| Decibels(c.at(distance)).as_amplitude())
}

impl VoiceSends {
    pub(super) const NONE: Self = Self {
        list: [const { None }; MAX_SENDS],
        len: 0,
        moving: false,
    };

    /// The sends of a voice that starts `distance` metres from the listener.
    pub(super) fn start(sends: &SendOuts, distance: f32) -> Self {
        let mut list = [const { None }; MAX_SENDS];
        let mut len = 0;
        for (place, send) in list.iter_mut().zip(sends.iter().filter(|s| s.out != 0)) {
            let gain = curve_gain(send.curve, distance);
            *place = Some(VoiceSend {
                out: send.out,
                level: Parameter::new(Value::Fixed(Decibels(send.level)), Decibels(send.level)),
                amplitude: Decibels(send.level).as_amplitude(),
                curve: send.curve,
                curve_from: gain,
                curve_to: gain,
                gain: None,
                tweening: false,
            });
            len += 1;
        }
        Self {
            list,
            len,
            moving: false,
        }
    }

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Moves send `index`'s level to `level` with `tween`.
    pub(super) fn set(&mut self, index: u8, level: Decibels, tween: Tween) {
        if let Some(Some(send)) = self.list.get_mut(usize::from(index)) {
            send.level.set(Value::Fixed(level), tween);
            send.tweening = true;
            self.moving = true;
        }
    }

    /// A level is tweening.
    pub(super) fn moving(&self) -> bool {
        self.moving
    }

    /// Moves the tweening levels on by `seconds`.
    pub(super) fn update(&mut self, seconds: f64, info: &Info) {
        if !self.moving {
            return;
        }
        let mut moving = false;
        for send in self.list.iter_mut().flatten() {
            if send.tweening && send.level.update(seconds, info) {
                send.tweening = false;
            }
            moving |= send.tweening;
            send.amplitude = send.level.value().as_amplitude();
        }
        self.moving = moving;
    }

    /// A new chunk: the curves move on from where the last one ended, to their
    /// gain at `distance` if the voice or the listener moved (from there at
    /// once for a voice not heard yet, `fresh`).
    pub(super) fn aim(&mut self, distance: Option<f32>, fresh: bool) {
        for send in self.list.iter_mut().flatten() {
            send.curve_from = send.curve_to;
            if let Some(distance) = distance {
                send.curve_to = curve_gain(send.curve, distance);
            }
            if fresh {
                send.curve_from = send.curve_to;
            }
        }
    }

    /// Adds `step`, the voice's rendered frames, to each send's out times its
    /// gain and the mix's gain of every send to that out, moving by equal
    /// steps from the last step's to this one's (at `along` of the chunk).
    pub(super) fn mix(
        &mut self,
        step: &[Frame],
        along: f32,
        mix: &MixGains,
        (outs, main): (&mut Outs, &mut [Frame]),
    ) {
        let n = step.len() as f32;
        for send in self.list.iter_mut().flatten() {
            let curve = send.curve_from + (send.curve_to - send.curve_from) * along;
            let to = send.amplitude * curve * mix.send_gain(send.out);
            let from = send.gain.unwrap_or(to);
            send.gain = Some(to);
            let target = outs.target(send.out, main);
            if from == to {
                for (out, frame) in target.iter_mut().zip(step) {
                    *out += *frame * to;
                }
            } else {
                let delta = (to - from) / n;
                let mut gain = from;
                for (out, frame) in target.iter_mut().zip(step) {
                    gain += delta;
                    *out += *frame * gain;
                }
            }
        }
    }
}

/// Where a voice is mixed besides its own out: its sends and its weights in
/// the zones. Kept beside the voices, by slot, so a voice that has neither
/// costs the mixer nothing more to read.
pub(super) struct Routes {
    pub(super) sends: VoiceSends,
    pub(super) zones: VoiceZones,
}

impl Routes {
    pub(super) const NONE: Self = Self {
        sends: VoiceSends::NONE,
        zones: VoiceZones::OFF,
    };

    /// A voice that starts with `sends`, in the zones if `zones`.
    pub(super) fn start(sends: &SendOuts, zones: bool) -> Self {
        Self {
            sends: VoiceSends::start(sends, 0.0),
            zones: VoiceZones::new(zones),
        }
    }

    /// A new chunk for a voice at `position` (`None`: at the listener): its
    /// sends' curves and its zones' weights, weighed again if it or the
    /// listener moved (`weigh`); from there at once when `fresh`.
    pub(super) fn aim(
        &mut self,
        (position, listener): (Option<[f32; 3]>, [f32; 3]),
        (weigh, fresh): (bool, bool),
        zones: &ZoneTable,
    ) {
        if !self.sends.is_empty() {
            let distance = weigh.then(|| position.map_or(0.0, |p| distance(p, listener)));
            self.sends.aim(distance, fresh);
        }
        if self.zones.on {
            if zones.is_empty() {
                self.zones.heard = false;
            } else {
                let at = position.unwrap_or(listener);
                let weigh = weigh || zones.changed;
                self.zones.aim(zones, (at, listener), weigh, fresh);
            }
        }
    }

    /// A send's level is tweening.
    pub(super) fn moving(&self) -> bool {
        self.sends.moving()
    }

    /// Whether the voice is mixed anywhere but its own out this chunk.
    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.sends.is_empty() && !self.zones.heard
    }

    /// Whether the voice may be mixed anywhere but its own out (it has sends,
    /// or takes part in zones and there are some): its routes are read.
    pub(super) fn wanted(&self, zones: &ZoneTable) -> bool {
        !self.sends.is_empty() || (self.zones.on && !zones.is_empty())
    }
}

/// The distance between `a` and `b`, metres.
fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    let d = [0, 1, 2].map(|i| a[i] - b[i]);
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::send::SendOut;

    /// A voice with two sends, one of them tweened: it moves until that
    /// tween is over, and then no longer (the other send, never tweened,
    /// does not keep it moving).
    #[test]
    fn a_voice_moves_only_while_one_of_its_sends_tweens() {
        let mut outs = [SendOut {
            out: 0,
            level: 0.0,
            curve: None,
        }; MAX_SENDS];
        for (i, out) in outs.iter_mut().take(2).enumerate() {
            out.out = i as u8 + 1;
        }
        let mut sends = VoiceSends::start(&outs, 1.0);
        assert!(!sends.moving());
        let tween = Tween {
            duration: Duration::from_millis(10),
            ..Default::default()
        };
        sends.set(0, Decibels(-6.0), tween);
        assert!(sends.moving());
        let info = kira::info::MockInfoBuilder::new().build();
        sends.update(0.005, &info);
        assert!(sends.moving(), "halfway");
        sends.update(0.006, &info);
        assert!(!sends.moving(), "the tween is over");
        let level = sends.list[0].as_ref().map(|s| s.amplitude);
        assert_eq!(level, Some(Decibels(-6.0).as_amplitude()));
    }
}

//! Positioned voices, heard from the listener: the gain each channel gets from
//! distance, direction, spatial blend and the play's own panning, folded into the
//! volume and panning of a plain kira sound.
//!
//! kira spatializes through spatial tracks, one per emitter; 32 of them cost the
//! audio thread about four times what 32 sounds on one track cost. FMOD and Wwise
//! spatialize each voice instead, and so does this crate: a positioned voice is a
//! plain kira sound on the sound-effects track whose volume and panning follow
//! the listener, set again whenever the voice or the listener moves (kira
//! interpolates a change across its next processing chunk, as a spatial track
//! interpolates a move).
//!
//! The model is kira's spatial track at full strength, so a voice sounds the same
//! as it would on one: distance attenuation by [`distance_gain`], and each ear's
//! gain `(1 + cos(angle)) / 2` between the ear's direction (90 degrees to its
//! side, turned 22.5 degrees forward) and the direction from the ear (10 cm from
//! the head's centre) to the voice. Two things differ, on purpose:
//! - the spatial blend crossfades each channel's gain between the unspatialized
//!   sound and the spatialized one, as Unity's spatial blend does (a blend of 0
//!   ignores the position entirely; kira's strength only narrows the panning);
//! - the play's own panning (kira's pan law) applies on top of the position, and
//!   a stereo sound keeps its stereo image (a spatial track mixes it to mono
//!   first).
//!
//! No channel is ever louder than the unpositioned play: the distance gain and the
//! ear gains are at most 1. A positioned copy therefore stays inside its copy
//! budget, which already allows for the play's panning.

use crate::audibility::{distance, distance_gain};

/// How far each ear is from the head's centre (kira's `EAR_DISTANCE`).
const EAR_DISTANCE: f32 = 0.1;
/// How far forward each ear is turned (kira's `EAR_ANGLE_FROM_HEAD`, pi / 8).
const EAR_ANGLE: f64 = std::f64::consts::FRAC_PI_8;

/// What kira is asked for: the amplitude the voice's own volume is multiplied
/// by, and the panning.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Heard {
    pub(crate) gain: f64,
    pub(crate) panning: f32,
}

/// How a voice with the play's `panning`, at `position` (if positioned) with
/// `blend`, is heard from `listener` (facing kira's default direction, -z).
pub(crate) fn heard(
    panning: f32,
    position: Option<[f32; 3]>,
    blend: f32,
    listener: [f32; 3],
) -> Heard {
    let Some(position) = position else {
        return Heard { gain: 1.0, panning };
    };
    let [left, right] = pan_law(panning);
    let [left_ear, right_ear] = ears(position, listener);
    let attenuation = f64::from(distance_gain(distance(position, listener)));
    let blend = f64::from(blend.clamp(0.0, 1.0));
    let spatial = |ear: f64| (1.0 - blend) + blend * attenuation * ear;
    fold(left * spatial(left_ear), right * spatial(right_ear))
}

/// kira's pan law (`Frame::panned`): the gain of each channel.
fn pan_law(panning: f32) -> [f64; 2] {
    if panning == 0.0 {
        return [1.0, 1.0];
    }
    let mix = (f64::from(panning.clamp(-1.0, 1.0)) + 1.0) / 2.0;
    [(1.0 - mix).sqrt(), mix.sqrt()].map(|g| g * std::f64::consts::SQRT_2)
}

/// kira's ear model with the listener facing -z: each ear's gain, in `[0, 1]`.
fn ears(position: [f32; 3], listener: [f32; 3]) -> [f64; 2] {
    let (sin, cos) = EAR_ANGLE.sin_cos();
    // Each ear points to its side, turned forward (towards -z).
    [(-1.0, [-cos, 0.0, -sin]), (1.0, [cos, 0.0, -sin])].map(|(side, direction)| {
        // The ear where kira puts it, in f32.
        let ear = [listener[0] + side * EAR_DISTANCE, listener[1], listener[2]];
        let to_voice = [0, 1, 2].map(|axis| f64::from(position[axis]) - f64::from(ear[axis]));
        let length = to_voice.iter().map(|c| c * c).sum::<f64>().sqrt();
        let cosine = if length > 0.0 && length.is_finite() {
            to_voice
                .iter()
                .zip(direction)
                .map(|(c, d)| c / length * d)
                .sum::<f64>()
        } else {
            0.0
        };
        (cosine + 1.0) / 2.0
    })
}

/// The volume and panning of a kira sound whose left channel gets `left` and
/// right channel `right`: kira's pan law inverted (each channel gets
/// `gain * sqrt(2) * sqrt(share)`).
fn fold(left: f64, right: f64) -> Heard {
    let power = left * left + right * right;
    if !(power > 0.0 && power.is_finite()) {
        return Heard {
            gain: 0.0,
            panning: 0.0,
        };
    }
    let panning = (2.0 * right * right / power - 1.0) as f32;
    Heard {
        gain: (power / 2.0).sqrt(),
        // Exactly centred when both channels are equal, kira's fast path.
        panning: if left == right { 0.0 } else { panning },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each channel's gain as kira plays `heard` on a sound of volume 1.
    fn channels(heard: Heard) -> [f64; 2] {
        pan_law(heard.panning).map(|g| g * heard.gain)
    }

    #[test]
    fn unpositioned_voices_are_left_as_they_are() {
        assert_eq!(
            heard(0.3, None, 1.0, [5.0; 3]),
            Heard {
                gain: 1.0,
                panning: 0.3
            }
        );
    }

    #[test]
    fn the_fold_gives_kira_each_channels_gain_back() {
        for (left, right) in [(1.0, 1.0), (0.9, 0.1), (0.0, 0.7), (0.3, 0.0), (1.2, 1.4)] {
            let [l, r] = channels(fold(left, right));
            // The panning kira takes is an f32.
            assert!(
                (l - left).abs() < 1e-6 && (r - right).abs() < 1e-6,
                "{left} {right}: {l} {r}"
            );
        }
        assert_eq!(fold(0.5, 0.5).panning, 0.0);
        assert_eq!(fold(0.0, 0.0).gain, 0.0);
        assert_eq!(fold(f64::NAN, 1.0).gain, 0.0);
    }

    #[test]
    fn the_ears_hear_the_side_a_voice_is_on() {
        let [left, right] = ears([5.0, 0.0, 0.0], [0.0; 3]);
        // cos(22.5 degrees) = 0.924 for the right ear, its opposite for the left.
        assert!((right - 0.962).abs() < 1e-3 && (left - 0.038).abs() < 1e-3);
        let [left, right] = ears([0.0, 0.0, -5.0], [0.0; 3]);
        assert!(
            (left - right).abs() < 1e-12 && left > 0.5,
            "ahead: both ears"
        );
        let [left, right] = ears([0.0, 0.0, 5.0], [0.0; 3]);
        assert!(
            (left - right).abs() < 1e-12 && left < 0.5,
            "behind: both ears, less"
        );
        assert_eq!(ears([0.1, 0.0, 0.0], [0.0; 3])[1], 0.5, "at the ear itself");
    }

    #[test]
    fn no_channel_is_louder_than_the_unpositioned_play_and_nothing_is_nan() {
        let positions = [
            [0.0, 0.0, 0.0],
            [0.3, 0.0, 0.0],
            [-2.0, 5.0, 1.0],
            [3e38, 3e38, -3e38],
        ];
        for position in positions {
            for panning in [-1.0, -0.3, 0.0, 1.0] {
                for blend in [0.0, 0.4, 1.0] {
                    let flat = channels(heard(panning, None, 1.0, [0.0; 3]));
                    let got = channels(heard(panning, Some(position), blend, [-3e38, 0.0, 0.0]));
                    let near = channels(heard(panning, Some(position), blend, [0.0; 3]));
                    for c in 0..2 {
                        for g in [got[c], near[c]] {
                            assert!(
                                g.is_finite() && g <= flat[c] + 1e-9,
                                "{position:?} {panning} {blend}: {g}"
                            );
                        }
                    }
                }
            }
        }
    }
}

//! Positioned voices, heard from the listener: the gain each channel gets from
//! distance, direction, spatial blend and the play's own panning.
//!
//! kira spatializes through spatial tracks, one per emitter; 32 of them cost the
//! audio thread about four times what 32 sounds on one track cost. FMOD and Wwise
//! spatialize each voice instead, and so does this crate: the voice bank gives a
//! positioned voice these gains per channel, computed again whenever the voice or
//! the listener moves and interpolated across the mixer's next processing chunk,
//! as a spatial track interpolates a move.
//!
//! The model is kira's spatial track at full strength, so a voice sounds the same
//! as it would on one: distance attenuation by [`Distances::level`], and each ear's
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
//! kira's ears sit 10 cm either side of the head's centre and hear the
//! direction from themselves, so a voice at the listener's own position (a
//! player's gun, footsteps or voice) would be behind both ears, 28 dB down, and
//! one passing through the head would jump from one side to the other. Within
//! the near field (2 m) of the listener the gains move instead from kira's at
//! the near field's edge, in the voice's direction, to the unpositioned play's
//! (both channels at 1, centred) at the listener: by `sin(pi/2 * d / 2 m)`,
//! so each channel falls steadily with distance and meets kira's model at
//! 2 m without a corner. Beyond 2 m the gains are kira's; 2 m is where
//! kira's parallax (a voice in front or behind gets louder as it moves away,
//! its direction from each ear closing on its direction from the centre) is
//! outweighed by the default distance curve's fall, so the level never rises
//! with distance with the default [`Distances`].
//!
//! No channel is ever louder than the unpositioned play: the distance gain and the
//! ear gains are at most 1. A positioned copy therefore stays inside its copy
//! budget, which already allows for the play's panning.

use crate::Distances;
use crate::audibility::distance;

/// How far each ear is from the head's centre (kira's `EAR_DISTANCE`).
const EAR_DISTANCE: f32 = 0.1;
/// Within this distance of the listener (metres) a voice moves towards the
/// centre and the unpositioned level.
pub(crate) const NEAR_FIELD: f64 = 2.0;
/// How far forward each ear is turned (kira's `EAR_ANGLE_FROM_HEAD`, pi / 8).
const EAR_ANGLE: f64 = std::f64::consts::FRAC_PI_8;

/// Where the voices are heard from, and which way the head faces.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ListenerState {
    pub(crate) position: [f32; 3],
    /// A unit quaternion `[x, y, z, w]`: the identity faces -z with +x to the
    /// right, as kira's listener does.
    pub(crate) orientation: [f32; 4],
    /// In m/s, for doppler.
    pub(crate) velocity: [f32; 3],
}

impl ListenerState {
    pub(crate) const ORIGIN: Self = Self {
        position: [0.0; 3],
        orientation: [0.0, 0.0, 0.0, 1.0],
        velocity: [0.0; 3],
    };
}

/// `v` rotated by the unit quaternion `q` (`[x, y, z, w]`):
/// `v + 2w (q x v) + 2 q x (q x v)`.
fn rotate(q: [f32; 4], v: [f64; 3]) -> [f64; 3] {
    let (u, w) = ([q[0], q[1], q[2]].map(f64::from), f64::from(q[3]));
    let cross = |a: [f64; 3], b: [f64; 3]| {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    };
    let t = cross(u, v).map(|c| 2.0 * c);
    let ut = cross(u, t);
    [0, 1, 2].map(|i| v[i] + w * t[i] + ut[i])
}

/// The gain each channel gets from where the voice is: `(1 - blend) + blend *
/// distance * ear` (kira's spatial track at full strength when `blend` is 1),
/// the distance gain by `distances`.
pub(crate) fn spatial_gains(
    position: [f32; 3],
    (blend, distances): (f32, &Distances),
    listener: ListenerState,
) -> [f32; 2] {
    let [left_ear, right_ear] = heard(position, listener);
    let attenuation = f64::from(distances.gain(distance(position, listener.position)));
    let blend = f64::from(blend.clamp(0.0, 1.0));
    let spatial = |ear: f64| ((1.0 - blend) + blend * attenuation * ear) as f32;
    [spatial(left_ear), spatial(right_ear)]
}

/// kira's pan law (`Frame::panned`): the gain of each channel.
pub(crate) fn pan_law(panning: f32) -> [f32; 2] {
    if panning == 0.0 {
        // kira's fast path: centred is exactly 1.
        return [1.0, 1.0];
    }
    let mix = (panning.clamp(-1.0, 1.0) + 1.0) * 0.5;
    [(1.0 - mix).sqrt(), mix.sqrt()].map(|g| g * std::f32::consts::SQRT_2)
}

/// Each ear's gain: kira's beyond [`NEAR_FIELD`]; within it, from kira's at
/// the near field's edge in the voice's direction to 1 at the listener.
fn heard(position: [f32; 3], listener: ListenerState) -> [f64; 2] {
    let offset: [f64; 3] =
        [0, 1, 2].map(|axis| f64::from(position[axis]) - f64::from(listener.position[axis]));
    let d = offset.iter().map(|c| c * c).sum::<f64>().sqrt();
    // Far, or not a number (every position is checked where it enters).
    if d >= NEAR_FIELD || d.is_nan() {
        return ears(position, listener);
    }
    if d == 0.0 {
        return [1.0, 1.0];
    }
    let edge = [0, 1, 2]
        .map(|axis| (f64::from(listener.position[axis]) + offset[axis] * NEAR_FIELD / d) as f32);
    let far = (std::f64::consts::FRAC_PI_2 * d / NEAR_FIELD).sin();
    ears(edge, listener).map(|ear| 1.0 + (ear - 1.0) * far)
}

/// kira's ear model: each ear's gain, in `[0, 1]`. With the identity
/// orientation the head faces -z; the orientation turns the ears with it.
fn ears(position: [f32; 3], listener: ListenerState) -> [f64; 2] {
    let (sin, cos) = EAR_ANGLE.sin_cos();
    let turn = |v: [f64; 3]| rotate(listener.orientation, v);
    // Each ear points to its side, turned forward (towards -z).
    [(-1.0, [-cos, 0.0, -sin]), (1.0, [cos, 0.0, -sin])].map(|(side, direction)| {
        let direction = turn(direction);
        // The ear where kira puts it, in f32.
        let offset = turn([f64::from(side * EAR_DISTANCE), 0.0, 0.0]);
        let ear = [0, 1, 2].map(|axis| listener.position[axis] + offset[axis] as f32);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pan_law_is_kiras() {
        assert_eq!(pan_law(0.0), [1.0, 1.0]);
        let [left, right] = pan_law(1.0);
        assert!(left.abs() < 1e-6 && (right - std::f32::consts::SQRT_2).abs() < 1e-6);
        let frame = kira::Frame::from_mono(1.0).panned(kira::Panning(-0.3));
        let [left, right] = pan_law(-0.3);
        assert!((frame.left - left).abs() < 1e-6 && (frame.right - right).abs() < 1e-6);
    }

    #[test]
    fn the_ears_hear_the_side_a_voice_is_on() {
        let [left, right] = ears([5.0, 0.0, 0.0], ListenerState::ORIGIN);
        // cos(22.5 degrees) = 0.924 for the right ear, its opposite for the left.
        assert!((right - 0.962).abs() < 1e-3 && (left - 0.038).abs() < 1e-3);
        let [left, right] = ears([0.0, 0.0, -5.0], ListenerState::ORIGIN);
        assert!(
            (left - right).abs() < 1e-12 && left > 0.5,
            "ahead: both ears"
        );
        let [left, right] = ears([0.0, 0.0, 5.0], ListenerState::ORIGIN);
        assert!(
            (left - right).abs() < 1e-12 && left < 0.5,
            "behind: both ears, less"
        );
        assert_eq!(
            ears([0.1, 0.0, 0.0], ListenerState::ORIGIN)[1],
            0.5,
            "at the ear itself"
        );
    }

    #[test]
    fn the_near_field_meets_kiras_ears_at_its_edge_and_the_centre_at_the_listener() {
        let listener = ListenerState {
            position: [3.0, -1.0, 2.0],
            ..ListenerState::ORIGIN
        };
        assert_eq!(heard(listener.position, listener), [1.0, 1.0]);
        for direction in [[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.6, 0.0, 0.8]] {
            let at = |d: f32| [0, 1, 2].map(|i| listener.position[i] + direction[i] * d);
            let inside = heard(at(2.0 - 1e-4), listener);
            let edge = ears(at(2.0), listener);
            for c in 0..2 {
                assert!((inside[c] - edge[c]).abs() < 1e-4, "{direction:?}");
            }
            // Each channel falls all the way in.
            let mut before = [1.0, 1.0];
            for cm in 1..=200 {
                let now = heard(at(cm as f32 / 100.0), listener);
                assert!(now[0] <= before[0] + 1e-12 && now[1] <= before[1] + 1e-12);
                before = now;
            }
        }
    }

    #[test]
    fn a_blend_of_zero_ignores_the_position() {
        assert_eq!(
            spatial_gains(
                [60.0, 0.0, 0.0],
                (0.0, &Distances::default()),
                ListenerState::ORIGIN
            ),
            [1.0, 1.0]
        );
        let [left, right] = spatial_gains(
            [60.0, 0.0, 0.0],
            (0.5, &Distances::default()),
            ListenerState::ORIGIN,
        );
        assert!(left > 0.5 && left < 0.51 && right > 0.5 && right < 0.51);
    }

    #[test]
    fn no_channel_gets_a_gain_above_one_and_nothing_is_nan() {
        let positions = [
            [0.0, 0.0, 0.0],
            [0.3, 0.0, 0.0],
            [-2.0, 5.0, 1.0],
            [3e38, 3e38, -3e38],
        ];
        for position in positions {
            for blend in [0.0, 0.4, 1.0] {
                for listener in [[-3e38, 0.0, 0.0], [0.0; 3]] {
                    for gain in spatial_gains(
                        position,
                        (blend, &Distances::default()),
                        ListenerState {
                            position: listener,
                            ..ListenerState::ORIGIN
                        },
                    ) {
                        assert!(
                            gain.is_finite() && (0.0..=1.0).contains(&gain),
                            "{position:?} {blend}: {gain}"
                        );
                    }
                }
            }
        }
    }
}

//! How audible a voice is, the measure that decides which voices are real.
//!
//! A voice's audibility is the level it would reach as its sound's first copy:
//! the sound's first-copy volume, times the play's volume, times its distance
//! attenuation. The distance attenuation is kira's own curve for a spatial track
//! with its default distances and easing, which positioned voices are played
//! with (see `spatial.rs`): full level within 1 m, then linear in decibels from
//! 0 dB at 1 m down to -60 dB (silence) at 100 m and beyond, crossfaded with full
//! level by the play's spatial blend. Unpositioned voices are not attenuated. The
//! copy's rank, the pan law and the direction are left out on purpose: they would
//! make a voice's audibility change with where it happens to be placed or which
//! way it is heard from, and voices would flap.
//!
//! Voices are ranked by priority first and audibility second (FMOD's order): a
//! higher-priority voice is always kept over a lower one, and among equals a
//! virtual voice replaces a real one only when it is louder by the margin
//! (hysteresis, [`SoundEffectsSettings::virtual_margin_db`](crate::SoundEffectsSettings::virtual_margin_db)).

/// kira's spatial track: full level within this distance.
pub(crate) const MIN_DISTANCE: f32 = 1.0;
/// kira's spatial track: silent from this distance on.
pub(crate) const MAX_DISTANCE: f32 = 100.0;
/// kira's `Decibels::SILENCE`.
const SILENCE_DB: f32 = -60.0;

/// The gain kira's spatial track applies at `distance` (kira's
/// `SpatialTrackDistances::relative_distance` with `Easing::Linear`, interpolated
/// in decibels from silence to 0 dB; silence is an amplitude of 0).
pub(crate) fn distance_gain(distance: f32) -> f32 {
    let clamped = distance.clamp(MIN_DISTANCE, MAX_DISTANCE);
    let relative = (clamped - MIN_DISTANCE) / (MAX_DISTANCE - MIN_DISTANCE);
    let db = SILENCE_DB * relative;
    if db <= SILENCE_DB {
        0.0
    } else {
        10f32.powf(db / 20.0)
    }
}

/// The attenuation of a voice at `position` (if positioned) with spatial
/// `blend`, heard from `listener`: the distance gain crossfaded with 1.
pub(crate) fn attenuation(position: Option<[f32; 3]>, blend: f32, listener: [f32; 3]) -> f32 {
    position.map_or(1.0, |p| {
        let blend = blend.clamp(0.0, 1.0);
        (1.0 - blend) + blend * distance_gain(distance(p, listener))
    })
}

/// The distance between a voice and the listener.
pub(crate) fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(a, b)| (a - b) * (a - b))
        .sum::<f32>()
        .sqrt()
}

/// A sound's `priority` as heard from `listener` by a play at `position` with
/// spatial `blend`: moved by `offset` linearly with the distance, from none at
/// the listener to all of it at [`MAX_DISTANCE`] and beyond (Wwise's "offset
/// priority at max distance"), scaled by the blend (a play at the listener,
/// unpositioned or of blend 0, keeps its priority), rounded to a whole one.
pub(crate) fn heard_priority(
    (priority, offset): (i32, i32),
    position: Option<[f32; 3]>,
    blend: f32,
    listener: [f32; 3],
) -> i32 {
    match position {
        Some(p) if offset != 0 => {
            let relative = (distance(p, listener) / MAX_DISTANCE).min(1.0) * blend.clamp(0.0, 1.0);
            priority.saturating_add((offset as f32 * relative).round() as i32)
        }
        _ => priority,
    }
}

/// A voice's rank: priority, then audibility (a linear amplitude).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Rank {
    pub(crate) priority: i32,
    pub(crate) level: f32,
}

impl Rank {
    /// A rank below every audible voice (a paused one).
    pub(crate) const SILENT: Rank = Rank {
        priority: i32::MIN,
        level: 0.0,
    };

    /// The rank of a voice of `priority` whose level before distance is
    /// `reference`, attenuated by `gain` (its [`attenuation`] from the
    /// listener).
    pub(crate) fn heard(priority: i32, reference: f32, gain: f32) -> Self {
        Self {
            priority,
            level: reference * gain,
        }
    }

    /// `true` if `self` should take the place of `other`: a higher priority, or
    /// the same priority and louder by `margin` (a gain >= 1).
    pub(crate) fn beats(self, other: Rank, margin: f32) -> bool {
        match self.priority.cmp(&other.priority) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => self.level > other.level * margin,
        }
    }
}

/// Orders two ranks, priority first, loudest last (levels are never NaN:
/// volumes and positions are checked).
pub(crate) fn compare(a: Rank, b: Rank) -> std::cmp::Ordering {
    a.priority
        .cmp(&b.priority)
        .then(a.level.total_cmp(&b.level))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kira_curve_endpoints() {
        assert_eq!(distance_gain(0.0), 1.0);
        assert_eq!(distance_gain(1.0), 1.0);
        assert_eq!(distance_gain(100.0), 0.0);
        assert_eq!(distance_gain(1_000.0), 0.0);
        // Half way (in relative distance) is -30 dB.
        let half = distance_gain(50.5);
        assert!((20.0 * half.log10() + 30.0).abs() < 1e-3, "{half}");
    }

    #[test]
    fn priority_falls_linearly_to_the_offset_at_the_maximum_distance() {
        let at = |x: f32| heard_priority((10, -20), Some([x, 0.0, 0.0]), 1.0, [0.0; 3]);
        assert_eq!(
            [at(0.0), at(25.0), at(50.0), at(100.0), at(500.0)],
            [10, 5, 0, -10, -10]
        );
        assert_eq!(heard_priority((10, -20), None, 1.0, [0.0; 3]), 10);
        assert_eq!(
            heard_priority((10, -20), Some([100.0, 0.0, 0.0]), 0.5, [0.0; 3]),
            0
        );
        assert_eq!(
            heard_priority((i32::MIN, -5), Some([100.0, 0.0, 0.0]), 1.0, [0.0; 3]),
            i32::MIN
        );
    }

    #[test]
    fn priority_first_then_level_with_margin() {
        let quiet_important = Rank {
            priority: 1,
            level: 0.01,
        };
        let loud = Rank {
            priority: 0,
            level: 1.0,
        };
        assert!(quiet_important.beats(loud, 1.4));
        assert!(!loud.beats(quiet_important, 1.4));
        let a = Rank {
            priority: 0,
            level: 0.5,
        };
        let b = Rank {
            priority: 0,
            level: 0.4,
        };
        assert!(a.beats(b, 1.0));
        assert!(!a.beats(b, 1.4), "within the margin: no swap");
    }
}

//! How audible a voice is, the measure that decides which voices are real.
//!
//! A voice's audibility is the level it would reach as its sound's first copy:
//! the sound's first-copy volume, times the play's volume, times its distance
//! attenuation, and its occlusion's volume. The distance attenuation is kira's
//! own curve for a spatial track with the play's [`Distances`] (by default
//! kira's: full level within 1 m, then linear in decibels from 0 dB at 1 m down
//! to -60 dB (silence) at 100 m and beyond), which positioned voices are played
//! with (see `spatial.rs`), crossfaded with full level by the play's spatial
//! blend. Unpositioned voices are not attenuated. The
//! copy's rank, the pan law and the direction are left out on purpose: they would
//! make a voice's audibility change with where it happens to be placed or which
//! way it is heard from, and voices would flap.
//!
//! Voices are ranked by priority first and audibility second (FMOD's order): a
//! higher-priority voice is always kept over a lower one, and among equals a
//! virtual voice replaces a real one only when it is louder by the margin
//! (hysteresis, [`SoundEffectsSettings::virtual_margin`](crate::SoundEffectsSettings::virtual_margin)).

/// kira's `Decibels::SILENCE`.
const SILENCE_DB: f32 = -60.0;

/// How a positioned sound fades with distance: full level within `min`
/// metres, silent from `max` on, and in between kira's spatial-track curve
/// (the distance gain; the ears then turn each channel with the voice's
/// direction, and move it to the unpositioned level, centred, as it nears the
/// listener: see the crate docs on positioned voices):
/// at relative distance `r = (d - min) / (max - min)` the level is
/// `-60 dB x (1 - curve(1 - r))`, so [`Easing::Linear`](kira::Easing::Linear)
/// is linear in dB. The default is kira's spatial track's: 1 m, 100 m,
/// linear. Set per sound ([`SoundSettings::distances`](crate::SoundSettings::distances))
/// and per play ([`PlayParams::distances`](crate::PlayParams::distances)).
///
/// ```
/// use pool_audio::spatial::Distances;
///
/// let near = Distances { min: 2.0, max: 30.0, ..Distances::default() };
/// assert_eq!(near.level(1.0).0, 0.0);
/// assert_eq!(near.level(30.0).0, f32::NEG_INFINITY);
/// // Half way is -30 dB.
/// assert!((near.level(16.0).0 + 30.0).abs() < 1e-3);
/// assert!(Distances { min: 5.0, max: 5.0, ..near }.validate().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Distances {
    /// Full level within this distance, in metres (finite, `>= 0`).
    pub min: f32,
    /// Silent from this distance on, in metres (finite, `> min`).
    pub max: f32,
    /// The shape between them (kira's easings; a power must be finite and
    /// not negative).
    pub curve: kira::Easing,
}

impl Default for Distances {
    fn default() -> Self {
        Self {
            min: 1.0,
            max: 100.0,
            curve: kira::Easing::Linear,
        }
    }
}

impl Distances {
    /// The level at `distance` metres: kira's spatial track's (its
    /// `relative_distance`, its attenuation function, interpolated in
    /// decibels from silence to 0 dB; silence, from `max` on, is `-inf`).
    #[must_use]
    pub fn level(&self, distance: f32) -> kira::Decibels {
        kira::Decibels(20.0 * self.gain(distance).log10())
    }

    /// [`level`](Self::level) as a linear amplitude (0 for silence).
    pub(crate) fn gain(&self, distance: f32) -> f32 {
        let clamped = distance.clamp(self.min, self.max);
        let relative = (clamped - self.min) / (self.max - self.min);
        let level = match self.curve {
            kira::Easing::Linear => 1.0 - relative,
            curve => crate::cues::ease(curve, f64::from(1.0 - relative)) as f32,
        };
        let db = SILENCE_DB * (1.0 - level);
        if db <= SILENCE_DB {
            0.0
        } else {
            10f32.powf(db / 20.0)
        }
    }

    /// Checks every value.
    ///
    /// # Errors
    /// [`ParamError::Distances`](crate::ParamError::Distances) with the
    /// distances.
    pub fn validate(&self) -> Result<(), crate::ParamError> {
        let safe = crate::sound_error::easing_is_safe(kira::Tween {
            easing: self.curve,
            ..Default::default()
        });
        if self.min.is_finite()
            && self.max.is_finite()
            && self.min >= 0.0
            && self.max > self.min
            && safe
        {
            Ok(())
        } else {
            Err(crate::ParamError::Distances(*self))
        }
    }
}

/// The attenuation of a voice at `position` (if positioned) with spatial
/// `blend` and `distances`, heard from `listener`: the distance gain
/// crossfaded with 1.
pub(crate) fn attenuation(
    position: Option<[f32; 3]>,
    (blend, distances): (f32, &Distances),
    listener: [f32; 3],
) -> f32 {
    position.map_or(1.0, |p| {
        let blend = blend.clamp(0.0, 1.0);
        (1.0 - blend) + blend * distances.gain(distance(p, listener))
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
/// the listener to all of it at the play's maximum distance and beyond (Wwise's "offset
/// priority at max distance"), scaled by the blend (a play at the listener,
/// unpositioned or of blend 0, keeps its priority), rounded to a whole one.
pub(crate) fn heard_priority(
    (priority, offset): (i32, i32),
    position: Option<[f32; 3]>,
    (blend, max): (f32, f32),
    listener: [f32; 3],
) -> i32 {
    match position {
        Some(p) if offset != 0 => {
            let relative = (distance(p, listener) / max).min(1.0) * blend.clamp(0.0, 1.0);
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
        let kira = Distances::default();
        assert_eq!(kira.gain(0.0), 1.0);
        assert_eq!(kira.gain(1.0), 1.0);
        assert_eq!(kira.gain(100.0), 0.0);
        assert_eq!(kira.gain(1_000.0), 0.0);
        // Half way (in relative distance) is -30 dB.
        let half = kira.gain(50.5);
        assert!((20.0 * half.log10() + 30.0).abs() < 1e-3, "{half}");
    }

    #[test]
    fn priority_falls_linearly_to_the_offset_at_the_maximum_distance() {
        let at = |x: f32| heard_priority((10, -20), Some([x, 0.0, 0.0]), (1.0, 100.0), [0.0; 3]);
        assert_eq!(
            [at(0.0), at(25.0), at(50.0), at(100.0), at(500.0)],
            [10, 5, 0, -10, -10]
        );
        assert_eq!(heard_priority((10, -20), None, (1.0, 100.0), [0.0; 3]), 10);
        assert_eq!(
            heard_priority((10, -20), Some([100.0, 0.0, 0.0]), (0.5, 100.0), [0.0; 3]),
            0
        );
        assert_eq!(
            heard_priority(
                (i32::MIN, -5),
                Some([100.0, 0.0, 0.0]),
                (1.0, 100.0),
                [0.0; 3]
            ),
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

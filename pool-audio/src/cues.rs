//! Spatial cues past distance and direction: doppler, obstruction and
//! occlusion, applied inside each voice of the voice bank.
//!
//! - **Doppler.** A positioned voice and the listener have velocities, given
//!   by the game ([`PlayParams::velocity`](crate::PlayParams::velocity),
//!   [`Voice::set_velocity`](crate::Voice::set_velocity),
//!   [`Listener::set_velocity`](crate::Listener::set_velocity))
//!   or derived at each [`update`](crate::SoundEffects::update) from how far
//!   it moved in that time step. A move faster than
//!   [`SoundEffectsSettings::teleport_speed`](crate::SoundEffectsSettings::teleport_speed)
//!   is a teleport: the velocity stays what it was. The voice's playback rate
//!   is multiplied by the textbook factor (see [`doppler_factor`]), computed
//!   in the mixer whenever either moves and interpolated across the mixer's
//!   next chunk, within the rates a play may ask for. A sound's
//!   [`doppler_scale`](crate::SoundSettings::doppler_scale) scales the
//!   velocities (FMOD's doppler scale); 0, the default, is off.
//! - **Obstruction and occlusion.** Amounts from 0 (clear) to 1, set by the
//!   game's own ray tests ([`Voice::set_obstruction`](crate::Voice::set_obstruction),
//!   [`Voice::set_occlusion`](crate::Voice::set_occlusion)).
//!   Each goes through its sound's [`Muffle`] curve to a volume and a
//!   low-pass cutoff; the volumes add, the lower cutoff wins, and one
//!   one-pole low-pass per channel filters the voice. Changes glide over
//!   [`MUFFLE_FADE`], so a wall appearing never clicks. Occlusion's volume
//!   also lowers the voice's audibility, so a voice behind walls can go
//!   virtual; obstruction (a pillar in the direct path) does not, as in Wwise.
//! - **Nothing carries over.** Every cue is part of a voice's start: a bank
//!   slot reused for another play begins with that play's velocity, filter
//!   and gains, the filter's memory empty.

use std::time::Duration;

use kira::{Decibels, Easing};

/// The speed of sound in air at 20 °C, in m/s: the default of
/// [`SoundEffectsSettings::speed_of_sound`](crate::SoundEffectsSettings::speed_of_sound).
pub const SPEED_OF_SOUND: f32 = 343.0;

/// The largest [`doppler_scale`](crate::SoundSettings::doppler_scale) a sound
/// may have (FMOD's limit).
pub const MAX_DOPPLER_SCALE: f64 = 5.0;

/// How long a change of obstruction or occlusion takes to be heard in full
/// (a linear glide of the filter's coefficient and of the volume).
pub const MUFFLE_FADE: Duration = Duration::from_millis(50);

/// The cutoff of a muffle curve at an amount just above 0, in Hz: the curve
/// goes from here to its [`cutoff_hz`](Muffle::cutoff_hz), evenly in octaves.
/// At amount 0 there is no filter at all.
pub const OPEN_CUTOFF_HZ: f64 = 20_000.0;

/// The lowest cutoff a muffle curve may have, in Hz.
pub const MIN_CUTOFF_HZ: f64 = 20.0;

/// The most a muffle curve may lower a voice.
pub const MIN_MUFFLE: Decibels = Decibels(-60.0);

/// How obstruction or occlusion sounds: what an amount of 1 does, and the
/// shape of the way there. At amount `a` the curve is at `e = easing(a)`:
/// the volume is `volume * e` (in dB) and the cutoff goes from
/// [`OPEN_CUTOFF_HZ`] towards `cutoff_hz` by the fraction `e` of the octaves
/// between them.
///
/// ```
/// use pool_audio::spatial::Muffle;
/// use pool_audio::kira::Decibels;
///
/// let wall = Muffle::OCCLUSION;
/// assert_eq!(wall.at(1.0), (Decibels(-15.0), Some(800.0)));
/// assert_eq!(wall.at(0.0), (Decibels(0.0), None)); // clear: no filter
/// let (volume, cutoff) = wall.at(0.5);
/// assert_eq!(volume, Decibels(-7.5));
/// assert!((cutoff.unwrap() - (20_000.0f64 * 800.0).sqrt()).abs() < 1e-6);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Muffle {
    /// The volume at amount 1, `MIN_MUFFLE..=0 dB`.
    pub volume: Decibels,
    /// The low-pass cutoff at amount 1, in Hz, `MIN_CUTOFF_HZ..=OPEN_CUTOFF_HZ`.
    pub cutoff_hz: f64,
    /// The shape of the curve (kira's easings; a power must be finite and
    /// not negative).
    pub easing: Easing,
}

impl Muffle {
    /// The default obstruction curve: -6 dB and a 2.5 kHz cutoff at 1.
    pub const OBSTRUCTION: Self = Self {
        volume: Decibels(-6.0),
        cutoff_hz: 2_500.0,
        easing: Easing::Linear,
    };

    /// The default occlusion curve: -15 dB and an 800 Hz cutoff at 1.
    pub const OCCLUSION: Self = Self {
        volume: Decibels(-15.0),
        cutoff_hz: 800.0,
        easing: Easing::Linear,
    };

    /// The volume and the cutoff in Hz (`None`: no filter) at `amount`
    /// (`0..=1`, clamped).
    #[must_use]
    pub fn at(&self, amount: f32) -> (Decibels, Option<f64>) {
        let (db, cutoff) = self.at_db(amount);
        (Decibels(db as f32), cutoff)
    }

    /// [`at`](Self::at), the volume in `f64` dB.
    pub(crate) fn at_db(&self, amount: f32) -> (f64, Option<f64>) {
        let e = ease(self.easing, f64::from(amount.clamp(0.0, 1.0)));
        if e <= 0.0 {
            return (0.0, None);
        }
        let cutoff = OPEN_CUTOFF_HZ * (self.cutoff_hz / OPEN_CUTOFF_HZ).powf(e);
        (f64::from(self.volume.0) * e, Some(cutoff))
    }

    /// `true` if every number is in range and the easing is safe.
    pub(crate) fn is_valid(&self) -> bool {
        (MIN_MUFFLE.0..=0.0).contains(&self.volume.0)
            && (MIN_CUTOFF_HZ..=OPEN_CUTOFF_HZ).contains(&self.cutoff_hz)
            && crate::sound_error::easing_is_safe(kira::Tween {
                easing: self.easing,
                ..Default::default()
            })
    }
}

/// kira's easing of `x` in `[0, 1]` (kira's own `Easing::apply` is private).
pub(crate) fn ease(easing: Easing, x: f64) -> f64 {
    let inward = |x: f64| match easing {
        Easing::InPowi(p) | Easing::OutPowi(p) | Easing::InOutPowi(p) => x.powi(p),
        Easing::InPowf(p) | Easing::OutPowf(p) | Easing::InOutPowf(p) => x.powf(p),
        Easing::Linear => x,
    };
    match easing {
        Easing::Linear | Easing::InPowi(_) | Easing::InPowf(_) => inward(x),
        Easing::OutPowi(_) | Easing::OutPowf(_) => 1.0 - inward(1.0 - x),
        Easing::InOutPowi(_) | Easing::InOutPowf(_) => {
            if x < 0.5 {
                0.5 * inward(2.0 * x)
            } else {
                1.0 - 0.5 * inward(2.0 - 2.0 * x)
            }
        }
    }
}

/// The doppler factor: how much faster a sound plays heard from `listener`
/// (position, velocity) when it is at `position` moving at `velocity`, in a
/// medium where sound travels at `speed`, its velocities scaled by `scale`:
/// `(c + v_listener) / (c - v_source)`, each velocity's part along the line
/// between them, towards the other positive; each part held within 0.9 of `c`
/// (faster than sound has no pitch). 1 at the listener's position or with a
/// scale of 0.
///
/// ```
/// use pool_audio::spatial::doppler_factor;
///
/// // A car 50 m ahead (the listener faces -z) coming at 30 m/s.
/// let approaching = doppler_factor(([0.0, 0.0, -50.0], [0.0, 0.0, 30.0]), ([0.0; 3], [0.0; 3]), 1.0, 343.0);
/// assert!((approaching - 343.0 / 313.0).abs() < 1e-9);
/// // The listener driving beside it hears no shift.
/// let together = doppler_factor(([0.0, 0.0, -50.0], [0.0, 0.0, 30.0]), ([0.0; 3], [0.0, 0.0, 30.0]), 1.0, 343.0);
/// assert!((together - 1.0).abs() < 1e-12);
/// ```
#[must_use]
pub fn doppler_factor(
    (position, velocity): ([f32; 3], [f32; 3]),
    (listener, listener_velocity): ([f32; 3], [f32; 3]),
    scale: f64,
    speed: f64,
) -> f64 {
    let to_source = [0, 1, 2].map(|i| f64::from(position[i]) - f64::from(listener[i]));
    let length = to_source.iter().map(|c| c * c).sum::<f64>().sqrt();
    if scale == 0.0 || !(length > 1e-6 && length.is_finite()) {
        return 1.0;
    }
    let along = |v: [f32; 3]| {
        let dot: f64 = (0..3).map(|i| f64::from(v[i]) * to_source[i]).sum();
        (dot / length * scale).clamp(-0.9 * speed, 0.9 * speed)
    };
    // The listener's speed towards the source, the source's away from the listener.
    (speed + along(listener_velocity)) / (speed + along(velocity))
}

/// The one-pole low-pass coefficient for `cutoff_hz` at a frame duration of
/// `dt` seconds: `y += a (x - y)` with `a = 1 - exp(-2 pi fc dt)`; 1 (no
/// filtering) for no cutoff.
pub(crate) fn one_pole(cutoff_hz: Option<f64>, dt: f64) -> f64 {
    cutoff_hz.map_or(1.0, |fc| 1.0 - (-std::f64::consts::TAU * fc * dt).exp())
}

/// A voice's obstruction and occlusion, and what they make of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Muffled {
    pub(crate) obstruction: f32,
    pub(crate) occlusion: f32,
    /// The volume both take off, an amplitude.
    pub(crate) gain: f32,
    /// The lower of their cutoffs (`None`: no filter).
    pub(crate) cutoff: Option<f32>,
    /// Occlusion's part of `gain`: it lowers the voice's audibility.
    pub(crate) audibility: f32,
}

impl Muffled {
    /// In the clear.
    pub(crate) const CLEAR: Self = Self {
        obstruction: 0.0,
        occlusion: 0.0,
        gain: 1.0,
        cutoff: None,
        audibility: 1.0,
    };

    /// Amounts `obstruction` and `occlusion` through their curves.
    pub(crate) fn new(obstruction: f32, occlusion: f32, curves: (&Muffle, &Muffle)) -> Self {
        // Every curve is at 0 dB and open at 0 (and below: amounts are clamped).
        if obstruction <= 0.0 && occlusion <= 0.0 {
            return Self {
                obstruction,
                occlusion,
                ..Self::CLEAR
            };
        }
        let (obstructed_db, obstructed_cutoff) = curves.0.at_db(obstruction);
        let (occluded_db, occluded_cutoff) = curves.1.at_db(occlusion);
        let cutoff = match (obstructed_cutoff, occluded_cutoff) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Self {
            obstruction,
            occlusion,
            gain: crate::level::amplitude(obstructed_db + occluded_db) as f32,
            cutoff: cutoff.map(|c| c as f32),
            audibility: crate::level::amplitude(occluded_db) as f32,
        }
    }
}

/// How something moves, on the game side: its velocity and how it got it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Motion {
    /// In m/s.
    pub(crate) velocity: [f32; 3],
    /// The game gives its velocity: it is not derived from its moves.
    pub(crate) given: bool,
    /// Where it was at the last update (for a derived velocity).
    pub(crate) was_at: Option<[f32; 3]>,
}

impl Motion {
    pub(crate) const STILL: Self = Self {
        velocity: [0.0; 3],
        given: false,
        was_at: None,
    };

    /// At an update `dt` seconds after the last, it is at `now`: a derived
    /// velocity is how fast it moved there, unless that is faster than
    /// `teleport` m/s (a teleport: the velocity stays). `true` if the
    /// velocity changed.
    pub(crate) fn step(&mut self, now: [f32; 3], dt: f64, teleport: f32) -> bool {
        let was = self.was_at.replace(now);
        if self.given || dt <= 0.0 {
            return false;
        }
        let Some(from) = was else {
            return false;
        };
        let velocity = [0, 1, 2].map(|i| ((f64::from(now[i]) - f64::from(from[i])) / dt) as f32);
        let speed = velocity.iter().map(|c| c * c).sum::<f32>().sqrt();
        if speed > teleport || velocity == self.velocity {
            return false;
        }
        self.velocity = velocity;
        true
    }

    /// The game gives the velocity from now on.
    pub(crate) fn give(&mut self, velocity: [f32; 3]) {
        self.velocity = velocity;
        self.given = true;
    }

    /// The velocity is derived from the moves again, from the next update
    /// (where it was at the last update is known: it is kept while given).
    pub(crate) fn derive(&mut self) {
        self.given = false;
    }
}

/// A voice's cues on the game side: how it moves, its doppler scale, its
/// obstruction and occlusion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct VoiceCues {
    pub(crate) motion: Motion,
    /// Its sound's doppler scale (0: off).
    pub(crate) doppler: f32,
    pub(crate) muffled: Muffled,
}

impl VoiceCues {
    pub(crate) const NONE: Self = Self {
        motion: Motion::STILL,
        doppler: 0.0,
        muffled: Muffled::CLEAR,
    };
}

/// An amount of obstruction or occlusion in `[0, 1]`.
pub(crate) fn check_amount(amount: f32) -> Result<f32, crate::ParamError> {
    if (0.0..=1.0).contains(&amount) {
        Ok(amount)
    } else {
        Err(crate::ParamError::Amount(amount))
    }
}

/// A velocity with every component finite.
pub(crate) fn check_velocity(velocity: mint::Vector3<f32>) -> Result<[f32; 3], crate::ParamError> {
    let velocity: [f32; 3] = velocity.into();
    if velocity.iter().all(|c| c.is_finite()) {
        Ok(velocity)
    } else {
        Err(crate::ParamError::Velocity(velocity))
    }
}

impl crate::SoundSettings {
    /// How much velocities shift the sound's pitch (0: off, 1: physical).
    ///
    /// ```
    /// # use pool_audio::SoundSettings;
    /// assert_eq!(SoundSettings::default().doppler_scale(1.0).doppler_scale, 1.0);
    /// assert!(SoundSettings::default().doppler_scale(f64::NAN).validate().is_err());
    /// ```
    pub fn doppler_scale(mut self, scale: f64) -> Self {
        self.doppler_scale = scale;
        self
    }

    /// What obstruction does to the sound.
    ///
    /// ```
    /// # use pool_audio::{spatial::Muffle, SoundSettings};
    /// let pillar = Muffle { volume: pool_audio::kira::Decibels(-3.0), ..Muffle::OBSTRUCTION };
    /// assert_eq!(SoundSettings::default().obstruction(pillar).obstruction, pillar);
    /// ```
    pub fn obstruction(mut self, curve: Muffle) -> Self {
        self.obstruction = curve;
        self
    }

    /// What occlusion does to the sound.
    ///
    /// ```
    /// # use pool_audio::{spatial::Muffle, SoundSettings};
    /// let thin_wall = Muffle { cutoff_hz: 3_000.0, ..Muffle::OCCLUSION };
    /// assert_eq!(SoundSettings::default().occlusion(thin_wall).occlusion.cutoff_hz, 3_000.0);
    /// assert!(SoundSettings::default().occlusion(Muffle { cutoff_hz: 5.0, ..thin_wall }).validate().is_err());
    /// ```
    pub fn occlusion(mut self, curve: Muffle) -> Self {
        self.occlusion = curve;
        self
    }

    /// How a positioned play of the sound fades with distance.
    ///
    /// ```
    /// # use pool_audio::{spatial::Distances, SoundSettings};
    /// let footstep = SoundSettings::default().distances(Distances { min: 0.5, max: 25.0, ..Default::default() });
    /// assert_eq!(footstep.distances.max, 25.0);
    /// assert!(footstep.distances(Distances { min: 3.0, max: 1.0, ..Default::default() }).validate().is_err());
    /// ```
    pub fn distances(mut self, distances: crate::Distances) -> Self {
        self.distances = distances;
        self
    }

    /// The doppler scale, both curves and the distances in range.
    pub(crate) fn check_cues(&self) -> Result<(), crate::SettingsError> {
        if self.distances.validate().is_err() {
            return Err(crate::SettingsError::Distances(self.distances));
        }
        if !(0.0..=MAX_DOPPLER_SCALE).contains(&self.doppler_scale) {
            return Err(crate::SettingsError::DopplerScale(self.doppler_scale));
        }
        for curve in [self.obstruction, self.occlusion] {
            if !curve.is_valid() {
                return Err(crate::SettingsError::Muffle(curve));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn easings_match_kiras() {
        // kira's tween at time t of a 1 s tween from 0 to 1 is its easing at t.
        for easing in [
            Easing::Linear,
            Easing::InPowi(3),
            Easing::OutPowf(2.5),
            Easing::InOutPowi(2),
        ] {
            for x in [0.0, 0.2, 0.5, 0.7, 1.0] {
                let mut p = kira::Parameter::new(kira::Value::Fixed(0.0), 0.0);
                p.set(
                    kira::Value::Fixed(1.0),
                    kira::Tween {
                        duration: Duration::from_secs(1),
                        easing,
                        ..Default::default()
                    },
                );
                let info = kira::info::MockInfoBuilder::new().build();
                p.update(x, &info);
                assert!(
                    (p.value() - ease(easing, x)).abs() < 1e-9,
                    "{easing:?} at {x}"
                );
            }
        }
    }

    #[test]
    fn a_source_receding_is_lower_and_a_listener_approaching_is_higher() {
        let away = doppler_factor(
            ([10.0, 0.0, 0.0], [30.0, 0.0, 0.0]),
            ([0.0; 3], [0.0; 3]),
            1.0,
            343.0,
        );
        assert!((away - 343.0 / 373.0).abs() < 1e-9);
        let towards = doppler_factor(
            ([10.0, 0.0, 0.0], [0.0; 3]),
            ([0.0; 3], [20.0, 0.0, 0.0]),
            1.0,
            343.0,
        );
        assert!((towards - 363.0 / 343.0).abs() < 1e-9);
        let off = doppler_factor(
            ([10.0, 0.0, 0.0], [30.0, 0.0, 0.0]),
            ([0.0; 3], [0.0; 3]),
            0.0,
            343.0,
        );
        assert_eq!(off, 1.0);
        let sideways = doppler_factor(
            ([10.0, 0.0, 0.0], [0.0, 30.0, 0.0]),
            ([0.0; 3], [0.0; 3]),
            1.0,
            343.0,
        );
        assert!((sideways - 1.0).abs() < 1e-12);
    }

    #[test]
    fn cutoffs_combine_to_the_lower_and_volumes_add() {
        let both = Muffled::new(1.0, 1.0, (&Muffle::OBSTRUCTION, &Muffle::OCCLUSION));
        assert_eq!(both.cutoff, Some(800.0));
        assert!((crate::level::decibels(f64::from(both.gain)) + 21.0).abs() < 1e-4);
        assert!((crate::level::decibels(f64::from(both.audibility)) + 15.0).abs() < 1e-4);
        assert_eq!(
            Muffled::new(0.0, 0.0, (&Muffle::OBSTRUCTION, &Muffle::OCCLUSION)).cutoff,
            None
        );
    }
}

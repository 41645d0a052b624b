//! Game parameters: a named value the game sets (a car's speed, the
//! player's health, the rain), smoothed, and mapped by curves to a sound's
//! volume, pitch, low-pass cutoff and send levels, to a bus's volume, or to
//! an effect parameter of the mix (a bus's filter cutoff; FMOD's
//! parameters, Wwise's RTPCs). The game sets a parameter once for
//! every voice, or for one voice (one car's own speed); each update moves
//! the values towards what was set and gives each voice of a sound with
//! curves what its curves give at its values. The mixer sees only the
//! result, through the voice's volume, rate, filter and sends (and a bus's
//! volume), each gliding over the update.
//!
//! How curves on one target combine: volume and send curves add in
//! decibels, pitch curves in semitones; low-pass curves take the lowest
//! cutoff, with the voice's obstruction and occlusion (see [`CurveTarget`]).
//! A volume or send curve only lowers (at most 0 dB), as a sound's volume
//! range does, so the sound's copy budget holds. A bus's curves add to its
//! fader ([`MixMut::set_bus_volume`](crate::mix::MixMut::set_bus_volume)).

use std::fmt;
use std::time::Duration;

use kira::Easing;

use crate::cues::ease;

/// The most game parameters a manager holds.
pub const MAX_GAME_PARAMS: usize = 64;
/// The most curves a sound has.
pub const MAX_CURVES: usize = 4;
/// The most points a curve has.
pub const MAX_POINTS: usize = 8;
/// The most game parameters one voice has a value of its own of.
pub const MAX_OWN_VALUES: usize = 2;

/// A game parameter of a manager, from
/// [`SoundEffects::add_game_param`](crate::SoundEffects::add_game_param);
/// valid only with the manager that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameParamId {
    pub(crate) index: u16,
    pub(crate) owner: u32,
}

/// A game parameter's range, its value before the game sets one, and how
/// fast it follows what the game sets.
///
/// ```
/// use std::time::Duration;
/// use pool_audio::game::GameParamSettings;
///
/// // A car's speed in m/s; it takes 0.5 s to cross the whole range.
/// let speed = GameParamSettings::new(0.0, 60.0).initial(0.0).seek(Duration::from_millis(500));
/// assert_eq!(speed.range, (0.0, 60.0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct GameParamSettings {
    /// Its lowest and highest values (finite, `low < high`); what the game
    /// sets is clamped into it.
    pub range: (f64, f64),
    /// Its value before the game sets one, in the range (FMOD's initial
    /// value).
    pub initial: f64,
    /// How long it takes to move across the whole range (FMOD's seek speed,
    /// as a time; default zero: at once). A value the game sets is reached
    /// in `seek` times the share of the range it moves, linearly.
    pub seek: Duration,
}

impl Default for GameParamSettings {
    /// `0..=1`, starting at 0, following at once.
    fn default() -> Self {
        Self::new(0.0, 1.0)
    }
}

impl GameParamSettings {
    /// A parameter of `low..=high`, starting at `low`, following at once.
    pub fn new(low: f64, high: f64) -> Self {
        Self {
            range: (low, high),
            initial: low,
            seek: Duration::ZERO,
        }
    }

    /// Its value before the game sets one.
    pub fn initial(mut self, value: f64) -> Self {
        self.initial = value;
        self
    }

    /// How long it takes to move across the whole range.
    pub fn seek(mut self, seek: Duration) -> Self {
        self.seek = seek;
        self
    }

    fn check(&self) -> Result<(), GameParamError> {
        let (low, high) = self.range;
        if !(low.is_finite() && high.is_finite() && low < high) {
            return Err(GameParamError::Range(low, high));
        }
        if !(low..=high).contains(&self.initial) {
            return Err(GameParamError::Value(self.initial));
        }
        if self.seek > crate::MAX_MIX_TIME {
            return Err(GameParamError::Seek(self.seek));
        }
        Ok(())
    }
}

/// What a curve sets on a sound. Curves on one target combine: volumes add
/// in decibels, pitches in semitones, send levels in decibels on the level
/// the send has; low-pass cutoffs take the lowest, of the curves and of the
/// voice's obstruction and occlusion (filters in a row: the most closed one
/// is heard).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CurveTarget {
    /// Decibels added to the voice's volume, at most 0.
    Volume,
    /// Semitones added to the voice's pitch.
    Pitch,
    /// The cutoff (Hz, [`MIN_CUTOFF_HZ`](crate::spatial::MIN_CUTOFF_HZ) to
    /// [`OPEN_CUTOFF_HZ`](crate::spatial::OPEN_CUTOFF_HZ)) of the voice's
    /// low-pass filter, the one obstruction and occlusion close.
    LowPass,
    /// Decibels added to the voice's send to this bus (one of its sound's
    /// [`sends`](crate::SoundSettings::send)), at most 0.
    Send(crate::TrackId),
    /// An effect parameter of the mix (a bus's filter cutoff, a reverb's
    /// mix: [`MixMut::add_param`](crate::mix::MixMut::add_param)): its value
    /// when no snapshot sets it, in the parameter's range; snapshots move it
    /// from there. Not on a sound: given with
    /// [`MixMut::add_param_curve`](crate::mix::MixMut::add_param_curve).
    Param(crate::mix::ParamId),
}

/// What a sound's curves give at the game's values: a volume gain, a rate
/// factor, a low-pass cutoff (Hz) and decibels on each of its sends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct CurveOutput {
    pub(crate) gain: f64,
    pub(crate) rate: f64,
    pub(crate) cutoff: Option<f32>,
    pub(crate) sends: [f32; crate::MAX_SENDS],
}

impl CurveOutput {
    /// No curves.
    pub(crate) const NONE: Self = Self {
        gain: 1.0,
        rate: 1.0,
        cutoff: None,
        sends: [0.0; crate::MAX_SENDS],
    };

    /// The same as `other`, within what the mixer would hear.
    pub(crate) fn same(&self, other: &Self) -> bool {
        const STILL: f64 = 1e-6;
        (self.gain - other.gain).abs() < STILL
            && (self.rate - other.rate).abs() < STILL
            && self.cutoff == other.cutoff
            && self.sends == other.sends
    }
}

/// A curve from a game parameter to one of a sound's settings: points
/// `(value, output)` in increasing value, eased between neighbours (linear by
/// default), flat before the first and after the last.
///
/// ```
/// # use pool_audio::kira::{AudioManager, AudioManagerSettings};
/// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
/// use pool_audio::game::{Curve, CurveTarget, GameParamSettings};
///
/// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
/// # let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
/// let speed = sfx.add_game_param("speed", GameParamSettings::new(0.0, 1.0))?;
/// let pitch = Curve::new(speed, CurveTarget::Pitch, &[(0.0, -5.0), (1.0, 7.0)])?;
/// assert_eq!(pitch.at(0.5), 1.0);
/// assert_eq!(pitch.at(2.0), 7.0);
/// assert!(Curve::new(speed, CurveTarget::Volume, &[(0.0, 6.0)]).is_err(), "a volume curve only lowers");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Curve {
    /// The game parameter it follows.
    pub param: GameParamId,
    /// What it sets.
    pub target: CurveTarget,
    points: [(f64, f64); MAX_POINTS],
    len: u8,
    /// How it goes between two points (kira's easings).
    pub easing: Easing,
}

impl Curve {
    /// A curve through `points`, `(value, output)` with values increasing.
    ///
    /// # Errors
    /// [`GameParamError::Points`] for no points, more than [`MAX_POINTS`],
    /// a number that is not finite or values not increasing;
    /// [`GameParamError::Output`] for a volume above 0 dB or under -200 dB,
    /// or a pitch past ±[`MAX_PITCH_SEMITONES`](crate::MAX_PITCH_SEMITONES).
    pub fn new(
        param: GameParamId,
        target: CurveTarget,
        points: &[(f64, f64)],
    ) -> Result<Self, GameParamError> {
        if points.is_empty() || points.len() > MAX_POINTS {
            return Err(GameParamError::Points(points.len()));
        }
        let finite = points.iter().all(|(x, y)| x.is_finite() && y.is_finite());
        if !finite || points.windows(2).any(|w| w[0].0 >= w[1].0) {
            return Err(GameParamError::Points(points.len()));
        }
        let outputs = match target {
            CurveTarget::Volume | CurveTarget::Send(_) => -200.0..=0.0,
            CurveTarget::Pitch => -crate::MAX_PITCH_SEMITONES..=crate::MAX_PITCH_SEMITONES,
            CurveTarget::LowPass => crate::cues::MIN_CUTOFF_HZ..=crate::cues::OPEN_CUTOFF_HZ,
            // Checked against the parameter's range when it is given.
            CurveTarget::Param(_) => f64::MIN..=f64::MAX,
        };
        if let Some((_, y)) = points.iter().find(|(_, y)| !outputs.contains(y)) {
            return Err(GameParamError::Output(*y));
        }
        let mut curve = Self {
            param,
            target,
            points: [(0.0, 0.0); MAX_POINTS],
            len: points.len() as u8,
            easing: Easing::Linear,
        };
        curve.points[..points.len()].copy_from_slice(points);
        Ok(curve)
    }

    /// The same curve, eased by `easing` between points.
    #[must_use]
    pub fn easing(mut self, easing: Easing) -> Self {
        self.easing = easing;
        self
    }

    /// Its points.
    pub fn points(&self) -> &[(f64, f64)] {
        &self.points[..usize::from(self.len)]
    }

    /// Its output at parameter value `x`.
    pub fn at(&self, x: f64) -> f64 {
        let points = self.points();
        let (first, last) = (points[0], points[points.len() - 1]);
        if x <= first.0 {
            return first.1;
        }
        if x >= last.0 {
            return last.1;
        }
        let next = points
            .iter()
            .position(|p| p.0 > x)
            .unwrap_or(points.len() - 1);
        let ((x0, y0), (x1, y1)) = (points[next - 1], points[next]);
        let along = ease(self.easing, (x - x0) / (x1 - x0));
        y0 + (y1 - y0) * along
    }
}

/// A sound's curves (see [`SoundSettings::curve`](crate::SoundSettings::curve)).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Curves {
    list: [Option<Curve>; MAX_CURVES],
    /// More were given than fit: refused when the sound is added.
    pub(crate) overflow: bool,
}

impl Curves {
    /// Adds `curve` (past [`MAX_CURVES`], the sound is refused when added).
    pub(crate) fn push(&mut self, curve: Curve) {
        match self.list.iter_mut().find(|c| c.is_none()) {
            Some(free) => *free = Some(curve),
            None => self.overflow = true,
        }
    }

    /// Its curves.
    pub fn iter(&self) -> impl Iterator<Item = &Curve> {
        self.list.iter().flatten()
    }

    /// `true` for none.
    pub fn is_empty(&self) -> bool {
        self.list[0].is_none()
    }

    /// What the curves give at the values `value(param)` gives, for a
    /// sound of `sends`.
    pub(crate) fn outputs(
        &self,
        value: impl Fn(GameParamId) -> f64,
        sends: &crate::mix::Sends,
    ) -> CurveOutput {
        let (mut db, mut semitones) = (0.0, 0.0);
        let mut out = CurveOutput::NONE;
        for curve in self.iter() {
            let y = curve.at(value(curve.param));
            match curve.target {
                CurveTarget::Volume => db += y,
                CurveTarget::Pitch => semitones += y,
                CurveTarget::LowPass => {
                    let hz = y as f32;
                    out.cutoff = Some(out.cutoff.map_or(hz, |c| c.min(hz)));
                }
                CurveTarget::Send(bus) => {
                    if let Some(i) = sends.iter().position(|s| s.bus == bus) {
                        out.sends[i] = (out.sends[i] + y as f32).max(-200.0);
                    }
                }
                CurveTarget::Param(_) => {}
            }
        }
        out.gain = crate::level::amplitude(db.max(-200.0));
        out.rate = crate::variations::semitones(semitones);
        out
    }
}

/// Why a game parameter, a value or a curve was refused; nothing changed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum GameParamError {
    /// The manager has a game parameter of that name already.
    DuplicateName(String),
    /// The range is not finite and increasing.
    Range(f64, f64),
    /// A value is not finite, or an initial value is outside the range.
    Value(f64),
    /// A seek time over [`MAX_MIX_TIME`](crate::MAX_MIX_TIME).
    Seek(Duration),
    /// The manager holds [`MAX_GAME_PARAMS`] already.
    TooMany,
    /// Not a game parameter of this manager.
    Unknown,
    /// A curve's points: none, more than [`MAX_POINTS`], not finite or not
    /// increasing (how many were given).
    Points(usize),
    /// A curve's output out of its target's range.
    Output(f64),
    /// A voice has values of its own of [`MAX_OWN_VALUES`] parameters
    /// already.
    TooManyOwn,
}

impl fmt::Display for GameParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DuplicateName(name) => {
                write!(f, "the manager has a game parameter {name:?} already")
            }
            Self::Range(low, high) => write!(f, "{low}..={high} is not a finite, increasing range"),
            Self::Value(value) => {
                write!(
                    f,
                    "{value} is not finite, or an initial value outside the range"
                )
            }
            Self::Seek(seek) => write!(
                f,
                "a seek time of {seek:?} is over {:?}",
                crate::MAX_MIX_TIME
            ),
            Self::TooMany => write!(
                f,
                "a manager holds at most {MAX_GAME_PARAMS} game parameters"
            ),
            Self::Unknown => f.write_str("not a game parameter of this manager"),
            Self::Points(n) => write!(
                f,
                "{n} points: a curve has 1 to {MAX_POINTS}, finite, in increasing value"
            ),
            Self::Output(y) => write!(
                f,
                "{y} is out of the curve's target range (volume and send: -200..=0 dB; pitch: within ±{} semitones; low-pass: {}..={} Hz)",
                crate::MAX_PITCH_SEMITONES,
                crate::cues::MIN_CUTOFF_HZ,
                crate::cues::OPEN_CUTOFF_HZ
            ),
            Self::TooManyOwn => write!(
                f,
                "a voice has values of its own of at most {MAX_OWN_VALUES} parameters"
            ),
        }
    }
}

impl std::error::Error for GameParamError {}

/// A value that follows what was set, across a range in `seek`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Follow {
    pub(crate) value: f64,
    pub(crate) target: f64,
}

impl Follow {
    /// Moves `dt` seconds towards the target; `true` if it moved.
    pub(crate) fn advance(&mut self, settings: &GameParamSettings, dt: f64) -> bool {
        if self.value == self.target {
            return false;
        }
        let seek = settings.seek.as_secs_f64();
        let step = if seek > 0.0 {
            (settings.range.1 - settings.range.0) * dt / seek
        } else {
            f64::INFINITY
        };
        let gap = self.target - self.value;
        self.value = if gap.abs() <= step {
            self.target
        } else {
            self.value + step.copysign(gap)
        };
        true
    }
}

/// One game parameter on the game side.
#[derive(Debug, Clone)]
struct Param {
    name: String,
    settings: GameParamSettings,
    global: Follow,
}

/// The game parameters of a manager.
#[derive(Debug, Clone)]
pub(crate) struct GameParams {
    owner: u32,
    list: Vec<Param>,
    /// A sound with curves was added: updates follow them.
    pub(crate) curved: bool,
    /// The last update left changes of voices behind (a full queue): the
    /// next one visits every voice again.
    pub(crate) pending: bool,
}

impl GameParams {
    pub(crate) fn new(owner: u32) -> Self {
        Self {
            owner,
            list: Vec::new(),
            curved: false,
            pending: false,
        }
    }

    pub(crate) fn add(
        &mut self,
        name: &str,
        settings: GameParamSettings,
    ) -> Result<GameParamId, GameParamError> {
        settings.check()?;
        if self.list.iter().any(|p| p.name == name) {
            return Err(GameParamError::DuplicateName(name.into()));
        }
        if self.list.len() >= MAX_GAME_PARAMS {
            return Err(GameParamError::TooMany);
        }
        let start = Follow {
            value: settings.initial,
            target: settings.initial,
        };
        self.list.push(Param {
            name: name.into(),
            settings,
            global: start,
        });
        Ok(GameParamId {
            index: self.list.len() as u16 - 1,
            owner: self.owner,
        })
    }

    /// The parameter named `name`.
    pub(crate) fn find(&self, name: &str) -> Option<GameParamId> {
        let index = self.list.iter().position(|p| p.name == name)?;
        Some(GameParamId {
            index: index as u16,
            owner: self.owner,
        })
    }

    /// `id`'s settings, if it is one of these.
    pub(crate) fn settings(&self, id: GameParamId) -> Result<&GameParamSettings, GameParamError> {
        (id.owner == self.owner)
            .then(|| self.list.get(usize::from(id.index)))
            .flatten()
            .map(|p| &p.settings)
            .ok_or(GameParamError::Unknown)
    }

    /// `value` clamped into `id`'s range.
    pub(crate) fn clamp(&self, id: GameParamId, value: f64) -> Result<f64, GameParamError> {
        let settings = self.settings(id)?;
        if !value.is_finite() {
            return Err(GameParamError::Value(value));
        }
        Ok(value.clamp(settings.range.0, settings.range.1))
    }

    /// Sets the value every voice without its own follows.
    pub(crate) fn set(&mut self, id: GameParamId, value: f64) -> Result<(), GameParamError> {
        let value = self.clamp(id, value)?;
        self.list[usize::from(id.index)].global.target = value;
        Ok(())
    }

    /// The value every voice without its own is at now.
    pub(crate) fn value(&self, id: GameParamId) -> Result<f64, GameParamError> {
        self.settings(id)?;
        Ok(self.list[usize::from(id.index)].global.value)
    }

    /// The value of parameter `index` (of this manager: checked when the
    /// curve's sound was added).
    pub(crate) fn global(&self, id: GameParamId) -> f64 {
        self.list
            .get(usize::from(id.index))
            .map_or(0.0, |p| p.global.value)
    }

    /// Moves every value `dt` seconds towards what was set; `true` if any
    /// moved.
    pub(crate) fn advance(&mut self, dt: f64) -> bool {
        let mut moved = false;
        for param in &mut self.list {
            moved |= param.global.advance(&param.settings, dt);
        }
        moved
    }
}

//! What a single play asks for, and how every number given to the manager is
//! checked before it can reach kira.

use std::fmt;

use kira::{Decibels, StartTime, Tween};

use crate::{MAX_PLAYBACK_RATE, MIN_PLAYBACK_RATE};

/// A number given to the manager that is NaN, infinite or out of range. Nothing
/// changes when one is refused, and no bad value ever reaches kira's audio thread.
///
/// ```
/// use pool_audio::{error::ParamError, PlayError, PlayParams};
///
/// let err = PlayParams::default().spatial_blend(f32::NAN).validate().unwrap_err();
/// assert!(matches!(err, ParamError::SpatialBlend(_)));
/// assert!(err.to_string().contains("spatial blend"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum ParamError {
    /// A volume that is NaN or above 0 dB.
    Volume(Decibels),
    /// A playback rate not in [`MIN_PLAYBACK_RATE`](crate::MIN_PLAYBACK_RATE)`..=`[`MAX_PLAYBACK_RATE`](crate::MAX_PLAYBACK_RATE).
    PlaybackRate(f64),
    /// A panning not in `[-1, 1]`.
    Panning(f32),
    /// A spatial blend not in `[0, 1]`.
    SpatialBlend(f32),
    /// A position with a NaN or infinite coordinate.
    Position([f32; 3]),
    /// A listener orientation that is not a rotation: a quaternion `[x, y, z, w]`
    /// with a NaN or infinite component, or of length 0.
    Orientation([f32; 4]),
    /// A fade whose easing power is NaN, infinite or negative (kira would compute
    /// NaN or infinite volumes on the audio thread from it).
    Fade(Tween),
    /// A velocity with a NaN or infinite component.
    Velocity([f32; 3]),
    /// An obstruction or occlusion amount not in `[0, 1]`.
    Amount(f32),
    /// Distances not finite with `0 <= min < max`, or an unsafe curve.
    Distances(crate::Distances),
    /// A start time kira cannot wait for: a delay over
    /// [`MAX_START_DELAY`](crate::limits::MAX_START_DELAY), or a clock time
    /// whose fraction is not in `[0, 1)`.
    StartTime(StartTime),
    /// A send level not in `MIN_MIX..=MAX_MIX`.
    SendLevel(Decibels),
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Volume(v) => write!(f, "volume {} dB is NaN or above 0 dB", v.0),
            Self::PlaybackRate(r) => write!(
                f,
                "playback rate {r} is not in {}..={}",
                MIN_PLAYBACK_RATE, MAX_PLAYBACK_RATE
            ),
            Self::Panning(p) => write!(f, "panning {p} is not in [-1, 1]"),
            Self::SpatialBlend(b) => write!(f, "spatial blend {b} is not in [0, 1]"),
            Self::Position(p) => write!(f, "position {p:?} is not finite"),
            Self::Orientation(q) => write!(
                f,
                "orientation {q:?} (x, y, z, w) is not a rotation: not finite, or of length 0"
            ),
            Self::Fade(t) => write!(
                f,
                "fade easing {:?} has a NaN, infinite or negative power",
                t.easing
            ),
            Self::Velocity(v) => write!(f, "velocity {v:?} is not finite"),
            Self::Amount(a) => write!(f, "obstruction or occlusion {a} is not in [0, 1]"),
            Self::Distances(d) => write!(
                f,
                "distances {d:?} are not finite with 0 <= min < max and a safe curve"
            ),
            Self::StartTime(t) => write!(
                f,
                "start time {t:?} is a delay over {:?} or a clock fraction outside [0, 1)",
                crate::MAX_START_DELAY
            ),
            Self::SendLevel(level) => write!(
                f,
                "send level {} dB is not in {}..={} dB",
                level.0,
                crate::MIN_MIX.0,
                crate::MAX_MIX.0
            ),
        }
    }
}

impl std::error::Error for ParamError {}

/// How to play one copy: volume, playback rate, panning, position. Validated by
/// [`SoundEffects::play`](crate::SoundEffects::play). Like kira's settings structs,
/// its fields are public and each has a builder method of the same name.
///
/// ```
/// use pool_audio::PlayParams;
///
/// # use pool_audio::kira::Decibels;
/// let params = PlayParams::default().volume(-2.0).playback_rate(1.1).panning(-0.3);
/// assert_eq!((params.volume, params.playback_rate, params.panning), (Decibels(-2.0), 1.1, -0.3));
/// assert_eq!(params.position, None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct PlayParams {
    /// A volume on the copy's own, at most 0 dB (default 0 dB; `-inf` is
    /// silence).
    pub volume: Decibels,
    /// Speed and pitch, in [`MIN_PLAYBACK_RATE`]`..=`[`MAX_PLAYBACK_RATE`]
    /// (default 1).
    pub playback_rate: f64,
    /// Stereo position, -1 (left) to 1 (right) (default 0).
    pub panning: f32,
    /// Where the sound is in the world (default `None`: not positioned).
    pub position: Option<mint::Vector3<f32>>,
    /// How much a positioned sound is spatialized, `0..=1` (default 1).
    pub spatial_blend: f32,
    /// Who plays it (default `None`): a number of the game's (an entity, a
    /// player), for [`SoundSettings::max_voices_per_owner`](crate::SoundSettings::max_voices_per_owner)
    /// and [`SoundEffects::stop_owner`](crate::SoundEffects::stop_owner).
    pub owner: Option<u64>,
    /// Which of the sound's recordings to play, counted from 0 in the order
    /// given (default `None`: the sound's [`Pick`](crate::Pick) picks one).
    pub recording: Option<usize>,
    /// The state of its sound's switch it picks a recording from (default
    /// `None`: the switch's current state; see
    /// [`SoundEffects::add_switch`](crate::SoundEffects::add_switch)).
    pub state: Option<crate::sound::SwitchState>,
    /// How fast it moves, in m/s, for doppler (default `None`: derived from
    /// its moves at each update).
    pub velocity: Option<mint::Vector3<f32>>,
    /// How much is in the direct path, `0..=1` (default 0).
    pub obstruction: f32,
    /// How much is between it and the listener, `0..=1` (default 0).
    pub occlusion: f32,
    /// How it fades with distance (default `None`: its sound's
    /// [`distances`](crate::SoundSettings::distances)).
    pub distances: Option<crate::Distances>,
    /// When it begins (default `StartTime::Immediate`: its sound's own start
    /// time, else in the next block the mixer renders): after a delay,
    /// counted from the first block that reads the play, or when a kira
    /// clock reaches a time. On its frame either way, see
    /// [`start_time`](Self::start_time).
    pub start_time: StartTime,
}

impl Default for PlayParams {
    fn default() -> Self {
        Self {
            volume: Decibels::IDENTITY,
            playback_rate: 1.0,
            panning: 0.0,
            position: None,
            spatial_blend: 1.0,
            owner: None,
            recording: None,
            state: None,
            velocity: None,
            obstruction: 0.0,
            occlusion: 0.0,
            distances: None,
            start_time: StartTime::Immediate,
        }
    }
}

impl PlayParams {
    /// A volume on the copy's own, at most 0 dB (an `f32` is decibels, as
    /// in kira).
    ///
    /// ```
    /// # use pool_audio::PlayParams;
    /// # use pool_audio::kira::Decibels;
    /// let params = PlayParams::default().volume(-6.0);
    /// assert_eq!(params.volume, Decibels(-6.0));
    /// assert!(PlayParams::default().volume(3.0).validate().is_err());
    /// ```
    pub fn volume(mut self, volume: impl Into<Decibels>) -> Self {
        self.volume = volume.into();
        self
    }

    /// Speed and pitch, in [`MIN_PLAYBACK_RATE`]`..=`[`MAX_PLAYBACK_RATE`] (1 is the
    /// recorded speed).
    ///
    /// ```
    /// # use pool_audio::PlayParams;
    /// let params = PlayParams::default().playback_rate(0.9);
    /// assert_eq!(params.playback_rate, 0.9);
    /// ```
    pub fn playback_rate(mut self, rate: f64) -> Self {
        self.playback_rate = rate;
        self
    }

    /// Stereo position, -1 (left) to 1 (right).
    ///
    /// ```
    /// # use pool_audio::PlayParams;
    /// let params = PlayParams::default().panning(0.5);
    /// assert_eq!(params.panning, 0.5);
    /// ```
    pub fn panning(mut self, panning: f32) -> Self {
        self.panning = panning;
        self
    }

    /// Where the sound is in the world: it is heard from the listener with kira's
    /// distance curve and ears (see [`Listener::set_position`](crate::Listener::set_position)), and
    /// [`Stealing::Furthest`](crate::Stealing::Furthest) uses it.
    /// Any `mint` vector converts (glam's `Vec3` with its `mint` feature,
    /// nalgebra's `Point3`), and so does `[f32; 3]`.
    ///
    /// ```
    /// # use pool_audio::PlayParams;
    /// let params = PlayParams::default().position([10.0, 0.0, -3.0]);
    /// let same = PlayParams::default().position(pool_audio::mint::Vector3 { x: 10.0, y: 0.0, z: -3.0 });
    /// assert_eq!(params, same);
    /// assert!(PlayParams::default().position([f32::NAN, 0.0, 0.0]).validate().is_err());
    /// ```
    pub fn position(mut self, position: impl Into<mint::Vector3<f32>>) -> Self {
        self.position = Some(position.into());
        self
    }

    /// How much a positioned sound is spatialized, `0..=1` (Unity's spatial blend:
    /// 0 plays it as if at the listener, 1 fully by its position; default 1). Each
    /// channel's gain is crossfaded between the two, and so is its audibility.
    ///
    /// ```
    /// # use pool_audio::PlayParams;
    /// let params = PlayParams::default().position([5.0, 0.0, 0.0]).spatial_blend(0.5);
    /// assert_eq!(params.spatial_blend, 0.5);
    /// ```
    pub fn spatial_blend(mut self, blend: f32) -> Self {
        self.spatial_blend = blend;
        self
    }

    /// Who plays it: a tank's cannon shots, an enemy's barks. A sound's copies
    /// per owner can be capped
    /// ([`SoundSettings::max_voices_per_owner`](crate::SoundSettings::max_voices_per_owner)),
    /// and an owner's voices stopped together
    /// ([`SoundEffects::stop_owner`](crate::SoundEffects::stop_owner)).
    ///
    /// ```
    /// # use pool_audio::PlayParams;
    /// let tank = 42;
    /// assert_eq!(PlayParams::default().owner(tank).owner, Some(42));
    /// ```
    pub fn owner(mut self, owner: u64) -> Self {
        self.owner = Some(owner);
        self
    }

    /// Plays recording `index` of the sound (counted from 0 in the order
    /// given), whatever its [`Pick`](crate::Pick): a scripted line, a
    /// test. It counts as played for the sound's picking; the pitch and volume
    /// ranges still apply. A sound without that recording refuses the play
    /// ([`PlayError::UnknownRecording`](crate::PlayError::UnknownRecording)).
    ///
    /// ```
    /// # use pool_audio::PlayParams;
    /// assert_eq!(PlayParams::default().recording(2).recording, Some(2));
    /// ```
    pub fn recording(mut self, index: usize) -> Self {
        self.recording = Some(index);
        self
    }

    /// Picks its recording from `state` of its sound's switch, whatever the
    /// switch's current state (a character on stone while the game's surface
    /// is grass).
    pub fn state(mut self, state: crate::sound::SwitchState) -> Self {
        self.state = Some(state);
        self
    }

    /// How fast it moves, in m/s, for doppler (see [`Muffle`](crate::Muffle)
    /// for the cues). Without one, its velocity is derived from its moves.
    ///
    /// ```
    /// # use pool_audio::PlayParams;
    /// let car = PlayParams::default().position([0.0, 0.0, -50.0]).velocity([0.0, 0.0, 30.0]);
    /// assert_eq!(car.velocity, Some([0.0, 0.0, 30.0].into()));
    /// assert!(car.velocity([f32::NAN, 0.0, 0.0]).validate().is_err());
    /// ```
    pub fn velocity(mut self, velocity: impl Into<mint::Vector3<f32>>) -> Self {
        self.velocity = Some(velocity.into());
        self
    }

    /// Its velocity in a flat world: `(x, y)` is `(x, y, 0)`, as
    /// [`position_2d`](Self::position_2d) places it.
    ///
    /// ```
    /// # use pool_audio::PlayParams;
    /// let car = PlayParams::default().position_2d([-50.0, 0.0]).velocity_2d([30.0, 0.0]);
    /// assert_eq!(car.velocity, Some([30.0, 0.0, 0.0].into()));
    /// ```
    pub fn velocity_2d(self, velocity: impl Into<mint::Vector2<f32>>) -> Self {
        self.velocity(flat(velocity.into()))
    }

    /// How much is in the direct path, `0..=1`, through the sound's
    /// obstruction curve.
    ///
    /// ```
    /// # use pool_audio::PlayParams;
    /// assert_eq!(PlayParams::default().obstruction(0.5).obstruction, 0.5);
    /// assert!(PlayParams::default().obstruction(1.5).validate().is_err());
    /// ```
    pub fn obstruction(mut self, amount: f32) -> Self {
        self.obstruction = amount;
        self
    }

    /// How much is between it and the listener, `0..=1`, through the
    /// sound's occlusion curve.
    ///
    /// ```
    /// # use pool_audio::PlayParams;
    /// assert_eq!(PlayParams::default().occlusion(1.0).occlusion, 1.0);
    /// assert!(PlayParams::default().occlusion(f32::NAN).validate().is_err());
    /// ```
    pub fn occlusion(mut self, amount: f32) -> Self {
        self.occlusion = amount;
        self
    }

    /// How this play fades with distance, in place of its sound's (Unity's
    /// per-source min and max distance).
    ///
    /// ```
    /// # use pool_audio::{spatial::Distances, PlayParams};
    /// let far_cry = PlayParams::default().distances(Distances { min: 5.0, max: 400.0, ..Default::default() });
    /// assert_eq!(far_cry.distances.unwrap().max, 400.0);
    /// assert!(far_cry.distances(Distances { max: f32::NAN, ..Default::default() }).validate().is_err());
    /// ```
    pub fn distances(mut self, distances: crate::Distances) -> Self {
        self.distances = Some(distances);
        self
    }

    /// When the play begins, as kira's own sounds are told: after a delay
    /// (`StartTime::Delayed`, counted from the first block the mixer renders
    /// after the play: offline, the start of the next `render`), or when a
    /// kira clock reaches a time (`StartTime::ClockTime`: `clock.time() + 4`
    /// is four ticks from now, keeping the clock's fraction; on tick 4 itself
    /// is `ClockTime { clock: clock.id(), ticks: 4, fraction: 0.0 }`; a clock
    /// ticks 0 on the first frame of the block that starts it). The voice bank
    /// begins it on that very frame (kira's own sounds begin on the first
    /// frame of the 128-frame chunk it falls in); a clock reached in the
    /// first chunk the bank sees it in starts the voice at that chunk's first
    /// frame. Until then the play holds its voice, silent; a virtual play
    /// waits out its delay before its playhead moves. A play at a clock time
    /// that is virtual when the clock gets there (the manager does not read
    /// kira's clocks) starts from its beginning when it becomes real.
    ///
    /// ```
    /// # use std::time::Duration;
    /// use pool_audio::PlayParams;
    /// use pool_audio::kira::StartTime;
    ///
    /// let later = PlayParams::default().start_time(StartTime::Delayed(Duration::from_millis(250)));
    /// assert!(later.validate().is_ok());
    /// let never = PlayParams::default().start_time(StartTime::Delayed(Duration::from_secs(7200)));
    /// assert!(never.validate().is_err());
    /// ```
    pub fn start_time(mut self, start_time: impl Into<StartTime>) -> Self {
        self.start_time = start_time.into();
        self
    }

    /// Where the sound is in a flat world: `(x, y)` is `(x, y, 0)`, heard
    /// by a listener facing -z with +x to its right and +y up, as Bevy's 2-D
    /// camera looks at its world (give the listener its place with
    /// [`Listener::set_position_2d`](crate::Listener::set_position_2d)).
    ///
    /// ```
    /// # use pool_audio::PlayParams;
    /// let params = PlayParams::default().position_2d([3.0, 4.0]);
    /// assert_eq!(params.position, Some([3.0, 4.0, 0.0].into()));
    /// ```
    pub fn position_2d(self, position: impl Into<mint::Vector2<f32>>) -> Self {
        self.position(flat(position.into()))
    }

    /// Checks every field: a volume of at most 0 dB (not NaN), a playback
    /// rate in [`MIN_PLAYBACK_RATE`]`..=`[`MAX_PLAYBACK_RATE`], a panning in
    /// `[-1, 1]`, a spatial blend in `[0, 1]`, a finite position and velocity,
    /// an obstruction and occlusion in `[0, 1]`, sound distances (see
    /// [`Distances::validate`](crate::Distances::validate)), a start time kira
    /// can wait for. [`SoundEffects::play`](crate::SoundEffects::play) calls it
    /// first.
    ///
    /// # Errors
    /// [`ParamError`] naming the first field out of range, with its value.
    ///
    /// ```
    /// use pool_audio::{error::ParamError, PlayParams};
    ///
    /// assert!(PlayParams::default().panning(-1.0).validate().is_ok());
    /// assert_eq!(PlayParams::default().playback_rate(0.0).validate(), Err(ParamError::PlaybackRate(0.0)));
    /// assert!(PlayParams::default().position([0.0, f32::INFINITY, 0.0]).validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), ParamError> {
        check_volume(self.volume)?;
        check_playback_rate(self.playback_rate)?;
        check_panning(self.panning)?;
        if !(0.0..=1.0).contains(&self.spatial_blend) {
            return Err(ParamError::SpatialBlend(self.spatial_blend));
        }
        if let Some(position) = self.position {
            check_position(position)?;
        }
        if let Some(velocity) = self.velocity {
            crate::cues::check_velocity(velocity)?;
        }
        crate::cues::check_amount(self.obstruction)?;
        crate::cues::check_amount(self.occlusion)?;
        if let Some(distances) = &self.distances {
            distances.validate()?;
        }
        check_start_time(self.start_time)?;
        Ok(())
    }
}

/// A fade of `duration` starting now, linear in amplitude: how the voice bank
/// fades stolen, recycled and resumed voices, and kira's [`Tween`](https://docs.rs/kira/0.12/kira/struct.Tween.html) with its
/// default easing.
///
/// ```
/// use std::time::Duration;
/// use pool_audio::kira::{Easing, StartTime};
///
/// let fade = pool_audio::linear_fade(Duration::from_millis(5));
/// assert_eq!(fade.duration, Duration::from_millis(5));
/// assert!(matches!((fade.easing, fade.start_time), (Easing::Linear, StartTime::Immediate)));
/// ```
pub fn linear_fade(duration: std::time::Duration) -> Tween {
    Tween {
        start_time: kira::StartTime::Immediate,
        duration,
        easing: kira::Easing::Linear,
    }
}

/// A volume at most 0 dB, as a linear amplitude (NaN is not at most 0).
pub(crate) fn check_volume(volume: Decibels) -> Result<f64, ParamError> {
    if volume.0 <= 0.0 {
        Ok(crate::level::amplitude_of(volume))
    } else {
        Err(ParamError::Volume(volume))
    }
}

/// A playback rate in [`MIN_PLAYBACK_RATE`]`..=`[`MAX_PLAYBACK_RATE`].
pub(crate) fn check_playback_rate(rate: f64) -> Result<f64, ParamError> {
    if (MIN_PLAYBACK_RATE..=MAX_PLAYBACK_RATE).contains(&rate) {
        Ok(rate)
    } else {
        Err(ParamError::PlaybackRate(rate))
    }
}

/// A panning in `[-1, 1]`.
pub(crate) fn check_panning(panning: f32) -> Result<f32, ParamError> {
    if (-1.0..=1.0).contains(&panning) {
        Ok(panning)
    } else {
        Err(ParamError::Panning(panning))
    }
}

/// A fade kira can compute: every easing power finite and not negative.
pub(crate) fn check_start_time(start_time: StartTime) -> Result<StartTime, ParamError> {
    let fine = match start_time {
        StartTime::Immediate => true,
        StartTime::Delayed(delay) => delay <= crate::MAX_START_DELAY,
        StartTime::ClockTime(time) => (0.0..1.0).contains(&time.fraction),
    };
    if fine {
        Ok(start_time)
    } else {
        Err(ParamError::StartTime(start_time))
    }
}

pub(crate) fn check_fade(fade: Tween) -> Result<Tween, ParamError> {
    if crate::sound_error::easing_is_safe(fade) {
        Ok(fade)
    } else {
        Err(ParamError::Fade(fade))
    }
}

/// Every coordinate finite.
/// A finite quaternion of non-zero length, normalized: `[x, y, z, w]`.
pub(crate) fn check_orientation(q: mint::Quaternion<f32>) -> Result<[f32; 4], ParamError> {
    let raw = [q.v.x, q.v.y, q.v.z, q.s];
    let length = raw
        .iter()
        .map(|c| f64::from(*c).powi(2))
        .sum::<f64>()
        .sqrt();
    if raw.iter().all(|c| c.is_finite()) && length > 1e-12 && length.is_finite() {
        Ok(raw.map(|c| (f64::from(c) / length) as f32))
    } else {
        Err(ParamError::Orientation(raw))
    }
}

pub(crate) fn check_position(position: mint::Vector3<f32>) -> Result<[f32; 3], ParamError> {
    let position: [f32; 3] = position.into();
    if position.iter().all(|c| c.is_finite()) {
        Ok(position)
    } else {
        Err(ParamError::Position(position))
    }
}

/// A point of a flat world in the 3-D one: `(x, y, 0)`.
pub(crate) fn flat(position: mint::Vector2<f32>) -> mint::Vector3<f32> {
    mint::Vector3 {
        x: position.x,
        y: position.y,
        z: 0.0,
    }
}

//! Per-sound and manager settings, validated with typed errors.

use std::time::Duration;

use kira::Decibels;

mod error;
pub use error::SettingsError;

use crate::Pick;
use crate::attenuation::{AttenuationError, CopyVolumes};
use crate::handles::GroupId;
use crate::level::amplitude;
use crate::limiter::{LimiterError, LimiterSettings};
use crate::limits::{
    MAX_PITCH_SEMITONES, MAX_RETRIGGER, MAX_STEAL_FADE, MAX_VIRTUAL_MARGIN, MAX_VIRTUAL_VOICES,
    MAX_VOICE_CAP, MIN_STEAL_FADE,
};
use crate::stealing::{Stealing, Tie};

/// The lowest headroom a sound may ask for, dBFS: quieter is silence.
const MIN_HEADROOM_DB: f32 = -200.0;

/// What a sound does when all its `max_voices` copies are playing.
///
/// ```
/// use pool_audio::{SoundSettings, voices::WhenFull};
///
/// let settings = SoundSettings::default().when_full(WhenFull::Strict);
/// assert_eq!(settings.when_full, WhenFull::Strict);
/// assert_eq!(SoundSettings::default().when_full, WhenFull::RecycleOldest);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum WhenFull {
    /// Stop its oldest copy (with a short fade) and play the new one (the default).
    #[default]
    RecycleOldest,
    /// Refuse the new play (the word `pool_core` uses for a pool that refuses) with [`PlayError::SoundLimit`](crate::PlayError::SoundLimit).
    Strict,
}

/// What happens to a voice of a sound when it cannot be real: the voice cap or
/// its group's cap is reached, it is below the audibility floor, or it is stolen.
/// FMOD and Wwise call the same choice a sound's virtual voice behaviour, Unreal
/// its virtualization mode.
///
/// The default, [`Auto`](Self::Auto), decides by the sound's data when it is
/// added: a looping sound (kira's `loop_region` set) virtualizes, so an engine,
/// a torch or an ambience that loses its voice keeps its handle and comes back
/// where it would be (FMOD's default for every sound); a sound that ends on its
/// own is killed, since a one-shot heard late is a one-shot heard wrong.
///
/// ```
/// use pool_audio::{voices::Resume, SoundSettings, voices::Virtualization};
///
/// assert_eq!(SoundSettings::default().virtualization, Virtualization::Auto);
/// let always = SoundSettings::default().virtualization(Virtualization::Virtualize(Resume::FromElapsed));
/// assert_eq!(always.virtualization, Virtualization::Virtualize(Resume::FromElapsed));
/// assert_eq!(Virtualization::Auto.resolve(true), Virtualization::Virtualize(Resume::FromElapsed));
/// assert_eq!(Virtualization::Auto.resolve(false), Virtualization::Kill);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Virtualization {
    /// [`Virtualize`](Self::Virtualize)`(`[`Resume::FromElapsed`]`)` for a looping
    /// sound, [`Kill`](Self::Kill) for one that ends (the default).
    #[default]
    Auto,
    /// The voice ends (a play is refused, a stolen voice is stopped): the
    /// behaviour of one-shots nobody misses.
    Kill,
    /// The voice goes virtual: it keeps its handle, parameters, position and
    /// playhead, costs no mixing, and becomes real again when it is among the
    /// most audible voices (see [`SoundEffects::update`](crate::SoundEffects::update)).
    Virtualize(Resume),
}

impl Virtualization {
    /// What this choice is for a sound that loops (`looping`) or ends: `Auto`
    /// becomes `Virtualize(Resume::FromElapsed)` or `Kill`, the others stay.
    /// [`SoundEffects::add_sound`](crate::SoundEffects::add_sound) resolves it once.
    pub fn resolve(self, looping: bool) -> Self {
        match self {
            Self::Auto if looping => Self::Virtualize(Resume::FromElapsed),
            Self::Auto => Self::Kill,
            other => other,
        }
    }

    /// `true` for a resolved choice that keeps voices as virtual ones.
    pub(crate) fn virtualizes(self) -> bool {
        matches!(self, Self::Virtualize(_))
    }
}

/// Where a virtual voice starts when it becomes real again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Resume {
    /// Where it would be had it played all along: its playhead, advanced by the
    /// game's time steps times its playback rate (Wwise's "play from elapsed
    /// time"; loops, engines, ambiences).
    #[default]
    FromElapsed,
    /// From its start (Wwise's "play from beginning", Unreal's "restart").
    FromStart,
}

/// How one sound is played: copy limit, attenuation, priority. Like kira's settings
/// structs, its fields are public and each has a builder method of the same name;
/// [`SoundEffects::add_sound`](crate::SoundEffects::add_sound) validates them.
///
/// ```
/// use std::time::Duration;
/// use pool_audio::SoundSettings;
///
/// let explosion = SoundSettings::default()
///     .max_voices(10)          // about 10 copies carry a stacked sound
///     .first_volume(-6.0)      // the first copy 6 dB down (about half amplitude)
///     .headroom(-1.0)          // all 10 copies together stay 1 dB under full scale
///     .min_retrigger(Duration::from_millis(30)); // at most one new copy every 30 ms
/// assert!(explosion.validate().is_ok());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct SoundSettings {
    /// The most copies of this sound playing at once, `1..=64` (default 8).
    pub max_voices: usize,
    /// The first copy's volume, at most 0 dB (default
    /// [`HALF`](Self::HALF), -6.02 dB: half amplitude).
    ///
    /// Why not 0 dB: the newest copy always plays at this volume, and the older ones
    /// get what it leaves of the headroom. At half amplitude (0.5 below, as amplitudes), one copy alone peaks 6 dB
    /// under the sound's own peak, and a burst of 8 copies of a full-scale
    /// sine starts at -1 dBFS, each copy at its copy volume (0.5, 0.22, 0.10,
    /// ...). The budget is the headroom over the sound's measured peak
    /// ([`SoundPeak::max`](crate::SoundPeak::max)), which for data with sharp
    /// edges includes the resampler's overshoot: a full-scale square or
    /// constant (peak 1.074) starts at -1.6 dBFS, 0.5, 0.2, 0.08, ...
    /// Then the copies settle to leave room for the next one's onset, which
    /// for full-scale data at 0.5 is room for the newest alone: the seven
    /// older ones fade out over the steal fade and leave
    /// ([`EndReason::Crowded`](crate::EndReason::Crowded)); measured, 100 ms
    /// on the newest plays alone at -6 dBFS. How many copies stay once
    /// settled ([`SoundInfo::copies_kept`](crate::SoundInfo::copies_kept))
    /// depends on the data's measured peak and the first volume; for sines at
    /// the default headroom:
    ///
    /// | peak | first volume | 2 | 4 | 8 | 16 | 32 copies |
    /// |---|---|---|---|---|---|---|
    /// | 1.0 | -20 dB (0.1) | 2 | 4 | 8 | 13 | 18 |
    /// | 1.0 | -14 dB (0.2) | 2 | 4 | 5 | 6 | 6 |
    /// | 1.0 | -10.5 dB (0.3) | 2 | 3 | 3 | 3 | 3 |
    /// | 1.0 | -6.02 dB (0.5) and up | 1 | 1 | 1 | 1 | 1 |
    /// | 0.5 | -14 dB (0.2) | 2 | 4 | 8 | 13 | 18 |
    /// | 0.5 | -6.02 dB (0.5) | 2 | 3 | 4 | 4 | 4 |
    /// | 0.25 | -6.02 dB (0.5) | 2 | 4 | 7 | 11 | 13 |
    ///
    /// A sound that never stacks (a stinger, a line of dialogue) plays at the
    /// headroom with `max_voices(1).first_volume(0.0)`.
    pub first_volume: Decibels,
    /// The level all copies together reach at most, dBFS, `-200..=0` (default -1).
    pub headroom: Decibels,
    /// The audibility floor (default -60 dB; `f32::NEG_INFINITY` for none): no copy starts under it
    /// (copy volumes the shares would put under it play at it), a copy whose
    /// settled level would be under it leaves at the next update (see
    /// [`SoundInfo::copies_kept`](crate::SoundInfo::copies_kept)), a play
    /// whose onset (volume, distance) is under it is not started, and a
    /// virtualizing voice under it goes virtual.
    pub audibility_floor: Decibels,
    /// The shortest time between two plays of this sound,
    /// `..=`[`MAX_RETRIGGER`](crate::MAX_RETRIGGER) (default zero: none).
    pub min_retrigger: Duration,
    /// Higher is kept longer by [`Stealing::LowestPriority`] (default 0).
    pub priority: i32,
    /// What a play of a [`Virtualization::Kill`] sound does when every copy is
    /// playing (default: recycle the oldest). A virtualizing sound's new copy
    /// instead replaces its least audible copy if it is more audible (by the
    /// margin), or starts virtual.
    pub when_full: WhenFull,
    /// What happens when a voice of this sound cannot be real (default
    /// [`Virtualization::Auto`]: a looping sound goes virtual, a one-shot ends).
    pub virtualization: Virtualization,
    /// The voice group the sound belongs to (default `None`: only the voice cap
    /// limits it), from [`SoundEffects::add_group`](crate::SoundEffects::add_group).
    pub group: Option<GroupId>,
    /// With `min_retrigger`, the distance within which the interval applies
    /// (default `None`: everywhere). Two plays further apart than this are not
    /// held back by each other: gunshots at opposite ends of the map both sound,
    /// ten at one spot do not. An unpositioned play counts as at the listener.
    pub retrigger_radius: Option<f32>,
    /// The most real copies one owner ([`PlayParams::owner`](crate::PlayParams::owner))
    /// plays at once, `1..=max_voices` (default `None`: no cap per owner). When
    /// an owner's copies are all playing, [`when_full`](Self::when_full)
    /// decides as for the sound: recycle that owner's oldest copy, or refuse
    /// ([`PlayError::OwnerLimit`](crate::PlayError::OwnerLimit)). A virtualizing
    /// sound displaces that owner's least audible copy if it is more audible, or
    /// starts virtual. Plays without an owner are not capped by it.
    pub max_voices_per_owner: Option<usize>,
    /// How a sound with several recordings picks one per play (default
    /// [`Pick::Random`], avoiding the last pick).
    pub pick: Pick,
    /// The pitch range a play's pitch is drawn from, in semitones `(low,
    /// high)`: finite, `low <= high`, each within
    /// `±`[`MAX_PITCH_SEMITONES`](crate::MAX_PITCH_SEMITONES) (default `(0, 0)`:
    /// none). The drawn shift multiplies the play's playback rate; the result
    /// stays inside the rates a play may ask for.
    pub pitch_semitones: (f64, f64),
    /// The volume range a play's volume is drawn from, `(low, high)`: finite,
    /// `low <= high <= 0 dB` (default `(0, 0)`: none). It only lowers, as
    /// FMOD's volume modulator does: the copy budget holds for the loudest
    /// recording at full volume, so a burst of the loudest draws stays inside it.
    pub volume_range: (Decibels, Decibels),
    /// How far the sound's priority falls (a negative offset) or rises at its
    /// maximum distance from the listener, linearly from its priority at the
    /// listener (Wwise's "offset priority at max distance"), scaled by the
    /// play's spatial blend, rounded to a whole priority (default 0: none). The
    /// maximum distance is the play's [`distances`](Self::distances) (100 m
    /// by default); unpositioned plays are at the listener.
    pub distance_priority_offset: i32,
    /// Which loses when a new play and a real voice are equal in priority and
    /// the voice cap's stealing is [`Stealing::LowestPriority`] (default: the
    /// oldest).
    pub tie: Tie,
    /// How loud the sound is in the world, on the game's own decibel scale, for the
    /// loudness window (see [`LoudnessWindow`](crate::LoudnessWindow)); at most
    /// [`MAX_LOUDNESS`](crate::MAX_LOUDNESS) in size. Used only when the
    /// window is on and the sound's group opts in (default `None`: the
    /// window's floor in such a group).
    pub loudness: Option<Decibels>,
    /// How much the play's and the listener's velocities shift its pitch,
    /// `0..=`[`MAX_DOPPLER_SCALE`](crate::MAX_DOPPLER_SCALE) (default 0: no
    /// doppler; 1 is the physical shift). See [`cues`](crate::Muffle).
    pub doppler_scale: f64,
    /// What obstruction does to it (default [`Muffle::OBSTRUCTION`](crate::Muffle::OBSTRUCTION)).
    pub obstruction: crate::Muffle,
    /// What occlusion does to it (default [`Muffle::OCCLUSION`](crate::Muffle::OCCLUSION)).
    pub occlusion: crate::Muffle,
    /// How a positioned play of it fades with distance (default kira's: 1 m
    /// to 100 m, linear in dB); a play may give its own.
    pub distances: crate::Distances,
    /// Its voices' sends to return buses (default none; see
    /// [`SendSettings`](crate::mix::SendSettings)), added with
    /// [`send`](Self::send).
    pub sends: crate::mix::Sends,
    /// Its voices send to the zones they are in (default `true`; turn it
    /// off for the interface, or anything that is not in the level's
    /// space). See [`ZoneSettings`](crate::mix::ZoneSettings).
    pub zones: bool,
    /// The switch whose state picks its recordings (default `None`: a play
    /// picks among them all); each recording is in one of its states (see
    /// [`Recordings::for_state`](crate::sound::Recordings::for_state)).
    pub switch: Option<crate::sound::SwitchId>,
    /// Curves from game parameters to its volume and pitch (default none;
    /// see [`game`](crate::game)), added with [`curve`](Self::curve).
    pub curves: crate::game::Curves,
}

impl Default for SoundSettings {
    /// 8 copies, the first at 0.5, -1 dBFS headroom, -60 dB audibility floor, no
    /// retrigger limit, priority 0, recycle the oldest copy when full.
    fn default() -> Self {
        Self {
            max_voices: 8,
            first_volume: Self::HALF,
            headroom: Decibels(-1.0),
            audibility_floor: Decibels(-60.0),
            min_retrigger: Duration::ZERO,
            priority: 0,
            when_full: WhenFull::RecycleOldest,
            virtualization: Virtualization::Auto,
            group: None,
            retrigger_radius: None,
            max_voices_per_owner: None,
            pick: Pick::default(),
            pitch_semitones: (0.0, 0.0),
            volume_range: (Decibels::IDENTITY, Decibels::IDENTITY),
            distance_priority_offset: 0,
            tie: Tie::OldestLoses,
            loudness: None,
            doppler_scale: 0.0,
            obstruction: crate::Muffle::OBSTRUCTION,
            occlusion: crate::Muffle::OCCLUSION,
            distances: crate::Distances::default(),
            sends: crate::mix::Sends::default(),
            zones: true,
            switch: None,
            curves: crate::game::Curves::default(),
        }
    }
}

impl SoundSettings {
    /// Half amplitude, -6.02 dB: the default first volume.
    pub const HALF: Decibels = Decibels(-6.020_6);

    /// The most copies of this sound playing at once, `1..=64`.
    ///
    /// ```
    /// # use pool_audio::SoundSettings;
    /// let settings = SoundSettings::default().max_voices(4);
    /// assert_eq!(settings.max_voices, 4);
    /// assert!(SoundSettings::default().max_voices(65).validate().is_err());
    /// ```
    pub fn max_voices(mut self, max_voices: usize) -> Self {
        self.max_voices = max_voices;
        self
    }

    /// The first copy's volume, at most 0 dB (an `f32` is decibels, as in
    /// kira).
    ///
    /// ```
    /// # use pool_audio::SoundSettings;
    /// # use pool_audio::kira::Decibels;
    /// let settings = SoundSettings::default().first_volume(-2.0);
    /// assert_eq!(settings.first_volume, Decibels(-2.0));
    /// assert!(SoundSettings::default().first_volume(3.0).validate().is_err());
    /// ```
    pub fn first_volume(mut self, volume: impl Into<Decibels>) -> Self {
        self.first_volume = volume.into();
        self
    }

    /// What all copies together may reach, dBFS (`-200..=0`; default -1).
    ///
    /// ```
    /// # use pool_audio::SoundSettings;
    /// # use pool_audio::kira::Decibels;
    /// let settings = SoundSettings::default().headroom(-3.0);
    /// assert_eq!(settings.headroom, Decibels(-3.0));
    /// assert!(SoundSettings::default().headroom(1.0).validate().is_err());
    /// ```
    pub fn headroom(mut self, headroom: impl Into<Decibels>) -> Self {
        self.headroom = headroom.into();
        self
    }

    /// The audibility floor (default -60 dB): see the field's docs.
    ///
    /// ```
    /// # use pool_audio::SoundSettings;
    /// # use pool_audio::kira::Decibels;
    /// let settings = SoundSettings::default().audibility_floor(-50.0);
    /// assert_eq!(settings.audibility_floor, Decibels(-50.0));
    /// ```
    pub fn audibility_floor(mut self, floor: impl Into<Decibels>) -> Self {
        self.audibility_floor = floor.into();
        self
    }

    /// The shortest time between two plays of this sound, in game time
    /// (`..=`[`MAX_RETRIGGER`](crate::MAX_RETRIGGER), default zero: no limit).
    /// Game time is counted in whole microseconds, so sixty updates of 1/60 s
    /// are exactly one second, and 100 ms lets a play through on the 6th
    /// update at 60 fps.
    ///
    /// ```
    /// # use pool_audio::SoundSettings;
    /// # use std::time::Duration;
    /// let settings = SoundSettings::default().min_retrigger(Duration::from_millis(50));
    /// assert_eq!(settings.min_retrigger, Duration::from_millis(50));
    /// assert!(SoundSettings::default().min_retrigger(Duration::from_secs(7200)).validate().is_err());
    /// ```
    pub fn min_retrigger(mut self, min_retrigger: Duration) -> Self {
        self.min_retrigger = min_retrigger;
        self
    }

    /// Higher priorities are stolen last by [`Stealing::LowestPriority`].
    ///
    /// ```
    /// # use pool_audio::SoundSettings;
    /// let settings = SoundSettings::default().priority(10);
    /// assert_eq!(settings.priority, 10);
    /// ```
    pub fn priority(mut self, priority: i32) -> Self {
        self.priority = priority;
        self
    }

    /// What to do when all copies are playing.
    ///
    /// ```
    /// # use pool_audio::{SoundSettings, voices::WhenFull};
    /// let settings = SoundSettings::default().when_full(WhenFull::Strict);
    /// assert_eq!(settings.when_full, WhenFull::Strict);
    /// ```
    pub fn when_full(mut self, when_full: WhenFull) -> Self {
        self.when_full = when_full;
        self
    }

    /// What happens when a voice of this sound cannot be real.
    ///
    /// ```
    /// # use pool_audio::{voices::Resume, SoundSettings, voices::Virtualization};
    /// let settings = SoundSettings::default().virtualization(Virtualization::Virtualize(Resume::FromStart));
    /// assert_eq!(settings.virtualization, Virtualization::Virtualize(Resume::FromStart));
    /// ```
    pub fn virtualization(mut self, virtualization: Virtualization) -> Self {
        self.virtualization = virtualization;
        self
    }

    /// The voice group the sound belongs to.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{GroupSettings, OfflineBackend, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let footsteps = sfx.add_group("footsteps", GroupSettings::default().max_voices(6))?;
    /// let settings = SoundSettings::default().group(footsteps);
    /// assert_eq!(settings.group, Some(footsteps));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn group(mut self, group: GroupId) -> Self {
        self.group = Some(group);
        self
    }

    /// Adds a send of its voices to a return bus, after the ones added before
    /// (at most [`MAX_SENDS`](crate::mix::MAX_SENDS): one more makes the
    /// settings invalid, [`SettingsError::TooManySends`]).
    pub fn send(mut self, send: crate::mix::SendSettings) -> Self {
        self.sends.push(send);
        self
    }

    /// Whether its voices send to the zones they are in.
    pub fn zones(mut self, zones: bool) -> Self {
        self.zones = zones;
        self
    }

    /// The distance within which `min_retrigger` applies (finite, `> 0`).
    ///
    /// ```
    /// # use pool_audio::SoundSettings;
    /// # use std::time::Duration;
    /// let gunshot = SoundSettings::default()
    ///     .min_retrigger(Duration::from_millis(100))
    ///     .retrigger_radius(20.0);
    /// assert_eq!(gunshot.retrigger_radius, Some(20.0));
    /// assert!(SoundSettings::default().retrigger_radius(f32::NAN).validate().is_err());
    /// ```
    pub fn retrigger_radius(mut self, radius: f32) -> Self {
        self.retrigger_radius = Some(radius);
        self
    }

    /// The most real copies one owner plays at once (Wwise's limit "per game
    /// object", Unreal's "limit to owner"): a tank firing four times a second
    /// holds at most two of the shared cannon's copies.
    ///
    /// ```
    /// # use pool_audio::SoundSettings;
    /// let cannon = SoundSettings::default().max_voices(10).max_voices_per_owner(2);
    /// assert_eq!(cannon.max_voices_per_owner, Some(2));
    /// assert!(SoundSettings::default().max_voices(4).max_voices_per_owner(5).validate().is_err());
    /// ```
    pub fn max_voices_per_owner(mut self, copies: usize) -> Self {
        self.max_voices_per_owner = Some(copies);
        self
    }

    /// The switch whose state picks its recordings (see
    /// [`SoundEffects::add_switch`](crate::SoundEffects::add_switch)).
    pub fn switch(mut self, switch: crate::sound::SwitchId) -> Self {
        self.switch = Some(switch);
        self
    }

    /// Adds a curve from a game parameter to its volume or pitch (at most
    /// [`MAX_CURVES`](crate::game::MAX_CURVES); past them the sound is
    /// refused when added).
    pub fn curve(mut self, curve: crate::game::Curve) -> Self {
        self.curves.push(curve);
        self
    }

    /// How a sound with several recordings picks one per play.
    ///
    /// ```
    /// # use pool_audio::{sound::Pick, SoundSettings};
    /// let settings = SoundSettings::default().pick(Pick::Random { avoid_last: 2 });
    /// assert_eq!(settings.pick, Pick::Random { avoid_last: 2 });
    /// ```
    pub fn pick(mut self, pick: Pick) -> Self {
        self.pick = pick;
        self
    }

    /// The range each play's pitch is drawn from, in semitones (Godot's
    /// `random_pitch_semitones`, as a range).
    ///
    /// ```
    /// # use pool_audio::SoundSettings;
    /// let gunshot = SoundSettings::default().pitch_semitones(-1.0, 1.0);
    /// assert_eq!(gunshot.pitch_semitones, (-1.0, 1.0));
    /// assert!(SoundSettings::default().pitch_semitones(1.0, -1.0).validate().is_err());
    /// assert!(SoundSettings::default().pitch_semitones(f64::NAN, 0.0).validate().is_err());
    /// ```
    pub fn pitch_semitones(mut self, low: f64, high: f64) -> Self {
        self.pitch_semitones = (low, high);
        self
    }

    /// The range each play's volume is drawn from, at most 0 dB (FMOD's
    /// volume modulator).
    ///
    /// ```
    /// # use pool_audio::SoundSettings;
    /// # use pool_audio::kira::Decibels;
    /// let footstep = SoundSettings::default().volume_range(-4.0, 0.0);
    /// assert_eq!(footstep.volume_range, (Decibels(-4.0), Decibels(0.0)));
    /// assert!(SoundSettings::default().volume_range(-3.0, 3.0).validate().is_err());
    /// ```
    pub fn volume_range(mut self, low: impl Into<Decibels>, high: impl Into<Decibels>) -> Self {
        self.volume_range = (low.into(), high.into());
        self
    }

    /// How far the priority moves at the maximum distance (negative: a far
    /// voice gives way to a near one).
    ///
    /// ```
    /// # use pool_audio::SoundSettings;
    /// let explosion = SoundSettings::default().priority(10).distance_priority_offset(-20);
    /// assert_eq!(explosion.distance_priority_offset, -20);
    /// ```
    pub fn distance_priority_offset(mut self, offset: i32) -> Self {
        self.distance_priority_offset = offset;
        self
    }

    /// How loud the sound is in the world, for the loudness window.
    ///
    /// ```
    /// # use pool_audio::SoundSettings;
    /// # use pool_audio::kira::Decibels;
    /// assert_eq!(SoundSettings::default().loudness(130.0).loudness, Some(Decibels(130.0)));
    /// assert!(SoundSettings::default().loudness(f32::NAN).validate().is_err());
    /// ```
    pub fn loudness(mut self, loudness: impl Into<Decibels>) -> Self {
        self.loudness = Some(loudness.into());
        self
    }

    /// Which loses a tie in priority under [`Stealing::LowestPriority`].
    ///
    /// ```
    /// # use pool_audio::{SoundSettings, voices::Tie};
    /// let settings = SoundSettings::default().tie(Tie::NewestLoses);
    /// assert_eq!(settings.tie, Tie::NewestLoses);
    /// ```
    pub fn tie(mut self, tie: Tie) -> Self {
        self.tie = tie;
        self
    }

    /// Checks every value.
    ///
    /// # Errors
    /// [`SettingsError`] naming the value out of range.
    ///
    /// ```
    /// # use pool_audio::{error::SettingsError, SoundSettings};
    /// assert!(matches!(
    ///     SoundSettings::default().headroom(3.0).validate(),
    ///     Err(SettingsError::Headroom(_))
    /// ));
    /// ```
    pub fn validate(&self) -> Result<(), SettingsError> {
        self.copy_volumes(1.0).map(|_| ())
    }

    /// Checks every value and solves the copy volumes for a sound whose output
    /// peaks at `peak` (see [`SoundPeak`](crate::SoundPeak)): all `max_voices`
    /// copies together, each at its volume, reach at most the headroom.
    ///
    /// # Errors
    /// [`SettingsError`] naming the value out of range.
    pub(crate) fn copy_volumes(&self, peak: f32) -> Result<CopyVolumes, SettingsError> {
        if !(MIN_HEADROOM_DB..=0.0).contains(&self.headroom.0) {
            return Err(SettingsError::Headroom(self.headroom));
        }
        let floor_db = self.audibility_floor.0;
        if !(floor_db.is_finite() || floor_db == f32::NEG_INFINITY) {
            return Err(SettingsError::AudibilityFloor(self.audibility_floor));
        }
        if self.min_retrigger > MAX_RETRIGGER {
            return Err(SettingsError::MinRetrigger(self.min_retrigger));
        }
        if let Some(radius) = self.retrigger_radius
            && !(radius.is_finite() && radius > 0.0)
        {
            return Err(SettingsError::RetriggerRadius(radius));
        }
        if let Some(copies) = self.max_voices_per_owner
            && !(1..=self.max_voices).contains(&copies)
        {
            return Err(SettingsError::MaxVoicesPerOwner(copies));
        }
        let (low, high) = self.pitch_semitones;
        if !(low <= high && low >= -MAX_PITCH_SEMITONES && high <= MAX_PITCH_SEMITONES) {
            return Err(SettingsError::PitchSemitones(low, high));
        }
        let (low, high) = self.volume_range;
        if !(low.0.is_finite() && low <= high && high.0 <= 0.0) {
            return Err(SettingsError::VolumeRange(low, high));
        }
        self.sends.check()?;
        if let Some(loudness) = self.loudness
            && !(-crate::MAX_LOUDNESS.0..=crate::MAX_LOUDNESS.0).contains(&loudness.0)
        {
            return Err(SettingsError::Loudness(loudness));
        }
        self.check_cues()?;
        let first = self.first_volume.0;
        if !(first.is_finite() && first <= 0.0) {
            return Err(SettingsError::FirstVolume(self.first_volume));
        }
        let floor = amplitude(f64::from(floor_db));
        let first = amplitude(f64::from(first));
        CopyVolumes::solve_above(self.max_voices, first, self.budget(peak), floor).map_err(
            |error| match error {
                AttenuationError::MaxVoices(n) => SettingsError::MaxVoices(n),
                AttenuationError::FirstVolume(_) => SettingsError::FirstVolume(self.first_volume),
                AttenuationError::Floor { fits: 0 } if first < floor => {
                    SettingsError::FirstVolumeUnderFloor(self.first_volume)
                }
                // The first volume reaches the floor; capped at the budget,
                // it does not.
                AttenuationError::Floor { fits: 0 } => SettingsError::HeadroomUnderFloor {
                    headroom: self.headroom,
                    floor: self.audibility_floor,
                },
                AttenuationError::Floor { fits } => SettingsError::InaudibleCopies {
                    max_voices: self.max_voices,
                    fits,
                },
                _ => SettingsError::Headroom(self.headroom),
            },
        )
    }
}

/// `true` if `level` is above 0 and at or above `floor` (both amplitudes:
/// compared without a logarithm on a play's path).
pub(crate) fn reaches(level: f64, floor: f64) -> bool {
    level > 0.0 && level >= floor
}

impl SoundSettings {
    /// What the copies' volumes may sum to, as a gain on data that peaks at
    /// `peak`: the headroom over the peak.
    pub(crate) fn budget(&self, peak: f32) -> f64 {
        if peak > 0.0 {
            amplitude(f64::from(self.headroom.0)) / f64::from(peak)
        } else {
            f64::MAX
        }
    }
}

/// Settings of the whole sound-effects layer.
///
/// ```
/// use std::time::Duration;
/// use pool_audio::SoundEffectsSettings;
///
/// let settings = SoundEffectsSettings {
///     voice_cap: 32,
///     steal_fade: Duration::from_millis(5),
///     ..Default::default()
/// };
/// assert!(settings.validate().is_ok());
/// let too_long = SoundEffectsSettings { steal_fade: Duration::from_secs(2), ..settings };
/// assert!(too_long.validate().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SoundEffectsSettings {
    /// The most voices playing at once, all sounds together,
    /// `1..=`[`MAX_VOICE_CAP`] (default 64). The voice bank holds twice as many
    /// (every real voice, and as many fading out).
    pub voice_cap: usize,
    /// Which voice a full cap gives up (default: the oldest).
    pub stealing: Stealing,
    /// How long a stolen or recycled voice fades out,
    /// [`MIN_STEAL_FADE`]`..=`[`MAX_STEAL_FADE`] (1 ms to 1 s; default 10
    /// ms), while the new one starts at once: long enough not to click, short
    /// enough not to be heard. Copies of a sound also move to their new levels
    /// over it, and a virtual voice made real fades in over it.
    pub steal_fade: Duration,
    /// Virtual voices (see [`Virtualization`]) kept besides the real ones, at most
    /// `0..=`[`MAX_VIRTUAL_VOICES`] (default 1024). When they are all taken, a new one replaces the
    /// least audible virtual voice (its handle goes stale).
    pub virtual_voices: usize,
    /// Hysteresis between real and virtual (`0..=`[`MAX_VIRTUAL_MARGIN`], default 3 dB): a virtual
    /// voice takes the place of a real one of the same priority only when it is
    /// this much more audible, so voices near the edge do not flap.
    pub virtual_margin: Decibels,
    /// The mix ceiling: a look-ahead peak limiter, last on the output that holds
    /// the sound effects, the buses and the music (default: on, at -1 dBFS).
    /// `None` leaves the output unlimited.
    pub limiter: Option<LimiterSettings>,
    /// The seed of the one generator every random choice draws from (which
    /// recording a play picks, its pitch and volume; default 0). The same seed,
    /// the same calls and the same render sizes render the same samples: give
    /// a replay its recorded seed and frame times, or a game a new seed per
    /// session
    /// ([`SoundEffects::reseed`](crate::SoundEffects::reseed)).
    pub seed: u64,
    /// The loudness window (Wwise's HDR audio) over the groups that opt in
    /// (default `None`: off). Set once: voices are started relative to its
    /// floor.
    pub loudness_window: Option<crate::LoudnessWindow>,
    /// How fast sound travels, in m/s, for doppler (default
    /// [`SPEED_OF_SOUND`](crate::SPEED_OF_SOUND), 343; finite, `> 0`).
    pub speed_of_sound: f32,
    /// A voice or the listener moving faster than this between two updates,
    /// in m/s, has teleported: its velocity stays what it was (default 150;
    /// finite, `> 0`).
    pub teleport_speed: f32,
}

impl Default for SoundEffectsSettings {
    fn default() -> Self {
        Self {
            voice_cap: 64,
            stealing: Stealing::Oldest,
            steal_fade: Duration::from_millis(10),
            virtual_voices: 1024,
            virtual_margin: Decibels(3.0),
            limiter: Some(LimiterSettings::default()),
            seed: 0,
            loudness_window: None,
            speed_of_sound: crate::SPEED_OF_SOUND,
            teleport_speed: 150.0,
        }
    }
}

impl SoundEffectsSettings {
    /// Checks every value.
    ///
    /// # Errors
    /// [`SettingsError::VoiceCap`], [`SettingsError::StealFade`],
    /// [`SettingsError::VirtualVoices`] or [`SettingsError::VirtualMargin`] with
    /// the value out of range, or [`SettingsError::Limiter`].
    ///
    /// ```
    /// use pool_audio::SoundEffectsSettings;
    ///
    /// assert!(SoundEffectsSettings::default().validate().is_ok());
    /// assert!(SoundEffectsSettings { voice_cap: 0, ..Default::default() }.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), SettingsError> {
        if !(1..=MAX_VOICE_CAP).contains(&self.voice_cap) {
            return Err(SettingsError::VoiceCap(self.voice_cap));
        }
        if !(MIN_STEAL_FADE..=MAX_STEAL_FADE).contains(&self.steal_fade) {
            return Err(SettingsError::StealFade(self.steal_fade));
        }
        if self.virtual_voices > MAX_VIRTUAL_VOICES {
            return Err(SettingsError::VirtualVoices(self.virtual_voices));
        }
        if !(0.0..=MAX_VIRTUAL_MARGIN.0).contains(&self.virtual_margin.0) {
            return Err(SettingsError::VirtualMargin(self.virtual_margin));
        }
        if let Some(limiter) = &self.limiter {
            limiter.validate().map_err(SettingsError::Limiter)?;
        }
        if let Some(window) = &self.loudness_window {
            window.validate()?;
        }
        let positive = |v: f32| v.is_finite() && v > 0.0;
        if !positive(self.speed_of_sound) {
            return Err(SettingsError::SpeedOfSound(self.speed_of_sound));
        }
        if !positive(self.teleport_speed) {
            return Err(SettingsError::TeleportSpeed(self.teleport_speed));
        }
        Ok(())
    }
}

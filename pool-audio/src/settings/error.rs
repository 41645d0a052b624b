//! A setting out of range, named with its value.

use super::*;
use kira::Decibels;

/// A setting out of range, naming the value.
///
/// ```
/// use pool_audio::{error::SettingsError, SoundSettings};
///
/// let err = SoundSettings::default().max_voices(100).validate().unwrap_err();
/// assert_eq!(err, SettingsError::MaxVoices(100));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum SettingsError {
    /// `max_voices` not in `1..=64`.
    MaxVoices(usize),
    /// First-copy volume not finite and at most 0 dB.
    FirstVolume(Decibels),
    /// Headroom not in `-200..=0` dBFS (NaN included).
    Headroom(Decibels),
    /// Audibility floor NaN or +infinity.
    AudibilityFloor(Decibels),
    /// Retrigger interval above [`MAX_RETRIGGER`](crate::MAX_RETRIGGER).
    MinRetrigger(Duration),
    /// Retrigger radius not finite and above 0.
    RetriggerRadius(f32),
    /// Copies per owner not in `1..=max_voices`.
    MaxVoicesPerOwner(usize),
    /// The first copy's volume is under the audibility floor: no play at
    /// full volume would ever start.
    FirstVolumeUnderFloor(Decibels),
    /// The headroom over the sound's peak (a peak of 1 for
    /// [`SoundSettings::validate`], which has no sound) is under the audibility
    /// floor: the first copy, capped at it, would be under the floor, and no
    /// play would ever start.
    HeadroomUnderFloor {
        /// The headroom asked for, dBFS.
        headroom: Decibels,
        /// The audibility floor.
        floor: Decibels,
    },
    /// `max_voices` copies cannot all start above the audibility floor: even
    /// at the floor each, they sum above the headroom. At most `fits` can; ask
    /// for `max_voices(fits)` or a lower floor.
    InaudibleCopies {
        /// The copies asked for.
        max_voices: usize,
        /// The most copies whose volumes reach the floor.
        fits: usize,
    },
    /// A pitch range `(low, high)` in semitones that is not finite, not
    /// ordered, or wider than
    /// `±`[`MAX_PITCH_SEMITONES`](crate::MAX_PITCH_SEMITONES).
    PitchSemitones(f64, f64),
    /// A volume range `(low, high)` that is not finite, not ordered, or
    /// above 0 dB.
    VolumeRange(Decibels, Decibels),
    /// A send's level not in `MIN_MIX..=MAX_MIX`
    /// (see [`SendSettings`](crate::mix::SendSettings)).
    SendLevel(Decibels),
    /// A send's curve whose distances are not finite with `0 <= start < end`,
    /// or whose levels are not in `MIN_MIX..=MAX_MIX`.
    SendCurve(crate::mix::SendCurve),
    /// More than [`MAX_SENDS`](crate::mix::MAX_SENDS) sends.
    TooManySends,
    /// [`SoundEffectsSettings::voice_cap`] not in `1..=`[`MAX_VOICE_CAP`].
    VoiceCap(usize),
    /// [`SoundEffectsSettings::steal_fade`] not in
    /// [`MIN_STEAL_FADE`]`..=`[`MAX_STEAL_FADE`].
    StealFade(Duration),
    /// [`SoundEffectsSettings::virtual_voices`] above [`MAX_VIRTUAL_VOICES`].
    VirtualVoices(usize),
    /// [`SoundEffectsSettings::virtual_margin`] not in
    /// `0..=`[`MAX_VIRTUAL_MARGIN`] dB.
    VirtualMargin(Decibels),
    /// [`SoundSettings::loudness`] not finite or larger than
    /// [`MAX_LOUDNESS`](crate::MAX_LOUDNESS) in size.
    Loudness(Decibels),
    /// [`LoudnessWindow::height`](crate::LoudnessWindow::height) not in
    /// `(0, 200]` dB.
    WindowHeight(Decibels),
    /// [`LoudnessWindow::release`](crate::LoudnessWindow::release) over an hour.
    WindowRelease(Duration),
    /// [`LoudnessWindow::floor`](crate::LoudnessWindow::floor) not finite
    /// or larger than 200 dB in size.
    WindowFloor(Decibels),
    /// The limiter's settings are out of range.
    Limiter(LimiterError),
    /// A doppler scale not in `0..=MAX_DOPPLER_SCALE`.
    DopplerScale(f64),
    /// An obstruction or occlusion curve out of range.
    Muffle(crate::Muffle),
    /// A speed of sound not finite and above 0.
    SpeedOfSound(f32),
    /// A teleport speed not finite and above 0.
    TeleportSpeed(f32),
    /// Distances not finite with `0 <= min < max`, or an unsafe curve.
    Distances(crate::Distances),
}

impl std::fmt::Display for SettingsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::MaxVoices(n) => write!(f, "max_voices {n} is not in 1..=64"),
            Self::FirstVolume(v) => {
                write!(f, "first_volume {} dB is not a number at most 0 dB", v.0)
            }
            Self::Headroom(db) => write!(f, "headroom {} dBFS is not in -200..=0", db.0),
            Self::AudibilityFloor(db) => write!(f, "audibility floor {} dB is not a level", db.0),
            Self::MinRetrigger(s) => {
                write!(f, "min_retrigger {s:?} is over {MAX_RETRIGGER:?}")
            }
            Self::RetriggerRadius(r) => write!(f, "retrigger radius {r} is not a distance above 0"),
            Self::MaxVoicesPerOwner(n) => {
                write!(f, "max_voices_per_owner {n} is not in 1..=max_voices")
            }
            Self::FirstVolumeUnderFloor(_)
            | Self::HeadroomUnderFloor { .. }
            | Self::InaudibleCopies { .. } => self.fmt_floor(f),
            Self::PitchSemitones(low, high) => write!(
                f,
                "pitch range ({low}, {high}) semitones is not low <= high within ±{MAX_PITCH_SEMITONES}"
            ),
            Self::VolumeRange(low, high) => write!(
                f,
                "volume range ({} dB, {} dB) is not finite with low <= high <= 0 dB",
                low.0, high.0
            ),
            Self::SendLevel(_) | Self::SendCurve(_) | Self::TooManySends => self.fmt_send(f),
            Self::VoiceCap(n) => write!(f, "voice_cap {n} is not in 1..={MAX_VOICE_CAP}"),
            Self::StealFade(fade) => write!(
                f,
                "steal_fade {fade:?} is not in {MIN_STEAL_FADE:?}..={MAX_STEAL_FADE:?}"
            ),
            Self::VirtualVoices(n) => {
                write!(f, "virtual_voices {n} is above {MAX_VIRTUAL_VOICES}")
            }
            Self::VirtualMargin(db) => write!(
                f,
                "virtual_margin {} dB is not in 0..={} dB",
                db.0, MAX_VIRTUAL_MARGIN.0
            ),
            Self::Loudness(db) => write!(
                f,
                "loudness {} dB is not finite within ±{} dB",
                db.0,
                crate::MAX_LOUDNESS.0
            ),
            Self::WindowHeight(db) => write!(
                f,
                "loudness window height {} dB is not in (0, {}] dB",
                db.0,
                crate::MAX_LOUDNESS.0
            ),
            Self::WindowRelease(release) => {
                write!(f, "loudness window release {release:?} is over an hour")
            }
            Self::WindowFloor(db) => write!(
                f,
                "loudness window floor {} dB is not finite within ±{} dB",
                db.0,
                crate::MAX_LOUDNESS.0
            ),
            Self::Limiter(error) => error.fmt(f),
            Self::DopplerScale(scale) => write!(
                f,
                "doppler_scale {scale} is not in 0..={}",
                crate::MAX_DOPPLER_SCALE
            ),
            Self::Muffle(m) => write!(
                f,
                "muffle curve {m:?} is not volume in -60..=0 dB, cutoff_hz in 20..=20000 with a safe easing"
            ),
            Self::SpeedOfSound(c) => write!(f, "speed_of_sound {c} m/s is not finite and > 0"),
            Self::TeleportSpeed(v) => write!(f, "teleport_speed {v} m/s is not finite and > 0"),
            Self::Distances(d) => write!(
                f,
                "distances {d:?} are not finite with 0 <= min < max and a safe curve"
            ),
        }
    }
}

impl SettingsError {
    /// The errors of copies under the audibility floor, said.
    fn fmt_floor(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::FirstVolumeUnderFloor(v) => write!(
                f,
                "first_volume {} dB is under the audibility floor: no play would start",
                v.0
            ),
            Self::HeadroomUnderFloor { headroom, floor } => write!(
                f,
                "headroom {} dBFS over the sound's peak leaves its first copy under \
                 the audibility floor ({} dB): no play would start (raise the headroom \
                 or lower the floor)",
                headroom.0, floor.0
            ),
            Self::InaudibleCopies { max_voices, fits } => write!(
                f,
                "max_voices {max_voices}: at most {fits} copies fit the headroom at the \
                 audibility floor (ask for max_voices({fits}) or a lower floor)"
            ),
            _ => Ok(()),
        }
    }
}

impl std::error::Error for SettingsError {}

impl SettingsError {
    /// The messages of the sends' errors.
    fn fmt_send(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (min, max) = (crate::MIN_MIX.0, crate::MAX_MIX.0);
        match self {
            Self::SendLevel(level) => {
                write!(f, "send level {} dB is not in {min}..={max} dB", level.0)
            }
            Self::SendCurve(curve) => write!(
                f,
                "send curve {curve:?} needs finite distances 0 <= start < end and levels in {min}..={max} dB"
            ),
            _ => write!(f, "a sound has at most {} sends", crate::MAX_SENDS),
        }
    }
}

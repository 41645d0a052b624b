//! Sound data kira cannot play safely, refused when the sound is added: kira checks
//! none of this, and on the audio thread a bad slice panics, an empty loop region
//! spins forever and a sample rate of 0 never ends.

use std::fmt;

use kira::Frame;
use kira::sound::static_sound::StaticSoundData;
use kira::sound::{EndPosition, PlaybackPosition};
use kira::{Easing, Tween};

use crate::MAX_SOUND_SAMPLE_RATE;

/// Why a sound's data was refused, before kira ever sees it.
///
/// ```
/// use pool_audio::kira::{Frame, sound::static_sound::StaticSoundData};
/// use pool_audio::{error::SoundError, sound::SoundPeak};
///
/// let data = StaticSoundData { sample_rate: 48_000, frames: vec![Frame::ZERO; 10].into(), settings: Default::default(), slice: Some((4, 20)) };
/// let err = SoundPeak::measure(&data).unwrap_err();
/// assert_eq!(err, SoundError::Slice { start: 4, end: 20, frames: 10 });
/// assert!(err.to_string().contains("slice"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SoundError {
    /// A sample rate outside `1..=192_000` Hz: 0 never ends, a huge one makes
    /// kira's resampler read millions of frames per output frame.
    SampleRate(u32),
    /// No frames to play (an empty sound, or an empty slice).
    Empty,
    /// A slice that is reversed or reaches past the frames (kira would panic on the
    /// audio thread).
    Slice {
        /// The slice's first frame.
        start: usize,
        /// The slice's end (exclusive).
        end: usize,
        /// Frames in the data.
        frames: usize,
    },
    /// A NaN or infinite sample, which would turn the whole mix into NaN.
    NonFinite {
        /// The frame (within the slice) holding it.
        frame: usize,
    },
    /// A loop region that is empty or starts past the end (kira would loop
    /// forever on the audio thread).
    LoopRegion {
        /// The region's start, in frames.
        start: usize,
        /// The region's end, in frames.
        end: usize,
    },
    /// A reversed sound starting past its last frame (kira would panic).
    StartPosition(usize),
    /// A fade-in easing with a NaN, infinite or negative power, which makes the
    /// volume NaN or infinite.
    FadeIn,
}

impl fmt::Display for SoundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::SampleRate(rate) => write!(
                f,
                "sample rate {rate} Hz is not in 1..={MAX_SOUND_SAMPLE_RATE}"
            ),
            Self::Empty => f.write_str("the sound has no frames to play"),
            Self::Slice { start, end, frames } => write!(
                f,
                "slice {start}..{end} does not lie within the sound's {frames} frames"
            ),
            Self::NonFinite { frame } => write!(f, "frame {frame} holds a NaN or infinite sample"),
            Self::LoopRegion { start, end } => write!(
                f,
                "loop region {start}..{end} (frames) is empty or starts past the end"
            ),
            Self::StartPosition(position) => write!(
                f,
                "a reversed sound cannot start at frame {position}, past its last frame"
            ),
            Self::FadeIn => {
                f.write_str("the fade-in easing's power must be finite and non-negative")
            }
        }
    }
}

impl std::error::Error for SoundError {}

/// The frames kira will play (the slice, if any), once every check has passed.
pub(crate) fn playable_frames(data: &StaticSoundData) -> Result<&[Frame], SoundError> {
    if !(1..=MAX_SOUND_SAMPLE_RATE).contains(&data.sample_rate) {
        return Err(SoundError::SampleRate(data.sample_rate));
    }
    let frames: &[Frame] = match data.slice {
        None => &data.frames,
        Some((start, end)) => {
            if start > end || end > data.frames.len() {
                return Err(SoundError::Slice {
                    start,
                    end,
                    frames: data.frames.len(),
                });
            }
            &data.frames[start..end]
        }
    };
    if frames.is_empty() {
        return Err(SoundError::Empty);
    }
    if let Some(frame) = frames
        .iter()
        .position(|f| !(f.left.is_finite() && f.right.is_finite()))
    {
        return Err(SoundError::NonFinite { frame });
    }
    if let Some((start, end)) = loop_region(data, frames.len())
        && (start >= end || start >= frames.len())
    {
        return Err(SoundError::LoopRegion { start, end });
    }
    let start = samples(data.settings.start_position, data.sample_rate);
    if data.settings.reverse && start >= frames.len() {
        return Err(SoundError::StartPosition(start));
    }
    if let Some(tween) = data.settings.fade_in_tween
        && !easing_is_safe(tween)
    {
        return Err(SoundError::FadeIn);
    }
    Ok(frames)
}

/// An easing maps `[0, 1]` into `[0, 1]` only with a finite, non-negative power.
pub(crate) fn easing_is_safe(tween: Tween) -> bool {
    match tween.easing {
        Easing::Linear => true,
        Easing::InPowi(p) | Easing::OutPowi(p) | Easing::InOutPowi(p) => p >= 0,
        Easing::InPowf(p) | Easing::OutPowf(p) | Easing::InOutPowf(p) => p.is_finite() && p >= 0.0,
    }
}

/// kira's own conversion of a position to frames (`PlaybackPosition::into_samples`
/// is private to kira; a float cast saturates, NaN goes to 0).
pub(crate) fn samples(position: PlaybackPosition, sample_rate: u32) -> usize {
    match position {
        PlaybackPosition::Seconds(seconds) => (seconds * f64::from(sample_rate)).round() as usize,
        PlaybackPosition::Samples(samples) => samples,
    }
}

/// The loop region in frames, as kira's transport computes it; `None` without one.
pub(crate) fn loop_region(data: &StaticSoundData, frames: usize) -> Option<(usize, usize)> {
    data.settings.loop_region.map(|region| {
        let end = match region.end {
            EndPosition::EndOfAudio => frames,
            EndPosition::Custom(end) => samples(end, data.sample_rate),
        };
        (samples(region.start, data.sample_rate), end)
    })
}

//! Where a virtual voice is in its sound: the same transport the voice bank
//! runs for a real voice (`bank/transport.rs`, kira's rules), on a continuous
//! position, advanced by the game's time step times the voice's playback rate,
//! without rounding. A one-shot ends when its time is up; a loop wraps around
//! its loop region.

use kira::sound::static_sound::StaticSoundData;

use crate::sound_error::{loop_region, samples};

/// A sound's transport: its length, start and loop region, in frames.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Timeline {
    frames: f64,
    sample_rate: f64,
    /// The transport position a play starts at.
    start: f64,
    loop_region: Option<(f64, f64)>,
    reverse: bool,
}

impl Timeline {
    /// The timeline of data that passed `SoundError`'s checks.
    pub(crate) fn of(data: &StaticSoundData) -> Self {
        let frames = data.num_frames();
        let start = samples(data.settings.start_position, data.sample_rate);
        let reverse = data.settings.reverse;
        Self {
            frames: frames as f64,
            sample_rate: f64::from(data.sample_rate),
            start: if reverse {
                frames.saturating_sub(1 + start) as f64
            } else {
                start as f64
            },
            loop_region: loop_region(data, frames).map(|(s, e)| (s as f64, e as f64)),
            reverse,
        }
    }

    /// The transport position a play starts at.
    pub(crate) fn start(&self) -> f64 {
        self.start
    }

    /// `position` advanced by `seconds` of playback at `rate`; `None` once a sound
    /// without a loop has played to its end.
    pub(crate) fn advance(&self, position: f64, seconds: f64, rate: f64) -> Option<f64> {
        let step = seconds * rate * self.sample_rate;
        if self.reverse {
            let mut next = position - step;
            if let Some((start, end)) = self.loop_region {
                let length = end - start;
                if next <= start && length > 0.0 {
                    next = start + (next - start).rem_euclid(length);
                    if next <= start {
                        next += length;
                    }
                }
            }
            (next >= 0.0).then_some(next)
        } else {
            let mut next = position + step;
            if let Some((start, end)) = self.loop_region {
                let length = end - start;
                if next >= end && length > 0.0 {
                    next = start + (next - start).rem_euclid(length);
                }
            }
            (next < self.frames).then_some(next)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kira::Frame;
    use kira::sound::{PlaybackPosition, Region};

    fn data(frames: usize) -> StaticSoundData {
        StaticSoundData {
            sample_rate: 1_000,
            frames: vec![Frame::ZERO; frames].into(),
            settings: Default::default(),
            slice: None,
        }
    }

    #[test]
    fn one_shot_ends_when_its_time_is_up() {
        let t = Timeline::of(&data(1_000));
        assert_eq!(t.advance(0.0, 0.5, 1.0), Some(500.0));
        assert_eq!(
            t.advance(0.0, 0.5, 2.0),
            None,
            "twice the rate: over in 0.5 s"
        );
        assert_eq!(t.advance(900.0, 0.2, 1.0), None);
    }

    #[test]
    fn loop_wraps_around_its_region() {
        let looped = data(1_000).loop_region(Region {
            start: PlaybackPosition::Samples(200),
            end: kira::sound::EndPosition::Custom(PlaybackPosition::Samples(600)),
        });
        let t = Timeline::of(&looped);
        // 0 -> 700 wraps: 700 - 600 = 100 past the end, 200 + 100 = 300.
        assert_eq!(t.advance(0.0, 0.7, 1.0), Some(300.0));
        // Many loops at once.
        let p = t.advance(0.0, 100.0, 1.0).unwrap();
        assert!((200.0..600.0).contains(&p), "{p}");
        assert_eq!(p, 200.0 + (100_000.0 - 200.0) % 400.0);
    }

    #[test]
    fn reversed_sound_runs_backwards_and_restarts_from_its_end() {
        let reversed = data(1_000).reverse(true);
        let t = Timeline::of(&reversed);
        assert_eq!(t.start(), 999.0);
        assert_eq!(t.advance(999.0, 0.5, 1.0), Some(499.0));
        assert_eq!(t.advance(499.0, 0.6, 1.0), None);
        let looped = reversed.loop_region(..);
        let t = Timeline::of(&looped);
        let p = t.advance(999.0, 1.5, 1.0).unwrap();
        assert!((0.0..=1_000.0).contains(&p), "{p}");
    }
}

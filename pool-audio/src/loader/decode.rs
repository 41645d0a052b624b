//! Decoding a sound file within a budget of frames, into one allocation.
//!
//! kira's own `StaticSoundData::from_file` decodes a file whole, growing a vector
//! of frames by doubling and then copying it into the shared slice: a file's
//! header can make it allocate twice the decoded size and more, whatever the
//! game meant to load. Here the decoded length is known before anything is
//! allocated: from the header where the format gives it (WAV, FLAC, most Ogg
//! files), otherwise from a first pass that decodes and counts without keeping a
//! frame. A length over the budget is refused then, before the frames are
//! allocated; the frames are decoded straight into the shared slice kira plays.

use std::io;
use std::ops::ControlFlow;
use std::sync::Arc;

use kira::Frame;
use kira::sound::static_sound::StaticSoundData;
use symphonia::core::codecs::CodecParameters;
use symphonia::core::codecs::audio::AudioDecoder;
use symphonia::core::formats::{FormatReader, TrackType};
use symphonia::core::io::{MediaSource, MediaSourceStream};

use super::LoadError;
use crate::{MAX_SOUND_SAMPLE_RATE, SoundError};

/// A file being decoded: its reader, its audio track's decoder, what the header
/// says. The loaders decode it whole; music streams it a packet at a time.
pub(crate) struct Decoding {
    format: Box<dyn FormatReader>,
    decoder: Box<dyn AudioDecoder>,
    track: u32,
    /// Frames per second.
    pub(crate) sample_rate: u32,
    channels: usize,
    /// The length the header gives, if it does.
    pub(crate) header_frames: Option<u64>,
    /// Whether the track counts time in frames (seeking needs it).
    frame_time_base: bool,
}

/// Why decoding stopped early.
enum Stop {
    /// More frames than the budget (or than the frames made ready).
    Full,
    /// The decoder failed.
    Failed(String),
}

impl Decoding {
    pub(crate) fn open(key: &str, source: Box<dyn MediaSource>) -> Result<Self, LoadError> {
        let corrupt = |reason: String| LoadError::Corrupt {
            key: key.into(),
            reason,
        };
        let stream = MediaSourceStream::new(source, Default::default());
        let format = symphonia::default::get_probe()
            .probe(
                &Default::default(),
                stream,
                Default::default(),
                Default::default(),
            )
            .map_err(|error| corrupt(error.to_string()))?;
        let track = format
            .default_track(TrackType::Audio)
            .ok_or_else(|| corrupt("no audio track".into()))?;
        let Some(CodecParameters::Audio(params)) = track.codec_params.as_ref() else {
            return Err(corrupt("no audio track".into()));
        };
        let sample_rate = params
            .sample_rate
            .ok_or_else(|| corrupt("the sample rate is not given".into()))?;
        if !(1..=MAX_SOUND_SAMPLE_RATE).contains(&sample_rate) {
            return Err(LoadError::Sound {
                key: key.into(),
                error: SoundError::SampleRate(sample_rate),
            });
        }
        let channels = params.channels.as_ref().map_or(0, |c| c.count());
        if !(1..=2).contains(&channels) {
            return Err(corrupt(format!(
                "{channels} channels: kira plays mono and stereo sounds"
            )));
        }
        let decoder = symphonia::default::get_codecs()
            .make_audio_decoder(params, &Default::default())
            .map_err(|error| corrupt(error.to_string()))?;
        let frame_time_base = track
            .time_base
            .is_none_or(|base| base.numer.get() == 1 && base.denom.get() == sample_rate);
        let (track, header_frames) = (track.id, track.num_frames);
        Ok(Self {
            format,
            decoder,
            track,
            sample_rate,
            channels,
            header_frames,
            frame_time_base,
        })
    }

    /// Decodes the next packet of the audio track into `frames` (cleared first);
    /// `Ok(false)` at the end of the file.
    pub(crate) fn packet(
        &mut self,
        scratch: &mut Vec<f32>,
        frames: &mut Vec<Frame>,
    ) -> Result<bool, String> {
        frames.clear();
        loop {
            let packet = match self.format.next_packet() {
                Ok(Some(packet)) => packet,
                Ok(None) => return Ok(false),
                Err(error) => return Err(error.to_string()),
            };
            if packet.track_id != self.track {
                continue;
            }
            let buffer = self
                .decoder
                .decode(&packet)
                .map_err(|error| error.to_string())?;
            scratch.clear();
            buffer.copy_to_vec_interleaved::<f32>(scratch);
            frames.extend(
                scratch
                    .chunks_exact(self.channels)
                    .map(|samples| match *samples {
                        [mono] => Frame::from_mono(mono),
                        [left, right] => Frame::new(left, right),
                        _ => Frame::ZERO,
                    }),
            );
            return Ok(true);
        }
    }

    /// Seeks to frame `frame`, as exactly as the format can: returns how many of
    /// the frames decoded next come before it (to skip). Without a seek the
    /// format allows, the caller decodes from the start and skips to it.
    pub(crate) fn seek(&mut self, frame: u64) -> Result<u64, String> {
        use symphonia::core::formats::{SeekMode, SeekTo};
        use symphonia::core::units::Timestamp;
        if frame == 0 {
            return Ok(0);
        }
        if !self.frame_time_base {
            return Err("the track does not count time in frames".into());
        }
        let ts = i64::try_from(frame).map_err(|error| error.to_string())?;
        let seeked = self
            .format
            .seek(
                SeekMode::Accurate,
                SeekTo::Timestamp {
                    ts: Timestamp::new(ts),
                    track_id: self.track,
                },
            )
            .map_err(|error| error.to_string())?;
        self.decoder.reset();
        let behind = seeked.required_ts.get() - seeked.actual_ts.get();
        Ok(u64::try_from(behind).unwrap_or(0))
    }

    /// Counts the frames of the file, refusing beyond `max_frames`
    /// ([`Stop::Full`]).
    fn count(&mut self, scratch: &mut Vec<f32>, max_frames: usize) -> Result<usize, Stop> {
        let mut count = 0usize;
        self.frames(scratch, |_| {
            count += 1;
            if count > max_frames {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })?;
        Ok(count)
    }

    /// Decodes the file into one allocation of exactly `length` frames (`RepeatN`
    /// has an exact length, so the slice is allocated once), in place;
    /// [`Stop::Full`] if it holds more. A file that holds fewer is cut to them.
    fn fill(&mut self, scratch: &mut Vec<f32>, length: usize) -> Result<StaticSoundData, Stop> {
        let mut frames: Arc<[Frame]> = std::iter::repeat_n(Frame::ZERO, length).collect();
        let Some(slots) = Arc::get_mut(&mut frames) else {
            return Err(Stop::Failed("the decoded frames are shared".into()));
        };
        let mut written = 0;
        self.frames(scratch, |frame| match slots.get_mut(written) {
            Some(slot) => {
                *slot = frame;
                written += 1;
                ControlFlow::Continue(())
            }
            None => ControlFlow::Break(()),
        })?;
        if written < length {
            // The header promised more than the file holds.
            frames = Arc::from(&slots[..written]);
        }
        Ok(StaticSoundData {
            sample_rate: self.sample_rate,
            frames,
            settings: Default::default(),
            slice: None,
        })
    }

    /// Decodes every packet, handing `each` every frame, until the end or until
    /// `each` stops.
    fn frames(
        &mut self,
        scratch: &mut Vec<f32>,
        mut each: impl FnMut(Frame) -> ControlFlow<()>,
    ) -> Result<(), Stop> {
        let mut frames = Vec::new();
        while self.packet(scratch, &mut frames).map_err(Stop::Failed)? {
            for frame in frames.iter().copied() {
                if each(frame).is_break() {
                    return Err(Stop::Full);
                }
            }
        }
        Ok(())
    }
}

/// Decodes the file `open` opens (called once or twice) into at most
/// `max_frames` frames.
pub(super) fn decode<S: MediaSource + 'static>(
    key: &str,
    open: impl Fn() -> io::Result<S>,
    max_frames: usize,
) -> Result<StaticSoundData, LoadError> {
    decode_with(key, open, max_frames, true)
}

/// [`decode`], reading the header's length only if `use_header` (the tests
/// decode without it, as for a format that does not give it).
fn decode_with<S: MediaSource + 'static>(
    key: &str,
    open: impl Fn() -> io::Result<S>,
    max_frames: usize,
    use_header: bool,
) -> Result<StaticSoundData, LoadError> {
    let reopen = || {
        let source = open().map_err(|error| LoadError::Corrupt {
            key: key.into(),
            reason: error.to_string(),
        })?;
        Decoding::open(key, Box::new(source))
    };
    let too_long = || LoadError::TooLong {
        key: key.into(),
        max_frames,
    };
    let failed = |reason| LoadError::Corrupt {
        key: key.into(),
        reason,
    };
    let mut scratch = Vec::new();
    let mut reader = reopen()?;
    let mut known = match reader.header_frames.filter(|_| use_header) {
        Some(frames) if frames > max_frames as u64 => return Err(too_long()),
        Some(frames) => Some(frames as usize),
        None => None,
    };
    // At most three passes: into the header's length; if the header was wrong or
    // silent, a pass that counts; then into the counted length.
    for _ in 0..3 {
        let Some(length) = known else {
            match reader.count(&mut scratch, max_frames) {
                Ok(count) => known = Some(count),
                Err(Stop::Full) => return Err(too_long()),
                Err(Stop::Failed(reason)) => return Err(failed(reason)),
            }
            reader = reopen()?;
            continue;
        };
        match reader.fill(&mut scratch, length) {
            Ok(data) => return Ok(data),
            // More frames than the header said: count them.
            Err(Stop::Full) => {
                known = None;
                reader = reopen()?;
            }
            Err(Stop::Failed(reason)) => return Err(failed(reason)),
        }
    }
    Err(failed(
        "the file decodes to a different length on each read".into(),
    ))
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    fn wav(frames: usize) -> Vec<u8> {
        let mut bytes = Cursor::new(Vec::new());
        let spec = hound::WavSpec {
            channels: 2,
            sample_rate: 32_000,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        let mut writer = hound::WavWriter::new(&mut bytes, spec).unwrap();
        for i in 0..frames * 2 {
            writer.write_sample((i % 2000) as i16 - 1000).unwrap();
        }
        writer.finalize().unwrap();
        bytes.into_inner()
    }

    /// Without a length in the header (MP3 without a Xing frame, some Ogg
    /// files), the frames are counted first, then decoded into one allocation:
    /// the same frames as kira's, and a file one frame too long is refused.
    #[test]
    fn without_the_headers_length_the_frames_are_counted_first() {
        let bytes: Arc<[u8]> = wav(5_000).into();
        let open = || Ok(Cursor::new(bytes.clone()));
        let kiras = StaticSoundData::from_cursor(Cursor::new(bytes.clone())).unwrap();
        let counted = decode_with("a", open, 5_000, false).unwrap();
        assert!(counted.frames == kiras.frames);
        assert_eq!(counted.sample_rate, 32_000);
        assert_eq!(
            decode_with("a", open, 4_999, false).unwrap_err(),
            LoadError::TooLong {
                key: "a".into(),
                max_frames: 4_999
            }
        );
    }
}

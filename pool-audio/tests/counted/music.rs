//! Music and ambience streamed on named tracks: crossfades with equal power,
//! loops, seeks, pauses, typed refusals, renders that repeat, a mixer that
//! allocates nothing, and an hour-long piece in bounded memory. Every figure is
//! measured in the render.

// The helpers of the `audio` test binary; this one uses a few of them.
use crate::common;
mod mix;

use std::f32::consts::TAU;
use std::io::{Cursor, Read, Seek, SeekFrom};
use std::time::Duration;

use kira::{AudioManager, AudioManagerSettings, Easing, StartTime, Tween};
use pool_audio::mix::Snapshot;
use pool_audio::music::{
    Decode, MAX_FADE, Music, MusicError, MusicParams, MusicSettings, MusicSource,
};
use pool_audio::offline::{OfflineSettings, Rendered};
use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings, linear_fade};

use common::RATE;

/// A WAV of `seconds` of a sine at `hz`, amplitude 0.5, at `rate`.
fn tone(hz: f32, seconds: f32, rate: u32, channels: u16) -> Vec<u8> {
    let mut bytes = Cursor::new(Vec::new());
    let spec = hound::WavSpec {
        channels,
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut writer = hound::WavWriter::new(&mut bytes, spec).unwrap();
    for i in 0..(seconds * rate as f32) as usize {
        let s = ((i as f32 * hz * TAU / rate as f32).sin() * 0.5 * 32_767.0) as i16;
        for _ in 0..channels {
            writer.write_sample(s).unwrap();
        }
    }
    writer.finalize().unwrap();
    bytes.into_inner()
}

/// A linear fade of `seconds`.
fn fade(seconds: f64) -> Tween {
    linear_fade(Duration::from_secs_f64(seconds))
}

/// Where the piece on `track` is, in seconds.
fn position(music: &Music, track: &str) -> f64 {
    let track = music.track(track).unwrap();
    music.position(track).unwrap().unwrap().as_secs_f64()
}

/// A manager, its sound effects (without a limiter unless `limited`) and
/// music decoded ahead of 10 ms renders on the caller's thread (the offline
/// backend's default).
fn setup_with(limited: bool) -> (AudioManager<OfflineBackend>, SoundEffects, Music) {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let mut sfx_settings = SoundEffectsSettings::default();
    if !limited {
        sfx_settings.limiter = None;
    }
    let mut sfx = SoundEffects::new(&mut manager, sfx_settings).unwrap();
    let settings = MusicSettings {
        buffer: Duration::from_millis(500),
        ..Default::default()
    };
    let music = Music::new(&mut sfx, settings).unwrap();
    assert_eq!(music.decode(), Decode::Caller);
    (manager, sfx, music)
}

/// As [`setup_with`], unlimited: these tests measure the pieces themselves.
fn setup() -> (AudioManager<OfflineBackend>, SoundEffects, Music) {
    setup_with(false)
}

/// Renders `seconds` in 10 ms steps, filling before each.
fn render(manager: &mut AudioManager<OfflineBackend>, music: &mut Music, seconds: f64) -> Rendered {
    let mut samples = Vec::new();
    for _ in 0..(seconds * 100.0).round() as usize {
        music.fill();
        manager
            .backend_mut()
            .render_append(0.01, &mut samples)
            .unwrap();
    }
    Rendered::from_samples(RATE, samples)
}

/// The left channel's RMS over `samples`, in dB.
fn rms_db(samples: &[f32]) -> f32 {
    let left: Vec<f32> = samples.iter().step_by(2).copied().collect();
    let power = left.iter().map(|s| s * s).sum::<f32>() / left.len() as f32;
    10.0 * power.log10()
}

/// The left channel's amplitude at `hz` (a window of whole cycles).
fn amplitude(samples: &[f32], hz: f32) -> f32 {
    let (mut re, mut im) = (0.0f64, 0.0f64);
    let left: Vec<f32> = samples.iter().step_by(2).copied().collect();
    for (n, s) in left.iter().enumerate() {
        let phase = f64::from(hz) * std::f64::consts::TAU * n as f64 / f64::from(RATE);
        re += f64::from(*s) * phase.cos();
        im += f64::from(*s) * phase.sin();
    }
    (2.0 * re.hypot(im) / left.len() as f64) as f32
}

#[test]
fn a_crossfade_keeps_the_level_and_ends_in_its_time() {
    let (mut manager, mut sfx, mut music) = setup();
    let m = music.track("music").unwrap();
    let calm = MusicSource::encoded("calm", tone(220.0, 4.0, RATE, 1));
    let boss = MusicSource::encoded("boss", tone(330.0, 4.0, 44_100, 2));
    music
        .play(&mut sfx, m, &calm, MusicParams::default())
        .unwrap();
    let before = render(&mut manager, &mut music, 0.5);
    music
        .play(&mut sfx, m, &boss, MusicParams::default().fade(fade(1.0)))
        .unwrap();
    let during = render(&mut manager, &mut music, 1.0);
    let after = render(&mut manager, &mut music, 0.5);

    let own = rms_db(&before.samples()[4_800..]);
    let alone = rms_db(after.samples());
    println!("each piece alone: {own:.2} dB and {alone:.2} dB");
    assert!((own - alone).abs() < 0.2, "{own} vs {alone}");
    // 50 ms windows through the crossfade.
    let window = (RATE as usize / 20) * 2;
    let mut worst: f32 = 0.0;
    for chunk in during.samples().chunks_exact(window) {
        worst = worst.max((rms_db(chunk) - own).abs());
    }
    println!("crossfade: at most {worst:.2} dB from a piece alone");
    // Both pieces sound through it: a quarter in, the old one at cos(pi/8) of
    // its level and the new at sin(pi/8); half way, both at cos(pi/4) (each
    // averaged over a 100 ms window of whole cycles).
    let at = |seconds: f64| &during.samples()[((seconds - 0.05) * 96_000.0) as usize..][..9_600];
    for (seconds, old, new) in [
        (0.25, 0.462, 0.191),
        (0.5, 0.354, 0.354),
        (0.75, 0.191, 0.462),
    ] {
        let (a, b) = (amplitude(at(seconds), 220.0), amplitude(at(seconds), 330.0));
        println!("at {seconds} s: 220 Hz {a:.3}, 330 Hz {b:.3}");
        assert!(
            (a - old).abs() < 0.02 && (b - new).abs() < 0.02,
            "{a} {b} at {seconds}"
        );
    }
    assert!(worst < 1.0, "the summed level strays {worst} dB");
    // Done in its time: only the new piece sounds, at its pitch (44.1 kHz
    // resampled to 48 kHz), and one stream is left.
    assert_eq!(music.stats().streams, 1);
    let hz = common::frequency(&common::left(after.samples()), f64::from(RATE));
    assert!((hz - 330.0).abs() < 0.5, "{hz} Hz");
    assert_eq!(music.piece(m).unwrap(), Some("boss"));
}

#[test]
fn a_loop_plays_on_and_a_piece_played_once_ends() {
    let (mut manager, mut sfx, mut music) = setup();
    let (m, amb) = (
        music.track("music").unwrap(),
        music.track("ambience").unwrap(),
    );
    let short = MusicSource::encoded("short", tone(440.0, 0.25, RATE, 1));
    music
        .play(&mut sfx, m, &short, MusicParams::default().looped())
        .unwrap();
    let looped = render(&mut manager, &mut music, 1.0);
    // No 10 ms stretch of silence across three loop points.
    for chunk in looped.samples()[960..].chunks_exact(960) {
        assert!(chunk.iter().any(|s| s.abs() > 0.3), "a gap in the loop");
    }
    let at = position(&music, "music");
    assert!(at < 0.25, "the position wraps: {at}");

    music
        .play(&mut sfx, amb, &short, MusicParams::default())
        .unwrap();
    music.stop(m, fade(0.0)).unwrap();
    let once = render(&mut manager, &mut music, 0.5);
    assert!(once.samples()[..9_600].iter().any(|s| s.abs() > 0.3));
    assert!(
        once.samples()[28_800..].iter().all(|s| *s == 0.0),
        "it ended"
    );
    assert_eq!(music.piece(amb).unwrap(), None);
    assert_eq!(music.stats().streams, 0);
}

#[test]
fn seek_moves_the_piece_and_pause_holds_it() {
    let (mut manager, mut sfx, mut music) = setup();
    let (m, amb) = (
        music.track("music").unwrap(),
        music.track("ambience").unwrap(),
    );
    // A rising tone: where it is tells when it is.
    let piece = MusicSource::encoded("piece", tone(440.0, 10.0, RATE, 1));
    music
        .play(&mut sfx, m, &piece, MusicParams::default())
        .unwrap();
    render(&mut manager, &mut music, 0.2);
    music.seek(&mut sfx, m, Duration::from_secs(6)).unwrap();
    render(&mut manager, &mut music, 0.1);
    let at = position(&music, "music");
    assert!((at - 6.1).abs() < 0.01, "after the seek: {at}");

    music.pause(m, fade(0.0)).unwrap();
    let paused = render(&mut manager, &mut music, 0.3);
    assert!(paused.samples()[9_600..].iter().all(|s| *s == 0.0));
    let held = position(&music, "music");
    assert!((held - at).abs() < 0.02, "paused at {held}, was {at}");
    music.resume(m, fade(0.0)).unwrap();
    render(&mut manager, &mut music, 0.2);
    let on = position(&music, "music");
    assert!((on - held - 0.2).abs() < 0.02, "resumed to {on}");

    // The game's pause holds the ambience, not the music.
    music
        .play(&mut sfx, amb, &piece, MusicParams::default())
        .unwrap();
    music.stop(m, fade(0.0)).unwrap();
    music.pause_game(true, fade(0.0)).unwrap();
    let quiet = render(&mut manager, &mut music, 0.2);
    assert!(quiet.samples()[4_800..].iter().all(|s| *s == 0.0));
    music.pause_game(false, fade(0.0)).unwrap();
    let back = render(&mut manager, &mut music, 0.2);
    assert!(back.peak() > 0.4);
}

#[test]
fn bad_requests_are_typed_and_change_nothing() {
    let (mut manager, mut sfx, mut music) = setup();
    let m = music.track("music").unwrap();
    let piece = MusicSource::encoded("piece", tone(440.0, 1.0, RATE, 1));
    music
        .play(&mut sfx, m, &piece, MusicParams::default())
        .unwrap();
    assert_eq!(
        music.track("radio"),
        Err(MusicError::UnknownTrack("radio".into()))
    );
    // A track of another manager, and a track of the game's in this mix.
    let mut other = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
    let theirs = Music::new(&mut other, MusicSettings::default()).unwrap();
    let foreign = theirs.track("music").unwrap();
    let mut radio = kira::track::TrackBuilder::new();
    let control = radio.add_effect(kira::effect::volume_control::VolumeControlBuilder::new(
        kira::Decibels::IDENTITY,
    ));
    let _radio = manager.add_sub_track(radio).unwrap();
    let radio = sfx.mix_mut().add_track("radio", control).unwrap();
    for track in [foreign, radio] {
        let error = music.play(&mut sfx, track, &piece, MusicParams::default());
        assert_eq!(error, Err(MusicError::NotMusicTrack(track)));
    }
    // This Music's track, with sound effects it was not made with.
    let amb = music.track("ambience").unwrap();
    let error = music.play(&mut other, amb, &piece, MusicParams::default());
    assert_eq!(error, Err(MusicError::OtherSoundEffects));
    assert_eq!(
        music.track_handle(&mut other, amb).err(),
        Some(MusicError::OtherSoundEffects)
    );
    assert_eq!(music.piece(amb), Ok(None));
    // A name the mix holds already, music or not.
    for name in ["radio", "ambience"] {
        let error = music.add_track(&mut sfx, pool_audio::music::TrackSettings::new(name));
        assert_eq!(error, Err(MusicError::DuplicateTrack(name.into())));
    }
    let bad_fades = [
        linear_fade(MAX_FADE + Duration::from_millis(1)),
        Tween {
            easing: Easing::InPowf(-1.0),
            ..fade(1.0)
        },
        Tween {
            start_time: StartTime::Delayed(Duration::from_millis(10)),
            ..fade(1.0)
        },
    ];
    for bad in bad_fades {
        let error = music.play(&mut sfx, m, &piece, MusicParams::default().fade(bad));
        assert_eq!(error, Err(MusicError::Fade(bad)));
        assert_eq!(music.stop(m, bad), Err(MusicError::Fade(bad)));
    }
    for at in [Duration::from_secs(2), Duration::MAX] {
        let error = music.play(&mut sfx, m, &piece, MusicParams::default().start_at(at));
        assert!(
            matches!(error, Err(MusicError::Position { .. })),
            "{error:?}"
        );
        let error = music.play(&mut sfx, m, &piece, MusicParams::default().loop_from(at));
        assert!(
            matches!(error, Err(MusicError::Position { .. })),
            "{error:?}"
        );
    }
    let corrupt = MusicSource::encoded("corrupt", vec![7u8; 1000]);
    let error = music
        .play(&mut sfx, m, &corrupt, MusicParams::default())
        .unwrap_err();
    assert!(
        matches!(&error, MusicError::Piece { piece, .. } if piece == "corrupt"),
        "{error}"
    );
    let missing = music.play(
        &mut sfx,
        m,
        &MusicSource::file("/no/such.ogg"),
        MusicParams::default(),
    );
    assert!(matches!(missing, Err(MusicError::Piece { .. })));
    for db in [f32::NAN, 40.0, f32::INFINITY] {
        assert!(matches!(
            music.set_volume(m, db, fade(0.0)),
            Err(MusicError::Volume(_))
        ));
    }
    for buffer in [Duration::from_millis(10), Duration::from_secs(61)] {
        let settings = MusicSettings {
            buffer,
            ..Default::default()
        };
        assert_eq!(
            Music::new(&mut other, settings).err(),
            Some(MusicError::Buffer(buffer))
        );
    }
    // Still the first piece, playing.
    assert_eq!(music.piece(m).unwrap(), Some("piece"));
    assert!(render(&mut manager, &mut music, 0.2).peak() > 0.4);
    assert_eq!(music.stats().streams, 1);
}

#[test]
fn renders_repeat_and_the_mixer_allocates_nothing() {
    let run = || {
        let (mut manager, mut sfx, mut music) = setup();
        let m = music.track("music").unwrap();
        let a = MusicSource::encoded("a", tone(220.0, 2.0, 44_100, 2));
        let b = MusicSource::encoded("b", tone(330.0, 2.0, RATE, 1));
        music
            .play(&mut sfx, m, &a, MusicParams::default().looped())
            .unwrap();
        let mut samples = Vec::with_capacity(RATE as usize * 6);
        let mut heap = 0;
        for frame in 0..300 {
            if frame == 100 {
                music
                    .play(
                        &mut sfx,
                        m,
                        &b,
                        MusicParams::default().fade(fade(0.5)).looped(),
                    )
                    .unwrap();
            }
            music.fill();
            heap += alloc_counter::allocations_during(|| {
                manager
                    .backend_mut()
                    .render_append(0.01, &mut samples)
                    .unwrap();
            });
        }
        (samples, heap)
    };
    let (first, heap) = run();
    let (second, _) = run();
    assert_eq!(
        heap, 0,
        "the mixer allocated while streaming and crossfading"
    );
    assert!(first == second, "two runs rendered different samples");
}

/// An hour of a 440 Hz tone as a WAV, mono, 16-bit, made as it is read.
struct HourLong {
    at: u64,
}

const HOUR_RATE: u32 = 8_000;
const HOUR_BYTES: u64 = 3_600 * HOUR_RATE as u64 * 2;

impl Read for HourLong {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut header = Vec::new();
        header.extend(b"RIFF");
        header.extend(((HOUR_BYTES + 36) as u32).to_le_bytes());
        header.extend(b"WAVEfmt ");
        header.extend(16u32.to_le_bytes());
        header.extend(1u16.to_le_bytes());
        header.extend(1u16.to_le_bytes());
        header.extend(HOUR_RATE.to_le_bytes());
        header.extend((HOUR_RATE * 2).to_le_bytes());
        header.extend(2u16.to_le_bytes());
        header.extend(16u16.to_le_bytes());
        header.extend(b"data");
        header.extend((HOUR_BYTES as u32).to_le_bytes());
        let mut n = 0;
        for byte in buf.iter_mut() {
            let at = self.at + n as u64;
            *byte = if at < 44 {
                header[at as usize]
            } else if at < 44 + HOUR_BYTES {
                let i = (at - 44) / 2;
                let s = ((i as f32 * 440.0 * TAU / HOUR_RATE as f32).sin() * 16_000.0) as i16;
                s.to_le_bytes()[((at - 44) % 2) as usize]
            } else {
                break;
            };
            n += 1;
        }
        self.at += n as u64;
        Ok(n)
    }
}

impl Seek for HourLong {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        let len = 44 + HOUR_BYTES;
        self.at = match pos {
            SeekFrom::Start(at) => at,
            SeekFrom::End(back) => len.saturating_add_signed(back),
            SeekFrom::Current(by) => self.at.saturating_add_signed(by),
        };
        Ok(self.at)
    }
}

fn status_kb(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with(field)).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Streams a whole hour (in a child process, so the peak resident memory is
/// this hour's alone): the peak grows by under 8 MiB over the first second's,
/// where the hour decoded would hold 230 MB of frames.
#[test]
fn an_hour_long_piece_streams_in_bounded_memory() {
    if std::env::var_os("POOL_AUDIO_HOUR_CHILD").is_some() {
        let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings {
            backend_settings: OfflineSettings {
                sample_rate: HOUR_RATE,
            },
            ..Default::default()
        })
        .unwrap();
        let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
        let mut music = Music::new(&mut sfx, MusicSettings::default()).unwrap();
        let hour = MusicSource::reader("hour", Some(44 + HOUR_BYTES), || Ok(HourLong { at: 0 }));
        let m = music.track("music").unwrap();
        music
            .play(&mut sfx, m, &hour, MusicParams::default())
            .unwrap();
        // Half a second (a frame is two samples) between fills.
        let mut buffer = vec![0.0; HOUR_RATE as usize];
        let mut peak_last = 0.0f32;
        let mut start_kb = 0;
        for half in 0..7_200 {
            music.fill();
            manager.backend_mut().render_into(&mut buffer);
            if half == 1 {
                start_kb = status_kb("VmHWM:");
            }
            if half == 7_199 {
                peak_last = buffer.iter().fold(0.0, |m, s| m.max(s.abs()));
            }
        }
        let at = music
            .position(m)
            .unwrap()
            .map_or(0.0, |at| at.as_secs_f64());
        println!(
            "hour: start_kb={start_kb} peak_kb={} position={at} last_peak={peak_last}",
            status_kb("VmHWM:")
        );
        return;
    }
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "music::an_hour_long_piece_streams_in_bounded_memory",
            "--nocapture",
        ])
        .env("POOL_AUDIO_HOUR_CHILD", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("hour:"))
        .unwrap_or_else(|| panic!("{stdout}"));
    println!("{line}");
    let value = |key: &str| -> f64 {
        let field = line
            .split_whitespace()
            .find(|f| f.starts_with(key))
            .unwrap();
        field[key.len() + 1..].parse().unwrap()
    };
    let grown = value("peak_kb") - value("start_kb");
    assert!(
        grown < 8.0 * 1024.0,
        "the peak grew by {grown} KiB over the hour"
    );
    assert!(
        value("position") > 3_599.9,
        "it played the hour: {}",
        value("position")
    );
    assert!(value("last_peak") > 0.4, "and still sounds at its end");
}

/// With a decoding thread (a sound card's way), the mixer is fed as it plays:
/// rendered in 10 ms blocks a little faster than real time, the piece sounds
/// throughout once its first frames arrive.
#[test]
fn a_decoding_thread_feeds_the_mixer() {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
    let settings = MusicSettings {
        decode: Decode::Thread,
        ..Default::default()
    };
    let mut music = Music::new(&mut sfx, settings).unwrap();
    let m = music.track("music").unwrap();
    let piece = MusicSource::encoded("piece", tone(440.0, 2.0, RATE, 1));
    music
        .play(&mut sfx, m, &piece, MusicParams::default().looped())
        .unwrap();
    let mut samples = Vec::new();
    for _ in 0..100 {
        std::thread::sleep(std::time::Duration::from_millis(5));
        manager
            .backend_mut()
            .render_append(0.01, &mut samples)
            .unwrap();
    }
    let late = music.stats().late_frames;
    println!("late frames: {late}");
    // The last half second sounds in every 10 ms.
    for chunk in samples[48_000..].chunks_exact(960) {
        assert!(
            chunk.iter().any(|s| s.abs() > 0.3),
            "a gap (late frames: {late})"
        );
    }
    assert!(music.position(m).unwrap().is_some());
}

/// A mono 16-bit WAV of `seconds` whose frame `i` holds `sample(i)`.
fn mono_wav(seconds: f32, sample: impl Fn(usize) -> i16) -> Vec<u8> {
    let mut bytes = Cursor::new(Vec::new());
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: RATE,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut writer = hound::WavWriter::new(&mut bytes, spec).unwrap();
    for i in 0..(seconds * RATE as f32) as usize {
        writer.write_sample(sample(i)).unwrap();
    }
    writer.finalize().unwrap();
    bytes.into_inner()
}

/// A WAV whose frame `i` holds `i % 1000` (in 16-bit steps): each output
/// sample names the frame it plays.
fn counter(seconds: f32) -> Vec<u8> {
    mono_wav(seconds, |i| (i % 1000) as i16 * 8)
}

/// The frame an output sample of [`counter`] plays.
fn frame_of(sample: f32) -> i64 {
    (f64::from(sample) * 32_768.0 / 8.0).round() as i64
}

/// Unlimited, a piece's first frame is the first sample out; through the
/// output's limiter (the default), it is heard one look-ahead later, as the
/// sound effects are. The same when the mixer has run a while with the track
/// idle (kira makes the track at its first piece).
#[test]
fn a_piece_is_heard_from_its_first_frame_at_the_first_sample() {
    let lookahead = pool_audio::dsp::LimiterSettings::default().lookahead;
    let delay = (lookahead.as_secs_f64() * f64::from(RATE)).round() as usize;
    for (limited, delay) in [(false, 0), (true, delay)] {
        for (start, idle) in [(0, 0.0), (500, 0.0), (0, 0.05), (500, 0.03)] {
            let (mut manager, mut sfx, mut music) = setup_with(limited);
            let m = music.track("music").unwrap();
            render(&mut manager, &mut music, idle);
            let piece = MusicSource::encoded("counter", counter(1.0));
            let params = MusicParams::default().start_at(Duration::from_millis(start));
            music.play(&mut sfx, m, &piece, params).unwrap();
            let out = render(&mut manager, &mut music, 0.05);
            let left: Vec<i64> = out
                .samples()
                .iter()
                .step_by(2)
                .map(|s| frame_of(*s))
                .collect();
            let first = (start as i64 * i64::from(RATE) / 1000) % 1000;
            let expected: Vec<i64> = (0..200).map(|n| (first + n) % 1000).collect();
            assert!(left[..delay].iter().all(|f| *f == 0), "silent before");
            assert_eq!(
                left[delay..delay + 200],
                expected,
                "from {start} ms after {idle} s idle, limited: {limited}"
            );
        }
    }
}

/// A constant level (a WAV of `value` on every frame, mono).
fn constant(value: f32, seconds: f32) -> Vec<u8> {
    mono_wav(seconds, |_| (value * 32_767.0) as i16)
}

/// What a track was told before its first piece is heard from that piece's
/// first sample: a snapshot's level, the track's volume, a pause (and the
/// resume after it, kira's fade-in over one block).
#[test]
fn what_an_idle_track_was_told_holds_from_its_first_piece() {
    let piece = MusicSource::encoded("level", constant(0.5, 1.0));
    let (mut manager, mut sfx, mut music) = setup();
    let (m, amb) = (
        music.track("music").unwrap(),
        music.track("ambience").unwrap(),
    );
    let quiet = sfx
        .mix_mut()
        .add_snapshot(Snapshot::new("quiet").set(m, -12.0))
        .unwrap();
    sfx.mix_mut().apply_snapshot(quiet, 1.0, fade(0.0)).unwrap();
    sfx.update(0.01).unwrap();
    music.set_volume(amb, -6.0, fade(0.0)).unwrap();
    render(&mut manager, &mut music, 0.05);
    music
        .play(&mut sfx, m, &piece, MusicParams::default())
        .unwrap();
    music
        .play(&mut sfx, amb, &piece, MusicParams::default())
        .unwrap();
    let out = render(&mut manager, &mut music, 0.05);
    let left: Vec<f32> = out.samples().iter().step_by(2).copied().collect();
    // Both tracks, a mono piece on each side at its level.
    let expected = 0.5 * (10f32.powf(-12.0 / 20.0) + 10f32.powf(-6.0 / 20.0));
    for (frame, sample) in left[..400].iter().enumerate() {
        assert!(
            (sample - expected).abs() < 0.01 * expected,
            "frame {frame}: {sample}, expected {expected}"
        );
    }

    let (mut manager, mut sfx, mut music) = setup();
    let m = music.track("music").unwrap();
    music.pause(m, fade(0.0)).unwrap();
    render(&mut manager, &mut music, 0.05);
    music
        .play(&mut sfx, m, &piece, MusicParams::default())
        .unwrap();
    let paused = render(&mut manager, &mut music, 0.1);
    assert!(
        paused.samples().iter().all(|s| *s == 0.0),
        "a paused track is silent"
    );
    music.resume(m, fade(0.0)).unwrap();
    let resumed = render(&mut manager, &mut music, 0.1);
    let left: Vec<f32> = resumed.samples().iter().step_by(2).copied().collect();
    let full = 0.5;
    assert!(
        (left[2_000] - full).abs() < 0.01 * full,
        "resumed: {}",
        left[2_000]
    );
    let at = music.position(m).unwrap().unwrap().as_secs_f64();
    assert!((at - 0.1).abs() < 0.003, "played {at} s of the 0.1 s heard");
}

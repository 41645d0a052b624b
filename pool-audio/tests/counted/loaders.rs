//! Loaders: files and memory, cached by key; every failure a typed error naming
//! the key.

use std::path::PathBuf;
use std::sync::Arc;

use kira::sound::static_sound::StaticSoundData;
use pool_audio::{
    error::SoundError, loader::DEFAULT_MAX_FRAMES, loader::FileLoader, loader::LoadError,
    loader::MemoryLoader,
};

/// A WAV header for `frames` frames of 8-bit mono at `rate`, whatever follows it.
fn wav_header(frames: u32, rate: u32) -> Vec<u8> {
    let mut header = Vec::new();
    header.extend_from_slice(b"RIFF");
    header.extend_from_slice(&(36 + frames).to_le_bytes());
    header.extend_from_slice(b"WAVEfmt ");
    header.extend_from_slice(&16u32.to_le_bytes());
    header.extend_from_slice(&1u16.to_le_bytes()); // PCM
    header.extend_from_slice(&1u16.to_le_bytes()); // mono
    header.extend_from_slice(&rate.to_le_bytes());
    header.extend_from_slice(&rate.to_le_bytes()); // bytes per second
    header.extend_from_slice(&1u16.to_le_bytes()); // block align
    header.extend_from_slice(&8u16.to_le_bytes()); // bits per sample
    header.extend_from_slice(b"data");
    header.extend_from_slice(&frames.to_le_bytes());
    header
}

/// A 16-bit WAV of `frames` frames and `channels` channels, as bytes.
fn wav(frames: usize, channels: u16, rate: u32) -> Vec<u8> {
    let mut bytes = std::io::Cursor::new(Vec::new());
    let spec = hound::WavSpec {
        channels,
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut writer = hound::WavWriter::new(&mut bytes, spec).unwrap();
    for i in 0..frames * usize::from(channels) {
        writer
            .write_sample((((i * 7919) % 60_000) as i32 - 30_000) as i16)
            .unwrap();
    }
    writer.finalize().unwrap();
    bytes.into_inner()
}

/// A fresh folder under the system temp dir, with a valid WAV and a corrupt file.
fn assets(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("pool-audio-{name}-{}", std::process::id()));
    std::fs::create_dir_all(root.join("ui")).unwrap();
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 22_050,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut writer = hound::WavWriter::create(root.join("ui/click.wav"), spec).unwrap();
    for i in 0..2205i32 {
        writer.write_sample(((i % 50) * 600) as i16).unwrap();
    }
    writer.finalize().unwrap();
    std::fs::write(root.join("broken.wav"), b"RIFF\0\0\0\0WAVEnot really").unwrap();
    root
}

#[test]
fn a_file_loader_decodes_and_caches_by_key() {
    let root = assets("files");
    let mut loader = FileLoader::new(&root);
    let first = loader.load("ui/click.wav").unwrap();
    assert_eq!((first.sample_rate, first.num_frames()), (22_050, 2205));
    let again = loader.load("ui/click.wav").unwrap();
    assert!(
        Arc::ptr_eq(&first.frames, &again.frames),
        "the second load is a cache hit"
    );
    std::fs::remove_dir_all(root).ok();
}

#[test]
fn file_loader_errors_name_the_key() {
    let root = assets("errors");
    let mut loader = FileLoader::new(&root);
    match loader.load("ui/missing.wav") {
        Err(LoadError::Missing { key, path }) => {
            assert_eq!(key, "ui/missing.wav");
            assert_eq!(path, root.join("ui/missing.wav"));
        }
        other => panic!("expected Missing, got {other:?}"),
    }
    let corrupt = loader.load("broken.wav").unwrap_err();
    assert!(matches!(&corrupt, LoadError::Corrupt { key, .. } if key == "broken.wav"));
    assert!(corrupt.to_string().contains("broken.wav"));
    for key in ["../secret.wav", "/etc/passwd", ""] {
        assert_eq!(
            loader.load(key).unwrap_err(),
            LoadError::InvalidKey { key: key.into() }
        );
    }
    // A failed load is not cached: fixing the file fixes the load.
    std::fs::copy(root.join("ui/click.wav"), root.join("broken.wav")).unwrap();
    assert!(loader.load("broken.wav").is_ok());
    std::fs::remove_dir_all(root).ok();
}

#[test]
fn a_memory_loader_decodes_encoded_bytes_once() {
    let root = assets("memory");
    let bytes = std::fs::read(root.join("ui/click.wav")).unwrap();
    let mut loader = MemoryLoader::new();
    loader.insert_encoded("click", bytes);
    loader.insert_encoded("noise", b"definitely not audio".to_vec());
    let first = loader.load("click").unwrap();
    let again = loader.load("click").unwrap();
    assert!(Arc::ptr_eq(&first.frames, &again.frames));
    assert!(matches!(loader.load("noise"), Err(LoadError::Corrupt { key, .. }) if key == "noise"));
    assert_eq!(
        loader.load("nope"),
        Err(LoadError::UnknownKey { key: "nope".into() })
    );
    std::fs::remove_dir_all(root).ok();
}

#[cfg(unix)]
#[test]
fn a_file_loader_does_not_follow_a_symlink_out_of_its_folder() {
    let outside = assets("outside");
    let root = assets("linked");
    // A link to a file elsewhere, and a link to a folder elsewhere.
    std::os::unix::fs::symlink(outside.join("ui/click.wav"), root.join("escape.wav")).unwrap();
    std::os::unix::fs::symlink(outside.join("ui"), root.join("elsewhere")).unwrap();
    // A link that stays inside is fine.
    std::os::unix::fs::symlink(root.join("ui/click.wav"), root.join("alias.wav")).unwrap();
    let mut loader = FileLoader::new(&root);
    for key in ["escape.wav", "elsewhere/click.wav"] {
        assert_eq!(
            loader.load(key).unwrap_err(),
            LoadError::InvalidKey { key: key.into() },
            "{key}"
        );
    }
    assert!(loader.load("alias.wav").is_ok());
    std::fs::remove_dir_all(root).ok();
    std::fs::remove_dir_all(outside).ok();
}

/// The file of the report: 128 MiB of 8-bit mono samples behind an honest header
/// (a sparse file: it takes no disk). kira alone decodes it whole into 1 GiB of
/// stereo frames, grown and copied (2.0-2.2 GiB at its peak); the loaders refuse
/// it from its header, holding next to nothing.
#[test]
fn a_file_longer_than_the_limit_is_refused_from_its_header() {
    let root = assets("huge");
    let frames = 128 << 20;
    let file = std::fs::File::create(root.join("huge.wav")).unwrap();
    std::io::Write::write_all(&mut &file, &wav_header(frames, 48_000)).unwrap();
    file.set_len(44 + u64::from(frames)).unwrap();
    drop(file);

    let mut loader = FileLoader::new(&root);
    let mut refused = None;
    let peak = alloc_counter::peak_bytes_during(|| refused = Some(loader.load("huge.wav")));
    assert_eq!(
        refused.unwrap(),
        Err(LoadError::TooLong {
            key: "huge.wav".into(),
            max_frames: DEFAULT_MAX_FRAMES
        })
    );
    assert!(peak < 1 << 20, "refusing it held {peak} bytes");

    let bytes = std::fs::read(root.join("huge.wav")).unwrap();
    let mut memory = MemoryLoader::new();
    memory.insert_encoded("huge", bytes);
    let peak = alloc_counter::peak_bytes_during(|| {
        assert!(matches!(
            memory.load("huge"),
            Err(LoadError::TooLong { .. })
        ));
    });
    assert!(peak < 1 << 20, "refusing it held {peak} bytes");
    std::fs::remove_dir_all(root).ok();
}

/// A file just under the limit loads with at most 1.5x its decoded size held at
/// once (it holds 1.0x and the decoder's buffers); kira's own `from_cursor` holds
/// more than that, which is why the loaders decode themselves.
#[test]
fn loading_holds_at_most_one_and_a_half_times_the_decoded_sound() {
    let frames = 1 << 20;
    let bytes: Arc<[u8]> = wav(frames, 2, 48_000).into();
    let decoded = frames * std::mem::size_of::<kira::Frame>();
    let mut loader = MemoryLoader::new().max_frames(frames);
    loader.insert_encoded("long", bytes.clone());
    let mut ours = None;
    let peak = alloc_counter::peak_bytes_during(|| ours = Some(loader.load("long").unwrap()));
    let ours = ours.unwrap();
    assert!(
        peak <= decoded * 3 / 2,
        "held {peak} bytes for {decoded} bytes of frames"
    );
    let mut kiras = None;
    let kira_peak = alloc_counter::peak_bytes_during(|| {
        kiras = Some(StaticSoundData::from_cursor(std::io::Cursor::new(bytes.clone())).unwrap())
    });
    let kiras = kiras.unwrap();
    assert!(kira_peak > decoded * 3 / 2, "kira held {kira_peak}");
    eprintln!(
        "peak while loading {decoded} bytes of frames: pool-audio {peak} ({:.2}x), kira {kira_peak} ({:.2}x)",
        peak as f64 / decoded as f64,
        kira_peak as f64 / decoded as f64
    );
    assert_eq!(ours.sample_rate, kiras.sample_rate);
    assert!(
        ours.frames == kiras.frames,
        "the same frames as kira decodes"
    );
    // One over the limit is refused.
    let mut strict = MemoryLoader::new().max_frames(frames - 1);
    strict.insert_encoded("long", bytes);
    assert!(
        matches!(strict.load("long"), Err(LoadError::TooLong { max_frames, .. }) if max_frames == frames - 1)
    );
}

/// Every format the workspace decodes gives kira's frames, mono and stereo,
/// whether its header gives the length (WAV) or not (the Ogg test asset is
/// counted first if it does not).
#[test]
fn the_loaders_decode_what_kira_decodes() {
    let ogg = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/assets/square-44k.ogg"),
    )
    .unwrap();
    let cases: [(&str, Vec<u8>); 3] = [
        ("mono.wav", wav(3_000, 1, 22_050)),
        ("stereo.wav", wav(3_000, 2, 44_100)),
        ("square.ogg", ogg),
    ];
    for (key, bytes) in cases {
        let kiras = StaticSoundData::from_cursor(std::io::Cursor::new(bytes.clone())).unwrap();
        let mut loader = MemoryLoader::new();
        loader.insert_encoded(key, bytes.clone());
        let ours = loader.load(key).unwrap();
        assert_eq!(ours.sample_rate, kiras.sample_rate, "{key}");
        assert!(ours.frames == kiras.frames, "{key}: the same frames");
        // A limit of exactly its length loads it; one less refuses it.
        let length = kiras.frames.len();
        let mut exact = MemoryLoader::new().max_frames(length);
        exact.insert_encoded(key, bytes.clone());
        assert_eq!(exact.load(key).unwrap().frames.len(), length, "{key}");
        let mut short = MemoryLoader::new().max_frames(length - 1);
        short.insert_encoded(key, bytes);
        assert!(
            matches!(short.load(key), Err(LoadError::TooLong { .. })),
            "{key}"
        );
    }
}

/// Data kira cannot play is refused by the loaders with the error `add_sound`
/// gives, not handed back as a sound: a sample rate of 0, and a decoded sound
/// with a NaN sample.
#[test]
fn the_loaders_refuse_what_kira_cannot_play() {
    let mut zero_rate = wav_header(100, 0);
    zero_rate.extend(std::iter::repeat_n(128u8, 100));
    let mut loader = MemoryLoader::new();
    loader.insert_encoded("zero", zero_rate);
    match loader.load("zero") {
        Err(LoadError::Sound { key, error }) => {
            assert_eq!((key.as_str(), error), ("zero", SoundError::SampleRate(0)))
        }
        other => panic!("a sample rate of 0 was loaded: {other:?}"),
    }
    let mut nan = StaticSoundData::from_cursor(std::io::Cursor::new(wav(10, 1, 48_000))).unwrap();
    let mut frames = nan.frames.to_vec();
    frames[3].left = f32::NAN;
    nan.frames = frames.into();
    loader.insert_sound("nan", nan);
    assert_eq!(
        loader.load("nan"),
        Err(LoadError::Sound {
            key: "nan".into(),
            error: SoundError::NonFinite { frame: 3 }
        })
    );
}

/// One loader gives a sound, the takes of a varied sound and a piece of music
/// from the game's assets folder; each failure names its key. The piece
/// streams through `Music` and is heard in the render at the file's own level.
#[test]
fn one_loader_gives_sounds_takes_and_music() {
    use kira::{AudioManager, AudioManagerSettings};
    use pool_audio::music::{Music, MusicParams, MusicSettings};
    use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};

    let assets = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets");
    let mut files = FileLoader::new(assets);
    let laser = files.load("sounds/laser.wav").unwrap();
    assert_eq!((laser.sample_rate, laser.num_frames()), (48_000, 12_000));
    assert_eq!(files.load("sounds/coin.ogg").unwrap().sample_rate, 22_050);
    let steps = [
        "sounds/step_1.wav",
        "sounds/step_2.wav",
        "sounds/step_3.wav",
    ];
    assert_eq!(files.takes(steps).unwrap().len(), 3);
    match files.takes(["sounds/step_1.wav", "sounds/step_9.wav"]) {
        Err(LoadError::Missing { key, .. }) => assert_eq!(key, "sounds/step_9.wav"),
        other => panic!("a missing take was not refused: {other:?}"),
    }
    let music_err = |files: &mut FileLoader, key: &str| files.music(key).unwrap_err();
    assert!(matches!(
        music_err(&mut files, "../assets/music/theme.ogg"),
        LoadError::InvalidKey { .. }
    ));
    assert!(matches!(
        music_err(&mut files, "music/none.ogg"),
        LoadError::Missing { .. }
    ));
    // A text file is no piece of music: refused when loaded, not when played.
    assert!(
        matches!(music_err(&mut files, "LICENSE-SOUNDS.md"), LoadError::Corrupt { key, .. } if key == "LICENSE-SOUNDS.md")
    );
    let from_file = files.music("music/theme.ogg").unwrap();
    assert_eq!(from_file.name(), "music/theme.ogg");

    // In memory, encoded bytes serve as a sound and as music; a sound given
    // decoded cannot stream.
    let bytes = std::fs::read(format!("{assets}/music/theme.ogg")).unwrap();
    let mut memory = MemoryLoader::new();
    memory.insert_encoded("theme", bytes);
    let decoded = memory.load("theme").unwrap();
    assert_eq!(
        (decoded.sample_rate, decoded.num_frames()),
        (48_000, 384_000)
    );
    let from_memory = memory.music("theme").unwrap();
    memory.insert_sound("laser", laser);
    assert!(matches!(memory.music("laser"), Err(LoadError::NotEncoded { key }) if key == "laser"));
    assert!(matches!(
        memory.music("nope"),
        Err(LoadError::UnknownKey { .. })
    ));

    // The file's own level over 0.2..1.0 s (left channel), and the render's.
    let rms_db = |left: &[f32]| {
        let mean = left.iter().map(|s| s * s).sum::<f32>() / left.len() as f32;
        10.0 * mean.log10()
    };
    let file: Vec<f32> = decoded.frames[9_600..48_000]
        .iter()
        .map(|f| f.left)
        .collect();
    let expected = rms_db(&file);
    for piece in [from_file, from_memory] {
        let mut manager =
            AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
        let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
        let mut music = Music::new(&mut sfx, MusicSettings::default()).unwrap();
        let track = music.track("music").unwrap();
        music
            .play(&mut sfx, track, &piece, MusicParams::default())
            .unwrap();
        let mut samples = Vec::new();
        for _ in 0..100 {
            music.fill();
            manager
                .backend_mut()
                .render_append(0.01, &mut samples)
                .unwrap();
        }
        let left: Vec<f32> = samples.iter().step_by(2).copied().collect();
        let heard = rms_db(&left[9_600..48_000]);
        println!(
            "{}: file {expected:.2} dB, render {heard:.2} dB",
            piece.name()
        );
        assert!(
            (heard - expected).abs() < 0.5,
            "{heard} dB against the file's {expected} dB"
        );
    }
}

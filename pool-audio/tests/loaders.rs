//! Loaders: files and memory, cached by key; every failure a typed error naming
//! the key.

use std::path::PathBuf;
use std::sync::Arc;

use pool_audio::{FileLoader, LoadError, MemoryLoader, SoundLoader};

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

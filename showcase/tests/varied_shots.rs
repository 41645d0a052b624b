//! The level's shots, steps and explosions vary: each of 40 plays of each,
//! rendered alone through the level's own sounds and settings, is measured in
//! the render: its onset level (the peak of its first 30 ms) and its
//! zero-crossing rate (a pitch measure for noise: it scales with the playback
//! rate). The spread of both must be heard, and stay within what the sound's
//! ranges and recordings allow. `cargo test -p showcase --test varied_shots --
//! --nocapture` prints the spreads.

use kira::{AudioManager, AudioManagerSettings};
use pool_audio::music::{Music, MusicSettings};
use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundId};
use showcase::content::{self, VOICE_CAP};

/// Onset level (dBFS) and zero crossings per second of `plays` plays of
/// `sound`, each alone.
fn measure(
    manager: &mut AudioManager<OfflineBackend>,
    sfx: &mut SoundEffects,
    sound: SoundId,
    plays: usize,
) -> Vec<(f64, f64)> {
    (0..plays)
        .map(|_| {
            sfx.play(sound, PlayParams::default()).unwrap();
            let audio = manager.backend_mut().render(0.03).unwrap();
            sfx.stop_all(pool_audio::linear_fade(std::time::Duration::from_millis(1)))
                .unwrap();
            manager.backend_mut().render(0.02).unwrap();
            sfx.update(0.05).unwrap();
            let left: Vec<f32> = audio.samples().iter().step_by(2).copied().collect();
            let peak = left.iter().fold(0f32, |p, s| p.max(s.abs()));
            let crossings = left
                .windows(2)
                .filter(|w| (w[0] < 0.0) != (w[1] < 0.0))
                .count();
            (20.0 * f64::from(peak).log10(), crossings as f64 / 0.03)
        })
        .collect()
}

fn spread(values: impl Iterator<Item = f64>) -> f64 {
    let (low, high) = values.fold((f64::MAX, f64::MIN), |(l, h), v| (l.min(v), h.max(v)));
    high - low
}

#[test]
fn the_levels_shots_steps_and_explosions_vary_in_pitch_and_level() {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let settings = SoundEffectsSettings {
        voice_cap: VOICE_CAP,
        ..Default::default()
    };
    let mut sfx = SoundEffects::new(&mut manager, settings).unwrap();
    // The bank's groups go to a world bus (a plain one here: the level's
    // cave would add its reverb's tail); its storm sets the music track.
    sfx.mix_mut()
        .add_bus("world", pool_audio::mix::BusBuilder::new())
        .unwrap();
    let _music = Music::new(&mut sfx, MusicSettings::default()).unwrap();
    let (sounds, _storm) = content::add_sounds(
        &mut sfx,
        &mut content::rng(),
        &mut content::files().unwrap(),
    )
    .unwrap();
    for (name, sound, recordings) in [
        ("gunshot", sounds.gunshot, 4),
        ("footstep", sounds.footstep, 3),
        ("explosion", sounds.explosion, 3),
    ] {
        assert_eq!(sfx.sound_info(sound).recordings(), recordings, "{name}");
        let shots = measure(&mut manager, &mut sfx, sound, 40);
        let level = spread(shots.iter().map(|s| s.0));
        let mean_rate = shots.iter().map(|s| s.1).sum::<f64>() / shots.len() as f64;
        let pitch = spread(shots.iter().map(|s| 12.0 * (s.1 / mean_rate).log2()));
        eprintln!(
            "{name}: onset level spread {level:.2} dB, zero-crossing rate spread {pitch:.2} semitones over 40 plays"
        );
        assert!(
            level > 1.0,
            "{name}: the onset level varies ({level:.2} dB)"
        );
        assert!(
            pitch > 1.0,
            "{name}: the pitch varies ({pitch:.2} semitones)"
        );
        assert!(
            shots.iter().all(|s| s.0 < -1.0),
            "{name}: under the ceiling"
        );
    }
    // The measure itself: a sound of one recording without ranges, played the
    // same way, does not spread.
    let mut state = 1u32;
    let burst: Vec<kira::Frame> = (0..7_200)
        .map(|i| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let noise = (state >> 8) as f32 / (1u32 << 24) as f32 - 0.5;
            kira::Frame::from_mono(noise * (1.0 - i as f32 / 7_200.0).powi(3))
        })
        .collect();
    let plain = kira::sound::static_sound::StaticSoundData {
        sample_rate: content::RATE,
        frames: burst.into(),
        settings: Default::default(),
        slice: None,
    };
    let plain = sfx
        .add_sound("plain", plain, pool_audio::SoundSettings::default())
        .unwrap();
    let shots = measure(&mut manager, &mut sfx, plain, 40);
    let level = spread(shots.iter().map(|s| s.0));
    let rate = spread(shots.iter().map(|s| s.1));
    eprintln!(
        "plain: onset level spread {level:.4} dB, zero-crossing rate spread {rate} per second"
    );
    assert!(level < 0.01 && rate == 0.0, "{level} dB, {rate}");
}

//! The real device path: `SoundEffects` on `AudioManager<kira::DefaultBackend>`
//! (cpal), playing and updating sounds for a second, then checking that the audio
//! thread mixed them and nothing failed.
//!
//! `cargo run -p pool-audio --features device --example device`
//!
//! It needs an output device. CI has none and runs it on ALSA's null device: a
//! private `HOME` whose `.asoundrc` reads `pcm.!default { type null }` (see
//! `.ci/run`). Exits with an error, and a message saying what failed, otherwise.

use std::error::Error;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kira::sound::static_sound::StaticSoundData;
use kira::track::MainTrackBuilder;
use kira::{AudioManager, AudioManagerSettings, DefaultBackend, Frame};
use pool_audio::{
    PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings, dsp::MeterBuilder,
};

fn main() -> Result<(), Box<dyn Error>> {
    let meter = MeterBuilder::new();
    let reading = meter.handle();
    let mut manager = AudioManager::<DefaultBackend>::new(AudioManagerSettings {
        main_track_builder: MainTrackBuilder::new().with_effect(meter),
        ..Default::default()
    })
    .map_err(|e| format!("no audio device: {e}"))?;
    let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    let frames: Arc<[Frame]> = (0..4800)
        .map(|i| Frame::from_mono((i as f32 * 0.0576).sin() * (1.0 - i as f32 / 4800.0)))
        .collect();
    let blip = sfx.add_sound(
        "blip",
        StaticSoundData {
            sample_rate: 48_000,
            frames,
            settings: Default::default(),
            slice: None,
        },
        SoundSettings::default().max_voices(6).first_volume(-6.0),
    )?;

    let started = Instant::now();
    let (mut plays, mut updates) = (0u32, 0u32);
    while started.elapsed() < Duration::from_secs(1) {
        for i in 0..3 {
            let panning = (plays % 5) as f32 / 2.0 - 1.0;
            let rate = 0.8 + 0.1 * f64::from(i);
            sfx.play(
                blip,
                PlayParams::default().panning(panning).playback_rate(rate),
            )?;
            plays += 1;
        }
        sfx.update(1.0 / 60.0)?;
        updates += 1;
        std::thread::sleep(Duration::from_millis(16));
    }
    let stats = sfx.stats();
    let limiter = sfx.limiter().ok_or("the limiter is on by default")?;
    println!(
        "{plays} plays, {updates} updates; {} samples mixed on the audio thread, peak {:.3}, {} clipped, \
         {} non-finite; limiter deepest {:.1} dB; {} voices at most",
        reading.samples(),
        reading.peak(),
        reading.clipped_samples(),
        reading.non_finite_samples(),
        limiter.take_max_gain_reduction().0,
        stats.peak_voices,
    );
    if reading.samples() == 0 {
        return Err("the audio thread mixed nothing".into());
    }
    if reading.clipped_samples() > 0 || reading.non_finite_samples() > 0 {
        return Err("the mix clipped".into());
    }
    Ok(())
}

//! The stacked-sound problem, reproduced through plain kira on the offline backend: N
//! in-phase copies of a sound sum to N times its amplitude before kira's output
//! clamp, and the meter sees what the clamp hides.

use kira::track::MainTrackBuilder;
use kira::{AudioManager, AudioManagerSettings, Decibels};
use pool_audio::{
    OfflineBackend, dsp::MeterBuilder, dsp::MeterHandle, offline::OfflineSettings,
    sound::CopyVolumes,
};

use crate::common::{RATE, sine};

fn metered_manager() -> (AudioManager<OfflineBackend>, MeterHandle) {
    let meter = MeterBuilder::new();
    let reading = meter.handle();
    let manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings {
        main_track_builder: MainTrackBuilder::new().with_effect(meter),
        backend_settings: OfflineSettings { sample_rate: RATE },
        ..Default::default()
    })
    .expect("the offline backend needs no device");
    (manager, reading)
}

#[test]
fn one_copy_passes_through_unclipped_and_the_meter_agrees_with_the_output() {
    let (mut manager, meter) = metered_manager();
    manager
        .play(sine(440.0, 0.5).volume(Decibels(-6.0)))
        .unwrap();
    let audio = manager.backend_mut().render(0.5).unwrap();
    let expected = 10f32.powf(-6.0 / 20.0);
    assert!(
        (meter.peak() - expected).abs() < 0.01,
        "peak {}",
        meter.peak()
    );
    assert_eq!(meter.clipped_samples(), 0);
    assert!((audio.peak() - meter.peak()).abs() < 1e-6);
    assert_eq!(meter.samples(), 2 * 24_000);
}

#[test]
fn ten_in_phase_copies_peak_ten_times_higher_before_the_clamp() {
    let (mut manager, meter) = metered_manager();
    let sound = sine(440.0, 0.5);
    for _ in 0..10 {
        manager.play(sound.clone()).unwrap();
    }
    let audio = manager.backend_mut().render(0.5).unwrap();
    assert!(
        (meter.peak() - 10.0).abs() < 0.1,
        "peak before the clamp {}",
        meter.peak()
    );
    assert!(
        meter.clipped_fraction() > 0.8,
        "clipped {}",
        meter.clipped_fraction()
    );
    assert_eq!(
        audio.peak(),
        1.0,
        "after the clamp nothing shows above full scale"
    );
}

#[test]
fn rendered_audio_round_trips_through_a_wav_file() {
    let (mut manager, _) = metered_manager();
    manager
        .play(sine(220.0, 0.1).volume(Decibels(-3.0)))
        .unwrap();
    let audio = manager.backend_mut().render(0.1).unwrap();
    let path = std::env::temp_dir().join(format!("pool-audio-test-{}.wav", std::process::id()));
    audio.write_wav(&path).unwrap();
    let mut reader = hound::WavReader::open(&path).unwrap();
    assert_eq!(reader.spec().sample_rate, RATE);
    let samples: Vec<f32> = reader.samples::<f32>().map(Result::unwrap).collect();
    assert_eq!(samples, audio.samples());
    std::fs::remove_file(path).ok();
}

#[test]
fn copies_at_the_solved_volumes_stay_under_the_headroom_in_kira() {
    // -1 dBFS headroom; the first copy at full volume asked for; 64 copies.
    let headroom = 10f64.powf(-1.0 / 20.0);
    let volumes = CopyVolumes::solve(64, 0.5, headroom).unwrap();
    let (mut manager, meter) = metered_manager();
    let sound = sine(440.0, 0.5);
    for copy in 0..64 {
        let volume = volumes.volume(copy);
        manager
            .play(sound.volume(Decibels(20.0 * volume.log10() as f32)))
            .unwrap();
    }
    let audio = manager.backend_mut().render(0.5).unwrap();
    assert!(
        meter.peak() as f64 <= headroom + 1e-4,
        "peak {} above {headroom}",
        meter.peak()
    );
    assert!(
        meter.peak() as f64 > headroom * 0.99,
        "the stack uses its headroom"
    );
    assert_eq!(meter.clipped_samples(), 0);
    assert!(
        (audio.peak() - meter.peak()).abs() < 1e-6,
        "nothing for the clamp to do"
    );
}

//! The offline backend's clock: audio time equals game time at any frame rate,
//! and rendering into a reused buffer allocates nothing.

use kira::{AudioManager, AudioManagerSettings};
use pool_audio::{OfflineBackend, offline::OfflineSettings};

fn manager(sample_rate: u32) -> AudioManager<OfflineBackend> {
    AudioManager::<OfflineBackend>::new(AudioManagerSettings {
        backend_settings: OfflineSettings { sample_rate },
        ..Default::default()
    })
    .unwrap()
}

#[test]
fn a_minute_of_frames_at_any_frame_rate_is_a_minute_of_audio_to_the_frame() {
    // 1/144 s is 333.33 frames at 48 kHz: rounding each call on its own drifts by
    // a third of a frame per frame, 0.1% of game time.
    for (fps, rate) in [
        (144.0, 48_000),
        (60.0, 44_100),
        (75.0, 48_000),
        (30.0, 22_050),
    ] {
        let mut manager = manager(rate);
        let frames: usize = (0..(60.0 * fps) as usize)
            .map(|_| manager.backend_mut().render(1.0 / fps).unwrap().frames())
            .sum();
        assert_eq!(frames, 60 * rate as usize, "{fps} fps at {rate} Hz");
        assert_eq!(manager.backend_mut().rendered_seconds(), 60.0);
    }
}

#[test]
fn each_render_is_within_one_frame_of_its_duration() {
    let mut manager = manager(48_000);
    for _ in 0..1000 {
        let frames = manager.backend_mut().render(1.0 / 144.0).unwrap().frames();
        assert!((333..=334).contains(&frames), "{frames}");
    }
}

#[test]
fn rendering_into_a_reused_buffer_allocates_nothing() {
    let mut manager = manager(48_000);
    let mut buffer = vec![0.0f32; 2 * 800];
    manager.backend_mut().render_into(&mut buffer);
    let allocations = alloc_counter::allocations_during(|| {
        for _ in 0..100 {
            manager.backend_mut().render_into(&mut buffer);
        }
    });
    assert_eq!(allocations, 0);
}

//! The web output: what the page is handed is the mix, without a gap or a
//! repeat however the worklet consumes it, and a game frame with its fill
//! allocates nothing once warm.

use std::time::Duration;

use kira::{AudioManager, AudioManagerSettings};
use pool_audio::web::{WebOutput, WebSettings};
use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};

use crate::common;

/// A manager playing a looping, panned, pitched tone.
fn playing() -> (AudioManager<OfflineBackend>, SoundEffects) {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
    let tone = common::sine_at(0.5, 440.0, 0.25).loop_region(..);
    let tone = sfx
        .add_sound("tone", tone, SoundSettings::default())
        .unwrap();
    let params = PlayParams::default()
        .position([3.0, 0.0, 1.0])
        .playback_rate(1.3);
    sfx.play(tone, params).unwrap();
    sfx.update(0.0).unwrap();
    (manager, sfx)
}

/// What the worklet consumes before each game frame: about a 60 Hz frame in
/// 128-frame quanta, with a stall now and then and the catching up after it.
fn consumption(frame: u32) -> u32 {
    match frame % 50 {
        10 => 0,
        11 => 3 * 128,
        _ => 128 * (6 + frame % 2),
    }
}

#[test]
fn the_page_is_handed_the_mix_without_a_gap_or_a_repeat() {
    let (mut manager, _sfx) = playing();
    let settings = WebSettings {
        buffering: Duration::from_millis(50),
    };
    let mut output = WebOutput::new(manager.backend_mut(), settings).unwrap();
    let mut handed = Vec::new();
    let mut consumed = 0u32;
    for frame in 0..300 {
        consumed = (consumed + consumption(frame)).min(output.written());
        let samples = output.fill(manager.backend_mut(), consumed, 0).unwrap();
        handed.extend_from_slice(samples);
        assert_eq!(output.written() - consumed, output.buffering_frames());
    }
    let (mut straight, _sfx) = playing();
    let mut expected = vec![0.0; handed.len()];
    straight.backend_mut().render_into(&mut expected);
    assert!(
        common::frequency(&common::left(&handed), 48_000.0) > 500.0,
        "pitched"
    );
    // The mixer's steps split where the renders split: the same samples
    // within rounding (a gap or a repeat would differ by the tone itself).
    let worst = handed
        .iter()
        .zip(&expected)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    assert!(
        worst <= 1e-6,
        "{} samples handed, off by {worst}",
        handed.len()
    );
}

#[test]
fn a_game_frame_with_its_fill_allocates_nothing_once_warm() {
    let (mut manager, mut sfx) = playing();
    let click = sfx
        .add_sound(
            "click",
            common::click(),
            SoundSettings::default().max_voices(4),
        )
        .unwrap();
    let mut output = WebOutput::new(manager.backend_mut(), WebSettings::default()).unwrap();
    let mut consumed = 0u32;
    let mut frame = |frame: u32, sfx: &mut SoundEffects| {
        consumed = (consumed + consumption(frame)).min(output.written());
        if frame.is_multiple_of(7) {
            sfx.play(click, common::at(frame as f32 % 5.0)).unwrap();
        }
        let samples = output.fill(manager.backend_mut(), consumed, 0).unwrap();
        assert!(samples.len() <= 2 * output.buffering_frames() as usize);
        sfx.update(1.0 / 60.0).unwrap();
    };
    for i in 0..120 {
        frame(i, &mut sfx);
    }
    let allocations = alloc_counter::allocations_during(|| {
        for i in 120..600 {
            frame(i, &mut sfx);
        }
    });
    assert_eq!(
        allocations, 0,
        "480 game frames with plays, fills and updates"
    );
}

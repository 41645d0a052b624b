//! Game parameters and switches on the game thread and in the mixer, once
//! warm: setting a parameter for every voice and for one, plays that pick by
//! switch state and curve, updates that seek the values and glide 40 looping
//! voices (some virtual), and the mixer's blocks: no allocation, no free.

use std::time::Duration;

use kira::{AudioManager, AudioManagerSettings};
use pool_audio::game::{Curve, CurveTarget, GameParamSettings};
use pool_audio::sound::Recordings;
use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};

use crate::common;

#[test]
fn parameters_curves_and_switches_allocate_nothing_once_warm() {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let settings = SoundEffectsSettings {
        voice_cap: 32,
        ..Default::default()
    };
    let mut sfx = SoundEffects::new(&mut manager, settings).unwrap();
    let speed = sfx
        .add_game_param(
            "speed",
            GameParamSettings::new(0.0, 1.0).seek(Duration::from_millis(200)),
        )
        .unwrap();
    let surface = sfx.add_switch("surface", &["grass", "stone"]).unwrap();
    let takes =
        ["grass", "grass", "stone"]
            .iter()
            .enumerate()
            .fold(Recordings::new(), |r, (i, state)| {
                r.for_state(
                    state,
                    common::sine_at(0.05, 200.0 + 100.0 * i as f32, 0.5).loop_region(..),
                    1.0,
                )
            });
    let pitch = Curve::new(speed, CurveTarget::Pitch, &[(0.0, -5.0), (1.0, 7.0)]).unwrap();
    let volume = Curve::new(speed, CurveTarget::Volume, &[(0.0, -12.0), (1.0, 0.0)]).unwrap();
    let settings = SoundSettings::default()
        .max_voices(64)
        .first_volume(-30.0)
        .switch(surface)
        .curve(pitch)
        .curve(volume);
    let engine = sfx.add_sound("engine", takes, settings).unwrap();
    let stone = sfx.switch_state(surface, "stone").unwrap();
    let mut voices = Vec::with_capacity(40);
    for i in 0..40 {
        let params = PlayParams::default().position([i as f32, 0.0, 0.0]);
        voices.push(sfx.play(engine, params).unwrap());
    }
    let mut buffer = vec![0.0f32; 2 * 800];
    // Warm: every path taken once.
    for frame in 0..30 {
        sfx.set_game_param(speed, (frame % 7) as f64 / 6.0).unwrap();
        let _ = sfx.voice(voices[frame % 40]).set_game_param(speed, 1.0);
        manager.backend_mut().render_into(&mut buffer);
        sfx.update(1.0 / 60.0).unwrap();
    }
    let (mut allocations, mut frees) = (0, 0);
    for frame in 0..120 {
        let (a, f) = alloc_counter::heap_calls_during(|| {
            sfx.set_game_param(speed, (frame % 11) as f64 / 10.0)
                .unwrap();
            let _ = sfx
                .voice(voices[frame % 40])
                .set_game_param(speed, (frame % 3) as f64 / 2.0);
            sfx.set_switch(surface, if frame % 2 == 0 { "grass" } else { "stone" })
                .unwrap();
            let _ = sfx.play(engine, PlayParams::default().state(stone));
            manager.backend_mut().render_into(&mut buffer);
            sfx.update(1.0 / 60.0).unwrap();
        });
        (allocations, frees) = (allocations + a, frees + f);
    }
    assert_eq!((allocations, frees), (0, 0), "heap calls once warm");
    assert!(sfx.stats().plays >= 160);
}

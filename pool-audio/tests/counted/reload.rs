//! A bank reloaded under 24 looping voices: the mixer's blocks that take the
//! reload (new budgets, glides, a removed sound's stops, voices that end on
//! recordings the reload replaced) allocate nothing and free nothing; the
//! replaced recordings are freed by an update, on the game thread.

use std::time::Duration;

use kira::{AudioManager, AudioManagerSettings, Tween};
use pool_audio::data::SoundBank;
use pool_audio::loader::MemoryLoader;
use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, linear_fade};

use crate::common;

fn bank(engine: &str, wind: bool) -> SoundBank {
    let wind = if wind {
        r#""wind": (recordings: ["b"], looping: true, max_voices: 12, first_volume: -30.0),"#
    } else {
        r#""rain": (recordings: ["a"], looping: true),"#
    };
    let text = format!(
        r#"(sounds: {{ "engine": (recordings: [{engine}], looping: true, max_voices: 12, {}), {wind} }})"#,
        if engine.contains('b') {
            "first_volume: -24.0"
        } else {
            "first_volume: -30.0"
        }
    );
    SoundBank::from_ron("level.ron", &text).unwrap()
}

#[test]
fn the_mixer_takes_a_reload_without_a_heap_call() {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
    let mut files = MemoryLoader::new();
    files.insert_sound("a", common::sine_at(0.2, 200.0, 0.5));
    files.insert_sound("b", common::sine_at(0.2, 300.0, 0.5));
    sfx.add_bank(&bank(r#""a""#, true), &mut files, None)
        .unwrap();
    let (engine, wind) = (sfx.sound("engine").unwrap(), sfx.sound("wind").unwrap());
    let mut voices = Vec::new();
    for i in 0..24 {
        let sound = if i % 2 == 0 { engine } else { wind };
        voices.push(sfx.play(sound, PlayParams::default()).unwrap());
    }
    let mut buffer = vec![0.0f32; 2 * 800];
    let mut mixer = |manager: &mut AudioManager<OfflineBackend>| {
        alloc_counter::heap_calls_during(|| {
            manager.backend_mut().render_into(&mut buffer);
        })
    };
    for _ in 0..10 {
        mixer(&mut manager);
        sfx.update(1.0 / 60.0).unwrap();
    }
    // The engine gets new recordings and a new level, the wind leaves, the
    // rain comes.
    let fade = linear_fade(Duration::from_millis(50));
    let reloaded = sfx
        .reload_bank(&bank(r#""b", "a""#, false), &mut files, None, fade)
        .unwrap();
    assert_eq!(
        (reloaded.added, reloaded.changed, reloaded.removed),
        (1, 1, 1)
    );
    let rain = sfx.sound("rain").unwrap();
    let (mut allocations, mut frees) = (0, 0);
    for frame in 0..60 {
        if frame == 20 {
            // Every engine voice of the old recordings ends in the mixer.
            for voice in &voices {
                let _ = sfx.voice(*voice).stop(Tween::default());
            }
            sfx.play(rain, PlayParams::default()).unwrap();
        }
        let (a, f) = mixer(&mut manager);
        (allocations, frees) = (allocations + a, frees + f);
        sfx.update(1.0 / 60.0).unwrap();
    }
    assert_eq!((allocations, frees), (0, 0), "heap calls in the mixer");
    assert_eq!(
        sfx.stats().real_voices + sfx.stats().virtual_voices,
        1,
        "the rain alone plays"
    );
}

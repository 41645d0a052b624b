//! Reading the voice table of 300 voices, a third of them virtual, in
//! groups under a snapshot: no heap call.

use kira::{AudioManager, AudioManagerSettings, Tween};
use pool_audio::mix::Snapshot;
use pool_audio::{
    GroupSettings, OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings,
};

use crate::common;

#[test]
fn reading_the_voice_table_allocates_nothing() {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let settings = SoundEffectsSettings {
        voice_cap: 200,
        virtual_voices: 512,
        ..Default::default()
    };
    let mut sfx = SoundEffects::new(&mut manager, settings).unwrap();
    let group = sfx.add_group("crowd", GroupSettings::default()).unwrap();
    let hush = sfx
        .mix_mut()
        .add_snapshot(Snapshot::new("hush").set(group, -6.0))
        .unwrap();
    sfx.mix_mut()
        .apply_snapshot(hush, 1.0, Tween::default())
        .unwrap();
    let data = common::sine_at(0.05, 300.0, 0.5).loop_region(..);
    let settings = SoundSettings::default().max_voices(64).group(group);
    let sounds: Vec<_> = (0..5)
        .map(|i| {
            sfx.add_sound(&format!("s{i}"), data.clone(), settings)
                .unwrap()
        })
        .collect();
    for i in 0..300 {
        let params = PlayParams::default().position([i as f32 * 0.5, 0.0, 0.0]);
        sfx.play(sounds[i % 5], params).unwrap();
    }
    let mut buffer = vec![0.0f32; 2 * 800];
    manager.backend_mut().render_into(&mut buffer);
    sfx.update(1.0 / 60.0).unwrap();
    let mut loudest = -200.0f32;
    let (allocations, frees) = alloc_counter::heap_calls_during(|| {
        for _ in 0..10 {
            for voice in sfx.voices() {
                loudest = loudest.max(voice.level[0].0);
            }
        }
    });
    assert_eq!((allocations, frees), (0, 0));
    assert_eq!(sfx.voices().count(), 300);
    assert!(sfx.voices().filter(|v| v.why_virtual.is_some()).count() >= 100);
    assert!(loudest > -60.0);
}

#[test]
fn capturing_allocates_nothing_on_the_game_thread_once_started() {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
    let data = common::sine_at(0.05, 300.0, 0.05);
    let shot = sfx
        .add_sound("shot", data, SoundSettings::default().max_voices(8))
        .unwrap();
    let mut buffer = vec![0.0f32; 2 * 800];
    // Warm, then capture: plays, calls, updates and ends.
    for _ in 0..30 {
        let voice = sfx.play(shot, PlayParams::default()).unwrap();
        let _ = sfx.voice(voice).set_volume(-3.0, Tween::default());
        manager.backend_mut().render_into(&mut buffer);
        sfx.update(1.0 / 60.0).unwrap();
    }
    sfx.start_capture(4_096);
    let (allocations, frees) = alloc_counter::heap_calls_during(|| {
        for frame in 0..120 {
            let voice = sfx.play(shot, PlayParams::default()).unwrap();
            let _ = sfx.voice(voice).set_volume(-3.0, Tween::default());
            let _ = sfx.listener().set_position([frame as f32, 0.0, 0.0]);
            manager.backend_mut().render_into(&mut buffer);
            sfx.update(1.0 / 60.0).unwrap();
        }
    });
    assert_eq!((allocations, frees), (0, 0), "heap calls while capturing");
    let capture = sfx.stop_capture().unwrap();
    assert!(capture.events().len() > 400);
}

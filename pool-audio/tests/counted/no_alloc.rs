//! Once warm, nothing touches the heap: plays of every kind (fresh, recycled,
//! taken over, stolen, virtual), the per-frame update, the per-voice calls, and
//! the mixer itself while voices start, steal, fade and end; all counted through
//! a counting allocator. The mixer frees nothing either, even while sounds are
//! removed under its voices: it hands every sound back to the game thread. The
//! offline backend renders on the calling thread, so what the voice bank does
//! on the audio thread is counted too.

// The helpers of the `audio` test binary; this one uses a few of them.
use crate::common;

use std::sync::Arc;
use std::time::Duration;

use kira::sound::static_sound::StaticSoundData;
use kira::{AudioManager, AudioManagerSettings, Frame};
use pool_audio::{
    OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundId, SoundSettings,
    linear_fade, voices::Resume, voices::Virtualization,
};

/// A manager with a cap of `voice_cap` and four sounds of `frames` frames at
/// `level`, each with `copies` copies starting at `first_volume`.
fn four_sounds(
    voice_cap: usize,
    frames: usize,
    level: f32,
    copies: usize,
    first_volume: f64,
) -> (AudioManager<OfflineBackend>, SoundEffects, Vec<SoundId>) {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let mut sfx = SoundEffects::new(
        &mut manager,
        SoundEffectsSettings {
            voice_cap,
            ..Default::default()
        },
    )
    .unwrap();
    let frames: Arc<[Frame]> = vec![Frame::from_mono(level); frames].into();
    let data = StaticSoundData {
        sample_rate: 48_000,
        frames,
        settings: Default::default(),
        slice: None,
    };
    let sounds = (0..4)
        .map(|i| {
            let settings = SoundSettings::default()
                .max_voices(copies)
                .first_volume(common::db(first_volume));
            sfx.add_sound(&format!("s{i}"), data.clone(), settings)
                .unwrap()
        })
        .collect();
    (manager, sfx, sounds)
}

#[test]
fn update_does_not_allocate() {
    let (mut manager, mut sfx, sounds) = four_sounds(32, 1200, 0.1, 8, 0.1);
    let mut in_update = 0;
    for frame in 0..120 {
        // Only update is counted here (plays and the mixer are counted by the
        // busy frames below).
        for (i, sound) in sounds.iter().enumerate() {
            if (frame + i) % 3 == 0 {
                let _ = sfx.play(*sound, PlayParams::default());
            }
        }
        if frame.is_multiple_of(10) {
            sfx.stop_sound(sounds[0], linear_fade(Duration::from_millis(5)))
                .expect("a linear fade is valid");
        }
        manager.backend_mut().render(1.0 / 60.0).unwrap();
        let before = alloc_counter::thread_allocations();
        sfx.update(1.0 / 60.0).unwrap();
        in_update += alloc_counter::thread_allocations() - before;
    }
    assert_eq!(in_update, 0, "allocations inside update");
    assert!(sfx.stats().plays > 100);
}

#[test]
fn the_limiter_allocates_nothing_on_the_audio_thread() {
    // The offline backend renders on the calling thread, into a buffer made
    // beforehand: everything kira and the limiter do while mixing is counted.
    let (mut manager, mut sfx, sounds) = four_sounds(32, 48_000, 1.0, 4, 0.5);
    for sound in &sounds {
        for _ in 0..4 {
            sfx.play(*sound, PlayParams::default()).unwrap();
        }
    }
    let mut buffer = vec![0.0f32; 48_000];
    manager.backend_mut().render_into(&mut buffer); // warm
    let in_render = alloc_counter::allocations_during(|| {
        for _ in 0..2 {
            manager.backend_mut().render_into(&mut buffer);
        }
    });
    let limiter = sfx.limiter().unwrap();
    assert!(
        limiter.take_max_gain_reduction().0 > 6.0,
        "the limiter was acting"
    );
    assert_eq!(in_render, 0);
}

#[test]
fn update_with_a_thousand_virtual_voices_does_not_allocate() {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let mut sfx = SoundEffects::new(
        &mut manager,
        SoundEffectsSettings {
            voice_cap: 32,
            ..Default::default()
        },
    )
    .unwrap();
    let frames: Arc<[Frame]> = vec![Frame::from_mono(0.1); 4800].into();
    let data = StaticSoundData {
        sample_rate: 48_000,
        frames,
        settings: Default::default(),
        slice: None,
    }
    .loop_region(..);
    // 32 copies at 0.2 fit the budget at once: all 32 are kept.
    let settings = SoundSettings::default()
        .max_voices(32)
        .first_volume(-13.9794)
        .virtualization(Virtualization::Virtualize(Resume::FromElapsed));
    let torch = sfx.add_sound("torch", data, settings).unwrap();
    assert_eq!(sfx.sound_info(torch).copies_kept(), Some(32));
    for i in 0..1032 {
        // A spiral: every torch at its own distance.
        let angle = i as f32 * 0.1;
        let radius = 2.0 + i as f32 * 0.09;
        let position = [radius * angle.cos(), 0.0, radius * angle.sin()];
        sfx.play(torch, PlayParams::default().position(position))
            .unwrap();
    }
    for _ in 0..3 {
        manager.backend_mut().render(1.0 / 60.0).unwrap();
        sfx.update(1.0 / 60.0).unwrap();
    }
    let stats = sfx.stats();
    assert_eq!((stats.real_voices, stats.virtual_voices), (32, 1000));
    let in_update = alloc_counter::allocations_during(|| {
        for _ in 0..60 {
            sfx.update(1.0 / 60.0).unwrap();
        }
    });
    assert_eq!(in_update, 0, "allocations inside update");
    // Moving the listener respatializes the 32 real voices, and voices move.
    let voices: Vec<_> = (0..4)
        .map(|_| sfx.play(torch, PlayParams::default().position([1.0, 0.0, 0.0])))
        .collect::<Result<_, _>>()
        .unwrap();
    for _ in 0..3 {
        manager.backend_mut().render(1.0 / 60.0).unwrap();
        sfx.update(1.0 / 60.0).unwrap();
    }
    let moving = alloc_counter::allocations_during(|| {
        for step in 0..60 {
            let x = step as f32 * 0.002;
            sfx.listener().set_position([x, 0.0, 0.0]).unwrap();
            for voice in &voices {
                sfx.voice(*voice)
                    .set_position([x + 1.0, 0.0, -1.0])
                    .unwrap();
            }
            sfx.update(1.0 / 60.0).unwrap();
        }
    });
    assert_eq!(moving, 0, "allocations moving the listener and voices");
}

/// One busy game frame: a burst on one sound (recycles and take-overs), plays
/// of others past the voice cap (steals), a virtual loop or two, stops with
/// fades of every length, a pause, a volume fade, a moving voice and listener,
/// then the update and the mixer's render of the frame.
fn busy_frame(
    frame: usize,
    manager: &mut AudioManager<OfflineBackend>,
    sfx: &mut SoundEffects,
    sounds: &[SoundId],
    torch: SoundId,
    buffer: &mut [f32],
) {
    busy_game_frame(frame, sfx, sounds, torch);
    manager.backend_mut().render_into(buffer);
}

/// The game's side of [`busy_frame`]: the plays, calls and the update.
fn busy_game_frame(frame: usize, sfx: &mut SoundEffects, sounds: &[SoundId], torch: SoundId) {
    for i in 0..(frame % 5) {
        let _ = sfx.play(sounds[0], PlayParams::default().panning(0.3));
        let _ = sfx.play(sounds[1 + i % 3], PlayParams::default().playback_rate(1.3));
    }
    let x = (frame % 40) as f32;
    if let Ok(voice) = sfx.play(torch, PlayParams::default().position([x, 0.0, 1.0])) {
        sfx.voice(voice).set_position([x, 1.0, 2.0]).unwrap();
        if frame.is_multiple_of(3) {
            sfx.voice(voice)
                .set_volume(-6.0206, linear_fade(Duration::from_millis(30)))
                .unwrap();
        }
        if frame.is_multiple_of(4) {
            sfx.voice(voice)
                .pause(linear_fade(Duration::from_millis(5)))
                .unwrap();
        }
        if frame.is_multiple_of(7) {
            sfx.voice(voice)
                .stop(linear_fade(Duration::from_millis((frame % 50) as u64)))
                .unwrap();
        }
    }
    if frame.is_multiple_of(9) {
        sfx.stop_sound(sounds[2], linear_fade(Duration::ZERO))
            .unwrap();
    }
    sfx.listener().set_position([x * 0.5, 0.0, 0.0]).unwrap();
    sfx.update(1.0 / 60.0).unwrap();
}

/// The scene of the busy frames: four one-shots of 3 copies under a cap of 12,
/// and a virtualizing loop (the torch).
fn busy_scene() -> (
    AudioManager<OfflineBackend>,
    SoundEffects,
    Vec<SoundId>,
    SoundId,
) {
    let (manager, mut sfx, sounds) = four_sounds(12, 9_600, 0.2, 3, 0.2);
    let looped = StaticSoundData {
        sample_rate: 48_000,
        frames: vec![Frame::from_mono(0.1); 4_800].into(),
        settings: Default::default(),
        slice: None,
    }
    .loop_region(..);
    let settings = SoundSettings::default()
        .max_voices(8)
        .virtualization(Virtualization::Virtualize(Resume::FromElapsed));
    let torch = sfx.add_sound("torch", looped, settings).unwrap();
    (manager, sfx, sounds, torch)
}

#[test]
fn plays_updates_calls_and_the_mixer_allocate_nothing() {
    let (mut manager, mut sfx, sounds, torch) = busy_scene();
    // 800 frames, one game frame at 60 fps.
    let mut buffer = vec![0.0f32; 1_600];
    for frame in 0..200 {
        busy_frame(frame, &mut manager, &mut sfx, &sounds, torch, &mut buffer);
    }
    let before = sfx.stats();
    let allocations = alloc_counter::allocations_during(|| {
        for frame in 200..800 {
            busy_frame(frame, &mut manager, &mut sfx, &sounds, torch, &mut buffer);
        }
    });
    let stats = sfx.stats();
    assert_eq!(allocations, 0, "allocations in 600 busy frames");
    // The frames did what they say.
    assert!(stats.plays - before.plays > 1_000, "{stats:?}");
    assert!(stats.recycled_copies > before.recycled_copies, "{stats:?}");
    assert!(stats.stolen_voices > before.stolen_voices, "{stats:?}");
    assert!(stats.virtualized > before.virtualized, "{stats:?}");
    assert!(stats.promoted > before.promoted, "{stats:?}");
    assert!(buffer.iter().any(|s| *s != 0.0), "the mixer is playing");
}

#[test]
fn the_mixer_neither_allocates_nor_frees_while_sounds_are_removed_under_it() {
    let (mut manager, mut sfx, mut sounds, torch) = busy_scene();
    let mut buffer = vec![0.0f32; 1_600];
    for frame in 0..200 {
        busy_frame(frame, &mut manager, &mut sfx, &sounds, torch, &mut buffer);
    }
    let (mut in_render, mut removed) = ((0, 0), 0);
    for frame in 200..800 {
        busy_game_frame(frame, &mut sfx, &sounds, torch);
        if frame % 25 == 0 {
            // A level changes: a sound playing now is removed (its voices fade
            // out in the mixer for 30 ms) and a new one, with samples of its
            // own, takes its name. The test keeps no copy of the old samples:
            // the last reference to them is the mixer's voices.
            let which = (1..4)
                .max_by_key(|i| sfx.sound_info(sounds[*i]).copies_playing())
                .unwrap();
            assert!(
                sfx.sound_info(sounds[which]).copies_playing() > 0,
                "removed while playing"
            );
            sfx.remove_sound(sounds[which], linear_fade(Duration::from_millis(30)))
                .unwrap();
            removed += 1;
            let fresh = StaticSoundData {
                sample_rate: 48_000,
                frames: vec![Frame::from_mono(0.2); 9_600].into(),
                settings: Default::default(),
                slice: None,
            };
            let settings = SoundSettings::default()
                .max_voices(3)
                .first_volume(-13.9794);
            sounds[which] = sfx
                .add_sound(&format!("s{which}"), fresh, settings)
                .unwrap();
        }
        let (allocations, frees) = alloc_counter::heap_calls_during(|| {
            manager.backend_mut().render_into(&mut buffer);
        });
        in_render.0 += allocations;
        in_render.1 += frees;
    }
    assert_eq!(
        in_render,
        (0, 0),
        "allocations and frees in the mixer's render"
    );
    assert_eq!(removed, 24);
    assert!(buffer.iter().any(|s| *s != 0.0), "the mixer is playing");
    // The removed sounds' samples were freed on this thread, by the game side.
    sfx.update(1.0 / 60.0).unwrap();
    assert!(sfx.stats().plays > 1_000);
}

/// The game side goes while its voices play: kira takes the finished bank out
/// of the mix before it processes it again and drops it on this thread, so the
/// render frees nothing. (On a device, the block under way as the game side
/// goes could end voices; `SoundEffects` leaves its references with the bank
/// for that, so even then the mixer holds no last one.)
#[test]
fn the_mixer_frees_nothing_when_the_sound_effects_are_dropped_under_it() {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
    for i in 0..4 {
        // Samples the test keeps no copy of.
        let data = StaticSoundData {
            sample_rate: 48_000,
            frames: vec![Frame::from_mono(0.1); 2_400].into(),
            settings: Default::default(),
            slice: None,
        };
        let sound = sfx
            .add_sound(&format!("s{i}"), data, SoundSettings::default())
            .unwrap();
        for _ in 0..3 {
            sfx.play(sound, PlayParams::default()).unwrap();
        }
    }
    let mut buffer = vec![0.0f32; 1_600];
    manager.backend_mut().render_into(&mut buffer);
    drop(sfx);
    // The voices play to their end (50 ms) and the bank finishes.
    let mut in_render = (0, 0);
    for _ in 0..20 {
        let (allocations, frees) = alloc_counter::heap_calls_during(|| {
            manager.backend_mut().render_into(&mut buffer);
        });
        in_render.0 += allocations;
        in_render.1 += frees;
    }
    assert_eq!(
        in_render,
        (0, 0),
        "allocations and frees in the mixer's render"
    );
}

#[test]
fn a_first_burst_of_a_thousand_plays_allocates_nothing_without_virtual_voices() {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let settings = SoundEffectsSettings {
        voice_cap: 16,
        virtual_voices: 0,
        ..Default::default()
    };
    let mut sfx = SoundEffects::new(&mut manager, settings).unwrap();
    let data = StaticSoundData {
        sample_rate: 48_000,
        frames: vec![Frame::from_mono(0.2); 4_800].into(),
        settings: Default::default(),
        slice: None,
    };
    let shot = sfx
        .add_sound("shot", data.clone(), SoundSettings::default().max_voices(4))
        .unwrap();
    let hit = sfx
        .add_sound("hit", data, SoundSettings::default().max_voices(8))
        .unwrap();
    // Nothing has played yet: the first burst is the first use of every list.
    let allocations = alloc_counter::allocations_during(|| {
        for i in 0..1_000 {
            let sound = if i % 3 == 0 { hit } else { shot };
            sfx.play(sound, PlayParams::default()).unwrap();
        }
    });
    assert_eq!(allocations, 0, "allocations in the first burst");
    let stats = sfx.stats();
    assert_eq!(stats.plays, 1_000);
    assert!(stats.recycled_copies >= 980, "{stats:?}");
    sfx.update(1.0 / 60.0).unwrap();
    assert_eq!(
        sfx.ended().len() as u64 + sfx.stats().unreported_ends,
        stats.recycled_copies,
        "every recycled copy reported or counted"
    );
}

#[test]
fn varied_plays_and_reseeding_allocate_and_free_nothing() {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
    let take = |frames: usize, sample_rate: u32| StaticSoundData {
        sample_rate,
        frames: vec![Frame::from_mono(0.2); frames].into(),
        settings: Default::default(),
        slice: None,
    };
    let takes = || {
        [
            take(2_400, 48_000),
            take(3_000, 44_100),
            take(1_200, 32_000),
            take(4_000, 48_000),
        ]
    };
    let ranges = SoundSettings::default()
        .max_voices(4)
        .pitch_semitones(-3.0, 3.0)
        .volume_range(-6.0, 0.0);
    let sounds: Vec<SoundId> = [
        pool_audio::sound::Pick::Random { avoid_last: 2 },
        pool_audio::sound::Pick::Shuffle,
        pool_audio::sound::Pick::Sequential,
    ]
    .into_iter()
    .enumerate()
    .map(|(i, pick)| {
        sfx.add_sound(&format!("v{i}"), takes(), ranges.pick(pick))
            .unwrap()
    })
    .collect();
    let weighted = pool_audio::sound::Recordings::new()
        .with(take(2_400, 48_000), 3.0)
        .with(take(2_400, 48_000), 1.0)
        .with(take(2_400, 48_000), 0.5);
    let weighted = sfx.add_sound("weighted", weighted, ranges).unwrap();
    let mut buffer = Vec::with_capacity(4_096);
    let mut frame = |sfx: &mut SoundEffects, i: usize| {
        for (n, sound) in sounds.iter().chain([&weighted]).enumerate() {
            let params = if (i + n).is_multiple_of(7) {
                PlayParams::default().recording((i + n) % 3)
            } else {
                PlayParams::default()
            };
            sfx.play(*sound, params).unwrap();
        }
        if i.is_multiple_of(50) {
            sfx.reseed(i as u64);
        }
        buffer.clear();
        manager
            .backend_mut()
            .render_append(1.0 / 60.0, &mut buffer)
            .unwrap();
        sfx.update(1.0 / 60.0).unwrap();
    };
    for i in 0..60 {
        frame(&mut sfx, i);
    }
    let (allocations, frees) = alloc_counter::heap_calls_during(|| {
        for i in 60..360 {
            frame(&mut sfx, i);
        }
    });
    assert_eq!((allocations, frees), (0, 0), "300 frames of varied plays");
    assert_eq!(sfx.stats().plays, 360 * 4);
}

#[test]
fn ducks_snapshots_and_the_loudness_window_allocate_and_free_nothing() {
    use kira::effect::volume_control::VolumeControlBuilder;
    use kira::track::TrackBuilder;
    use pool_audio::{
        GroupSettings, mix::DuckSettings, mix::LoudnessWindow, mix::Snapshot, mix::SnapshotMode,
    };

    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let mut music = TrackBuilder::new();
    let control = music.add_effect(VolumeControlBuilder::new(kira::Decibels::IDENTITY));
    let _music = manager.add_sub_track(music).unwrap();
    let settings = SoundEffectsSettings {
        voice_cap: 16,
        loudness_window: Some(LoudnessWindow::default()),
        ..Default::default()
    };
    let mut sfx = SoundEffects::new(&mut manager, settings).unwrap();
    let music = sfx.mix_mut().add_track("music", control).unwrap();
    let world = GroupSettings::default().loudness_window(true);
    let groups: Vec<_> = ["dialogue", "steps", "explosions"]
        .iter()
        .map(|name| sfx.add_group(name, world).unwrap())
        .collect();
    let duck = DuckSettings::default().hold(Duration::from_millis(30));
    sfx.mix_mut().add_duck(groups[0], groups[1], duck).unwrap();
    sfx.mix_mut().add_duck(groups[0], music, duck).unwrap();
    sfx.mix_mut()
        .add_duck(groups[2], groups[1], duck.amount(-6.0))
        .unwrap();
    let storm = sfx
        .mix_mut()
        .add_snapshot(Snapshot::new("storm").set(groups[1], -3.0).set(music, -6.0))
        .unwrap();
    let menu = Snapshot::new("menu")
        .priority(1)
        .mode(SnapshotMode::Blend)
        .set(pool_audio::mix::MixTarget::SoundEffects, -9.0);
    let menu = sfx.mix_mut().add_snapshot(menu).unwrap();
    let sounds: Vec<SoundId> = (0..3)
        .map(|i| {
            let data = StaticSoundData {
                sample_rate: 48_000,
                frames: vec![Frame::from_mono(0.2); 2_400 * (i + 1)].into(),
                settings: Default::default(),
                slice: None,
            };
            let settings = SoundSettings::default()
                .group(groups[i])
                .loudness(50.0 + 20.0 * i as f32);
            sfx.add_sound(&format!("s{i}"), data, settings).unwrap()
        })
        .collect();
    let mut buffer = vec![0.0f32; 1_600];
    let mut ducked = 0;
    let mut frame =
        |frame: usize, sfx: &mut SoundEffects, manager: &mut AudioManager<OfflineBackend>| {
            let _ = sfx.play(sounds[1], PlayParams::default());
            if frame.is_multiple_of(20) {
                let _ = sfx.play(sounds[0], PlayParams::default());
            }
            if frame.is_multiple_of(45) {
                let _ = sfx.play(sounds[2], PlayParams::default());
            }
            let tween = linear_fade(Duration::from_millis(50));
            match frame % 60 {
                0 => sfx.mix_mut().apply_snapshot(storm, 1.0, tween).unwrap(),
                10 => sfx.mix_mut().apply_snapshot(menu, 0.5, tween).unwrap(),
                30 => sfx.mix_mut().release_snapshot(storm, tween).unwrap(),
                40 => sfx.mix_mut().release_snapshot(menu, tween).unwrap(),
                _ => {}
            }
            sfx.update(1.0 / 60.0).unwrap();
            ducked += usize::from(sfx.mix().stats().ducks_active > 0);
            manager.backend_mut().render_into(&mut buffer);
        };
    for i in 0..200 {
        frame(i, &mut sfx, &mut manager);
    }
    let calls = alloc_counter::heap_calls_during(|| {
        for i in 200..800 {
            frame(i, &mut sfx, &mut manager);
        }
    });
    assert_eq!(calls, (0, 0), "allocations and frees in 600 frames");
    // The frames did what they say: ducks came on, the window rose.
    assert!(ducked > 100, "frames with a duck on: {ducked}");
    assert!(
        sfx.mix()
            .stats()
            .window_top
            .is_some_and(|top| top.0 >= 70.0)
    );
}

#[test]
fn doppler_obstruction_and_occlusion_allocate_and_free_nothing() {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
    let hum = StaticSoundData {
        sample_rate: 44_100,
        frames: (0..44_100)
            .map(|i| Frame::from_mono((i as f32 * 0.05).sin() * 0.3))
            .collect(),
        settings: Default::default(),
        slice: None,
    }
    .loop_region(..);
    let settings = SoundSettings::default()
        .max_voices(16)
        .doppler_scale(1.0)
        .distances(pool_audio::spatial::Distances {
            min: 2.0,
            max: 200.0,
            curve: kira::Easing::InPowi(2),
        })
        .virtualization(Virtualization::Virtualize(Resume::FromElapsed));
    let sound = sfx.add_sound("hum", hum, settings).unwrap();
    // 16 voices, some with a velocity of their own, the rest derived.
    let voices: Vec<_> = (0..16)
        .map(|i| {
            let params = PlayParams::default().position([i as f32 * 5.0 - 40.0, 0.0, -10.0]);
            let params = if i % 2 == 0 {
                params.velocity([0.0, 0.0, 20.0])
            } else {
                params
            };
            sfx.play(sound, params).unwrap()
        })
        .collect();
    let mut buffer = Vec::with_capacity(4_096);
    let mut frame = |sfx: &mut SoundEffects, i: usize| {
        let t = i as f32 / 60.0;
        sfx.listener()
            .set_position([10.0 * t.sin(), 0.0, 3.0 * t.cos()])
            .unwrap();
        for (n, voice) in voices.iter().enumerate() {
            let z = -10.0 + 8.0 * (2.0 * t + n as f32).sin();
            let _ = sfx
                .voice(*voice)
                .set_position([n as f32 * 5.0 - 40.0, 0.0, z]);
            let amount = ((i + n) % 30) as f32 / 29.0;
            let _ = sfx.voice(*voice).set_occlusion(amount);
            let _ = sfx.voice(*voice).set_obstruction(1.0 - amount);
            if (i + n).is_multiple_of(20) {
                let _ = sfx.voice(*voice).set_velocity([1.0, 0.0, -(i as f32)]);
            }
        }
        if i.is_multiple_of(40) {
            sfx.listener().set_velocity([0.0, 0.0, 4.0]).unwrap();
        }
        buffer.clear();
        manager
            .backend_mut()
            .render_append(1.0 / 60.0, &mut buffer)
            .unwrap();
        sfx.update(1.0 / 60.0).unwrap();
    };
    for i in 0..60 {
        frame(&mut sfx, i);
    }
    let (allocations, frees) = alloc_counter::heap_calls_during(|| {
        for i in 60..360 {
            frame(&mut sfx, i);
        }
    });
    assert_eq!((allocations, frees), (0, 0));
    // The frames did what they say: voices moved, glided and were heard.
    let stats = sfx.stats();
    assert!(stats.real_voices >= 8, "{stats:?}");
    assert!(buffer.iter().any(|s| s.abs() > 1e-3));
}

/// Buses with effect chains (a low-pass, a reverb, an EQ, one bus under
/// another), groups routed to them, sends between them (one by distance,
/// positioned voices, levels changed as they play), a zone that moves and one
/// that follows the listener, a side-chain, bus volumes set by
/// snapshots and the fader and a filter moved through its kira handle, every
/// frame: no allocation and no free, on either side.
#[test]
fn buses_and_their_effects_allocate_and_free_nothing() {
    use kira::effect::eq_filter::{EqFilterBuilder, EqFilterKind};
    use kira::effect::filter::FilterBuilder;
    use kira::effect::reverb::ReverbBuilder;
    use pool_audio::GroupSettings;
    use pool_audio::mix::{
        BusBuilder, SendCurve, SendSettings, SideChainSettings, Snapshot, ZoneSettings, ZoneShape,
    };
    let tween_ms = |ms| linear_fade(Duration::from_millis(ms));

    let (mut manager, mut sfx, sounds) = four_sounds(16, 9_600, 0.2, 4, 0.2);
    let mut world = BusBuilder::new();
    let mut cutoff = world.add_effect(FilterBuilder::new().cutoff(2_000.0));
    let world = sfx.mix_mut().add_bus("world", world).unwrap();
    let cave = BusBuilder::new()
        .parent(world)
        .with_effect(ReverbBuilder::new())
        .with_effect(EqFilterBuilder::new(EqFilterKind::Bell, 400.0, 6.0, 1.0));
    let cave = sfx.mix_mut().add_bus("cave", cave).unwrap();
    let groups = [world, cave].map(|bus| {
        sfx.add_group(&format!("{bus:?}"), GroupSettings::default().bus(bus))
            .unwrap()
    });
    let routed: Vec<SoundId> = (0..2)
        .map(|i| {
            let data = StaticSoundData {
                sample_rate: 48_000,
                frames: vec![Frame::from_mono(0.2); 2_400 * (i + 1)].into(),
                settings: Default::default(),
                slice: None,
            };
            // Each sends to the other bus, one by distance.
            let send = SendSettings::new([cave, world][i])
                .level(-6.0)
                .distance(SendCurve::new(1.0..=20.0, -12.0, 0.0));
            let settings = SoundSettings::default().group(groups[i]).send(send);
            sfx.add_sound(&format!("routed {i}"), data, settings)
                .unwrap()
        })
        .collect();
    let pause = sfx
        .mix_mut()
        .add_snapshot(Snapshot::new("pause").set(world, -12.0).set(cave, -6.0))
        .unwrap();
    // A zone of the cave that moves, one that follows the listener.
    let room = |x: f32| ZoneShape::Sphere {
        center: [x, 0.0, 0.0],
        radius: 8.0,
    };
    let moving = sfx
        .mix_mut()
        .add_zone(ZoneSettings::new(room(10.0), cave).fade(3.0))
        .unwrap();
    let heard = ZoneSettings::new(room(0.0), world).follows_listener(true);
    sfx.mix_mut().add_zone(heard).unwrap();
    // The cave's voices duck the world bus.
    sfx.mix_mut()
        .add_sidechain(cave, world, SideChainSettings::default())
        .unwrap();
    let mut buffer = vec![0.0f32; 1_600];
    let mut frame = |frame: usize, sfx: &mut SoundEffects| {
        let x = (frame % 30) as f32;
        let zone = ZoneSettings::new(room(x), cave).fade(3.0);
        sfx.mix_mut().set_zone(moving, zone).unwrap();
        sfx.listener().set_position([x * 0.5, 0.0, 0.0]).unwrap();
        let params = PlayParams::default().panning(0.2).position([x, 0.0, 0.0]);
        if let Ok(voice) = sfx.play(routed[frame % 2], params) {
            let bus = [cave, world][frame % 2];
            let level = -((frame % 12) as f32);
            sfx.voice(voice).set_send(bus, level, tween_ms(20)).unwrap();
        }
        let _ = sfx.play(sounds[frame % 4], PlayParams::default());
        let tween = linear_fade(Duration::from_millis(40));
        match frame % 60 {
            0 => sfx.mix_mut().apply_snapshot(pause, 1.0, tween).unwrap(),
            20 => sfx.mix_mut().release_snapshot(pause, tween).unwrap(),
            40 => sfx.mix_mut().set_bus_volume(cave, -3.0, tween).unwrap(),
            _ => {}
        }
        cutoff.set_cutoff(500.0 + (frame % 30) as f64 * 100.0, tween);
        sfx.update(1.0 / 60.0).unwrap();
        manager.backend_mut().render_into(&mut buffer);
    };
    for i in 0..200 {
        frame(i, &mut sfx);
    }
    let calls = alloc_counter::heap_calls_during(|| {
        for i in 200..800 {
            frame(i, &mut sfx);
        }
    });
    assert_eq!(calls, (0, 0), "allocations and frees in 600 frames");
    // The bused groups played all along.
    for group in groups {
        assert!(sfx.group_stats(group).unwrap().plays >= 300);
    }
    assert!(buffer.iter().any(|s| *s != 0.0), "the mixer is playing");
}

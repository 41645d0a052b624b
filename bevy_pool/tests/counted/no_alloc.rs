//! The plugins' systems allocate nothing per frame once warm: a frame of an app
//! with the plugins (300 moving emitters, a moving listener, plays and effect
//! spawns every frame, the voice table read) allocates exactly what the same frame allocates without
//! them, Bevy's scheduler included in both.

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_pool::{
    PlaySound, Sfx, SoundEffectsPlugin, SoundEmitter, SoundListener, SoundVoicesPlugin, Vfx,
    VfxPlugin,
};
use pool_audio::kira::Frame;
use pool_audio::kira::sound::static_sound::StaticSoundData;
use pool_audio::{PlayParams, SoundSettings};
use pool_effects::EffectKind;

#[derive(Component)]
struct Mover(f32);

#[derive(Resource, Default)]
struct Frame_(u64);

fn tone(seconds: f32) -> StaticSoundData {
    StaticSoundData {
        sample_rate: 48_000,
        frames: (0..(seconds * 48_000.0) as usize)
            .map(|i| Frame::from_mono((i as f32 * 0.05).sin() * 0.5))
            .collect(),
        settings: Default::default(),
        slice: None,
    }
}

fn move_things(mut movers: Query<(&mut Transform, &Mover)>, mut frame: ResMut<Frame_>) {
    frame.0 += 1;
    let t = frame.0 as f32 / 60.0;
    for (mut transform, mover) in &mut movers {
        transform.translation.x = mover.0 + (t + mover.0).sin() * 3.0;
    }
}

/// An app with the same entities and the same game systems, with or without the
/// plugins.
pub(crate) fn app(with_plugins: bool) -> App {
    let mut app = App::new();
    app.add_plugins((bevy::time::TimePlugin, bevy::transform::TransformPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / 60.0,
        )))
        .init_resource::<Frame_>()
        .add_systems(Update, move_things);
    if with_plugins {
        app.add_plugins((SoundEffectsPlugin::default(), VfxPlugin, SoundVoicesPlugin));
        let hum = app
            .world_mut()
            .resource_mut::<Sfx>()
            .add_sound("hum", tone(0.5).loop_region(..), SoundSettings::default())
            .unwrap();
        let shot = app
            .world_mut()
            .resource_mut::<Sfx>()
            .add_sound("shot", tone(0.1), SoundSettings::default().max_voices(4))
            .unwrap();
        let puff = app
            .world_mut()
            .resource_mut::<Vfx>()
            .add_kind(EffectKind::new("puff", 6, Duration::from_millis(50)).pool(64, 64))
            .unwrap();
        for i in 0..300 {
            app.world_mut().spawn((
                SoundEmitter::new(hum),
                Transform::from_xyz(i as f32 * 2.0, 0.0, 0.0),
                Mover(i as f32 * 2.0),
            ));
        }
        app.add_systems(
            Update,
            move |mut plays: MessageWriter<PlaySound>, mut fx: ResMut<Vfx>| {
                plays.write(PlaySound {
                    sound: shot,
                    params: PlayParams::default(),
                });
                let _ = fx.spawn(puff, [1.0, 2.0]);
            },
        );
    } else {
        for i in 0..300 {
            app.world_mut().spawn((
                Transform::from_xyz(i as f32 * 2.0, 0.0, 0.0),
                Mover(i as f32 * 2.0),
            ));
        }
        app.add_systems(Update, || {});
    }
    app.world_mut()
        .spawn((SoundListener, Transform::default(), Mover(0.0)));
    app
}

pub(crate) fn allocations_per_frame(app: &mut App) -> u64 {
    for _ in 0..240 {
        app.update();
    }
    alloc_counter::allocations_during(|| {
        for _ in 0..120 {
            app.update();
        }
    })
}

#[test]
fn the_plugins_allocate_nothing_per_frame_once_warm() {
    let without = allocations_per_frame(&mut app(false));
    let with = allocations_per_frame(&mut app(true));
    assert!(
        with <= without,
        "120 frames allocated {with} times with the plugins, {without} without"
    );
}

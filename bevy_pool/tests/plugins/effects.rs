//! The effects plugin in a headless app: finished messages and virtual time.

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_pool::{Vfx, VfxFinished, VfxPlugin};
use pool_effects::EffectKind;

use crate::common::DT;

#[derive(Resource, Default)]
struct Seen(Vec<VfxFinished>);

fn collect(mut seen: ResMut<Seen>, mut finished: MessageReader<VfxFinished>) {
    seen.0.extend(finished.read().copied());
}

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((bevy::time::TimePlugin, VfxPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            DT,
        )))
        .init_resource::<Seen>()
        .add_systems(Last, collect);
    app
}

/// Every one-shot that ends is one `VfxFinished` message, sent once, with
/// its handle and tag.
#[test]
fn every_finished_effect_is_one_message() {
    let mut app = app();
    let puff = app
        .world_mut()
        .resource_mut::<Vfx>()
        .add_kind(EffectKind::new("puff", 6, Duration::from_millis(50)).pool(64, 64))
        .unwrap();
    let mut spawned = Vec::new();
    for frame in 0..120u64 {
        if frame % 4 == 0 && frame < 80 {
            let mut fx = app.world_mut().resource_mut::<Vfx>();
            let handle = fx.spawn(puff, [frame as f32, 0.0]).unwrap();
            fx.get_mut(handle).unwrap().tag = frame;
            spawned.push(handle);
        }
        app.update();
    }
    let seen = &app.world().resource::<Seen>().0;
    assert_eq!(seen.len(), spawned.len(), "one message per effect");
    let mut handles: Vec<_> = seen.iter().map(|m| m.0.handle).collect();
    handles.sort();
    handles.dedup();
    assert_eq!(handles.len(), spawned.len(), "each effect once");
    assert!(seen.iter().all(|m| m.0.tag % 4 == 0));
    assert_eq!(
        app.world().resource::<Vfx>().stats(puff).unwrap().finished,
        spawned.len() as u64
    );
}

/// Pausing the game's virtual time stops every effect where it is; unpausing
/// lets it finish, 0.3 s of virtual time after its spawn.
#[test]
fn pausing_virtual_time_pauses_effects() {
    let mut app = app();
    let puff = app
        .world_mut()
        .resource_mut::<Vfx>()
        .add_kind(EffectKind::new("puff", 6, Duration::from_millis(50)))
        .unwrap();
    let handle = app
        .world_mut()
        .resource_mut::<Vfx>()
        .spawn(puff, [0.0, 0.0])
        .unwrap();
    for _ in 0..7 {
        app.update();
    }
    let frame = app.world().resource::<Vfx>().get(handle).unwrap().frame();
    assert!(frame >= 1, "it plays: frame {frame}");
    app.world_mut().resource_mut::<Time<Virtual>>().pause();
    for _ in 0..120 {
        app.update();
    }
    let fx = app.world().resource::<Vfx>();
    assert_eq!(
        fx.get(handle).map(|e| e.frame()),
        Some(frame),
        "paused for 2 s"
    );
    app.world_mut().resource_mut::<Time<Virtual>>().unpause();
    for _ in 0..30 {
        app.update();
    }
    assert!(
        !app.world().resource::<Vfx>().contains(handle),
        "finished once unpaused"
    );
    assert_eq!(app.world().resource::<Seen>().0.len(), 1);
}

//! The plugins' components in Bevy's world format (the `reflect` feature):
//! a scene of a listener, an emitter named by its sound with its cues, a
//! zone and a pooled entity's lifetime written to RON and read back keeps
//! every reflected field, and the emitter read back plays its sound.

use std::time::Duration;

use bevy::asset::{AssetPlugin, AssetServer};
use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;
use bevy::world_serialization::DynamicWorldBuilder;
use bevy::world_serialization::serde::WorldDeserializer;
use bevy_pool::prelude::*;
use serde::de::DeserializeSeed;

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((
        bevy::app::TaskPoolPlugin::default(),
        bevy::time::TimePlugin,
        TransformPlugin,
        AssetPlugin::default(),
        SoundEffectsPlugin::default(),
        EntityPoolPlugin,
    ));
    app
}

/// Every reflected component of the scene, on one entity each.
fn scene(world: &mut World) -> Vec<Entity> {
    vec![
        world.spawn((SoundListener, Transform::default())).id(),
        world
            .spawn((
                SoundEmitterNamed {
                    playback_rate: 1.25,
                    panning: -0.5,
                    spatial_blend: 0.75,
                    retry: false,
                    ..SoundEmitterNamed::new("engine").volume(-6.0)
                },
                SoundVelocity(Vec3::new(3.0, 0.0, -1.0)),
                SoundObstruction(0.25),
                SoundOcclusion(0.5),
                Transform::from_xyz(10.0, 0.0, 0.0),
            ))
            .id(),
        world
            .spawn((
                SoundZone::cuboid("cave", Vec3::new(4.0, 3.0, 2.0))
                    .fade(1.5)
                    .level(-4.0)
                    .follows_listener(true),
                Transform::default(),
            ))
            .id(),
        world.spawn(ReleaseAfter(Duration::from_millis(2500))).id(),
    ]
}

#[test]
fn a_scene_of_the_plugins_components_round_trips_through_bevys_world_format() {
    let mut source = app();
    let entities = scene(source.world_mut());
    let registry = source.world().resource::<AppTypeRegistry>().clone();
    let text = {
        let registry = registry.read();
        let world = DynamicWorldBuilder::from_world(source.world(), &registry)
            .deny_all()
            .allow_component::<SoundListener>()
            .allow_component::<SoundEmitterNamed>()
            .allow_component::<SoundVelocity>()
            .allow_component::<SoundObstruction>()
            .allow_component::<SoundOcclusion>()
            .allow_component::<SoundZone>()
            .allow_component::<ReleaseAfter>()
            .extract_entities(entities.iter().copied())
            .build();
        world.serialize(&registry).unwrap()
    };
    assert!(text.contains("\"engine\""), "{text}");

    // Read back into another app, as a game loads a level.
    let mut target = app();
    let mut server = target.world().resource::<AssetServer>().clone();
    let read = {
        let registry = registry.read();
        let mut ron = ron::de::Deserializer::from_str(&text).unwrap();
        let seed = WorldDeserializer {
            type_registry: &registry,
            load_from_path: &mut server,
        };
        seed.deserialize(&mut ron).unwrap()
    };
    let mut map = EntityHashMap::default();
    read.write_to_world(target.world_mut(), &mut map).unwrap();
    let back = |e: &Entity| map[e];
    let (source, target_world) = (source.world(), target.world());
    let same = |e: &Entity| {
        let (a, b) = (source.entity(*e), target_world.entity(back(e)));
        assert_eq!(a.get::<SoundEmitterNamed>(), b.get::<SoundEmitterNamed>());
        assert_eq!(a.get::<SoundVelocity>(), b.get::<SoundVelocity>());
        assert_eq!(a.get::<SoundObstruction>(), b.get::<SoundObstruction>());
        assert_eq!(a.get::<SoundOcclusion>(), b.get::<SoundOcclusion>());
        assert_eq!(a.get::<SoundZone>(), b.get::<SoundZone>());
        assert_eq!(a.get::<ReleaseAfter>(), b.get::<ReleaseAfter>());
        assert_eq!(a.contains::<SoundListener>(), b.contains::<SoundListener>());
    };
    entities.iter().for_each(same);
    assert!(
        target_world
            .entity(back(&entities[1]))
            .get::<SoundEmitterNamed>()
            .is_some()
    );
    assert!(
        target_world
            .entity(back(&entities[2]))
            .get::<SoundZone>()
            .is_some()
    );

    // The emitter read back waits for its sound, then plays it.
    let emitter = back(&entities[1]);
    target.update();
    assert!(
        target.world().get::<SoundEmitter>(emitter).is_none(),
        "no engine yet"
    );
    let hum = StaticSoundData {
        sample_rate: 48_000,
        frames: vec![Frame::from_mono(0.2); 4_800].into(),
        settings: Default::default(),
        slice: None,
    };
    let mut sfx = target.world_mut().resource_mut::<Sfx>();
    let engine = sfx
        .add_sound("engine", hum.loop_region(..), SoundSettings::default())
        .unwrap();
    target.update();
    let started = target.world().get::<SoundEmitter>(emitter).unwrap();
    assert_eq!((started.sound, started.params.volume.0), (engine, -6.0));
    assert_eq!(started.params.playback_rate, 1.25);
    assert!(started.voice().is_some(), "it plays");
}

#[test]
fn an_emitter_naming_no_sound_is_a_warning_after_a_second() {
    let mut app = app();
    #[derive(Resource, Default)]
    struct Warned(Vec<SoundWarning>);
    app.init_resource::<Warned>().add_systems(
        Last,
        |mut seen: ResMut<Warned>, mut warnings: MessageReader<SoundWarning>| {
            seen.0.extend(warnings.read().copied());
        },
    );
    let typo = app.world_mut().spawn(SoundEmitterNamed::new("engnie")).id();
    app.update();
    let unknown = |app: &App| {
        let warned = &app.world().resource::<Warned>().0;
        warned
            .iter()
            .filter(|w| **w == SoundWarning::UnknownSound(typo))
            .count()
    };
    assert_eq!(unknown(&app), 0, "not at once: a bank may be loading");
    std::thread::sleep(Duration::from_millis(1100));
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(unknown(&app), 1, "once");
    assert!(app.world().get::<SoundEmitter>(typo).is_none());
}

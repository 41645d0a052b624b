//! Effects drawn as sprites (`sprites` feature): the sprites are the draw list,
//! frame by frame; their entities are pooled; a warm frame allocates nothing.
#![cfg(feature = "sprites")]

use std::time::Duration;

use bevy::asset::{Handle, uuid::Uuid};
use bevy::camera::{OrthographicProjection, Projection};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_pool::{Vfx, VfxAtlas, VfxAtlases, VfxCamera, VfxPlugin, VfxSprite, VfxSpritesPlugin};
use pool_effects::{EffectKind, KindId, Offscreen, View};

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((
        bevy::time::TimePlugin,
        VfxPlugin,
        VfxSpritesPlugin { z: 5.0 },
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        50,
    )));
    // The first update's delta is zero in Bevy: start the clock.
    app.update();
    app
}

fn atlas(image: u128, layout: u128, first_index: usize) -> VfxAtlas {
    VfxAtlas {
        image: Handle::from(Uuid::from_u128(image)),
        layout: Handle::from(Uuid::from_u128(layout)),
        first_index,
    }
}

fn add(app: &mut App, kind: EffectKind, atlas: Option<VfxAtlas>) -> KindId {
    let id = app
        .world_mut()
        .resource_mut::<Vfx>()
        .add_kind(kind)
        .unwrap();
    if let Some(atlas) = atlas {
        app.world_mut()
            .resource_mut::<VfxAtlases>()
            .insert(id, atlas);
    }
    id
}

/// The visible effect sprites, lowest first: (atlas index, x, y, z, alpha).
fn shown(app: &mut App) -> Vec<(usize, f32, f32, f32, f32)> {
    let mut query = app
        .world_mut()
        .query::<(&Sprite, &Transform, &Visibility, &VfxSprite)>();
    let mut out: Vec<_> = query
        .iter(app.world())
        .filter(|(_, _, visibility, _)| **visibility != Visibility::Hidden)
        .map(|(sprite, at, _, _)| {
            (
                sprite.texture_atlas.as_ref().unwrap().index,
                at.translation.x,
                at.translation.y,
                at.translation.z,
                sprite.color.alpha(),
            )
        })
        .collect();
    out.sort_by(|a, b| a.3.total_cmp(&b.3));
    out
}

fn sprite_entities(app: &mut App) -> usize {
    app.world_mut()
        .query::<&VfxSprite>()
        .iter(app.world())
        .count()
}

#[test]
fn sprites_show_each_effect_at_its_frame_in_layer_order() {
    let mut app = app();
    let smoke = add(
        &mut app,
        EffectKind::new("smoke", 4, Duration::from_millis(100)).layer(-1),
        Some(atlas(1, 2, 10)),
    );
    let boom = add(
        &mut app,
        EffectKind::new("boom", 2, Duration::from_millis(50))
            .layer(1)
            .follow_up("smoke"),
        Some(atlas(3, 4, 0)),
    );
    // A kind without an atlas is not drawn.
    let hidden = add(
        &mut app,
        EffectKind::new("hidden", 4, Duration::from_millis(100)),
        None,
    );
    {
        let mut fx = app.world_mut().resource_mut::<Vfx>();
        fx.spawn(boom, [1.0, 2.0]).unwrap();
        let puff = fx.spawn(smoke, [3.0, 4.0]).unwrap();
        fx.get_mut(puff).unwrap().tint.a = 0.5;
        fx.spawn(hidden, [0.0, 0.0]).unwrap();
    }
    // One frame of 50 ms: the boom shows frame 1, the smoke frame 0; the smoke
    // (layer -1) is under the boom.
    app.update();
    let sprites = shown(&mut app);
    assert_eq!(sprites.len(), 2, "{sprites:?}");
    assert_eq!(
        (sprites[0].0, sprites[0].1, sprites[0].2, sprites[0].4),
        (10, 3.0, 4.0, 0.5)
    );
    assert_eq!((sprites[1].0, sprites[1].1, sprites[1].2), (1, 1.0, 2.0));
    assert!(sprites.iter().all(|s| (5.0..6.0).contains(&s.3)));
    // 100 ms: the boom ended and its smoke follows, drawn in the same frame.
    app.update();
    let sprites = shown(&mut app);
    assert_eq!(sprites.len(), 2, "{sprites:?}");
    assert_eq!(
        (sprites[0].0, sprites[0].1),
        (11, 3.0),
        "the first smoke, frame 1"
    );
    assert_eq!(
        (sprites[1].0, sprites[1].1),
        (10, 1.0),
        "the follow-up, frame 0"
    );
}

#[test]
fn sprite_entities_are_pooled_hidden_when_idle_and_never_despawned() {
    let mut app = app();
    let spark = add(
        &mut app,
        EffectKind::new("spark", 2, Duration::from_millis(50)).pool(0, 64),
        Some(atlas(1, 2, 0)),
    );
    for x in 0..10 {
        app.world_mut()
            .resource_mut::<Vfx>()
            .spawn(spark, [x as f32, 0.0])
            .unwrap();
    }
    app.update();
    assert_eq!(shown(&mut app).len(), 10);
    // The sparks end; their sprites hide and stay.
    app.update();
    app.update();
    assert_eq!(shown(&mut app).len(), 0);
    assert_eq!(sprite_entities(&mut app), 10);
    // Three new sparks reuse three of them.
    for x in 0..3 {
        app.world_mut()
            .resource_mut::<Vfx>()
            .spawn(spark, [x as f32, 0.0])
            .unwrap();
    }
    app.update();
    assert_eq!(shown(&mut app).len(), 3);
    assert_eq!(sprite_entities(&mut app), 10);
}

/// An app spawning 20 explosions a frame, each followed by smoke, with or
/// without the sprites.
fn busy_app(with_sprites: bool) -> App {
    let mut app = App::new();
    app.add_plugins((bevy::time::TimePlugin, VfxPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            16,
        )));
    if with_sprites {
        app.add_plugins(VfxSpritesPlugin::default());
    }
    let mut fx = app.world_mut().resource_mut::<Vfx>();
    let boom = fx
        .add_kind(
            EffectKind::new("boom", 6, Duration::from_millis(50))
                .pool(0, 200)
                .follow_up("smoke"),
        )
        .unwrap();
    let smoke = fx
        .add_kind(EffectKind::new("smoke", 4, Duration::from_millis(50)).pool(0, 400))
        .unwrap();
    if with_sprites {
        let mut atlases = app.world_mut().resource_mut::<VfxAtlases>();
        atlases.insert(boom, atlas(1, 2, 0));
        atlases.insert(smoke, atlas(3, 4, 6));
    }
    app.add_systems(Update, move |mut fx: ResMut<Vfx>, mut n: Local<u32>| {
        *n += 1;
        for i in 0..20 {
            let _ = fx.spawn(boom, [i as f32, *n as f32]);
        }
    });
    app
}

/// Allocations in 60 frames after 120 to warm up.
fn allocations_per_second(app: &mut App) -> u64 {
    for _ in 0..120 {
        app.update();
    }
    alloc_counter::allocations_during(|| {
        for _ in 0..60 {
            app.update();
        }
    })
}

#[test]
fn a_warm_frame_of_sprites_allocates_nothing() {
    // Bevy's scheduler allocates a little per frame in both apps; the sprites
    // add nothing to it.
    let without = allocations_per_second(&mut busy_app(false));
    let mut app = busy_app(true);
    let with = allocations_per_second(&mut app);
    assert!(
        with <= without,
        "60 frames allocated {with} times with the sprites, {without} without"
    );
    let sprites = shown(&mut app).len();
    assert!(sprites > 100, "{sprites} sprites shown");
}

/// A 2D camera showing 320 x 180 world units around `at`, as Bevy's renderer
/// sizes it for a 320 x 180 window.
fn camera(at: Vec3) -> impl Bundle {
    let projection = OrthographicProjection {
        area: Rect::new(-160.0, -90.0, 160.0, 90.0),
        ..OrthographicProjection::default_2d()
    };
    (
        VfxCamera,
        Projection::Orthographic(projection),
        Transform::from_translation(at),
    )
}

/// The marked camera culls: an effect off its screen is not drawn and (with
/// `Offscreen::Pause`) its clock stops; when the camera pans to it, it is drawn
/// again from the frame it had. A zoomed-out camera shows more; a despawned
/// one leaves the view to everything.
#[test]
fn the_marked_camera_culls_effects_off_its_screen() {
    let mut app = app();
    app.add_plugins(TransformPlugin);
    let smoke = add(
        &mut app,
        EffectKind::new("smoke", 8, Duration::from_millis(50))
            .looping()
            .offscreen(Offscreen::Pause)
            .cull_radius(10.0),
        Some(atlas(1, 2, 0)),
    );
    let handle = app
        .world_mut()
        .resource_mut::<Vfx>()
        .spawn(smoke, [0.0, 0.0])
        .unwrap();
    let cam = app
        .world_mut()
        .spawn(camera(Vec3::new(1000.0, 0.0, 999.0)))
        .id();
    app.update();
    assert_eq!(
        app.world().resource::<Vfx>().view(),
        Some(View::new([840.0, -90.0], [1160.0, 90.0]))
    );
    assert!(shown(&mut app).is_empty(), "off screen: not drawn");
    for _ in 0..3 {
        app.update();
    }
    let parked = app.world().resource::<Vfx>().get(handle).unwrap().frame();
    // Pan to the effect: drawn again, from the frame it was parked at.
    app.world_mut()
        .entity_mut(cam)
        .insert(Transform::from_xyz(165.0, 0.0, 999.0));
    app.update();
    assert_eq!(
        app.world().resource::<Vfx>().view(),
        Some(View::new([5.0, -90.0], [325.0, 90.0]))
    );
    assert_eq!(
        shown(&mut app).len(),
        1,
        "within its cull radius of the edge"
    );
    assert_eq!(
        app.world().resource::<Vfx>().get(handle).unwrap().frame(),
        parked + 1,
        "paused while off screen, one frame on since"
    );
    // Zoomed out (the camera's scale) the view is twice as wide.
    app.world_mut()
        .entity_mut(cam)
        .insert(Transform::from_xyz(1000.0, 0.0, 999.0).with_scale(Vec3::splat(2.0)));
    app.update();
    assert_eq!(
        app.world().resource::<Vfx>().view(),
        Some(View::new([680.0, -180.0], [1320.0, 180.0]))
    );
    app.world_mut().despawn(cam);
    app.update();
    assert_eq!(
        app.world().resource::<Vfx>().view(),
        None,
        "no camera: everything"
    );
    assert_eq!(shown(&mut app).len(), 1);
}

/// A camera whose render target Bevy has not sized yet (its projection's area
/// is a 2 x 2 placeholder until then) does not cull, and neither does one that
/// is not orthographic; a game's own view is left alone while no marked camera
/// gives one.
#[test]
fn cameras_without_a_sized_orthographic_view_leave_the_view_alone() {
    let mut app = app();
    app.add_plugins(TransformPlugin);
    let own = View::new([0.0, 0.0], [10.0, 10.0]);
    app.world_mut().resource_mut::<Vfx>().set_view(own).unwrap();
    app.world_mut().spawn((
        VfxCamera,
        Camera::default(),
        Projection::Orthographic(OrthographicProjection::default_2d()),
        Transform::default(),
    ));
    app.world_mut().spawn((
        VfxCamera,
        Projection::Perspective(Default::default()),
        Transform::default(),
    ));
    app.update();
    assert_eq!(app.world().resource::<Vfx>().view(), Some(own));
}

/// A camera whose transform went non-finite (a NaN from game code) gives no
/// view, as if it were gone: everything is in view again, and nothing invalid
/// reaches `set_view`.
#[test]
fn a_camera_with_a_nan_transform_gives_no_view() {
    let mut app = app();
    app.add_plugins(TransformPlugin);
    let cam = app.world_mut().spawn(camera(Vec3::ZERO)).id();
    app.update();
    let good = Some(View::new([-160.0, -90.0], [160.0, 90.0]));
    assert_eq!(app.world().resource::<Vfx>().view(), good);
    app.world_mut()
        .entity_mut(cam)
        .insert(Transform::from_xyz(f32::NAN, 0.0, 0.0));
    app.update();
    assert_eq!(
        app.world().resource::<Vfx>().view(),
        None,
        "no camera gives a view"
    );
}

/// Two marked cameras (split screen): the view covers both.
#[test]
fn two_marked_cameras_cull_against_the_rectangle_around_both() {
    let mut app = app();
    app.add_plugins(TransformPlugin);
    app.world_mut().spawn(camera(Vec3::new(-500.0, 0.0, 0.0)));
    app.world_mut().spawn(camera(Vec3::new(500.0, 100.0, 0.0)));
    app.update();
    assert_eq!(
        app.world().resource::<Vfx>().view(),
        Some(View::new([-660.0, -90.0], [660.0, 190.0]))
    );
}

/// A camera panning every frame adds no allocation to a warm frame.
#[test]
fn a_panning_camera_allocates_nothing_once_warm() {
    let without = allocations_per_second(&mut busy_app(true));
    let mut app = busy_app(true);
    app.add_plugins(TransformPlugin);
    app.world_mut().spawn(camera(Vec3::ZERO));
    app.add_systems(
        Update,
        |mut cameras: Query<&mut Transform, With<VfxCamera>>| {
            for mut at in &mut cameras {
                at.translation.x = (at.translation.x + 7.0) % 300.0;
            }
        },
    );
    let with = allocations_per_second(&mut app);
    assert!(
        with <= without,
        "60 frames allocated {with} times with a panning camera, {without} without"
    );
}

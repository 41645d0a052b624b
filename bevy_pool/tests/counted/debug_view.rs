//! The debug view allocates nothing per frame of its own once warm: 300
//! moving emitters drawn with gizmos and the voice table written every
//! frame allocate what the same app allocates when it draws the emitters
//! itself from one system of its own (Bevy's cost of drawing with gizmos,
//! which takes each drawing system's buffer every frame, is in both).

use std::time::Duration;

use bevy::prelude::*;
use bevy_pool::SoundDebugPlugin;

use super::no_alloc::{allocations_per_frame, app};

fn with_gizmos(view: bool) -> App {
    let mut app = app(true);
    // Bevy's gizmo storage for the default group (GizmoPlugin's core,
    // without its camera and mesh plugins, which need more of Bevy).
    use bevy::gizmos::AppGizmoBuilder;
    app.add_plugins(AssetPlugin::default())
        .init_asset::<bevy::gizmos::GizmoAsset>()
        .init_gizmo_group::<bevy::gizmos::config::DefaultGizmoConfigGroup>();
    // The game draws with gizmos too: Bevy's own cost of drawing (its
    // gizmo meshes made each frame) is in both apps.
    app.add_systems(Update, |mut gizmos: Gizmos| {
        gizmos.circle_2d(Vec2::ZERO, 1.0, Color::WHITE);
        gizmos.line(Vec3::ZERO, Vec3::X, Color::WHITE);
    });
    if view {
        app.add_plugins(SoundDebugPlugin {
            table_every: Duration::ZERO,
            ..Default::default()
        });
    } else {
        // Without the view, the game draws its 300 emitters itself, as
        // circles, from one system: what any system that draws costs Bevy.
        app.add_systems(
            PostUpdate,
            |mut gizmos: Gizmos,
             emitters: Query<&GlobalTransform, With<bevy_pool::SoundEmitter>>| {
                for at in &emitters {
                    gizmos.circle_2d(at.translation().truncate(), 0.5, Color::WHITE);
                    gizmos.circle_2d(at.translation().truncate(), 50.0, Color::WHITE);
                }
            },
        );
    }
    app
}

#[test]
fn the_debug_view_allocates_nothing_per_frame_once_warm() {
    let without = allocations_per_frame(&mut with_gizmos(false));
    let with = allocations_per_frame(&mut with_gizmos(true));
    assert!(
        with <= without,
        "120 frames allocated {with} times with the debug view, {without} without"
    );
}

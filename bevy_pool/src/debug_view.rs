//! A debug view of the sound (the `debug` feature): each voice drawn where
//! it plays with Bevy's gizmos, coloured by its state, with its audible
//! radius; each emitter whose play was refused drawn red; and the voice
//! table as on-screen text in Bevy's UI.

use std::fmt::Write as _;
use std::time::Duration;

use bevy::app::{App, Plugin, PostUpdate};
use bevy::color::{Alpha, Color};
use bevy::ecs::prelude::*;
use bevy::gizmos::config::GizmoConfigStore;
use bevy::gizmos::gizmos::Gizmos;
use bevy::math::{Isometry2d, Isometry3d, Quat, Vec2, Vec3};
use bevy::text::TextFont;
use bevy::time::Time;
use bevy::transform::components::GlobalTransform;
use bevy::ui::{BackgroundColor, Node, PositionType, Val, widget::Text};
use pool_audio::VoiceState;

use crate::audio::{Sfx, SoundSystems};
use crate::emitters::SoundEmitter;
use crate::voices::{SoundVoices, SoundVoicesPlugin, read_voices};

/// The plane the view draws in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DebugPlane {
    /// X right, Y up: a 2D game.
    #[default]
    Xy,
    /// X and Z, the ground of a 3D game (Y up).
    Xz,
}

/// Draws every voice where it plays with Bevy's gizmos: a dot coloured by
/// its state ([`REAL`](Self::REAL), [`VIRTUAL`](Self::VIRTUAL),
/// [`FADING`](Self::FADING), [`PAUSED`](Self::PAUSED)) and, for a real one, a
/// faint circle of its audible radius (its distances' `max`); an emitter whose play was
/// refused, a red dot ([`REFUSED`](Self::REFUSED)). Writes the voice table
/// ([`SoundEffects::voice_table`](pool_audio::SoundEffects::voice_table))
/// into a UI text in the window's top left corner, a few times a second.
/// Adds the [`SoundVoicesPlugin`] if the app has not. It draws with Bevy's
/// gizmos where the app has them (`DefaultPlugins` with Bevy's `bevy_gizmos`
/// feature; in a headless app, `AssetPlugin`, then
/// `app.init_asset::<GizmoAsset>()` and
/// `app.init_gizmo_group::<DefaultGizmoConfigGroup>()`) and draws nothing
/// where it has not; the text is written either way, and Bevy's UI shows it
/// in a window.
///
/// ```no_run
/// use bevy::prelude::*;
/// use bevy_pool::prelude::*;
/// use bevy_pool::{DebugPlane, SoundDebugPlugin};
///
/// App::new()
///     .add_plugins((DefaultPlugins, SoundEffectsPlugin::default()))
///     .add_plugins(SoundDebugPlugin { plane: DebugPlane::Xz, ..Default::default() })
///     .run();
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SoundDebugPlugin {
    /// The plane to draw in.
    pub plane: DebugPlane,
    /// A voice's dot, in the world's units (default 0.5).
    pub dot: f32,
    /// Whether each real voice's audible radius is drawn (default `true`).
    pub radius: bool,
    /// Lines of the voice table on screen; 0 for no text (default 24).
    pub table_rows: usize,
    /// How often the text is written again (default 250 ms: Bevy lays a
    /// changed text out again, which costs more than the table).
    pub table_every: Duration,
}

impl Default for SoundDebugPlugin {
    fn default() -> Self {
        Self {
            plane: DebugPlane::Xy,
            dot: 0.5,
            radius: true,
            table_rows: 24,
            table_every: Duration::from_millis(250),
        }
    }
}

impl SoundDebugPlugin {
    /// A real voice's colour.
    pub const REAL: Color = Color::srgb(0.2, 0.8, 0.3);
    /// A virtual voice's colour.
    pub const VIRTUAL: Color = Color::srgb(0.55, 0.55, 0.6);
    /// A fading voice's colour.
    pub const FADING: Color = Color::srgb(0.95, 0.6, 0.1);
    /// A paused voice's colour.
    pub const PAUSED: Color = Color::srgb(0.3, 0.5, 0.95);
    /// A refused emitter's colour.
    pub const REFUSED: Color = Color::srgb(0.9, 0.15, 0.15);
}

/// The entity holding the voice table's text.
#[derive(Component, Debug, Default)]
pub struct SoundDebugText;

#[derive(Resource)]
struct View(SoundDebugPlugin);

impl Plugin for SoundDebugPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<SoundVoicesPlugin>() {
            app.add_plugins(SoundVoicesPlugin);
        }
        app.insert_resource(View(*self)).add_systems(
            PostUpdate,
            (
                draw_voices.run_if(resource_exists::<GizmoConfigStore>),
                write_table,
            )
                .after(read_voices)
                .before(SoundSystems::Render),
        );
    }
}

/// The text's entity, made on the view's first frame (the app may have
/// started before the plugin was added).
fn spawn_text(commands: &mut Commands) {
    commands.spawn((
        SoundDebugText,
        Text::new(""),
        TextFont::from_font_size(13.0),
        BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.6)),
        Node {
            position_type: PositionType::Absolute,
            top: Val::Px(8.0),
            left: Val::Px(8.0),
            ..Default::default()
        },
    ));
}

/// The colour of a voice in `state`.
fn color(state: VoiceState) -> Color {
    match state {
        VoiceState::Real => SoundDebugPlugin::REAL,
        VoiceState::Fading => SoundDebugPlugin::FADING,
        VoiceState::Paused => SoundDebugPlugin::PAUSED,
        _ => SoundDebugPlugin::VIRTUAL,
    }
}

fn draw_voices(
    mut gizmos: Gizmos,
    view: Res<View>,
    voices: Res<SoundVoices>,
    emitters: Query<(&SoundEmitter, &GlobalTransform)>,
) {
    let view = &view.0;
    let mut circle = |at: [f32; 3], radius: f32, color: Color| match view.plane {
        DebugPlane::Xy => {
            let at = Isometry2d::from_translation(Vec2::new(at[0], at[1]));
            gizmos.circle_2d(at, radius, color);
        }
        DebugPlane::Xz => {
            let flat = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
            gizmos.circle(Isometry3d::new(Vec3::from(at), flat), radius, color);
        }
    };
    for (info, _) in voices.iter() {
        let Some(at) = info.position else {
            continue;
        };
        let color = color(info.state);
        circle(at, view.dot, color);
        if view.radius
            && info.state == VoiceState::Real
            && let Some(radius) = info.max_distance.filter(|r| r.is_finite())
        {
            circle(at, radius, color.with_alpha(0.25));
        }
    }
    for (emitter, transform) in &emitters {
        if emitter.voice().is_none() && emitter.refused().is_some() {
            circle(
                transform.translation().to_array(),
                view.dot,
                SoundDebugPlugin::REFUSED,
            );
        }
    }
}

#[allow(clippy::too_many_arguments)] // a system's parameters
fn write_table(
    mut commands: Commands,
    sfx: Res<Sfx>,
    view: Res<View>,
    time: Res<Time>,
    voices: Res<SoundVoices>,
    emitters: Query<&SoundEmitter>,
    mut text: Query<&mut Text, With<SoundDebugText>>,
    mut since: Local<Option<Duration>>,
) {
    if view.0.table_rows == 0 {
        return;
    }
    let every = view.0.table_every;
    let due = since.is_none_or(|since| since >= every);
    *since = Some(if due {
        Duration::ZERO
    } else {
        since.unwrap_or_default() + time.delta()
    });
    if !due {
        return;
    }
    let Ok(mut text) = text.single_mut() else {
        if text.is_empty() {
            spawn_text(&mut commands);
        }
        return;
    };
    let real = (voices.iter()).filter(|(v, _)| v.state != VoiceState::Virtual);
    let refused = (emitters.iter()).filter(|e| e.voice().is_none() && e.refused().is_some());
    let text = &mut text.0;
    text.clear();
    let _ = write!(
        text,
        "{} voices: {} real, {} virtual; {} emitters refused\n{}",
        voices.len(),
        real.count(),
        (voices.iter())
            .filter(|(v, _)| v.state == VoiceState::Virtual)
            .count(),
        refused.count(),
        sfx.voice_table(view.0.table_rows)
    );
}

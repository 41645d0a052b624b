//! The effects plugin: the [`Effects`] as a resource, advanced on the game's
//! virtual time, with a message for each effect that finished.

use bevy::app::{App, Plugin, PostUpdate};
use bevy::ecs::prelude::*;
use bevy::time::{Time, Virtual};
use pool_effects::{Effects, Finished};

/// Pooled sprite-animation effects for a Bevy app: the [`Fx`] resource (add
/// kinds at load time, spawn from any system), advanced once a frame on
/// `Time<Virtual>` (pausing the game's virtual time pauses every effect, and
/// its relative speed slows them), and an [`EffectFinished`] message for each
/// one-shot that ended.
///
/// ```
/// # use std::time::Duration;
/// use bevy::prelude::*;
/// use bevy_pool::{EffectFinished, EffectsPlugin, Fx};
/// use pool_effects::EffectKind;
///
/// let mut app = App::new();
/// app.add_plugins((bevy::time::TimePlugin, EffectsPlugin));
/// let boom = app.world_mut().resource_mut::<Fx>().add_kind(EffectKind::new("boom", 4, Duration::from_millis(50)))?;
/// app.world_mut().resource_mut::<Fx>().spawn(boom, [1.0, 2.0])?;
/// app.update();
/// assert_eq!(app.world().resource::<Fx>().live_count(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct EffectsPlugin;

/// The effects: derefs to [`Effects`].
#[derive(Resource, Default)]
pub struct Fx(Effects);

impl std::ops::Deref for Fx {
    type Target = Effects;
    fn deref(&self) -> &Effects {
        &self.0
    }
}

impl std::ops::DerefMut for Fx {
    fn deref_mut(&mut self) -> &mut Effects {
        &mut self.0
    }
}

/// An effect that played its last frame and went back to its pool, sent once;
/// its [`follow_up`](pool_effects::Finished::follow_up) says which effect
/// followed it, if its kind chains one ([`pool_effects::EffectKind::follow_up`]).
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub struct EffectFinished(pub Finished);

/// The effects plugins' systems, in `PostUpdate`, in this order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EffectsSystems {
    /// `Effects::update` on virtual time (follow-ups start here), then the
    /// finished messages. Spawns from `Update` are advanced in the same frame.
    Update,
    /// The draw list written into sprites (`EffectSpritesPlugin`, with the
    /// `sprites` feature), after `Update`: what is drawn is what the update left.
    Draw,
}

impl Plugin for EffectsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Fx>()
            .add_message::<EffectFinished>()
            .add_systems(PostUpdate, update.in_set(EffectsSystems::Update));
    }
}

fn update(
    mut fx: ResMut<Fx>,
    time: Res<Time<Virtual>>,
    mut finished: MessageWriter<EffectFinished>,
) {
    // Virtual time's delta is finite and never negative.
    if fx.update(time.delta_secs_f64()).is_ok() {
        finished.write_batch(fx.finished().iter().copied().map(EffectFinished));
    }
}

//! The effects plugin: the [`Effects`] as a resource, advanced on the game's
//! virtual time, with a message for each effect that finished.

use bevy::app::{App, Plugin, PostUpdate};
use bevy::ecs::prelude::*;
use bevy::time::{Time, Virtual};
use pool_effects::{Effects, Finished};

/// Pooled sprite-animation effects for a Bevy app: the [`Vfx`] resource (add
/// kinds at load time, spawn from any system), advanced once a frame on
/// `Time<Virtual>` (pausing the game's virtual time pauses every effect, and
/// its relative speed slows them), and a [`VfxFinished`] message for each
/// one-shot that ended.
///
/// ```
/// # use std::time::Duration;
/// use bevy::prelude::*;
/// use bevy_pool::{VfxFinished, VfxPlugin, Vfx};
/// use pool_effects::EffectKind;
///
/// let mut app = App::new();
/// app.add_plugins((bevy::time::TimePlugin, VfxPlugin));
/// let boom = app.world_mut().resource_mut::<Vfx>().add_kind(EffectKind::new("boom", 4, Duration::from_millis(50)))?;
/// app.world_mut().resource_mut::<Vfx>().spawn(boom, [1.0, 2.0])?;
/// app.update();
/// assert_eq!(app.world().resource::<Vfx>().live_count(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct VfxPlugin;

/// The plugin's [`pool_effects::Effects`] (sprite-animation effects, VFX) as
/// a resource: it derefs to it, and every method is `Effects`' own,
/// documented in `pool_effects`.
#[derive(Resource, Default)]
pub struct Vfx(Effects);

impl std::ops::Deref for Vfx {
    type Target = Effects;
    fn deref(&self) -> &Effects {
        &self.0
    }
}

impl std::ops::DerefMut for Vfx {
    fn deref_mut(&mut self) -> &mut Effects {
        &mut self.0
    }
}

/// An effect that played its last frame and went back to its pool, sent once;
/// its [`follow_up`](pool_effects::Finished::follow_up) says which effect
/// followed it, if its kind chains one ([`pool_effects::EffectKind::follow_up`]).
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub struct VfxFinished(pub Finished);

/// The effects plugins' systems, in `PostUpdate`, in this order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VfxSystems {
    /// `Effects::update` on virtual time (follow-ups start here), then the
    /// finished messages. Spawns from `Update` are advanced in the same frame.
    Update,
    /// The draw list written into sprites (`VfxSpritesPlugin`, with the
    /// `sprites` feature), after `Update`: what is drawn is what the update left.
    Draw,
}

impl Plugin for VfxPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Vfx>()
            .add_message::<VfxFinished>()
            .add_systems(PostUpdate, update.in_set(VfxSystems::Update));
    }
}

fn update(mut fx: ResMut<Vfx>, time: Res<Time<Virtual>>, mut finished: MessageWriter<VfxFinished>) {
    // Virtual time's delta is finite and never negative.
    if fx.update(time.delta_secs_f64()).is_ok() {
        finished.write_batch(fx.finished().iter().copied().map(VfxFinished));
    }
}

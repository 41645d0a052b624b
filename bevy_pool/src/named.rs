//! Emitters that name their sound, for scenes and inspectors: a
//! [`SoundEmitterNamed`] holds what a designer sets, by the sound's name;
//! the plugin keeps a [`SoundEmitter`] beside it once the sound is there.
//! With the `reflect` feature, kira's `Decibels` is reflected through
//! [`DecibelsReflect`] and the plugins' plain components are registered.

use std::time::Duration;

use bevy::prelude::*;
use pool_audio::PlayParams;
use pool_audio::kira::Decibels;

use crate::audio::{Sfx, SoundWarning, warn};
use crate::emitters::SoundEmitter;

/// kira's [`Decibels`] as Bevy's reflection sees it: a field of that type
/// in a reflected component is marked `#[reflect(remote = DecibelsReflect)]`.
#[cfg(feature = "reflect")]
#[bevy::reflect::reflect_remote(Decibels)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DecibelsReflect(pub f32);

/// A [`SoundEmitter`] that names its sound instead of holding its id: the
/// form a scene file or an inspector holds, since a sound's id means
/// nothing outside the running game. The plugin puts a `SoundEmitter`
/// beside it as soon as [`Sfx`] has a sound of that name (a bank's, loaded
/// later, or one added in code), and brings it up to date whenever this
/// changes, the name included; it stays on the entity, so a scene saved
/// from the running world holds it. A name no sound has one second after
/// the emitter appears is a [`SoundWarning::UnknownSound`]; the emitter
/// still starts if the sound comes.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_pool::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((bevy::time::TimePlugin, TransformPlugin, SoundEffectsPlugin::default()));
/// let hum = StaticSoundData { sample_rate: 48_000, frames: vec![Frame::from_mono(0.2); 4_800].into(), settings: Default::default(), slice: None };
/// let sound = app.world_mut().resource_mut::<Sfx>().add_sound("hum", hum.loop_region(..), SoundSettings::default())?;
/// let car = app.world_mut().spawn((SoundEmitterNamed::new("hum").volume(-6.0), Transform::default())).id();
/// app.update();
/// let emitter = app.world().get::<SoundEmitter>(car).expect("started by name");
/// assert_eq!((emitter.sound, emitter.params.volume.0), (sound, -6.0));
/// assert!(emitter.voice().is_some());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Component, Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "reflect",
    derive(Reflect),
    reflect(Component, Default, Debug, PartialEq)
)]
#[require(Transform)]
pub struct SoundEmitterNamed {
    /// The sound's name in [`Sfx`].
    pub sound: String,
    /// The play's volume, at most 0 dB.
    #[cfg_attr(feature = "reflect", reflect(remote = DecibelsReflect))]
    pub volume: Decibels,
    /// The play's rate (speed and pitch).
    pub playback_rate: f64,
    /// The play's panning, -1 (left) to 1 (right).
    pub panning: f32,
    /// 1: heard from where the entity is; 0: not positioned.
    pub spatial_blend: f32,
    /// Whether a refused play is tried again each frame.
    pub retry: bool,
}

impl Default for SoundEmitterNamed {
    fn default() -> Self {
        Self::new("")
    }
}

impl SoundEmitterNamed {
    /// Plays the sound named `sound` from the entity, with the defaults of
    /// [`PlayParams`].
    pub fn new(sound: impl Into<String>) -> Self {
        let params = PlayParams::default();
        Self {
            sound: sound.into(),
            volume: params.volume,
            playback_rate: params.playback_rate,
            panning: params.panning,
            spatial_blend: params.spatial_blend,
            retry: true,
        }
    }

    /// Plays at `volume` (an `f32` is decibels).
    #[must_use]
    pub fn volume(mut self, volume: impl Into<Decibels>) -> Self {
        self.volume = volume.into();
        self
    }

    /// The play's parameters, over `params`.
    fn params(&self, params: PlayParams) -> PlayParams {
        PlayParams {
            volume: self.volume,
            playback_rate: self.playback_rate,
            panning: self.panning,
            spatial_blend: self.spatial_blend,
            ..params
        }
    }
}

/// How long a name may go unresolved before it is warned of.
const GRACE: Duration = Duration::from_secs(1);

/// When each named emitter still waiting for its sound appeared, and
/// whether it was warned of.
#[derive(Component, Debug, Clone, Copy)]
pub(crate) struct Waiting {
    since: Duration,
    warned: bool,
}

/// A named emitter, its emitter if it has one yet, and its wait if not.
type Named = (
    Entity,
    Ref<'static, SoundEmitterNamed>,
    Option<&'static mut SoundEmitter>,
    Option<&'static mut Waiting>,
);

/// The named emitters that changed, or wait for their sound.
type ToResolve = Or<(Changed<SoundEmitterNamed>, With<Waiting>)>;

/// Gives each changed or waiting named emitter its [`SoundEmitter`], once
/// its sound is there.
pub(crate) fn resolve_named(
    mut commands: Commands,
    sfx: Res<Sfx>,
    time: Res<Time<Real>>,
    mut named: Query<Named, ToResolve>,
    mut warnings: MessageWriter<SoundWarning>,
) {
    for (entity, wanted, emitter, waiting) in &mut named {
        let Some(sound) = sfx.sound(&wanted.sound) else {
            match waiting {
                None => {
                    let since = time.elapsed();
                    commands.entity(entity).insert(Waiting {
                        since,
                        warned: false,
                    });
                }
                Some(mut waiting) if !waiting.warned && time.elapsed() - waiting.since >= GRACE => {
                    waiting.warned = true;
                    warn(&mut warnings, SoundWarning::UnknownSound(entity));
                }
                Some(_) => {}
            }
            continue;
        };
        if waiting.is_some() {
            commands.entity(entity).remove::<Waiting>();
        }
        match emitter {
            Some(mut emitter) => {
                let params = wanted.params(emitter.params);
                if emitter.sound != sound
                    || emitter.params != params
                    || emitter.retry != wanted.retry
                {
                    emitter.sound = sound;
                    emitter.params = params;
                    emitter.retry = wanted.retry;
                }
            }
            None => {
                let params = wanted.params(PlayParams::default());
                let emitter = SoundEmitter::new(sound).params(params).retry(wanted.retry);
                commands.entity(entity).insert(emitter);
            }
        }
    }
}

/// Registers the plugins' reflected types (the `reflect` feature).
pub(crate) fn register(app: &mut App) {
    #[cfg(feature = "reflect")]
    app.register_type::<SoundEmitterNamed>()
        .register_type::<crate::SoundListener>()
        .register_type::<crate::SoundVelocity>()
        .register_type::<crate::SoundObstruction>()
        .register_type::<crate::SoundOcclusion>()
        .register_type::<crate::SoundZone>()
        .register_type::<crate::ZoneSize>();
    #[cfg(not(feature = "reflect"))]
    let _ = app;
}

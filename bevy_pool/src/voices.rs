//! The voice table as a resource: every voice of [`Sfx`] after each
//! frame's update, with the emitter that plays it, for a debug view or any
//! system that wants to know what is heard.

use std::collections::HashMap;

use bevy::app::{App, Plugin, PostUpdate};
use bevy::ecs::prelude::*;
use pool_audio::VoiceHandle;
use pool_audio::voices::VoiceInfo;

use crate::audio::{Sfx, SoundSystems};
use crate::emitters::SoundEmitter;

/// Every voice after this frame's update (see
/// [`SoundEffects::voices`](pool_audio::SoundEffects::voices)), each with
/// the entity whose [`SoundEmitter`] plays it, if one does. Refreshed by
/// [`SoundVoicesPlugin`] after [`SoundSystems::Update`] without an
/// allocation once its lists have grown to the voices a game plays.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_pool::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((bevy::time::TimePlugin, TransformPlugin, SoundEffectsPlugin::default(), SoundVoicesPlugin));
/// let hum = StaticSoundData { sample_rate: 48_000, frames: vec![Frame::from_mono(0.2); 4_800].into(), settings: Default::default(), slice: None };
/// let sound = app.world_mut().resource_mut::<Sfx>().add_sound("hum", hum.loop_region(..), SoundSettings::default())?;
/// let car = app.world_mut().spawn((SoundEmitter::new(sound), Transform::from_xyz(3.0, 0.0, 0.0))).id();
/// app.update();
/// let voices = app.world().resource::<SoundVoices>();
/// let (info, entity) = voices.iter().next().expect("the car's voice");
/// assert_eq!((info.sound, entity), (sound, Some(car)));
/// assert_eq!(info.distance, Some(3.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Resource, Debug, Default)]
pub struct SoundVoices {
    voices: Vec<(VoiceInfo, Option<Entity>)>,
    /// Which entity's emitter plays each voice (scratch, kept between frames).
    emitters: HashMap<VoiceHandle, Entity>,
}

impl SoundVoices {
    /// Every voice and its emitter's entity.
    pub fn iter(&self) -> impl Iterator<Item = (&VoiceInfo, Option<Entity>)> {
        self.voices.iter().map(|(info, entity)| (info, *entity))
    }

    /// How many voices there are.
    pub fn len(&self) -> usize {
        self.voices.len()
    }

    /// `true` for none.
    pub fn is_empty(&self) -> bool {
        self.voices.is_empty()
    }

    /// The voice `voice`, if it is live.
    pub fn get(&self, voice: VoiceHandle) -> Option<&VoiceInfo> {
        self.voices
            .iter()
            .find(|(info, _)| info.voice == voice)
            .map(|(info, _)| info)
    }
}

/// Keeps [`SoundVoices`] up to date each frame. Needs the
/// [`SoundEffectsPlugin`](crate::SoundEffectsPlugin).
#[derive(Debug, Clone, Copy, Default)]
pub struct SoundVoicesPlugin;

impl Plugin for SoundVoicesPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<SoundVoices>().add_systems(
            PostUpdate,
            read_voices
                .after(SoundSystems::Update)
                .before(SoundSystems::Render),
        );
    }
}

pub(crate) fn read_voices(
    sfx: Res<Sfx>,
    emitters: Query<(Entity, &SoundEmitter)>,
    mut table: ResMut<SoundVoices>,
) {
    let table = &mut *table;
    table.emitters.clear();
    for (entity, emitter) in &emitters {
        if let Some(voice) = emitter.voice() {
            table.emitters.insert(voice, entity);
        }
    }
    table.voices.clear();
    let emitters = &table.emitters;
    let voices = sfx
        .voices()
        .map(|info| (info, emitters.get(&info.voice).copied()));
    table.voices.extend(voices);
}

//! Game parameters in Bevy (see `pool_audio::game`): add them and the curves
//! that follow them at load time (`ResMut<Sfx>`, or a bank); the game sets a
//! value for every voice with a [`SetGameParam`] message, and for one
//! emitter's voice with a [`GameParamValues`] component beside its
//! [`SoundEmitter`](crate::SoundEmitter). A refused message comes back as a
//! [`GameParamRefused`] message; a refused component value as a
//! [`SoundWarning::GameParam`](crate::SoundWarning::GameParam).

use bevy::prelude::*;
use pool_audio::game::{GameParamError, GameParamId};
use pool_audio::{VoiceError, VoiceHandle};

use crate::{Sfx, SoundEmitter, SoundWarning};

/// Sets a game parameter for every voice that has no value of its own of it
/// (clamped into its range; it moves there over its seek time).
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub struct SetGameParam {
    /// The parameter ([`SoundEffects::game_param`](pool_audio::SoundEffects::game_param)
    /// resolves a name once).
    pub param: GameParamId,
    /// Its value.
    pub value: f64,
}

/// A [`SetGameParam`] refused: nothing changed.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct GameParamRefused {
    /// The parameter named.
    pub param: GameParamId,
    /// Why.
    pub error: GameParamError,
}

/// The values of game parameters an emitter's voice has of its own (one
/// car's speed among many): its sound's curves follow them instead of the
/// game's. Given to each voice the emitter starts, and again when they
/// change; at most [`MAX_OWN_VALUES`](pool_audio::game::MAX_OWN_VALUES).
#[derive(Component, Debug, Clone, Default, PartialEq)]
pub struct GameParamValues {
    /// Each parameter and its value.
    pub values: Vec<(GameParamId, f64)>,
    /// The voice they were last given to.
    given: Option<VoiceHandle>,
}

impl GameParamValues {
    /// `value` of `param`, and no other.
    pub fn new(param: GameParamId, value: f64) -> Self {
        Self {
            values: vec![(param, value)],
            given: None,
        }
    }

    /// These values and `value` of `param` (replacing its value if given).
    #[must_use]
    pub fn with(mut self, param: GameParamId, value: f64) -> Self {
        match self.values.iter_mut().find(|(p, _)| *p == param) {
            Some(entry) => entry.1 = value,
            None => self.values.push((param, value)),
        }
        self
    }
}

/// Sets the game's values from the messages.
pub(crate) fn game_param_messages(
    mut sfx: ResMut<Sfx>,
    mut sets: MessageReader<SetGameParam>,
    mut refused: MessageWriter<GameParamRefused>,
) {
    for set in sets.read() {
        if let Err(error) = sfx.set_game_param(set.param, set.value) {
            refused.write(GameParamRefused {
                param: set.param,
                error,
            });
        }
    }
}

/// Gives each emitter's voice its own values: when they change, and when the
/// emitter has a new voice.
pub(crate) fn emitter_game_params(
    mut sfx: ResMut<Sfx>,
    mut emitters: Query<(Entity, &SoundEmitter, &mut GameParamValues)>,
    mut warnings: MessageWriter<SoundWarning>,
) {
    for (entity, emitter, mut values) in &mut emitters {
        let Some(voice) = emitter.voice() else {
            continue;
        };
        if values.given == Some(voice) && !values.is_changed() {
            continue;
        }
        for &(param, value) in &values.values {
            match sfx.voice(voice).set_game_param(param, value) {
                Ok(()) | Err(VoiceError::Stale(_)) => {}
                Err(error) => {
                    warnings.write(SoundWarning::GameParam { entity, error });
                }
            }
        }
        values.bypass_change_detection().given = Some(voice);
    }
}

//! The game parameters of a manager (see `game.rs`): adding one, setting it
//! for every voice or for one, and following the curves each update.

use super::SoundEffects;
use crate::error::{AddSoundError, VoiceError};
use crate::game::{Follow, GameParamError, GameParamId, GameParamSettings};
use crate::handles::VoiceHandle;

impl SoundEffects {
    /// Adds a game parameter named `name` (a car's speed, the player's
    /// health): curves on sounds ([`SoundSettings::curve`](crate::SoundSettings::curve))
    /// map it to their voices' volume and pitch.
    ///
    /// # Errors
    /// [`GameParamError::DuplicateName`], [`GameParamError::Range`],
    /// [`GameParamError::Value`] (an initial value outside the range),
    /// [`GameParamError::Seek`], [`GameParamError::TooMany`]; nothing is
    /// added.
    ///
    /// ```
    /// # use pool_audio::kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// use pool_audio::game::{Curve, CurveTarget, GameParamSettings};
    /// use pool_audio::loader::{FileLoader, SoundLoader};
    /// # const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets");
    ///
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let speed = sfx.add_game_param("speed", GameParamSettings::new(0.0, 1.0))?;
    /// // The laser climbs an octave and comes up 12 dB as the speed goes to 1.
    /// let settings = SoundSettings::default()
    ///     .curve(Curve::new(speed, CurveTarget::Pitch, &[(0.0, 0.0), (1.0, 12.0)])?)
    ///     .curve(Curve::new(speed, CurveTarget::Volume, &[(0.0, -12.0), (1.0, 0.0)])?);
    /// let laser = FileLoader::new(ASSETS).load("sounds/laser.wav")?;
    /// let laser = sfx.add_sound("laser", laser, settings)?;
    /// sfx.play(laser, PlayParams::default())?;
    /// sfx.set_game_param(speed, 0.5)?;
    /// sfx.update(1.0 / 60.0)?;
    /// assert_eq!(sfx.game_param_value(speed)?, 0.5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_game_param(
        &mut self,
        name: &str,
        settings: GameParamSettings,
    ) -> Result<GameParamId, GameParamError> {
        self.game.add(name, settings)
    }

    /// The game parameter named `name`.
    pub fn game_param(&self, name: &str) -> Option<GameParamId> {
        self.game.find(name)
    }

    /// Sets `param` for every voice that has no value of its own of it,
    /// clamped into its range: the value moves there over its seek time,
    /// from the next update.
    ///
    /// # Errors
    /// [`GameParamError::Unknown`], [`GameParamError::Value`] for a value
    /// that is not finite; nothing changes.
    pub fn set_game_param(&mut self, param: GameParamId, value: f64) -> Result<(), GameParamError> {
        self.game.set(param, value)?;
        self.note(|_| Some(crate::capture::What::GameParam { param, value }));
        Ok(())
    }

    /// The value of `param` every voice without its own follows, now.
    ///
    /// # Errors
    /// [`GameParamError::Unknown`].
    pub fn game_param_value(&self, param: GameParamId) -> Result<f64, GameParamError> {
        self.game.value(param)
    }

    /// Gives `voice` a value of its own of `param` (one car's speed), clamped
    /// into its range: it moves there over the seek time, from the value the
    /// voice had.
    pub(crate) fn set_voice_game_param(
        &mut self,
        voice: VoiceHandle,
        param: GameParamId,
        value: f64,
    ) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let value = self
            .game
            .clamp(param, value)
            .map_err(|_| VoiceError::GameParam)?;
        let global = self.game.global(param);
        self.note(|sfx| {
            // Only a value the voice takes: one it has, or room for one.
            let own = &sfx.voices.get(key)?.own;
            let takes = own.iter().any(|o| o.is_none_or(|(id, _)| id == param));
            let call = crate::capture::VoiceCall::GameParam(param, value);
            takes.then_some(crate::capture::What::Voice {
                voice: Self::number_of_key(key),
                call,
            })
        });
        let record = self.voices.get_mut(key).ok_or(VoiceError::GameParam)?;
        if let Some((_, own)) = record.own.iter_mut().flatten().find(|(id, _)| *id == param) {
            own.target = value;
            return Ok(());
        }
        let free = record.own.iter_mut().find(|o| o.is_none());
        let free = free.ok_or(VoiceError::TooManyOwnValues)?;
        *free = Some((
            param,
            Follow {
                value: global,
                target: value,
            },
        ));
        Ok(())
    }

    /// Checks a new sound's curves: each follows a parameter of this
    /// manager, at most [`MAX_CURVES`](crate::game::MAX_CURVES), each easing
    /// safe.
    pub(super) fn check_curves(
        &self,
        settings: &crate::SoundSettings,
    ) -> Result<(), AddSoundError> {
        let curves = &settings.curves;
        let safe = |curve: &crate::game::Curve| {
            crate::sound_error::easing_is_safe(kira::Tween {
                easing: curve.easing,
                ..Default::default()
            })
        };
        let on_sound =
            |c: &crate::game::Curve| !matches!(c.target, crate::game::CurveTarget::Param(_));
        let known = curves
            .iter()
            .all(|c| self.game.settings(c.param).is_ok() && safe(c) && on_sound(c));
        if curves.overflow || !known {
            return Err(AddSoundError::Curves);
        }
        for curve in curves.iter() {
            if let crate::game::CurveTarget::Send(bus) = curve.target
                && !settings.sends.iter().any(|s| s.bus == bus)
            {
                return Err(AddSoundError::CurveSend(bus));
            }
        }
        Ok(())
    }

    /// Moves the game parameters `dt` seconds on and gives the voices of
    /// sounds with curves their new gain and rate, each change gliding over
    /// the update.
    pub(super) fn follow_curves(&mut self, dt: f64) {
        let moved = self.game.advance(dt);
        if moved && self.game.curved {
            let game = &self.game;
            for entry in self.sounds.entries_mut() {
                if !entry.settings.curves.is_empty() {
                    let sends = &entry.settings.sends;
                    entry.curve_now = entry.settings.curves.outputs(|id| game.global(id), sends);
                }
            }
        }
        let glide = crate::linear_fade(std::time::Duration::from_secs_f64(dt));
        if moved {
            self.buses.follow(&self.game, glide);
            self.mix.follow_params(&self.game, glide);
        }
        if self.game.curved {
            let all = (dt, moved || self.game.pending);
            let deferred = (self.voices).follow_curves(&self.sounds, &self.game, all, glide);
            self.stats.queue_full += deferred;
            self.game.pending = deferred > 0;
        }
    }
}

//! Doppler, obstruction and occlusion on the game side (see `cues.rs`): the
//! velocities, the amounts, and the listener's motion.

use super::SoundEffects;
use crate::bank::Command;
use crate::capture::{VoiceCall, What};
use crate::cues::{Muffled, check_amount, check_velocity};
use crate::error::VoiceError;
use crate::handles::VoiceHandle;

/// Which of a voice's two muffles a call sets.
#[derive(Clone, Copy)]
enum Muffle {
    Obstruction,
    Occlusion,
}

impl SoundEffects {
    pub(crate) fn set_velocity(
        &mut self,
        voice: VoiceHandle,
        velocity: impl Into<mint::Vector3<f32>>,
    ) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let velocity = check_velocity(velocity.into())?;
        self.room_for(1)?;
        self.note(|_| {
            let (voice, call) = (Self::number_of_key(key), VoiceCall::Velocity(velocity));
            Some(What::Voice { voice, call })
        });
        if let Some(record) = self.voices.get_mut(key) {
            record.cues.motion.give(velocity);
        }
        self.voices.tell(key, |slot, ticket| Command::SetVelocity {
            slot,
            ticket,
            velocity,
        });
        Ok(())
    }

    pub(crate) fn set_velocity_2d(
        &mut self,
        voice: VoiceHandle,
        velocity: impl Into<mint::Vector2<f32>>,
    ) -> Result<(), VoiceError> {
        self.set_velocity(voice, crate::params::flat(velocity.into()))
    }

    pub(crate) fn derive_velocity(&mut self, voice: VoiceHandle) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        if let Some(record) = self.voices.get_mut(key) {
            record.cues.motion.derive();
        }
        Ok(())
    }

    pub(crate) fn derive_listener_velocity(&mut self) {
        self.now.listener_motion.derive();
    }

    pub(crate) fn set_listener_velocity(
        &mut self,
        velocity: impl Into<mint::Vector3<f32>>,
    ) -> Result<(), VoiceError> {
        let velocity = check_velocity(velocity.into())?;
        self.room_for(1)?;
        self.now.listener_motion.give(velocity);
        self.voices.send(Command::SetListenerVelocity(velocity));
        Ok(())
    }

    pub(crate) fn set_listener_velocity_2d(
        &mut self,
        velocity: impl Into<mint::Vector2<f32>>,
    ) -> Result<(), VoiceError> {
        self.set_listener_velocity(crate::params::flat(velocity.into()))
    }

    /// At an update `dt` seconds after the last: the listener's derived
    /// velocity, sent if it changed (if the queue is full, at a later update).
    pub(super) fn move_listener(&mut self, dt: f64) {
        let motion = self.now.listener_motion;
        let teleport = self.rules.settings.teleport_speed;
        if self
            .now
            .listener_motion
            .step(self.now.listener, dt, teleport)
        {
            let velocity = self.now.listener_motion.velocity;
            if !self.voices.send(Command::SetListenerVelocity(velocity)) {
                self.now.listener_motion = motion;
            }
        }
    }

    pub(crate) fn set_obstruction(
        &mut self,
        voice: VoiceHandle,
        amount: f32,
    ) -> Result<(), VoiceError> {
        self.set_muffle(voice, Muffle::Obstruction, amount)
    }

    pub(crate) fn set_occlusion(
        &mut self,
        voice: VoiceHandle,
        amount: f32,
    ) -> Result<(), VoiceError> {
        self.set_muffle(voice, Muffle::Occlusion, amount)
    }

    fn set_muffle(
        &mut self,
        voice: VoiceHandle,
        which: Muffle,
        amount: f32,
    ) -> Result<(), VoiceError> {
        let key = self.live(voice)?;
        let amount = check_amount(amount)?;
        self.room_for(1)?;
        self.note(|_| {
            let call = match which {
                Muffle::Obstruction => VoiceCall::Obstruction(amount),
                Muffle::Occlusion => VoiceCall::Occlusion(amount),
            };
            Some(What::Voice {
                voice: Self::number_of_key(key),
                call,
            })
        });
        let Some(record) = self.voices.get_mut(key) else {
            return Ok(());
        };
        let Some(sound) = self.sounds.entry(record.sound) else {
            return Ok(());
        };
        let was = record.cues.muffled;
        let (obstruction, occlusion) = match which {
            Muffle::Obstruction => (amount, was.occlusion),
            Muffle::Occlusion => (was.obstruction, amount),
        };
        let curves = (&sound.settings.obstruction, &sound.settings.occlusion);
        let muffled = Muffled::new(obstruction, occlusion, curves);
        record.cues.muffled = muffled;
        let (gain, cutoff) = record.muffle();
        self.voices.tell(key, |slot, ticket| Command::SetMuffle {
            slot,
            ticket,
            gain,
            cutoff,
        });
        Ok(())
    }
}

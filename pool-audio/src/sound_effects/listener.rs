//! The listener positioned voices are heard from (see `spatial.rs`).

use super::SoundEffects;
use crate::bank::Command;
use crate::capture::{ListenerCall, What};
use crate::error::VoiceError;
use crate::params::{check_orientation, check_position};

impl SoundEffects {
    pub(crate) fn set_listener(
        &mut self,
        position: impl Into<mint::Vector3<f32>>,
    ) -> Result<(), VoiceError> {
        let position = check_position(position.into())?;
        self.room_for(1)?;
        self.voices.send(Command::SetListener(position));
        self.now.listener = position;
        self.note(|_| Some(What::Listener(ListenerCall::Position(position))));
        Ok(())
    }

    pub(crate) fn set_listener_2d(
        &mut self,
        position: impl Into<mint::Vector2<f32>>,
    ) -> Result<(), VoiceError> {
        self.set_listener(crate::params::flat(position.into()))
    }

    pub(crate) fn set_listener_orientation(
        &mut self,
        orientation: impl Into<mint::Quaternion<f32>>,
    ) -> Result<(), VoiceError> {
        let orientation = check_orientation(orientation.into())?;
        self.room_for(1)?;
        self.voices
            .send(Command::SetListenerOrientation(orientation));
        self.now.listener_orientation = Some(orientation);
        self.note(|_| Some(What::Listener(ListenerCall::Orientation(orientation))));
        Ok(())
    }
}

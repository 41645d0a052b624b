//! The voice bank as kira `SoundData`: played once on the sound-effects track,
//! it becomes the bank on the audio thread and its handle on the game thread.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use kira::sound::{Sound, SoundData};

use super::VoiceBank;
use super::command::Command;
use super::handle::BankHandle;
use super::shared::Shared;

/// What [`VoiceBank`] is built from.
pub(crate) struct BankBuilder {
    /// Voices: the voice cap, and as many on their way out.
    pub(crate) slots: usize,
    /// Commands the queue holds between two blocks of the mixer.
    pub(crate) commands: usize,
    /// How long a copy level ramps, and how long a resumed voice fades in.
    pub(crate) steal_fade: Duration,
    /// The speed of sound, m/s, for doppler.
    pub(crate) speed_of_sound: f32,
    /// The rings to the buses' taps (see `bus.rs`), out 1 first.
    pub(crate) outs: Vec<rtrb::Producer<kira::Frame>>,
    /// The gains side-chains set.
    pub(crate) gains: Arc<crate::bus::KeyedGains>,
}

impl SoundData for BankBuilder {
    type Error = Infallible;
    type Handle = BankHandle;

    fn into_sound(self) -> Result<(Box<dyn Sound>, BankHandle), Infallible> {
        let (producer, consumer) = rtrb::RingBuffer::<Command>::new(self.commands);
        let shared = Arc::new(Shared::new(self.slots));
        let bank = VoiceBank::new(
            consumer,
            shared.clone(),
            (self.steal_fade, f64::from(self.speed_of_sound)),
            super::Outs::new(self.outs),
            super::SideChains::new(self.gains),
        );
        Ok((Box::new(bank), BankHandle::new(producer, shared)))
    }
}

//! The voice bank as kira `SoundData`: played once on the sound-effects track,
//! it becomes the bank on the audio thread and its handle on the game thread.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use kira::sound::{Sound, SoundData};

use super::VoiceBank;
use super::command::Command;
use super::handle::{BankHandle, STARTS_PER_COLLECT};
use super::shared::Shared;
use super::source::Source;

/// What [`VoiceBank`] is built from.
pub(crate) struct BankBuilder {
    /// Voices: the voice cap, and as many on their way out.
    pub(crate) slots: usize,
    /// Commands the queue holds between two blocks of the mixer.
    pub(crate) commands: usize,
    /// How long a copy level ramps, and how long a resumed voice fades in.
    pub(crate) steal_fade: Duration,
}

impl SoundData for BankBuilder {
    type Error = Infallible;
    type Handle = BankHandle;

    fn into_sound(self) -> Result<(Box<dyn Sound>, BankHandle), Infallible> {
        let (producer, consumer) = rtrb::RingBuffer::<Command>::new(self.commands);
        // Every sound that can come back between two drains of this queue: one
        // per voice and one per start in the command queue at the first drain,
        // one start being applied, and the starts the game sends before the
        // next drain (it drains every `STARTS_PER_COLLECT` starts). So the mixer
        // can always hand a sound back.
        let capacity = self.slots + self.commands + STARTS_PER_COLLECT + 1;
        let (give_back, taken_back) = rtrb::RingBuffer::<Arc<Source>>::new(capacity);
        let shared = Arc::new(Shared::new(self.slots));
        let bank = VoiceBank::new(consumer, give_back, shared.clone(), self.steal_fade);
        Ok((
            Box::new(bank),
            BankHandle::new(producer, taken_back, shared),
        ))
    }
}

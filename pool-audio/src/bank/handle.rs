//! The game thread's side of the voice bank: the command queue's producer and
//! the slots' reports.

use std::sync::{Arc, Mutex};

use rtrb::Producer;

use super::command::Command;
use super::shared::{Shared, Status};

/// The command queue was full: the mixer has not read the commands sent since
/// its last block. Nothing was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct QueueFull;

/// Sends the bank its commands and reads its reports.
pub(crate) struct BankHandle {
    /// Only ever reached through `&mut self` (`Mutex::get_mut`, no locking): the
    /// mutex makes the handle `Sync` for free.
    commands: Mutex<Producer<Command>>,
    shared: Arc<Shared>,
}

impl BankHandle {
    pub(super) fn new(commands: Producer<Command>, shared: Arc<Shared>) -> Self {
        Self {
            commands: Mutex::new(commands),
            shared,
        }
    }

    fn producer(&mut self) -> &mut Producer<Command> {
        // A panic while the mutex was held cannot have left the queue half-written
        // (a push is one write), so a poisoned lock is as good as any.
        match self.commands.get_mut() {
            Ok(producer) => producer,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Commands that can be sent before the mixer reads the queue again.
    pub(crate) fn room(&mut self) -> usize {
        self.producer().slots()
    }

    /// Sends `command`, or gives it back untouched if the queue is full.
    pub(crate) fn send(&mut self, command: Command) -> Result<(), QueueFull> {
        self.producer().push(command).map_err(|_| QueueFull)
    }

    pub(crate) fn shared(&self) -> &Shared {
        &self.shared
    }

    pub(crate) fn status(&self, slot: u32) -> Status {
        self.shared.status(slot)
    }
}

impl Drop for BankHandle {
    fn drop(&mut self) {
        self.shared.close();
    }
}

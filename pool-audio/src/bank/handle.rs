//! The game thread's side of the voice bank: the command queue's producer, the
//! queue of sounds the mixer hands back, and the slots' reports.

use std::sync::{Arc, Mutex};

use rtrb::{Consumer, Producer};

use super::command::Command;
use super::shared::{Shared, Status};
use super::source::Source;

/// The command queue was full: the mixer has not read the commands sent since
/// its last block. Nothing was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct QueueFull;

/// Sends the bank its commands and reads its reports.
pub(crate) struct BankHandle {
    /// Only ever reached through `&mut self` (`Mutex::get_mut`, no locking): the
    /// mutex makes the handle `Sync` for free.
    commands: Mutex<Producer<Command>>,
    /// Sounds the mixer no longer plays: dropped here, on the game thread
    /// (the same `get_mut`-only mutex).
    returns: Mutex<Consumer<Arc<Source>>>,
    shared: Arc<Shared>,
}

impl BankHandle {
    pub(super) fn new(
        commands: Producer<Command>,
        returns: Consumer<Arc<Source>>,
        shared: Arc<Shared>,
    ) -> Self {
        Self {
            commands: Mutex::new(commands),
            returns: Mutex::new(returns),
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

    /// Sends `command`; nothing is sent if the queue is full (the command is
    /// dropped here, on the game thread). Before a start, the sounds the mixer
    /// handed back are dropped, which keeps their queue from filling (see
    /// `builder.rs`).
    pub(crate) fn send(&mut self, command: Command) -> Result<(), QueueFull> {
        if matches!(command, Command::Start(_)) {
            self.collect();
        }
        self.producer().push(command).map_err(|_| QueueFull)
    }

    /// Drops the sounds the mixer handed back: the last reference to a removed
    /// sound's samples is freed here, on the game thread.
    pub(crate) fn collect(&mut self) {
        let returns = match self.returns.get_mut() {
            Ok(returns) => returns,
            Err(poisoned) => poisoned.into_inner(),
        };
        while returns.pop().is_ok() {}
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

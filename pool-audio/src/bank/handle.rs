//! The game thread's side of the voice bank: the command queue's producer and
//! what the mixer reports.

use std::sync::{Arc, Mutex};

use rtrb::Producer;

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

    /// Sends `command`; nothing is sent if the queue is full (the command is
    /// dropped here, on the game thread).
    #[inline]
    pub(crate) fn send(&mut self, command: Command) -> Result<(), QueueFull> {
        self.producer().push(command).map_err(|_| QueueFull)
    }

    /// The mixer's reads of the command queue so far (see
    /// [`Shared::drains`]).
    pub(crate) fn drains(&self) -> u64 {
        self.shared.drains()
    }

    /// Keeps `sources` alive until the bank itself is dropped, which kira does
    /// on the game thread: whatever the mixer still plays when the game side
    /// goes, its last reference is never the mixer's.
    pub(crate) fn keep_until_dropped(&mut self, sources: impl Iterator<Item = Arc<Source>>) {
        self.shared.keep(sources);
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

//! The game thread's side of the voice bank: the command queue's producer, the
//! queue of sounds the mixer hands back, and the slots' reports.

use std::sync::{Arc, Mutex};

use rtrb::{Consumer, Producer};

use super::command::{Command, Start};
use super::shared::{Shared, Status};
use super::source::Source;

/// The command queue was full: the mixer has not read the commands sent since
/// its last block. Nothing was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct QueueFull;

/// Starts sent between two drains of the sounds the mixer hands back: a drain
/// every this many starts (and at every update) keeps the queue they come back
/// through from filling (see `builder.rs`) for the price of one check per play.
pub(crate) const STARTS_PER_COLLECT: usize = 64;

/// Sends the bank its commands and reads its reports.
pub(crate) struct BankHandle {
    /// Only ever reached through `&mut self` (`Mutex::get_mut`, no locking): the
    /// mutex makes the handle `Sync` for free.
    commands: Mutex<Producer<Command>>,
    /// Sounds the mixer no longer plays: dropped here, on the game thread
    /// (the same `get_mut`-only mutex).
    returns: Mutex<Consumer<Arc<Source>>>,
    /// Starts sent since the last drain of `returns`.
    starts: usize,
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
            starts: 0,
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
    /// dropped here, on the game thread). A start goes through
    /// [`send_start`](Self::send_start).
    #[inline]
    pub(crate) fn send(&mut self, command: Command) -> Result<(), QueueFull> {
        debug_assert!(
            !matches!(command, Command::Start(_)),
            "a start goes through send_start, which drains the mixer's returns"
        );
        self.producer().push(command).map_err(|_| QueueFull)
    }

    /// Sends a start, as [`send`](Self::send); every [`STARTS_PER_COLLECT`]
    /// starts, the sounds the mixer handed back are dropped first.
    #[inline]
    pub(crate) fn send_start(&mut self, start: Start) -> Result<(), QueueFull> {
        if self.starts >= STARTS_PER_COLLECT {
            self.collect();
        }
        self.starts += 1;
        self.producer()
            .push(Command::Start(start))
            .map_err(|_| QueueFull)
    }

    /// Drops the sounds the mixer handed back: the last reference to a removed
    /// sound's samples is freed here, on the game thread.
    pub(crate) fn collect(&mut self) {
        self.starts = 0;
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

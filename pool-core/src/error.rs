//! Typed errors: configuration errors at construction, refusals and stale handles at
//! run time. None of them carries heap data, so returning one never allocates.

use core::fmt;

/// A pool configuration that cannot work, returned by
/// [`PoolBuilder::build`](crate::PoolBuilder::build).
///
/// ```
/// use pool_core::{SettingsError, Pool};
///
/// let err = Pool::new(8, 4, || 0u32).unwrap_err();
/// assert_eq!(err, SettingsError::InitialExceedsMax { initial: 8, max_objects: 4 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SettingsError {
    /// `max_objects` is 0: such a pool could never hand out anything.
    ZeroMaxObjects,
    /// More objects would be created up front than may ever exist.
    InitialExceedsMax {
        /// The requested initial size.
        initial: usize,
        /// The requested cap.
        max_objects: usize,
    },
    /// `max_objects` is larger than a handle's 32-bit slot index can address.
    MaxObjectsTooLarge {
        /// The requested cap.
        max_objects: usize,
        /// The largest cap a pool accepts.
        limit: usize,
    },
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ZeroMaxObjects => f.write_str(
                "max_objects is 0: a pool must be allowed at least one object (did you forget .max_objects(n)?)",
            ),
            Self::InitialExceedsMax {
                initial,
                max_objects,
            } => write!(
                f,
                "initial size {initial} exceeds max_objects {max_objects}: a pool never holds more than max_objects objects"
            ),
            Self::MaxObjectsTooLarge { max_objects, limit } => write!(
                f,
                "max_objects {max_objects} exceeds the limit of {limit} objects per pool"
            ),
        }
    }
}

impl core::error::Error for SettingsError {}

/// Why [`Pool::try_acquire`](crate::Pool::try_acquire) handed out nothing.
///
/// ```
/// use pool_core::{AcquireError, Pool};
///
/// let mut pool: Pool<u32> = Pool::new(1, 1, || 0).unwrap();
/// let _only = pool.acquire();
/// assert_eq!(pool.try_acquire(), Err(AcquireError::Exhausted { max_objects: 1 }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum AcquireError {
    /// Every one of the pool's `max_objects` objects is live and the exhaustion
    /// policy refused to recycle one (the strict policy always refuses).
    Exhausted {
        /// The pool's cap.
        max_objects: usize,
    },
    /// A custom exhaustion policy named a victim that is not live in this pool. This
    /// is a bug in the policy; nothing was recycled.
    InvalidVictim,
}

impl fmt::Display for AcquireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Exhausted { max_objects } => write!(
                f,
                "all {max_objects} objects of the pool are live and its policy refused to recycle one"
            ),
            Self::InvalidVictim => f.write_str(
                "the pool's exhaustion policy chose a victim that is not a live object of this pool",
            ),
        }
    }
}

impl core::error::Error for AcquireError {}

/// A handle whose object is no longer live: released, recycled, cleared, or
/// reinitialized; or a handle of another pool.
///
/// A stale handle of this pool is always refused. Another pool's handle is
/// refused at compile time when each pool has its own handle type
/// ([`new_handle_type!`](crate::new_handle_type)); between pools that share a
/// handle type it is refused by its generation, which is probabilistic: each
/// pool counts generations from its own salt, so the same slot of two pools is
/// at generations far apart. Of any 1,000 pools made one after another, a
/// handle of one can name a live object of another only once that slot has
/// been handed out over 1.5 million times more in one pool than in the other;
/// between any two pools, a foreign handle matches by chance about once in
/// 2^31 (see the crate docs, "Handles and generations").
///
/// ```
/// use pool_core::{Pool, StaleHandle};
///
/// let mut pool: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
/// let handle = pool.acquire();
/// pool.release(handle).unwrap();
/// assert_eq!(pool.release(handle), Err(StaleHandle));
///
/// let mut other: Pool<u32> = Pool::new(0, 4, || 0).unwrap();
/// let foreign = other.acquire();
/// let _mine = pool.acquire(); // the same slot as `foreign`
/// assert_eq!(pool.release(foreign), Err(StaleHandle));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StaleHandle;

impl fmt::Display for StaleHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "stale handle: its object was released, recycled, cleared or reinitialized, or it is another pool's",
        )
    }
}

impl core::error::Error for StaleHandle {}

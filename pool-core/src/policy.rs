//! What a full pool does: the exhaustion policies.
//!
//! A pool consults its policy only when an object is requested, no object is idle
//! and `max_objects` objects are all live. The policy either names a live object to
//! recycle or refuses. Growth below the cap is not a policy decision: every pool
//! creates a new object when none is idle and fewer than `max_objects` exist.

use core::marker::PhantomData;

use slotmap::Key;

use crate::handle;
use crate::iter::Iter;
use crate::slot::{SENTINEL, Slot};

/// Decides what happens when a pool is full: which live object to recycle, or
/// `None` to refuse the request.
///
/// The pool is a type parameter over its policy, so the built-in policies cost
/// nothing until the pool is full, and a custom one is a plain struct.
///
/// # Writing a policy
/// `choose_victim` sees every live object with its handle, oldest first, and
/// returns the handle of the one to recycle. The pool then resets that object
/// through the release hook, makes its old handle stale and hands it out again.
/// Returning a handle that is not live makes the request fail with
/// [`AcquireError::InvalidVictim`](crate::AcquireError::InvalidVictim).
///
/// A policy that keeps the highest-priority objects alive and, among equals,
/// recycles the oldest:
///
/// ```
/// use pool_core::{ExhaustionPolicy, Key, LiveObjects, Pool};
///
/// struct Enemy { priority: u8 }
///
/// struct LowestPriority;
///
/// impl ExhaustionPolicy<Enemy> for LowestPriority {
///     fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, Enemy, K>) -> Option<K> {
///         // `min_by_key` keeps the first of equal minima, and iteration is oldest first.
///         live.iter().min_by_key(|(_, enemy)| enemy.priority).map(|(handle, _)| handle)
///     }
/// }
///
/// let mut pool = Pool::builder(|| Enemy { priority: 0 })
///     .max_objects(2)
///     .policy(LowestPriority)
///     .build()
///     .unwrap();
/// let boss = pool.acquire();
/// pool.get_mut(boss).unwrap().priority = 9;
/// let minion = pool.acquire();
/// let newcomer = pool.acquire(); // full: the minion is recycled, the boss stays
/// assert!(pool.contains(boss) && pool.contains(newcomer) && !pool.contains(minion));
/// ```
///
/// For a policy that only scores objects, [`RecycleLowest`] does the loop for you.
pub trait ExhaustionPolicy<T> {
    /// Returns the live object to recycle, or `None` to refuse the request.
    ///
    /// ```
    /// use pool_core::{ExhaustionPolicy, Handle, Pool, RecycleOldest};
    ///
    /// let mut pool = Pool::builder(|| 0u8).max_objects(2).policy(RecycleOldest).build().unwrap();
    /// let oldest: Handle = pool.acquire();
    /// let _newer = pool.acquire();
    /// // What the pool asks its policy when it is full:
    /// assert_eq!(pool.oldest(), Some(oldest));
    /// ```
    fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, T, K>) -> Option<K>;

    /// Whether the pool keeps its live objects in acquisition order (`true`
    /// unless a policy says otherwise). Keeping it costs an acquire four writes
    /// and a release two, in the slots of the neighbours in that order; it gives
    /// O(1) [`Pool::oldest`](crate::Pool::oldest), `newest` and `newer`,
    /// [`LiveObjects::oldest`] and `newest` for the policy, and iteration
    /// (`iter`, `for_each_mut`, `reclaim`, the policy's `LiveObjects::iter`)
    /// oldest first in O(live). A policy that never needs the oldest says
    /// `false`, as [`Strict`] does: then iteration visits the live objects by
    /// slot, in O(slots), as slotmap's does, and the pool has no `oldest`,
    /// `newest` or `newer` (they need [`KeepsOrder`], which such a policy does
    /// not implement).
    ///
    /// ```
    /// use pool_core::{ExhaustionPolicy, Pool, RecycleOldest, Strict};
    ///
    /// assert!(!<Strict as ExhaustionPolicy<u8>>::KEEPS_ORDER);
    /// assert!(<RecycleOldest as ExhaustionPolicy<u8>>::KEEPS_ORDER);
    /// let mut pool: Pool<u8, Strict> = Pool::new(0, 4, || 0).unwrap();
    /// let (first, second) = (pool.acquire(), pool.acquire());
    /// let by_slot: Vec<_> = pool.iter().map(|(handle, _)| handle).collect();
    /// assert_eq!(by_slot.len(), 2, "a strict pool visits by slot");
    /// assert!(by_slot.contains(&first) && by_slot.contains(&second));
    /// ```
    const KEEPS_ORDER: bool = true;
}

/// Marks a policy whose pool keeps its live objects in acquisition order, so
/// that the pool offers [`Pool::oldest`], [`Pool::newest`] and [`Pool::newer`].
/// [`RecycleOldest`], [`RecycleLowest`] and [`PolicyChoice`] implement it;
/// [`Strict`] does not (it keeps no order, [`ExhaustionPolicy::KEEPS_ORDER`]),
/// so those queries on a strict pool do not compile, where they would only
/// ever answer `None`. A policy of your own that keeps order (the default)
/// opts in with an empty `impl`; one that sets `KEEPS_ORDER` to `false` and
/// implements it anyway is refused when one of the queries is built (an error
/// of `cargo build`, which `cargo check` does not evaluate).
///
/// ```
/// use pool_core::{ExhaustionPolicy, KeepsOrder, Key, LiveObjects, Pool};
///
/// struct Newest;
/// impl<T> ExhaustionPolicy<T> for Newest {
///     fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, T, K>) -> Option<K> {
///         live.newest()
///     }
/// }
/// impl KeepsOrder for Newest {}
///
/// let mut pool = Pool::builder(|| 0u8).max_objects(2).policy(Newest).build().unwrap();
/// let first = pool.acquire();
/// assert_eq!(pool.oldest(), Some(first));
/// ```
///
/// A strict pool keeps no order, so it cannot be asked for its oldest object:
///
/// ```compile_fail,E0277
/// use pool_core::{Pool, Strict};
///
/// let mut pool: Pool<u8, Strict> = Pool::new(0, 4, || 0).unwrap();
/// let _first = pool.acquire();
/// let _ = pool.oldest(); // error: `Strict` keeps no acquisition order
/// ```
///
/// Nor can a policy that says it keeps none and claims the marker all the same:
///
/// ```compile_fail,E0080
/// use pool_core::{ExhaustionPolicy, KeepsOrder, Key, LiveObjects, Pool};
///
/// struct Confused;
/// impl<T> ExhaustionPolicy<T> for Confused {
///     const KEEPS_ORDER: bool = false;
///     fn choose_victim<K: Key>(&mut self, _: LiveObjects<'_, T, K>) -> Option<K> {
///         None
///     }
/// }
/// impl KeepsOrder for Confused {}
///
/// let pool = Pool::builder(|| 0u8).max_objects(2).policy(Confused).build().unwrap();
/// let _ = pool.newest(); // error: KEEPS_ORDER is false
/// ```
///
/// [`Pool::oldest`]: crate::Pool::oldest
/// [`Pool::newest`]: crate::Pool::newest
/// [`Pool::newer`]: crate::Pool::newer
#[diagnostic::on_unimplemented(
    message = "`{Self}` keeps no acquisition order: a pool with this policy has no oldest, newest or newer",
    label = "this pool's policy keeps no acquisition order",
    note = "`Strict` keeps none (ExhaustionPolicy::KEEPS_ORDER is false); `RecycleOldest`, `RecycleLowest` and `PolicyChoice` keep it, and a policy of your own that keeps it opts in with `impl KeepsOrder for YourPolicy {{}}`"
)]
pub trait KeepsOrder {}

impl KeepsOrder for RecycleOldest {}
impl<F> KeepsOrder for RecycleLowest<F> {}
impl KeepsOrder for PolicyChoice {}

/// What a policy that keeps no order is told when it asks its view for the
/// oldest or newest object.
const UNORDERED: &str = "LiveObjects::oldest or newest asked by a policy whose ExhaustionPolicy::KEEPS_ORDER is false: its pool keeps no acquisition order";

/// A read-only view of a full pool's live objects, given to
/// [`ExhaustionPolicy::choose_victim`].
///
/// ```
/// use pool_core::{ExhaustionPolicy, Key, LiveObjects, Pool};
///
/// struct Newest;
/// impl<T> ExhaustionPolicy<T> for Newest {
///     fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, T, K>) -> Option<K> {
///         live.newest()
///     }
/// }
///
/// let mut pool = Pool::builder(|| 0u32).max_objects(2).policy(Newest).build().unwrap();
/// let first = pool.acquire();
/// let second = pool.acquire();
/// let third = pool.acquire();
/// assert!(pool.contains(first) && !pool.contains(second) && pool.contains(third));
/// ```
pub struct LiveObjects<'a, T, K> {
    slots: &'a [Slot<T>],
    len: usize,
    /// Whether the pool keeps acquisition order (see `KEEPS_ORDER`).
    ordered: bool,
    _key: PhantomData<fn() -> K>,
}

// A view is two words; copying it lets a policy that wraps another look at the
// live objects again after asking the inner one.
impl<T, K> Clone for LiveObjects<'_, T, K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, K> Copy for LiveObjects<'_, T, K> {}

impl<'a, T, K: Key> LiveObjects<'a, T, K> {
    pub(crate) fn new(slots: &'a [Slot<T>], len: usize, ordered: bool) -> Self {
        Self {
            slots,
            len,
            ordered,
            _key: PhantomData,
        }
    }

    fn handle_at(&self, index: u32) -> Option<K> {
        if index == SENTINEL {
            return None;
        }
        let slot = self.slots.get(index as usize)?;
        Some(handle::make(index, slot.generation))
    }

    fn sentinel(&self) -> Option<&Slot<T>> {
        self.slots.get(SENTINEL as usize)
    }

    /// The live object acquired longest ago. O(1). For a policy that keeps
    /// acquisition order ([`ExhaustionPolicy::KEEPS_ORDER`], the default): one
    /// that sets it to `false` is given no order, and asking for the oldest is
    /// its own bug, caught by a debug assertion (in a release build, `None`).
    /// The view's type cannot refuse it at compile time, as [`Pool::oldest`]
    /// does: `choose_victim`'s signature is the same for every policy.
    ///
    /// [`Pool::oldest`]: crate::Pool::oldest
    ///
    /// ```
    /// # use pool_core::{ExhaustionPolicy, Key, LiveObjects};
    /// struct Oldest;
    /// impl<T> ExhaustionPolicy<T> for Oldest {
    ///     fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, T, K>) -> Option<K> {
    ///         live.oldest()
    ///     }
    /// }
    /// # use pool_core::Pool;
    /// let mut pool = Pool::builder(|| 0u8).max_objects(2).policy(Oldest).build().unwrap();
    /// let (first, second) = (pool.acquire(), pool.acquire());
    /// assert_eq!(pool.try_acquire_detailed().unwrap().recycled, Some(first));
    /// assert!(pool.contains(second));
    /// ```
    #[inline]
    #[track_caller]
    pub fn oldest(&self) -> Option<K> {
        debug_assert!(self.ordered, "{UNORDERED}");
        self.first_in_order()
    }

    /// The live object acquired most recently. O(1). For a policy that keeps
    /// acquisition order, as [`oldest`](Self::oldest) says.
    ///
    /// ```
    /// # use pool_core::{ExhaustionPolicy, Key, LiveObjects};
    /// struct Newest;
    /// impl<T> ExhaustionPolicy<T> for Newest {
    ///     fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, T, K>) -> Option<K> {
    ///         live.newest()
    ///     }
    /// }
    /// # use pool_core::Pool;
    /// let mut pool = Pool::builder(|| 0u8).max_objects(2).policy(Newest).build().unwrap();
    /// let (first, second) = (pool.acquire(), pool.acquire());
    /// assert_eq!(pool.try_acquire_detailed().unwrap().recycled, Some(second));
    /// assert!(pool.contains(first));
    /// ```
    #[inline]
    #[track_caller]
    pub fn newest(&self) -> Option<K> {
        debug_assert!(self.ordered, "{UNORDERED}");
        self.last_in_order()
    }

    /// The oldest live object, `None` where the pool keeps no order.
    #[inline]
    pub(crate) fn first_in_order(&self) -> Option<K> {
        if !self.ordered {
            return None;
        }
        self.handle_at(self.sentinel()?.next)
    }

    /// The newest live object, `None` where the pool keeps no order.
    #[inline]
    pub(crate) fn last_in_order(&self) -> Option<K> {
        if !self.ordered {
            return None;
        }
        self.handle_at(self.sentinel()?.prev)
    }

    /// The number of live objects (the pool's `max_objects` when a policy is asked).
    ///
    /// ```
    /// # use pool_core::{ExhaustionPolicy, Key, LiveObjects};
    /// struct RefuseUnlessMany;
    /// impl<T> ExhaustionPolicy<T> for RefuseUnlessMany {
    ///     fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, T, K>) -> Option<K> {
    ///         if live.len() >= 8 { live.oldest() } else { None }
    ///     }
    /// }
    /// # use pool_core::Pool;
    /// let mut small = Pool::builder(|| 0u8).max_objects(2).policy(RefuseUnlessMany).build().unwrap();
    /// let _ = (small.acquire(), small.acquire());
    /// assert!(small.try_acquire().is_err(), "2 live: refused");
    /// let mut big = Pool::builder(|| 0u8).max_objects(8).policy(RefuseUnlessMany).build().unwrap();
    /// for _ in 0..8 { let _ = big.acquire(); }
    /// assert!(big.try_acquire().is_ok(), "8 live: the oldest is recycled");
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` when no object is live (never the case when a policy is asked).
    ///
    /// ```
    /// # use pool_core::{ExhaustionPolicy, Key, LiveObjects};
    /// struct Careful;
    /// impl<T> ExhaustionPolicy<T> for Careful {
    ///     fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, T, K>) -> Option<K> {
    ///         if live.is_empty() { None } else { live.oldest() }
    ///     }
    /// }
    /// # use pool_core::Pool;
    /// let mut pool = Pool::builder(|| 0u8).max_objects(1).policy(Careful).build().unwrap();
    /// let first = pool.acquire();
    /// assert_eq!(pool.try_acquire_detailed().unwrap().recycled, Some(first));
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every live object with its handle, oldest first. O(live).
    ///
    /// ```
    /// # use pool_core::{ExhaustionPolicy, Key, LiveObjects};
    /// struct Loudest;
    /// impl ExhaustionPolicy<f32> for Loudest {
    ///     fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, f32, K>) -> Option<K> {
    ///         live.iter().max_by(|a, b| a.1.total_cmp(b.1)).map(|(handle, _)| handle)
    ///     }
    /// }
    /// # use pool_core::Pool;
    /// let mut voices = Pool::builder(|| 0.0f32).max_objects(3).policy(Loudest).build().unwrap();
    /// let volumes = [0.2, 0.9, 0.5];
    /// let handles: Vec<_> = volumes.iter().map(|v| { let (h, o) = voices.acquire_mut(); *o = *v; h }).collect();
    /// assert_eq!(voices.try_acquire_detailed().unwrap().recycled, Some(handles[1]));
    /// ```
    pub fn iter(&self) -> Iter<'a, T, K> {
        Iter::new(self.slots, self.len, self.ordered)
    }
}

/// Refuse: a full pool hands out nothing and `try_acquire` returns
/// [`AcquireError::Exhausted`](crate::AcquireError::Exhausted). A Unity sound
/// manager's strict pool ("limit concurrent sound effects; give up"). The default policy, because it
/// never takes an object away from code that holds it.
///
/// ```
/// use pool_core::{AcquireError, Pool, Strict};
///
/// let mut pool = Pool::builder(|| 0u32).max_objects(1).policy(Strict).build().unwrap();
/// let _only = pool.acquire();
/// assert!(matches!(pool.try_acquire(), Err(AcquireError::Exhausted { .. })));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Strict;

impl<T> ExhaustionPolicy<T> for Strict {
    /// A strict pool never asks for its oldest object: it keeps no order.
    const KEEPS_ORDER: bool = false;

    #[inline]
    fn choose_victim<K: Key>(&mut self, _live: LiveObjects<'_, T, K>) -> Option<K> {
        None
    }
}

/// FIFO-recycle: a full pool resets its oldest live object and hands it out again.
/// O(1). The FIFO pool of a Unity sound manager: the newest request always wins, and the object cut
/// off is the one that has been live the longest.
///
/// ```
/// use pool_core::{Pool, RecycleOldest};
///
/// let mut pool = Pool::builder(|| 0u32).max_objects(2).policy(RecycleOldest).build().unwrap();
/// let oldest = pool.acquire();
/// let younger = pool.acquire();
/// let newest = pool.acquire();
/// assert!(!pool.contains(oldest));
/// assert!(pool.contains(younger) && pool.contains(newest));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RecycleOldest;

impl<T> ExhaustionPolicy<T> for RecycleOldest {
    #[inline]
    fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, T, K>) -> Option<K> {
        live.oldest()
    }
}

/// Recycles the live object with the lowest score (quietest sound, furthest
/// emitter, lowest priority); among equal scores, the oldest. O(live). Scores that
/// do not compare (NaN) are never chosen; if no score compares, the request is
/// refused.
///
/// ```
/// use pool_core::{Pool, RecycleLowest};
///
/// struct Voice { volume: f32 }
///
/// let mut pool = Pool::builder(|| Voice { volume: 1.0 })
///     .max_objects(2)
///     .policy(RecycleLowest(|voice: &Voice| voice.volume))
///     .build()
///     .unwrap();
/// let loud = pool.acquire();
/// let quiet = pool.acquire();
/// pool.get_mut(quiet).unwrap().volume = 0.1;
/// let newcomer = pool.acquire(); // recycles the quiet voice
/// assert!(pool.contains(loud) && !pool.contains(quiet) && pool.contains(newcomer));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct RecycleLowest<F>(pub F);

impl<T, S, F> ExhaustionPolicy<T> for RecycleLowest<F>
where
    F: FnMut(&T) -> S,
    S: PartialOrd,
{
    fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, T, K>) -> Option<K> {
        let mut best: Option<(K, S)> = None;
        for (handle, object) in live.iter() {
            let score = (self.0)(object);
            let better = match &best {
                None => score.partial_cmp(&score).is_some(),
                Some((_, lowest)) => score < *lowest,
            };
            if better {
                best = Some((handle, score));
            }
        }
        best.map(|(handle, _)| handle)
    }
}

/// A policy chosen at run time, for registries whose pools share one type but not
/// one behaviour (see [`KeyedPool`](crate::KeyedPool)).
///
/// ```
/// use pool_core::{Pool, PolicyChoice};
///
/// let mut pool = Pool::builder(|| 0u32)
///     .max_objects(1)
///     .policy(PolicyChoice::RecycleOldest)
///     .build()
///     .unwrap();
/// let first = pool.acquire();
/// let second = pool.acquire();
/// assert!(!pool.contains(first) && pool.contains(second));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PolicyChoice {
    /// Behave as [`Strict`].
    #[default]
    Strict,
    /// Behave as [`RecycleOldest`].
    RecycleOldest,
}

impl<T> ExhaustionPolicy<T> for PolicyChoice {
    #[inline]
    fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, T, K>) -> Option<K> {
        match self {
            Self::Strict => None,
            Self::RecycleOldest => live.oldest(),
        }
    }
}

impl From<Strict> for PolicyChoice {
    fn from(_: Strict) -> Self {
        Self::Strict
    }
}

impl From<RecycleOldest> for PolicyChoice {
    fn from(_: RecycleOldest) -> Self {
        Self::RecycleOldest
    }
}

//! Pool configuration, validated once at construction.

use alloc::boxed::Box;
use core::marker::PhantomData;

use slotmap::Key;

use crate::error::SettingsError;
use crate::handle::Handle;
use crate::lifecycle::Hooks;
use crate::policy::{ExhaustionPolicy, Strict};
use crate::pool::Pool;
use crate::slot::NIL;

/// The largest `max_objects` a pool accepts: a handle's slot index is 32 bits and
/// `u32::MAX` is reserved for the null handle, and retired slots (see the crate
/// docs) need indices beyond the cap.
///
/// ```
/// use pool_core::{SettingsError, MAX_OBJECTS_LIMIT, Pool};
///
/// let too_many = Pool::new(0, MAX_OBJECTS_LIMIT + 1, || 0u8);
/// assert!(matches!(too_many, Err(SettingsError::MaxObjectsTooLarge { .. })));
/// ```
pub const MAX_OBJECTS_LIMIT: usize = (NIL / 2) as usize;

impl<T> Pool<T> {
    /// Starts configuring a pool whose objects `factory` creates.
    ///
    /// ```
    /// use pool_core::{Pool, RecycleOldest};
    ///
    /// let pool = Pool::builder(String::new).initial(4).max_objects(16).policy(RecycleOldest).build();
    /// assert!(pool.is_ok());
    /// ```
    pub fn builder(factory: impl FnMut() -> T + Send + Sync + 'static) -> PoolBuilder<T> {
        PoolBuilder::new(factory)
    }

    /// A strict pool with `initial` objects created now and at most `max_objects`.
    ///
    /// # Errors
    /// A [`SettingsError`] when `max_objects` is 0 or too large, or `initial > max_objects`.
    ///
    /// ```
    /// use pool_core::Pool;
    ///
    /// let pool = Pool::new(16, 64, || [0u8; 32]).unwrap();
    /// assert_eq!(pool.stats().idle, 16);
    /// assert!(Pool::new(0, 0, || 0u8).is_err());
    /// ```
    pub fn new(
        initial: usize,
        max_objects: usize,
        factory: impl FnMut() -> T + Send + Sync + 'static,
    ) -> Result<Self, SettingsError> {
        Self::builder(factory)
            .initial(initial)
            .max_objects(max_objects)
            .build()
    }
}

/// The cap a builder uses when [`PoolBuilder::max_objects`] is not called (or
/// `initial`, if that is larger): a pool is always bounded, and a bare
/// `Pool::builder(factory).build()` works.
///
/// ```
/// use pool_core::{DEFAULT_MAX_OBJECTS, Pool};
///
/// let pool = Pool::builder(|| 0u8).build().unwrap();
/// assert_eq!(pool.max_objects(), DEFAULT_MAX_OBJECTS);
/// let big = Pool::builder(|| 0u8).initial(5000).build().unwrap();
/// assert_eq!(big.max_objects(), 5000);
/// ```
pub const DEFAULT_MAX_OBJECTS: usize = 1024;

/// Configures a [`Pool`]: sizes, exhaustion policy, handle type and lifecycle hooks.
/// Made by [`Pool::builder`]; nothing is created until [`build`](Self::build).
///
/// ```
/// use pool_core::{Pool, RecycleOldest};
///
/// #[derive(Default)]
/// struct Bullet { x: f32, y: f32, alive_for: f32 }
///
/// let mut bullets = Pool::builder(Bullet::default)
///     .initial(64)          // created now, so the first volley does not allocate
///     .max_objects(256)     // never more than this many, live and idle together
///     .policy(RecycleOldest) // when all 256 fly, the oldest is reused
///     .on_release(|bullet| *bullet = Bullet::default())
///     .build()
///     .unwrap();
/// assert_eq!(bullets.stats().idle, 64);
/// ```
#[must_use = "a builder does nothing until `build` is called"]
pub struct PoolBuilder<T, P = Strict, K = Handle> {
    pub(crate) hooks: Hooks<T>,
    pub(crate) initial: usize,
    pub(crate) max_objects: Option<usize>,
    pub(crate) policy: P,
    pub(crate) _key: PhantomData<fn() -> K>,
}

impl<T> PoolBuilder<T> {
    pub(crate) fn new(factory: impl FnMut() -> T + Send + Sync + 'static) -> Self {
        Self {
            hooks: Hooks::new(Box::new(factory)),
            initial: 0,
            max_objects: None,
            policy: Strict,
            _key: PhantomData,
        }
    }
}

impl<T, P, K> PoolBuilder<T, P, K> {
    /// Objects created up front by [`build`](Self::build) (0 by default), and the
    /// size [`Pool::reinitialize`] returns to.
    ///
    /// ```
    /// # use pool_core::Pool;
    /// let pool = Pool::builder(|| 0u8).initial(3).max_objects(8).build().unwrap();
    /// assert_eq!(pool.stats().total, 3);
    /// ```
    pub fn initial(mut self, initial: usize) -> Self {
        self.initial = initial;
        self
    }

    /// The most objects that may ever exist at once, live and idle together (at
    /// least 1; [`DEFAULT_MAX_OBJECTS`] or `initial`, whichever is larger, when not
    /// called). Unlike Unity's `ObjectPool` `maxSize`, which only
    /// caps the idle objects kept, this bounds the pool's memory.
    ///
    /// ```
    /// # use pool_core::Pool;
    /// let pool = Pool::builder(|| 0u8).max_objects(8).build().unwrap();
    /// assert_eq!(pool.max_objects(), 8);
    /// ```
    pub fn max_objects(mut self, max_objects: usize) -> Self {
        self.max_objects = Some(max_objects);
        self
    }

    /// What the pool does when all `max_objects` objects are live (default
    /// [`Strict`]).
    ///
    /// ```
    /// # use pool_core::{Pool, RecycleOldest};
    /// let mut pool = Pool::builder(|| 0u8).max_objects(1).policy(RecycleOldest).build().unwrap();
    /// let first = pool.acquire();
    /// let second = pool.acquire(); // full: the oldest is recycled
    /// assert!(!pool.contains(first) && pool.contains(second));
    /// ```
    pub fn policy<Q>(self, policy: Q) -> PoolBuilder<T, Q, K> {
        self.map_policy(|_| policy)
    }

    /// The same configuration with the policy mapped and any handle type.
    fn map_policy<Q, L>(self, map: impl FnOnce(P) -> Q) -> PoolBuilder<T, Q, L> {
        PoolBuilder {
            hooks: self.hooks,
            initial: self.initial,
            max_objects: self.max_objects,
            policy: map(self.policy),
            _key: PhantomData,
        }
    }

    /// Uses handles of type `L` (made with [`new_handle_type!`](crate::new_handle_type))
    /// so this pool's handles cannot be passed to another pool by mistake.
    ///
    /// ```
    /// use pool_core::{new_handle_type, Pool};
    ///
    /// new_handle_type! { struct BulletHandle; }
    ///
    /// let mut pool = Pool::builder(|| 0u8).max_objects(8).handle::<BulletHandle>().build().unwrap();
    /// let bullet: BulletHandle = pool.acquire();
    /// assert!(pool.contains(bullet));
    /// ```
    pub fn handle<L>(self) -> PoolBuilder<T, P, L> {
        self.map_policy(|policy| policy)
    }

    /// Runs on an object each time it is handed out (Unity's `actionOnGet`).
    ///
    /// ```
    /// # use pool_core::Pool;
    /// let mut pool = Pool::builder(|| (false, 0u8))
    ///     .max_objects(8)
    ///     .on_acquire(|object| object.0 = true)
    ///     .build()
    ///     .unwrap();
    /// let handle = pool.acquire();
    /// assert!(pool.get(handle).unwrap().0);
    /// ```
    pub fn on_acquire(mut self, hook: impl FnMut(&mut T) + Send + Sync + 'static) -> Self {
        self.hooks.on_acquire = Some(Box::new(hook));
        self
    }

    /// Runs on an object each time it stops being live: released, reclaimed,
    /// recycled or reinitialized. This is where an object is reset for its next user.
    ///
    /// ```
    /// # use pool_core::Pool;
    /// let mut pool = Pool::builder(|| 0u32)
    ///     .initial(1)
    ///     .max_objects(1)
    ///     .on_release(|object| *object = 0)
    ///     .build()
    ///     .unwrap();
    /// let handle = pool.acquire();
    /// *pool.get_mut(handle).unwrap() = 7;
    /// pool.release(handle).unwrap();
    /// let again = pool.acquire();
    /// assert_eq!(pool.get(again), Some(&0));
    /// ```
    pub fn on_release(mut self, hook: impl FnMut(&mut T) + Send + Sync + 'static) -> Self {
        self.hooks.on_release = Some(Box::new(hook));
        self
    }

    /// Receives each object the pool drops: trimmed, cleared, reinitialized away,
    /// or still held when the pool itself is dropped.
    ///
    /// ```
    /// # use pool_core::Pool;
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use std::sync::Arc;
    ///
    /// let destroyed = Arc::new(AtomicUsize::new(0));
    /// let counter = destroyed.clone();
    /// let mut pool = Pool::builder(|| 0u8)
    ///     .initial(4)
    ///     .max_objects(4)
    ///     .on_destroy(move |_| { counter.fetch_add(1, Ordering::Relaxed); })
    ///     .build()
    ///     .unwrap();
    /// pool.trim_idle(1);
    /// assert_eq!(destroyed.load(Ordering::Relaxed), 3);
    /// ```
    pub fn on_destroy(mut self, hook: impl FnMut(T) + Send + Sync + 'static) -> Self {
        self.hooks.on_destroy = Some(Box::new(hook));
        self
    }

    pub(crate) fn convert_policy<Q>(self) -> PoolBuilder<T, Q, K>
    where
        P: Into<Q>,
    {
        self.map_policy(Into::into)
    }

    /// The cap: as set, or the default (at least `initial`).
    fn cap(&self) -> usize {
        self.max_objects
            .unwrap_or(DEFAULT_MAX_OBJECTS.max(self.initial))
    }

    fn validate(&self) -> Result<(), SettingsError> {
        let max_objects = self.cap();
        if max_objects == 0 {
            return Err(SettingsError::ZeroMaxObjects);
        }
        if max_objects > MAX_OBJECTS_LIMIT {
            return Err(SettingsError::MaxObjectsTooLarge {
                max_objects,
                limit: MAX_OBJECTS_LIMIT,
            });
        }
        if self.initial > max_objects {
            return Err(SettingsError::InitialExceedsMax {
                initial: self.initial,
                max_objects,
            });
        }
        Ok(())
    }
}

impl<T, P: ExhaustionPolicy<T>, K: Key> PoolBuilder<T, P, K> {
    /// Validates the configuration and creates the pool with its `initial` objects.
    ///
    /// # Errors
    /// A [`SettingsError`] when `max_objects` is 0 or too large, or `initial` exceeds it.
    ///
    /// ```
    /// # use pool_core::{SettingsError, Pool};
    /// assert!(Pool::builder(|| 0u8).build().is_ok());
    /// assert_eq!(Pool::builder(|| 0u8).max_objects(0).build().unwrap_err(), SettingsError::ZeroMaxObjects);
    /// ```
    pub fn build(self) -> Result<Pool<T, P, K>, SettingsError> {
        let mut pool = self.build_lazy()?;
        pool.prewarm();
        Ok(pool)
    }

    /// Like [`build`](Self::build) but creates no object yet: spread the initial
    /// objects over frames with [`Pool::prewarm_step`] (creating a thousand objects in
    /// one frame is a frame spike). Until then, `acquire` creates objects on demand.
    ///
    /// # Errors
    /// The same as [`build`](Self::build).
    ///
    /// ```
    /// # use pool_core::Pool;
    /// let mut pool = Pool::builder(|| 0u8).initial(1000).max_objects(1000).build_lazy().unwrap();
    /// assert_eq!(pool.stats().total, 0);
    /// while pool.prewarm_step(250) > 0 { /* next frame */ }
    /// assert_eq!(pool.stats().total, 1000);
    /// ```
    pub fn build_lazy(self) -> Result<Pool<T, P, K>, SettingsError> {
        self.validate()?;
        let max_objects = self.cap();
        Ok(Pool::from_parts(
            self.hooks,
            self.initial,
            max_objects,
            self.policy,
        ))
    }
}

//! Many pools addressed by kind, as an effect registry maps an effect's name to its
//! pool. A name is resolved once, when the kind is added, to a small [`KindId`];
//! hot paths index a `Vec` with it and never hash a string.

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::sync::atomic::{AtomicU32, Ordering};

use slotmap::Key;

use crate::error::{AcquireError, StaleHandle};
use crate::handle::Handle;
use crate::policy::{ExhaustionPolicy, PolicyChoice};
use crate::pool::Pool;
use crate::stats::PoolStats;

/// The most kinds one [`KeyedPool`] holds: a kind's index takes 16 bits of its
/// [`KindId`].
pub const MAX_KINDS: usize = 1 << 16;

/// An added kind of a [`KeyedPool`]: 4 bytes, `Copy`, cheap to pass. It holds
/// the kind's index and a tag of the `KeyedPool` that issued it, so another
/// `KeyedPool` refuses it (as an unknown kind) instead of acting on its own kind of
/// the same index. The tag is a 16-bit count of `KeyedPool`s created in the
/// process, so it tells apart any two of the last 65 536.
///
/// ```
/// use pool_core::{KeyedPool, Pool};
///
/// let mut pools: KeyedPool<u32> = KeyedPool::new();
/// let spark = pools.add_kind("spark", Pool::builder(|| 0).max_objects(8))?;
/// assert_eq!(pools.kind("spark"), Some(spark));
///
/// let mut others: KeyedPool<u32> = KeyedPool::new();
/// others.add_kind("smoke", Pool::builder(|| 0).max_objects(8))?;
/// assert!(others.pool(spark).is_none(), "same index, another registry");
/// assert_eq!(std::mem::size_of::<pool_core::KindId>(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KindId(u32);

impl KindId {
    fn new(owner: u16, index: usize) -> Self {
        Self((u32::from(owner) << 16) | index as u32)
    }

    /// The kind's position in registration order (0, 1, 2, ...): use it to index
    /// your own per-kind tables.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// let first = pools.add_kind("a", Pool::builder(|| 0).max_objects(1)).unwrap();
    /// assert_eq!(first.index(), 0);
    /// ```
    pub fn index(self) -> usize {
        (self.0 & 0xffff) as usize
    }

    fn owner(self) -> u16 {
        (self.0 >> 16) as u16
    }
}

/// A tag for a new `KeyedPool`.
fn next_owner() -> u16 {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed) as u16
}

/// A handle into a [`KeyedPool`]: the object's kind and its handle in that kind's
/// pool. 12 bytes with the default handle type. Its kind knows its `KeyedPool`, so
/// another one refuses it.
///
/// ```
/// # use pool_core::{KeyedPool, Pool};
/// let mut pools: KeyedPool<u32> = KeyedPool::new();
/// let smoke = pools.add_kind("smoke", Pool::builder(|| 0).max_objects(4)).unwrap();
/// let puff = pools.acquire(smoke);
/// assert_eq!(puff.kind(), smoke);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KindHandle<K = Handle> {
    kind: KindId,
    handle: K,
}

impl<K: Copy> KindHandle<K> {
    /// Pairs a kind with a handle from that kind's pool (obtained through
    /// [`KeyedPool::pool_mut`]), for code that acquires from the pool directly. Pair
    /// a handle only with the kind whose pool issued it: like a handle passed to the
    /// wrong pool, a mismatched pair is refused by its generation, which each
    /// kind's pool counts from its own salt (probabilistic: see [`StaleHandle`]).
    ///
    /// ```
    /// # use pool_core::{KeyedPool, KindHandle, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// let smoke = pools.add_kind("smoke", Pool::builder(|| 0).max_objects(4)).unwrap();
    /// let (handle, puff) = pools.pool_mut(smoke).unwrap().acquire_mut();
    /// *puff = 3;
    /// assert_eq!(pools.get(KindHandle::new(smoke, handle)), Some(&3));
    /// ```
    pub fn new(kind: KindId, handle: K) -> Self {
        Self { kind, handle }
    }

    /// The kind the object belongs to.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// # let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// # let smoke = pools.add_kind("smoke", Pool::builder(|| 0).max_objects(4)).unwrap();
    /// assert_eq!(pools.acquire(smoke).kind(), smoke);
    /// ```
    pub fn kind(&self) -> KindId {
        self.kind
    }

    /// The object's handle in its kind's pool.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// # let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// # let smoke = pools.add_kind("smoke", Pool::builder(|| 0).max_objects(4)).unwrap();
    /// let puff = pools.acquire(smoke);
    /// assert!(pools.pool(smoke).unwrap().contains(puff.handle()));
    /// ```
    pub fn handle(&self) -> K {
        self.handle
    }
}

/// Why a [`KeyedPool`] request failed.
///
/// ```
/// use pool_core::{KeyedError, KeyedPool, Pool};
///
/// let mut pools: KeyedPool<u32> = KeyedPool::new();
/// let a = pools.add_kind("a", Pool::builder(|| 0).max_objects(1)).unwrap();
/// let _only = pools.acquire(a);
/// assert!(matches!(pools.try_acquire(a), Err(KeyedError::Acquire(_))));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyedError {
    /// The kind id was not issued by this registry (another `KeyedPool`'s ids
    /// included).
    UnknownKind(KindId),
    /// The kind's pool refused the request.
    Acquire(AcquireError),
    /// The handle's object is no longer live.
    Stale(StaleHandle),
}

impl fmt::Display for KeyedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownKind(kind) => {
                write!(f, "kind #{} is not added in this pool set", kind.index())
            }
            Self::Acquire(error) => error.fmt(f),
            Self::Stale(error) => error.fmt(f),
        }
    }
}

impl core::error::Error for KeyedError {}

impl From<StaleHandle> for KeyedError {
    fn from(error: StaleHandle) -> Self {
        Self::Stale(error)
    }
}

/// Why [`KeyedPool::add_kind`] refused a kind.
///
/// ```
/// use pool_core::{KeyedPool, Pool, AddKindError};
///
/// let mut pools: KeyedPool<u32> = KeyedPool::new();
/// pools.add_kind("a", Pool::builder(|| 0).max_objects(1)).unwrap();
/// let err = pools.add_kind("a", Pool::builder(|| 0).max_objects(1)).unwrap_err();
/// assert!(matches!(err, AddKindError::DuplicateName(name) if name == "a"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AddKindError {
    /// A kind of that name is already added.
    DuplicateName(String),
    /// The kind's pool configuration is invalid.
    Settings(crate::SettingsError),
    /// The registry holds [`MAX_KINDS`] (65,536) kinds already.
    TooManyKinds,
}

impl fmt::Display for AddKindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DuplicateName(name) => write!(f, "a kind named {name:?} is already added"),
            Self::Settings(error) => error.fmt(f),
            Self::TooManyKinds => write!(f, "a registry holds at most {MAX_KINDS} kinds"),
        }
    }
}

impl core::error::Error for AddKindError {}

/// Pools addressed by kind, each with its own configuration: an effect registry
/// (effect name -> pool of that effect's objects).
///
/// All kinds share the object type `T` and the policy type `P`; the default
/// [`PolicyChoice`] lets each kind pick strict or recycle-oldest at run time.
/// Beside each kind's pool the registry keeps a `D` of your own (default `()`):
/// the state a layer over the pools needs with the pool, found by the same
/// lookup (see [`add_kind_with`](Self::add_kind_with)).
///
/// ```
/// use pool_core::{KeyedPool, Pool, PolicyChoice};
///
/// #[derive(Default)]
/// struct Effect { frame: u32 }
///
/// let mut effects: KeyedPool<Effect> = KeyedPool::new();
/// let explosion = effects.add_kind(
///     "explosion",
///     Pool::builder(Effect::default).initial(100).max_objects(100).policy(PolicyChoice::RecycleOldest),
/// )?;
/// // Every frame: ids only, no string hashing.
/// let boom = effects.acquire(explosion);
/// effects.get_mut(boom).unwrap().frame += 1;
/// assert_eq!(effects.reclaim(|_kind, _handle, effect| effect.frame >= 12), 0);
/// assert!(effects.contains(boom));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct KeyedPool<T, P = PolicyChoice, K = Handle, D = ()> {
    /// Each kind's pool and data, by the kind's index.
    entries: Vec<(Pool<T, P, K>, D)>,
    names: Vec<String>,
    ids: BTreeMap<String, KindId>,
    /// The tag in every `KindId` this registry issues.
    owner: u16,
}

impl<T, P, K, D> Default for KeyedPool<T, P, K, D> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
            names: Vec::new(),
            ids: BTreeMap::new(),
            owner: next_owner(),
        }
    }
}

impl<T, P: ExhaustionPolicy<T>, K: Key, D> KeyedPool<T, P, K, D> {
    /// An empty registry.
    ///
    /// ```
    /// # use pool_core::KeyedPool;
    /// let pools: KeyedPool<u32> = KeyedPool::new();
    /// assert_eq!(pools.len(), 0);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a kind named `name` with its own pool configuration, builds (and
    /// prewarms) its pool, and returns its id. The builder's policy converts into the
    /// registry's (`Strict` and `RecycleOldest` into [`PolicyChoice`]).
    ///
    /// # Errors
    /// [`AddKindError::DuplicateName`] if the name is taken,
    /// [`AddKindError::Settings`] if the configuration is invalid; nothing is
    /// added then.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// let id = pools.add_kind("bullet", Pool::builder(|| 0).initial(10).max_objects(50))?;
    /// assert_eq!(pools.pool(id).unwrap().stats().idle, 10);
    /// # Ok::<(), pool_core::AddKindError>(())
    /// ```
    pub fn add_kind<Q: Into<P>>(
        &mut self,
        name: &str,
        pool: crate::PoolBuilder<T, Q, K>,
    ) -> Result<KindId, AddKindError>
    where
        D: Default,
    {
        self.insert(name, pool, D::default(), true)
    }

    /// Like [`add_kind`](Self::add_kind), with `data` kept beside the kind's
    /// pool: [`with_data_mut`](Self::with_data_mut) then finds both at once, as
    /// an effect registry finds a kind's pool and its clocks in one lookup.
    ///
    /// # Errors
    /// The same as [`add_kind`](Self::add_kind); `data` is dropped then.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool, PolicyChoice, Handle};
    /// // Each kind of sound keeps its volume beside its pool of voices.
    /// let mut sounds: KeyedPool<u32, PolicyChoice, Handle, f32> = KeyedPool::new();
    /// let shot = sounds.add_kind_with("shot", Pool::builder(|| 0).max_objects(4), 0.5)?;
    /// let (voices, volume) = sounds.with_data_mut(shot).unwrap();
    /// let voice = voices.acquire();
    /// *volume *= 2.0;
    /// assert!(voices.contains(voice));
    /// assert_eq!(sounds.with_data(shot).map(|(_, volume)| *volume), Some(1.0));
    /// # Ok::<(), pool_core::AddKindError>(())
    /// ```
    pub fn add_kind_with<Q: Into<P>>(
        &mut self,
        name: &str,
        pool: crate::PoolBuilder<T, Q, K>,
        data: D,
    ) -> Result<KindId, AddKindError> {
        self.insert(name, pool, data, true)
    }

    /// Like [`add_kind`](Self::add_kind) but creates no object yet: prewarm later
    /// in steps with [`prewarm_step`](Self::prewarm_step).
    ///
    /// # Errors
    /// The same as [`add_kind`](Self::add_kind).
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// let id = pools.add_kind_lazy("bullet", Pool::builder(|| 0).initial(10).max_objects(50))?;
    /// assert_eq!(pools.pool(id).unwrap().stats().total, 0);
    /// # Ok::<(), pool_core::AddKindError>(())
    /// ```
    pub fn add_kind_lazy<Q: Into<P>>(
        &mut self,
        name: &str,
        pool: crate::PoolBuilder<T, Q, K>,
    ) -> Result<KindId, AddKindError>
    where
        D: Default,
    {
        self.insert(name, pool, D::default(), false)
    }

    /// Like [`add_kind_with`](Self::add_kind_with) but creates no object yet,
    /// as [`add_kind_lazy`](Self::add_kind_lazy).
    ///
    /// # Errors
    /// The same as [`add_kind`](Self::add_kind); `data` is dropped then.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool, PolicyChoice, Handle};
    /// let mut sounds: KeyedPool<u32, PolicyChoice, Handle, &str> = KeyedPool::new();
    /// let shot = sounds.add_kind_lazy_with("shot", Pool::builder(|| 0).initial(8).max_objects(8), "shot.wav")?;
    /// let (voices, file) = sounds.with_data(shot).unwrap();
    /// assert_eq!((voices.stats().total, *file), (0, "shot.wav"));
    /// # Ok::<(), pool_core::AddKindError>(())
    /// ```
    pub fn add_kind_lazy_with<Q: Into<P>>(
        &mut self,
        name: &str,
        pool: crate::PoolBuilder<T, Q, K>,
        data: D,
    ) -> Result<KindId, AddKindError> {
        self.insert(name, pool, data, false)
    }

    fn insert<Q: Into<P>>(
        &mut self,
        name: &str,
        pool: crate::PoolBuilder<T, Q, K>,
        data: D,
        prewarm: bool,
    ) -> Result<KindId, AddKindError> {
        let pool = pool.convert_policy::<P>();
        if self.ids.contains_key(name) {
            return Err(AddKindError::DuplicateName(name.to_string()));
        }
        if self.entries.len() >= MAX_KINDS {
            return Err(AddKindError::TooManyKinds);
        }
        let id = KindId::new(self.owner, self.entries.len());
        let pool = if prewarm {
            pool.build()
        } else {
            pool.build_lazy()
        }
        .map_err(AddKindError::Settings)?;
        self.entries.push((pool, data));
        self.names.push(name.to_string());
        self.ids.insert(name.to_string(), id);
        Ok(id)
    }

    /// The id of the kind named `name`. O(log kinds): resolve once, keep the id.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// pools.add_kind("a", Pool::builder(|| 0).max_objects(1)).unwrap();
    /// assert!(pools.kind("a").is_some());
    /// assert_eq!(pools.kind("b"), None);
    /// ```
    pub fn kind(&self, name: &str) -> Option<KindId> {
        self.ids.get(name).copied()
    }

    /// The name a kind was added with.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// let a = pools.add_kind("a", Pool::builder(|| 0).max_objects(1)).unwrap();
    /// assert_eq!(pools.name(a), Some("a"));
    /// ```
    pub fn name(&self, kind: KindId) -> Option<&str> {
        self.names.get(self.slot(kind)?).map(String::as_str)
    }

    /// `kind`'s index here, if this registry issued it.
    #[inline]
    fn slot(&self, kind: KindId) -> Option<usize> {
        (kind.owner() == self.owner).then_some(kind.index())
    }

    /// `true` if `kind` is one of this registry's kinds (a kind of another
    /// registry is not, even at the same index).
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// let spark = pools.add_kind("spark", Pool::builder(|| 0).max_objects(8))?;
    /// assert!(pools.contains_kind(spark));
    /// assert!(!KeyedPool::<u32>::new().contains_kind(spark));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn contains_kind(&self, kind: KindId) -> bool {
        self.slot(kind)
            .is_some_and(|index| index < self.entries.len())
    }

    /// The number of added kinds.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// pools.add_kind("a", Pool::builder(|| 0).max_objects(1)).unwrap();
    /// assert_eq!(pools.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// `true` when no kind is added.
    ///
    /// ```
    /// # use pool_core::KeyedPool;
    /// assert!(KeyedPool::<u32>::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every kind's id in registration order.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// let a = pools.add_kind("a", Pool::builder(|| 0).max_objects(1)).unwrap();
    /// let b = pools.add_kind("b", Pool::builder(|| 0).max_objects(1)).unwrap();
    /// assert!(pools.kinds().eq([a, b]));
    /// ```
    pub fn kinds(&self) -> impl ExactSizeIterator<Item = KindId> + use<T, P, K, D> {
        let owner = self.owner;
        (0..self.entries.len()).map(move |index| KindId::new(owner, index))
    }

    /// The pool of one kind: its stats, iteration, reinitialize, clear (destroying a
    /// kind's objects is `pool_mut(kind).clear()`).
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// let a = pools.add_kind("a", Pool::builder(|| 0).initial(3).max_objects(3)).unwrap();
    /// assert_eq!(pools.pool(a).unwrap().stats().idle, 3);
    /// ```
    pub fn pool(&self, kind: KindId) -> Option<&Pool<T, P, K>> {
        self.with_data(kind).map(|(pool, _)| pool)
    }

    /// The pool of one kind, mutably.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// let a = pools.add_kind("a", Pool::builder(|| 0).initial(3).max_objects(3)).unwrap();
    /// pools.pool_mut(a).unwrap().clear();
    /// assert_eq!(pools.pool(a).unwrap().stats().total, 0);
    /// ```
    pub fn pool_mut(&mut self, kind: KindId) -> Option<&mut Pool<T, P, K>> {
        self.with_data_mut(kind).map(|(pool, _)| pool)
    }

    /// The pool of one kind and the data kept beside it (see
    /// [`add_kind_with`](Self::add_kind_with)).
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool, PolicyChoice, Handle};
    /// let mut pools: KeyedPool<u32, PolicyChoice, Handle, &str> = KeyedPool::new();
    /// let a = pools.add_kind_with("a", Pool::builder(|| 0).initial(2).max_objects(2), "first")?;
    /// let (pool, data) = pools.with_data(a).unwrap();
    /// assert_eq!((pool.stats().idle, *data), (2, "first"));
    /// assert!(KeyedPool::<u32, PolicyChoice, Handle, &str>::new().with_data(a).is_none());
    /// # Ok::<(), pool_core::AddKindError>(())
    /// ```
    #[inline]
    pub fn with_data(&self, kind: KindId) -> Option<(&Pool<T, P, K>, &D)> {
        let (pool, data) = self.entries.get(self.slot(kind)?)?;
        Some((pool, data))
    }

    /// The pool of one kind and the data kept beside it, both mutably, from
    /// one lookup.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool, PolicyChoice, Handle};
    /// let mut pools: KeyedPool<u32, PolicyChoice, Handle, u32> = KeyedPool::new();
    /// let a = pools.add_kind("a", Pool::builder(|| 0).max_objects(2))?;
    /// let (pool, acquired) = pools.with_data_mut(a).unwrap();
    /// let _object = pool.acquire();
    /// *acquired += 1;
    /// assert_eq!(pools.with_data(a).map(|(_, n)| *n), Some(1));
    /// # Ok::<(), pool_core::AddKindError>(())
    /// ```
    #[inline]
    pub fn with_data_mut(&mut self, kind: KindId) -> Option<(&mut Pool<T, P, K>, &mut D)> {
        let slot = self.slot(kind)?;
        let (pool, data) = self.entries.get_mut(slot)?;
        Some((pool, data))
    }

    /// Every kind with its pool, in registration order.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// pools.add_kind("a", Pool::builder(|| 0).initial(2).max_objects(2)).unwrap();
    /// let idle: usize = pools.iter().map(|(_, pool)| pool.stats().idle).sum();
    /// assert_eq!(idle, 2);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (KindId, &Pool<T, P, K>)> {
        self.iter_with_data().map(|(kind, pool, _)| (kind, pool))
    }

    /// Every kind with its pool and its data, in registration order.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool, PolicyChoice, Handle};
    /// let mut pools: KeyedPool<u32, PolicyChoice, Handle, u8> = KeyedPool::new();
    /// pools.add_kind_with("a", Pool::builder(|| 0).max_objects(1), 3)?;
    /// pools.add_kind_with("b", Pool::builder(|| 0).max_objects(1), 4)?;
    /// assert_eq!(pools.iter_with_data().map(|(_, _, n)| *n).sum::<u8>(), 7);
    /// # Ok::<(), pool_core::AddKindError>(())
    /// ```
    pub fn iter_with_data(&self) -> impl ExactSizeIterator<Item = (KindId, &Pool<T, P, K>, &D)> {
        let owner = self.owner;
        self.entries
            .iter()
            .enumerate()
            .map(move |(index, (pool, data))| (KindId::new(owner, index), pool, data))
    }

    /// Every kind with its pool, mutably, in registration order: reinitialize or
    /// clear them all, or update them kind by kind.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// pools.add_kind("a", Pool::builder(|| 0).initial(2).max_objects(2)).unwrap();
    /// for (_, pool) in pools.iter_mut() {
    ///     pool.clear();
    /// }
    /// assert_eq!(pools.iter().map(|(_, pool)| pool.stats().total).sum::<usize>(), 0);
    /// ```
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = (KindId, &mut Pool<T, P, K>)> {
        self.iter_with_data_mut()
            .map(|(kind, pool, _)| (kind, pool))
    }

    /// Every kind with its pool and its data, mutably, in registration order.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool, PolicyChoice, Handle};
    /// let mut pools: KeyedPool<u32, PolicyChoice, Handle, usize> = KeyedPool::new();
    /// pools.add_kind("a", Pool::builder(|| 0).initial(2).max_objects(2))?;
    /// for (_, pool, cleared) in pools.iter_with_data_mut() {
    ///     *cleared += pool.clear_idle();
    /// }
    /// assert_eq!(pools.iter_with_data().map(|(_, _, n)| *n).sum::<usize>(), 2);
    /// # Ok::<(), pool_core::AddKindError>(())
    /// ```
    pub fn iter_with_data_mut(
        &mut self,
    ) -> impl ExactSizeIterator<Item = (KindId, &mut Pool<T, P, K>, &mut D)> {
        let owner = self.owner;
        self.entries
            .iter_mut()
            .enumerate()
            .map(move |(index, (pool, data))| (KindId::new(owner, index), pool, data))
    }

    /// Takes an object of `kind` from its pool, as [`Pool::try_acquire`] does.
    ///
    /// # Errors
    /// [`KeyedError::UnknownKind`] for an id this registry did not issue,
    /// [`KeyedError::Acquire`] when the kind's pool refuses.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// let a = pools.add_kind("a", Pool::builder(|| 0).max_objects(1)).unwrap();
    /// assert!(pools.try_acquire(a).is_ok());
    /// assert!(pools.try_acquire(a).is_err());
    /// ```
    pub fn try_acquire(&mut self, kind: KindId) -> Result<KindHandle<K>, KeyedError> {
        let pool = self.pool_mut(kind).ok_or(KeyedError::UnknownKind(kind))?;
        let handle = pool.try_acquire().map_err(KeyedError::Acquire)?;
        Ok(KindHandle { kind, handle })
    }

    /// Like [`try_acquire`](Self::try_acquire).
    ///
    /// # Panics
    /// When [`try_acquire`](Self::try_acquire) would return an error.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// let a = pools.add_kind("a", Pool::builder(|| 0).max_objects(1)).unwrap();
    /// let object = pools.acquire(a);
    /// assert_eq!(object.kind(), a);
    /// assert!(pools.contains(object));
    /// ```
    #[track_caller]
    #[must_use = "a handle is the only way to release its object: dropping it leaks the object until `clear` or `reclaim`"]
    pub fn acquire(&mut self, kind: KindId) -> KindHandle<K> {
        match self.try_acquire(kind) {
            Ok(handle) => handle,
            Err(error) => panic!("KeyedPool::acquire: {error}"),
        }
    }

    /// Gives an object back to its kind's pool.
    ///
    /// # Errors
    /// [`StaleHandle`] if the object is not live, or the handle is another
    /// `KeyedPool`'s (it is no live handle of this one).
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// let a = pools.add_kind("a", Pool::builder(|| 0).max_objects(1)).unwrap();
    /// let object = pools.acquire(a);
    /// assert!(pools.release(object).is_ok());
    /// assert!(pools.release(object).is_err());
    /// ```
    pub fn release(&mut self, handle: KindHandle<K>) -> Result<(), StaleHandle> {
        match self.pool_mut(handle.kind) {
            Some(pool) => pool.release(handle.handle),
            None => Err(StaleHandle),
        }
    }

    /// The live object of `handle`, or `None` if stale.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// let a = pools.add_kind("a", Pool::builder(|| 7).max_objects(1)).unwrap();
    /// let object = pools.acquire(a);
    /// assert_eq!(pools.get(object), Some(&7));
    /// ```
    pub fn get(&self, handle: KindHandle<K>) -> Option<&T> {
        self.pool(handle.kind)?.get(handle.handle)
    }

    /// The live object of `handle`, mutably, or `None` if stale.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// let a = pools.add_kind("a", Pool::builder(|| 7).max_objects(1)).unwrap();
    /// let object = pools.acquire(a);
    /// *pools.get_mut(object).unwrap() = 8;
    /// assert_eq!(pools.get(object), Some(&8));
    /// ```
    pub fn get_mut(&mut self, handle: KindHandle<K>) -> Option<&mut T> {
        self.pool_mut(handle.kind)?.get_mut(handle.handle)
    }

    /// `true` if `handle`'s object is live.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// let a = pools.add_kind("a", Pool::builder(|| 7).max_objects(1)).unwrap();
    /// let object = pools.acquire(a);
    /// assert!(pools.contains(object));
    /// ```
    pub fn contains(&self, handle: KindHandle<K>) -> bool {
        self.get(handle).is_some()
    }

    /// [`Pool::reclaim`] over every kind, kind by kind; returns how many objects were
    /// released in all.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// let a = pools.add_kind("a", Pool::builder(|| 0).max_objects(4)).unwrap();
    /// let b = pools.add_kind("b", Pool::builder(|| 1).max_objects(4)).unwrap();
    /// let (in_a, in_b) = (pools.acquire(a), pools.acquire(b));
    /// assert_eq!(pools.reclaim(|kind, _, _| kind == b), 1);
    /// assert!(pools.contains(in_a) && !pools.contains(in_b));
    /// ```
    pub fn reclaim(&mut self, mut finished: impl FnMut(KindId, K, &mut T) -> bool) -> usize {
        let mut released = 0;
        let owner = self.owner;
        for (index, (pool, _)) in self.entries.iter_mut().enumerate() {
            let kind = KindId::new(owner, index);
            released += pool.reclaim(|handle, object| finished(kind, handle, object));
        }
        released
    }

    /// Stats of one kind's pool.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// let a = pools.add_kind("a", Pool::builder(|| 0).initial(2).max_objects(4)).unwrap();
    /// assert_eq!(pools.stats(a).unwrap().idle, 2);
    /// ```
    pub fn stats(&self, kind: KindId) -> Option<PoolStats> {
        self.pool(kind).map(Pool::stats)
    }

    /// Creates at most `budget` objects in all, kind after kind, towards each kind's
    /// initial size; returns how many are still missing (0 when done). Spreads
    /// "a thousand of each kind at start" over frames.
    ///
    /// ```
    /// # use pool_core::{KeyedPool, Pool};
    /// let mut pools: KeyedPool<u32> = KeyedPool::new();
    /// for name in ["a", "b", "c"] {
    ///     pools.add_kind_lazy(name, Pool::builder(|| 0).initial(1000).max_objects(1000)).unwrap();
    /// }
    /// let mut frames = 0;
    /// while pools.prewarm_step(500) > 0 { frames += 1; }
    /// assert_eq!(frames, 5);
    /// ```
    pub fn prewarm_step(&mut self, budget: usize) -> usize {
        let mut left = budget;
        let mut missing = 0;
        for (pool, _) in &mut self.entries {
            let before = pool.stats().total;
            let still = pool.prewarm_step(left);
            left -= pool.stats().total - before;
            missing += still;
        }
        missing
    }
}

//! A bounded, generational object pool for games: objects are created once and
//! reused, every frame costs O(1) without touching the heap, and a handle to an
//! object that was given back can never reach the object's next user.
//!
//! # Why
//! Games create and destroy the same short-lived objects (sound voices, explosion
//! effects, bullets, enemies) hundreds of times a second. Creating them on demand
//! drops frames; an unbounded pool eats memory when a burst never ends; and a pool
//! that hands out plain references lets a caller that kept one stop a sound that now
//! belongs to somebody else. This pool is bounded by `max_objects`, its full-pool
//! behaviour is a policy you choose, and it hands out generational [`Handle`]s: a
//! handle whose object was released, recycled, cleared or reinitialized is stale
//! forever, and using it is a typed error, never a silent action on another object.
//! So is a handle of another pool: certainly with a handle type per pool, by its
//! generation between pools that share one (see "Handles and generations").
//!
//! # How
//! In the game's `Cargo.toml` (not on crates.io yet: point at a clone of the
//! workspace): `pool-core = { path = "../pool/pool-core" }`. It is `no_std`
//! and needs only `alloc`; the `testing` feature (the property-test kit, for
//! dev-dependencies) brings in `std` and proptest.
//!
//! ```
//! use pool_core::{Pool, RecycleOldest};
//! # const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets");
//!
//! // A voice plays the recording from a position at a volume.
//! #[derive(Default)]
//! struct Voice { at: usize, volume: f32 }
//!
//! // Once, at load time: the laser (0.25 s of mono 48 kHz WAV, read with hound)
//! // and eight voices, never more. A voice that ends or is taken over is reset.
//! let laser = hound::WavReader::open(format!("{ASSETS}/sounds/laser.wav"))?
//!     .samples::<i16>()
//!     .map(|sample| sample.map(|s| f32::from(s) / 32768.0))
//!     .collect::<Result<Vec<f32>, _>>()?;
//! let mut voices = Pool::builder(Voice::default)
//!     .initial(8)
//!     .max_objects(8)
//!     .policy(RecycleOldest)
//!     .on_release(|voice| *voice = Voice::default())
//!     .build()?;
//!
//! // The player fires ten lasers in one frame: the ninth and tenth take over the
//! // two oldest voices, whose handles are stale from then on.
//! let fired: Vec<_> = (0..10)
//!     .map(|_| {
//!         let (handle, voice) = voices.acquire_mut();
//!         voice.volume = 0.5;
//!         handle
//!     })
//!     .collect();
//! assert!(voices.get(fired[0]).is_none() && voices.get(fired[1]).is_none());
//! voices.get_mut(fired[9]).unwrap().volume = 0.25;
//!
//! // The mixer, 480 frames a block: a voice past the recording's end goes back.
//! let mut block = [0.0f32; 480];
//! for _ in 0..25 {
//!     block.fill(0.0);
//!     voices.reclaim(|_, voice| {
//!         for (out, sample) in block.iter_mut().zip(&laser[voice.at..]) {
//!             *out += sample * voice.volume;
//!         }
//!         voice.at += block.len();
//!         voice.at >= laser.len()
//!     });
//! }
//! // 12,000 frames, 25 blocks: all eight voices have ended and are idle again.
//! assert_eq!((voices.stats().live, voices.stats().idle), (0, 8));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Policies
//! Below `max_objects`, every pool creates a new object when none is idle
//! (grow-to-max); `initial == max_objects` gives a fixed pool that never grows. When
//! all `max_objects` objects are live, the [`ExhaustionPolicy`] type parameter
//! decides:
//!
//! | policy | when full | cost | use it for |
//! |---|---|---|---|
//! | [`Strict`] (default) | refuse: [`AcquireError::Exhausted`] | O(1) | anything a caller must keep: enemies, UI |
//! | [`RecycleOldest`] | reset the oldest live object and hand it out again | O(1) | one-shot sounds and effects: the newest matters most |
//! | [`RecycleLowest`] | recycle the live object with the lowest score | O(live) | quietest voice, furthest emitter, lowest priority |
//! | your own [`ExhaustionPolicy`] | whatever it returns | yours | anything else |
//! | [`PolicyChoice`] | strict or recycle-oldest, chosen at run time | O(1) | [`KeyedPool`] kinds with different needs |
//!
//! # Costs
//! | operation | cost | heap |
//! |---|---|---|
//! | `acquire`, `acquire_mut`, `release`, recycle-oldest, `get`, `get_mut`, `contains` | O(1) | none once the pool has reached its size |
//! | `reclaim`, `for_each_mut`, `iter` | O(live); O(slots) for a policy that keeps no order ([`Strict`]) | none |
//! | `reinitialize`, `clear`, `trim_idle`, `prewarm_step`; `retain_idle` (O(idle)) | O(objects touched) | creating objects may |
//!
//! A slot is `Option<T>` plus 12 bytes (generation and two list links). Idle objects
//! are a stack, so `acquire` hands out the most recently released object, the one
//! most likely still in cache. Where the policy needs "the oldest live object"
//! ([`RecycleOldest`], [`PolicyChoice`], custom policies: see
//! [`ExhaustionPolicy::KEEPS_ORDER`]), live objects are a doubly linked list in
//! acquisition order, which makes the oldest free to find, lets `release` take an
//! object out of the middle in O(1), and has `iter`, `for_each_mut` and
//! `reclaim` walk oldest first in O(live). That list costs an acquire four writes
//! and a release two, in the neighbours' slots. A [`Strict`] pool never asks for
//! the oldest, so it keeps no list: its acquire and release are slotmap's work
//! plus the pool's counters, and it iterates by slot, in O(slots), as slotmap
//! does; it has no `oldest`, `newest` or `newer`: they need [`KeepsOrder`], and
//! asking a strict pool does not compile.
//!
//! # Handles and generations
//! A [`Handle`] is a slot index and a generation, 8 bytes, `Copy`. Handles are
//! [slotmap](https://docs.rs/slotmap) keys, so [`new_handle_type!`] (slotmap's
//! `new_key_type!`) defines a distinct handle type per pool, and a slotmap
//! `SecondaryMap` keyed by pool handles attaches side data to pooled objects. The
//! generation is odd while the object is live; each handout and each return add one.
//! After 2^31 handouts a slot's generation would wrap and could make an ancient
//! handle valid again, so instead the slot is *retired*: its object moves to a fresh
//! slot and the old index is never used again. That costs one slot record
//! (12 bytes plus `size_of::<T>()` of dead space) per 2^31 handouts of one
//! slot, and guarantees that a stale handle never aliases a live object.
//!
//! A handle of another pool is refused too, as a [`StaleHandle`]. Between pools
//! of different handle types ([`new_handle_type!`]) that is certain: it does not
//! compile. Pools that share a handle type (the default [`Handle`], the kinds of
//! a [`KeyedPool`]) tell their handles apart by generation, which is
//! probabilistic: each pool counts its generations from its own *salt*, an even
//! number drawn when the pool is made (the pools of a process numbered in
//! order, each number spread by Fibonacci hashing), so the same slot of two
//! pools is at generations far apart. Of any 1,000 pools made one after
//! another, a handle of one can name a live object of another only once that
//! slot has been handed out over 1.5 million times more in one pool than in the
//! other; between any two pools, a foreign handle matches by chance about once
//! in 2^31. The salt costs nothing in a handle (still 8 bytes) and nothing in a
//! lookup, which compares generations as before; a release compares the next
//! generation with the salt where it compared it with `u32::MAX`.
//!
//! # Compared with
//! | | bounded | stale-handle safe | full-pool policy | O(1) oldest | objects kept on release |
//! |---|---|---|---|---|---|
//! | `pool_core::Pool` | yes, `max_objects` | yes, generations | strict / recycle-oldest / custom | yes, where the policy keeps order | yes |
//! | `slotmap::SlotMap` | no | yes, versions | n/a | no | no: `remove` gives the value back |
//! | `thunderdome::Arena` | no | yes, generations | n/a | no | no: `remove` gives the value back |
//! | `slab::Slab` | no | no: a freed key's index is reused, so an old key reads the new value | n/a | no | no: `remove` gives the value back |
//! | Unity `ObjectPool<T>` | no: `maxSize` only caps the idle objects kept | no: plain references | always creates more | no | yes |
//! | `object-pool` crate | no (pulls fall back to a new object) | n/a: RAII guards | n/a | no | yes |
//!
//! The workspace's `benches` crate tests the stale-handle and release columns of
//! the first four rows (`stale_keys_behave_as_the_comparison_table_says`).
//!
//! Measured side by side (the workspace's `benches` report, one cycle of acquire,
//! write, release with half the objects live, one run): a [`Strict`] pool's cycle
//! costs 0.93x to 1.10x slotmap's insert and remove at 16-byte objects and 0.88x
//! to 1.03x at 32, and less from 64 bytes up (about 0.5x at 256), because slotmap
//! moves every value in and out where a pool keeps its objects in place; a pool
//! that keeps acquisition order ([`RecycleOldest`]) pays its live list on top
//! (1.13x to 1.48x at 16 and 32 bytes). Between runs these ratios move (the
//! ordered pool's at 32 bytes has measured 1.03x to 1.56x). The report also
//! runs the operations arena benchmarks measure (insert, remove, get, iterate)
//! for the pool, slotmap, thunderdome and slab.
//!
//! Where the difference at small objects comes from: a cycle of a strict pool of
//! 16-byte objects runs about 7 instructions more than slotmap's (95 against
//! 88, benchmark included, counted by callgrind). They are what slotmap does not
//! offer: the `live`, `peak_live` and `releases` counters of [`PoolStats`], the
//! checks for hooks, and the check that retires a slot instead of wrapping its
//! generation (against the pool's salt); and a slot is 12 bytes beside its
//! object where slotmap's is 4 (the live list's two links and the generation).
//! The object is stored as slotmap stores its values, without an `Option`
//! around it: a lookup's generation check is its only check (11 instructions a
//! `get`, as slotmap's), and a slot is up to the object's alignment smaller.
//! That storage is the crate's only `unsafe` code, in one module, each block
//! with the invariant it relies on; the pool's tests and its model-based
//! property tests run under Miri in CI. Indexing without bounds checks was
//! tried on the hot path: 8 instructions fewer, no time saved in the report's
//! size table, so the indexing stays checked. Keeping the live
//! list's back links in an array of their own, to make slots smaller, made the
//! ordered pool's cycle slower (about 7 ns to 12) and the strict one no faster.
//!
//! slotmap is the right tool when values are created and destroyed; a pool is the
//! right tool when construction is what you want to avoid (a `Vec` with its buffer,
//! an audio voice, a sprite with its animation state). `pool_core` builds on slotmap's
//! key type and keeps its own slot storage, because a slot map drops a value on
//! `remove` and a pool must keep it. The `benches` crate of this workspace measures
//! all of these side by side.
//!
//! # Panics in user code
//! The factory, the hooks, a custom policy and the closures given to `reclaim` and
//! `for_each_mut` are user code, and a game engine or test harness may catch their
//! panics. Whatever unwinds out of them, the pool stays consistent: its counts,
//! lists, generations and statistics agree, and no object is lost. Each object whose
//! user code panicked is either where it was or destroyed and counted:
//!
//! | user code that panics | during | afterwards |
//! |---|---|---|
//! | the factory | `acquire` (growing), `prewarm_step`, `reinitialize` | no object was created; objects created before it in the same call stay idle |
//! | `on_acquire` | `acquire` (any path), `renew` | the acquire never happened: the object is back on top of the idle stack, no handle to it exists; an object recycled to make room stays recycled (counted), and in `renew` the release stays done |
//! | `on_release` | `release`, `renew`, `reclaim`, `reinitialize`, a recycle in `acquire` | the object, half reset, is not handed out again: it is destroyed (counted in `destroys`, without its destroy hook during the unwind), its handle is stale, its slot free; nothing else in that call happened |
//! | `on_destroy` | `clear`, `trim_idle`, `reinitialize` | that object is destroyed and counted; objects not yet reached stay where they were |
//! | the policy | `acquire` on a full pool | nothing changed, nothing counted |
//! | the `reclaim` or `for_each_mut` closure | those calls | objects already handled are released (or updated); the rest are untouched |
//!
//! The model-based test runs every operation with each of these set to panic and
//! compares the pool with the model after every step.
//!
//! # Testing your own policy and hooks
//! With the `testing` feature, `pool_core::testing::PoolTest` runs this crate's
//! model-based property test on your configuration: your object type, factory,
//! hooks and policy, random operation sequences checked against a reference model
//! after every step (counts, statistics, distinct live objects, stale handles
//! staying stale, hooks called as documented, a victim that is live and handed
//! out again), plus your own rule for the victim; optionally each object's
//! contents and panics injected into your code. This is the one model of the
//! pool: the crate's own model test and fuzz target drive it too. A failure comes
//! back shrunk and replayed step by step. In your crate's `[dev-dependencies]`:
//! `pool-core = { version = "...", features = ["testing"] }`; the `testing` module's
//! docs show a custom policy tested in a dozen lines (that example runs as a test).
//!
//! # Keyed pools
//! [`KeyedPool`] holds one pool per kind (effect name -> pool). A name
//! is resolved once to a [`KindId`]; every hot-path call takes the id. Beside
//! each pool it can keep a value of yours ([`KeyedPool::add_kind_with`]), so
//! one lookup finds a kind's pool and its state (an effect kind's clocks).
//!
//! # Shared with the game layers
//! The workspace's game layers (`pool-effects`, `pool-audio`) name things as this
//! crate does: a stale handle is [`StaleHandle`], a full pool that refuses is
//! [`Strict`], registration is `add_*` ([`KeyedPool::add_kind`]), liveness is
//! `contains`. Their `update(dt)` takes `f64` seconds through
//! [`seconds_to_micros`] and fails with [`TimeError`], both defined here.
//!
//! # Sharing between threads
//! `Pool<T>`, `KeyedPool<T>` and their handles are `Send` and `Sync` when `T`
//! is (hooks and the factory are `Send + Sync` for that reason); a pool needs
//! `&mut` to acquire or release, so it has one user at a time, as a `Vec` has.
//! Three ways to share one, best first:
//! - **One owner.** The system (or thread) that spawns and despawns bullets owns
//!   the bullet pool. Other systems get handles: they are `Copy` and `Send`, so
//!   they cross threads and channels freely, and every use is checked on the
//!   owner's pool (a stale one is `None`, never another object). No lock.
//! - **One pool per thread** when each thread makes and ends its own objects (a
//!   worker's scratch buffers): no lock, no sharing.
//! - **A `Mutex<Pool<T>>`** when parallel systems must acquire from one pool:
//!   every acquire and release takes the lock, and threads that want it at
//!   once wait for each other. Hold it for the operation, not the frame. This crate has no lock of its own: `no_std`, and
//!   the one-owner case should not pay for it.
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use pool_core::{Pool, Strict};
//!
//! let pool = Arc::new(Mutex::new(Pool::builder(|| [0u8; 64]).max_objects(64).policy(Strict).build()?));
//! std::thread::scope(|scope| {
//!     for worker in 0..4u8 {
//!         let pool = Arc::clone(&pool);
//!         scope.spawn(move || {
//!             for _ in 0..100 {
//!                 let handle = {
//!                     let mut pool = pool.lock().unwrap();
//!                     let (handle, buffer) = pool.acquire_mut();
//!                     buffer[0] = worker;
//!                     handle
//!                 }; // the lock is released while the object is in use
//!                 let mut pool = pool.lock().unwrap();
//!                 assert_eq!(pool.get(handle).map(|buffer| buffer[0]), Some(worker));
//!                 pool.release(handle).unwrap();
//!             }
//!         });
//!     }
//! });
//! let stats = pool.lock().unwrap().stats();
//! assert_eq!((stats.acquires, stats.live), (400, 0));
//! # Ok::<(), pool_core::SettingsError>(())
//! ```
//!
//! # Portability
//! `#![no_std]` with `alloc` (the `testing` feature brings `std` and proptest, for
//! tests only). `unsafe` code in one private module, the slot that stores an
//! object without an `Option` (`#![deny(unsafe_code)]` everywhere else; the
//! `unsafe impl Key` of a handle type is generated by slotmap's macro).
#![no_std]
#![deny(unsafe_code)]
#![deny(missing_docs)]
// A doc example that drops a handle teaches a leak: the examples must compile
// without that warning.
#![doc(test(attr(deny(unused_must_use))))]

extern crate alloc;
#[cfg(feature = "testing")]
extern crate std;

mod builder;
mod error;
mod generation;
mod handle;
mod iter;
mod keyed;
mod lifecycle;
mod policy;
mod pool;
#[allow(unsafe_code)] // the object in a slot without an `Option`: see `slot.rs`
mod slot;
mod stats;
mod time;

#[cfg(test)]
mod tests;

#[cfg(feature = "testing")]
pub mod testing;

pub use builder::{DEFAULT_MAX_OBJECTS, MAX_OBJECTS_LIMIT, PoolBuilder};
pub use error::{AcquireError, SettingsError, StaleHandle};
pub use handle::Handle;
pub use iter::{Iter, IterMut};
pub use keyed::{AddKindError, KeyedError, KeyedPool, KindHandle, KindId, MAX_KINDS};
pub use policy::{
    ExhaustionPolicy, KeepsOrder, LiveObjects, PolicyChoice, RecycleLowest, RecycleOldest, Strict,
};
pub use pool::{Acquired, Pool};
pub use stats::PoolStats;
pub use time::{TimeError, seconds_to_micros};

/// Re-export of slotmap's key trait: every pool handle type implements it.
///
/// ```
/// use pool_core::{Handle, Key};
/// assert!(Handle::null().is_null());
/// ```
pub use slotmap::Key;

/// Defines a handle type for one pool, so handles of two pools cannot be mixed up
/// (slotmap's `new_key_type!`, re-exported).
///
/// ```
/// use pool_core::{new_handle_type, Pool};
///
/// new_handle_type! {
///     /// A handle to a pooled bullet.
///     pub struct BulletHandle;
/// }
///
/// let mut bullets = Pool::builder(|| 0u32).max_objects(8).handle::<BulletHandle>().build().unwrap();
/// let bullet: BulletHandle = bullets.acquire();
/// assert!(bullets.contains(bullet));
/// ```
pub use slotmap::new_key_type as new_handle_type;

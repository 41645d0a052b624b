//! Pooled sprite-animation effects that go back to their pool on their last frame.
//!
//! # Why
//! An action game with hundreds of enemies on screen spawns an explosion, a bite or
//! a hit spark every few frames. Creating and destroying an object for each one
//! drops frames. The pattern that ships in mobile action games: one pool per effect
//! kind, a thousand of each created at load time, and an effect that returns itself
//! to its pool when its animation has shown its last frame. This crate is that pattern as
//! a library, engine-agnostic: it owns the instances and their animation clocks and
//! hands the game a draw list; the game draws with whatever renderer it has.
//!
//! Built on [`pool_core`]: each kind is a bounded pool (recycling the oldest
//! instance, the one closest to its end, when full, or refusing), handles are
//! generational, and nothing allocates once the pools have reached their size.
//!
//! # A game loop
//! In the game's `Cargo.toml` (not on crates.io yet: point at a clone of the
//! workspace): `pool-effects = { path = "../pool/pool-effects" }`. Positions are
//! [`mint`](https://docs.rs/mint) vectors, so glam, nalgebra and cgmath values
//! and `[f32; 2]` go in as they are; a position with a NaN or infinite
//! coordinate is refused ([`SpawnError::BadPosition`]), as a view is.
//!
//! ```
//! use std::time::Duration;
//!
//! use pool_effects::{DrawList, EffectKind, Effects};
//!
//! # const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets");
//! let mut effects = Effects::new();
//! let mut draw = DrawList::new();
//! // Load time: the explosion's sheet is a strip of square frames (12 of 32 px),
//! // which the game uploads to its renderer; kinds are added once and their
//! // names resolve to ids here.
//! let sheet = image::open(format!("{ASSETS}/sprites/explosion.png"))?;
//! let frames = sheet.width() / sheet.height();
//! assert_eq!(frames, 12);
//! let explosion = effects.add_kind(
//!     EffectKind::new("explosion", frames, Duration::from_secs_f64(1.0 / 30.0)).layer(1).pool(1000, 1000),
//! )?;
//! let spark = effects.add_kind(EffectKind::new("spark", 4, Duration::from_secs_f64(1.0 / 60.0)).layer(2))?;
//!
//! let mut ended = 0;
//! for frame in 0..120 {
//!     // Game logic: an enemy dies, an explosion goes off where it stood.
//!     if frame % 10 == 0 {
//!         let boom = effects.spawn(explosion, [100.0, 50.0])?;
//!         effects.get_mut(boom).unwrap().tag = 7; // the enemy's id
//!         let flash = effects.spawn(spark, [101.0, 52.0])?;
//!         effects.get_mut(flash).unwrap().tag = 7;
//!     }
//!     // Once a frame: advance every clock; finished one-shots go back to their pool.
//!     effects.update(1.0 / 60.0)?;
//!     for done in effects.finished() {
//!         // e.g. tell entity `done.tag` its death animation is over
//!         assert_eq!(done.tag, 7);
//!         ended += usize::from(done.kind == explosion);
//!     }
//!     // Draw, lowest layer first, in spawn order within a layer.
//!     let items = draw.fill(&effects);
//!     assert!(items.windows(2).all(|pair| pair[0].layer <= pair[1].layer));
//!     for item in items {
//!         // renderer.draw(sheet[item.kind], item.frame, item.position, item.rotation, item.scale, item.tint)
//!         // (a frame's pixels: x from item.frame * 32 in the sheet)
//!         assert!(item.frame < frames);
//!     }
//! }
//! // An explosion lasts 0.4 s, 24 updates: the ten spawned in the first 96 frames
//! // have ended, the two after them are still showing.
//! assert_eq!(ended, 10);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Timing
//! Each kind has `frame_count` frames of `frame_interval` (a `Duration`, as
//! every span of time here but the update's `dt`). The frame shown is
//! `floor(elapsed / interval)`; a large `dt` skips frames; a one-shot goes back to
//! its pool in the update in which its last frame has been shown for a full
//! interval, that is once `elapsed >= frame_count * interval`, never an update
//! early or late. Clocks count whole microseconds, so sixty updates of `1/60` s make
//! exactly sixty frames of `1/60` s (summed floating point would drift): an
//! 8-frame one-shot of 50 ms ends in the update that reaches 400 ms, not 350.
//!
//! Three time scales multiply, as Unity's `Time.timeScale` and a particle
//! system's simulation speed do: a global one ([`Effects::set_time_scale`]: 0 is a
//! pause or a hit-stop, 0.25 slow motion), one per kind
//! ([`EffectKind::time_scale`], [`Effects::set_kind_time_scale`]) and one per
//! effect ([`EffectMut::set_time_scale`]); at 2, the 400 ms one-shot ends at 200 ms.
//! Each is kept to 1/65536 and each scaling floors to the microsecond.
//!
//! Several spawns in one frame can start at their own moments:
//! [`Effects::spawn_offset`] starts an effect `offset` into the coming
//! update, which advances it by `dt - offset`, so the shots of a burst do not step
//! in lock-step. A NaN, infinite or negative `dt` or scale, and a time out of
//! range, are typed errors, checked before anything changes.
//!
//! # Chains
//! A kind can name a follow-up ([`EffectKind::follow_up`], Unity's "death"
//! sub-emitter): smoke after an explosion, a spark after a muzzle flash. When a
//! one-shot ends, the follow-up starts in the same update where it was, with its
//! rotation, scale, tint and tag, from the follow-up kind's own pool (its cap and
//! policy apply). The [`Finished`] event says what followed ([`FollowUp`]); a
//! refusal is counted ([`KindStats::follow_ups_refused`]), never a panic. A
//! follow-up starts at time 0 and is not advanced in the update that started it,
//! so a chain moves one link per update whatever the step. Stopped effects and
//! loops do not chain. A game that chains by hand moves the events out with
//! [`Effects::take_finished`] and spawns while it reads them.
//!
//! # Culling
//! A level can hold thousands of effects and pay only for the ones on screen, as
//! Unity's particle culling modes and Godot's visibility rectangle allow. The game
//! gives the [`View`] (the camera's rectangle, in the effects' coordinates) with
//! [`Effects::set_view`], and each kind says what its effects do off-screen
//! ([`EffectKind::offscreen`], with [`EffectKind::cull_radius`] for the sprite's
//! reach):
//!
//! | [`Offscreen`] | Unity | off-screen, the clock | cost per update |
//! |---|---|---|---|
//! | `Simulate` (default) | Always Simulate | runs | as on screen |
//! | `Pause` | Pause | stops; runs on from there on return | none |
//! | `CatchUp` | Pause and Catch-up | stops; on return jumps to where it would be | none, but for a one-shot's end |
//! | `End` | (none) | the effect ends at the next update, no event | once |
//!
//! The draw list holds only effects in the view, whatever the mode. An effect of
//! a kind that culls is placed (running or parked) when it spawns and at each
//! `set_view`; a parked effect's clock leaves the array that updates stream, so
//! an update never reads it. A catching-up one-shot whose end comes off-screen
//! ends in the update that reaches it, as if it had run: its finished event, its
//! follow-up, back to its pool (a min-heap of the kinds' times at which parked
//! one-shots end; one peek per kind per update). [`KindStats`] counts the
//! parked effects (`offscreen`), the ended ones (`culled`) and the one-shots
//! that ended off-screen (`ended_offscreen`).
//!
//! A camera that moves calls `set_view` once a frame; that pass reads the
//! position of every live effect of the culling kinds. An effect the game moves
//! through [`Effects::get_mut`] keeps its place until the next `set_view`.
//!
//! # Costs
//! `spawn`, `stop`, `get`, `contains` are O(1); `update` and [`DrawList::fill`] are
//! O(live) (the draw list merges kinds that share a layer by spawn order); none
//! allocates once the pools have reached their size.
//!
//! # A level change
//! [`Effects::destroy_kind`] drops every instance of a kind,
//! [`Effects::clear_idle`] the idle instances of every kind, [`Effects::clear`]
//! every instance (live ones end, their handles stale), and
//! [`Effects::reinitialize`] returns every kind to its initial size. Each
//! kind's statistics ([`Effects::stats`]) come from its `pool_core` pool.
//!
//! The crate's `effects` example plays such a scene headless (four kinds of
//! 1000 instances, waves of enemies, smoke after each explosion, a camera that
//! sees three quarters of the world) and draws pictures from the draw list:
//! `cargo run --release -p pool-effects --example effects`.
//!
//! # Layout
//! What an update touches is kept apart from what the game and the draw list
//! read. Each kind's pool holds the drawn data ([`Effect`]: position, rotation,
//! scale, tint, tag; 56 bytes); beside it, a dense array holds each live effect's
//! clock (elapsed time, the end of the frame shown, the frame, the time scale:
//! 16 bytes) and a parallel array its handle. An update streams the clocks, 16
//! bytes per effect, where a boxed effect would be read whole (its clock beside
//! its transform): an update that changes no frame is an add, a multiply and a
//! compare. An effect that ends is found through the handle beside its clock;
//! the last clock moves into its place, so the clocks are in no particular order
//! and spawn order comes from the pool. [`Effects::get`] returns an
//! [`EffectRef`] (the drawn data through `Deref`, and the clock's readings), and
//! [`Effects::get_mut`] an [`EffectMut`].
//!
//! # Memory
//! Memory follows the instances that exist, not the caps: a cap is a ceiling, so a
//! kind may have a cap of millions and cost only what it uses. The finished list and
//! a draw list have room for every existing instance (live or idle), made when
//! instances are created up front (`add_kind`, `prewarm_step`) or at the first
//! `fill`. When a kind grows past that room by spawning, the next `update` or
//! `fill` grows the buffers
//! once, to at least twice their size (like `Vec::push`): that frame allocates
//! twice and copies at most 148 bytes per existing instance (an 88-byte finished
//! event and a 60-byte draw item); later frames allocate nothing until the pools
//! grow again.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

use std::time::Duration;

mod clock;
mod draw;
mod effect;
mod effects;
mod error;
mod kind;
mod lane;
mod view;

pub use draw::{DrawItem, DrawList};
pub use effect::{Effect, EffectMut, EffectRef, Rgba, Vec2};
pub use effects::{EffectHandle, Effects, Finished, FollowUp, KindStats};
pub use error::{AddKindError, KindScaleError, SpawnError, ViewError};
pub use kind::{EffectKind, Offscreen, Playback};
/// The vector types of [`Vec2`], for converting from your math library.
pub use mint;
// Types of `pool_core` that this crate's signatures expose. Not inlined: their
// docs link to pool_core's items, and stay on pool_core's pages (a doc comment
// here would be glued to every one of them).
#[doc(no_inline)]
pub use pool_core::{
    AcquireError, KindId, MAX_OBJECTS_LIMIT, PolicyChoice, PoolStats, SettingsError, StaleHandle,
    TimeError,
};
pub use view::View;

/// The longest a kind's animation (`frame_count * frame_interval`) may last
/// (71 minutes): clocks count microseconds in a `u32`, which keeps a clock at
/// 16 bytes, less the [`MAX_SPAWN_OFFSET`] a spawn can wait.
///
/// ```
/// use pool_effects::{EffectKind, Effects, MAX_DURATION};
///
/// let mut effects = Effects::new();
/// let too_long = EffectKind::new("sunset", 2, MAX_DURATION);
/// assert!(effects.add_kind(too_long).is_err());
/// let longest = EffectKind::new("sunrise", 1, MAX_DURATION);
/// assert!(effects.add_kind(longest).is_ok());
/// ```
pub const MAX_DURATION: Duration = Duration::from_micros(u32::MAX as u64 - (1 << 20));

/// The longest offset a spawn can carry into the next update
/// ([`Effects::spawn_offset`]): 2^20 microseconds, about 1.05 s, more than any
/// frame.
pub const MAX_SPAWN_OFFSET: Duration = Duration::from_micros(1 << 20);

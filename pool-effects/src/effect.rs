//! One live effect: where it is drawn, how it looks, and its animation clock.

use core::num::NonZeroU64;

use crate::clock;
use crate::kind::Timing;
use pool_core::TimeError;

/// A 2-D position or scale: [mint](https://docs.rs/mint)'s vector, the type glam,
/// nalgebra, cgmath and kira convert to and from. `[f32; 2]` converts too.
///
/// ```
/// use pool_effects::Vec2;
///
/// assert_eq!(Vec2::from([1.0, 2.0]), Vec2 { x: 1.0, y: 2.0 });
/// ```
pub type Vec2 = mint::Vector2<f32>;

/// The origin.
pub(crate) const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };

/// A colour multiplied into the sprite, each channel in 0..=1.
///
/// ```
/// use pool_effects::Rgba;
///
/// assert_eq!(Rgba::WHITE.a, 1.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rgba {
    /// Red.
    pub r: f32,
    /// Green.
    pub g: f32,
    /// Blue.
    pub b: f32,
    /// Opacity.
    pub a: f32,
}

impl Rgba {
    /// No tint.
    pub const WHITE: Rgba = Rgba {
        r: 1.0,
        g: 1.0,
        b: 1.0,
        a: 1.0,
    };
}

/// A live effect's drawn data: its transform, tint and tag, plain fields for the
/// game to set. Its animation clock is kept apart (see [`EffectRef`]), in a small
/// record that [`Effects::update`](crate::Effects::update) streams through.
///
/// ```
/// # use std::time::Duration;
/// use pool_effects::{EffectKind, Effects};
///
/// let mut effects = Effects::new();
/// let hit = effects.add_kind(EffectKind::new("hit", 4, Duration::from_millis(50)))?;
/// let spark = effects.spawn(hit, [10.0, 20.0])?;
/// let mut effect = effects.get_mut(spark).unwrap();
/// effect.rotation = 0.5;
/// effect.tag = 42; // the enemy this spark belongs to
/// assert_eq!(effect.frame(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Effect {
    /// Where it is drawn.
    pub position: Vec2,
    /// Radians, counter-clockwise.
    pub rotation: f32,
    /// Per-axis scale (1 is the sprite's size).
    pub scale: Vec2,
    /// Colour multiplied into the sprite.
    pub tint: Rgba,
    /// The game's own value: an entity id, say, to tie the effect to.
    pub tag: u64,
    /// Spawn order + 1. Non-zero, which gives `Option<Effect>` a niche.
    spawn_order: NonZeroU64,
    /// Where this effect's clock is in its kind's lanes (see `lane.rs`); stale
    /// while idle, which the lanes detect.
    pub(crate) lane: u32,
}

impl Effect {
    pub(crate) fn idle() -> Self {
        Self {
            position: ZERO,
            rotation: 0.0,
            scale: Vec2 { x: 1.0, y: 1.0 },
            tint: Rgba::WHITE,
            tag: 0,
            spawn_order: NonZeroU64::MIN,
            lane: crate::lane::NO_LANE,
        }
    }

    /// Resets everything but the lane for a new spawn that looks as `done`
    /// says: a plain spawn's look ([`Look::at`]), or the effect a follow-up
    /// takes over from.
    #[inline]
    pub(crate) fn start_as(&mut self, done: &Look, spawn_order: u64) {
        let lane = self.lane;
        *self = Self {
            position: done.position,
            rotation: done.rotation,
            scale: done.scale,
            tint: done.tint,
            tag: done.tag,
            spawn_order: NonZeroU64::MIN.saturating_add(spawn_order),
            lane,
        };
    }

    /// Where this effect stands in spawn order across all kinds (0 is the first
    /// spawn): the draw order within a layer.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 4, Duration::from_millis(250)))?;
    /// let a = effects.spawn(hit, [0.0, 0.0])?;
    /// let b = effects.spawn(hit, [0.0, 0.0])?;
    /// assert!(effects.get(a).unwrap().spawn_order() < effects.get(b).unwrap().spawn_order());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn spawn_order(&self) -> u64 {
        self.spawn_order.get() - 1
    }
}

/// How a new effect looks when it starts: where a spawn puts it, or what a
/// follow-up takes over from the effect it follows.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Look {
    pub(crate) position: Vec2,
    pub(crate) rotation: f32,
    pub(crate) scale: Vec2,
    pub(crate) tint: Rgba,
    pub(crate) tag: u64,
}

impl Look {
    /// A plain spawn's look: at `position`, unrotated, unscaled, untinted,
    /// untagged.
    #[inline]
    pub(crate) fn at(position: Vec2) -> Self {
        Self {
            position,
            rotation: 0.0,
            scale: Vec2 { x: 1.0, y: 1.0 },
            tint: Rgba::WHITE,
            tag: 0,
        }
    }
}

/// An effect's animation clock: what [`Effects::update`](crate::Effects::update)
/// reads and writes, 16 bytes, kept in a dense array per kind apart from the
/// drawn data so an update streams small records. An update that changes no
/// frame is an add, a multiply and one compare per effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Clock {
    /// Microseconds into the animation (wrapped for loops) plus
    /// [`clock::START`]: below `START`, a spawn offset has not run out yet (the
    /// effect shows frame 0). A `u32` lasts 71 minutes, and kinds longer than
    /// that, less `START`, are refused at definition.
    pub(crate) elapsed: u32,
    /// Where the frame shown ends: `(frame + 1) * interval + START`.
    pub(crate) next: u32,
    pub(crate) frame: u32,
    /// 16.16 fixed point (see `clock.rs`).
    pub(crate) time_scale: u32,
}

impl Clock {
    /// A clock at time 0.
    #[inline]
    pub(crate) fn new(timing: &Timing) -> Self {
        Self {
            elapsed: clock::START_U32,
            // The first frame's end: at most the duration plus `START`, which
            // fits (checked at definition).
            next: (timing.interval + clock::START) as u32,
            frame: 0,
            time_scale: clock::SCALE_ONE,
        }
    }

    /// The clock of a stopped effect, left in place until the next update
    /// takes it out (see `lane.rs`): its frame never ends (`next` is 0, below any
    /// frame's end), so the update's stream reports it as ended.
    pub(crate) const STOPPED: Self = Self {
        elapsed: u32::MAX,
        next: 0,
        frame: 0,
        time_scale: 0,
    };

    /// Whether this is [`Clock::STOPPED`]'s mark: no running clock has `next`
    /// 0 (a frame ends at `START` at the earliest).
    #[inline]
    pub(crate) fn is_stopped(&self) -> bool {
        self.next == 0
    }

    /// Holds a new effect back by `offset` microseconds (at most `START`): the
    /// next updates advance it by that much less.
    #[inline]
    pub(crate) fn hold(&mut self, offset: u32) {
        self.elapsed = clock::START_U32 - offset.min(clock::START_U32);
    }

    /// Advances the clock by `dt` (scaled by this effect's time scale) and returns
    /// `true` when a one-shot has shown its last frame for its full interval.
    #[inline(always)]
    pub(crate) fn advance(&mut self, dt: u32, timing: &Timing) -> bool {
        self.advance_by(clock::scaled(dt, self.time_scale), timing)
    }

    /// Advances the clock by `step` microseconds, already scaled (below 2^48).
    #[inline(always)]
    pub(crate) fn advance_by(&mut self, step: u64, timing: &Timing) -> bool {
        // Below 2^32 + 2^48: no overflow. Both sides carry `START`.
        let elapsed = u64::from(self.elapsed) + step;
        if elapsed < u64::from(self.next) {
            // Below the frame's end: fits in u32.
            self.elapsed = elapsed as u32;
            return false;
        }
        self.frame_changed(elapsed, timing)
    }

    /// One frame forward, several, a loop wrapping, or a one-shot ending;
    /// `elapsed` with `START`, at least `next`.
    #[inline(always)]
    fn frame_changed(&mut self, elapsed: u64, timing: &Timing) -> bool {
        let next = u64::from(self.next) + timing.interval;
        // The most common case: exactly one frame forward, not past the end.
        if elapsed < next && next <= timing.duration + clock::START {
            self.elapsed = elapsed as u32;
            self.next = next as u32;
            self.frame += 1;
            return false;
        }
        self.jumped(elapsed - clock::START, timing)
    }

    /// Several frames forward, a loop wrapping, or a one-shot ending;
    /// `elapsed` without `START`.
    #[inline(never)]
    fn jumped(&mut self, mut elapsed: u64, timing: &Timing) -> bool {
        if self.is_stopped() {
            return true;
        }
        if elapsed >= timing.duration {
            if !timing.looping {
                self.elapsed = (timing.duration + clock::START) as u32;
                self.next = self.elapsed;
                self.frame = timing.frames - 1;
                return true;
            }
            elapsed %= timing.duration;
        }
        let frame = elapsed / timing.interval;
        self.elapsed = (elapsed + clock::START) as u32;
        self.next = ((frame + 1) * timing.interval + clock::START) as u32;
        self.frame = frame as u32;
        false
    }

    fn elapsed(&self) -> std::time::Duration {
        std::time::Duration::from_micros(u64::from(self.elapsed.saturating_sub(clock::START_U32)))
    }
}

/// A live effect, read-only: its drawn data (through `Deref`, so
/// `effect.position` reads as on an [`Effect`]) and its clock. From
/// [`Effects::get`](crate::Effects::get).
///
/// ```
/// # use std::time::Duration;
/// use pool_effects::{EffectKind, Effects};
///
/// let mut effects = Effects::new();
/// let hit = effects.add_kind(EffectKind::new("hit", 4, Duration::from_millis(250)))?;
/// let spark = effects.spawn(hit, [3.0, 0.0])?;
/// effects.update(0.3)?;
/// let effect = effects.get(spark).unwrap();
/// assert_eq!((effect.position.x, effect.frame()), (3.0, 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct EffectRef<'a> {
    pub(crate) effect: &'a Effect,
    pub(crate) clock: &'a Clock,
}

/// A live effect, mutable: its drawn data (through `DerefMut`, so
/// `effect.tag = 7` writes as on an [`Effect`]) and its clock's time scale. From
/// [`Effects::get_mut`](crate::Effects::get_mut) and
/// [`Effects::spawn_mut`](crate::Effects::spawn_mut).
///
/// ```
/// # use std::time::Duration;
/// use pool_effects::{EffectKind, Effects};
///
/// let mut effects = Effects::new();
/// let hit = effects.add_kind(EffectKind::new("hit", 4, Duration::from_millis(250)))?;
/// let spark = effects.spawn(hit, [0.0, 0.0])?;
/// let mut effect = effects.get_mut(spark).unwrap();
/// effect.tag = 7;
/// effect.set_time_scale(2.0)?;
/// assert_eq!(effects.get(spark).unwrap().tag, 7);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct EffectMut<'a> {
    pub(crate) effect: &'a mut Effect,
    pub(crate) clock: &'a mut Clock,
}

impl core::ops::Deref for EffectRef<'_> {
    type Target = Effect;
    fn deref(&self) -> &Effect {
        self.effect
    }
}

impl core::ops::Deref for EffectMut<'_> {
    type Target = Effect;
    fn deref(&self) -> &Effect {
        self.effect
    }
}

impl core::ops::DerefMut for EffectMut<'_> {
    fn deref_mut(&mut self) -> &mut Effect {
        self.effect
    }
}

/// The clock's readings, the same on both views.
macro_rules! clock_readings {
    ($view:ident) => {
        impl $view<'_> {
            /// The frame shown now: `floor(elapsed / interval)` (for loops, within the
            /// current cycle).
            ///
            /// ```
            /// # use std::time::Duration;
            /// # use pool_effects::{EffectKind, Effects};
            /// let mut effects = Effects::new();
            /// let hit = effects.add_kind(EffectKind::new("hit", 4, Duration::from_millis(250)))?;
            /// let spark = effects.spawn(hit, [0.0, 0.0])?;
            /// effects.update(0.6)?;
            /// assert_eq!(effects.get(spark).unwrap().frame(), 2);
            /// # Ok::<(), Box<dyn std::error::Error>>(())
            /// ```
            pub fn frame(&self) -> u32 {
                self.clock.frame
            }

            /// Time into the animation (for loops, into the current cycle), to
            /// the microsecond the clocks count.
            ///
            /// ```
            /// # use std::time::Duration;
            /// # use pool_effects::{EffectKind, Effects};
            /// let mut effects = Effects::new();
            /// let hit = effects.add_kind(EffectKind::new("hit", 4, Duration::from_millis(250)))?;
            /// let spark = effects.spawn(hit, [0.0, 0.0])?;
            /// effects.update(0.5)?;
            /// assert_eq!(effects.get(spark).unwrap().elapsed(), Duration::from_millis(500));
            /// # Ok::<(), Box<dyn std::error::Error>>(())
            /// ```
            pub fn elapsed(&self) -> std::time::Duration {
                self.clock.elapsed()
            }

            /// How fast this effect's clock runs (1 by default; 0 pauses it).
            ///
            /// ```
            /// # use std::time::Duration;
            /// # use pool_effects::{EffectKind, Effects};
            /// let mut effects = Effects::new();
            /// let hit = effects.add_kind(EffectKind::new("hit", 4, Duration::from_millis(250)))?;
            /// let spark = effects.spawn(hit, [0.0, 0.0])?;
            /// assert_eq!(effects.get(spark).unwrap().time_scale(), 1.0);
            /// # Ok::<(), Box<dyn std::error::Error>>(())
            /// ```
            pub fn time_scale(&self) -> f32 {
                clock::scale_to_f32(self.clock.time_scale)
            }

            /// The drawn data, as a plain reference.
            pub fn effect(&self) -> &Effect {
                self.effect
            }
        }
    };
}

clock_readings!(EffectRef);
clock_readings!(EffectMut);

impl EffectMut<'_> {
    /// Sets how fast this effect's clock runs: 2 plays it at double speed, 0 pauses.
    /// Kept to 1/65536 (16.16 fixed point, so scaling costs one integer multiply per
    /// update); a scale above 0 but below 1/65536 runs at 1/65536, never paused;
    /// scales above 65535 saturate.
    ///
    /// # Errors
    /// [`TimeError`] for NaN, infinite or negative scales; the effect is unchanged.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 4, Duration::from_millis(250)))?;
    /// let spark = effects.spawn(hit, [0.0, 0.0])?;
    /// effects.get_mut(spark).unwrap().set_time_scale(2.0)?;
    /// effects.update(0.25)?;
    /// assert_eq!(effects.get(spark).unwrap().frame(), 2);
    /// assert!(effects.get_mut(spark).unwrap().set_time_scale(f32::NAN).is_err());
    /// effects.get_mut(spark).unwrap().set_time_scale(1e-6)?;
    /// assert!(effects.get(spark).unwrap().time_scale() > 0.0, "slowed down, not paused");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_time_scale(&mut self, scale: f32) -> Result<(), TimeError> {
        self.clock.time_scale = clock::fixed_scale(scale)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing(frames: u32, interval: u64, looping: bool) -> Timing {
        Timing::new(interval, frames, looping)
    }

    #[test]
    fn a_one_shot_ends_exactly_when_its_last_frame_has_been_shown_for_a_full_interval() {
        let t = timing(3, 100, false);
        let mut e = Clock::new(&t);
        assert!(!e.advance(99, &t));
        assert_eq!(e.frame, 0);
        assert!(!e.advance(1, &t));
        assert_eq!(e.frame, 1);
        assert!(!e.advance(100, &t));
        assert_eq!(e.frame, 2);
        assert!(!e.advance(99, &t), "one microsecond early");
        assert!(e.advance(1, &t));
    }

    #[test]
    fn a_loop_wraps_and_never_ends() {
        let t = timing(4, 10, true);
        let mut e = Clock::new(&t);
        assert!(!e.advance(45, &t));
        assert_eq!((e.frame, e.elapsed - clock::START_U32), (0, 5));
        assert!(!e.advance(1_000_017, &t));
        let cycle = e.elapsed - clock::START_U32;
        assert_eq!(cycle, (5 + 1_000_017) % 40);
        assert_eq!(e.frame, cycle / 10);
    }

    #[test]
    fn a_held_effect_starts_when_its_offset_has_run_out() {
        let t = timing(3, 100, false);
        let mut e = Clock::new(&t);
        e.hold(250);
        assert!(!e.advance(200, &t));
        assert_eq!(
            (e.frame, e.elapsed()),
            (0, std::time::Duration::ZERO),
            "still held"
        );
        assert!(!e.advance(160, &t));
        assert_eq!(e.frame, 1, "110 us in");
        assert!(!e.advance(189, &t));
        assert!(e.advance(1, &t), "ends 300 us after the offset ran out");
    }

    #[test]
    fn a_large_step_skips_frames_and_can_end_a_one_shot() {
        let t = timing(10, 100, false);
        let mut e = Clock::new(&t);
        assert!(!e.advance(750, &t));
        assert_eq!(e.frame, 7);
        assert!(e.advance(10_000, &t));
    }
}

#[test]
fn an_update_streams_16_byte_clocks_and_a_pooled_effect_takes_56_bytes() {
    assert_eq!(core::mem::size_of::<Clock>(), 16);
    assert_eq!(core::mem::size_of::<Effect>(), 56);
    assert_eq!(core::mem::size_of::<Option<Effect>>(), 56);
}

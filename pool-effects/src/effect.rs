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

/// A live effect instance. Its transform, tint and tag are plain fields for the game
/// to set; its clock is read through methods and advanced by
/// [`Effects::update`](crate::Effects::update).
///
/// ```
/// use pool_effects::{EffectKind, Effects};
///
/// let mut effects = Effects::new();
/// let hit = effects.add_kind(EffectKind::new("hit", 4, 0.05))?;
/// let spark = effects.spawn(hit, [10.0, 20.0])?;
/// let effect = effects.get_mut(spark).unwrap();
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
    /// 16.16 fixed point (see `clock.rs`).
    time_scale: u32,
    /// Microseconds into the animation (wrapped for loops) plus
    /// [`clock::START`]: below `START`, a spawn offset has not run out yet (the
    /// effect shows frame 0). A `u32` lasts 71 minutes, and kinds longer than
    /// that, less `START`, are refused at definition.
    elapsed: u32,
    frame: u32,
    /// Spawn order + 1. Non-zero, which gives `Option<Effect>` a niche: a pooled
    /// effect takes 64 bytes, no tag (memory is what an update of 100 000 costs).
    spawn_order: NonZeroU64,
}

impl Effect {
    pub(crate) fn idle() -> Self {
        Self {
            position: ZERO,
            rotation: 0.0,
            scale: Vec2 { x: 1.0, y: 1.0 },
            tint: Rgba::WHITE,
            tag: 0,
            time_scale: clock::SCALE_ONE,
            elapsed: clock::START_U32,
            frame: 0,
            spawn_order: NonZeroU64::MIN,
        }
    }

    /// Resets everything for a new spawn at `position`.
    #[inline]
    pub(crate) fn start(&mut self, position: Vec2, spawn_order: u64) {
        *self = Self {
            position,
            spawn_order: NonZeroU64::MIN.saturating_add(spawn_order),
            ..Self::idle()
        };
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
        // Below 2^32 + 2^48: no overflow. Both sides carry `START`.
        let elapsed = u64::from(self.elapsed) + clock::scaled(dt, self.time_scale);
        let frame_end = (u64::from(self.frame) + 1) * timing.interval + clock::START;
        if elapsed < frame_end {
            // Below the frame's end, which is at most the duration plus
            // `START`: fits in u32 (checked at definition).
            self.elapsed = elapsed as u32;
            return false;
        }
        // The next most common case: exactly one frame forward.
        if elapsed < frame_end + timing.interval && elapsed < timing.duration + clock::START {
            self.elapsed = elapsed as u32;
            self.frame += 1;
            return false;
        }
        // At least one frame's end, so at least `START`.
        self.frame_changed(elapsed - clock::START, timing)
    }

    /// Several frames forward, a loop wrapping, or a one-shot ending;
    /// `elapsed` without `START`.
    #[inline(never)]
    fn frame_changed(&mut self, mut elapsed: u64, timing: &Timing) -> bool {
        if elapsed >= timing.duration {
            if !timing.looping {
                self.elapsed = (timing.duration + clock::START) as u32;
                self.frame = timing.frames - 1;
                return true;
            }
            elapsed %= timing.duration;
        }
        self.elapsed = (elapsed + clock::START) as u32;
        self.frame = (elapsed / timing.interval) as u32;
        false
    }

    /// The frame shown now: `floor(elapsed / interval)` (for loops, within the
    /// current cycle).
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 4, 0.25))?;
    /// let spark = effects.spawn(hit, [0.0, 0.0])?;
    /// effects.update(0.6)?;
    /// assert_eq!(effects.get(spark).unwrap().frame(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn frame(&self) -> u32 {
        self.frame
    }

    /// Seconds into the animation (for loops, into the current cycle).
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 4, 0.25))?;
    /// let spark = effects.spawn(hit, [0.0, 0.0])?;
    /// effects.update(0.5)?;
    /// assert_eq!(effects.get(spark).unwrap().elapsed(), 0.5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn elapsed(&self) -> f64 {
        clock::seconds(u64::from(self.elapsed.saturating_sub(clock::START_U32)))
    }

    /// How fast this effect's clock runs (1 by default; 0 pauses it).
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 4, 0.25))?;
    /// let spark = effects.spawn(hit, [0.0, 0.0])?;
    /// assert_eq!(effects.get(spark).unwrap().time_scale(), 1.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn time_scale(&self) -> f32 {
        (f64::from(self.time_scale) / f64::from(clock::SCALE_ONE)) as f32
    }

    /// Sets how fast this effect's clock runs: 2 plays it at double speed, 0 pauses.
    /// Kept to 1/65536 (16.16 fixed point, so scaling costs one integer multiply per
    /// update); a scale above 0 but below 1/65536 runs at 1/65536, never paused;
    /// scales above 65535 saturate.
    ///
    /// # Errors
    /// [`TimeError`] for NaN, infinite or negative scales; the effect is unchanged.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 4, 0.25))?;
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
        self.time_scale = clock::fixed_scale(scale)?;
        Ok(())
    }

    /// Where this effect stands in spawn order across all kinds (0 is the first
    /// spawn): the draw order within a layer.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Effects};
    /// let mut effects = Effects::new();
    /// let hit = effects.add_kind(EffectKind::new("hit", 4, 0.25))?;
    /// let a = effects.spawn(hit, [0.0, 0.0])?;
    /// let b = effects.spawn(hit, [0.0, 0.0])?;
    /// assert!(effects.get(a).unwrap().spawn_order() < effects.get(b).unwrap().spawn_order());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn spawn_order(&self) -> u64 {
        self.spawn_order.get() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing(frames: u32, interval: u64, looping: bool) -> Timing {
        Timing {
            interval,
            frames,
            duration: interval * u64::from(frames),
            looping,
        }
    }

    #[test]
    fn a_one_shot_ends_exactly_when_its_last_frame_has_been_shown_for_a_full_interval() {
        let t = timing(3, 100, false);
        let mut e = Effect::idle();
        e.start(ZERO, 0);
        assert!(!e.advance(99, &t));
        assert_eq!(e.frame(), 0);
        assert!(!e.advance(1, &t));
        assert_eq!(e.frame(), 1);
        assert!(!e.advance(100, &t));
        assert_eq!(e.frame(), 2);
        assert!(!e.advance(99, &t), "one microsecond early");
        assert!(e.advance(1, &t));
    }

    #[test]
    fn a_loop_wraps_and_never_ends() {
        let t = timing(4, 10, true);
        let mut e = Effect::idle();
        e.start(ZERO, 0);
        assert!(!e.advance(45, &t));
        assert_eq!((e.frame(), e.elapsed - clock::START_U32), (0, 5));
        assert!(!e.advance(1_000_017, &t));
        let cycle = e.elapsed - clock::START_U32;
        assert_eq!(cycle, (5 + 1_000_017) % 40);
        assert_eq!(e.frame(), cycle / 10);
    }

    #[test]
    fn a_held_effect_starts_when_its_offset_has_run_out() {
        let t = timing(3, 100, false);
        let mut e = Effect::idle();
        e.start(ZERO, 0);
        e.hold(250);
        assert!(!e.advance(200, &t));
        assert_eq!((e.frame(), e.elapsed()), (0, 0.0), "still held");
        assert!(!e.advance(160, &t));
        assert_eq!(e.frame(), 1, "110 us in");
        assert!(!e.advance(189, &t));
        assert!(e.advance(1, &t), "ends 300 us after the offset ran out");
    }

    #[test]
    fn a_large_step_skips_frames_and_can_end_a_one_shot() {
        let t = timing(10, 100, false);
        let mut e = Effect::idle();
        e.start(ZERO, 0);
        assert!(!e.advance(750, &t));
        assert_eq!(e.frame(), 7);
        assert!(e.advance(10_000, &t));
    }
}

#[test]
fn a_pooled_effect_takes_64_bytes() {
    assert_eq!(core::mem::size_of::<Effect>(), 64);
    assert_eq!(core::mem::size_of::<Option<Effect>>(), 64);
}

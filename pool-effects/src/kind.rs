//! An effect kind: what an animation looks like in time, where it draws, and how
//! its pool is sized.

use std::time::Duration;

use pool_core::PolicyChoice;

use crate::effect::Clock;

/// Whether an effect ends after its last frame or starts over.
///
/// ```
/// # use std::time::Duration;
/// use pool_effects::{EffectKind, Playback};
///
/// assert_eq!(EffectKind::new("fire", 8, Duration::from_millis(100)).looping().playback, Playback::Loop);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Playback {
    /// Shows every frame once, then goes back to its pool (the default).
    #[default]
    OneShot,
    /// Shows its frames over and over until stopped.
    Loop,
}

/// What an effect of a kind does while it is off-screen (outside the
/// [`View`](crate::View) given to [`Effects::set_view`](crate::Effects::set_view)),
/// Unity's particle culling modes and Godot's visibility rectangle. Off-screen
/// effects are never drawn; what differs is what their clocks do. See the crate
/// docs' "Culling".
///
/// ```
/// # use std::time::Duration;
/// use pool_effects::{EffectKind, Offscreen};
///
/// let smoke = EffectKind::new("smoke", 8, Duration::from_millis(100)).offscreen(Offscreen::CatchUp);
/// assert_eq!(smoke.offscreen, Offscreen::CatchUp);
/// assert_eq!(EffectKind::new("spark", 4, Duration::from_millis(50)).offscreen, Offscreen::Simulate);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Offscreen {
    /// Its clock runs as on screen (Unity's "Always Simulate"); the default.
    /// Every update pays for it.
    #[default]
    Simulate,
    /// Its clock stops, and runs on from where it stopped when the effect is
    /// back on screen (Unity's "Pause"). An update does not touch it.
    Pause,
    /// Its clock stops, and on return jumps to where it would be had it run
    /// (Unity's "Pause and Catch-up"): the right frame, for loops too. A
    /// one-shot whose end comes while it is off-screen ends then, in that
    /// update, as if it had run: finished event, follow-up, back to its pool.
    /// An update touches it only then.
    CatchUp,
    /// It ends, in the next update, with no finished event and no follow-up,
    /// like [`Effects::stop`](crate::Effects::stop); counted in
    /// [`KindStats::culled`](crate::KindStats::culled).
    End,
}

/// The definition of an effect kind, given to
/// [`Effects::add_kind`](crate::Effects::add_kind) and validated there. Like kira's
/// settings structs, its fields are public and each has a builder method of the
/// same name, so what `.layer(2)` sets, `.layer` reads.
///
/// Defaults: layer 0, one-shot, a pool with no objects up front and at most 256,
/// recycling the oldest instance (the one closest to its end) when full.
///
/// ```
/// # use std::time::Duration;
/// use pool_effects::EffectKind;
///
/// // A thousand explosions created up front, as a mobile action game does at load.
/// let explosion = EffectKind::new("explosion", 12, Duration::from_secs_f64(1.0 / 30.0))
///     .layer(2)
///     .pool(1000, 1000);
/// assert_eq!((explosion.frame_count, explosion.layer), (12, 2));
/// assert_eq!((explosion.initial, explosion.max_objects), (1000, 1000));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[must_use = "an effect kind does nothing until passed to `Effects::add_kind`"]
pub struct EffectKind {
    /// The kind's name, unique within an [`Effects`](crate::Effects).
    pub name: String,
    /// Frames in the animation (at least 1).
    pub frame_count: u32,
    /// How long each frame is shown (at least a microsecond; counted in
    /// whole microseconds, rounded to the nearest).
    pub frame_interval: Duration,
    /// The draw layer: lower layers are drawn first, under higher ones.
    pub layer: i32,
    /// One-shot or loop.
    pub playback: Playback,
    /// Instances created when the kind is added.
    pub initial: usize,
    /// The most instances that may exist, live and idle together.
    pub max_objects: usize,
    /// When the pool is full: recycle the oldest instance, or refuse
    /// ([`PolicyChoice::Strict`]).
    pub policy: PolicyChoice,
    /// The kind spawned where a one-shot of this kind ends (Unity's "death"
    /// sub-emitter): smoke after an explosion, a spark after a muzzle flash.
    /// A name, so kinds can be added in any order; see [`EffectKind::follow_up`].
    pub follow_up: Option<String>,
    /// How fast this kind's clocks run (1 by default; 0 pauses every effect of
    /// the kind), on top of the global scale and each effect's own; see
    /// [`EffectKind::time_scale`].
    pub time_scale: f32,
    /// What an off-screen effect of this kind does; see [`Offscreen`].
    pub offscreen: Offscreen,
    /// How far from its position an effect of this kind can be seen, in world
    /// units (half its sprite's diagonal, say): it counts as on screen while its
    /// position is within the view grown by this much on every side. 0 by default.
    pub cull_radius: f32,
}

impl EffectKind {
    /// A kind named `name` whose animation has `frame_count` frames, each shown for
    /// `frame_interval`.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::EffectKind;
    /// let bite = EffectKind::new("bite", 6, Duration::from_millis(50));
    /// assert_eq!((bite.name.as_str(), bite.frame_count), ("bite", 6));
    /// assert_eq!(bite.frame_interval, Duration::from_millis(50));
    /// ```
    pub fn new(name: impl Into<String>, frame_count: u32, frame_interval: Duration) -> Self {
        Self {
            name: name.into(),
            frame_count,
            frame_interval,
            layer: 0,
            playback: Playback::OneShot,
            initial: 0,
            max_objects: 256,
            policy: PolicyChoice::RecycleOldest,
            follow_up: None,
            time_scale: 1.0,
            offscreen: Offscreen::Simulate,
            cull_radius: 0.0,
        }
    }

    /// The draw layer: lower layers are drawn first, under higher ones.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::EffectKind;
    /// assert_eq!(EffectKind::new("smoke", 4, Duration::from_millis(100)).layer(-1).layer, -1);
    /// ```
    pub fn layer(mut self, layer: i32) -> Self {
        self.layer = layer;
        self
    }

    /// Repeats the animation until the effect is stopped.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, Playback};
    /// assert_eq!(EffectKind::new("fire", 8, Duration::from_millis(100)).looping().playback, Playback::Loop);
    /// ```
    pub fn looping(mut self) -> Self {
        self.playback = Playback::Loop;
        self
    }

    /// Instances created up front (`initial`) and the most that may exist
    /// (`max_objects`, live and idle together).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::EffectKind;
    /// let kind = EffectKind::new("spark", 4, Duration::from_millis(20)).pool(100, 500);
    /// assert_eq!((kind.initial, kind.max_objects), (100, 500));
    /// ```
    pub fn pool(mut self, initial: usize, max_objects: usize) -> Self {
        self.initial = initial;
        self.max_objects = max_objects;
        self
    }

    /// When the pool is full, refuse new spawns instead of recycling the oldest.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use pool_effects::{EffectKind, PolicyChoice};
    /// let kind = EffectKind::new("boss-aura", 16, Duration::from_millis(100)).strict();
    /// assert_eq!(kind.policy, PolicyChoice::Strict);
    /// ```
    pub fn strict(mut self) -> Self {
        self.policy = PolicyChoice::Strict;
        self
    }

    /// How fast every effect of this kind runs: 2 plays the kind at double
    /// speed, 0.5 in slow motion, 0 pauses it (a hit-stop on one kind). It
    /// multiplies the global scale ([`Effects::set_time_scale`](crate::Effects::set_time_scale))
    /// and each effect's own ([`EffectMut::set_time_scale`](crate::EffectMut::set_time_scale));
    /// change it later with [`Effects::set_kind_time_scale`](crate::Effects::set_kind_time_scale).
    /// Kept to 1/65536, as an effect's scale is. A NaN, infinite or negative
    /// scale is refused by `add_kind`.
    ///
    /// ```
    /// # use std::time::Duration;
    /// use pool_effects::{EffectKind, Effects};
    ///
    /// let mut effects = Effects::new();
    /// let fast = effects.add_kind(EffectKind::new("flash", 8, Duration::from_millis(50)).time_scale(2.0))?;
    /// let flash = effects.spawn(fast, [0.0, 0.0])?;
    /// effects.update(0.199)?;
    /// assert!(effects.contains(flash));
    /// effects.update(0.001)?; // 8 frames of 50 ms at double speed: 200 ms
    /// assert!(!effects.contains(flash));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn time_scale(mut self, scale: f32) -> Self {
        self.time_scale = scale;
        self
    }

    /// Chains a follow-up: when a one-shot of this kind ends, an effect of the
    /// kind named `name` starts in the same [`Effects::update`](crate::Effects::update),
    /// where the first one was, with its rotation, scale, tint and tag. The
    /// follow-up comes from its own kind's pool (its cap and policy apply: a
    /// strict, full kind refuses it) and draws on its own kind's layer. The
    /// [`Finished`](crate::Finished) event of the first says what followed
    /// ([`FollowUp`](crate::FollowUp)). The name may be added before or after
    /// this kind; until it is, a follow-up is [`FollowUp::Undefined`](crate::FollowUp::Undefined).
    /// Loops never end on their own, so they never chain; a stopped effect does
    /// not chain either.
    ///
    /// ```
    /// # use std::time::Duration;
    /// use pool_effects::{EffectKind, Effects, FollowUp};
    ///
    /// let mut effects = Effects::new();
    /// let boom = effects.add_kind(EffectKind::new("explosion", 4, Duration::from_millis(50)).follow_up("smoke"))?;
    /// let smoke = effects.add_kind(EffectKind::new("smoke", 8, Duration::from_millis(100)))?;
    /// effects.spawn(boom, [3.0, 4.0])?;
    /// effects.update(0.2)?; // the explosion's 4 frames of 50 ms
    /// let FollowUp::Spawned(puff) = effects.finished()[0].follow_up else { panic!() };
    /// assert_eq!((puff.kind(), effects.get(puff).unwrap().position.x), (smoke, 3.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn follow_up(mut self, name: impl Into<String>) -> Self {
        self.follow_up = Some(name.into());
        self
    }
}

impl EffectKind {
    /// What an off-screen effect of this kind does (see [`Offscreen`]).
    ///
    /// ```
    /// # use std::time::Duration;
    /// use pool_effects::{EffectKind, Effects, Offscreen, View};
    ///
    /// let mut effects = Effects::new();
    /// let fire = effects.add_kind(EffectKind::new("fire", 4, Duration::from_millis(100)).looping().offscreen(Offscreen::Pause))?;
    /// effects.set_view(View::new([0.0, 0.0], [100.0, 100.0]))?;
    /// let far = effects.spawn(fire, [500.0, 0.0])?;
    /// effects.update(0.25)?;
    /// assert_eq!(effects.get(far).unwrap().frame(), 0, "paused off-screen");
    /// assert_eq!(effects.stats(fire).unwrap().offscreen, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn offscreen(mut self, offscreen: Offscreen) -> Self {
        self.offscreen = offscreen;
        self
    }

    /// How far from its position an effect of this kind can be seen (see
    /// [`EffectKind::cull_radius`](Self#structfield.cull_radius)). A NaN,
    /// infinite or negative radius is refused by `add_kind`.
    ///
    /// ```
    /// # use std::time::Duration;
    /// use pool_effects::{EffectKind, Effects, Offscreen, View};
    ///
    /// let mut effects = Effects::new();
    /// let boom = effects.add_kind(EffectKind::new("boom", 4, Duration::from_millis(100)).offscreen(Offscreen::Pause).cull_radius(20.0))?;
    /// effects.set_view(View::new([0.0, 0.0], [100.0, 100.0]))?;
    /// effects.spawn(boom, [110.0, 50.0])?; // its sprite reaches into the view
    /// assert_eq!(effects.stats(boom).unwrap().offscreen, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cull_radius(mut self, radius: f32) -> Self {
        self.cull_radius = radius;
        self
    }
}

/// A kind's timing in microseconds, validated: `duration` fits in a `u32`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Timing {
    pub(crate) interval: u64,
    pub(crate) frames: u32,
    /// `interval * frames`: a one-shot ends when its time reaches this.
    pub(crate) duration: u64,
    pub(crate) looping: bool,
    /// The clock every effect of the kind starts with, made once: a spawn
    /// copies it.
    pub(crate) start: Clock,
}

impl Timing {
    /// `frames` frames of `interval` microseconds, whose product the caller
    /// checked fits a clock.
    pub(crate) fn new(interval: u64, frames: u32, looping: bool) -> Self {
        let mut timing = Self {
            interval,
            frames,
            duration: interval * u64::from(frames),
            looping,
            start: Clock::STOPPED,
        };
        timing.start = Clock::new(&timing);
        timing
    }
}

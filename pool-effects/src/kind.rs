//! An effect kind: what an animation looks like in time, where it draws, and how
//! its pool is sized (source 001's effect info).

use pool_core::PolicyChoice;

/// Whether an effect ends after its last frame or starts over.
///
/// ```
/// use pool_effects::{EffectKind, Playback};
///
/// assert_eq!(EffectKind::new("fire", 8, 0.1).looping().playback(), Playback::Loop);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Playback {
    /// Shows every frame once, then goes back to its pool (the default).
    #[default]
    OneShot,
    /// Shows its frames over and over until stopped.
    Loop,
}

/// The definition of an effect kind, given to
/// [`Effects::define`](crate::Effects::define). Validated there.
///
/// Defaults: layer 0, one-shot, a pool with no objects up front and at most 256,
/// recycling the oldest instance (the one closest to its end) when full.
///
/// ```
/// use pool_effects::EffectKind;
///
/// let explosion = EffectKind::new("explosion", 12, 1.0 / 30.0)
///     .layer(2)
///     .pool(1000, 1000); // source 001: 1000 of each, created up front
/// assert_eq!(explosion.frame_count(), 12);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[must_use = "an effect kind does nothing until passed to `Effects::define`"]
pub struct EffectKind {
    pub(crate) name: String,
    pub(crate) frame_count: u32,
    pub(crate) frame_interval: f32,
    pub(crate) layer: i32,
    pub(crate) playback: Playback,
    pub(crate) initial: usize,
    pub(crate) max_objects: usize,
    pub(crate) policy: PolicyChoice,
}

impl EffectKind {
    /// A kind named `name` whose animation has `frame_count` frames, each shown for
    /// `frame_interval` seconds.
    ///
    /// ```
    /// # use pool_effects::EffectKind;
    /// let bite = EffectKind::new("bite", 6, 0.05);
    /// assert_eq!(bite.name(), "bite");
    /// ```
    pub fn new(name: impl Into<String>, frame_count: u32, frame_interval: f32) -> Self {
        Self {
            name: name.into(),
            frame_count,
            frame_interval,
            layer: 0,
            playback: Playback::OneShot,
            initial: 0,
            max_objects: 256,
            policy: PolicyChoice::RecycleOldest,
        }
    }

    /// The draw layer: lower layers are drawn first, under higher ones.
    ///
    /// ```
    /// # use pool_effects::EffectKind;
    /// assert_eq!(EffectKind::new("smoke", 4, 0.1).layer(-1).draw_layer(), -1);
    /// ```
    pub fn layer(mut self, layer: i32) -> Self {
        self.layer = layer;
        self
    }

    /// Repeats the animation until the effect is stopped.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Playback};
    /// assert_eq!(EffectKind::new("fire", 8, 0.1).looping().playback(), Playback::Loop);
    /// ```
    pub fn looping(mut self) -> Self {
        self.playback = Playback::Loop;
        self
    }

    /// Instances created up front (`initial`) and the most that may exist
    /// (`max_objects`, live and idle together).
    ///
    /// ```
    /// # use pool_effects::EffectKind;
    /// let kind = EffectKind::new("spark", 4, 0.02).pool(100, 500);
    /// assert_eq!(kind.pool_sizes(), (100, 500));
    /// ```
    pub fn pool(mut self, initial: usize, max_objects: usize) -> Self {
        self.initial = initial;
        self.max_objects = max_objects;
        self
    }

    /// When the pool is full, refuse new spawns instead of recycling the oldest.
    ///
    /// ```
    /// # use pool_effects::EffectKind;
    /// let kind = EffectKind::new("boss-aura", 16, 0.1).strict();
    /// ```
    pub fn strict(mut self) -> Self {
        self.policy = PolicyChoice::Strict;
        self
    }

    /// The kind's name.
    ///
    /// ```
    /// # use pool_effects::EffectKind;
    /// assert_eq!(EffectKind::new("bite", 6, 0.05).name(), "bite");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Frames in the animation.
    ///
    /// ```
    /// # use pool_effects::EffectKind;
    /// assert_eq!(EffectKind::new("bite", 6, 0.05).frame_count(), 6);
    /// ```
    pub fn frame_count(&self) -> u32 {
        self.frame_count
    }

    /// Seconds each frame is shown.
    ///
    /// ```
    /// # use pool_effects::EffectKind;
    /// assert_eq!(EffectKind::new("bite", 6, 0.05).frame_interval(), 0.05);
    /// ```
    pub fn frame_interval(&self) -> f32 {
        self.frame_interval
    }

    /// The draw layer.
    ///
    /// ```
    /// # use pool_effects::EffectKind;
    /// assert_eq!(EffectKind::new("bite", 6, 0.05).draw_layer(), 0);
    /// ```
    pub fn draw_layer(&self) -> i32 {
        self.layer
    }

    /// One-shot or loop.
    ///
    /// ```
    /// # use pool_effects::{EffectKind, Playback};
    /// assert_eq!(EffectKind::new("bite", 6, 0.05).playback(), Playback::OneShot);
    /// ```
    pub fn playback(&self) -> Playback {
        self.playback
    }

    /// `(initial, max_objects)`.
    ///
    /// ```
    /// # use pool_effects::EffectKind;
    /// assert_eq!(EffectKind::new("bite", 6, 0.05).pool_sizes(), (0, 256));
    /// ```
    pub fn pool_sizes(&self) -> (usize, usize) {
        (self.initial, self.max_objects)
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
}

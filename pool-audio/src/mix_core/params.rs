//! Effect parameters in the mix: a value of a kira effect (a filter's cutoff,
//! a reverb's mix, an EQ band's gain) that snapshots set, as they set volumes
//! (`Override`, `Blend`, priorities, intensity, tweens), through a setter the
//! game gives once with the effect's handle.

use std::fmt;
use std::ops::RangeInclusive;
use std::sync::Mutex;

use kira::Tween;

/// An effect parameter of the mix, added with
/// [`MixMut::add_param`](crate::mix::MixMut::add_param); an id is valid only
/// with the manager that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ParamId {
    pub(crate) index: u32,
    pub(crate) owner: u32,
}

/// The setter of a parameter: the game's closure over its effect's handle.
type Setter = Box<dyn FnMut(f64, Tween) + Send>;

/// A parameter on the game side.
pub(crate) struct Param {
    pub(crate) name: String,
    /// Its value with no snapshot applied and no curve.
    pub(crate) default: f64,
    pub(crate) range: RangeInclusive<f64>,
    /// The game parameter's curve it follows, if any, and its value with no
    /// snapshot applied: the curve's output, else `default`.
    pub(crate) curve: Option<crate::game::Curve>,
    pub(crate) base: f64,
    /// In a mutex only to make the manager `Sync` (kira's handles are
    /// `Send`): reached through `&mut self`, it is never locked.
    set: Mutex<Setter>,
}

impl fmt::Debug for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Param")
            .field("name", &self.name)
            .field("default", &self.default)
            .field("range", &self.range)
            .finish_non_exhaustive()
    }
}

impl Param {
    pub(crate) fn new(
        name: &str,
        default: f64,
        range: RangeInclusive<f64>,
        set: impl FnMut(f64, Tween) + Send + 'static,
    ) -> Self {
        Self {
            name: name.to_string(),
            default,
            range,
            curve: None,
            base: default,
            set: Mutex::new(Box::new(set)),
        }
    }

    /// Hands `value` to the game's setter, with `tween`.
    pub(crate) fn set(&mut self, value: f64, tween: Tween) {
        let set = self
            .set
            .get_mut()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        set(value, tween);
    }

    /// `value` clamped to the range.
    pub(crate) fn clamp(&self, value: f64) -> f64 {
        value.clamp(*self.range.start(), *self.range.end())
    }
}

/// A range and a default the mix can use: finite, ordered, the default in it.
pub(crate) fn valid(default: f64, range: &RangeInclusive<f64>) -> bool {
    range.start().is_finite() && range.end().is_finite() && range.contains(&default)
}

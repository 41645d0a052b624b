//! The on-screen region that culling compares positions with.

use crate::effect::Vec2;
use crate::error::ViewError;

/// The region of the world on screen, an axis-aligned rectangle in the effects'
/// own coordinates (the camera's rectangle, grown a little if effects should
/// start before they come into sight). Given to
/// [`Effects::set_view`](crate::Effects::set_view).
///
/// ```
/// use pool_effects::View;
///
/// let view = View::new([0.0, 0.0], [320.0, 180.0]);
/// assert!(view.contains([10.0, 10.0], 0.0));
/// assert!(!view.contains([330.0, 10.0], 0.0));
/// assert!(view.contains([330.0, 10.0], 16.0), "a sprite 16 units across reaches in");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    /// The lowest corner.
    pub min: Vec2,
    /// The highest corner.
    pub max: Vec2,
}

impl View {
    /// The rectangle from `min` to `max`.
    pub fn new(min: impl Into<Vec2>, max: impl Into<Vec2>) -> Self {
        Self {
            min: min.into(),
            max: max.into(),
        }
    }

    /// The rectangle centred on `center`, `size` across.
    ///
    /// ```
    /// use pool_effects::View;
    ///
    /// assert_eq!(View::centered([0.0, 0.0], [4.0, 2.0]), View::new([-2.0, -1.0], [2.0, 1.0]));
    /// ```
    pub fn centered(center: impl Into<Vec2>, size: impl Into<Vec2>) -> Self {
        let (center, size) = (center.into(), size.into());
        Self::new(
            [center.x - size.x / 2.0, center.y - size.y / 2.0],
            [center.x + size.x / 2.0, center.y + size.y / 2.0],
        )
    }

    /// `true` when `position` is within the rectangle grown by `radius` on
    /// every side (edges included).
    #[inline]
    pub fn contains(&self, position: impl Into<Vec2>, radius: f32) -> bool {
        let p = position.into();
        p.x >= self.min.x - radius
            && p.x <= self.max.x + radius
            && p.y >= self.min.y - radius
            && p.y <= self.max.y + radius
    }

    pub(crate) fn validate(self) -> Result<Self, ViewError> {
        let corners = [self.min.x, self.min.y, self.max.x, self.max.y];
        if !corners.iter().all(|c| c.is_finite()) {
            return Err(ViewError::NotFinite { view: self });
        }
        if self.min.x > self.max.x || self.min.y > self.max.y {
            return Err(ViewError::Inverted { view: self });
        }
        Ok(self)
    }
}

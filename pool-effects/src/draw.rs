//! What a renderer needs to draw one effect.

use pool_core::{Handle, KindHandle, KindId};

use crate::effect::{Effect, Rgba, Vec2};
use crate::effects::EffectHandle;

/// One live effect as a renderer sees it, from
/// [`Effects::draw_list`](crate::Effects::draw_list): which sprite sheet (`kind`),
/// which frame, and where.
///
/// ```
/// use pool_effects::{EffectKind, Effects};
///
/// let mut effects = Effects::new();
/// let hit = effects.define(EffectKind::new("hit", 4, 0.1).layer(3))?;
/// effects.spawn(hit, [8.0, 9.0])?;
/// for item in effects.draw_list() {
///     // sprite_sheet[item.kind].frame(item.frame) drawn at item.position
///     assert_eq!((item.layer, item.frame, item.position.x), (3, 0, 8.0));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DrawItem {
    /// The effect's handle.
    pub handle: EffectHandle,
    /// Its kind: which sprite sheet.
    pub kind: KindId,
    /// Its kind's draw layer.
    pub layer: i32,
    /// The frame to draw.
    pub frame: u32,
    /// Where.
    pub position: Vec2,
    /// Radians, counter-clockwise.
    pub rotation: f32,
    /// Per-axis scale.
    pub scale: Vec2,
    /// Colour multiplied into the sprite.
    pub tint: Rgba,
}

impl DrawItem {
    pub(crate) fn new(kind: KindId, handle: Handle, layer: i32, effect: &Effect) -> Self {
        Self {
            handle: EffectHandle::from_parts(KindHandle::new(kind, handle)),
            kind,
            layer,
            frame: effect.frame(),
            position: effect.position,
            rotation: effect.rotation,
            scale: effect.scale,
            tint: effect.tint,
        }
    }
}

//! The draw list: every live effect in the order a renderer draws it, with what it
//! needs to draw it. The game owns it and refills it from [`Effects`] each frame.

use pool_core::{Handle, KindHandle, KindId, Pool};

use crate::effect::{Effect, Rgba, Vec2};
use crate::effects::{EffectHandle, Effects};

/// One live effect as a renderer sees it, from [`DrawList::fill`]: which sprite
/// sheet (`kind`), which frame, and where.
///
/// ```
/// # use std::time::Duration;
/// use pool_effects::{DrawList, EffectKind, Effects};
///
/// let mut effects = Effects::new();
/// let hit = effects.add_kind(EffectKind::new("hit", 4, Duration::from_millis(100)).layer(3))?;
/// effects.spawn(hit, [8.0, 9.0])?;
/// let mut draw = DrawList::new();
/// let items = draw.fill(&effects);
/// assert_eq!(items.len(), 1);
/// // sprite_sheet[item.kind].frame(item.frame) drawn at item.position
/// let item = items[0];
/// assert_eq!((item.kind, item.layer, item.frame, item.position.x), (hit, 3, 0, 8.0));
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
    fn new(kind: KindId, handle: Handle, layer: i32, frame: u32, effect: &Effect) -> Self {
        Self {
            handle: EffectHandle::from_parts(KindHandle::new(kind, handle)),
            kind,
            layer,
            frame,
            position: effect.position,
            rotation: effect.rotation,
            scale: effect.scale,
            tint: effect.tint,
        }
    }
}

/// Every live effect in draw order: by layer (lowest first), then spawn order
/// across the kinds that share a layer. Kept by the game beside its [`Effects`] and
/// refilled once a frame with [`fill`](Self::fill), so reading [`Effects`] needs
/// only `&Effects`.
///
/// Costs: O(live) when each layer has one kind, O(live x kinds sharing a layer)
/// otherwise. The list keeps room for every instance that exists (live or idle),
/// so it allocates only in a frame after a kind grew past that room (then once,
/// at least doubling, like `Vec::push`).
///
/// ```
/// # use std::time::Duration;
/// use pool_effects::{DrawList, EffectKind, Effects};
///
/// let mut effects = Effects::new();
/// let top = effects.add_kind(EffectKind::new("top", 2, Duration::from_millis(100)).layer(5))?;
/// let bottom = effects.add_kind(EffectKind::new("bottom", 2, Duration::from_millis(100)).layer(1))?;
/// effects.spawn(top, [0.0, 0.0])?;
/// effects.spawn(bottom, [0.0, 0.0])?;
///
/// let mut draw = DrawList::new();
/// let kinds: Vec<_> = draw.fill(&effects).iter().map(|item| item.kind).collect();
/// assert_eq!(kinds, [bottom, top]);
/// assert_eq!(draw.items().len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct DrawList {
    items: Vec<DrawItem>,
    /// Merge cursors for kinds sharing a layer: (kind, next effect).
    cursors: Vec<(KindId, Option<Handle>)>,
}

impl DrawList {
    /// An empty list; the first [`fill`](Self::fill) makes room.
    ///
    /// ```
    /// # use pool_effects::DrawList;
    /// assert!(DrawList::new().items().is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Replaces the list with every live effect of `effects`, in draw order, and
    /// returns it.
    pub fn fill(&mut self, effects: &Effects) -> &[DrawItem] {
        self.items.clear();
        let instances = effects.instances();
        if self.items.capacity() < instances {
            self.items.reserve(instances);
        }
        let kinds = effects.draw_order().len();
        if self.cursors.capacity() < kinds {
            self.cursors.reserve(kinds);
        }
        let order = effects.draw_order();
        let mut start = 0;
        while start < order.len() {
            let layer = effects.layer_of(order[start]);
            let mut end = start + 1;
            while end < order.len() && effects.layer_of(order[end]) == layer {
                end += 1;
            }
            if end - start == 1 {
                self.push_kind(effects, order[start], layer);
            } else {
                self.push_merged(effects, &order[start..end], layer);
            }
            start = end;
        }
        &self.items
    }

    /// The list as last filled.
    pub fn items(&self) -> &[DrawItem] {
        &self.items
    }

    fn push_kind(&mut self, effects: &Effects, kind: KindId, layer: i32) {
        if let Some(pool) = effects.pool(kind) {
            self.items
                .extend(pool.iter().filter_map(|(handle, effect)| {
                    let frame = effects.frame_of(kind, handle, effect)?;
                    Some(DrawItem::new(kind, handle, layer, frame, effect))
                }));
        }
    }

    /// Merges the kinds of one layer by spawn order.
    fn push_merged(&mut self, effects: &Effects, kinds: &[KindId], layer: i32) {
        self.cursors.clear();
        for &kind in kinds {
            let head = effects.pool(kind).and_then(Pool::oldest);
            self.cursors.push((kind, head));
        }
        loop {
            let mut next: Option<(usize, u64)> = None;
            for (i, (kind, head)) in self.cursors.iter().enumerate() {
                let Some(effect) = head.and_then(|h| effects.pool(*kind)?.get(h)) else {
                    continue;
                };
                if next.is_none_or(|(_, order)| effect.spawn_order() < order) {
                    next = Some((i, effect.spawn_order()));
                }
            }
            let Some((i, _)) = next else {
                break;
            };
            let (kind, head) = self.cursors[i];
            let (Some(pool), Some(handle)) = (effects.pool(kind), head) else {
                break;
            };
            if let Some(effect) = pool.get(handle)
                && let Some(frame) = effects.frame_of(kind, handle, effect)
            {
                self.items
                    .push(DrawItem::new(kind, handle, layer, frame, effect));
            }
            self.cursors[i].1 = pool.newer(handle);
        }
    }
}

//! Effects drawn as Bevy sprites: each frame, the draw list becomes sprites
//! from texture atlases, on a pool of sprite entities that is never despawned.

use bevy::app::{App, Plugin, PostUpdate};
use bevy::asset::Handle;
use bevy::camera::visibility::Visibility;
use bevy::camera::{Camera, Projection};
use bevy::color::Color;
use bevy::ecs::prelude::*;
use bevy::image::{Image, TextureAtlas, TextureAtlasLayout};
use bevy::math::{Quat, Vec3};
use bevy::sprite::Sprite;
use bevy::transform::TransformSystems;
use bevy::transform::components::{GlobalTransform, Transform};
use pool_effects::{DrawList, KindId, View};

use crate::effects::{Vfx, VfxSystems};

/// Draws the [`Vfx`] effects as Bevy [`Sprite`]s, one frame of a texture atlas
/// each (behind the `sprites` feature; an app with Bevy's renderer shows them).
///
/// Give each kind its atlas in [`VfxAtlases`]; a kind without one is not
/// drawn. Every frame, after [`VfxSystems::Update`], the effects' draw list
/// (visible effects sorted by layer, then spawn order) is written into sprite
/// entities marked [`VfxSprite`]: the atlas index is the kind's first index
/// plus the effect's frame, the transform its position, rotation (about z)
/// and scale, the colour its tint. The sprite entities are themselves pooled:
/// spawned only when more effects are drawn than ever before, hidden when not
/// needed, never despawned, so a warm frame spawns nothing and allocates
/// nothing.
///
/// Depth: the n-th of N drawn sprites gets `z + n / N`, so effects stack in
/// draw-list order within `z..z + 1` (put other sprites outside that range).
///
/// ```
/// # use std::time::Duration;
/// use bevy::prelude::*;
/// use bevy_pool::{VfxAtlas, VfxAtlases, VfxSprite, VfxSpritesPlugin, VfxPlugin, Vfx};
/// use pool_effects::EffectKind;
///
/// let mut app = App::new();
/// app.add_plugins((bevy::time::TimePlugin, VfxPlugin, VfxSpritesPlugin::default()));
/// let boom = app.world_mut().resource_mut::<Vfx>().add_kind(EffectKind::new("boom", 4, Duration::from_millis(50)))?;
/// // In a game: the image and layout come from the `AssetServer` and
/// // `TextureAtlasLayout::from_grid`; here, default handles stand in.
/// app.world_mut().resource_mut::<VfxAtlases>().insert(boom, VfxAtlas {
///     image: Handle::default(),
///     layout: Handle::default(),
///     first_index: 8, // the row of the sheet where "boom" starts
/// });
/// app.world_mut().resource_mut::<Vfx>().spawn(boom, [10.0, 20.0])?;
/// app.update();
/// let mut sprites = app.world_mut().query::<(&Sprite, &Transform, &Visibility, &VfxSprite)>();
/// let (sprite, transform, visibility, _) = sprites.single(app.world())?;
/// assert_eq!(sprite.texture_atlas.as_ref().unwrap().index, 8);
/// assert_eq!((transform.translation.x, transform.translation.y), (10.0, 20.0));
/// assert_eq!(visibility, Visibility::Inherited);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct VfxSpritesPlugin {
    /// The depth of the lowest effect sprite; they fill `z..z + 1`.
    pub z: f32,
}

/// The atlas one effect kind is drawn from.
#[derive(Debug, Clone)]
pub struct VfxAtlas {
    /// The sprite sheet.
    pub image: Handle<Image>,
    /// Its layout (`TextureAtlasLayout::from_grid` for a grid of frames).
    pub layout: Handle<TextureAtlasLayout>,
    /// The atlas index of the kind's frame 0; frame `n` is `first_index + n`.
    pub first_index: usize,
}

/// Which atlas draws each effect kind: set at load time, read every frame.
#[derive(Resource, Debug, Default)]
pub struct VfxAtlases {
    by_kind: Vec<Option<VfxAtlas>>,
}

impl VfxAtlases {
    /// Draws `kind` from `atlas` (replacing any earlier atlas of that kind).
    pub fn insert(&mut self, kind: KindId, atlas: VfxAtlas) {
        let at = kind.index();
        if self.by_kind.len() <= at {
            self.by_kind.resize(at + 1, None);
        }
        self.by_kind[at] = Some(atlas);
    }

    /// The atlas of `kind`, if it has one.
    pub fn get(&self, kind: KindId) -> Option<&VfxAtlas> {
        self.by_kind.get(kind.index())?.as_ref()
    }
}

/// Marks one of the plugin's pooled sprite entities; the number is its place
/// in the pool. Hidden entities are idle.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct VfxSprite(pub usize);

/// The sprite entities, in pool order, and the draw list they are filled from.
#[derive(Resource, Default)]
struct SpritePool {
    entities: Vec<Entity>,
    draw: DrawList,
    /// Sprites shown last frame: the ones to hide when fewer are needed.
    shown: usize,
}

/// The base depth, from the plugin.
#[derive(Resource, Clone, Copy)]
struct BaseZ(f32);

/// Marks the 2D camera whose view culls the effects: each frame, before the
/// effects update, the plugin sets [`Effects::set_view`](pool_effects::Effects::set_view)
/// to what the camera's orthographic projection shows, in world coordinates
/// (its `area`, through its `GlobalTransform`), so that effects off screen
/// do what their kind's [`Offscreen`](pool_effects::Offscreen) says. With
/// several marked cameras, the view is the rectangle around all of them.
///
/// A camera without an orthographic projection is skipped, and so is a
/// [`Camera`] whose render target Bevy has not sized yet (its projection's
/// area is a placeholder until then). With no camera left, the view goes back
/// to everything. A game that sets the view itself leaves this marker off; an
/// entity with the marker and a projection but no `Camera` (a test, a
/// minimap's bounds) is taken as it is.
///
/// ```
/// use bevy::prelude::*;
/// use bevy::camera::{OrthographicProjection, Projection};
/// use bevy_pool::{VfxSpritesPlugin, VfxCamera, VfxPlugin, Vfx};
/// use pool_effects::View;
///
/// let mut app = App::new();
/// app.add_plugins((bevy::time::TimePlugin, TransformPlugin, VfxPlugin, VfxSpritesPlugin::default()));
/// // Bevy's renderer fills in `area` from the window; here it is set by hand.
/// let projection = OrthographicProjection {
///     area: Rect::new(-160.0, -90.0, 160.0, 90.0),
///     ..OrthographicProjection::default_2d()
/// };
/// app.world_mut().spawn((VfxCamera, Projection::Orthographic(projection), Transform::from_xyz(1000.0, 0.0, 0.0)));
/// app.update();
/// assert_eq!(app.world().resource::<Vfx>().view(), Some(View::new([840.0, -90.0], [1160.0, 90.0])));
/// ```
#[derive(Component, Debug, Clone, Copy, Default)]
#[cfg_attr(
    feature = "reflect",
    derive(bevy::reflect::Reflect),
    reflect(Component, Debug)
)]
pub struct VfxCamera;

impl Plugin for VfxSpritesPlugin {
    fn build(&self, app: &mut App) {
        #[cfg(feature = "reflect")]
        app.register_type::<VfxCamera>();
        app.init_resource::<VfxAtlases>()
            .init_resource::<SpritePool>()
            .insert_resource(BaseZ(self.z))
            .configure_sets(PostUpdate, VfxSystems::Draw.after(VfxSystems::Update))
            .add_systems(
                PostUpdate,
                (
                    follow_cameras
                        .after(TransformSystems::Propagate)
                        .before(VfxSystems::Update),
                    draw.in_set(VfxSystems::Draw),
                ),
            );
    }
}

/// The world rectangle a camera shows, if it is orthographic and sized.
fn camera_view(
    transform: &GlobalTransform,
    projection: &Projection,
    camera: Option<&Camera>,
) -> Option<View> {
    let Projection::Orthographic(orthographic) = projection else {
        return None;
    };
    if camera.is_some_and(|camera| camera.logical_target_size().is_none()) {
        return None;
    }
    let area = orthographic.area;
    if !(area.width() > 0.0 && area.height() > 0.0) {
        return None;
    }
    let corners = [
        (area.min.x, area.min.y),
        (area.max.x, area.min.y),
        (area.min.x, area.max.y),
        (area.max.x, area.max.y),
    ]
    .map(|(x, y)| transform.transform_point(Vec3::new(x, y, 0.0)));
    let min = corners.iter().fold(corners[0], |m, c| m.min(*c));
    let max = corners.iter().fold(corners[0], |m, c| m.max(*c));
    let view = View::new([min.x, min.y], [max.x, max.y]);
    // A non-finite transform gives no view rather than a refused one.
    [min.x, min.y, max.x, max.y]
        .iter()
        .all(|v| v.is_finite())
        .then_some(view)
}

/// Sets the effects' view from the marked cameras, when it changed.
fn follow_cameras(
    fx: Option<ResMut<Vfx>>,
    cameras: Query<(&GlobalTransform, &Projection, Option<&Camera>), With<VfxCamera>>,
    mut following: Local<bool>,
) {
    let Some(mut fx) = fx else { return };
    let view = cameras
        .iter()
        .filter_map(|(transform, projection, camera)| camera_view(transform, projection, camera))
        .reduce(|a, b| {
            View::new(
                [a.min.x.min(b.min.x), a.min.y.min(b.min.y)],
                [a.max.x.max(b.max.x), a.max.y.max(b.max.y)],
            )
        });
    if view.is_none() && !*following {
        return; // never followed a camera: the game's own view stays
    }
    *following = view.is_some();
    if fx.view() != view {
        // Finite, with min <= max: the view is valid.
        let _ = fx.set_view(view);
    }
}

fn draw(
    mut commands: Commands,
    fx: Option<Res<Vfx>>,
    atlases: Res<VfxAtlases>,
    base: Res<BaseZ>,
    mut pool: ResMut<SpritePool>,
    mut sprites: Query<(&mut Sprite, &mut Transform, &mut Visibility), With<VfxSprite>>,
) {
    let Some(fx) = fx else { return };
    let SpritePool {
        entities,
        draw,
        shown,
    } = &mut *pool;
    let items = draw.fill(&fx);
    let total = items.len().max(1) as f32;
    let mut used = 0;
    for item in items {
        let Some(atlas) = atlases.get(item.kind) else {
            continue;
        };
        let transform = Transform {
            translation: Vec3::new(
                item.position.x,
                item.position.y,
                base.0 + used as f32 / total,
            ),
            rotation: Quat::from_rotation_z(item.rotation),
            scale: Vec3::new(item.scale.x, item.scale.y, 1.0),
        };
        let color = Color::srgba(item.tint.r, item.tint.g, item.tint.b, item.tint.a);
        let index = atlas.first_index + item.frame as usize;
        match entities
            .get(used)
            .and_then(|&entity| sprites.get_mut(entity).ok())
        {
            Some((mut sprite, mut at, mut visibility)) => {
                if sprite.image != atlas.image {
                    sprite.image = atlas.image.clone();
                }
                match &mut sprite.texture_atlas {
                    Some(current) if current.layout == atlas.layout => current.index = index,
                    other => {
                        *other = Some(TextureAtlas {
                            layout: atlas.layout.clone(),
                            index,
                        })
                    }
                }
                sprite.color = color;
                *at = transform;
                *visibility = Visibility::Inherited;
            }
            None => {
                // More effects drawn than ever before: one more pooled sprite.
                let entity = commands
                    .spawn((
                        VfxSprite(entities.len()),
                        Sprite {
                            image: atlas.image.clone(),
                            texture_atlas: Some(TextureAtlas {
                                layout: atlas.layout.clone(),
                                index,
                            }),
                            color,
                            ..Default::default()
                        },
                        transform,
                        Visibility::Inherited,
                    ))
                    .id();
                if used < entities.len() {
                    // The entity was despawned by someone else: replace it.
                    entities[used] = entity;
                } else {
                    entities.push(entity);
                }
            }
        }
        used += 1;
    }
    for &entity in entities.iter().take(*shown).skip(used) {
        if let Ok((_, _, mut visibility)) = sprites.get_mut(entity) {
            *visibility = Visibility::Hidden;
        }
    }
    *shown = used;
}

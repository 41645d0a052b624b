//! Zones in Bevy: a [`SoundZone`] on an entity with a transform is a zone of
//! the sound effects' mix centred on it; it moves with the entity, changes
//! with the component, and goes with it. A zone the mix refuses comes back
//! as a [`ZoneRefused`] message.

use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;
use pool_audio::kira::Decibels;
use pool_audio::mix::{MixError, ZoneId, ZoneSettings, ZoneShape};

use crate::Sfx;

/// A zone of the level around its entity: voices in it (or all of them, by
/// the listener's place, when it follows the listener) send to the bus
/// named `bus`, fading over `fade` metres outside (see
/// [`ZoneSettings`]). Boxes are aligned with the world's axes: the entity's
/// rotation and scale do not turn or size them.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_pool::prelude::*;
///
/// # let mut world = World::new();
/// // The cave's reverb, for the player inside and 4 m around.
/// world.spawn((
///     SoundZone::sphere("cave reverb", 12.0).fade(4.0).follows_listener(true),
///     Transform::from_xyz(40.0, 0.0, 0.0),
/// ));
/// ```
#[derive(Component, Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "reflect",
    derive(Reflect),
    reflect(Component, Debug, PartialEq)
)]
#[require(Transform)]
pub struct SoundZone {
    /// The return bus's name in the mix.
    pub bus: String,
    /// A sphere's radius or a box's half extents, metres.
    pub size: ZoneSize,
    /// The send's level inside.
    #[cfg_attr(feature = "reflect", reflect(remote = crate::named::DecibelsReflect))]
    pub level: Decibels,
    /// How far outside the edge the send fades, metres.
    pub fade: f32,
    /// Every voice sends by the listener's place.
    pub follows_listener: bool,
}

/// The size of a [`SoundZone`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "reflect", derive(Reflect), reflect(Debug, PartialEq))]
pub enum ZoneSize {
    /// A sphere of this radius.
    Sphere(f32),
    /// A box of these half extents.
    Cuboid(Vec3),
}

impl SoundZone {
    /// A sphere of `radius` sending to `bus` at 0 dB, fading over 2 m.
    pub fn sphere(bus: impl Into<String>, radius: f32) -> Self {
        Self::new(bus, ZoneSize::Sphere(radius))
    }

    /// A box of `half_extents` sending to `bus` at 0 dB, fading over 2 m.
    pub fn cuboid(bus: impl Into<String>, half_extents: Vec3) -> Self {
        Self::new(bus, ZoneSize::Cuboid(half_extents))
    }

    fn new(bus: impl Into<String>, size: ZoneSize) -> Self {
        Self {
            bus: bus.into(),
            size,
            level: Decibels::IDENTITY,
            fade: 2.0,
            follows_listener: false,
        }
    }

    /// Its level inside (an `f32` is decibels).
    pub fn level(mut self, level: impl Into<Decibels>) -> Self {
        self.level = level.into();
        self
    }

    /// How far outside its edge it fades, metres.
    pub fn fade(mut self, fade: f32) -> Self {
        self.fade = fade;
        self
    }

    /// Whether every voice sends by the listener's place.
    pub fn follows_listener(mut self, follows: bool) -> Self {
        self.follows_listener = follows;
        self
    }

    /// Its settings in the mix, centred at `at`.
    fn settings(&self, sfx: &Sfx, at: Vec3) -> Result<ZoneSettings, MixError> {
        let bus = sfx.mix().track(&self.bus)?;
        let center = at.to_array();
        let shape = match self.size {
            ZoneSize::Sphere(radius) => ZoneShape::Sphere { center, radius },
            ZoneSize::Cuboid(half) => ZoneShape::Box {
                center,
                half_extents: half.to_array(),
            },
        };
        Ok(ZoneSettings::new(shape, bus)
            .level(self.level)
            .fade(self.fade)
            .follows_listener(self.follows_listener))
    }
}

/// A [`SoundZone`] the mix refused (an unknown bus, a size or fade out of
/// range, more than [`MAX_ZONES`](pool_audio::mix::MAX_ZONES)): the zone is
/// not in the mix (or keeps its last accepted state), until the component
/// changes again.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct ZoneRefused {
    /// The zone's entity.
    pub entity: Entity,
    /// Why.
    pub error: MixError,
}

/// The mix's zone of each entity with a [`SoundZone`].
#[derive(Resource, Default)]
pub(crate) struct ZoneIds(EntityHashMap<ZoneId>);

/// A zone whose component or transform changed.
type ZoneChanged = Or<(Changed<SoundZone>, Changed<GlobalTransform>)>;

/// Adds, moves and removes the mix's zones as their components and
/// transforms change.
pub(crate) fn follow_zones(
    mut sfx: ResMut<Sfx>,
    mut ids: ResMut<ZoneIds>,
    zones: Query<(Entity, &SoundZone, &GlobalTransform), ZoneChanged>,
    mut removed: RemovedComponents<SoundZone>,
    mut refused: MessageWriter<ZoneRefused>,
) {
    for entity in removed.read() {
        if let Some(id) = ids.0.remove(&entity) {
            let _ = sfx.mix_mut().remove_zone(id);
        }
    }
    for (entity, zone, transform) in &zones {
        let result = zone
            .settings(&sfx, transform.translation())
            .and_then(|settings| match ids.0.get(&entity) {
                Some(&id) => sfx.mix_mut().set_zone(id, settings),
                None => sfx.mix_mut().add_zone(settings).map(|id| {
                    ids.0.insert(entity, id);
                }),
            });
        if let Err(error) = result {
            refused.write(ZoneRefused { entity, error });
        }
    }
}

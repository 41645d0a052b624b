//! The zones of the mix (see `zone.rs`): added, moved and removed by the
//! game, sent to the mixer as they change (again at the next update when its
//! queue had no room).

use super::{MixMut, SoundEffects};
use crate::bank::Command;
use crate::zone::{ZoneId, ZoneOut, ZoneSettings};
use crate::{MAX_ZONES, MixError};

impl MixMut<'_> {
    /// Adds a zone: voices of sounds that send to zones
    /// ([`SoundSettings::zones`](crate::SoundSettings::zones), on by default)
    /// send to its bus while they (or the listener, for a zone that follows
    /// it) are in it, fading out over its fade distance outside.
    ///
    /// # Errors
    /// [`MixError::ZoneShape`], [`MixError::ZoneFade`], [`MixError::Volume`]
    /// for its level, [`MixError::ForeignTrack`] or [`MixError::NotBus`] for
    /// its bus, [`MixError::TooManyVoiceBuses`], [`MixError::TooManyZones`];
    /// nothing is added.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// use pool_audio::kira::effect::reverb::ReverbBuilder;
    /// use pool_audio::mix::{BusBuilder, ZoneSettings, ZoneShape};
    ///
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let reverb = BusBuilder::new().with_effect(ReverbBuilder::new().mix(pool_audio::kira::Mix::WET));
    /// let cave_reverb = sfx.mix_mut().add_bus("cave reverb", reverb)?;
    /// let shape = ZoneShape::Box { center: [40.0, 0.0, 0.0], half_extents: [10.0, 5.0, 10.0] };
    /// let cave = sfx.mix_mut().add_zone(ZoneSettings::new(shape, cave_reverb).fade(3.0))?;
    /// // The cave moves (a zone on a moving entity); it can also go.
    /// let moved = ZoneShape::Box { center: [42.0, 0.0, 0.0], half_extents: [10.0, 5.0, 10.0] };
    /// sfx.mix_mut().set_zone(cave, ZoneSettings::new(moved, cave_reverb).fade(3.0))?;
    /// sfx.mix_mut().remove_zone(cave)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_zone(&mut self, zone: ZoneSettings) -> Result<ZoneId, MixError> {
        let sfx = &mut *self.sfx;
        zone.check()?;
        let index = sfx
            .buses
            .zones
            .iter()
            .position(|slot| slot.zone.is_none())
            .ok_or(MixError::TooManyZones)?;
        let out = sfx.bus_out(zone.bus)?;
        let slot = &mut sfx.buses.zones[index];
        slot.generation = slot.generation.wrapping_add(1);
        slot.zone = Some(ZoneOut {
            settings: zone,
            out,
        });
        slot.dirty = true;
        let id = ZoneId {
            index: index as u32,
            owner: sfx.owner,
            generation: slot.generation,
        };
        sfx.flush_zones();
        Ok(id)
    }

    /// Changes zone `id` (its shape, bus, level, fade or whom it follows).
    ///
    /// # Errors
    /// [`MixError::Unknown`] for a removed zone or another manager's, and as
    /// [`add_zone`](Self::add_zone); the zone is unchanged.
    pub fn set_zone(&mut self, id: ZoneId, zone: ZoneSettings) -> Result<(), MixError> {
        let sfx = &mut *self.sfx;
        let index = sfx.own_zone(id)?;
        zone.check()?;
        let out = sfx.bus_out(zone.bus)?;
        let slot = &mut sfx.buses.zones[index];
        slot.zone = Some(ZoneOut {
            settings: zone,
            out,
        });
        slot.dirty = true;
        sfx.flush_zones();
        Ok(())
    }

    /// Removes zone `id`: voices in it stop sending to it within a chunk.
    ///
    /// # Errors
    /// [`MixError::Unknown`] for a removed zone or another manager's.
    pub fn remove_zone(&mut self, id: ZoneId) -> Result<(), MixError> {
        let sfx = &mut *self.sfx;
        let index = sfx.own_zone(id)?;
        let slot = &mut sfx.buses.zones[index];
        slot.zone = None;
        slot.dirty = true;
        sfx.flush_zones();
        Ok(())
    }
}

impl SoundEffects {
    /// The slot of zone `id` if it is one of this manager's zones now.
    fn own_zone(&self, id: ZoneId) -> Result<usize, MixError> {
        let index = id.index as usize;
        match self.buses.zones.get(index) {
            Some(slot)
                if id.owner == self.owner
                    && slot.generation == id.generation
                    && slot.zone.is_some() =>
            {
                Ok(index)
            }
            _ => Err(MixError::Unknown),
        }
    }

    /// Tells the mixer of every zone changed since it last heard (those the
    /// queue has no room for wait for the next call or update).
    pub(super) fn flush_zones(&mut self) {
        for (index, slot) in self.buses.zones.iter_mut().enumerate() {
            if slot.dirty
                && self.voices.send(Command::SetZone {
                    index: index as u8,
                    zone: slot.zone,
                })
            {
                slot.dirty = false;
            }
        }
    }
}

/// The most zones, as the mixer counts them.
const _: () = assert!(MAX_ZONES <= u8::MAX as usize);

//! The buses of the mix (see `bus.rs`): added once, set while the game runs.

use kira::{Decibels, Tween};

use super::{MixMut, SoundEffects};
use crate::bus::BusBuilder;
use crate::mix_core::{
    MAX_MIX, MIN_MIX, MixError, MixTarget, Param, TrackId, check_tween, valid_param,
};
use crate::send::{MAX_SENDS, SendOut, SendOuts};
use crate::{AddGroupError, AddSoundError, SoundSettings};

impl MixMut<'_> {
    /// Adds a bus named `name` to the mix: a kira track with `bus`'s effects,
    /// under the bus's parent or the output (where the limiter still comes
    /// last). Voice groups ([`GroupSettings::bus`](crate::GroupSettings::bus)),
    /// music tracks ([`TrackSettings::bus`](crate::music::TrackSettings::bus))
    /// and other buses route to it; ducks and snapshots set its volume as any
    /// track's, by the id returned (the same id
    /// [`Mix::track`](crate::mix::Mix::track) gives for `name`). Buses share
    /// one namespace with the music tracks: `"music"` and `"ambience"` are the
    /// default music tracks' names once [`Music`](crate::music::Music) is made.
    /// A return bus that sends and zones feed usually holds its effect fully
    /// wet (kira's `ReverbBuilder::mix(Mix::WET)`; its default is half dry).
    ///
    /// # Errors
    /// [`MixError::DuplicateTrack`] (a bus or music track of that name),
    /// [`MixError::Volume`] for a volume that is not in
    /// `MIN_MIX..=MAX_MIX`, [`MixError::ForeignTrack`] or [`MixError::NotBus`]
    /// for a parent that is another manager's or no bus, [`MixError::Curves`]
    /// for curves that are not volume curves of this manager's game
    /// parameters, [`MixError::TooMany`]; nothing is added.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// use pool_audio::kira::effect::reverb::ReverbBuilder;
    /// use pool_audio::mix::{BusBuilder, MixError};
    ///
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let world = sfx.mix_mut().add_bus("world", BusBuilder::new())?;
    /// let mut cave = BusBuilder::new().parent(world);
    /// let reverb = cave.add_effect(ReverbBuilder::new().damping(0.6).mix(pool_audio::kira::Mix::WET));
    /// let cave = sfx.mix_mut().add_bus("cave", cave)?;
    /// assert_eq!(sfx.mix().track("cave")?, cave);
    /// assert_eq!(
    ///     sfx.mix_mut().add_bus("cave", BusBuilder::new()),
    ///     Err(MixError::DuplicateTrack("cave".into()))
    /// );
    /// # drop(reverb);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_bus(&mut self, name: &str, bus: BusBuilder) -> Result<TrackId, MixError> {
        let sfx = &mut *self.sfx;
        if sfx.mix.track(name).is_ok() {
            return Err(MixError::DuplicateTrack(name.into()));
        }
        check_level(bus.volume)?;
        if let Some(parent) = bus.parent {
            sfx.own_bus(parent)?;
        }
        let curves = bus.curves;
        let volume_curve = |c: &crate::game::Curve| {
            c.target == crate::game::CurveTarget::Volume && sfx.game.settings(c.param).is_ok()
        };
        if curves.overflow || !curves.iter().all(volume_curve) {
            return Err(MixError::Curves);
        }
        if sfx.mix.tracks_full() {
            return Err(MixError::TooMany);
        }
        let volume = bus.volume;
        let (track, control) = sfx.buses.build(bus, sfx.mix.track_count())?;
        let id = sfx.mix.add_track(name, Some(control), true)?;
        sfx.buses.add(id, track, (volume, curves), &sfx.game);
        Ok(id)
    }

    /// Moves bus `bus`'s volume to `volume` with `tween` (the game's fader;
    /// ducks and snapshots add to it).
    ///
    /// # Errors
    /// [`MixError::ForeignTrack`], [`MixError::NotBus`], [`MixError::Volume`]
    /// (not in `MIN_MIX..=MAX_MIX`), [`MixError::Time`],
    /// [`MixError::Easing`], [`MixError::ClockStart`]; nothing changes.
    pub fn set_bus_volume(
        &mut self,
        bus: TrackId,
        volume: impl Into<Decibels>,
        tween: Tween,
    ) -> Result<(), MixError> {
        let volume = check_level(volume.into())?;
        let tween = check_tween(tween)?;
        self.sfx.own_bus(bus)?;
        self.sfx.buses.set_volume(bus, volume, tween)?;
        self.sfx
            .note(|_| Some(crate::capture::What::BusVolume { bus, volume, tween }));
        Ok(())
    }
}

impl MixMut<'_> {
    /// Adds an effect parameter named `name` to the mix: a value of a kira
    /// effect that snapshots set ([`Snapshot::set_param`](crate::mix::Snapshot::set_param)) as they set
    /// volumes, handed to `set` (with the snapshot's tween) whenever it
    /// changes: `set` calls the effect's handle. `default` is its value with
    /// no snapshot applied; a snapshot's value must be in `range`.
    ///
    /// # Errors
    /// [`MixError::DuplicateParam`], [`MixError::ParamRange`] for a range
    /// that is not finite and ordered with `default` in it,
    /// [`MixError::TooMany`]; nothing is added.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{linear_fade, OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// use pool_audio::kira::effect::filter::FilterBuilder;
    /// use pool_audio::mix::{BusBuilder, Snapshot};
    ///
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// // The game's world, open by default, muffled under the pause menu.
    /// let mut world = BusBuilder::new();
    /// let mut filter = world.add_effect(FilterBuilder::new().cutoff(20_000.0));
    /// let world = sfx.mix_mut().add_bus("world", world)?;
    /// let cutoff = sfx.mix_mut().add_param("world cutoff", 20_000.0, 20.0..=20_000.0, move |hz, tween| {
    ///     filter.set_cutoff(hz, tween)
    /// })?;
    /// let pause = Snapshot::new("pause").set(world, -6.0).set_param(cutoff, 500.0);
    /// let pause = sfx.mix_mut().add_snapshot(pause)?;
    /// sfx.mix_mut().apply_snapshot(pause, 1.0, linear_fade(std::time::Duration::from_millis(300)))?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_param(
        &mut self,
        name: &str,
        default: f64,
        range: std::ops::RangeInclusive<f64>,
        set: impl FnMut(f64, Tween) + Send + 'static,
    ) -> Result<crate::mix::ParamId, MixError> {
        if !valid_param(default, &range) {
            return Err(MixError::ParamRange(default));
        }
        self.sfx
            .mix
            .add_param(Param::new(name, default, range, set))
    }

    /// Parameter `curve`'s target ([`CurveTarget::Param`](crate::game::CurveTarget::Param))
    /// follows `curve`'s game parameter: its value when no snapshot sets it
    /// is the curve's output, moving as the game parameter does, each change
    /// gliding over an update; snapshots move it from there. A parameter
    /// follows one curve: another replaces it.
    ///
    /// # Errors
    /// [`MixError::Curves`] for a curve on another target, of another
    /// manager's game parameter, or with an easing kira cannot compute;
    /// [`MixError::Unknown`] for another manager's parameter;
    /// [`MixError::ParamValue`] for an output outside the parameter's
    /// range; nothing changes.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// use pool_audio::game::{Curve, CurveTarget, GameParamSettings};
    /// use pool_audio::kira::effect::filter::FilterBuilder;
    /// use pool_audio::mix::BusBuilder;
    ///
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// // Under water, the world closes to 500 Hz.
    /// let mut world = BusBuilder::new();
    /// let mut filter = world.add_effect(FilterBuilder::new().cutoff(20_000.0));
    /// sfx.mix_mut().add_bus("world", world)?;
    /// let cutoff = sfx.mix_mut().add_param("world cutoff", 20_000.0, 20.0..=20_000.0, move |hz, tween| {
    ///     filter.set_cutoff(hz, tween)
    /// })?;
    /// let underwater = sfx.add_game_param("underwater", GameParamSettings::new(0.0, 1.0))?;
    /// let closing = Curve::new(underwater, CurveTarget::Param(cutoff), &[(0.0, 20_000.0), (1.0, 500.0)])?;
    /// sfx.mix_mut().add_param_curve(closing)?;
    /// sfx.set_game_param(underwater, 1.0)?;
    /// sfx.update(1.0 / 60.0)?; // the filter glides to 500 Hz over the update
    /// let outside = Curve::new(underwater, CurveTarget::Param(cutoff), &[(0.0, 30_000.0)])?;
    /// assert!(sfx.mix_mut().add_param_curve(outside).is_err(), "past the parameter's range");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_param_curve(&mut self, curve: crate::game::Curve) -> Result<(), MixError> {
        let crate::game::CurveTarget::Param(param) = curve.target else {
            return Err(MixError::Curves);
        };
        let safe = crate::sound_error::easing_is_safe(Tween {
            easing: curve.easing,
            ..Default::default()
        });
        if !safe || self.sfx.game.settings(curve.param).is_err() {
            return Err(MixError::Curves);
        }
        let sfx = &mut *self.sfx;
        sfx.mix.set_param_curve(param, curve, &sfx.game)
    }
}

impl MixMut<'_> {
    /// Lowers `target` (a bus or a music track) while the voices mixed into
    /// bus `source` are loud, by as much as a compressor keyed by them would
    /// (see [`SideChainSettings`](crate::mix::SideChainSettings)): dialogue
    /// that lowers the music only while, and as far as, someone speaks.
    ///
    /// # Errors
    /// [`MixError::SideChain`] for settings out of range,
    /// [`MixError::ForeignTrack`], [`MixError::NotBus`] for a source that is
    /// not a bus, [`MixError::GameTrack`] for a target that is a kira track
    /// of the game's, [`MixError::TooManyVoiceBuses`], [`MixError::TooMany`]
    /// past [`MAX_SIDECHAINS`](crate::mix::MAX_SIDECHAINS); nothing is added.
    pub fn add_sidechain(
        &mut self,
        source: TrackId,
        target: TrackId,
        settings: crate::mix::SideChainSettings,
    ) -> Result<crate::mix::SideChainId, MixError> {
        let sfx = &mut *self.sfx;
        settings.check()?;
        let groups = &sfx.groups;
        sfx.mix
            .resolve(&MixTarget::Track(target), |g| groups.contains(g))?;
        if !sfx.mix.keyed(target.index) {
            return Err(MixError::GameTrack(target));
        }
        sfx.own_bus(source)?;
        if sfx.buses.chains.is_full() {
            return Err(MixError::TooMany);
        }
        let source = sfx.bus_out(source)?;
        let chain = crate::sidechain::SideChainOut {
            settings,
            source,
            target: target.index as u16,
        };
        sfx.buses.chains.push((chain, false));
        sfx.flush_chains();
        Ok(crate::mix::SideChainId {
            index: sfx.buses.chains.len() as u32 - 1,
            owner: sfx.owner,
        })
    }
}

impl super::Mix<'_> {
    /// The id of the effect parameter named `name`. Resolve names once.
    pub fn param(&self, name: &str) -> Option<crate::mix::ParamId> {
        self.sfx.mix.param_named(name)
    }
}

/// `volume` if in `MIN_MIX..=MAX_MIX`.
fn check_level(volume: Decibels) -> Result<Decibels, MixError> {
    if (MIN_MIX.0..=MAX_MIX.0).contains(&volume.0) {
        Ok(volume)
    } else {
        Err(MixError::Volume(volume))
    }
}

impl SoundEffects {
    /// Tells the mixer of every side-chain it has not heard of (those the
    /// queue has no room for wait for the next call or update).
    pub(super) fn flush_chains(&mut self) {
        for (chain, sent) in &mut self.buses.chains {
            if !*sent {
                *sent = self.voices.send(crate::bank::Command::AddSideChain(*chain));
            }
        }
    }

    /// Registers a music track named `name`; kira makes it later
    /// ([`make_music_track`](Self::make_music_track)).
    pub(crate) fn add_music_track(&mut self, name: &str) -> Result<TrackId, MixError> {
        self.mix.add_track(name, None, true)
    }

    /// Makes music track `id` (registered by
    /// [`add_music_track`](Self::add_music_track)) in kira from `builder`,
    /// under `bus` or the output: its side-chains' gain, then a volume control
    /// that starts at the level the mix holds for it (a duck or snapshot set
    /// while it was not made is heard from its first frame).
    ///
    /// # Errors
    /// [`MusicError::NotBus`](crate::music::MusicError::NotBus) for a `bus`
    /// that is none of this manager's, [`MusicError::Kira`](crate::music::MusicError::Kira)
    /// when kira has no room for a track; nothing changes.
    pub(crate) fn make_music_track(
        &mut self,
        id: TrackId,
        bus: Option<TrackId>,
        mut builder: kira::track::TrackBuilder,
    ) -> Result<kira::track::TrackHandle, crate::music::MusicError> {
        use crate::music::MusicError;
        use kira::effect::volume_control::VolumeControlBuilder;
        let slot = id.index as usize;
        builder.add_effect(crate::bus::KeyedGain::new(self.buses.gains.clone(), slot));
        let level = Decibels(self.mix.track_db(id.index));
        let control = builder.add_effect(VolumeControlBuilder::new(level));
        let handle = self
            .music_parent(bus)
            .map_err(|_| MusicError::NotBus(bus.unwrap_or(id)))?
            .add_sub_track(builder)
            .map_err(|error| MusicError::Kira(error.to_string()))?;
        self.mix.set_track_control(id.index, control);
        Ok(handle)
    }

    /// The out the bank mixes voices routed to bus `bus` into; the bus's tap
    /// starts on its track the first time.
    pub(super) fn route_to(&mut self, bus: TrackId) -> Result<u8, AddGroupError> {
        self.bus_out(bus).map_err(|error| match error {
            MixError::TooManyVoiceBuses => AddGroupError::TooManyBuses,
            _ => AddGroupError::NotBus(bus),
        })
    }

    /// The out the bank mixes into bus `bus` (a bus of this manager); the
    /// bus's tap starts on its track the first time.
    pub(super) fn bus_out(&mut self, bus: TrackId) -> Result<u8, MixError> {
        self.own_bus(bus)?;
        self.buses.route(bus)
    }

    /// Whether every send of `settings` goes to a bus of this manager that
    /// voices can reach.
    pub(super) fn check_sends(&self, settings: &SoundSettings) -> Result<(), AddSoundError> {
        for send in settings.sends.iter() {
            self.own_bus(send.bus)
                .map_err(|_| AddSoundError::NotBus(send.bus))?;
        }
        let buses: arrayvec::ArrayVec<TrackId, MAX_SENDS> =
            settings.sends.iter().map(|s| s.bus).collect();
        // Each is a bus (above): only their number can be refused.
        self.buses
            .can_route(&buses)
            .map_err(|_| AddSoundError::TooManyBuses)
    }

    /// The sends of `settings` as the mixer gets them, each bus given its out
    /// (checked by [`check_sends`](Self::check_sends)).
    pub(super) fn route_sends(&mut self, settings: &SoundSettings) -> SendOuts {
        let mut outs = SendOuts::default();
        for (out, send) in outs.iter_mut().zip(settings.sends.iter()) {
            *out = SendOut {
                out: self.buses.route(send.bus).unwrap_or(0),
                level: send.level.0,
                curve: send.distance,
            };
        }
        outs
    }

    /// `id` if it is a bus of this manager.
    pub(super) fn own_bus(&self, id: TrackId) -> Result<TrackId, MixError> {
        let groups = &self.groups;
        self.mix
            .resolve(&MixTarget::Track(id), |g| groups.contains(g))?;
        if self.buses.contains(id) {
            Ok(id)
        } else {
            Err(MixError::NotBus(id))
        }
    }
}

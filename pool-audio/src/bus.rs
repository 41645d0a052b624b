//! Buses: kira tracks with effect chains that voice groups, music tracks and
//! other buses route to, declared once as a tree under the output's limiter.
//!
//! The voice bank mixes every real voice in one kira sound on the
//! sound-effects track. A voice of a group routed to a bus is mixed there too,
//! into that bus's *out*: a ring of frames (rtrb) that the bus's *tap*, a kira
//! sound on the bus's track, reads in the same block. Kira processes a track's
//! sub-tracks newest first, and the sound-effects track is made after the
//! *root* track that holds every bus (and the music tracks made once a bus
//! is), so the bank has mixed a block before any tap reads it: a bused voice is heard on the same frame as
//! it would be on the sound-effects track, with no added latency. The rings
//! are made with the manager, sized from kira's internal buffer, and a bus
//! gets one the first time a group routes to it: a bus that only music or
//! other buses reach costs no ring and no work in the bank.

mod keyed;
mod tap;

use std::fmt;
use std::sync::Mutex;

use kira::effect::EffectBuilder;
use kira::effect::volume_control::{VolumeControlBuilder, VolumeControlHandle};
use kira::track::{TrackBuilder, TrackHandle};
use kira::{Decibels, Frame};
use rtrb::{Consumer, Producer, RingBuffer};

pub(crate) use keyed::{KeyedGain, KeyedGains};
pub(crate) use tap::Probe;
use tap::TapData;

use crate::{MixError, TrackId};

/// The most buses voice groups route to (the sound-effects track aside).
pub const MAX_VOICE_BUSES: usize = 15;

/// A bus to add with [`MixMut::add_bus`](crate::mix::MixMut::add_bus): where it
/// goes, its volume, and its chain of kira effects in order (a filter, an EQ,
/// a reverb, a compressor, a delay, a distortion, or any kira effect of the
/// game's), whose handles change them while the game runs. The mix adds a
/// volume control last, which ducks and snapshots set.
///
/// ```
/// use pool_audio::kira::effect::filter::FilterBuilder;
/// use pool_audio::mix::BusBuilder;
///
/// let mut muffled = BusBuilder::new().volume(-3.0);
/// let low_pass = muffled.add_effect(FilterBuilder::new().cutoff(800.0));
/// assert_eq!(muffled.effects(), 1);
/// # drop(low_pass);
/// ```
#[must_use]
pub struct BusBuilder {
    pub(crate) track: TrackBuilder,
    pub(crate) parent: Option<TrackId>,
    pub(crate) volume: Decibels,
    effects: usize,
    pub(crate) curves: crate::game::Curves,
}

impl Default for BusBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for BusBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BusBuilder")
            .field("parent", &self.parent)
            .field("volume", &self.volume)
            .field("effects", &self.effects)
            .finish_non_exhaustive()
    }
}

impl BusBuilder {
    /// A bus at 0 dB with no effect, routed to the output.
    pub fn new() -> Self {
        Self {
            track: TrackBuilder::new(),
            parent: None,
            volume: Decibels::IDENTITY,
            effects: 0,
            curves: crate::game::Curves::default(),
        }
    }

    /// Routes the bus to another bus (by default it goes to the output, under
    /// the limiter). The parent must exist first, so the tree has no circle.
    pub fn parent(mut self, bus: TrackId) -> Self {
        self.parent = Some(bus);
        self
    }

    /// Its volume, `-inf..=`[`MAX_MIX`](crate::mix::MAX_MIX) (an `f32` is
    /// decibels).
    pub fn volume(mut self, volume: impl Into<Decibels>) -> Self {
        self.volume = volume.into();
        self
    }

    /// Adds a curve from a game parameter to its volume (a
    /// [`CurveTarget::Volume`](crate::game::CurveTarget::Volume) curve, at
    /// most [`MAX_CURVES`](crate::game::MAX_CURVES)): decibels added to its
    /// volume as the parameter moves, gliding over each update (the rain
    /// bus rising with the storm).
    pub fn curve(mut self, curve: crate::game::Curve) -> Self {
        self.curves.push(curve);
        self
    }

    /// Adds `effect` after the ones added before, and returns its kira handle.
    pub fn add_effect<B: EffectBuilder>(&mut self, effect: B) -> B::Handle {
        self.effects += 1;
        self.track.add_effect(effect)
    }

    /// Adds `effect` after the ones added before, when its handle is not
    /// needed.
    pub fn with_effect<B: EffectBuilder>(mut self, effect: B) -> Self {
        let _ = self.add_effect(effect);
        self
    }

    /// How many effects the chain holds.
    pub fn effects(&self) -> usize {
        self.effects
    }
}

/// One bus on the game side.
struct Bus {
    id: TrackId,
    track: TrackHandle,
    /// The game's fader, and what its curves add to it (dB).
    fader: Decibels,
    curves: crate::game::Curves,
    curved: f32,
    /// The bank's out that reaches it, once a group routes to it.
    out: Option<u8>,
}

/// The buses of a manager, the root track that holds them and the music
/// tracks, and the rings not yet given to a bus.
pub(crate) struct Buses {
    list: Vec<Bus>,
    /// The ring ends to the taps, by out - 1, taken as buses get them. (In a
    /// mutex only to make the manager `Sync`: reached through `&mut self`,
    /// it is never locked.)
    taps: Mutex<Vec<Option<Consumer<Frame>>>>,
    /// How many rings no bus has taken yet.
    free: usize,
    /// The zones, by slot, and whether the mixer has yet to hear of a change.
    pub(crate) zones: [ZoneSlot; crate::MAX_ZONES],
    /// The gains side-chains set, a slot per track of the mix.
    pub(crate) gains: std::sync::Arc<KeyedGains>,
    /// The side-chains, and whether the mixer has heard of each.
    pub(crate) chains:
        arrayvec::ArrayVec<(crate::sidechain::SideChainOut, bool), { crate::MAX_SIDECHAINS }>,
    /// Holds every bus, and the music tracks routed to no bus made once it
    /// plays; dropped after them.
    root: TrackHandle,
    /// `root` is paused: it holds no bus yet.
    root_paused: bool,
}

/// A tween of no length: a track paused or resumed at once.
pub(crate) const INSTANT: kira::Tween = kira::Tween {
    start_time: kira::StartTime::Immediate,
    duration: std::time::Duration::ZERO,
    easing: kira::Easing::Linear,
};

/// A zone's place on the game side.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ZoneSlot {
    /// The zone, with its bus's out.
    pub(crate) zone: Option<crate::zone::ZoneOut>,
    /// Counts the zones the slot has held: an id of an earlier one is stale.
    pub(crate) generation: u32,
    /// The mixer has not heard of its last change yet.
    pub(crate) dirty: bool,
}

/// The ring ends the bank writes to, by out - 1.
pub(crate) type Outs = Vec<Producer<Frame>>;

impl Buses {
    /// The buses of a manager whose root track is `root`, with one ring per
    /// bus voices may reach, each holding two blocks of `block` frames.
    pub(crate) fn new(root: TrackHandle, block: usize) -> (Self, Outs) {
        let (outs, taps): (Outs, Vec<_>) = (0..MAX_VOICE_BUSES)
            .map(|_| {
                let (producer, consumer) = RingBuffer::new(2 * block);
                (producer, Some(consumer))
            })
            .unzip();
        let buses = Self {
            list: Vec::new(),
            taps: Mutex::new(taps),
            free: MAX_VOICE_BUSES,
            zones: [ZoneSlot::default(); crate::MAX_ZONES],
            gains: KeyedGains::new(crate::MAX_MIX_ITEMS),
            chains: arrayvec::ArrayVec::new(),
            root,
            root_paused: true,
        };
        (buses, outs)
    }

    /// How many rings no bus has taken yet.
    pub(crate) fn free(&self) -> usize {
        self.free
    }

    /// Whether `id` is a bus of this manager.
    pub(crate) fn contains(&self, id: TrackId) -> bool {
        self.list.iter().any(|b| b.id == id)
    }

    /// The track a bus with `parent` (or a music track routed to a bus) is
    /// added to. The root plays from the first bus: until then it is paused, and costs the mixer
    /// nothing (kira mixes a playing track frame by frame, empty or not). Its
    /// first block heard fades in, over the block, as kira resumes a track.
    ///
    /// # Errors
    /// [`MixError::NotBus`] if `parent` is no bus of this manager.
    pub(crate) fn parent_track(
        &mut self,
        parent: Option<TrackId>,
    ) -> Result<&mut TrackHandle, MixError> {
        match parent {
            None => {
                if std::mem::take(&mut self.root_paused) {
                    self.root.resume(INSTANT);
                }
                Ok(&mut self.root)
            }
            Some(id) => self
                .list
                .iter_mut()
                .find(|b| b.id == id)
                .map(|b| &mut b.track)
                .ok_or(MixError::NotBus(id)),
        }
    }

    /// The root's track once a bus has resumed it, else `None`.
    pub(crate) fn playing_root(&mut self) -> Option<&mut TrackHandle> {
        (!self.root_paused).then_some(&mut self.root)
    }

    /// Makes `bus`'s track under its parent, with the gain of slot `slot`
    /// (its side-chains') and a volume control last (whose handle is
    /// returned), and room for its tap.
    pub(crate) fn build(
        &mut self,
        bus: BusBuilder,
        slot: usize,
    ) -> Result<(TrackHandle, VolumeControlHandle), MixError> {
        let BusBuilder {
            mut track,
            parent,
            volume,
            ..
        } = bus;
        track.add_effect(KeyedGain::new(self.gains.clone(), slot));
        let control = track.add_effect(VolumeControlBuilder::new(Decibels::IDENTITY));
        let track = track.volume(volume).sound_capacity(1);
        let handle = self
            .parent_track(parent)?
            .add_sub_track(track)
            .map_err(|_| MixError::TooMany)?;
        Ok((handle, control))
    }

    /// Keeps the track of the bus named in the mix as `id`, at `fader`,
    /// its `curves` at the game's values `game` now.
    pub(crate) fn add(
        &mut self,
        id: TrackId,
        track: TrackHandle,
        (fader, curves): (Decibels, crate::game::Curves),
        game: &crate::game::GameParams,
    ) {
        let mut bus = Bus {
            id,
            track,
            out: None,
            fader,
            curves,
            curved: 0.0,
        };
        bus.follow(
            game,
            kira::Tween {
                duration: std::time::Duration::ZERO,
                ..Default::default()
            },
        );
        self.list.push(bus);
    }

    /// Every bus with curves follows the game's values, gliding over `glide`.
    pub(crate) fn follow(&mut self, game: &crate::game::GameParams, glide: kira::Tween) {
        for bus in &mut self.list {
            bus.follow(game, glide);
        }
    }

    /// The out the bank mixes `id`'s voices into, if `id` has one or can get
    /// one; changes nothing.
    pub(crate) fn out_of(&self, id: TrackId) -> Result<Option<u8>, MixError> {
        let bus = self
            .list
            .iter()
            .find(|b| b.id == id)
            .ok_or(MixError::NotBus(id))?;
        if bus.out.is_some() {
            return Ok(bus.out);
        }
        if self.free > 0 {
            Ok(None)
        } else {
            Err(MixError::TooManyVoiceBuses)
        }
    }

    /// Whether every bus of `ids` is a bus that has an out or can get one,
    /// all of them together; changes nothing.
    pub(crate) fn can_route(&self, ids: &[TrackId]) -> Result<(), MixError> {
        let mut new = 0;
        for (i, id) in ids.iter().enumerate() {
            if self.out_of(*id)?.is_none() && !ids[..i].contains(id) {
                new += 1;
            }
        }
        if new <= self.free {
            Ok(())
        } else {
            Err(MixError::TooManyVoiceBuses)
        }
    }

    /// The out the bank mixes `id`'s voices into: its own, or a new one whose
    /// tap starts playing on its track.
    pub(crate) fn route(&mut self, id: TrackId) -> Result<u8, MixError> {
        if let Some(out) = self.out_of(id)? {
            return Ok(out);
        }
        let taps = self
            .taps
            .get_mut()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let free = taps
            .iter()
            .position(Option::is_some)
            .ok_or(MixError::TooManyVoiceBuses)?;
        let bus = self
            .list
            .iter_mut()
            .find(|b| b.id == id)
            .ok_or(MixError::NotBus(id))?;
        let Some(consumer) = taps[free].take() else {
            return Err(MixError::TooManyVoiceBuses);
        };
        // The bus track has room for its tap alone, and holds nothing else.
        bus.track
            .play(TapData(consumer))
            .map_err(|_| MixError::TooMany)?;
        let out = free as u8 + 1;
        bus.out = Some(out);
        self.free -= 1;
        Ok(out)
    }

    /// Sets the volume of bus `id`'s track.
    pub(crate) fn set_volume(
        &mut self,
        id: TrackId,
        volume: Decibels,
        tween: kira::Tween,
    ) -> Result<(), MixError> {
        let bus = self
            .list
            .iter_mut()
            .find(|b| b.id == id)
            .ok_or(MixError::NotBus(id))?;
        bus.fader = volume;
        bus.track.set_volume(Decibels(volume.0 + bus.curved), tween);
        Ok(())
    }
}

impl Bus {
    /// Its curves at the game's values: its volume moves over `glide` if
    /// they moved.
    fn follow(&mut self, game: &crate::game::GameParams, glide: kira::Tween) {
        if self.curves.is_empty() {
            return;
        }
        let gain = self
            .curves
            .outputs(|id| game.global(id), &Default::default())
            .gain;
        let db = crate::level::decibels(gain).max(-200.0) as f32;
        if db != self.curved {
            self.curved = db;
            self.track.set_volume(Decibels(self.fader.0 + db), glide);
        }
    }
}

//! The manager: one facade over the parts that own their invariants. The
//! voices (records, the voice bank's slots and queue, the ended voices) are in
//! `voices.rs`, the sounds in `sound_table.rs`, the voice groups in `groups.rs`;
//! the facade checks what the game passes in, plans and carries out plays
//! (`sound_effects/plan.rs`, `play.rs`, with the places a voice may take in
//! `seats.rs`), and delegates the rest: per-voice control (`control.rs`), the
//! per-frame update (`update.rs`), the listener (`listener.rs`), the sounds
//! (`sounds.rs`) and the voice groups (`voice_groups.rs`).

#[allow(clippy::result_large_err)] // see `data` in lib.rs
mod banks;
mod buses;
mod capturing;
mod control;
mod cues;
mod game;
mod listener;
mod mixing;
mod plan;
mod play;
#[allow(clippy::result_large_err)] // see `data` in lib.rs
mod reload;
mod seats;
mod sounds;
mod switches;
mod update;
mod views;
mod voice_groups;
mod voice_table;
mod zones;

pub use views::{Listener, Mix, MixMut, SoundInfo, Voice};

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use kira::backend::Backend;
use kira::track::{TrackBuilder, TrackHandle};
use kira::{AudioManager, Decibels, Tween};
use pool_core::StaleHandle;

use crate::bank::BankBuilder;
use crate::bus::{Buses, Probe};
use crate::error::{SetupError, VoiceError};
use crate::groups::Groups;
use crate::handles::{Ended, VoiceHandle, VoiceKey, next_owner};
use crate::level::{amplitude, kira_volume};
use crate::limiter::{LimiterBuilder, LimiterHandle};
use crate::mix_core::{MixEngine, WindowNow};
use crate::params::{ParamError, check_fade, check_volume, linear_fade};
use crate::settings::{SettingsError, SoundEffectsSettings};
use crate::sound_table::SoundTable;
use crate::stats::SoundEffectsStats;
use crate::variations::Dice;
use crate::voice_pool::{SLOTS_PER_VOICE, Voices};

/// Sound-effect voices on the game's own kira [`AudioManager`](https://docs.rs/kira/0.12/kira/manager/struct.AudioManager.html): per-sound copy
/// limits with attenuation, a global voice cap with stealing, and a limiter as the
/// ceiling of everything it mixes.
///
/// It owns one output sub-track, with the limiter last, and in it the
/// sound-effects track with the voice bank: one kira sound holding every real
/// voice, created once (twice the voice cap: every real voice and as many
/// fading out). A play sends the bank a command and allocates nothing. Music
/// and ambience ([`Music`](crate::music::Music)) play on tracks of the same
/// output, under the same ceiling; the game's other kira tracks keep working
/// beside it.
///
/// Keep it alive while its sounds should play: like any kira track handle, dropping
/// it removes its output, the music tracks and every sound on them.
///
/// ```
/// use pool_audio::kira::{AudioManager, AudioManagerSettings};
/// use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
/// # use kira::sound::static_sound::StaticSoundData;
/// # let boom = StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame { left: 0.5, right: 0.5 }; 4800].into(), settings: Default::default(), slice: None };
///
/// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
/// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
/// // 10 copies, the first at 0.2, all 10 together within -1 dBFS.
/// let settings = SoundSettings::default().max_voices(10).first_volume(-14.0);
/// let explosion = sfx.add_sound("explosion", boom, settings)?;
///
/// // 100 enemies die in the same frame: 10 copies play, the stack stays below
/// // full scale, and the mixer is asked for 10 voices, not 100.
/// for _ in 0..100 {
///     let _ = sfx.play(explosion, PlayParams::default());
/// }
/// assert_eq!(sfx.sound_info(explosion).copies_playing(), 10);
/// sfx.update(1.0 / 60.0)?; // once per frame: ended voices go back to the pool
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SoundEffects {
    /// Which manager issued an id or a handle.
    owner: u32,
    /// The sound-effects track and its limiter.
    output: Output,
    voices: Voices,
    sounds: SoundTable,
    groups: Groups,
    rules: Rules,
    now: Now,
    stats: SoundEffectsStats,
    /// Every random choice's source (see `variations.rs`).
    dice: Dice,
    /// Ducks, snapshots and the mix's named tracks (see `mix.rs`).
    mix: MixEngine,
    /// The buses and the root track that holds them (see `bus.rs`).
    buses: Buses,
    /// The switches and their current states (see `switch.rs`).
    switches: crate::switch::Switches,
    /// The game parameters (see `game.rs`).
    game: crate::game::GameParams,
    /// The banks added, as they were last added or reloaded (see `reload.rs`).
    banks: Vec<crate::data::SoundBank>,
    /// The capture under way, if any (see `capture.rs`).
    capture: Option<Box<crate::capture::Recorder>>,
}

/// The output sub-track on the game's manager (the limiter, last), and in it
/// the sound-effects track (the voice bank) beside the root track of the
/// buses, and the music tracks made before any bus. Dropping the output
/// removes them all from the mix.
struct Output {
    /// The sound-effects track; dropped before the output that holds it.
    track: TrackHandle,
    /// Holds the tracks above and the music tracks routed to no bus:
    /// dropping it removes them from the mix.
    output: TrackHandle,
    limiter: Option<LimiterHandle>,
    /// The manager renders offline (music then decodes on the caller's thread).
    offline: bool,
}

impl Output {
    /// The output on `manager` (the limiter last, unless `settings` turn it
    /// off), the root of the buses in it, then the sound-effects track made
    /// from `track`; and the rings the bank mixes bused voices into.
    fn new<B: Backend + 'static>(
        manager: &mut AudioManager<B>,
        settings: &SoundEffectsSettings,
        track: TrackBuilder,
    ) -> Result<(Self, Buses, crate::bus::Outs), SetupError> {
        let block = Arc::new(AtomicUsize::new(0));
        let mut output = TrackBuilder::new()
            .sound_capacity(1)
            .sub_track_capacity(ROOT_TRACKS + 2)
            .with_effect(Probe(block.clone()));
        let limiter = match settings.limiter {
            Some(limiter) => {
                let limiter = LimiterBuilder::new(limiter)
                    .map_err(|e| SetupError::Settings(SettingsError::Limiter(e)))?;
                Some(output.add_effect(limiter))
            }
            None => None,
        };
        let mut output = manager
            .add_sub_track(output)
            .map_err(|_| SetupError::TrackLimit)?;
        // The root first, the sound-effects track second: kira mixes the
        // newer first, so the bank has mixed a block before the buses read it.
        let root = TrackBuilder::new()
            .sound_capacity(1)
            .sub_track_capacity(ROOT_TRACKS);
        let mut root = output
            .add_sub_track(root)
            .map_err(|_| SetupError::TrackLimit)?;
        // Paused until it holds a bus: kira mixes a track
        // frame by frame, empty or not (see `Buses::parent_track`).
        root.pause(crate::bus::INSTANT);
        // Kira told the probe its block size when it added the output.
        let block = match block.load(Ordering::Relaxed) {
            0 => UNKNOWN_BLOCK,
            frames => frames,
        };
        let (buses, outs) = Buses::new(root, block);
        let track = output
            .add_sub_track(track.sound_capacity(1).volume(Decibels::IDENTITY))
            .map_err(|_| SetupError::TrackLimit)?;
        let output = Self {
            track,
            output,
            limiter,
            offline: std::any::TypeId::of::<B>() == std::any::TypeId::of::<crate::OfflineBackend>(),
        };
        Ok((output, buses, outs))
    }
}

/// The settings, with what is derived from them once.
#[derive(Debug, Clone, Copy)]
struct Rules {
    settings: SoundEffectsSettings,
    /// `virtual_margin` as a gain.
    margin: f32,
}

impl Rules {
    /// The fade of a stolen, recycled or displaced voice, and a resumed one's
    /// fade-in.
    fn steal_tween(&self) -> Tween {
        linear_fade(self.settings.steal_fade)
    }
}

/// The game's present: where the listener is, and the game clock.
#[derive(Debug, Clone, Copy, Default)]
struct Now {
    listener: [f32; 3],
    /// Game time in microseconds, for retrigger intervals (see `clock.rs`).
    micros: u64,
    /// Updates so far.
    frame: u64,
    /// The loudness window as of now, if on.
    window: Option<WindowNow>,
    /// How the listener moves, for doppler.
    listener_motion: crate::cues::Motion,
    /// Where the listener faces (see `ears.rs`; `None`: as it starts), for
    /// the voice table.
    listener_orientation: Option<[f32; 4]>,
}

/// Commands the bank's queue holds between two blocks of the mixer, per voice
/// of the cap.
const COMMANDS_PER_VOICE: usize = 16;
/// The fewest commands the bank's queue holds.
const MIN_COMMANDS: usize = 1024;
/// The most tracks the root (or the output) holds: every bus and music track.
const ROOT_TRACKS: usize = crate::mix_core::MAX_MIX_ITEMS;
/// The block a bus's ring is made for if kira did not say (kira's default
/// internal buffer is 128 frames).
const UNKNOWN_BLOCK: usize = 1024;

impl SoundEffects {
    /// Adds the sound-effects sub-track to `manager` (with the limiter, unless the
    /// settings turn it off) and creates every voice now.
    ///
    /// # Errors
    /// [`SetupError::Settings`] for settings out of range (see
    /// [`SoundEffectsSettings::validate`]); [`SetupError::TrackLimit`] if kira has
    /// no room for another sub-track.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let bad = SoundEffectsSettings { voice_cap: 0, ..Default::default() };
    /// assert!(SoundEffects::new(&mut manager, bad).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new<B: Backend + 'static>(
        manager: &mut AudioManager<B>,
        settings: SoundEffectsSettings,
    ) -> Result<Self, SetupError> {
        Self::with_track(manager, settings, TrackBuilder::new())
    }

    /// Like [`new`](Self::new), on a track built from `track`: add effects to it
    /// first (kira's `TrackBuilder::add_effect` returns their handles), and sends.
    /// The manager then sets the track's sound capacity and its volume (0 dB;
    /// change it with [`set_track_volume`](Self::set_track_volume)) and puts it
    /// in the output, whose limiter comes after, so the ceiling holds whatever
    /// the effects do.
    ///
    /// # Errors
    /// As [`new`](Self::new).
    ///
    /// ```
    /// use pool_audio::kira::{AudioManager, AudioManagerSettings};
    /// use pool_audio::kira::effect::filter::FilterBuilder;
    /// use pool_audio::kira::track::TrackBuilder;
    /// use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    ///
    /// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut track = TrackBuilder::new();
    /// let filter = track.add_effect(FilterBuilder::new().cutoff(2_000.0));
    /// let sfx = SoundEffects::with_track(&mut manager, SoundEffectsSettings::default(), track)?;
    /// assert!(sfx.limiter().is_some());
    /// # drop(filter);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_track<B: Backend + 'static>(
        manager: &mut AudioManager<B>,
        settings: SoundEffectsSettings,
        track: TrackBuilder,
    ) -> Result<Self, SetupError> {
        settings.validate().map_err(SetupError::Settings)?;
        let (mut output, buses, outs) = Output::new(manager, &settings, track)?;
        let bank = output
            .track
            .play(BankBuilder {
                slots: settings.voice_cap * SLOTS_PER_VOICE,
                commands: (settings.voice_cap * COMMANDS_PER_VOICE).max(MIN_COMMANDS),
                steal_fade: settings.steal_fade,
                speed_of_sound: settings.speed_of_sound,
                outs,
                gains: buses.gains.clone(),
            })
            .map_err(|_| SetupError::TrackLimit)?;
        let owner = next_owner();
        let records = settings.voice_cap + settings.virtual_voices;
        // Validated settings always make a pool (limits.rs asserts the largest
        // fits); were it ever refused, the voice cap is what sized it.
        let voices = Voices::new(bank, settings.voice_cap, records, owner)
            .map_err(|_| SetupError::Settings(SettingsError::VoiceCap(settings.voice_cap)))?;
        let mix = MixEngine::new(owner, settings.loudness_window);
        let now = Now {
            window: mix.window.as_ref().map(|w| w.now()),
            ..Now::default()
        };
        Ok(Self {
            owner,
            output,
            voices,
            sounds: SoundTable::new(owner),
            groups: Groups::new(owner),
            rules: Rules {
                settings,
                margin: amplitude(f64::from(settings.virtual_margin.0)) as f32,
            },
            now,
            stats: SoundEffectsStats::default(),
            dice: Dice::new(settings.seed),
            mix,
            buses,
            switches: crate::switch::Switches::new(owner),
            game: crate::game::GameParams::new(owner),
            banks: Vec::new(),
            capture: None,
        })
    }

    /// The voices that ended by the last [`update`](Self::update): every voice
    /// whose handle went stale since the update before it, whether a call ended
    /// it (`stop`, a recycled copy, a stolen voice, a dropped virtual voice, a
    /// removed sound) or the update did (a one-shot that played to its end).
    /// Each voice is reported at most once, by one update: the list holds
    /// `voice_cap + virtual_voices` ends (at least 1,024), and ends beyond it are
    /// only counted, in [`SoundEffectsStats::unreported_ends`](crate::SoundEffectsStats::unreported_ends).
    /// Replaced at the next update; reading it allocates nothing, and the lists
    /// never grow.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use pool_audio::{EndReason, OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 480].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let id = sfx.add_sound("click", click, SoundSettings::default())?;
    /// let short = sfx.play(id, PlayParams::default())?;
    /// let long = sfx.play(id, PlayParams::default())?;
    /// sfx.voice(long).stop(Tween::default())?;
    /// sfx.update(1.0 / 60.0)?;
    /// assert_eq!(sfx.ended().len(), 1);
    /// assert_eq!((sfx.ended()[0].voice, sfx.ended()[0].reason), (long, EndReason::Stopped));
    /// // 10 ms later the mixer has played the click to its end.
    /// manager.backend_mut().render(0.05)?;
    /// sfx.update(1.0 / 60.0)?;
    /// assert_eq!((sfx.ended()[0].voice, sfx.ended()[0].reason), (short, EndReason::Finished));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn ended(&self) -> &[Ended] {
        self.voices.ended()
    }

    /// The key of a handle of this manager (live or not).
    fn own_voice(&self, voice: VoiceHandle) -> Result<VoiceKey, VoiceError> {
        if voice.owner == self.owner {
            Ok(voice.key)
        } else {
            Err(VoiceError::Stale(StaleHandle))
        }
    }

    /// Counters and levels for a profiler overlay.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// assert_eq!(sfx.stats().plays, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stats(&self) -> SoundEffectsStats {
        let real_voices = self.voices.real().len();
        SoundEffectsStats {
            real_voices,
            virtual_voices: self.voices.live() - real_voices,
            fading_voices: self.voices.fading(),
            unreported_ends: self.voices.unreported(),
            ..self.stats
        }
    }

    /// The volume of the sound-effects track (ungrouped voices and groups
    /// with no bus; a bus has [`MixMut::set_bus_volume`](crate::mix::MixMut::set_bus_volume)),
    /// at most 0 dB, reached with `fade`. The output's limiter holds the
    /// ceiling whatever this is.
    ///
    /// # Errors
    /// [`ParamError::Volume`] for a volume that is NaN or above 0 dB,
    /// [`ParamError::Fade`] for a fade kira cannot compute.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let fade = pool_audio::kira::Tween { duration: Duration::from_millis(100), ..Default::default() };
    /// sfx.set_track_volume(-6.0, fade)?;
    /// assert!(sfx.set_track_volume(6.0, fade).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_track_volume(
        &mut self,
        volume: impl Into<Decibels>,
        fade: Tween,
    ) -> Result<(), ParamError> {
        let volume = volume.into();
        let volume = check_volume(volume)?;
        let fade = check_fade(fade)?;
        self.output.track.set_volume(kira_volume(volume), fade);
        Ok(())
    }

    /// The limiter last on the output, the ceiling of the sound effects and the
    /// music together, to read its gain reduction (`None` if the settings
    /// turned it off).
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings};
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// assert_eq!(sfx.limiter().unwrap().gain_reduction().0, 0.0);
    /// let unlimited = SoundEffects::new(&mut manager, SoundEffectsSettings { limiter: None, ..Default::default() })?;
    /// assert!(unlimited.limiter().is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn limiter(&self) -> Option<&LimiterHandle> {
        self.output.limiter.as_ref()
    }

    /// The track a music track routed to `bus` is made in: the bus's; for
    /// `None`, the root's once a bus has resumed it (kira mixes it after the
    /// bank, so a side-chain reaches the track in the same block), else the
    /// output's (under its limiter, beside the bank): a music track never
    /// resumes the root (kira fades a resumed track in over its first block).
    pub(crate) fn music_parent(
        &mut self,
        bus: Option<crate::TrackId>,
    ) -> Result<&mut TrackHandle, crate::MixError> {
        match bus {
            Some(id) => {
                let groups = &self.groups;
                self.mix
                    .resolve(&crate::MixTarget::Track(id), |g| groups.contains(g))?;
                self.buses.parent_track(bus)
            }
            None => match self.buses.playing_root() {
                Some(root) => Ok(root),
                None => Ok(&mut self.output.output),
            },
        }
    }

    /// Whether the manager renders offline.
    pub(crate) fn is_offline(&self) -> bool {
        self.output.offline
    }
}

/// The voice bank outlives its handle until kira drops it (on the game thread):
/// every sound reference the game side holds goes with the bank, so a voice
/// still playing never holds the last one.
impl Drop for SoundEffects {
    fn drop(&mut self) {
        let sources = self.sounds.drain_sources();
        self.voices.leave_with_bank(sources);
    }
}

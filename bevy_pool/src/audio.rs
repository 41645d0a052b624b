//! The sound-effects plugin: the kira manager and the `SoundEffects` as
//! resources, listener and emitter components that follow their entity's
//! `GlobalTransform`, one-shot plays as messages, and the per-frame `update`.

use bevy::app::{App, Plugin, PostUpdate};
use bevy::ecs::prelude::*;
use bevy::math::Quat;
#[cfg(feature = "reflect")]
use bevy::prelude::ReflectDefault;
use bevy::time::{Real, Time, Virtual};
use bevy::transform::TransformSystems;
use bevy::transform::components::GlobalTransform;
use pool_audio::kira::track::MainTrackBuilder;
use pool_audio::kira::{AudioManager, AudioManagerSettings, Tween};
use pool_audio::{
    Ended, OfflineBackend, PlayError, PlayParams, SoundEffects, SoundEffectsSettings, SoundId,
    dsp::LimiterBuilder, dsp::LimiterHandle, dsp::LimiterSettings, music::Decode, music::Music,
    music::MusicSettings, offline::OfflineSettings, offline::Rendered,
};

use crate::emitters::{EmitterStats, follow_emitters, start_and_react, stop_gone_emitter};
use crate::music::{
    MusicRefused, MusicTracks, PlayMusic, StopMusic, music_messages, music_with_virtual_time,
};

/// Pooled, attenuated, limited sound effects for a Bevy app.
///
/// Adds the [`Sfx`] resource (the [`SoundEffects`], for adding sounds and
/// playing from any system), the [`AudioOutput`] that owns kira's manager, the
/// [`PlaySound`] message, and the systems of [`SoundSystems`] in `PostUpdate`,
/// after transform propagation. Settings are the plugin's fields, as in Bevy's
/// own plugins.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_pool::{SoundEffectsPlugin, Sfx};
///
/// let mut app = App::new();
/// app.add_plugins((bevy::time::TimePlugin, bevy::transform::TransformPlugin, SoundEffectsPlugin::default()));
/// app.update();
/// assert_eq!(app.world().resource::<Sfx>().stats().real_voices, 0);
/// ```
#[derive(Debug, Clone, Default)]
pub struct SoundEffectsPlugin {
    /// The voice cap, stealing, steal fade, limiter, ...
    pub settings: SoundEffectsSettings,
    /// Where the audio goes.
    pub output: Output,
    /// Advance sound effects on `Time<Virtual>`, so pausing the game's virtual
    /// time pauses every voice (`pause_all`) and unpausing resumes them. Off by
    /// default: menus and pause screens usually keep their sounds.
    pub pause_with_virtual_time: bool,
    /// A limiter last on kira's main track, for kira sounds of the game's
    /// own beside the plugin's (`None` by default: the sound effects' limiter,
    /// `settings.limiter`, already holds the effects and the music together).
    /// Its readings: [`AudioOutput::main_limiter`].
    pub main_limiter: Option<LimiterSettings>,
    /// The music and ambience tracks ([`MusicTracks`](crate::MusicTracks)), in
    /// the sound effects' mix. Where pieces are decoded follows the output,
    /// whatever `decode` says: ahead of each render offline, on a thread per
    /// piece on a sound card.
    pub music: MusicSettings,
    /// The level's mix, declared once: called with the new [`SoundEffects`]
    /// and the music settings before the music tracks are made, it adds the
    /// buses (with their kira effects), the mix's effect parameters, the
    /// snapshots, the side-chains, the voice groups, and routes the music
    /// tracks to buses ([`TrackSettings::bus`](pool_audio::music::TrackSettings::bus);
    /// the default tracks are named `"music"` and `"ambience"`, in the same
    /// namespace as the buses). An error stops the app when the plugin is
    /// added, naming it, as out-of-range settings do. See [`MixSetup`].
    pub mix: Option<MixSetup>,
    /// Capture the session from the first frame, with room for this many
    /// events (see [`pool_audio::capture`]): `Sfx`'s `stop_capture` hands
    /// it over, to write or replay. `None` by default.
    pub capture: Option<usize>,
}

/// The function that declares a [`SoundEffectsPlugin`]'s mix (its field
/// `mix`): buses, effect parameters, snapshots, side-chains, voice groups,
/// and the music tracks' buses.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_pool::prelude::*;
/// use bevy_pool::pool_audio::kira::effect::filter::FilterBuilder;
/// use bevy_pool::pool_audio::mix::BusBuilder;
/// use bevy_pool::pool_audio::SoundEffects;
///
/// /// Everything but the interface goes through the world bus; the pause menu
/// /// muffles it, music included.
/// fn level_mix(sfx: &mut SoundEffects, music: &mut MusicSettings) -> Result<(), Box<dyn std::error::Error>> {
///     let mut world = BusBuilder::new();
///     let mut filter = world.add_effect(FilterBuilder::new().cutoff(20_000.0));
///     let world = sfx.mix_mut().add_bus("world", world)?;
///     let cutoff = sfx.mix_mut().add_param("world cutoff", 20_000.0, 20.0..=20_000.0, move |hz, tween| {
///         filter.set_cutoff(hz, tween)
///     })?;
///     sfx.mix_mut().add_snapshot(Snapshot::new("pause").set(world, -6.0).set_param(cutoff, 400.0))?;
///     // The default music tracks, "music" and "ambience" (bus names are in
///     // their namespace), play through the world bus.
///     for track in &mut music.tracks {
///         track.bus = Some(world);
///     }
///     // Groups too: a `?` takes any of the crate's errors.
///     sfx.add_group("world", GroupSettings::default().bus(world))?;
///     Ok(())
/// }
///
/// let mut app = App::new();
/// app.add_plugins((
///     bevy::time::TimePlugin,
///     bevy::transform::TransformPlugin,
///     SoundEffectsPlugin { mix: Some(level_mix), ..default() },
/// ));
/// app.update();
/// // Later, the pause menu in one message.
/// let pause = app.world().resource::<Sfx>().mix().snapshot("pause").unwrap();
/// app.world_mut().write_message(ApplySnapshot { snapshot: pause, intensity: 1.0, tween: default() });
/// app.update();
/// assert_eq!(app.world().resource::<Sfx>().mix().stats().snapshots_active, 1);
/// ```
pub type MixSetup =
    fn(&mut SoundEffects, &mut MusicSettings) -> Result<(), Box<dyn std::error::Error>>;

/// Where a [`SoundEffectsPlugin`] sends its audio.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub enum Output {
    /// kira's offline backend: no device, rendered one frame's worth at a time
    /// and kept in [`AudioOutput::recorded`] if `record` (headless apps, tests,
    /// CI).
    Offline {
        /// The offline backend's settings (its sample rate).
        settings: OfflineSettings,
        /// Keep every rendered frame in memory, for a WAV at the end.
        record: bool,
    },
    /// The offline backend with its default settings, not recording: the
    /// default without the `device` feature.
    #[cfg_attr(not(feature = "device"), default)]
    Headless,
    /// The sound card, through kira's cpal backend: the default with the
    /// `device` feature. If no device can be opened, the plugin falls back to
    /// [`Output::Headless`], says why in [`AudioOutput::fallback`] and sends
    /// [`SoundWarning::NoDevice`] on the first frame: a game without a sound
    /// card runs silent instead of stopping.
    #[cfg(feature = "device")]
    #[cfg_attr(feature = "device", default)]
    Device,
    /// A browser's audio, through `pool_audio::web` (the `web` feature): the
    /// offline mix rendered ahead of an AudioWorklet by the settings'
    /// buffering, started on the page's first click, touch or key (until
    /// then the mix runs at the game's pace, unheard). The page must be
    /// cross-origin isolated. Elsewhere than wasm32, or if the page cannot
    /// start it, the plugin plays on [`Output::Headless`], says why in
    /// [`AudioOutput::fallback`] and sends [`SoundWarning::NoDevice`]. With
    /// music, keep the buffering under half the music's buffer (1 s by
    /// default).
    #[cfg(feature = "web")]
    Web(pool_audio::web::WebSettings),
}

/// The kira manager the plugin owns (one per app: its size does not matter).
#[allow(clippy::large_enum_variant)]
enum Manager {
    Offline(AudioManager<OfflineBackend>),
    #[cfg(feature = "device")]
    Device(AudioManager<pool_audio::kira::DefaultBackend>),
}

impl Manager {
    fn offline(&mut self) -> Option<&mut AudioManager<OfflineBackend>> {
        match self {
            Manager::Offline(manager) => Some(manager),
            #[cfg(feature = "device")]
            Manager::Device(_) => None,
        }
    }
}

/// Owns kira's [`AudioManager`](https://docs.rs/kira/0.12/kira/manager/struct.AudioManager.html): on the sound card (`Output::Device`, the `device` feature) kira
/// plays on its own audio thread; on the offline backend the plugin renders each
/// frame's real `dt` of audio after the sound effects' update. A non-send
/// resource: `NonSendMut<AudioOutput>`.
pub struct AudioOutput {
    manager: Manager,
    fallback: Option<String>,
    main_limiter: Option<LimiterHandle>,
    sample_rate: u32,
    record: bool,
    recorded: Vec<f32>,
    /// The frame's audio when not recording, reused.
    scratch: Vec<f32>,
    #[cfg(feature = "web")]
    web: Option<crate::web::WebAudio>,
}

impl AudioOutput {
    /// The offline kira manager, for music, tracks and clocks of the game's own
    /// (`None` on a device: `device_manager`, with the `device` feature).
    pub fn offline_manager(&mut self) -> Option<&mut AudioManager<OfflineBackend>> {
        self.manager.offline()
    }

    /// The device's kira manager, when the output is the sound card.
    #[cfg(feature = "device")]
    pub fn device_manager(
        &mut self,
    ) -> Option<&mut AudioManager<pool_audio::kira::DefaultBackend>> {
        match &mut self.manager {
            Manager::Device(manager) => Some(manager),
            Manager::Offline(_) => None,
        }
    }

    /// The limiter on kira's main track, when the plugin's `main_limiter` asks
    /// for one: its gain reduction, the peak before it.
    pub fn main_limiter(&self) -> Option<&LimiterHandle> {
        self.main_limiter.as_ref()
    }

    /// `true` when the audio goes to a sound card.
    pub fn is_device(&self) -> bool {
        !matches!(self.manager, Manager::Offline(_))
    }

    /// Why the plugin fell back to the offline backend, if it asked for a device
    /// and none could be opened, or for the web and is not in a browser or the
    /// page could not start it.
    pub fn fallback(&self) -> Option<&str> {
        self.fallback.as_deref()
    }

    /// The web output (`Output::Web` in a browser): its underruns, the
    /// frames handed to the page.
    #[cfg(feature = "web")]
    pub fn web(&self) -> Option<&pool_audio::web::WebOutput> {
        self.web.as_ref().map(crate::web::WebAudio::output)
    }

    /// The samples rendered so far (interleaved stereo), when the output
    /// records; a view, not a copy.
    pub fn recorded_samples(&self) -> &[f32] {
        &self.recorded
    }

    /// Everything rendered so far, when the output records (a copy, for a WAV).
    pub fn recorded(&self) -> Rendered {
        Rendered::from_samples(self.sample_rate, self.recorded.clone())
    }
}

/// The plugin's [`pool_audio::SoundEffects`] as a resource: it derefs to it,
/// and every method is `SoundEffects`' own, documented in `pool_audio`. Add
/// sounds at load time, play from any system (`ResMut<Sfx>`), read `stats()`.
#[derive(Resource)]
pub struct Sfx(SoundEffects);

impl std::ops::Deref for Sfx {
    type Target = SoundEffects;
    fn deref(&self) -> &SoundEffects {
        &self.0
    }
}

impl std::ops::DerefMut for Sfx {
    fn deref_mut(&mut self) -> &mut SoundEffects {
        &mut self.0
    }
}

/// The entity whose `GlobalTransform` is the listener (a camera, the player).
/// The listener hears from its translation and turns with its rotation
/// (Bevy's cameras face -z with +x to the right, as kira's listener does: a
/// voice on the camera's right is heard on the right). With several, the one
/// of the lowest entity index is used; with none, the listener stays where it
/// last was (at first, the origin); each situation sends one [`SoundWarning`]
/// when it begins.
#[derive(Component, Debug, Clone, Copy, Default)]
#[cfg_attr(
    feature = "reflect",
    derive(bevy::reflect::Reflect),
    reflect(Component, Default, Debug)
)]
pub struct SoundListener;

/// A one-shot: `MessageWriter<PlaySound>` from any system, played in
/// [`SoundSystems::Play`].
#[derive(Message, Debug, Clone)]
pub struct PlaySound {
    /// The sound.
    pub sound: SoundId,
    /// Its parameters (a position, if it has one).
    pub params: PlayParams,
}

/// A voice that ended (finished, stopped, recycled, stolen, dropped, or its
/// sound removed), sent at most once per voice in [`SoundSystems::Update`]:
/// [`SoundEffects::ended`] as a message (past that list's size, an end is only
/// counted in `SoundEffectsStats::unreported_ends`).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct VoiceEnded(pub Ended);

/// A [`PlaySound`] or an emitter that was refused, with the reason.
#[derive(Message, Debug, Clone)]
pub struct PlayRefused {
    /// The sound.
    pub sound: SoundId,
    /// The emitter's entity, for an emitter.
    pub entity: Option<Entity>,
    /// Why.
    pub error: PlayError,
}

/// The plugin's systems (Bevy names its own sets `*Systems`, as
/// `TransformSystems`), in this order in `PostUpdate`, after transform
/// propagation: the listener and emitters move, then queued plays start, then
/// the sound effects update, then (offline) the frame's audio is rendered.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SoundSystems {
    /// Listener and emitters follow their transforms; new emitters start. (An
    /// emitter that goes away stops its voice as it goes, through an observer.)
    Spatial,
    /// [`PlaySound`] messages are played.
    Play,
    /// `SoundEffects::update` with the frame's time step.
    Update,
    /// The offline backend renders the frame's audio.
    Render,
}

/// # Panics
/// When the plugin is added, if its `settings` are out of range (a typed
/// [`SetupError`](pool_audio::error::SetupError) in the message), as Bevy's own plugins
/// do with a configuration they cannot run.
impl Plugin for SoundEffectsPlugin {
    fn build(&self, app: &mut App) {
        let (offline, record) = match &self.output {
            Output::Offline { settings, record } => (*settings, *record),
            _ => (OfflineSettings::default(), false),
        };
        let limiter = self.main_limiter.map(|settings| {
            LimiterBuilder::new(settings)
                .unwrap_or_else(|error| panic!("SoundEffectsPlugin's main limiter: {error}"))
        });
        let main_limiter = limiter.as_ref().map(LimiterBuilder::handle);
        let main_track = || match &limiter {
            Some(limiter) => MainTrackBuilder::new().with_effect(limiter.clone()),
            None => MainTrackBuilder::new(),
        };
        let offline_manager = || {
            AudioManager::<OfflineBackend>::new(AudioManagerSettings {
                backend_settings: offline,
                main_track_builder: main_track(),
                ..Default::default()
            })
            .unwrap_or_else(|error| panic!("the offline audio backend failed to start: {error}"))
        };
        let (mut manager, fallback) = match &self.output {
            #[cfg(feature = "device")]
            Output::Device => {
                let settings = AudioManagerSettings {
                    main_track_builder: main_track(),
                    ..Default::default()
                };
                match AudioManager::<pool_audio::kira::DefaultBackend>::new(settings) {
                    Ok(manager) => (Manager::Device(manager), None),
                    Err(error) => (
                        Manager::Offline(offline_manager()),
                        Some(format!("no audio device: {error}")),
                    ),
                }
            }
            _ => (Manager::Offline(offline_manager()), None),
        };
        let sfx = match &mut manager {
            Manager::Offline(manager) => SoundEffects::new(manager, self.settings),
            #[cfg(feature = "device")]
            Manager::Device(manager) => SoundEffects::new(manager, self.settings),
        }
        .unwrap_or_else(|error| panic!("SoundEffectsPlugin's settings: {error}"));
        // Music decodes as the output needs: ahead of each render offline, on
        // a thread per piece on a sound card. Its tracks are in the mix.
        let mut sfx = sfx;
        let mut music_settings = MusicSettings {
            decode: Decode::Auto,
            ..self.music.clone()
        };
        if let Some(mix) = self.mix {
            mix(&mut sfx, &mut music_settings)
                .unwrap_or_else(|error| panic!("SoundEffectsPlugin's mix: {error}"));
        }
        let music = Music::new(&mut sfx, music_settings)
            .unwrap_or_else(|error| panic!("SoundEffectsPlugin's music settings: {error}"));
        if let Some(events) = self.capture {
            sfx.start_capture(events);
        }
        let sample_rate = match &mut manager {
            Manager::Offline(manager) => manager.backend_mut().sample_rate(),
            #[cfg(feature = "device")]
            Manager::Device(_) => 0,
        };
        #[cfg(feature = "web")]
        let (web, fallback) = match (&self.output, &mut manager) {
            (Output::Web(settings), Manager::Offline(manager)) => {
                match crate::web::WebAudio::new(manager.backend_mut(), *settings) {
                    Ok(web) => (Some(web), fallback),
                    Err(why) => (None, Some(why)),
                }
            }
            _ => (None, fallback),
        };
        if fallback.is_some() {
            app.add_systems(bevy::app::Startup, say_no_device);
        }
        crate::named::register(app);
        app.insert_resource(Sfx(sfx))
            .insert_resource(MusicTracks(music))
            .add_message::<PlayMusic>()
            .add_message::<crate::ApplySnapshot>()
            .add_message::<crate::ReleaseSnapshot>()
            .add_message::<crate::MixRefused>()
            .add_message::<StopMusic>()
            .add_message::<MusicRefused>()
            .add_message::<crate::ZoneRefused>()
            .add_message::<crate::SetGameParam>()
            .add_message::<crate::GameParamRefused>()
            .init_resource::<crate::zones::ZoneIds>()
            .insert_non_send(AudioOutput {
                sample_rate,
                manager,
                fallback,
                main_limiter,
                record,
                recorded: Vec::new(),
                scratch: Vec::new(),
                #[cfg(feature = "web")]
                web,
            })
            .insert_resource(Paused {
                with_virtual_time: self.pause_with_virtual_time,
                paused: false,
            })
            .init_resource::<EmitterStats>()
            .add_observer(stop_gone_emitter)
            .add_message::<PlaySound>()
            .add_message::<PlayRefused>()
            .add_message::<SoundWarning>()
            .add_message::<VoiceEnded>()
            .configure_sets(
                PostUpdate,
                (
                    SoundSystems::Spatial,
                    SoundSystems::Play,
                    SoundSystems::Update,
                    SoundSystems::Render,
                )
                    .chain()
                    .after(TransformSystems::Propagate),
            )
            .add_systems(
                PostUpdate,
                (
                    (
                        crate::named::resolve_named,
                        follow_listener,
                        crate::cues::listener_velocity,
                        start_and_react,
                        follow_emitters,
                        crate::cues::emitter_cues,
                        crate::game_params::emitter_game_params,
                    )
                        .chain()
                        .in_set(SoundSystems::Spatial),
                    (
                        play_messages,
                        // A music track its first piece makes in the frame a
                        // snapshot is applied starts at the snapshot's level.
                        music_messages.after(crate::mixing::mix_messages),
                        crate::mixing::mix_messages,
                        crate::game_params::game_param_messages,
                        crate::zones::follow_zones,
                    )
                        .in_set(SoundSystems::Play),
                    (update, music_with_virtual_time).in_set(SoundSystems::Update),
                    render.in_set(SoundSystems::Render),
                ),
            );
    }
}

#[derive(Resource)]
struct Paused {
    with_virtual_time: bool,
    paused: bool,
}

fn position(transform: &GlobalTransform) -> [f32; 3] {
    let t = transform.translation();
    [t.x, t.y, t.z]
}

/// A Bevy rotation as the quaternion pool-audio takes.
pub(crate) fn quaternion(rotation: Quat) -> pool_audio::mint::Quaternion<f32> {
    pool_audio::mint::Quaternion {
        v: [rotation.x, rotation.y, rotation.z].into(),
        s: rotation.w,
    }
}

/// Something about the listener or an emitter that the plugin cannot hear as
/// the game meant it, sent once when it begins (again only after it ended):
/// the game gets a message, not silence; with the `bevy_log` feature it is
/// logged too (`warn!`, its `Display`). A refused play is a [`PlayRefused`].
#[derive(Message, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum SoundWarning {
    /// No entity has a [`SoundListener`]: the listener stays where it last was.
    NoListener,
    /// Several entities have a [`SoundListener`]: `used`, the one of the
    /// lowest entity index, is heard from.
    SeveralListeners {
        /// The listener used.
        used: Entity,
        /// How many there are.
        count: usize,
    },
    /// The listener's transform is NaN or infinite: it stays where it was.
    NonFiniteListener(Entity),
    /// An emitter's transform is NaN or infinite: its voice stays where it was
    /// (or its play is refused, a [`PlayRefused`], until it is finite).
    NonFiniteEmitter(Entity),
    /// An emitter's [`fade_out`](crate::SoundEmitter::fade_out) has an easing
    /// kira cannot compute (a negative or NaN power): its voice was stopped
    /// with kira's default 10 ms fade instead.
    BadFadeOut(Entity),
    /// An emitter's [`GameParamValues`](crate::GameParamValues) were refused
    /// for its voice (a parameter of another manager, a value that is not
    /// finite, more than the voice holds): the voice follows the game's.
    GameParam {
        /// The emitter.
        entity: Entity,
        /// Why.
        error: pool_audio::VoiceError,
    },
    /// A [`SoundEmitterNamed`](crate::SoundEmitterNamed) names a sound
    /// [`Sfx`] has not had for a second since the emitter appeared: it
    /// stays silent until a sound of that name is added.
    UnknownSound(Entity),
    /// `Output::Device` (the `device` feature) opened no sound card, or
    /// `Output::Web` (the `web` feature) is not in a browser or the page
    /// could not start it: the plugin plays on the offline output, silent
    /// ([`AudioOutput::fallback`] says why). Sent on the first frame, or when
    /// the page fails.
    NoDevice,
}

impl std::fmt::Display for SoundWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::GameParam { entity, error } => {
                write!(f, "the emitter {entity}'s game parameter values were refused: {error}")
            }
            Self::NoListener => {
                f.write_str("no entity has a SoundListener: the listener stays where it last was")
            }
            Self::SeveralListeners { used, count } => write!(
                f,
                "{count} entities have a SoundListener: {used}, the lowest index, is heard from"
            ),
            Self::NonFiniteListener(entity) => write!(
                f,
                "the listener {entity} has a NaN or infinite transform: it stays where it was"
            ),
            Self::NonFiniteEmitter(entity) => write!(
                f,
                "the emitter {entity} has a NaN or infinite transform: its voice stays where it was"
            ),
            Self::BadFadeOut(entity) => write!(
                f,
                "the emitter {entity}'s fade_out has a negative or NaN easing power: its voice stopped with a 10 ms fade"
            ),
            Self::UnknownSound(entity) => write!(
                f,
                "the emitter {entity} names a sound the sound effects do not have: it stays silent until one of that name is added"
            ),
            Self::NoDevice => f.write_str(
                "no sound card or browser audio could be opened: the sound effects play on the offline output, silent (AudioOutput::fallback says why)",
            ),
        }
    }
}

/// The device did not open: says so once, with the reason in the log.
fn say_no_device(output: NonSend<AudioOutput>, mut warnings: MessageWriter<SoundWarning>) {
    if let Some(_why) = output.fallback() {
        #[cfg(feature = "bevy_log")]
        bevy::log::warn!("{_why}");
        warn(&mut warnings, SoundWarning::NoDevice);
    }
}

/// Sends `warning`, and with the `bevy_log` feature logs it too.
pub(crate) fn warn(warnings: &mut MessageWriter<SoundWarning>, warning: SoundWarning) {
    #[cfg(feature = "bevy_log")]
    bevy::log::warn!("{warning}");
    warnings.write(warning);
}

/// What the listener warnings last said, so each is sent once.
#[derive(Default)]
pub(crate) struct ListenerState {
    turned: Quat,
    /// Listeners last frame (`None` before the first).
    count: Option<usize>,
    bad: Option<Entity>,
}

fn follow_listener(
    mut sfx: ResMut<Sfx>,
    listeners: Query<(Entity, &GlobalTransform), With<SoundListener>>,
    mut state: Local<ListenerState>,
    mut warnings: MessageWriter<SoundWarning>,
) {
    let count = listeners.iter().len();
    let used = listeners.iter().min_by_key(|(entity, _)| entity.index());
    if state.count != Some(count) {
        match (count, used) {
            (0, _) => {
                warn(&mut warnings, SoundWarning::NoListener);
            }
            (2.., Some((used, _))) if state.count.is_none_or(|before| before < 2) => {
                warn(
                    &mut warnings,
                    SoundWarning::SeveralListeners { used, count },
                );
            }
            _ => {}
        }
        state.count = Some(count);
    }
    let Some((entity, transform)) = used else {
        return;
    };
    // A NaN transform is the game's bug; the listener stays where it was.
    if sfx.listener().set_position(position(transform)).is_err() {
        if state.bad != Some(entity) {
            warn(&mut warnings, SoundWarning::NonFiniteListener(entity));
            state.bad = Some(entity);
        }
        return;
    }
    state.bad = None;
    // Bevy's cameras face -z with +x to the right, as kira's listener does.
    let rotation = transform.rotation();
    if rotation != state.turned && sfx.listener().set_orientation(quaternion(rotation)).is_ok() {
        state.turned = rotation;
    }
}

fn play_messages(
    mut sfx: ResMut<Sfx>,
    mut plays: MessageReader<PlaySound>,
    mut refused: MessageWriter<PlayRefused>,
) {
    for play in plays.read() {
        if let Err(error) = sfx.play(play.sound, play.params) {
            refused.write(PlayRefused {
                sound: play.sound,
                entity: None,
                error,
            });
        }
    }
}

fn update(
    mut sfx: ResMut<Sfx>,
    time: Res<Time<Virtual>>,
    mut paused: ResMut<Paused>,
    mut ended: MessageWriter<VoiceEnded>,
) {
    if paused.with_virtual_time && time.is_paused() != paused.paused {
        let done = if time.is_paused() {
            sfx.pause_all(Tween::default())
        } else {
            sfx.resume_all(Tween::default())
        };
        // A full queue refuses the whole call: it is tried again next frame.
        if done.is_ok() {
            paused.paused = time.is_paused();
        }
    }
    // Virtual time's delta is finite and never negative.
    if sfx.update(time.delta_secs_f64()).is_ok() {
        ended.write_batch(sfx.ended().iter().copied().map(VoiceEnded));
    }
}

fn render(
    mut output: NonSendMut<AudioOutput>,
    mut music: ResMut<MusicTracks>,
    time: Res<Time<Real>>,
    mut _warnings: MessageWriter<SoundWarning>,
) {
    let output = &mut *output;
    // Audio time is real time, as a device's would be: a paused game still
    // plays its music, and its paused voices are silent.
    // On a device, kira plays on its own thread.
    let Some(manager) = output.manager.offline() else {
        return;
    };
    // In a browser, the page's worklet sets the pace once it plays.
    #[cfg(feature = "web")]
    if let Some(web) = &mut output.web {
        music.fill();
        match web.frame(manager.backend_mut()) {
            Ok(true) => return,
            Ok(false) => {}
            Err(why) => {
                output.web = None;
                output.fallback = Some(why);
                warn(&mut _warnings, SoundWarning::NoDevice);
            }
        }
    }
    let seconds = time.delta_secs_f64();
    let buffer = if output.record {
        &mut output.recorded
    } else {
        output.scratch.clear();
        &mut output.scratch
    };
    // Music is decoded ahead before each step of at most half its buffer, so a
    // long frame never runs a piece dry. A frame's real time is finite and
    // never negative: rendering cannot fail.
    let step = music.buffer().as_secs_f64() / 2.0;
    let mut left = seconds;
    while left > 0.0 {
        music.fill();
        let _ = manager.backend_mut().render_append(left.min(step), buffer);
        left -= step;
    }
}

//! The sound-effects plugin: the kira manager and the `SoundEffects` as
//! resources, listener and emitter components that follow their entity's
//! `GlobalTransform`, one-shot plays as messages, and the per-frame `update`.

use std::time::Duration;

use bevy::app::{App, Plugin, PostUpdate};
use bevy::ecs::prelude::*;
use bevy::math::Quat;
use bevy::time::{Real, Time, Virtual};
use bevy::transform::TransformSystems;
use bevy::transform::components::GlobalTransform;
use pool_audio::kira::{AudioManager, AudioManagerSettings, Tween};
use pool_audio::{
    Ended, OfflineBackend, OfflineSettings, PlayError, PlayParams, Rendered, SoundEffects,
    SoundEffectsSettings, SoundId, VoiceHandle,
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
}

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
    /// The offline backend with its default settings, not recording.
    #[default]
    Headless,
    /// The sound card, through kira's cpal backend (the `device` feature). If no
    /// device can be opened, the plugin falls back to [`Output::Headless`] and
    /// says why in [`AudioOutput::fallback`]: a game without a sound card runs
    /// silent instead of stopping.
    #[cfg(feature = "device")]
    Device,
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
    sample_rate: u32,
    record: bool,
    recorded: Vec<f32>,
    /// The frame's audio when not recording, reused.
    scratch: Vec<f32>,
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

    /// `true` when the audio goes to a sound card.
    pub fn is_device(&self) -> bool {
        !matches!(self.manager, Manager::Offline(_))
    }

    /// Why the plugin fell back to the offline backend, if it asked for a device
    /// and none could be opened.
    pub fn fallback(&self) -> Option<&str> {
        self.fallback.as_deref()
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

/// The sound effects: add sounds at load time, play from any system
/// (`ResMut<Sfx>`), read `stats()`. Derefs to [`SoundEffects`].
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
/// The first one found each frame is used; the listener hears from its
/// translation and turns with its rotation (Bevy's cameras face -z with +x to
/// the right, as kira's listener does: a voice on the camera's right is heard
/// on the right).
#[derive(Component, Debug, Clone, Copy, Default)]
pub struct SoundListener;

/// A sound that plays from an entity and follows its `GlobalTransform` every
/// frame: an engine, a torch, a waterfall. Its voice starts when the component
/// is added; when the entity is despawned (or the component removed) the voice
/// stops with [`SoundEmitter::fade_out`]. Unless its params name an owner, the
/// entity is its voice's owner (`Entity::to_bits`), so a sound's
/// `max_voices_per_owner` caps it per entity and `stop_owner` stops it.
#[derive(Component, Debug, Clone)]
pub struct SoundEmitter {
    /// The sound to play.
    pub sound: SoundId,
    /// How to play it; its position is the entity's.
    pub params: PlayParams,
    /// The fade when the emitter goes away.
    pub fade_out: Duration,
    voice: Option<VoiceHandle>,
}

impl SoundEmitter {
    /// Plays `sound` from the entity, with a 50 ms fade when it goes away.
    pub fn new(sound: SoundId) -> Self {
        Self {
            sound,
            params: PlayParams::default(),
            fade_out: Duration::from_millis(50),
            voice: None,
        }
    }

    /// Plays with `params` (volume, rate, panning, ...).
    pub fn params(mut self, params: PlayParams) -> Self {
        self.params = params;
        self
    }

    /// The emitter's voice once it started (`None` if the play was refused).
    pub fn voice(&self) -> Option<VoiceHandle> {
        self.voice
    }
}

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
/// counted in `AudioStats::unreported_ends`).
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
/// [`SetupError`](pool_audio::SetupError) in the message), as Bevy's own plugins
/// do with a configuration they cannot run.
impl Plugin for SoundEffectsPlugin {
    fn build(&self, app: &mut App) {
        let (offline, record) = match &self.output {
            Output::Offline { settings, record } => (*settings, *record),
            _ => (OfflineSettings::default(), false),
        };
        let offline_manager = || {
            AudioManager::<OfflineBackend>::new(AudioManagerSettings {
                backend_settings: offline,
                ..Default::default()
            })
            .unwrap_or_else(|error| panic!("the offline audio backend failed to start: {error}"))
        };
        let (mut manager, fallback) = match &self.output {
            #[cfg(feature = "device")]
            Output::Device => {
                match AudioManager::<pool_audio::kira::DefaultBackend>::new(Default::default()) {
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
        let sample_rate = match &mut manager {
            Manager::Offline(manager) => manager.backend_mut().sample_rate(),
            #[cfg(feature = "device")]
            Manager::Device(_) => 0,
        };
        app.insert_resource(Sfx(sfx))
            .insert_non_send(AudioOutput {
                sample_rate,
                manager,
                fallback,
                record,
                recorded: Vec::new(),
                scratch: Vec::new(),
            })
            .insert_resource(Paused {
                with_virtual_time: self.pause_with_virtual_time,
                paused: false,
            })
            .add_observer(stop_gone_emitter)
            .add_message::<PlaySound>()
            .add_message::<PlayRefused>()
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
                    (follow_listener, start_emitters, follow_emitters)
                        .chain()
                        .in_set(SoundSystems::Spatial),
                    play_messages.in_set(SoundSystems::Play),
                    update.in_set(SoundSystems::Update),
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

fn follow_listener(
    mut sfx: ResMut<Sfx>,
    listener: Query<&GlobalTransform, With<SoundListener>>,
    mut turned: Local<Quat>,
) {
    if let Some(transform) = listener.iter().next() {
        // A NaN transform is the game's bug; the listener stays where it was.
        let _ = sfx.set_listener(position(transform));
        // Bevy's cameras face -z with +x to the right, as kira's listener does.
        let rotation = transform.rotation();
        if rotation != *turned && sfx.set_listener_orientation(quaternion(rotation)).is_ok() {
            *turned = rotation;
        }
    }
}

fn start_emitters(
    mut sfx: ResMut<Sfx>,
    mut added: Query<(Entity, &mut SoundEmitter, &GlobalTransform), Added<SoundEmitter>>,
    mut refused: MessageWriter<PlayRefused>,
) {
    for (entity, mut emitter, transform) in &mut added {
        let mut params = emitter.params.position(position(transform));
        if params.owner.is_none() {
            params = params.owner(entity.to_bits());
        }
        match sfx.play(emitter.sound, params) {
            Ok(voice) => emitter.voice = Some(voice),
            Err(error) => {
                refused.write(PlayRefused {
                    sound: emitter.sound,
                    entity: Some(entity),
                    error,
                });
            }
        }
    }
}

fn follow_emitters(
    mut sfx: ResMut<Sfx>,
    emitters: Query<(&SoundEmitter, &GlobalTransform), Changed<GlobalTransform>>,
) {
    for (emitter, transform) in &emitters {
        if let Some(voice) = emitter.voice {
            // A voice that ended (a one-shot emitter) is forgotten.
            let _ = sfx.set_position(voice, position(transform));
        }
    }
}

/// An emitter that goes away (its entity despawned, or the component removed)
/// stops its voice with its `fade_out`: an observer, run as the component is
/// removed (it can still read it), whichever system or command removes it.
fn stop_gone_emitter(
    gone: On<Remove, SoundEmitter>,
    emitters: Query<&SoundEmitter>,
    sfx: Option<ResMut<Sfx>>,
) {
    let (Ok(emitter), Some(mut sfx)) = (emitters.get(gone.entity), sfx) else {
        return;
    };
    if let Some(voice) = emitter.voice {
        // A voice that ended already is stale: nothing to stop.
        let _ = sfx.stop(voice, pool_audio::linear_fade(emitter.fade_out));
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

fn render(mut output: NonSendMut<AudioOutput>, time: Res<Time<Real>>) {
    let output = &mut *output;
    // Audio time is real time, as a device's would be: a paused game still
    // plays its music, and its paused voices are silent.
    // On a device, kira plays on its own thread.
    let Some(manager) = output.manager.offline() else {
        return;
    };
    let seconds = time.delta_secs_f64();
    let buffer = if output.record {
        &mut output.recorded
    } else {
        output.scratch.clear();
        &mut output.scratch
    };
    // A frame's real time is finite and never negative: this cannot fail.
    let _ = manager.backend_mut().render_append(seconds, buffer);
}

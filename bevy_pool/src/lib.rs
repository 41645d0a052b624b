//! Bevy plugins for the workspace: pooled sound-effect voices ([`pool_audio`]),
//! pooled sprite-animation effects ([`pool_effects`]) and pooled entities
//! (bullets, enemies: [`EntityPools`]).
//!
//! # Why
//! A Bevy game that plays the same explosion for a hundred enemies needs what
//! `pool-audio` gives a kira game (copies of a sound that share a budget, a mix
//! ceiling, a voice cap with stealing, virtual voices that come back) without
//! writing the glue: who owns kira's manager, when `update` runs, how transforms
//! move the listener and the emitters, how a despawned entity stops its sound.
//!
//! ```
//! use bevy::prelude::*;
//! use bevy_pool::prelude::*;
//! # let assets = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets");
//!
//! let mut app = App::new();
//! app.add_plugins((bevy::app::TaskPoolPlugin::default(), bevy::time::TimePlugin, TransformPlugin))
//!     .add_plugins(AssetPlugin { file_path: assets.into(), ..default() }) // the game's assets folder
//!     .add_plugins((SoundEffectsPlugin::default(), SoundAssetsPlugin));
//! // A looping file, loaded by Bevy's asset server with its settings.
//! let engine = app.world().resource::<AssetServer>()
//!     .load_builder()
//!     .with_settings(|settings: &mut SoundAssetSettings| settings.looping = true)
//!     .load("music/wind.ogg");
//! // The camera listens; a car plays its engine from wherever its transform puts
//! // it, from the frame its file has loaded.
//! app.world_mut().spawn((SoundListener, Transform::default()));
//! let car = app.world_mut().spawn((SoundEmitterAsset::new(engine), Transform::from_xyz(10.0, 0.0, 0.0))).id();
//! for _ in 0..1000 {
//!     app.update();
//!     if app.world().resource::<Sfx>().stats().real_voices == 1 { break; }
//!     std::thread::sleep(std::time::Duration::from_millis(5)); // loading takes a few frames
//! }
//! assert_eq!(app.world().resource::<Sfx>().stats().real_voices, 1);
//! // A despawned car stops its engine with a fade.
//! app.world_mut().despawn(car);
//! app.update();
//! assert_eq!(app.world().resource::<Sfx>().stats().real_voices, 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A game's `main`, as the README shows it (compiled, not run: it runs
//! forever; Bevy finds `music/wind.ogg` in the `assets/` folder beside the
//! game's `Cargo.toml`):
//!
//! ```no_run
//! use bevy::prelude::*;
//! use bevy_pool::prelude::*;
//!
//! fn main() {
//!     App::new()
//!         .add_plugins((MinimalPlugins, TransformPlugin, AssetPlugin::default()))
//!         .add_plugins((SoundEffectsPlugin::default(), SoundAssetsPlugin))
//!         .add_systems(Startup, setup)
//!         .run();
//! }
//!
//! fn setup(mut commands: Commands, assets: Res<AssetServer>) {
//!     commands.spawn((SoundListener, Transform::default())); // the ears: a camera, the player
//!     // Wind from 10 m to the right, looping; it starts once the file has loaded.
//!     let wind = assets
//!         .load_builder()
//!         .with_settings(|settings: &mut SoundAssetSettings| settings.looping = true)
//!         .load("music/wind.ogg");
//!     commands.spawn((SoundEmitterAsset::new(wind), Transform::from_xyz(10.0, 0.0, 0.0)));
//! }
//! ```
//!
//! # Render N seconds to a WAV
//! Headless, offline: manual frames of 1/60 s, `app.update()` in a loop until
//! the recording holds the time asked for (Bevy's first frame has no time, so
//! count the audio, not the frames), then the recording to a file.
//!
//! ```
//! use std::time::Duration;
//! use bevy::prelude::*;
//! use bevy::time::TimeUpdateStrategy;
//! use bevy_pool::prelude::*;
//!
//! let mut app = App::new();
//! let output = Output::Offline { settings: Default::default(), record: true };
//! app.add_plugins((bevy::time::TimePlugin, TransformPlugin, SoundEffectsPlugin { output, ..Default::default() }))
//!     .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 60.0)));
//! let beep = StaticSoundData { sample_rate: 48_000, frames: vec![Frame::from_mono(0.5); 24_000].into(), settings: Default::default(), slice: None };
//! let sound = app.world_mut().resource_mut::<Sfx>().add_sound("beep", beep, SoundSettings::default())?;
//! app.world_mut().write_message(PlaySound { sound, params: PlayParams::default() });
//! let seconds = 2.0;
//! while (app.world().non_send::<AudioOutput>().recorded_samples().len() as f64) < 2.0 * 48_000.0 * seconds {
//!     app.update();
//! }
//! let audio = app.world().non_send::<AudioOutput>().recorded();
//! assert_eq!(audio.frames(), 96_000);
//! // `peak()` is after kira's clamp; a `MeterBuilder` on the main track reads
//! // the level before it.
//! assert!(audio.peak() > 0.1 && audio.peak() < 1.0);
//! let path = std::env::temp_dir().join(format!("bevy-pool-doc-{}.wav", std::process::id()));
//! audio.write_wav_pcm16(&path)?; // or write_wav: 32-bit float
//! # std::fs::remove_file(&path)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The space of a level
//! A level's mix is declared once, in the plugin's `mix` function
//! ([`MixSetup`]): buses with kira's effects, the mix's effect parameters,
//! snapshots such as a pause menu that muffles everything (music included,
//! routed to a bus there), side-chains, voice groups. Systems then apply
//! snapshots with [`ApplySnapshot`] messages. A [`SoundZone`] on an entity is
//! a zone of the mix around it (a cave's reverb for the voices in it, or for
//! all of them while the listener is in it), moving with its transform and
//! going with the entity; a zone the mix refuses is a [`ZoneRefused`]
//! message. Sends are part of a sound's settings
//! ([`SoundSettings::send`](pool_audio::SoundSettings::send)). What each of
//! these does is in `pool_audio::mix`.
//!
//! # Sound banks, edited while the game runs
//! A sound designer's bank ([`pool_audio::data`]: a `.bank.ron` file of
//! sounds, groups, buses, ducks, snapshots and music tracks) loads through
//! the asset server as a [`SoundBankAsset`], its recordings (paths under the
//! assets folder, as the bank writes them) read with it as its
//! dependencies: `asset_server.load::<SoundBankAsset>("sounds/level.bank.ron")`,
//! keeping the handle. [`SoundAssetsPlugin`] adds it to [`Sfx`] once loaded
//! and, when the file changes (the `file_watcher` feature of the game's own
//! `bevy` dependency, or `AssetServer::reload`; see [`SoundBankAsset`]),
//! applies the new text to the running game: a
//! changed sound's voices glide to their new level and pitch over
//! [`BANK_RELOAD_FADE`], a removed sound fades out, a new one plays (see
//! [`SoundEffects::reload_bank`](pool_audio::SoundEffects::reload_bank)).
//! Each outcome is a [`SoundBankApplied`] message; a bank that does not
//! read, or a change the sound effects refuse, is a [`SoundBankRefused`]
//! with the file, line and column, and the game plays on as it did. A music
//! file loads as a [`MusicAsset`], whose `source` a [`PlayMusic`] plays.
//!
//! # Pooled entities
//! Bullets, enemies and any prefab can be pooled too ([`EntityPoolPlugin`]):
//! a kind per marker type, its entities spawned once (disabled with Bevy's
//! `Disabled`, children included, while idle) and handed out again with a
//! [`PooledEntity`] handle that goes stale when the entity is released or
//! recycled, so a system that kept it cannot move the entity's next user.
//!
//! ```
//! use std::time::Duration;
//! use bevy::ecs::system::RunSystemOnce;
//! use bevy::prelude::*;
//! use bevy_pool::prelude::*;
//!
//! #[derive(Component, Clone, Default)]
//! struct Bullet;
//!
//! let mut app = App::new();
//! app.add_plugins((bevy::time::TimePlugin, EntityPoolPlugin));
//! // 64 bullets spawned (disabled) at the first frame; a 65th shot recycles the oldest.
//! app.add_entity_pool::<Bullet>(
//!     EntityPoolSettings::from_bundle("bullet", (Bullet, Transform::default()))
//!         .initial(64)
//!         .max_objects(64)
//!         .policy(EntityPolicy::RecycleOldest),
//! )?;
//! app.update();
//! let fire = |mut pools: EntityPools| {
//!     // Placed, and back in the pool after two seconds of virtual time.
//!     pools.acquire_with::<Bullet>((Transform::from_xyz(0.0, 1.0, 0.0), ReleaseAfter(Duration::from_secs(2)))).unwrap()
//! };
//! let first = app.world_mut().run_system_once(fire).unwrap();
//! for _ in 0..64 {
//!     app.world_mut().run_system_once(fire).unwrap();
//! }
//! // The 65th shot took the first bullet's entity; the first handle is stale.
//! let pools = app.world().resource::<EntityPoolRegistry>();
//! assert_eq!(pools.get(first), None);
//! let mut enabled = app.world_mut().query_filtered::<(), With<Bullet>>();
//! assert_eq!(enabled.iter(app.world()).count(), 64);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Whether it is faster than spawning depends on the prefab and on when the
//! entity comes back: the "Pooled entities" table of the workspace's
//! `docs/benchmarks.md` measures it.
//!
//! # Seeing the voices
//! [`SoundVoicesPlugin`] keeps [`SoundVoices`] up to date each frame: every
//! voice, real and virtual, with why it is virtual, the level it is heard
//! at in each ear, where it is and the entity whose emitter plays it (see
//! [`SoundEffects::voices`](pool_audio::SoundEffects::voices)), for a debug
//! view or any system. It allocates nothing per frame once warm. With
//! [`SoundEffectsPlugin::capture`] set, the session is captured from the
//! first frame: `Sfx`'s `stop_capture` hands over a
//! [`Capture`](pool_audio::capture::Capture) to write or replay.
//!
//! With the `debug` feature, `SoundDebugPlugin` draws each voice where it
//! plays with Bevy's gizmos, coloured by its state (green real, grey
//! virtual, orange fading, blue paused), with its audible radius, each
//! refused emitter red, and writes the voice table into a UI text in the
//! window's corner a few times a second. It allocates nothing per frame of
//! its own. The `windowed` example shows it (`--debug-view`;
//! `docs/bevy-debug-view.png`).
//!
//! # Scenes and inspectors
//! With the `reflect` feature (on by default), the plugins' plain components
//! derive Bevy's `Reflect` and are registered: [`SoundListener`],
//! [`SoundEmitterNamed`], [`SoundVelocity`], [`SoundObstruction`],
//! [`SoundOcclusion`], [`SoundZone`], [`ReleaseAfter`] and `VfxCamera`.
//! An inspector shows and edits them, and Bevy's world format
//! (`bevy_world_serialization`, `.scn.ron`) saves and loads them. A scene
//! names an emitter's sound with [`SoundEmitterNamed`], since a sound's id
//! means nothing outside the running game; the plugin keeps a
//! [`SoundEmitter`] beside it. Ids and handles (`SoundEmitter`,
//! `GameParamValues`, the messages) are not reflected.
//!
//! # Features
//! - `reflect` (default): Bevy's reflection on the plain components, as
//!   above.
//! - `device`: the sound card through kira's cpal backend, and the default
//!   output (`Output::Device`; Linux: the ALSA headers to build). With no
//!   device the plugin falls back to offline output, says why in
//!   `AudioOutput::fallback` and sends `SoundWarning::NoDevice`. On the web
//!   it is kira's own web output (cpal's, rendered on the main thread).
//! - `web`: `Output::Web(WebSettings)`, a browser's audio through
//!   `pool_audio::web`: the offline mix rendered each frame ahead of an
//!   AudioWorklet by the settings' buffering (default 100 ms), the worklet
//!   started on the page's first click, touch or key; the page must be
//!   cross-origin isolated (served with COOP and COEP headers). Outside a
//!   browser it falls back as `device` does. The web example plays the
//!   `headless` example's level as a Bevy app this way, measured in headless
//!   Chromium (the benchmarks page).
//! - `sprites`: `VfxSpritesPlugin`, the effects drawn as Bevy sprites from
//!   texture atlases (Bevy's sprite and image types only: it builds and tests
//!   without a GPU; an app with Bevy's renderer shows them), and
//!   `VfxCamera`, the camera the effects cull against.
//! - `debug`: `SoundDebugPlugin`, the debug view above (Bevy's gizmos and
//!   UI: it builds and tests without a GPU).
//! - `bevy_log`: every [`SoundWarning`] also logged with Bevy's `warn!`.
//! - `windowed`: the `windowed` example's Bevy renderer, window and PNG support.
//!
//! # Inside
//! Everything runs in `PostUpdate`, after transform propagation, so what the
//! game's `Update` systems did this frame (plays sent, emitters moved, effects
//! spawned) is heard and drawn this frame:
//! - [`SoundSystems`], in order: the listener and emitters follow their
//!   `GlobalTransform` (the listener also turns with its rotation; new emitters
//!   start, changed ones bring their voice up to date, refused ones try again;
//!   a missing, doubled or non-finite listener and a non-finite emitter each
//!   send one [`SoundWarning`]), `PlaySound` messages play, the sound effects update (on virtual
//!   time), and the offline backend renders. An emitter that goes away (its
//!   entity despawned or the component removed) fades its voice out as it goes,
//!   through an observer, wherever that happens.
//! - [`VfxSystems`], in order: the effects update on virtual time (follow-ups
//!   start), `VfxFinished` messages go out, then the draw list becomes sprites
//!   (with `sprites`). With `sprites`, the view that culls the effects follows
//!   the cameras marked `VfxCamera` just before the update.
//!
//! - [`EntityPoolSystems`], in `PreUpdate`: entities the game despawned leave
//!   their pools (refilled if asked), idle entities still to be spawned are
//!   spawned (within a per-frame budget), then expired [`ReleaseAfter`]
//!   lifetimes release their entities. Acquisitions and releases change the
//!   world when the caller's commands apply.
//!
//! - Assets, in `PreUpdate`: banks loaded or changed are added or reloaded,
//!   then sound files loaded are added and the emitters waiting for them
//!   start.
//!
//! - Music: [`PlayMusic`] and [`StopMusic`] messages reach [`MusicTracks`] with
//!   the plays (a refusal is a [`MusicRefused`]); tracks that pause with the
//!   game follow `Time<Virtual>` with the update; offline, every piece is
//!   decoded ahead before each step of the render (half its buffer at most).
//!
//! The [`Sfx`] resource is the plain [`pool_audio::SoundEffects`], [`Vfx`] the
//! plain [`pool_effects::Effects`] and [`MusicTracks`] the plain
//! [`pool_audio::music::Music`]: everything their docs say holds here.

mod assets;
mod audio;
mod banks;
mod cues;
#[cfg(feature = "debug")]
mod debug_view;
mod diagnostics;
mod effects;
mod emitters;
mod entities;
mod game_params;
mod mixing;
mod music;
mod named;
#[cfg(feature = "sprites")]
mod sprites;
mod voices;
#[cfg(feature = "web")]
mod web;
mod zones;

pub use assets::{
    SoundAsset, SoundAssetLoader, SoundAssetRefused, SoundAssetSettings, SoundAssetsPlugin,
    SoundEmitterAsset, SoundIds,
};
pub use banks::{
    BANK_RELOAD_FADE, MusicAsset, MusicAssetLoader, SoundBankApplied, SoundBankAsset,
    SoundBankLoader, SoundBankRefused,
};
#[cfg(feature = "debug")]
pub use debug_view::{DebugPlane, SoundDebugPlugin, SoundDebugText};
pub use diagnostics::PoolDiagnosticsPlugin;
pub use effects::{Vfx, VfxFinished, VfxPlugin, VfxSystems};
#[cfg(feature = "sprites")]
pub use sprites::{VfxAtlas, VfxAtlases, VfxCamera, VfxSprite, VfxSpritesPlugin};

pub use audio::{
    AudioOutput, MixSetup, Output, PlayRefused, PlaySound, Sfx, SoundEffectsPlugin, SoundListener,
    SoundSystems, SoundWarning, VoiceEnded,
};
pub use cues::{SoundObstruction, SoundOcclusion, SoundVelocity};
pub use emitters::{CHANGE_FADE, SoundEmitter};
pub use entities::{
    EntityKind, EntityPolicy, EntityPoolAppExt, EntityPoolError, EntityPoolPlugin,
    EntityPoolRegistry, EntityPoolSettings, EntityPoolStats, EntityPoolSystems, EntityPools,
    EntityRecycled, PoolMember, PooledEntity, Prefab, ReleaseAfter,
};
pub use game_params::{GameParamRefused, GameParamValues, SetGameParam};
pub use mixing::{ApplySnapshot, MixRefused, ReleaseSnapshot};
pub use music::{MusicRefused, MusicTracks, PlayMusic, StopMusic};
#[cfg(feature = "reflect")]
pub use named::DecibelsReflect;
pub use named::SoundEmitterNamed;
pub use voices::{SoundVoices, SoundVoicesPlugin};
pub use zones::{SoundZone, ZoneRefused, ZoneSize};

/// The sound-effects crate the plugins are built on, for its settings, ids,
/// errors and loaders: `bevy_pool::pool_audio::SoundSettings`, with no
/// dependency line of its own.
pub use pool_audio;
/// kira, as `pool_audio` is built on it (its decoders, no device): sound data,
/// tweens, tracks.
pub use pool_audio::kira;
/// The effects crate the plugins are built on, for effect kinds and their
/// settings: `bevy_pool::pool_effects::EffectKind`.
pub use pool_effects;

/// What a Bevy game that plays sounds and effects uses, in one import:
/// `use bevy_pool::prelude::*;`.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_pool::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((bevy::time::TimePlugin, TransformPlugin, SoundEffectsPlugin::default(), VfxPlugin));
/// let click = StaticSoundData { sample_rate: 48_000, frames: vec![Frame::from_mono(0.5); 480].into(), settings: Default::default(), slice: None };
/// let sound = app.world_mut().resource_mut::<Sfx>().add_sound("click", click, SoundSettings::default().max_voices(4))?;
/// app.world_mut().write_message(PlaySound { sound, params: PlayParams::default() });
/// app.update();
/// assert_eq!(app.world().resource::<Sfx>().stats().plays, 1);
/// // Fades for `StopMusic`, `ApplySnapshot`, `SoundEmitter::fade_out`.
/// let fade: Tween = linear_fade(std::time::Duration::from_millis(50));
/// assert_eq!(fade.duration.as_millis(), 50);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod prelude {
    pub use crate::{
        ApplySnapshot, AudioOutput, EntityPolicy, EntityPoolAppExt, EntityPoolError,
        EntityPoolPlugin, EntityPoolRegistry, EntityPoolSettings, EntityPools, EntityRecycled,
        GameParamRefused, GameParamValues, MixRefused, MixSetup, MusicAsset, MusicRefused,
        MusicTracks, Output, PlayMusic, PlayRefused, PlaySound, PoolMember, PooledEntity,
        ReleaseAfter, ReleaseSnapshot, SetGameParam, Sfx, SoundAsset, SoundAssetRefused,
        SoundAssetSettings, SoundAssetsPlugin, SoundBankApplied, SoundBankAsset, SoundBankRefused,
        SoundEffectsPlugin, SoundEmitter, SoundEmitterAsset, SoundEmitterNamed, SoundIds,
        SoundListener, SoundObstruction, SoundOcclusion, SoundSystems, SoundVelocity, SoundVoices,
        SoundVoicesPlugin, SoundWarning, SoundZone, StopMusic, Vfx, VfxFinished, VfxPlugin,
        VfxSystems, VoiceEnded, ZoneRefused, ZoneSize,
    };
    // Not inlined: each item's docs stay on its own crate's pages.
    #[doc(no_inline)]
    pub use pool_audio::kira::sound::static_sound::StaticSoundData;
    #[doc(no_inline)]
    pub use pool_audio::kira::{Frame, Tween};
    #[doc(no_inline)]
    pub use pool_audio::{
        GroupSettings, PlayParams, SoundEffectsSettings, SoundId, SoundSettings, VoiceHandle,
        VoiceState, data::Reloaded, dsp::LimiterSettings, linear_fade, loader::FileLoader,
        loader::MemoryLoader, mix::BusBuilder, mix::DuckSettings, mix::LoudnessWindow,
        mix::MixTarget, mix::SendCurve, mix::SendSettings, mix::SideChainSettings, mix::Snapshot,
        mix::SnapshotId, mix::TrackId, music::MusicParams, music::MusicSettings,
        music::MusicSource, music::TrackSettings, sound::Pick, sound::Recordings,
        spatial::Distances, spatial::Muffle, voices::Stealing, voices::WhenFull,
    };
    #[doc(no_inline)]
    pub use pool_effects::{EffectKind, KindId};
}

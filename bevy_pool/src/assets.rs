//! Sounds as Bevy assets: files loaded by the `AssetServer` with the decoders of
//! `pool-audio`'s loaders (within a budget of frames), their settings beside
//! them (in the load call or a `.meta` file), added to the sound effects under
//! their path once loaded.

use std::collections::HashMap;
use std::time::Duration;

use bevy::app::{App, Plugin, PreUpdate};
use bevy::asset::io::Reader;
use bevy::asset::{
    Asset, AssetApp, AssetEvent, AssetId, AssetLoadFailedEvent, AssetLoader, Assets, Handle,
    LoadContext,
};
use bevy::ecs::error::BevyError;
use bevy::ecs::prelude::*;
use bevy::reflect::TypePath;
use pool_audio::kira::Decibels;
use pool_audio::kira::sound::static_sound::StaticSoundData;
use pool_audio::{
    SoundId, SoundSettings, loader::DEFAULT_MAX_FRAMES, loader::MemoryLoader, voices::Resume,
    voices::Virtualization,
};
use serde::{Deserialize, Serialize};

use crate::audio::Sfx;
use crate::emitters::SoundEmitter;

/// A decoded sound and the settings it is played with.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct SoundAsset {
    /// The decoded frames (shared: cloning is a reference count).
    pub data: StaticSoundData,
    /// Its settings, as loaded.
    pub settings: SoundAssetSettings,
}

/// A sound file's settings: in `asset_server.load_builder().with_settings(|s:
/// &mut SoundAssetSettings| ..).load(path)`, or in the file's `.meta` (Bevy's
/// asset metadata). Every field has `SoundSettings`' default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SoundAssetSettings {
    /// The most copies playing at once.
    pub max_voices: usize,
    /// The newest copy's volume, at most 0 dB.
    pub first_volume: Decibels,
    /// What all copies sum to at most, dBFS.
    pub headroom: Decibels,
    /// Priority for `Stealing::LowestPriority`.
    pub priority: i32,
    /// The shortest interval between two new copies.
    pub min_retrigger: Duration,
    /// Loop the whole sound.
    pub looping: bool,
    /// `None`: a looping sound virtualizes, a one-shot ends (the default);
    /// `Some(true)`: always virtualize; `Some(false)`: always end.
    pub virtualize: Option<bool>,
    /// The name of a group added to the sound effects before the sound loads.
    pub group: Option<String>,
    /// The most frames the file may decode to.
    pub max_frames: usize,
}

impl Default for SoundAssetSettings {
    fn default() -> Self {
        let settings = SoundSettings::default();
        Self {
            max_voices: settings.max_voices,
            first_volume: settings.first_volume,
            headroom: settings.headroom,
            priority: settings.priority,
            min_retrigger: settings.min_retrigger,
            looping: false,
            virtualize: None,
            group: None,
            max_frames: DEFAULT_MAX_FRAMES,
        }
    }
}

impl SoundAssetSettings {
    /// The `SoundSettings` these settings make (the group resolved by the caller).
    pub fn sound_settings(&self) -> SoundSettings {
        SoundSettings::default()
            .max_voices(self.max_voices)
            .first_volume(self.first_volume)
            .headroom(self.headroom)
            .priority(self.priority)
            .min_retrigger(self.min_retrigger)
            .virtualization(match self.virtualize {
                None => Virtualization::Auto,
                Some(true) => Virtualization::Virtualize(Resume::FromElapsed),
                Some(false) => Virtualization::Kill,
            })
    }
}

/// Loads WAV, Ogg, FLAC and MP3 files as [`SoundAsset`]s, through
/// `pool_audio::loader::MemoryLoader`: decoded within `max_frames`, data kira cannot
/// play refused with `pool_audio::loader::LoadError`.
#[derive(TypePath, Default)]
pub struct SoundAssetLoader;

impl AssetLoader for SoundAssetLoader {
    type Asset = SoundAsset;
    type Settings = SoundAssetSettings;
    type Error = BevyError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        settings: &SoundAssetSettings,
        load_context: &mut LoadContext<'_>,
    ) -> Result<SoundAsset, BevyError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        let key = load_context.path().to_string();
        let mut loader = MemoryLoader::new().max_frames(settings.max_frames);
        loader.insert_encoded(key.clone(), bytes);
        let mut data = loader.load(&key)?;
        if settings.looping {
            data = data.loop_region(..);
        }
        Ok(SoundAsset {
            data,
            settings: settings.clone(),
        })
    }

    fn extensions(&self) -> &[&str] {
        &["wav", "ogg", "oga", "flac", "mp3"]
    }
}

/// The [`SoundId`] of every loaded [`SoundAsset`]: resolve once, play by id.
#[derive(Resource, Default, Debug)]
pub struct SoundIds(HashMap<AssetId<SoundAsset>, SoundId>);

impl SoundIds {
    /// The sound of `handle`, once loaded and added.
    pub fn get(&self, handle: &Handle<SoundAsset>) -> Option<SoundId> {
        self.0.get(&handle.id()).copied()
    }
}

/// A [`SoundEmitter`] for a sound still loading: replaced by the emitter (with
/// its `params`) as soon as the sound is added.
#[derive(Component, Debug, Clone)]
pub struct SoundEmitterAsset {
    /// The sound.
    pub sound: Handle<SoundAsset>,
    /// How to play it.
    pub params: pool_audio::PlayParams,
}

impl SoundEmitterAsset {
    /// Plays `sound` from the entity once it is loaded.
    pub fn new(sound: Handle<SoundAsset>) -> Self {
        Self {
            sound,
            params: pool_audio::PlayParams::default(),
        }
    }
}

/// A [`SoundAsset`] that the game will not hear: its file failed to load (no
/// such file, data that does not decode, longer than `max_frames`), or it
/// loaded but could not be added to the sound effects (an unknown group,
/// settings out of range, a name already taken). With the `bevy_log` feature
/// it is logged too.
#[derive(Message, Debug, Clone)]
pub struct SoundAssetRefused {
    /// The asset.
    pub id: AssetId<SoundAsset>,
    /// Its path, as loaded.
    pub path: String,
    /// What was wrong, starting with the path.
    pub reason: String,
}

impl std::fmt::Display for SoundAssetRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

/// Sends `refused`, and with the `bevy_log` feature logs it too.
fn refuse(writer: &mut MessageWriter<SoundAssetRefused>, refused: SoundAssetRefused) {
    #[cfg(feature = "bevy_log")]
    bevy::log::warn!("{refused}");
    writer.write(refused);
}

/// Sound files, sound banks and music as assets: registers [`SoundAsset`],
/// [`SoundBankAsset`](crate::SoundBankAsset) and
/// [`MusicAsset`](crate::MusicAsset) with their loaders, and [`SoundIds`];
/// in `PreUpdate` it adds each loaded bank to [`Sfx`] (and reloads it when
/// its file changes), then each loaded sound under its asset path. Needs
/// Bevy's `AssetPlugin` and the
/// [`SoundEffectsPlugin`](crate::SoundEffectsPlugin).
#[derive(Debug, Clone, Copy, Default)]
pub struct SoundAssetsPlugin;

impl Plugin for SoundAssetsPlugin {
    fn build(&self, app: &mut App) {
        use crate::banks::{self, MusicAsset, MusicAssetLoader, SoundBankAsset, SoundBankLoader};
        app.init_asset::<SoundAsset>()
            .register_asset_loader(SoundAssetLoader)
            .init_asset::<SoundBankAsset>()
            .register_asset_loader(SoundBankLoader)
            .init_asset::<MusicAsset>()
            .register_asset_loader(MusicAssetLoader)
            .init_resource::<SoundIds>()
            .init_resource::<banks::AddedBanks>()
            .add_message::<SoundAssetRefused>()
            .add_message::<banks::SoundBankApplied>()
            .add_message::<banks::SoundBankRefused>()
            .add_systems(
                PreUpdate,
                (
                    banks::report_failed_banks,
                    banks::apply_banks,
                    report_failed_loads,
                    add_loaded_sounds,
                    start_asset_emitters,
                )
                    .chain(),
            );
    }
}

/// A file that failed to load: the game gets a message naming it and why.
fn report_failed_loads(
    mut failures: MessageReader<AssetLoadFailedEvent<SoundAsset>>,
    mut refused: MessageWriter<SoundAssetRefused>,
) {
    for failure in failures.read() {
        let path = failure.path.to_string();
        let refusal = SoundAssetRefused {
            id: failure.id,
            reason: format!("{path}: {}", failure.error.to_string().trim_end()),
            path,
        };
        refuse(&mut refused, refusal);
    }
}

fn add_loaded_sounds(
    mut events: MessageReader<AssetEvent<SoundAsset>>,
    assets: Res<Assets<SoundAsset>>,
    server: Res<bevy::asset::AssetServer>,
    mut sfx: ResMut<Sfx>,
    mut ids: ResMut<SoundIds>,
    mut refused: MessageWriter<SoundAssetRefused>,
) {
    for event in events.read() {
        let AssetEvent::LoadedWithDependencies { id } = event else {
            continue;
        };
        let (id, Some(asset)) = (*id, assets.get(*id)) else {
            continue;
        };
        if ids.0.contains_key(&id) {
            continue;
        }
        let name = server
            .get_path(id)
            .map_or_else(|| format!("{id:?}"), |path| path.to_string());
        let mut settings = asset.settings.sound_settings();
        if let Some(group) = &asset.settings.group {
            match sfx.group(group) {
                Some(group) => settings = settings.group(group),
                None => {
                    let reason = format!("{name}: no group is named {group:?}");
                    let path = name.clone();
                    refuse(&mut refused, SoundAssetRefused { id, path, reason });
                    continue;
                }
            }
        }
        match sfx.add_sound(&name, asset.data.clone(), settings) {
            Ok(sound) => {
                ids.0.insert(id, sound);
            }
            Err(error) => {
                let reason = format!("{name}: {error}");
                refuse(
                    &mut refused,
                    SoundAssetRefused {
                        id,
                        path: name,
                        reason,
                    },
                );
            }
        }
    }
}

fn start_asset_emitters(
    mut commands: Commands,
    waiting: Query<(Entity, &SoundEmitterAsset)>,
    ids: Res<SoundIds>,
) {
    for (entity, emitter) in &waiting {
        if let Some(sound) = ids.get(&emitter.sound) {
            commands
                .entity(entity)
                .remove::<SoundEmitterAsset>()
                .insert(SoundEmitter::new(sound).params(emitter.params));
        }
    }
}

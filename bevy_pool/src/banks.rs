//! Sound banks and music as Bevy assets: a `.bank.ron` file loaded by the
//! `AssetServer` with its recordings (decoded on the loader's thread, each a
//! dependency of the bank), added to [`Sfx`] once loaded and reloaded into
//! the running game when the file changes; a music piece loaded as an
//! encoded stream.

use std::collections::HashMap;
use std::time::Duration;

use bevy::asset::io::Reader;
use bevy::asset::{
    Asset, AssetEvent, AssetId, AssetLoadFailedEvent, AssetLoader, Assets, LoadContext,
};
use bevy::ecs::error::BevyError;
use bevy::ecs::prelude::*;
use bevy::reflect::TypePath;
use pool_audio::data::{BankError, Reloaded, SoundBank};
use pool_audio::loader::MemoryLoader;
use pool_audio::music::MusicSource;

use crate::audio::Sfx;
use crate::music::MusicTracks;

/// How long the voices of a sound changed by a reloaded bank take to glide
/// to their new level and pitch.
pub const BANK_RELOAD_FADE: Duration = Duration::from_millis(100);

/// A sound bank ([`pool_audio::data`]) and its recordings, decoded: load it
/// with `asset_server.load::<SoundBankAsset>("sounds/level.bank.ron")` and
/// keep the handle. Its recordings are paths under the assets folder, as
/// the bank writes them. Once loaded,
/// [`SoundAssetsPlugin`](crate::SoundAssetsPlugin) adds it to [`Sfx`] (its
/// music tracks to [`MusicTracks`]); each time the file or one of its
/// recordings changes, the new text is applied to the running game with
/// [`SoundEffects::reload_bank`](pool_audio::SoundEffects::reload_bank), a
/// recording whose bytes changed loaded again for the sounds that play it
/// (from their next play).
/// Each outcome is a [`SoundBankApplied`] or [`SoundBankRefused`] message.
///
/// To hear edits as the designer saves them, turn on the `file_watcher`
/// feature of the game's own `bevy` dependency (`bevy_pool` does not pass it
/// on): the asset server then watches the assets folder
/// (`AssetPlugin::watch_for_changes_override` turns that off or on while
/// the game runs). Without it, `asset_server.reload("sounds/level.bank.ron")`
/// applies the file as it is on disk.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_pool::prelude::*;
/// # let assets = std::env::temp_dir().join(format!("bevy-pool-bank-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(assets.join("sounds"))?;
/// # std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/sounds/level/torch.wav"), assets.join("sounds/torch.wav"))?;
/// # std::fs::write(assets.join("sounds/fire.bank.ron"), r#"(sounds: { "fire": (recordings: ["sounds/torch.wav"], looping: true) })"#)?;
///
/// /// The banks applied so far, as a game keeps track.
/// #[derive(Resource, Default)]
/// struct Applied(Vec<SoundBankApplied>);
///
/// let mut app = App::new();
/// app.add_plugins((bevy::app::TaskPoolPlugin::default(), bevy::time::TimePlugin, TransformPlugin))
///     .add_plugins(AssetPlugin { file_path: assets.to_string_lossy().into(), ..default() })
///     .add_plugins((SoundEffectsPlugin::default(), SoundAssetsPlugin))
///     .init_resource::<Applied>()
///     .add_systems(Update, |mut applied: MessageReader<SoundBankApplied>, mut seen: ResMut<Applied>| {
///         seen.0.extend(applied.read().cloned());
///     });
/// let bank: Handle<SoundBankAsset> = app.world().resource::<AssetServer>().load("sounds/fire.bank.ron");
/// while app.world().resource::<Applied>().0.is_empty() {
///     app.update();
///     std::thread::sleep(std::time::Duration::from_millis(5)); // loading takes a few frames
/// }
/// assert_eq!(app.world().resource::<Applied>().0[0].id, bank.id());
/// // Its sounds play by name, from code or from a scene.
/// let torch = app.world_mut().spawn((SoundEmitterNamed::new("fire"), Transform::default())).id();
/// app.update();
/// assert!(app.world().get::<SoundEmitter>(torch).and_then(SoundEmitter::voice).is_some());
/// # std::fs::remove_dir_all(&assets)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Asset, TypePath, Debug, Clone)]
pub struct SoundBankAsset {
    /// The bank, read.
    pub bank: SoundBank,
    /// Its recordings, decoded by file name (a file that did not decode is
    /// kept encoded: adding the bank places the error).
    pub files: MemoryLoader,
    /// A hash of each recording file's bytes: a reload marks the files
    /// whose bytes changed ([`SoundBank::file_changed`]).
    hashes: HashMap<String, u64>,
}

/// Reads a `.bank.ron` file and every recording it names (as dependencies:
/// a changed recording reloads the bank).
#[derive(TypePath, Default)]
pub struct SoundBankLoader;

impl AssetLoader for SoundBankLoader {
    type Asset = SoundBankAsset;
    type Settings = ();
    type Error = BevyError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<SoundBankAsset, BevyError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        let name = load_context.path().to_string();
        let text = String::from_utf8(bytes).map_err(|_| format!("{name}: not UTF-8 text"))?;
        let bank = SoundBank::from_ron(&name, &text)?;
        let mut files = MemoryLoader::new();
        let mut hashes = HashMap::new();
        for file in bank.files() {
            let bytes = load_context.read_asset_bytes(file.to_string()).await?;
            let mut hasher = std::hash::DefaultHasher::new();
            std::hash::Hash::hash(&bytes, &mut hasher);
            hashes.insert(file.to_string(), std::hash::Hasher::finish(&hasher));
            files.insert_encoded(file, bytes);
            // Decoded here, off the game's thread; an error is placed in
            // the bank's text when it is added.
            let _ = files.load(file);
        }
        Ok(SoundBankAsset {
            bank,
            files,
            hashes,
        })
    }

    fn extensions(&self) -> &[&str] {
        &["bank.ron"]
    }
}

/// A piece of music as an asset, kept encoded and streamed when it plays:
/// `asset_server.load::<MusicAsset>("music/theme.ogg")`, then
/// [`PlayMusic`](crate::PlayMusic) with its `source`.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct MusicAsset {
    /// The piece.
    pub source: MusicSource,
}

/// Reads a music file (its format checked now, its samples decoded as it
/// plays).
#[derive(TypePath, Default)]
pub struct MusicAssetLoader;

impl AssetLoader for MusicAssetLoader {
    type Asset = MusicAsset;
    type Settings = ();
    type Error = BevyError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<MusicAsset, BevyError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        let name = load_context.path().to_string();
        let mut loader = MemoryLoader::new();
        loader.insert_encoded(name.clone(), bytes);
        Ok(MusicAsset {
            source: loader.music(&name)?,
        })
    }

    fn extensions(&self) -> &[&str] {
        &["ogg", "oga", "flac", "mp3", "wav"]
    }
}

/// A bank added to [`Sfx`] (`reloaded: None`) or reloaded into it.
#[derive(Message, Debug, Clone)]
pub struct SoundBankApplied {
    /// The asset.
    pub id: AssetId<SoundBankAsset>,
    /// Its path.
    pub path: String,
    /// What a reload changed.
    pub reloaded: Option<Reloaded>,
}

/// A bank that did not load, or that [`Sfx`] refused to add or reload:
/// nothing changed, the game plays on with what it had. With the `bevy_log`
/// feature it is logged too.
#[derive(Message, Debug, Clone)]
pub struct SoundBankRefused {
    /// The asset.
    pub id: AssetId<SoundBankAsset>,
    /// Its path.
    pub path: String,
    /// What was wrong, starting with the file (and the line and column).
    pub reason: String,
    /// The error, placed in the text, when the bank was read but refused.
    pub error: Option<BankError>,
}

/// The banks added, by asset, with the hashes of their files as last
/// applied.
#[derive(Resource, Default)]
pub(crate) struct AddedBanks(HashMap<AssetId<SoundBankAsset>, HashMap<String, u64>>);

/// A bank file that failed to load: the game gets a message with the error.
pub(crate) fn report_failed_banks(
    mut failures: MessageReader<AssetLoadFailedEvent<SoundBankAsset>>,
    mut refused: MessageWriter<SoundBankRefused>,
) {
    for failure in failures.read() {
        let path = failure.path.to_string();
        let reason = format!("{path}: {}", failure.error.to_string().trim_end());
        refuse(
            &mut refused,
            SoundBankRefused {
                id: failure.id,
                path,
                reason,
                error: None,
            },
        );
    }
}

/// Adds each loaded bank, and reloads each one changed since.
pub(crate) fn apply_banks(
    mut events: MessageReader<AssetEvent<SoundBankAsset>>,
    assets: Res<Assets<SoundBankAsset>>,
    mut sfx: ResMut<Sfx>,
    mut music: Option<ResMut<MusicTracks>>,
    mut added: ResMut<AddedBanks>,
    mut applied: MessageWriter<SoundBankApplied>,
    mut refused: MessageWriter<SoundBankRefused>,
) {
    let mut seen = Vec::new();
    for event in events.read() {
        let (AssetEvent::LoadedWithDependencies { id } | AssetEvent::Modified { id }) = event
        else {
            continue;
        };
        if seen.contains(id) {
            continue;
        }
        seen.push(*id);
        let Some(asset) = assets.get(*id) else {
            continue;
        };
        let mut files = asset.files.clone();
        let music = music.as_deref_mut().map(|m| &mut m.0);
        let path = asset.bank.file().to_string();
        let outcome = match added.0.get(id) {
            Some(hashes) => {
                let mut bank = asset.bank.clone();
                for (file, hash) in &asset.hashes {
                    if hashes.get(file) != Some(hash) {
                        bank.file_changed(file);
                    }
                }
                let fade = pool_audio::linear_fade(BANK_RELOAD_FADE);
                (sfx.reload_bank(&bank, &mut files, music, fade)).map(Some)
            }
            None => (sfx.add_bank(&asset.bank, &mut files, music)).map(|()| None),
        };
        match outcome {
            Ok(reloaded) => {
                added.0.insert(*id, asset.hashes.clone());
                applied.write(SoundBankApplied {
                    id: *id,
                    path,
                    reloaded,
                });
            }
            Err(error) => {
                let reason = error.to_string();
                let error = Some(error);
                refuse(
                    &mut refused,
                    SoundBankRefused {
                        id: *id,
                        path,
                        reason,
                        error,
                    },
                );
            }
        }
    }
}

/// Sends `refused`, and with the `bevy_log` feature logs it too.
fn refuse(writer: &mut MessageWriter<SoundBankRefused>, refused: SoundBankRefused) {
    #[cfg(feature = "bevy_log")]
    bevy::log::warn!("{}", refused.reason);
    writer.write(refused);
}

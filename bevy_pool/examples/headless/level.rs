//! The showcase's level as Bevy systems, for the `headless` example and the
//! web example (`web/`, which includes this file): the same sounds, groups and
//! settings, the same 300 looping emitters on the 200 m map, the same listener
//! walk and waves, as Bevy entities, the enemies and bullets pooled, under a
//! looping music piece. The content comes from the showcase crate
//! (`showcase::content`); only the game's rules are restated here, as systems.

use std::error::Error;
use std::time::Duration;

use bevy::prelude::*;
use bevy_pool::{
    ApplySnapshot, EntityPolicy, EntityPoolAppExt, EntityPoolSettings, EntityPools, MusicTracks,
    Output, PlayMusic, PlaySound, PoolMember, ReleaseSnapshot, Sfx, SoundEffectsPlugin,
    SoundEmitter, SoundListener, Vfx, VoiceEnded,
};
use pool_audio::{
    PlayParams, dsp::LimiterSettings, linear_fade, mix::SnapshotId, music::MusicParams,
    music::MusicSource,
};
use showcase::content::{
    self, BULLET_LIFE, BULLET_SPEED, BULLETS, ENEMIES_PER_WAVE, ENEMY_HP, ENEMY_SPEED, FPS,
    HIT_RADIUS, Kinds, Lcg, RATE, SHOTS_PER_SECOND, STEP_FRAMES, STORM_SECONDS, Sounds,
    WAVE_SECONDS,
};

const DT: f32 = 1.0 / FPS as f32;

/// The level's state: its frame, its content, what it counted.
#[derive(Resource)]
pub(crate) struct Level {
    /// Frames in a run: the listener walks the path once a run.
    pub(crate) frames: u64,
    /// Frames played.
    pub(crate) frame: u64,
    /// Walk the path again after each run (or stay at its end).
    looping: bool,
    sounds: Sounds,
    storm: SnapshotId,
    kinds: Kinds,
    rng: Lcg,
    /// Voices that ended.
    pub(crate) ended: u64,
}

/// The player: the listener, walking the showcase's path.
#[derive(Component)]
struct Player;

#[derive(Component, Clone)]
struct Enemy {
    hp: u8,
}

#[derive(Component, Clone, Default)]
struct Bullet {
    velocity: Vec2,
    life: f32,
}

/// The level's systems, each frame, in order.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct LevelSystems;

/// The sound plugin as the level has it on `output`: the showcase's settings
/// (its voice cap and loudness window), and a limiter on the main track that
/// holds the music and the effects together under -1 dBFS.
pub(crate) fn sound_plugin(output: Output) -> SoundEffectsPlugin {
    SoundEffectsPlugin {
        settings: content::settings(),
        output,
        main_limiter: Some(LimiterSettings::default()),
        ..Default::default()
    }
}

/// The level on `app` (which has [`sound_plugin`], `VfxPlugin` and
/// `EntityPoolPlugin`): its pools, its space and sound bank from `files`, its
/// effects, and its systems; `frames` frames a run.
pub(crate) fn add_level(
    app: &mut App,
    frames: u64,
    looping: bool,
    files: &mut content::Files,
) -> Result<(), Box<dyn Error>> {
    app.add_systems(Startup, setup).add_systems(
        Update,
        (
            walk,
            waves,
            move_enemies,
            fire,
            move_bullets,
            count_ended,
            tick,
        )
            .chain()
            .in_set(LevelSystems),
    );
    // A wave's enemies, spawned before the first frame and reused by every
    // wave; the magazine: 64 bullets, refused when all are in flight.
    app.add_entity_pool::<Enemy>(
        EntityPoolSettings::from_bundle("enemy", (Enemy { hp: ENEMY_HP }, Transform::default()))
            .initial(ENEMIES_PER_WAVE)
            .max_objects(2 * ENEMIES_PER_WAVE),
    )?;
    app.add_entity_pool::<Bullet>(
        EntityPoolSettings::from_bundle("bullet", (Bullet::default(), Transform::default()))
            .initial(BULLETS)
            .max_objects(BULLETS)
            .policy(EntityPolicy::Strict),
    )?;
    let world = app.world_mut();
    let mut rng = content::rng();
    let mut sfx = world.resource_mut::<Sfx>();
    // The showcase's world bus, then its sound bank: explosions duck
    // the footsteps; the storm snapshot lowers the ambience and the
    // plugin's music track while every enemy dies at once.
    content::add_space(&mut sfx)?;
    let (sounds, storm) = content::add_sounds(&mut sfx, &mut rng, files)?;
    let kinds = content::add_kinds(&mut world.resource_mut::<Vfx>())?;
    world.insert_resource(Level {
        frames,
        frame: 0,
        looping,
        sounds,
        storm,
        kinds,
        rng,
        ended: 0,
    });
    Ok(())
}

/// A map position (x, z) of a transform on the ground.
fn map(transform: &Transform) -> Vec2 {
    Vec2::new(transform.translation.x, transform.translation.z)
}

fn ground(at: Vec2) -> Transform {
    Transform::from_xyz(at.x, 0.0, at.y)
}

/// The 300 ambience emitters where the showcase has them, and the player.
fn setup(mut commands: Commands, mut level: ResMut<Level>, music: Res<MusicTracks>) {
    for ambience in content::ambience(&mut level.rng) {
        let sound = if ambience.waterfall {
            level.sounds.waterfall
        } else {
            level.sounds.torch
        };
        commands.spawn((
            SoundEmitter::new(sound)
                .params(PlayParams::default().volume(20.0 * ambience.volume.log10())),
            ground(ambience.at.into()),
        ));
    }
    let start = content::listener_at(0.0);
    commands.spawn((SoundListener, Player, ground(start.into())));
    // The level's music, faded in over two seconds, looping under everything.
    let fade_in = pool_audio::linear_fade(Duration::from_secs(2));
    commands.write_message(PlayMusic {
        track: music.track("music").expect("the plugin's default tracks"),
        source: MusicSource::encoded("level theme", theme()),
        params: MusicParams::default().fade(fade_in).looped(),
    });
}

/// Eight seconds of a quiet, slowly swelling A-major pad (110, 138.75, 165 and
/// 220 Hz; whole cycles in eight seconds, so it loops without a seam), as the
/// WAV a game would load from a file.
fn theme() -> Vec<u8> {
    let mut bytes = std::io::Cursor::new(Vec::new());
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: RATE,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let Ok(mut wav) = hound::WavWriter::new(&mut bytes, spec) else {
        return Vec::new();
    };
    for i in 0..8 * RATE {
        let t = i as f32 / RATE as f32;
        let swell = 0.75 - 0.25 * (t * std::f32::consts::TAU / 4.0).cos();
        let pad: f32 = [110.0, 138.75, 165.0, 220.0]
            .iter()
            .map(|hz| (t * hz * std::f32::consts::TAU).sin())
            .sum();
        let _ = wav.write_sample((pad * swell * 0.03 * 32_767.0) as i16);
    }
    let _ = wav.finalize();
    bytes.into_inner()
}

/// The player walks the showcase's path over the run, a footstep every 0.45 s.
fn walk(
    mut player: Query<&mut Transform, With<Player>>,
    level: Res<Level>,
    mut plays: MessageWriter<PlaySound>,
) {
    let run = level.frame as f32 / level.frames as f32;
    let at = content::listener_at(if level.looping {
        run.fract()
    } else {
        run.min(1.0)
    });
    for mut transform in &mut player {
        *transform = ground(at.into());
    }
    if (level.frame as usize).is_multiple_of(STEP_FRAMES) {
        plays.write(PlaySound {
            sound: level.sounds.footstep,
            params: PlayParams::default(),
        });
    }
}

/// A wave every 3 s: a horn and 60 enemies around the player. Two seconds in,
/// the storm: every enemy left dies at once.
fn waves(
    mut pools: EntityPools,
    mut level: ResMut<Level>,
    mut plays: MessageWriter<PlaySound>,
    mut snapshots: (MessageWriter<ApplySnapshot>, MessageWriter<ReleaseSnapshot>),
    mut fx: ResMut<Vfx>,
    player: Query<&Transform, With<Player>>,
    enemies: Query<(&PoolMember, &Transform), With<Enemy>>,
) {
    let second = level.frame as usize % (FPS * WAVE_SECONDS);
    let Ok(player) = player.single() else { return };
    if second == 0 {
        plays.write(PlaySound {
            sound: level.sounds.horn,
            params: PlayParams::default(),
        });
        let listener = map(player).into();
        for _ in 0..ENEMIES_PER_WAVE {
            let at = content::enemy_at(listener, &mut level.rng);
            // Strict, twice a wave: a refusal would be a level bug, and
            // shows as fewer enemies, not as a crash.
            let _ = pools.acquire_with::<Enemy>(ground(at.into()));
        }
    }
    if second == STORM_SECONDS * FPS {
        for (pooled, transform) in &enemies {
            explode(&level, map(transform), &mut plays, &mut fx);
            let _ = pools.release(pooled.handle());
        }
        snapshots.0.write(ApplySnapshot {
            snapshot: level.storm,
            intensity: 1.0,
            tween: linear_fade(Duration::from_millis(200)),
        });
    }
    if second == STORM_SECONDS * FPS + FPS / 2 {
        snapshots.1.write(ReleaseSnapshot {
            snapshot: level.storm,
            tween: linear_fade(Duration::from_secs(1)),
        });
    }
}

fn explode(level: &Level, at: Vec2, plays: &mut MessageWriter<PlaySound>, fx: &mut Vfx) {
    let _ = fx.spawn(level.kinds.explosion, [at.x, at.y]);
    plays.write(PlaySound {
        sound: level.sounds.explosion,
        params: content::at_params(at.into()),
    });
}

/// Enemies walk towards the player.
fn move_enemies(
    player: Query<&Transform, (With<Player>, Without<Enemy>)>,
    mut enemies: Query<&mut Transform, With<Enemy>>,
) {
    let Ok(player) = player.single() else { return };
    let target = map(player);
    for mut transform in &mut enemies {
        let at = map(&transform);
        let step = (target - at).normalize_or_zero() * ENEMY_SPEED * DT;
        *transform = ground(at + step);
    }
}

/// Ten times a second the player fires at the nearest enemy, if a bullet is
/// free (64 in flight at most: the showcase's strict pool, here the bullets'
/// entity pool, which refuses a 65th).
fn fire(
    mut pools: EntityPools,
    level: Res<Level>,
    mut plays: MessageWriter<PlaySound>,
    mut fx: ResMut<Vfx>,
    player: Query<&Transform, With<Player>>,
    enemies: Query<&Transform, With<Enemy>>,
) {
    if !(level.frame as usize).is_multiple_of(FPS / SHOTS_PER_SECOND) {
        return;
    }
    let Ok(player) = player.single() else { return };
    let from = map(player);
    let Some(target) = enemies
        .iter()
        .map(map)
        .min_by(|a, b| a.distance(from).total_cmp(&b.distance(from)))
    else {
        return;
    };
    let bullet = Bullet {
        velocity: (target - from).normalize_or_zero() * BULLET_SPEED,
        life: BULLET_LIFE,
    };
    if pools
        .acquire_with::<Bullet>((bullet, ground(from)))
        .is_err()
    {
        return;
    }
    let _ = fx.spawn(level.kinds.muzzle, [from.x, from.y]);
    plays.write(PlaySound {
        sound: level.sounds.gunshot,
        params: content::at_params(from.into()),
    });
}

/// Bullets fly; a bullet within reach of a living enemy hits it (a spark) and
/// is gone; an enemy out of hit points dies (an explosion).
fn move_bullets(
    mut pools: EntityPools,
    level: Res<Level>,
    mut plays: MessageWriter<PlaySound>,
    mut fx: ResMut<Vfx>,
    mut bullets: Query<(&PoolMember, &mut Transform, &mut Bullet), Without<Enemy>>,
    mut enemies: Query<(&PoolMember, &Transform, &mut Enemy)>,
) {
    for (pooled, mut transform, mut bullet) in &mut bullets {
        let at = map(&transform) + bullet.velocity * DT;
        *transform = ground(at);
        bullet.life -= DT;
        let hit = enemies
            .iter_mut()
            .find(|(_, enemy_at, enemy)| enemy.hp > 0 && map(enemy_at).distance(at) < HIT_RADIUS);
        let was_hit = hit.is_some();
        if let Some((_, _, mut enemy)) = hit {
            enemy.hp -= 1;
            let _ = fx.spawn(level.kinds.spark, [at.x, at.y]);
            plays.write(PlaySound {
                sound: level.sounds.spark,
                params: content::at_params(at.into()),
            });
        }
        if was_hit || bullet.life <= 0.0 {
            let _ = pools.release(pooled.handle());
        }
    }
    for (pooled, transform, enemy) in &enemies {
        if enemy.hp == 0 {
            explode(&level, map(transform), &mut plays, &mut fx);
            let _ = pools.release(pooled.handle());
        }
    }
}

fn count_ended(mut level: ResMut<Level>, mut ended: MessageReader<VoiceEnded>) {
    level.ended += ended.read().count() as u64;
}

fn tick(mut level: ResMut<Level>) {
    level.frame += 1;
}

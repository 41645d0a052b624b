//! A headless Bevy app playing the showcase's level through the plugins: the
//! same sounds, groups and settings, the same 300 looping emitters (torches
//! and waterfalls) on the 200 m map, the same listener walk, and the same
//! waves (a horn and 60 enemies every 3 s; the player fires 10 times a second
//! from a strict magazine of 64 bullets; a hit is a spark, a death an
//! explosion; 2 s into a wave the rest die at once), all as Bevy entities,
//! the enemies and bullets pooled (`EntityPoolPlugin`: spawned once,
//! disabled between uses, the magazine a strict pool of 64),
//! under a looping music piece on the `"music"` track (a limiter on the main
//! track holds music and effects together under -1 dBFS).
//! The content comes from the showcase crate (`showcase::content`); only the
//! game's rules are restated here, as systems.
//!
//! `cargo run --release -p bevy_pool --example headless [-- --seconds N] [--out DIR] [--tsv]`
//!
//! Minimal plugins and a schedule runner, frames of exactly 1/60 s, the offline
//! backend recording; writes `level.wav` into `--out` (default
//! `target/bevy-headless`). Prints a row per second, with `--tsv` only
//! `second<TAB>real<TAB>virtual<TAB>plays<TAB>ended<TAB>peak_dbfs<TAB>clipped<TAB>most_live_effects`
//! (the peak of the recorded output; clipped: samples at full scale).

use std::error::Error;
use std::path::PathBuf;
use std::time::Duration;

use bevy::app::ScheduleRunnerPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_pool::{
    ApplySnapshot, AudioOutput, EntityPolicy, EntityPoolAppExt, EntityPoolPlugin,
    EntityPoolSettings, EntityPools, MusicTracks, Output, PlayMusic, PlaySound, PoolMember,
    ReleaseSnapshot, Sfx, SoundEffectsPlugin, SoundEmitter, SoundListener, Vfx, VfxPlugin,
    VoiceEnded,
};
use pool_audio::{
    PlayParams, dsp::LimiterSettings, linear_fade, mix::SnapshotId, music::MusicParams,
    music::MusicSource, offline::OfflineSettings,
};
use showcase::content::{
    self, BULLET_LIFE, BULLET_SPEED, BULLETS, ENEMIES_PER_WAVE, ENEMY_HP, ENEMY_SPEED, FPS,
    HIT_RADIUS, Kinds, Lcg, RATE, SHOTS_PER_SECOND, STEP_FRAMES, STORM_SECONDS, Sounds,
    WAVE_SECONDS,
};

const DT: f32 = 1.0 / FPS as f32;

#[derive(Resource)]
struct Level {
    frames: u64,
    frame: u64,
    sounds: Sounds,
    storm: SnapshotId,
    kinds: Kinds,
    rng: Lcg,
    tsv: bool,
    last_rendered: usize,
    ended: u64,
    /// The most live effects in any frame of this second.
    most_effects: usize,
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

/// Where `level.wav` goes.
#[derive(Resource)]
struct Out(PathBuf);

/// A map position (x, z) of a transform on the ground.
fn map(transform: &Transform) -> Vec2 {
    Vec2::new(transform.translation.x, transform.translation.z)
}

fn ground(at: Vec2) -> Transform {
    Transform::from_xyz(at.x, 0.0, at.y)
}

fn main() -> Result<(), Box<dyn Error>> {
    let (seconds, out, tsv) = parse_args()?;
    std::fs::create_dir_all(&out)?;
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(ScheduleRunnerPlugin::run_loop(Duration::ZERO)),
        TransformPlugin,
        SoundEffectsPlugin {
            // The showcase's settings: its voice cap and loudness window.
            settings: content::settings(),
            output: Output::Offline {
                settings: OfflineSettings { sample_rate: RATE },
                record: true,
            },
            // The music plays beside the effects' limiter: one more on the
            // main track holds them together under -1 dBFS.
            main_limiter: Some(LimiterSettings::default()),
            ..Default::default()
        },
        VfxPlugin,
        EntityPoolPlugin,
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / FPS as f64,
    )))
    .add_systems(Startup, setup)
    .add_systems(
        Update,
        (
            walk,
            waves,
            move_enemies,
            fire,
            move_bullets,
            count_ended,
            report,
        )
            .chain(),
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
    {
        let world = app.world_mut();
        let mut rng = content::rng();
        let mut sfx = world.resource_mut::<Sfx>();
        // The showcase's world bus, then its sound bank: explosions duck
        // the footsteps; the storm snapshot lowers the ambience and the
        // plugin's music track while every enemy dies at once.
        content::add_space(&mut sfx)?;
        let (sounds, storm) = content::add_sounds(&mut sfx, &mut rng, &mut content::files()?)?;
        let kinds = content::add_kinds(&mut world.resource_mut::<Vfx>())?;
        world.insert_resource(Level {
            frames: (seconds * FPS as f64) as u64,
            frame: 0,
            sounds,
            storm,
            kinds,
            rng,
            tsv,
            last_rendered: 0,
            ended: 0,
            most_effects: 0,
        });
    }
    app.insert_resource(Out(out));
    match app.run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(format!("the level failed ({code})").into()),
    }
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
    let at = content::listener_at((level.frame as f32 / level.frames as f32).min(1.0));
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

/// A row per second; stops the app after the last frame.
fn report(
    mut level: ResMut<Level>,
    sfx: Res<Sfx>,
    fx: Res<Vfx>,
    music: Res<MusicTracks>,
    output: NonSend<AudioOutput>,
    out: Res<Out>,
    mut exit: MessageWriter<AppExit>,
) {
    level.frame += 1;
    level.most_effects = level.most_effects.max(fx.live_count());
    if level.frame.is_multiple_of(FPS as u64) {
        // The audio of this second, rendered up to the last frame.
        let recorded = output.recorded_samples();
        let samples = &recorded[level.last_rendered.min(recorded.len())..];
        let peak = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
        let clipped = samples.iter().filter(|s| s.abs() >= 1.0).count();
        level.last_rendered = recorded.len();
        let stats = sfx.stats();
        let second = level.frame / FPS as u64;
        let (real, virtual_voices, plays, ended, peak_db, effects) = (
            stats.real_voices,
            stats.virtual_voices,
            stats.plays,
            level.ended,
            20.0 * peak.max(1e-6).log10(),
            level.most_effects,
        );
        let row = if level.tsv {
            format!(
                "{second}\t{real}\t{virtual_voices}\t{plays}\t{ended}\t{peak_db:.2}\t{clipped}\t{effects}"
            )
        } else {
            format!(
                "second {second}: {real} real, {virtual_voices} virtual voices; {plays} plays, {ended} ended; peak {peak_db:.2} dBFS, {clipped} clipped; at most {effects} live effects; music at {:.2} s",
                music
                    .track("music")
                    .and_then(|track| music.position(track))
                    .ok()
                    .flatten()
                    .map_or(0.0, |at| at.as_secs_f64())
            )
        };
        level.most_effects = 0;
        println!("{row}");
    }
    // The level's last frame is rendered in its `PostUpdate`, after this
    // system, and Bevy's first frame has no time: the level ends once the
    // recording holds every second asked for, a frame or two later.
    let recorded_seconds = output.recorded_samples().len() as f64 / 2.0 / f64::from(RATE);
    if level.frame >= level.frames && recorded_seconds >= level.frames as f64 / FPS as f64 {
        let path = out.0.join("level.wav");
        match output.recorded().write_wav(&path) {
            Ok(()) => {
                if !level.tsv {
                    println!("wrote {}", path.display());
                }
                exit.write(AppExit::Success);
            }
            Err(error) => {
                eprintln!("could not write {}: {error}", path.display());
                exit.write(AppExit::error());
            }
        }
    }
}

fn parse_args() -> Result<(f64, PathBuf, bool), Box<dyn Error>> {
    let (mut seconds, mut out, mut tsv) = (10.0, PathBuf::from("target/bevy-headless"), false);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--tsv" => tsv = true,
            "--seconds" => {
                let value = args.next().ok_or("--seconds needs a number")?;
                seconds = value
                    .parse::<f64>()
                    .ok()
                    .filter(|s| (1.0..=600.0).contains(s))
                    .ok_or(format!("--seconds {value:?} is not in 1..=600"))?;
            }
            "--out" => out = args.next().ok_or("--out needs a directory")?.into(),
            other => {
                return Err(format!(
                    "unknown argument {other:?} (expected --seconds N, --out DIR, --tsv)"
                )
                .into());
            }
        }
    }
    Ok((seconds, out, tsv))
}

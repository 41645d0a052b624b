//! A headless Bevy app playing a level through the plugins: the showcase's
//! scene rebuilt as Bevy entities. 300 looping emitters (torches and
//! waterfalls) on a 200 m map, a listener walking across it, and every 3
//! seconds a wave of enemies dying: an explosion sound (`PlaySound`) and an
//! explosion effect (`Fx`) where each one stood.
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
    AudioOutput, EffectsPlugin, Fx, Output, PlaySound, Sfx, SoundEffectsPlugin, SoundEmitter,
    SoundListener, VoiceEnded,
};
use pool_audio::kira::Frame;
use pool_audio::kira::sound::static_sound::StaticSoundData;
use pool_audio::{OfflineSettings, PlayParams, SoundEffectsSettings, SoundId, SoundSettings};
use pool_effects::{EffectKind, KindId};

const FPS: f64 = 60.0;
const HALF: f32 = 100.0;
const VOICE_CAP: usize = 32;

#[derive(Resource)]
struct Level {
    frames: u64,
    frame: u64,
    explosion: SoundId,
    boom: KindId,
    seed: u64,
    tsv: bool,
    last_rendered: usize,
    ended: u64,
    /// The most live effects in any frame of this second.
    most_effects: usize,
}

#[derive(Component)]
struct Walker;

/// Where `level.wav` goes.
#[derive(Resource)]
struct Out(PathBuf);

fn main() -> Result<(), Box<dyn Error>> {
    let (seconds, out, tsv) = parse_args()?;
    std::fs::create_dir_all(&out)?;
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(ScheduleRunnerPlugin::run_loop(Duration::ZERO)),
        TransformPlugin,
        SoundEffectsPlugin {
            settings: SoundEffectsSettings {
                voice_cap: VOICE_CAP,
                ..Default::default()
            },
            output: Output::Offline {
                settings: OfflineSettings::default(),
                record: true,
            },
            ..Default::default()
        },
        EffectsPlugin,
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / FPS,
    )))
    .add_systems(Startup, setup)
    .add_systems(Update, (walk, waves, count_ended, report).chain());
    {
        let world = app.world_mut();
        let mut sfx = world.resource_mut::<Sfx>();
        let torch = sfx.add_sound(
            "torch",
            noise(0.8, 1, 0.15).loop_region(..),
            SoundSettings::default(),
        )?;
        let water = sfx.add_sound(
            "waterfall",
            noise(1.3, 2, 0.2).loop_region(..),
            SoundSettings::default(),
        )?;
        let explosion = sfx.add_sound(
            "explosion",
            boom(),
            SoundSettings::default().max_voices(10).first_volume(0.2),
        )?;
        let boom = world
            .resource_mut::<Fx>()
            .add_kind(EffectKind::new("explosion", 12, 1.0 / 30.0).pool(256, 256))?;
        world.insert_resource(Level {
            frames: (seconds * FPS) as u64,
            frame: 0,
            explosion,
            boom,
            seed: 0x5eed,
            tsv,
            last_rendered: 0,
            ended: 0,
            most_effects: 0,
        });
        world.insert_resource(Sounds { torch, water });
    }
    app.insert_resource(Out(out));
    match app.run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(format!("the level failed ({code})").into()),
    }
}

#[derive(Resource)]
struct Sounds {
    torch: SoundId,
    water: SoundId,
}

/// 300 emitters on a grid with jitter, and the walking listener.
fn setup(mut commands: Commands, sounds: Res<Sounds>, mut level: ResMut<Level>) {
    for i in 0..300 {
        let (x, y) = (
            -HALF + 11.0 * (i % 18) as f32 + random(&mut level.seed) * 6.0,
            -HALF + 12.0 * (i / 18) as f32 + random(&mut level.seed) * 6.0,
        );
        let sound = if i % 7 == 0 {
            sounds.water
        } else {
            sounds.torch
        };
        commands.spawn((SoundEmitter::new(sound), Transform::from_xyz(x, y, 0.0)));
    }
    commands.spawn((
        SoundListener,
        Walker,
        Transform::from_xyz(-HALF, -HALF, 0.0),
    ));
}

/// The listener walks the diagonal at 8 m/s.
fn walk(mut walker: Query<&mut Transform, With<Walker>>, level: Res<Level>) {
    let t = level.frame as f32 / FPS as f32;
    for mut transform in &mut walker {
        let along = (t * 8.0 / (2.0 * HALF)).fract();
        transform.translation =
            Vec3::new(-HALF + 2.0 * HALF * along, -HALF + 2.0 * HALF * along, 0.0);
    }
}

/// Every 3 s, a wave: 40 enemies die over half a second near the listener, each
/// an explosion sound and an explosion effect.
fn waves(
    mut level: ResMut<Level>,
    mut plays: MessageWriter<PlaySound>,
    mut fx: ResMut<Fx>,
    walker: Query<&Transform, With<Walker>>,
) {
    let frame = level.frame;
    let in_wave = frame % 180 < 30;
    let Some(listener) = walker.iter().next().map(|t| t.translation) else {
        return;
    };
    if in_wave && frame.is_multiple_of(2) {
        for _ in 0..3 {
            let at = [
                listener.x + random(&mut level.seed) * 30.0,
                listener.y + random(&mut level.seed) * 30.0,
            ];
            plays.write(PlaySound {
                sound: level.explosion,
                params: PlayParams::default().position([at[0], at[1], 0.0]),
            });
            let boom = level.boom;
            let _ = fx.spawn(boom, at);
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
    fx: Res<Fx>,
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
                "second {second}: {real} real, {virtual_voices} virtual voices; {plays} plays, {ended} ended; peak {peak_db:.2} dBFS, {clipped} clipped; at most {effects} live effects"
            )
        };
        level.most_effects = 0;
        println!("{row}");
    }
    if level.frame >= level.frames {
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

/// A uniform number in [-1, 1).
fn random(seed: &mut u64) -> f32 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    ((*seed >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
}

/// `seconds` of filtered noise at `level`, smoothed over `smooth` samples.
fn noise(seconds: f32, smooth: usize, level: f32) -> StaticSoundData {
    let mut seed = 7u64 + smooth as u64;
    let mut last = 0.0f32;
    let frames = (0..(seconds * 48_000.0) as usize)
        .map(|_| {
            let r = random(&mut seed);
            last += (r - last) / (smooth as f32 + 1.0);
            Frame::from_mono(last * level)
        })
        .collect();
    StaticSoundData {
        sample_rate: 48_000,
        frames,
        settings: Default::default(),
        slice: None,
    }
}

/// A synthesized explosion: a decaying low rumble with a noisy attack.
fn boom() -> StaticSoundData {
    let mut seed = 99u64;
    let frames = (0..36_000)
        .map(|i| {
            let t = i as f32 / 48_000.0;
            let envelope = (-t * 6.0).exp();
            let rumble = (t * 55.0 * std::f32::consts::TAU).sin() * 0.7;
            let crack = random(&mut seed) * (-t * 30.0).exp() * 0.5;
            Frame::from_mono(((rumble + crack) * envelope).clamp(-1.0, 1.0))
        })
        .collect();
    StaticSoundData {
        sample_rate: 48_000,
        frames,
        settings: Default::default(),
        slice: None,
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

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
//! The content comes from the showcase crate (`showcase::content`); the
//! game's rules are systems in `headless/level.rs`, which the web example
//! plays in a browser too.
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
use bevy_pool::{AudioOutput, EntityPoolPlugin, MusicTracks, Output, Sfx, Vfx, VfxPlugin};
use pool_audio::offline::OfflineSettings;
use showcase::content::{self, FPS, RATE};

#[path = "headless/level.rs"]
mod level;

use level::{Level, LevelSystems};

/// What the rows need from second to second, and where `level.wav` goes.
#[derive(Resource)]
struct Report {
    out: PathBuf,
    tsv: bool,
    last_rendered: usize,
    /// The most live effects in any frame of this second.
    most_effects: usize,
}

fn main() -> Result<(), Box<dyn Error>> {
    let (seconds, out, tsv) = parse_args()?;
    std::fs::create_dir_all(&out)?;
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(ScheduleRunnerPlugin::run_loop(Duration::ZERO)),
        TransformPlugin,
        level::sound_plugin(Output::Offline {
            settings: OfflineSettings { sample_rate: RATE },
            record: true,
        }),
        VfxPlugin,
        EntityPoolPlugin,
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / FPS as f64,
    )))
    .add_systems(Update, report.after(LevelSystems));
    let frames = (seconds * FPS as f64) as u64;
    level::add_level(&mut app, frames, false, &mut content::files()?)?;
    app.insert_resource(Report {
        out,
        tsv,
        last_rendered: 0,
        most_effects: 0,
    });
    match app.run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(format!("the level failed ({code})").into()),
    }
}

/// A row per second; stops the app after the last frame.
fn report(
    level: Res<Level>,
    mut report: ResMut<Report>,
    sfx: Res<Sfx>,
    fx: Res<Vfx>,
    music: Res<MusicTracks>,
    output: NonSend<AudioOutput>,
    mut exit: MessageWriter<AppExit>,
) {
    report.most_effects = report.most_effects.max(fx.live_count());
    if level.frame.is_multiple_of(FPS as u64) {
        // The audio of this second, rendered up to the last frame.
        let recorded = output.recorded_samples();
        let samples = &recorded[report.last_rendered.min(recorded.len())..];
        let peak = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
        let clipped = samples.iter().filter(|s| s.abs() >= 1.0).count();
        report.last_rendered = recorded.len();
        let stats = sfx.stats();
        let second = level.frame / FPS as u64;
        let (real, virtual_voices, plays, ended, peak_db, effects) = (
            stats.real_voices,
            stats.virtual_voices,
            stats.plays,
            level.ended,
            20.0 * peak.max(1e-6).log10(),
            report.most_effects,
        );
        let row = if report.tsv {
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
        report.most_effects = 0;
        println!("{row}");
    }
    // The level's last frame is rendered in its `PostUpdate`, after this
    // system, and Bevy's first frame has no time: the level ends once the
    // recording holds every second asked for, a frame or two later.
    let recorded_seconds = output.recorded_samples().len() as f64 / 2.0 / f64::from(RATE);
    if level.frame >= level.frames && recorded_seconds >= level.frames as f64 / FPS as f64 {
        let path = report.out.join("level.wav");
        match output.recorded().write_wav(&path) {
            Ok(()) => {
                if !report.tsv {
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

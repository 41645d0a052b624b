//! One level that uses the whole workspace, headless: a top-down map with 300
//! looping ambience emitters (torches and waterfalls), a listener walking across
//! it, and waves of enemies that die in storms.
//!
//! - Enemies and bullets are `pool_core` pooled objects.
//! - Explosions, muzzle flashes and hit sparks are `pool_effects` effects.
//! - Everything heard is `pool_audio`: at most 32 real voices; the ambience
//!   emitters go virtual when they are not among the most audible and come back
//!   when the listener walks up; combat and UI sounds play in groups (UI
//!   protected); explosions at one spot are held back by a retrigger radius.
//! - The level has a space: every sound but the interface goes through a
//!   world bus; a cave at the map's centre is a zone that follows the
//!   listener, sending every voice to the cave's reverb as the listener walks
//!   in (and out, over 15 m); at 70% of the run the player opens the pause
//!   menu for 15% of it, a snapshot that muffles the world bus to 400 Hz and
//!   lowers it 6 dB while the interface stays clear.
//!
//! `cargo run --release -p showcase [-- --seconds N] [--out DIR] [--tsv] [--capture FILE]`
//!
//! `--capture FILE` captures the level's sound from its first play and
//! writes it to FILE (see `pool_audio::capture`); `showcase replay FILE
//! [--out DIR] [--at SECONDS]` replays it into the level's sounds set up
//! afresh, writes `replay.wav` (the same samples as `level.wav`) and
//! `timeline.png`, and with `--at` prints the voice table at that moment.
//!
//! Renders N seconds (default 10) offline and writes `level.wav`, `level.gif` (the
//! map, ten pictures a second: real voices bright, virtual ones dim), `last.png`
//! and `plot.png` (real and virtual voices, limiter gain reduction and peak over
//! time, the ducks and snapshots, the cave's reverb and the world bus) and `doppler.png` (the passing car's pitch, measured against the
//! doppler formula) into `--out` (default `target/showcase`). Prints a table per second, or
//! with `--tsv` the rows
//! `second<TAB>real<TAB>virtual<TAB>plays<TAB>stolen<TAB>peak_dbfs<TAB>clipped`
//! (the peak before kira's clamp; clipped as a fraction of samples).

mod picture;
mod replay;
mod timeline;

use std::error::Error;
use std::io::Write;
use std::path::PathBuf;

use showcase::content::FPS;
use showcase::level::Level;

/// Events a capture keeps: the first plays, and per second of the level
/// (about 300 a second on average; room for its busiest seconds).
const CAPTURE_EVENTS: (usize, usize) = (2_000, 1_500);

fn main() -> Result<(), Box<dyn Error>> {
    if std::env::args().nth(1).as_deref() == Some("replay") {
        return replay::run(std::env::args().skip(2));
    }
    let options = Options::parse()?;
    std::fs::create_dir_all(&options.out)?;
    let mut out = std::io::stdout().lock();
    let events = CAPTURE_EVENTS.0 + options.seconds * CAPTURE_EVENTS.1;
    let mut level = Level::new(options.capture.is_some().then_some(events))?;
    let mut pictures = picture::Pictures::new();
    if !options.tsv {
        writeln!(
            out,
            "| second | real | virtual | plays | stolen | peak dBFS | clipped |"
        )?;
        writeln!(out, "|---:|---:|---:|---:|---:|---:|---:|")?;
    }
    let frames = options.seconds * FPS;
    for frame in 0..frames {
        level.step(frame, frames)?;
        if frame.is_multiple_of(FPS / 10) {
            pictures.snapshot(&level, frame + 1)?;
        }
        pictures.sample(&level);
        if (frame + 1).is_multiple_of(FPS) {
            let row = level.second_row((frame + 1) / FPS);
            let (sep, start, end) = if options.tsv {
                ("\t", "", "")
            } else {
                (" | ", "| ", " |")
            };
            writeln!(
                out,
                "{start}{}{sep}{}{sep}{}{sep}{}{sep}{}{sep}{:.2}{sep}{:.6}{end}",
                row.second,
                row.real,
                row.virtual_voices,
                row.plays,
                row.stolen,
                row.peak_db,
                row.clipped
            )?;
        }
    }
    level.write_wav(&options.out.join("level.wav"))?;
    if let Some(path) = &options.capture {
        let capture = level.sfx.stop_capture().ok_or("the capture was on")?;
        let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
        capture.write(&mut file)?;
        file.flush()?;
        if !options.tsv {
            writeln!(
                out,
                "captured {} events ({} dropped) to {}",
                capture.events().len(),
                capture.dropped(),
                path.display()
            )?;
        }
    }
    pictures.write(&options.out)?;
    picture::doppler(&level.track, &options.out.join("doppler.png"))?;
    if !options.tsv {
        writeln!(
            out,
            "\nwrote level.wav, level.gif, last.png, plot.png and doppler.png to {}",
            options.out.display()
        )?;
    }
    Ok(())
}

struct Options {
    seconds: usize,
    out: PathBuf,
    tsv: bool,
    capture: Option<PathBuf>,
}

impl Options {
    fn parse() -> Result<Self, Box<dyn Error>> {
        let mut options = Self {
            seconds: 10,
            out: PathBuf::from("target/showcase"),
            tsv: false,
            capture: None,
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--tsv" => options.tsv = true,
                "--seconds" => {
                    let value = args.next().ok_or("--seconds needs a number")?;
                    options.seconds = value
                        .parse()
                        .ok()
                        .filter(|s| (1..=600).contains(s))
                        .ok_or(format!("--seconds {value:?} is not in 1..=600"))?;
                }
                "--out" => options.out = args.next().ok_or("--out needs a directory")?.into(),
                "--capture" => {
                    options.capture = Some(args.next().ok_or("--capture needs a file")?.into());
                }
                other => {
                    return Err(format!(
                        "unknown argument {other:?} (expected --seconds N, --out DIR, --tsv, --capture FILE, or replay FILE)"
                    )
                    .into());
                }
            }
        }
        Ok(options)
    }
}

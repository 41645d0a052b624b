//! `showcase replay CAPTURE [--out DIR] [--at SECONDS]`: a capture of the
//! level (`showcase --capture FILE`) played back into the level's sounds,
//! set up afresh in this process. Writes `replay.wav` (the same samples as
//! the session's `level.wav`, bit for bit) and `timeline.png` (every voice
//! over time, the refusals and steals, the mix and the output) into `--out`,
//! and with `--at` prints the voice table at that moment of the game.

use std::error::Error;
use std::path::PathBuf;

use pool_audio::capture::{Capture, Replay, What};
use pool_audio::offline::Rendered;
use pool_audio::{EndReason, VoiceState};
use showcase::content::RATE;

use crate::timeline::Timeline;
use showcase::level::Setup;

struct Options {
    capture: PathBuf,
    out: PathBuf,
    at: Option<f64>,
}

impl Options {
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Self, Box<dyn Error>> {
        let capture = args.next().ok_or("replay needs a capture file")?;
        let mut options = Self {
            capture: capture.into(),
            out: PathBuf::from("target/showcase"),
            at: None,
        };
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--out" => options.out = args.next().ok_or("--out needs a directory")?.into(),
                "--at" => {
                    let value = args.next().ok_or("--at needs seconds")?;
                    let at = value
                        .parse::<f64>()
                        .ok()
                        .filter(|s| s.is_finite() && *s >= 0.0);
                    options.at = Some(at.ok_or(format!("--at {value:?} is not seconds"))?);
                }
                other => {
                    return Err(format!(
                        "unknown argument {other:?} (expected --out DIR, --at SECONDS)"
                    )
                    .into());
                }
            }
        }
        Ok(options)
    }
}

/// Replays the capture named by `args`.
pub(crate) fn run(args: impl Iterator<Item = String>) -> Result<(), Box<dyn Error>> {
    let options = Options::parse(args)?;
    let text = std::fs::read_to_string(&options.capture)
        .map_err(|e| format!("{}: {e}", options.capture.display()))?;
    let capture = Capture::read(&text)?;
    std::fs::create_dir_all(&options.out)?;
    let Setup {
        mut manager,
        mut sfx,
        sounds,
        space,
        ..
    } = Setup::new()?;
    let mut replay = Replay::new(&capture);
    let mut audio = Vec::new();
    let mut timeline = Timeline::new(sounds.footsteps, sounds.ambience, space.world);
    let mut at = options.at;
    loop {
        if let Some(moment) = at
            && replay.next_event().is_none_or(|e| e.time > moment)
        {
            println!("The voices at {moment} s of the game:\n");
            print!("{}", sfx.voice_table(60));
            println!("\n{:?}\n", sfx.mix().stats());
            at = None;
        }
        let Some(event) = replay.step(&mut sfx, &mut manager, &mut audio)? else {
            break;
        };
        match event.what {
            What::Update { .. } => timeline.sample(&sfx, &audio, event.time),
            What::Play {
                sound,
                outcome: Err(refusal),
                ..
            } => timeline.refused(event.time, capture.sound_name(sound), refusal),
            What::Ended {
                voice,
                reason: reason @ (EndReason::Stolen | EndReason::Crowded),
            } => {
                if let Some(voice) = replay.voice(voice) {
                    timeline.displaced(event.time, voice, reason);
                }
            }
            _ => {}
        }
    }
    let seconds = audio.len() as f64 / 2.0 / f64::from(RATE);
    Rendered::from_samples(RATE, audio).write_wav(options.out.join("replay.wav"))?;
    timeline.draw(&options.out.join("timeline.png"))?;
    let real = sfx.voices().filter(|v| v.state == VoiceState::Real).count();
    println!(
        "replayed {} events ({seconds:.1} s of audio, {real} real voices at the end): wrote replay.wav and timeline.png to {}",
        capture.events().len(),
        options.out.display()
    );
    Ok(())
}

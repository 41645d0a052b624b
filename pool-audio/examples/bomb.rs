//! Source 003's experiment: N copies of the same sound started in the same frame,
//! once through plain kira and once through `SoundEffects`, on the offline backend.
//!
//! `cargo run --release -p pool-audio --example bomb [-- --out DIR] [--tsv]`
//!
//! For N = 1, 5, 10, 30, 60, 100 and 200, a synthesized explosion and a 440 Hz sine:
//! the peak of the mix before kira's output clamp, the fraction of samples the clamp
//! cuts, the voices actually playing, and the time to render one second. Writes a
//! WAV file per case and `waveforms.png` (plain kira beside the pool, after the
//! clamp: what a player hears) into `--out` (default `target/bomb`). `--tsv` prints
//! only `mode<TAB>sound<TAB>n<TAB>played<TAB>peak<TAB>clipped_fraction<TAB>render_ms`.

use std::error::Error;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use kira::sound::static_sound::StaticSoundData;
use kira::track::MainTrackBuilder;
use kira::{AudioManager, AudioManagerSettings, Frame};
use pool_audio::{
    MeterBuilder, OfflineBackend, OfflineSettings, PlayParams, Rendered, SoundEffects,
    SoundEffectsSettings, SoundSettings,
};

const RATE: u32 = 48_000;
const COUNTS: [usize; 7] = [1, 5, 10, 30, 60, 100, 200];
const SECONDS: f64 = 1.0;

struct Case {
    mode: &'static str,
    sound: &'static str,
    n: usize,
    played: usize,
    peak: f32,
    clipped: f64,
    render_ms: f64,
    audio: Rendered,
}

fn main() -> Result<(), Box<dyn Error>> {
    let (out, tsv) = parse_args()?;
    std::fs::create_dir_all(&out)?;
    let sounds = [("sine", sine()), ("explosion", explosion())];

    let mut cases = Vec::new();
    for (name, sound) in &sounds {
        for n in COUNTS {
            cases.push(run(false, name, sound, n)?);
            cases.push(run(true, name, sound, n)?);
        }
    }

    let mut stdout = std::io::stdout().lock();
    if tsv {
        for c in &cases {
            writeln!(
                stdout,
                "{}\t{}\t{}\t{}\t{:.4}\t{:.4}\t{:.2}",
                c.mode, c.sound, c.n, c.played, c.peak, c.clipped, c.render_ms
            )?;
        }
    } else {
        writeln!(
            stdout,
            "N copies of one sound started in the same frame, one second rendered offline at {RATE} Hz."
        )?;
        writeln!(
            stdout,
            "Peak is the mix before kira's output clamp; clipped is the share of samples the clamp cuts."
        )?;
        writeln!(
            stdout,
            "Pooled: SoundEffects, 10 copies per sound, first copy 0.2, all copies within -1 dBFS."
        )?;
        writeln!(stdout)?;
        writeln!(
            stdout,
            "| sound | N | plain kira: played | peak | clipped | render ms | pooled: played | peak | clipped | render ms |"
        )?;
        writeln!(stdout, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")?;
        for pair in cases.chunks(2) {
            let (naive, pooled) = (&pair[0], &pair[1]);
            writeln!(
                stdout,
                "| {} | {} | {} | {:.2} | {:.1}% | {:.1} | {} | {:.3} | {:.1}% | {:.1} |",
                naive.sound,
                naive.n,
                naive.played,
                naive.peak,
                naive.clipped * 100.0,
                naive.render_ms,
                pooled.played,
                pooled.peak,
                pooled.clipped * 100.0,
                pooled.render_ms
            )?;
        }
    }

    for c in &cases {
        c.audio
            .write_wav(out.join(format!("{}-{}-{:03}.wav", c.mode, c.sound, c.n)))?;
    }
    let picture = out.join("waveforms.png");
    draw(&cases, 100).save(&picture)?;
    if !tsv {
        writeln!(stdout)?;
        writeln!(
            stdout,
            "wrote {} WAV files and {}",
            cases.len(),
            picture.display()
        )?;
    }
    Ok(())
}

/// Plays `n` copies in one frame, plainly or through the pool, and renders a second.
fn run(
    pooled: bool,
    name: &'static str,
    sound: &StaticSoundData,
    n: usize,
) -> Result<Case, Box<dyn Error>> {
    let meter = MeterBuilder::new();
    let reading = meter.handle();
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings {
        main_track_builder: MainTrackBuilder::new().with_effect(meter),
        backend_settings: OfflineSettings { sample_rate: RATE },
        ..Default::default()
    })?;
    // The manager lives until the render is done: dropping it drops its kira
    // sub-track, and kira removes a track (and its sounds) with its handle.
    let mut sfx = None;
    let played = if pooled {
        let effects = sfx.insert(SoundEffects::new(
            &mut manager,
            SoundEffectsSettings::default(),
        )?);
        let id = effects.add_sound(
            name,
            sound.clone(),
            SoundSettings::default().max_voices(10).first_volume(0.2),
        )?;
        for _ in 0..n {
            let _ = effects.play(id, PlayParams::default());
        }
        effects.copies_playing(id)
    } else {
        // Plain kira: every copy at full volume; past the track's 128 sounds kira
        // refuses with SoundLimitReached and the newest copies are the ones lost.
        (0..n)
            .filter(|_| manager.play(sound.clone()).is_ok())
            .count()
    };
    let started = Instant::now();
    let audio = manager.backend_mut().render(SECONDS)?;
    let render_ms = started.elapsed().as_secs_f64() * 1e3;
    drop(sfx);
    Ok(Case {
        mode: if pooled { "pooled" } else { "naive" },
        sound: name,
        n,
        played,
        peak: reading.peak(),
        clipped: reading.clipped_fraction(),
        render_ms,
        audio,
    })
}

fn sound(frames: Vec<Frame>) -> StaticSoundData {
    StaticSoundData {
        sample_rate: RATE,
        frames: Arc::<[Frame]>::from(frames),
        settings: Default::default(),
        slice: None,
    }
}

/// One second of a full-scale 440 Hz sine (source 003's test tone).
fn sine() -> StaticSoundData {
    sound(
        (0..RATE)
            .map(|i| {
                let s = (i as f32 / RATE as f32 * 440.0 * std::f32::consts::TAU).sin();
                Frame { left: s, right: s }
            })
            .collect(),
    )
}

/// An explosion: a low thump and a noise burst, both decaying, peaking near full
/// scale. Deterministic, so every copy is in phase with every other, as when one
/// sample is triggered many times.
fn explosion() -> StaticSoundData {
    let mut seed = 0x0b00_u64;
    sound(
        (0..RATE)
            .map(|i| {
                let t = i as f32 / RATE as f32;
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let noise = ((seed >> 33) as f32 / (1u64 << 31) as f32) * 2.0 - 1.0;
                let thump = (t * 55.0 * std::f32::consts::TAU).sin() * (-t / 0.25).exp();
                let s =
                    (0.55 * thump + 0.45 * noise * (-t / 0.12).exp()) * (1.0 - (-t / 0.002).exp());
                Frame { left: s, right: s }
            })
            .collect(),
    )
}

fn parse_args() -> Result<(PathBuf, bool), Box<dyn Error>> {
    let (mut out, mut tsv) = (PathBuf::from("target/bomb"), false);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--tsv" => tsv = true,
            "--out" => out = args.next().ok_or("--out needs a folder")?.into(),
            other => {
                return Err(
                    format!("unknown argument {other:?} (expected --out DIR, --tsv)").into(),
                );
            }
        }
    }
    Ok((out, tsv))
}

/// Four panels for N copies: rows sine and explosion, columns plain kira and
/// pooled; the rendered output (after the clamp, as heard) with full scale and the
/// -1 dBFS headroom marked. The sine shows 10 ms, the explosion 400 ms.
fn draw(cases: &[Case], n: usize) -> image::RgbImage {
    let (panel_w, panel_h) = (480u32, 200u32);
    let mut img = image::RgbImage::from_pixel(
        panel_w * 2 + 30,
        panel_h * 2 + 30,
        image::Rgb([250, 250, 247]),
    );
    for (row, (sound, window)) in [("sine", 0.010), ("explosion", 0.400)].iter().enumerate() {
        for (col, mode) in ["naive", "pooled"].iter().enumerate() {
            let Some(case) = cases
                .iter()
                .find(|c| c.sound == *sound && c.mode == *mode && c.n == n)
            else {
                continue;
            };
            let (x0, y0) = (
                10 + col as u32 * (panel_w + 10),
                10 + row as u32 * (panel_h + 10),
            );
            let mid = y0 + panel_h / 2;
            let scale = (panel_h / 2 - 8) as f32;
            for x in 0..panel_w {
                for (level, color) in [
                    (1.0f32, [200, 60, 60]),
                    (10f32.powf(-1.0 / 20.0), [90, 150, 90]),
                ] {
                    for sign in [-1.0, 1.0] {
                        let y = (mid as f32 - sign * level * scale) as u32;
                        if x % 6 < 3 {
                            img.put_pixel(x0 + x, y, image::Rgb(color));
                        }
                    }
                }
                img.put_pixel(x0 + x, mid, image::Rgb([200, 200, 200]));
            }
            let samples = case.audio.samples();
            let frames = ((window * f64::from(RATE)) as usize).min(samples.len() / 2);
            let color = if *mode == "naive" {
                [170, 40, 40]
            } else {
                [30, 70, 150]
            };
            let to_y = |s: f32| {
                (mid as f32 - s * scale).clamp(y0 as f32, (y0 + panel_h - 1) as f32) as u32
            };
            let mut previous = samples.first().copied().unwrap_or(0.0);
            for x in 0..panel_w {
                let start = x as usize * frames / panel_w as usize;
                let end = ((x as usize + 1) * frames / panel_w as usize)
                    .max(start + 1)
                    .min(frames);
                // Joined to the previous column, so steep edges (a clipped square
                // wave) are drawn, not just dots on the rails.
                let (mut low, mut high) = (previous, previous);
                for f in start..end {
                    let s = samples[2 * f];
                    low = low.min(s);
                    high = high.max(s);
                    previous = s;
                }
                for y in to_y(high)..=to_y(low) {
                    img.put_pixel(x0 + x, y, image::Rgb(color));
                }
            }
        }
    }
    img
}

//! 100 explosions in one frame, and a battle: plain kira against the pool, on the
//! offline backend, metered before kira's output clamp.
//!
//! `cargo run --release -p pool-audio --example bomb [-- --out DIR] [--tsv]`
//!
//! - The storm: for N = 1, 5, 10, 30, 60, 100 and 200, N copies of one sound (a
//!   synthesized explosion, and a 440 Hz sine) started in the same frame, once
//!   through plain kira and once through `SoundEffects`, one second rendered.
//! - The battle: four seconds of explosions, gunshots and footsteps (three
//!   recordings at 48, 44.1 and 22.05 kHz), panned across the field, pitched
//!   +-20%, played every frame so copies recycle, rendered three ways: plain kira,
//!   the copy attenuation alone (limiter off), and the full chain (attenuation and
//!   the limiter).
//!
//! For each: the plays, the voices that played, the peak of the mix before kira's
//! clamp, the share of samples the clamp cuts, the limiter's deepest gain reduction
//! and its share of time acting, and the time to render. Writes a WAV file per
//! case, `waveforms.png` (the storm at N = 100, after the clamp: what a player
//! hears) and `battle.png` into `--out` (default `target/bomb`). `--tsv` prints
//! only `mode sound n played peak clipped_fraction render_ms limiter_db
//! limiter_active` (tab-separated; mode is `naive`, `attenuated` or `pooled`).

use std::error::Error;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use kira::sound::static_sound::StaticSoundData;
use kira::track::MainTrackBuilder;
use kira::{AudioManager, AudioManagerSettings, Decibels, Frame, Panning, PlaybackRate};
use pool_audio::{
    MeterBuilder, MeterHandle, OfflineBackend, OfflineSettings, PlayParams, Rendered, SoundEffects,
    SoundEffectsSettings, SoundId, SoundSettings,
};

const RATE: u32 = 48_000;
const COUNTS: [usize; 7] = [1, 5, 10, 30, 60, 100, 200];
const BATTLE_SECONDS: f64 = 4.0;
const FRAME: f64 = 1.0 / 60.0;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Plain kira: every copy at full volume.
    Naive,
    /// `SoundEffects` with the limiter off: the copy attenuation alone.
    Attenuated,
    /// `SoundEffects` as it comes: attenuation and the limiter.
    Pooled,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Self::Naive => "naive",
            Self::Attenuated => "attenuated",
            Self::Pooled => "pooled",
        }
    }
}

struct Case {
    mode: Mode,
    sound: &'static str,
    n: usize,
    played: usize,
    peak: f32,
    clipped: f64,
    render_ms: f64,
    limiter_db: f32,
    limiter_active: f64,
    audio: Rendered,
}

fn main() -> Result<(), Box<dyn Error>> {
    let (out, tsv) = parse_args()?;
    std::fs::create_dir_all(&out)?;
    let sounds = [("sine", sine()), ("explosion", explosion(RATE))];

    let mut cases = Vec::new();
    for (name, sound) in &sounds {
        for n in COUNTS {
            cases.push(storm(Mode::Naive, name, sound, n)?);
            cases.push(storm(Mode::Pooled, name, sound, n)?);
        }
    }
    let battles = [
        battle(Mode::Naive)?,
        battle(Mode::Attenuated)?,
        battle(Mode::Pooled)?,
    ];

    let mut stdout = std::io::stdout().lock();
    if tsv {
        for c in cases.iter().chain(&battles) {
            writeln!(
                stdout,
                "{}\t{}\t{}\t{}\t{:.6}\t{:.6}\t{:.2}\t{:.2}\t{:.4}",
                c.mode.name(),
                c.sound,
                c.n,
                c.played,
                c.peak,
                c.clipped,
                c.render_ms,
                c.limiter_db,
                c.limiter_active
            )?;
        }
    } else {
        print_tables(&mut stdout, &cases, &battles)?;
    }

    for c in cases.iter().chain(&battles) {
        c.audio
            .write_wav(out.join(format!("{}-{}-{:03}.wav", c.mode.name(), c.sound, c.n)))?;
    }
    let storm_picture = out.join("waveforms.png");
    draw_storm(&cases, 100).save(&storm_picture)?;
    let battle_picture = out.join("battle.png");
    draw_battle(&battles).save(&battle_picture)?;
    if !tsv {
        writeln!(stdout)?;
        writeln!(
            stdout,
            "wrote {} WAV files, {} and {}",
            cases.len() + battles.len(),
            storm_picture.display(),
            battle_picture.display()
        )?;
    }
    Ok(())
}

fn print_tables(out: &mut impl Write, cases: &[Case], battles: &[Case]) -> std::io::Result<()> {
    writeln!(
        out,
        "The storm: N copies of one sound started in the same frame, one second rendered offline at {RATE} Hz."
    )?;
    writeln!(
        out,
        "Peak is the mix before kira's output clamp; clipped is the share of samples the clamp cuts."
    )?;
    writeln!(
        out,
        "Pooled: SoundEffects, 10 copies per sound, first copy 0.2, all copies within -1 dBFS, limiter on."
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "| sound | N | plain kira: played | peak | clipped | render ms | pooled: played | peak | clipped | limiter dB | render ms |"
    )?;
    writeln!(
        out,
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    )?;
    for pair in cases.chunks(2) {
        let (naive, pooled) = (&pair[0], &pair[1]);
        writeln!(
            out,
            "| {} | {} | {} | {:.2} | {:.1}% | {:.1} | {} | {:.3} | {:.1}% | {:.1} | {:.1} |",
            naive.sound,
            naive.n,
            naive.played,
            naive.peak,
            naive.clipped * 100.0,
            naive.render_ms,
            pooled.played,
            pooled.peak,
            pooled.clipped * 100.0,
            pooled.limiter_db,
            pooled.render_ms
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "The battle: {BATTLE_SECONDS} s of explosions, gunshots and footsteps (48, 44.1 and 22.05 kHz recordings), panned"
    )?;
    writeln!(
        out,
        "across the field, pitched +-20%, played every frame so copies recycle. Attenuated: SoundEffects with"
    )?;
    writeln!(
        out,
        "the limiter off; pooled: attenuation and the limiter (ceiling -1 dBFS)."
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "| mode | plays | voices started | peak | clipped | limiter: deepest dB | active | render ms |"
    )?;
    writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|")?;
    for c in battles {
        writeln!(
            out,
            "| {} | {} | {} | {:.3} | {:.3}% | {:.1} | {:.1}% | {:.1} |",
            c.mode.name(),
            c.n,
            c.played,
            c.peak,
            c.clipped * 100.0,
            c.limiter_db,
            c.limiter_active * 100.0,
            c.render_ms
        )?;
    }
    Ok(())
}

/// A manager whose main track ends with a pre-clamp meter.
fn metered() -> Result<(AudioManager<OfflineBackend>, MeterHandle), Box<dyn Error>> {
    let meter = MeterBuilder::new();
    let reading = meter.handle();
    let manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings {
        main_track_builder: MainTrackBuilder::new().with_effect(meter),
        backend_settings: OfflineSettings { sample_rate: RATE },
        ..Default::default()
    })?;
    Ok((manager, reading))
}

fn sound_effects(
    manager: &mut AudioManager<OfflineBackend>,
    mode: Mode,
) -> Result<SoundEffects, Box<dyn Error>> {
    let mut settings = SoundEffectsSettings::default();
    if mode == Mode::Attenuated {
        settings.limiter = None;
    }
    Ok(SoundEffects::new(manager, settings)?)
}

fn limiter_readings(sfx: Option<&SoundEffects>) -> (f32, f64) {
    sfx.and_then(SoundEffects::limiter).map_or((0.0, 0.0), |l| {
        (l.take_max_gain_reduction_db(), l.active_fraction())
    })
}

/// Plays `n` copies in one frame, plainly or through the pool, and renders a second.
fn storm(
    mode: Mode,
    name: &'static str,
    sound: &StaticSoundData,
    n: usize,
) -> Result<Case, Box<dyn Error>> {
    let (mut manager, reading) = metered()?;
    // The manager lives until the render is done: dropping it drops its kira
    // sub-track, and kira removes a track (and its sounds) with its handle.
    let mut sfx = None;
    let played = if mode == Mode::Naive {
        // Plain kira: every copy at full volume; past the track's 128 sounds kira
        // refuses with SoundLimitReached and the newest copies are the ones lost.
        (0..n)
            .filter(|_| manager.play(sound.clone()).is_ok())
            .count()
    } else {
        let effects = sfx.insert(sound_effects(&mut manager, mode)?);
        let id = effects.add_sound(
            name,
            sound.clone(),
            SoundSettings::default().max_voices(10).first_volume(0.2),
        )?;
        for _ in 0..n {
            let _ = effects.play(id, PlayParams::default());
        }
        effects.copies_playing(id)
    };
    let started = Instant::now();
    let audio = manager.backend_mut().render(1.0)?;
    let render_ms = started.elapsed().as_secs_f64() * 1e3;
    let (limiter_db, limiter_active) = limiter_readings(sfx.as_ref());
    Ok(Case {
        mode,
        sound: name,
        n,
        played,
        peak: reading.peak(),
        clipped: reading.clipped_fraction(),
        render_ms,
        limiter_db,
        limiter_active,
        audio,
    })
}

/// One event of the battle: which sound, and how it is played.
struct Event {
    sound: usize,
    volume: f64,
    rate: f64,
    panning: f32,
}

/// The battle's script, the same for every mode: a machine gun, rifles, four
/// soldiers walking, explosions now and then and a barrage of twenty at 1.5 s.
fn script() -> Vec<Vec<Event>> {
    let mut rng = Lcg(0xba_77_1e);
    let frames = (BATTLE_SECONDS / FRAME).round() as usize;
    (0..frames)
        .map(|frame| {
            let mut events = Vec::new();
            let event = |rng: &mut Lcg, sound: usize| Event {
                sound,
                volume: 0.6 + 0.4 * rng.unit(),
                rate: 0.8 + 0.4 * rng.unit(),
                panning: (2.0 * rng.unit() - 1.0) as f32,
            };
            if frame % 3 == 0 {
                events.push(event(&mut rng, GUNSHOT)); // the machine gun
            }
            for _ in 0..(rng.unit() * 3.0) as usize {
                events.push(event(&mut rng, GUNSHOT)); // rifles
            }
            if frame % 5 == 0 {
                for _ in 0..4 {
                    events.push(event(&mut rng, FOOTSTEP));
                }
            }
            if rng.unit() < 0.12 {
                events.push(event(&mut rng, EXPLOSION));
            }
            if frame == 90 {
                for _ in 0..20 {
                    events.push(event(&mut rng, EXPLOSION));
                }
            }
            events
        })
        .collect()
}

const EXPLOSION: usize = 0;
const GUNSHOT: usize = 1;
const FOOTSTEP: usize = 2;

fn battle(mode: Mode) -> Result<Case, Box<dyn Error>> {
    let data = [explosion(48_000), gunshot(44_100), footstep(22_050)];
    // Loud, as a game mixes a battle: one explosion or one gunshot alone comes
    // near full scale. Each sound's stack stays under -1 dBFS; together they do not.
    let settings = [
        SoundSettings::default().max_voices(4).first_volume(0.7),
        SoundSettings::default().max_voices(4).first_volume(0.6),
        SoundSettings::default().max_voices(3).first_volume(0.5),
    ];
    let (mut manager, reading) = metered()?;
    let mut sfx = match mode {
        Mode::Naive => None,
        _ => Some(sound_effects(&mut manager, mode)?),
    };
    let ids: Vec<SoundId> = match &mut sfx {
        Some(sfx) => ["explosion", "gunshot", "footstep"]
            .iter()
            .zip(data.iter().zip(settings))
            .map(|(name, (sound, settings))| sfx.add_sound(name, sound.clone(), settings))
            .collect::<Result<_, _>>()?,
        None => Vec::new(),
    };
    let (mut plays, mut played) = (0, 0);
    let mut samples = Vec::new();
    let started = Instant::now();
    for events in script() {
        for e in events {
            plays += 1;
            let ok = match &mut sfx {
                Some(sfx) => {
                    let params = PlayParams::default()
                        .volume(e.volume)
                        .playback_rate(e.rate)
                        .panning(e.panning);
                    sfx.play(ids[e.sound], params).is_ok()
                }
                None => manager
                    .play(
                        data[e.sound]
                            .volume(Decibels(20.0 * e.volume.log10() as f32))
                            .playback_rate(PlaybackRate(e.rate))
                            .panning(Panning(e.panning)),
                    )
                    .is_ok(),
            };
            played += usize::from(ok);
        }
        if let Some(sfx) = &mut sfx {
            sfx.update(FRAME)?;
        }
        samples.extend_from_slice(manager.backend_mut().render(FRAME)?.samples());
    }
    let render_ms = started.elapsed().as_secs_f64() * 1e3;
    let (limiter_db, limiter_active) = limiter_readings(sfx.as_ref());
    Ok(Case {
        mode,
        sound: "battle",
        n: plays,
        played,
        peak: reading.peak(),
        clipped: reading.clipped_fraction(),
        render_ms,
        limiter_db,
        limiter_active,
        audio: Rendered::from_samples(RATE, samples),
    })
}

/// A small deterministic generator, so every mode hears the same battle.
struct Lcg(u64);

impl Lcg {
    fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    fn noise(&mut self) -> f32 {
        (self.unit() * 2.0 - 1.0) as f32
    }
}

fn sound(rate: u32, frames: Vec<Frame>) -> StaticSoundData {
    StaticSoundData {
        sample_rate: rate,
        frames: Arc::<[Frame]>::from(frames),
        settings: Default::default(),
        slice: None,
    }
}

/// One second of a full-scale 440 Hz sine.
fn sine() -> StaticSoundData {
    sound(
        RATE,
        (0..RATE)
            .map(|i| {
                let s = (i as f32 / RATE as f32 * 440.0 * std::f32::consts::TAU).sin();
                Frame { left: s, right: s }
            })
            .collect(),
    )
}

/// `seconds` of a synthesized sound at `rate`: `sample(t, noise)` gives the left
/// channel at time `t`, the right one is `right` times it. Seeded noise, so every
/// copy is in phase with every other, as when one sample is triggered many times.
fn synth(
    rate: u32,
    seconds: f32,
    seed: u64,
    right: f32,
    mut sample: impl FnMut(f32, f32) -> f32,
) -> StaticSoundData {
    let mut rng = Lcg(seed);
    let frames = (rate as f32 * seconds) as u32;
    sound(
        rate,
        (0..frames)
            .map(|i| {
                let s = sample(i as f32 / rate as f32, rng.noise());
                Frame {
                    left: s,
                    right: right * s,
                }
            })
            .collect(),
    )
}

fn decaying_sine(t: f32, frequency: f32, decay: f32) -> f32 {
    (t * frequency * std::f32::consts::TAU).sin() * (-t / decay).exp()
}

/// An explosion: a low thump and a noise burst, both decaying, one second, peaking
/// near full scale.
fn explosion(rate: u32) -> StaticSoundData {
    synth(rate, 1.0, 0x0b00, 1.0, |t, noise| {
        (0.55 * decaying_sine(t, 55.0, 0.25) + 0.45 * noise * (-t / 0.12).exp())
            * (1.0 - (-t / 0.002).exp())
    })
}

/// A gunshot: a sharp crack of noise and a short body, 150 ms, near full scale.
fn gunshot(rate: u32) -> StaticSoundData {
    synth(rate, 0.15, 0x6a6, 0.9, |t, noise| {
        0.7 * noise * (-t / 0.015).exp() + 0.3 * decaying_sine(t, 180.0, 0.04)
    })
}

/// A footstep: a soft thud and a scuff, 90 ms, at half scale.
fn footstep(rate: u32) -> StaticSoundData {
    synth(rate, 0.09, 0xf007, 1.0, |t, noise| {
        0.5 * (0.7 * decaying_sine(t, 90.0, 0.02) + 0.3 * noise * (-t / 0.03).exp())
    })
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

const BACKGROUND: image::Rgb<u8> = image::Rgb([250, 250, 247]);

/// Draws the left channel of `samples` (interleaved stereo, `frames` of it from
/// the start) into a panel at `(x0, y0)`, with full scale (red) and -1 dBFS (green)
/// marked. Columns are joined to the previous one, so steep edges (a clipped
/// square wave) are drawn, not just dots on the rails.
fn panel(
    img: &mut image::RgbImage,
    (x0, y0, w, h): (u32, u32, u32, u32),
    samples: &[f32],
    frames: usize,
    color: [u8; 3],
) {
    let mid = y0 + h / 2;
    let scale = (h / 2 - 8) as f32;
    for x in 0..w {
        for (level, mark) in [
            (1.0f32, [200, 60, 60]),
            (10f32.powf(-1.0 / 20.0), [90, 150, 90]),
        ] {
            for sign in [-1.0, 1.0] {
                let y = (mid as f32 - sign * level * scale) as u32;
                if x % 6 < 3 {
                    img.put_pixel(x0 + x, y, image::Rgb(mark));
                }
            }
        }
        img.put_pixel(x0 + x, mid, image::Rgb([200, 200, 200]));
    }
    let frames = frames.min(samples.len() / 2);
    let to_y = |s: f32| (mid as f32 - s * scale).clamp(y0 as f32, (y0 + h - 1) as f32) as u32;
    let mut previous = samples.first().copied().unwrap_or(0.0);
    for x in 0..w {
        let start = x as usize * frames / w as usize;
        let end = ((x as usize + 1) * frames / w as usize)
            .max(start + 1)
            .min(frames);
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

fn mode_color(mode: Mode) -> [u8; 3] {
    match mode {
        Mode::Naive => [170, 40, 40],
        Mode::Attenuated => [200, 120, 20],
        Mode::Pooled => [30, 70, 150],
    }
}

/// Four panels for the storm at `n` copies: rows sine and explosion, columns plain
/// kira and pooled; the sine shows 10 ms, the explosion 400 ms.
fn draw_storm(cases: &[Case], n: usize) -> image::RgbImage {
    let (w, h) = (480u32, 200u32);
    let mut img = image::RgbImage::from_pixel(w * 2 + 30, h * 2 + 30, BACKGROUND);
    for (row, (sound, window)) in [("sine", 0.010), ("explosion", 0.400)].iter().enumerate() {
        for (col, mode) in [Mode::Naive, Mode::Pooled].iter().enumerate() {
            if let Some(case) = cases
                .iter()
                .find(|c| c.sound == *sound && c.mode == *mode && c.n == n)
            {
                let at = (10 + col as u32 * (w + 10), 10 + row as u32 * (h + 10), w, h);
                let frames = (window * f64::from(RATE)) as usize;
                panel(
                    &mut img,
                    at,
                    case.audio.samples(),
                    frames,
                    mode_color(*mode),
                );
            }
        }
    }
    img
}

/// Three panels, one per mode, the whole battle after the clamp.
fn draw_battle(battles: &[Case]) -> image::RgbImage {
    let (w, h) = (960u32, 160u32);
    let mut img = image::RgbImage::from_pixel(w + 20, (h + 10) * 3 + 10, BACKGROUND);
    for (row, case) in battles.iter().enumerate() {
        let at = (10, 10 + row as u32 * (h + 10), w, h);
        let frames = case.audio.frames();
        panel(
            &mut img,
            at,
            case.audio.samples(),
            frames,
            mode_color(case.mode),
        );
    }
    img
}

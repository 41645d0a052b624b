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
    OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundId, SoundSettings,
    dsp::MeterBuilder, dsp::MeterHandle, offline::OfflineSettings, offline::Rendered,
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
    draw_storm(&cases, 100, &storm_picture)?;
    let battle_picture = out.join("battle.png");
    draw_battle(&battles, &battle_picture)?;
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
        (l.take_max_gain_reduction().0, l.active_fraction())
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
            SoundSettings::default()
                .max_voices(10)
                .first_volume(-13.9794),
        )?;
        for _ in 0..n {
            let _ = effects.play(id, PlayParams::default());
        }
        effects.sound_info(id).copies_playing()
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
        SoundSettings::default().max_voices(4).first_volume(-3.098),
        SoundSettings::default().max_voices(4).first_volume(-4.437),
        SoundSettings::default().max_voices(3).first_volume(-6.0206),
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
                        .volume(Decibels((20.0 * e.volume.log10()) as f32))
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

/// -1 dBFS, the ceiling, as an amplitude.
const CEILING: f64 = 0.891_250_938;
/// The limiter's look-ahead, in frames: the pooled mix starts this much later.
const LOOK_AHEAD_FRAMES: usize = 72;

fn mode_color(mode: Mode) -> figures::plotters::style::RGBColor {
    match mode {
        Mode::Naive => figures::RED,
        Mode::Attenuated => figures::ORANGE,
        Mode::Pooled => figures::BLUE,
    }
}

fn mode_label(mode: Mode) -> &'static str {
    match mode {
        Mode::Naive => "plain kira",
        Mode::Attenuated => "pool-audio, copy budget alone (limiter off)",
        Mode::Pooled => "pool-audio (copy budget and limiter)",
    }
}

/// The left channel of `audio` from `from` for `frames` frames, as (ms, amplitude).
fn waveform(audio: &Rendered, from: usize, frames: usize) -> Vec<(f64, f64)> {
    let samples = audio.samples();
    (from..(from + frames).min(samples.len() / 2))
        .map(|f| {
            (
                (f - from) as f64 * 1000.0 / f64::from(RATE),
                f64::from(samples[2 * f]),
            )
        })
        .collect()
}

/// Dashed lines at full scale and at the ceiling, both signs, over `ms`.
fn limits(ms: f64) -> [Vec<(f64, f64)>; 4] {
    [1.0, -1.0, CEILING, -CEILING].map(|level| vec![(0.0, level), (ms, level)])
}

/// Four panels for the storm at `n` copies: rows sine and explosion, columns plain
/// kira and pooled; the sine shows 10 ms, the explosion 400 ms.
fn draw_storm(cases: &[Case], n: usize, path: &std::path::Path) -> Result<(), Box<dyn Error>> {
    figures::png(path, (1200, 760), |area| {
        let body = figures::titled(
            area,
            &format!("{n} copies of one sound started in the same frame"),
            "What the player hears: the left channel after kira's output clamp. Plain kira sums every copy at full volume and the clamp squares it off;\n\
             pool-audio plays 10 copies on one budget, under the -1 dBFS ceiling. Its trace starts 1.5 ms later: the limiter's look-ahead (72 frames).",
            90,
        )?;
        figures::legend_row(
            area,
            (14, 66),
            &[
                ("plain kira", mode_color(Mode::Naive), false),
                ("pool-audio", mode_color(Mode::Pooled), false),
                (
                    "full scale: kira's clamp cuts beyond it",
                    figures::RED,
                    true,
                ),
                ("-1 dBFS: the ceiling", figures::GREEN, true),
            ],
        )?;
        let panels = body.split_evenly((2, 2));
        let mut panel = panels.iter();
        for (sound, window) in [("sine", 0.010), ("explosion", 0.400)] {
            for mode in [Mode::Naive, Mode::Pooled] {
                let Some(at) = panel.next() else { break };
                let Some(case) = cases
                    .iter()
                    .find(|c| c.sound == sound && c.mode == mode && c.n == n)
                else {
                    continue;
                };
                let ms = window * 1000.0;
                let trace = waveform(&case.audio, 0, (window * f64::from(RATE)) as usize);
                let [full_up, full_down, ceiling_up, ceiling_down] = limits(ms);
                let title = format!(
                    "{}: a 440 Hz {sound}, peak {:.2} before the clamp",
                    mode_label(mode),
                    case.peak
                );
                let title = if sound == "explosion" {
                    title.replace("a 440 Hz ", "an ")
                } else {
                    title
                };
                let mut chart = figures::LineChart::new(
                    &title,
                    ("time (ms)", 0.0..ms),
                    ("amplitude (full scale = 1)", -1.15..1.15),
                )
                .line(figures::Line::new("", mode_color(mode), &trace))
                .line(figures::Line::new("", figures::RED, &full_up).dashed())
                .line(figures::Line::new("", figures::RED, &full_down).dashed())
                .line(figures::Line::new("", figures::GREEN, &ceiling_up).dashed())
                .line(figures::Line::new("", figures::GREEN, &ceiling_down).dashed())
                .no_legend();
                if mode == Mode::Pooled && sound == "sine" {
                    chart = chart
                        .note((0.08, 0.3), "silent 1.5 ms:", figures::MUTED)
                        .note((0.08, 0.18), "the look-ahead", figures::MUTED);
                }
                chart.draw(at)?;
            }
        }
        Ok(())
    })
}

/// The battle: the loudest sample of every 20 ms for the three mixes, in dBFS,
/// and a close-up of the loudest moment of the copy budget alone.
fn draw_battle(battles: &[Case], path: &std::path::Path) -> Result<(), Box<dyn Error>> {
    let block = (RATE / 50) as usize;
    let envelope = |audio: &Rendered| -> Vec<(f64, f64)> {
        audio
            .samples()
            .chunks(2 * block)
            .enumerate()
            .map(|(i, chunk)| {
                let peak = chunk.iter().fold(0.0f32, |m, s| m.max(s.abs())).max(1e-6);
                (i as f64 * 0.02, 20.0 * f64::from(peak).log10())
            })
            .collect()
    };
    let naive = battles.iter().find(|c| c.mode == Mode::Naive);
    let caption = format!(
        "Top: the loudest sample of every 20 ms, after kira's clamp. Plain kira sits at full scale (clipped {:.1}% of samples). The copy budget keeps each\n\
         sound's stack under -1 dBFS, but different sounds add up and reach {:+.2} dBFS; the limiter, last on the track, holds the whole mix at -1 dBFS.",
        naive.map_or(0.0, |c| c.clipped * 100.0),
        battles
            .iter()
            .find(|c| c.mode == Mode::Attenuated)
            .map_or(0.0, |c| 20.0 * f64::from(c.peak).log10()),
    );
    let curves: Vec<(Mode, Vec<(f64, f64)>)> = battles
        .iter()
        .map(|c| (c.mode, envelope(&c.audio)))
        .collect();
    let seconds = BATTLE_SECONDS;
    let full = [(0.0, 0.0), (seconds, 0.0)];
    let ceiling = [(0.0, -1.0), (seconds, -1.0)];
    // The loudest frame of the copy budget alone, and the same moment of the
    // full chain (later by the look-ahead).
    let attenuated = battles.iter().find(|c| c.mode == Mode::Attenuated);
    let pooled = battles.iter().find(|c| c.mode == Mode::Pooled);
    figures::png(path, (1200, 820), |area| {
        let area = figures::titled(
            area,
            "A 4-second battle: explosions, gunshots and footsteps, panned and pitched, played every frame",
            &caption,
            64,
        )?;
        let (top, bottom) = area.split_vertically(440);
        let mut chart = figures::LineChart::new(
            "Loudest sample per 20 ms",
            ("time (s)", 0.0..seconds),
            ("peak (dBFS)", -14.0..1.0),
        )
        .legend_lower_right();
        for (mode, curve) in &curves {
            chart = chart.line(figures::Line::new(
                mode_label(*mode),
                mode_color(*mode),
                curve,
            ));
        }
        chart
            .line(figures::Line::new("full scale (0 dBFS)", figures::RED, &full).dashed())
            .line(figures::Line::new("ceiling (-1 dBFS)", figures::GREEN, &ceiling).dashed())
            .draw(&top)?;
        if let (Some(attenuated), Some(pooled)) = (attenuated, pooled) {
            let samples = attenuated.audio.samples();
            let loudest = (0..samples.len() / 2)
                .max_by(|a, b| samples[2 * a].abs().total_cmp(&samples[2 * b].abs()))
                .unwrap_or(0);
            let window = (RATE / 100) as usize; // 10 ms
            let from = loudest.saturating_sub(window / 2);
            let budget = waveform(&attenuated.audio, from, window);
            let limited = waveform(&pooled.audio, from + LOOK_AHEAD_FRAMES, window);
            let [_, _, ceiling_up, ceiling_down] = limits(10.0);
            figures::LineChart::new(
                &format!(
                    "Close-up: 10 ms around the loudest moment ({:.2} s), the limiter's output aligned for its look-ahead",
                    loudest as f64 / f64::from(RATE)
                ),
                ("time (ms)", 0.0..10.0),
                ("amplitude (left)", -1.05..1.05),
            )
            .line(figures::Line::new(mode_label(Mode::Attenuated), figures::ORANGE, &budget).width(2))
            .line(figures::Line::new(mode_label(Mode::Pooled), figures::BLUE, &limited).width(2))
            .line(figures::Line::new("-1 dBFS ceiling", figures::GREEN, &ceiling_up).dashed())
            .line(figures::Line::new("", figures::GREEN, &ceiling_down).dashed())
            .legend_lower_right()
            .draw(&bottom)?;
        }
        if naive.is_none() {
            return Err("no plain-kira battle to draw".into());
        }
        Ok(())
    })
}

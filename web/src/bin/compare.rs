//! Compares what the browser played with the offline render of the same calls.
//!
//! `compare PLAYED.f32 REPLAY.wav`: PLAYED is the page's recording (interleaved
//! stereo `f32`, little-endian, as `PoolAudioOutput.recorded()` gives it),
//! REPLAY the page's capture replayed natively (`showcase replay`). Prints the
//! largest sample difference, the level of each second and the power of each
//! octave band of both, and exits with 1 when the level of the whole or an
//! octave band differs by more than 0.5 dB. (The two are the same calls, not
//! the same samples: wasm's math functions round some results differently in
//! the last bit, and a voice that ends an update later changes which voices
//! are real after it; seconds can differ by more than the whole.)

use std::error::Error;

use rustfft::{FftPlanner, num_complex::Complex};

/// The most a level or a band may differ, dB.
const TOLERANCE_DB: f64 = 0.5;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [played, replay] = args.as_slice() else {
        return Err("usage: compare PLAYED.f32 REPLAY.wav".into());
    };
    let bytes = std::fs::read(played)?;
    let played: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let mut wav = hound::WavReader::open(replay)?;
    let rate = wav.spec().sample_rate as usize;
    let replay: Vec<f32> = wav.samples::<f32>().collect::<Result<_, _>>()?;
    let samples = played.len().min(replay.len()) / 2 * 2;
    if samples < 2 * rate {
        return Err(format!("{} frames to compare: under a second", samples / 2).into());
    }
    let (played, replay) = (&played[..samples], &replay[..samples]);
    let largest = played
        .iter()
        .zip(replay)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    println!(
        "{:.1} s compared at {rate} Hz; largest sample difference {largest:e}",
        samples as f64 / 2.0 / rate as f64
    );
    for threshold in [0.0, 1e-6, 1e-3] {
        let first = played
            .iter()
            .zip(replay)
            .position(|(a, b)| (a - b).abs() > threshold);
        match first {
            Some(at) => println!(
                "first difference over {threshold:e}: {:.4} s",
                (at / 2) as f64 / rate as f64
            ),
            None => println!("no difference over {threshold:e}"),
        }
    }
    let seconds = worst_level(played, replay, rate);
    let whole = worst_level(played, replay, samples / 2);
    let bands = worst_band(played, replay, rate);
    println!(
        "difference: {whole:.3} dB in the level of the whole, {bands:.3} dB at most in an octave \
         band, {seconds:.3} dB at most in a second's level"
    );
    if whole > TOLERANCE_DB || bands > TOLERANCE_DB {
        return Err(format!("over {TOLERANCE_DB} dB").into());
    }
    println!("within {TOLERANCE_DB} dB");
    Ok(())
}

fn db(power: f64) -> f64 {
    10.0 * power.max(1e-20).log10()
}

/// The largest difference between the two's level in any piece of `frames`,
/// dB (pieces quieter than -80 dBFS in both are skipped).
fn worst_level(a: &[f32], b: &[f32], frames: usize) -> f64 {
    let power = |s: &[f32]| s.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>() / s.len() as f64;
    let mut worst = 0.0f64;
    for (piece, (a, b)) in a.chunks(2 * frames).zip(b.chunks(2 * frames)).enumerate() {
        let (pa, pb) = (db(power(a)), db(power(b)));
        println!(
            "{frames} frames from frame {:>7}: {pa:7.2} dB played, {pb:7.2} dB offline",
            piece * frames
        );
        if pa > -80.0 || pb > -80.0 {
            worst = worst.max((pa - pb).abs());
        }
    }
    worst
}

/// The largest difference between the two's power in an octave band from
/// 31.5 Hz to 16 kHz (Welch's spectrum of the left and right summed), dB.
fn worst_band(a: &[f32], b: &[f32], rate: usize) -> f64 {
    let (sa, sb) = (spectrum(a), spectrum(b));
    let hz = rate as f64 / 4096.0;
    let mut worst = 0.0f64;
    let mut centre = 31.25f64;
    while centre <= 16_000.0 {
        let range = (centre / 2f64.sqrt() / hz) as usize..(centre * 2f64.sqrt() / hz) as usize;
        let (pa, pb) = (
            db(sa[range.clone()].iter().sum()),
            db(sb[range].iter().sum()),
        );
        println!("{centre:>7.0} Hz: {pa:7.2} dB played, {pb:7.2} dB offline");
        worst = worst.max((pa - pb).abs());
        centre *= 2.0;
    }
    worst
}

/// Welch's power spectrum of the left and right summed: Hann windows of 4,096
/// frames, half overlapping, averaged.
fn spectrum(samples: &[f32]) -> Vec<f64> {
    const N: usize = 4096;
    let fft = FftPlanner::<f64>::new().plan_fft_forward(N);
    let mono: Vec<f64> = samples
        .chunks_exact(2)
        .map(|f| f64::from(f[0] + f[1]))
        .collect();
    let window: Vec<f64> = (0..N)
        .map(|i| 0.5 - 0.5 * (std::f64::consts::TAU * i as f64 / N as f64).cos())
        .collect();
    let mut power = vec![0.0; N / 2];
    let mut buffer = vec![Complex::new(0.0, 0.0); N];
    let mut at = 0;
    while at + N <= mono.len() {
        for ((c, s), w) in buffer.iter_mut().zip(&mono[at..at + N]).zip(&window) {
            *c = Complex::new(s * w, 0.0);
        }
        fft.process(&mut buffer);
        for (p, c) in power.iter_mut().zip(&buffer) {
            *p += c.norm_sqr();
        }
        at += N / 2;
    }
    power
}

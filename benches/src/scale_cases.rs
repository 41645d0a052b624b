//! Scale: how many real voices each peer mixes within a tenth of one core,
//! and what the voice bank holds in memory per voice and per second of sound.
//!
//! Each peer's mixing scene ([`PeerMix::scene`]: looping voices of a 440 Hz
//! sine, one second of 48 kHz stereo audio a cycle) is measured at
//! [`SCALE_FEW`] and [`SCALE_MANY`] voices; the cost per voice is the slope
//! between the two, the rest the scene's fixed cost, and the voices within
//! [`SCALE_BUDGET`] of a core follow from the line. Sounds of one channel
//! (heard in both) and of two; every voice at rate 1, or each at its own rate
//! from 0.8 to 1.37 (read through the peer's interpolator).

use pool_audio::{SoundEffects, SoundEffectsSettings, SoundSettings};

use crate::Workload;
use crate::peer_cases::{MIX_VOICES, PeerMix, mix_rate, sine};

/// The fewer voices measured.
pub const SCALE_FEW: usize = 16;
/// The more voices measured.
pub const SCALE_MANY: usize = 128;
/// The share of one core the table fills: a tenth.
pub const SCALE_BUDGET: f64 = 0.1;

/// The scenes of the table: `(channels, pitched)`.
pub const SCALE_SCENES: [(usize, bool); 4] = [(1, false), (1, true), (2, false), (2, true)];

/// The case `scale_{peer}_{mono|stereo}_{unit|pitched}` at `voices` voices.
pub fn scale_case_name(peer: &str, channels: usize, pitched: bool) -> String {
    let channels = if channels == 1 { "mono" } else { "stereo" };
    let rate = if pitched { "pitched" } else { "unit" };
    format!("scale_{peer}_{channels}_{rate}")
}

/// Case `scale_{peer}_{mono|stereo}_{unit|pitched}` with `voices` voices.
pub fn scale_case(name: &str, voices: usize) -> Option<Box<dyn Workload>> {
    let rest = name.strip_prefix("scale_")?;
    let (peer, rest) = rest.split_once('_')?;
    let (channels, rate) = rest.split_once('_')?;
    let channels = match channels {
        "mono" => vec![sine(0.5)],
        "stereo" => vec![sine(0.5), sine(0.3)],
        _ => return None,
    };
    let rates: Vec<f64> = match rate {
        "unit" => vec![1.0; voices.max(1)],
        "pitched" => (0..voices.max(1))
            .map(|i| mix_rate(i % MIX_VOICES))
            .collect(),
        _ => return None,
    };
    PeerMix::scene(peer, channels, &rates).map(|case| Box::new(case) as Box<dyn Workload>)
}

/// The voices within [`SCALE_BUDGET`] of a core, from a scene's cost (ns per
/// second of audio) at [`SCALE_FEW`] and [`SCALE_MANY`] voices, and the cost
/// of one voice (ns per second of audio).
pub fn voices_within_budget(few_ns: f64, many_ns: f64) -> (f64, f64) {
    let per_voice = (many_ns - few_ns) / (SCALE_MANY - SCALE_FEW) as f64;
    let fixed = few_ns - per_voice * SCALE_FEW as f64;
    let budget = SCALE_BUDGET * 1e9;
    ((budget - fixed) / per_voice, per_voice)
}

/// What the voice bank holds on the heap, measured by the counting allocator.
#[derive(Debug, Clone, Copy)]
pub struct BankMemory {
    /// Bytes per voice of the cap: the game side's record and slot, and the
    /// mixer's two slots (a voice and one on its way out).
    pub per_voice: f64,
    /// Bytes per second of a sound of one channel, added to the bank.
    pub mono_second: f64,
    /// Bytes per second of a sound of two channels, added to the bank.
    pub stereo_second: f64,
}

/// The heap bytes `f` leaves held on this thread (0 without the counting
/// allocator).
fn kept<T>(f: impl FnOnce() -> T) -> (T, i64) {
    let before = alloc_counter::thread_live_bytes();
    let kept = f();
    (kept, alloc_counter::thread_live_bytes() - before)
}

/// Measures [`BankMemory`]: sound effects with voice caps of 64 and 128, and
/// ten seconds of sound of one channel and of two added to them.
pub fn bank_memory() -> BankMemory {
    let sound_effects = |voice_cap: usize| {
        kept(|| {
            let mut manager = crate::audio_cases::manager();
            let settings = SoundEffectsSettings {
                voice_cap,
                ..Default::default()
            };
            let sfx = SoundEffects::new(&mut manager, settings).expect("valid settings");
            (manager, sfx)
        })
    };
    let (_small, small) = sound_effects(64);
    let (mut big, large) = sound_effects(128);
    let seconds = 10;
    let mut added = |channels: Vec<Vec<f32>>, name: &str| {
        let channels: Vec<Vec<f32>> = channels
            .into_iter()
            .map(|channel| channel.repeat(seconds))
            .collect();
        let (_, bytes) = kept(|| {
            let data = crate::peer_cases::kira_channels(&channels);
            big.1
                .add_sound(name, data, SoundSettings::default())
                .expect("a valid sound")
        });
        bytes as f64 / seconds as f64
    };
    let mono_second = added(vec![sine(0.5)], "mono");
    let stereo_second = added(vec![sine(0.5), sine(0.3)], "stereo");
    BankMemory {
        per_voice: (large - small) as f64 / 64.0,
        mono_second,
        stereo_second,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The RMS of each channel of interleaved stereo.
    fn rms(samples: &[f32]) -> [f64; 2] {
        [0, 1].map(|c| {
            let sum: f64 = samples
                .iter()
                .skip(c)
                .step_by(2)
                .map(|s| f64::from(*s).powi(2))
                .sum();
            (sum / (samples.len() / 2) as f64).sqrt()
        })
    }

    #[test]
    fn every_peer_mixes_each_scene_at_the_same_level() {
        for (channels, pitched) in SCALE_SCENES {
            let levels: Vec<[f64; 2]> = ["bank", "kira", "firewheel"]
                .iter()
                .map(|peer| {
                    let name = scale_case_name(peer, channels, pitched);
                    let rates: Vec<f64> = (0..8)
                        .map(|i| if pitched { mix_rate(i) } else { 1.0 })
                        .collect();
                    assert!(scale_case(&name, 8).is_some(), "{name}");
                    let sound = match channels {
                        1 => vec![sine(0.5)],
                        _ => vec![sine(0.5), sine(0.3)],
                    };
                    let mut mix = PeerMix::scene(peer, sound, &rates).expect("a peer");
                    mix.cycle();
                    rms(mix.rendered())
                })
                .collect();
            let scene = scale_case_name("", channels, pitched);
            for [left, right] in &levels {
                let balance = if channels == 1 { 1.0 } else { 0.6 };
                assert!(
                    (right / left - balance).abs() < 0.02,
                    "{scene}: {left} {right}"
                );
                assert!(
                    (left / levels[2][0] - 1.0).abs() < 0.03,
                    "{scene}: {levels:?}"
                );
            }
        }
    }

    #[test]
    fn the_voices_within_the_budget_follow_the_line() {
        // 1 ms fixed and 10 µs a voice: 16 voices cost 1.16 ms, 128 cost 2.28 ms.
        let (voices, per_voice) = voices_within_budget(1.16e6, 2.28e6);
        assert!((per_voice - 1e4).abs() < 1e-6, "{per_voice}");
        assert!((voices - 9_900.0).abs() < 1e-6, "{voices}");
    }
}

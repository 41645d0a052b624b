//! Helpers shared by the modules of the `audio` test binary (and by the
//! standalone `music` and `no_alloc` binaries, which take in this file too).

use std::sync::Arc;

use kira::Frame;
use kira::sound::static_sound::StaticSoundData;
use kira::track::MainTrackBuilder;
use kira::{AudioManager, AudioManagerSettings};
use pool_audio::{
    OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, dsp::MeterBuilder,
    dsp::MeterHandle, offline::OfflineSettings,
};

/// The offline sample rate the tests render at.
pub(crate) const RATE: u32 = 48_000;

/// A game frame at 60 frames a second, in seconds.
pub(crate) const FRAME: f64 = 1.0 / 60.0;

/// The game's frame and the offline mixer's block, in seconds, where a test
/// updates and renders in 10 ms steps.
pub(crate) const BLOCK: f64 = 0.01;

/// -1 dBFS, the default headroom and ceiling, as a gain.
pub(crate) const HEADROOM: f32 = 0.891_250_9;

/// A full-scale sine of `frequency` Hz lasting `seconds`.
pub(crate) fn sine(frequency: f32, seconds: f32) -> StaticSoundData {
    mono(
        (0..(seconds * RATE as f32) as usize)
            .map(|i| (i as f32 / RATE as f32 * frequency * std::f32::consts::TAU).sin()),
    )
}

/// A sine of `frequency` Hz at amplitude `level`, lasting `seconds`: a sound
/// quiet enough that its budget keeps many copies (at 0.1, 17 copies at the
/// default first volume fit in -1 dBFS).
pub(crate) fn sine_at(level: f32, frequency: f32, seconds: f32) -> StaticSoundData {
    mono(
        (0..(seconds * RATE as f32) as usize)
            .map(|i| level * (i as f32 / RATE as f32 * frequency * std::f32::consts::TAU).sin()),
    )
}

/// `seconds` of a constant (DC) level at [`RATE`]: every sample of its render
/// is its gain.
pub(crate) fn constant(level: f32, seconds: f64) -> StaticSoundData {
    mono(std::iter::repeat_n(
        level,
        (seconds * f64::from(RATE)) as usize,
    ))
}

/// A mono sound at [`RATE`] made of `samples`.
pub(crate) fn mono(samples: impl Iterator<Item = f32>) -> StaticSoundData {
    mono_at(RATE, samples)
}

/// A mono sound at `rate` made of `samples`.
pub(crate) fn mono_at(rate: u32, samples: impl Iterator<Item = f32>) -> StaticSoundData {
    let frames: Arc<[Frame]> = samples.map(Frame::from_mono).collect();
    StaticSoundData {
        sample_rate: rate,
        frames,
        settings: Default::default(),
        slice: None,
    }
}

/// One full-scale sample, then 0.3 s of silence: the output shows where a copy
/// starts.
pub(crate) fn click() -> StaticSoundData {
    mono((0..14_400).map(|i| if i == 0 { 1.0 } else { 0.0 }))
}

/// Play parameters at `x` m along the x axis.
pub(crate) fn at(x: f32) -> PlayParams {
    PlayParams::default().position([x, 0.0, 0.0])
}

/// A manager rendering offline at `rate`, a pre-clamp meter last on its main
/// track, and sound effects with `settings` on it.
pub(crate) fn metered(
    rate: u32,
    settings: SoundEffectsSettings,
) -> (AudioManager<OfflineBackend>, SoundEffects, MeterHandle) {
    let meter = MeterBuilder::new();
    let reading = meter.handle();
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings {
        main_track_builder: MainTrackBuilder::new().with_effect(meter),
        backend_settings: OfflineSettings { sample_rate: rate },
        ..Default::default()
    })
    .unwrap();
    let sfx = SoundEffects::new(&mut manager, settings).unwrap();
    (manager, sfx, reading)
}

/// A loop of `frames` frames rising from -0.5 to 0.5: its output says where its
/// playhead is.
pub(crate) fn ramp(frames: usize) -> StaticSoundData {
    mono((0..frames).map(|i| i as f32 / frames as f32 - 0.5)).loop_region(..)
}

/// The left channel of the next `seconds` `manager` renders.
pub(crate) fn render_left(manager: &mut AudioManager<OfflineBackend>, seconds: f64) -> Vec<f32> {
    let audio = manager.backend_mut().render(seconds).unwrap();
    audio.samples().iter().step_by(2).copied().collect()
}

/// Random cases per property: `PROPTEST_CASES` if set, else `default`.
pub(crate) fn proptest_cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(default)
}

/// The frequency of a steady tone in `samples` (one channel) at `rate`, from
/// its rising zero crossings, each placed between its two samples.
pub(crate) fn frequency(samples: &[f32], rate: f64) -> f64 {
    let crossings: Vec<f64> = samples
        .windows(2)
        .enumerate()
        .filter(|(_, pair)| pair[0] < 0.0 && pair[1] >= 0.0)
        .map(|(i, pair)| i as f64 + f64::from(pair[0] / (pair[0] - pair[1])))
        .collect();
    assert!(
        crossings.len() > 20,
        "too few crossings: {}",
        crossings.len()
    );
    let span = crossings[crossings.len() - 1] - crossings[0];
    (crossings.len() - 1) as f64 / span * rate
}

/// The largest step between two neighbouring samples.
pub(crate) fn largest_step(samples: &[f32]) -> f32 {
    samples
        .windows(2)
        .map(|pair| (pair[1] - pair[0]).abs())
        .fold(0.0, f32::max)
}

/// The left channel of interleaved stereo `samples`.
pub(crate) fn left(samples: &[f32]) -> Vec<f32> {
    samples.iter().step_by(2).copied().collect()
}

/// How many copies of `sound` settle at or above its audibility floor, worked
/// out again from what the crate says of its budget (a model, not the
/// crate's code): the budget is the headroom (`headroom_db`) over the sound's
/// measured peak; copies settle newest first, each at most its copy volume,
/// all together at most the budget less the room kept for the next onset (a
/// first copy's volume, or what is left beside one when it takes more than
/// half); a copy whose settled level is nothing or under `floor_db` is not
/// kept, nor is any older one.
pub(crate) fn kept_copies(
    sfx: &SoundEffects,
    sound: pool_audio::SoundId,
    headroom_db: f64,
    floor_db: f64,
) -> usize {
    let volumes = sfx.sound_info(sound).copy_volumes().unwrap();
    let peak = f64::from(sfx.sound_info(sound).peak().unwrap().max());
    let total = 10f64.powf(headroom_db / 20.0) / peak;
    let first = volumes.volume(0).min(total);
    let pool = total - first.min(total - first);
    let floor = 10f64.powf(floor_db / 20.0);
    let mut used = 0.0;
    let mut kept = 0;
    for rank in 0..volumes.copies() {
        let settled = volumes.volume(rank).min(pool - used).max(0.0);
        // The mixer works in f32: a level within rounding of the floor counts.
        if settled <= 0.0 || settled < floor * (1.0 - 1e-6) {
            break;
        }
        used += settled;
        kept += 1;
    }
    kept
}

/// A muted bus and a group `"dry"` on it, and a `"wet"` bus: a voice of the
/// group is heard only through what it sends (sends, zones). Returns the
/// group and the wet bus.
pub(crate) fn dry_and_wet(
    sfx: &mut SoundEffects,
) -> (pool_audio::GroupId, pool_audio::mix::TrackId) {
    use pool_audio::mix::BusBuilder;
    let muted = sfx
        .mix_mut()
        .add_bus("muted", BusBuilder::new().volume(-60.0))
        .unwrap();
    let wet = sfx.mix_mut().add_bus("wet", BusBuilder::new()).unwrap();
    let dry = sfx
        .add_group("dry", pool_audio::GroupSettings::default().bus(muted))
        .unwrap();
    (dry, wet)
}

/// A linear amplitude as the decibels the crate's levels are given in
/// (`-inf` for 0).
pub(crate) fn db(amplitude: f64) -> pool_audio::kira::Decibels {
    pool_audio::kira::Decibels((20.0 * amplitude.log10()) as f32)
}

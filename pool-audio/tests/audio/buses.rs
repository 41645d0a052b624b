//! Buses: a group's voices mixed into a bus's effect chain on the frame they
//! would play on the sound-effects track; a low-pass bus measured against its
//! filter's response; bus volumes set by snapshots; the ceiling over a boosted
//! bus; every bad bus a typed error that changes nothing. Measured in the
//! render.

use std::time::Duration;

use kira::effect::eq_filter::{EqFilterBuilder, EqFilterKind};
use kira::effect::filter::FilterBuilder;
use kira::{StartTime, Tween};
use pool_audio::error::AddGroupError;
use pool_audio::mix::{BusBuilder, MAX_VOICE_BUSES, MixError, Snapshot};
use pool_audio::music::{Music, MusicError, MusicSettings, TrackSettings};
use pool_audio::{GroupSettings, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
use rustfft::FftPlanner;
use rustfft::num_complex::Complex;

use super::common::{self, RATE};

/// Sound effects with no limiter, so what the tests measure is linear.
fn unlimited() -> SoundEffectsSettings {
    SoundEffectsSettings {
        limiter: None,
        ..Default::default()
    }
}

/// `seconds` of white noise at `level` (uniform, from a fixed seed).
fn noise(level: f32, seconds: f64) -> kira::sound::static_sound::StaticSoundData {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    common::mono((0..(seconds * f64::from(RATE)) as usize).map(move |_| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        level * ((state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0)
    }))
}

/// Renders `sound` played once with `params`, routed through a bus built by
/// `bus` (or on the sound-effects track for `None`): the left channel of
/// `seconds`.
fn render_through(
    bus: Option<BusBuilder>,
    sound: kira::sound::static_sound::StaticSoundData,
    params: PlayParams,
    seconds: f64,
) -> Vec<f32> {
    let (mut manager, mut sfx, _meter) = common::metered(RATE, unlimited());
    let mut settings = SoundSettings::default().first_volume(0.0);
    if let Some(bus) = bus {
        let bus = sfx.mix_mut().add_bus("bus", bus).unwrap();
        let group = sfx
            .add_group("routed", GroupSettings::default().bus(bus))
            .unwrap();
        settings = settings.group(group);
    }
    let id = sfx.add_sound("sound", sound, settings).unwrap();
    sfx.play(id, params).unwrap();
    sfx.update(0.01).unwrap();
    common::render_left(&mut manager, seconds)
}

/// A bused voice is heard on the frame the same voice is heard on the
/// sound-effects track, sample for sample: the bank mixes a block before the
/// bus reads it, including a first voice that starts in the middle of a block.
#[test]
fn a_bused_voice_plays_on_the_same_frames_as_an_unbused_one() {
    for delay in [0_u64, 1_234, 4_801] {
        let params = PlayParams::default().start_time(StartTime::Delayed(Duration::from_secs_f64(
            delay as f64 / f64::from(RATE),
        )));
        let dry = render_through(None, common::click(), params, 0.2);
        let bused = render_through(Some(BusBuilder::new()), common::click(), params, 0.2);
        let first = |samples: &[f32]| samples.iter().position(|s| s.abs() > 1e-3);
        assert_eq!(first(&dry), Some(delay as usize), "the click's frame");
        assert_eq!(first(&bused), first(&dry), "delay {delay}");
        let most = dry
            .iter()
            .zip(&bused)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f32::max);
        assert!(most < 1e-6, "delay {delay}: renders differ by {most}");
        // Through a silent bus, nothing of the click reaches the output, not
        // even in the block it starts in while it waited.
        let muted = BusBuilder::new().volume(kira::Decibels::SILENCE);
        let muted = render_through(Some(muted), common::click(), params, 0.2);
        assert_eq!(
            first(&muted),
            None,
            "delay {delay}: heard past a silent bus"
        );
    }
}

/// The first bus added while the mix plays is heard in the block it starts
/// in, and from the next block on exactly as the same voice on the
/// sound-effects track (the tracks that hold buses and music play from the
/// first one: until then the mixer skips them).
#[test]
fn a_first_bus_added_while_the_mix_plays_is_heard_at_once() {
    let render = |bused: bool| {
        let (mut manager, mut sfx, _meter) = common::metered(RATE, unlimited());
        let _ = common::render_left(&mut manager, 0.1);
        let mut settings = SoundSettings::default().first_volume(0.0);
        if bused {
            let bus = sfx.mix_mut().add_bus("bus", BusBuilder::new()).unwrap();
            let group = sfx
                .add_group("routed", GroupSettings::default().bus(bus))
                .unwrap();
            settings = settings.group(group);
        }
        let hum = common::constant(0.5, 1.0).loop_region(..);
        let id = sfx.add_sound("hum", hum, settings).unwrap();
        sfx.play(id, PlayParams::default()).unwrap();
        sfx.update(0.01).unwrap();
        common::render_left(&mut manager, 0.05)
    };
    let (dry, bused) = (render(false), render(true));
    let block = 128;
    assert!(
        bused[..block].iter().any(|s| s.abs() > 0.1),
        "heard at once"
    );
    let most = dry[block..]
        .iter()
        .zip(&bused[block..])
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    assert!(
        most < 1e-6,
        "renders differ by {most} after the first block"
    );
}

/// Welch's power spectrum of `samples`: Hann windows of 4,096 frames, half
/// overlapping, averaged.
fn spectrum(samples: &[f32]) -> Vec<f64> {
    const N: usize = 4096;
    let fft = FftPlanner::<f64>::new().plan_fft_forward(N);
    let window: Vec<f64> = (0..N)
        .map(|i| 0.5 - 0.5 * (std::f64::consts::TAU * i as f64 / N as f64).cos())
        .collect();
    let mut power = vec![0.0; N / 2];
    let mut at = 0;
    while at + N <= samples.len() {
        let mut buffer: Vec<Complex<f64>> = samples[at..at + N]
            .iter()
            .zip(&window)
            .map(|(s, w)| Complex::new(f64::from(*s) * w, 0.0))
            .collect();
        fft.process(&mut buffer);
        for (p, c) in power.iter_mut().zip(&buffer) {
            *p += c.norm_sqr();
        }
        at += N / 2;
    }
    power
}

/// kira's low-pass filter at `cutoff` Hz with no resonance (a state-variable
/// filter, bilinear with prewarping): its power gain at `frequency`.
fn low_pass_power(frequency: f64, cutoff: f64) -> f64 {
    let rate = f64::from(RATE);
    let w = (std::f64::consts::PI * frequency / rate).tan()
        / (std::f64::consts::PI * cutoff / rate).tan();
    1.0 / (1.0 + w * w).powi(2)
}

/// White noise through a bus with a low-pass filter: its spectrum over the dry
/// noise's follows the filter's response within 1 dB at five frequencies.
#[test]
fn a_low_pass_bus_shapes_white_noise_as_its_filter_says() {
    let cutoff = 1_000.0;
    let mut bus = BusBuilder::new();
    let _filter = bus.add_effect(FilterBuilder::new().cutoff(cutoff).resonance(0.0));
    let dry = render_through(None, noise(0.3, 3.0), PlayParams::default(), 2.5);
    let wet = render_through(Some(bus), noise(0.3, 3.0), PlayParams::default(), 2.5);
    let (dry, wet) = (spectrum(&dry[4_800..]), spectrum(&wet[4_800..]));
    let bin = f64::from(RATE) / 4096.0;
    for frequency in [250.0, 500.0, 1_000.0, 2_000.0, 4_000.0] {
        // Bins within 10% of the frequency, powers summed.
        let bins = ((frequency * 0.9 / bin).ceil() as usize)..=((frequency * 1.1 / bin) as usize);
        let measured: f64 =
            bins.clone().map(|k| wet[k]).sum::<f64>() / bins.clone().map(|k| dry[k]).sum::<f64>();
        let expected: f64 = bins
            .clone()
            .map(|k| dry[k] * low_pass_power(k as f64 * bin, cutoff))
            .sum::<f64>()
            / bins.map(|k| dry[k]).sum::<f64>();
        let error = 10.0 * (measured / expected).log10();
        println!(
            "{frequency} Hz: measured {:.2} dB, expected {:.2} dB",
            10.0 * measured.log10(),
            10.0 * expected.log10()
        );
        assert!(error.abs() < 1.0, "{frequency} Hz: off by {error:.2} dB");
    }
}

/// The peak of `samples` after `skip` frames.
fn peak(samples: &[f32], skip: usize) -> f32 {
    samples[skip..].iter().fold(0.0, |m, s| m.max(s.abs()))
}

/// A snapshot sets a bus's volume as any track's, and a group's voices on the
/// bus follow it, tweened; the game's own bus fader adds to it.
#[test]
fn snapshots_and_the_fader_set_a_bus_volume() {
    let (mut manager, mut sfx, _meter) = common::metered(RATE, unlimited());
    let world = sfx.mix_mut().add_bus("world", BusBuilder::new()).unwrap();
    let group = sfx
        .add_group("world", GroupSettings::default().bus(world))
        .unwrap();
    let hum = sfx
        .add_sound(
            "hum",
            common::constant(0.5, 4.0),
            SoundSettings::default().first_volume(0.0).group(group),
        )
        .unwrap();
    sfx.play(hum, PlayParams::default()).unwrap();
    sfx.update(0.01).unwrap();
    let before = common::render_left(&mut manager, 0.1);
    let paused = sfx
        .mix_mut()
        .add_snapshot(Snapshot::new("pause").set(world, -20.0))
        .unwrap();
    sfx.mix_mut()
        .apply_snapshot(paused, 1.0, common_fade(0.05))
        .unwrap();
    let during = common::render_left(&mut manager, 0.2);
    sfx.mix_mut()
        .set_bus_volume(world, -6.0, common_fade(0.0))
        .unwrap();
    let faded = common::render_left(&mut manager, 0.1);
    let level = |s: &[f32]| 20.0 * f64::from(*s.last().unwrap()).log10();
    let base = level(&before);
    assert!((level(&during) - base + 20.0).abs() < 0.1, "snapshot");
    assert!(
        (level(&faded) - base + 26.0).abs() < 0.1,
        "fader and snapshot"
    );
    // The snapshot's tween is a fade, not a step.
    assert!(common::largest_step(&during) < 0.02);
}

/// A linear tween of `seconds`.
fn common_fade(seconds: f64) -> Tween {
    pool_audio::linear_fade(Duration::from_secs_f64(seconds))
}

/// An EQ bus that boosts by 12 dB under a storm of loud voices that also
/// send to a reverb return: the output's limiter still holds the whole mix
/// under its ceiling (and without it the same scene goes over).
#[test]
fn the_limiter_holds_a_boosted_bus_under_the_ceiling() {
    let mut peaks = Vec::new();
    for limiter in [None, Some(Default::default())] {
        let (mut manager, mut sfx, meter) = common::metered(
            RATE,
            SoundEffectsSettings {
                limiter,
                ..Default::default()
            },
        );
        let boost = BusBuilder::new().with_effect(EqFilterBuilder::new(
            EqFilterKind::Bell,
            200.0,
            12.0,
            0.7,
        ));
        let bus = sfx.mix_mut().add_bus("boost", boost).unwrap();
        let reverb = kira::effect::reverb::ReverbBuilder::new().mix(kira::Mix::WET);
        let hall = sfx
            .mix_mut()
            .add_bus("hall", BusBuilder::new().with_effect(reverb))
            .unwrap();
        let group = sfx
            .add_group("storm", GroupSettings::default().bus(bus))
            .unwrap();
        let send = pool_audio::mix::SendSettings::new(hall);
        let thud = sfx
            .add_sound(
                "thud",
                common::sine(200.0, 1.0),
                SoundSettings::default()
                    .group(group)
                    .max_voices(8)
                    .send(send),
            )
            .unwrap();
        for _ in 0..32 {
            let _ = sfx.play(thud, PlayParams::default());
        }
        sfx.update(0.01).unwrap();
        common::render_left(&mut manager, 0.5);
        peaks.push(meter.peak());
    }
    println!("peaks: unlimited {:.3}, limited {:.3}", peaks[0], peaks[1]);
    assert!(peaks[0] > 1.5, "the boost must overshoot: {}", peaks[0]);
    assert!(peaks[1] <= common::HEADROOM + 1e-4, "{}", peaks[1]);
}

/// Every bad bus is a typed error, and the manager is left as it was.
#[test]
fn bad_buses_are_refused_and_change_nothing() {
    let (_manager, mut sfx, _meter) = common::metered(RATE, unlimited());
    let (_other_manager, mut other, _) = common::metered(RATE, unlimited());
    let foreign = other.mix_mut().add_bus("far", BusBuilder::new()).unwrap();
    let mut music = Music::new(&mut sfx, MusicSettings::default()).unwrap();
    let music_track = music.track("music").unwrap();
    // A group routed to another manager's bus or to a music track.
    for bus in [foreign, music_track] {
        assert_eq!(
            sfx.add_group("g", GroupSettings::default().bus(bus)),
            Err(AddGroupError::NotBus(bus))
        );
        assert_eq!(sfx.group("g"), None);
        // A bus under it.
        let refused = sfx
            .mix_mut()
            .add_bus("b", BusBuilder::new().parent(bus))
            .unwrap_err();
        assert!(matches!(
            refused,
            MixError::ForeignTrack(_) | MixError::NotBus(_)
        ));
        assert!(sfx.mix().track("b").is_err());
        // A music track on it.
        assert_eq!(
            music.add_track(&mut sfx, TrackSettings::new("m").bus(bus)),
            Err(MusicError::NotBus(bus))
        );
        assert!(sfx.mix().track("m").is_err());
    }
    // Volumes out of range, and NaN.
    for volume in [f32::NAN, 13.0, -61.0] {
        let refused = sfx
            .mix_mut()
            .add_bus("loud", BusBuilder::new().volume(volume))
            .unwrap_err();
        assert!(matches!(refused, MixError::Volume(_)), "{volume}");
    }
    assert!(sfx.mix().track("loud").is_err());
    let bus = sfx.mix_mut().add_bus("ok", BusBuilder::new()).unwrap();
    assert!(matches!(
        sfx.mix_mut()
            .set_bus_volume(bus, f32::NAN, common_fade(0.0)),
        Err(MixError::Volume(_))
    ));
    assert_eq!(
        sfx.mix_mut()
            .set_bus_volume(music_track, -3.0, common_fade(0.0)),
        Err(MixError::NotBus(music_track))
    );
    // A name taken by a music track.
    assert_eq!(
        sfx.mix_mut().add_bus("music", BusBuilder::new()),
        Err(MixError::DuplicateTrack("music".into()))
    );
}

/// Groups reach at most `MAX_VOICE_BUSES` buses; more groups on those buses
/// are fine, a group on one more bus is refused.
#[test]
fn groups_route_to_at_most_max_voice_buses() {
    let (_manager, mut sfx, _meter) = common::metered(RATE, unlimited());
    let buses: Vec<_> = (0..=MAX_VOICE_BUSES)
        .map(|i| {
            sfx.mix_mut()
                .add_bus(&format!("bus {i}"), BusBuilder::new())
                .unwrap()
        })
        .collect();
    for (i, bus) in buses[..MAX_VOICE_BUSES].iter().enumerate() {
        sfx.add_group(&format!("a {i}"), GroupSettings::default().bus(*bus))
            .unwrap();
        sfx.add_group(&format!("b {i}"), GroupSettings::default().bus(*bus))
            .unwrap();
    }
    assert_eq!(
        sfx.add_group(
            "one more",
            GroupSettings::default().bus(buses[MAX_VOICE_BUSES])
        ),
        Err(AddGroupError::TooManyBuses)
    );
    assert_eq!(sfx.group("one more"), None);
}

/// `SoundEffects` with buses is dropped cleanly while its bused voices play.
#[test]
fn dropping_the_manager_with_bused_voices_playing_is_clean() {
    let (mut manager, mut sfx, _meter) = common::metered(RATE, unlimited());
    let bus = sfx.mix_mut().add_bus("bus", BusBuilder::new()).unwrap();
    let group = sfx
        .add_group("g", GroupSettings::default().bus(bus))
        .unwrap();
    let hum = sfx
        .add_sound(
            "hum",
            common::constant(0.5, 4.0),
            SoundSettings::default().group(group),
        )
        .unwrap();
    sfx.play(hum, PlayParams::default()).unwrap();
    sfx.update(0.01).unwrap();
    common::render_left(&mut manager, 0.1);
    drop(sfx);
    let after = common::render_left(&mut manager, 0.1);
    assert!(
        peak(&after, 2_400) < 1e-6,
        "nothing plays once it is dropped"
    );
    let _ = SoundEffects::new(&mut manager, unlimited()).unwrap();
}

/// The amplitude of the `hz` component of `samples` (whole cycles at
/// [`RATE`]).
fn amplitude_at(samples: &[f32], hz: f64) -> f64 {
    let (mut re, mut im) = (0.0, 0.0);
    for (n, s) in samples.iter().enumerate() {
        let phase = hz * std::f64::consts::TAU * n as f64 / f64::from(RATE);
        re += f64::from(*s) * phase.cos();
        im += f64::from(*s) * phase.sin();
    }
    2.0 * re.hypot(im) / samples.len() as f64
}

/// The pause menu: a snapshot that moves a bus's low-pass cutoff (an effect
/// parameter of the mix) and its volume, tweened; half applied, it blends the
/// cutoff halfway; released, the world is open again.
#[test]
fn a_snapshot_moves_an_effect_parameter_and_a_bus_volume() {
    let (mut manager, mut sfx, _meter) = common::metered(RATE, unlimited());
    let mut world = BusBuilder::new();
    let mut filter = world.add_effect(FilterBuilder::new().cutoff(20_000.0).resonance(0.0));
    let world = sfx.mix_mut().add_bus("world", world).unwrap();
    let cutoff = sfx
        .mix_mut()
        .add_param("cutoff", 20_000.0, 20.0..=20_000.0, move |hz, tween| {
            filter.set_cutoff(hz, tween);
        })
        .unwrap();
    assert_eq!(sfx.mix().param("cutoff"), Some(cutoff));
    let group = sfx
        .add_group("world", GroupSettings::default().bus(world))
        .unwrap();
    let tone = sfx
        .add_sound(
            "tone",
            common::sine_at(0.5, 4_000.0, 3.0),
            SoundSettings::default().first_volume(0.0).group(group),
        )
        .unwrap();
    sfx.play(tone, PlayParams::default()).unwrap();
    sfx.update(0.01).unwrap();
    // Windows of 480 frames: 40 whole cycles of 4 kHz.
    let mut window = |seconds: f64| {
        let samples = common::render_left(&mut manager, seconds);
        amplitude_at(&samples[samples.len() - 480..], 4_000.0)
    };
    let open = window(0.1);
    let pause = Snapshot::new("pause")
        .set(world, -6.0)
        .set_param(cutoff, 300.0);
    let pause = sfx.mix_mut().add_snapshot(pause).unwrap();
    sfx.mix_mut()
        .apply_snapshot(pause, 1.0, common_fade(0.1))
        .unwrap();
    let during: Vec<f64> = (0..10).map(|_| window(0.01)).collect();
    let paused = window(0.1);
    // The filter's response at 4 kHz with its cutoff at `hz`, and -6 dB.
    let response = |hz: f64| low_pass_power(4_000.0, hz).sqrt();
    let expected = open * response(300.0) * 10f64.powf(-6.0 / 20.0);
    let db = |a: f64, b: f64| 20.0 * (a / b).log10();
    println!("open {open:.4}, paused {paused:.6} (expected {expected:.6})");
    assert!(
        db(paused, expected).abs() < 0.5,
        "paused: {} dB off",
        db(paused, expected)
    );
    assert!(
        during.windows(2).all(|w| w[1] <= w[0] * 1.001),
        "the tween moves one way: {during:?}"
    );
    assert!(during[2] > paused * 2.0, "a tween, not a step");
    // Half applied: the cutoff halfway (10,150 Hz), the volume -3 dB.
    sfx.mix_mut()
        .apply_snapshot(pause, 0.5, common_fade(0.0))
        .unwrap();
    let half = window(0.1);
    let expected = open * response(10_150.0) * 10f64.powf(-3.0 / 20.0);
    assert!(
        db(half, expected).abs() < 0.2,
        "half: {} dB off",
        db(half, expected)
    );
    // Released: open again.
    sfx.mix_mut()
        .release_snapshot(pause, common_fade(0.05))
        .unwrap();
    let released = window(0.2);
    assert!(
        db(released, open).abs() < 0.1,
        "released: {} dB",
        db(released, open)
    );
}

/// Effect parameters refuse what they cannot hold, and change nothing.
#[test]
fn bad_effect_parameters_are_refused() {
    let (_manager, mut sfx, _meter) = common::metered(RATE, unlimited());
    let (_other_manager, mut other, _) = common::metered(RATE, unlimited());
    let set = |_: f64, _: Tween| {};
    for (default, range) in [
        (5.0, 0.0..=1.0),
        (f64::NAN, 0.0..=1.0),
        (0.5, 0.0..=f64::INFINITY),
    ] {
        assert!(matches!(
            sfx.mix_mut().add_param("p", default, range, set),
            Err(MixError::ParamRange(_))
        ));
    }
    assert_eq!(sfx.mix().param("p"), None);
    let p = sfx.mix_mut().add_param("p", 0.5, 0.0..=1.0, set).unwrap();
    assert_eq!(
        sfx.mix_mut().add_param("p", 0.5, 0.0..=1.0, set),
        Err(MixError::DuplicateParam("p".into()))
    );
    for value in [1.5, f64::NAN] {
        let refused = sfx
            .mix_mut()
            .add_snapshot(Snapshot::new("s").set_param(p, value))
            .unwrap_err();
        assert!(matches!(refused, MixError::ParamValue(_)));
    }
    let foreign = other.mix_mut().add_param("q", 0.5, 0.0..=1.0, set).unwrap();
    assert_eq!(
        sfx.mix_mut()
            .add_snapshot(Snapshot::new("s").set_param(foreign, 0.5)),
        Err(MixError::Unknown)
    );
    assert_eq!(sfx.mix().snapshot("s"), None);
}

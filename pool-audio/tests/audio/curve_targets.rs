//! Game parameters' curves on a sound's low-pass filter and sends and on a
//! bus's volume, measured in the render: a low-pass curve closes the same
//! filter occlusion does (the lowest cutoff wins), a send curve moves what a
//! bus hears of the voice, a bus's curve adds to its fader.

use pool_audio::game::{Curve, CurveTarget, GameParamError, GameParamSettings};
use pool_audio::mix::{BusBuilder, MixError, SendSettings};
use pool_audio::spatial::Muffle;
use pool_audio::{
    GroupSettings, OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings,
    error::AddSoundError, kira::AudioManager, kira::Decibels, kira::Tween,
};

use super::common::{self, RATE};

/// The tone, Hz: well above the cutoffs, so the filter is heard.
const TONE: f32 = 4_000.0;

fn db(x: f32) -> f64 {
    20.0 * f64::from(x).log10()
}

/// The tone's level (its amplitude, dB) over 0.2 s after 0.1 s settling.
fn level(manager: &mut AudioManager<OfflineBackend>, sfx: &mut SoundEffects) -> f64 {
    sfx.update(1.0 / 60.0).unwrap();
    common::render_left(manager, 0.1);
    let heard = common::render_left(manager, 0.2);
    let (mut re, mut im) = (0.0f64, 0.0f64);
    for (n, s) in heard.iter().enumerate() {
        let phase = f64::from(TONE) * std::f64::consts::TAU * n as f64 / f64::from(RATE);
        re += f64::from(*s) * phase.cos();
        im += f64::from(*s) * phase.sin();
    }
    db((2.0 * re.hypot(im) / heard.len() as f64) as f32)
}

/// The tone playing, its sound given `settings` and a `"speed"` parameter
/// (0 to 1, no seek) its curves may follow; the speed set to `speed`, the
/// voice's occlusion to `occlusion`.
fn tone(
    curve: Option<(CurveTarget, [(f64, f64); 2])>,
    occlusion: Option<Muffle>,
) -> (AudioManager<OfflineBackend>, SoundEffects) {
    let (manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let speed = sfx
        .add_game_param("speed", GameParamSettings::new(0.0, 1.0))
        .unwrap();
    let mut settings = SoundSettings::default();
    if let Some((target, points)) = curve {
        settings = settings.curve(Curve::new(speed, target, &points).unwrap());
    }
    if let Some(muffle) = occlusion {
        settings = settings.occlusion(muffle);
    }
    let data = common::sine_at(0.3, TONE, 1.0).loop_region(..);
    let sound = sfx.add_sound("tone", data, settings).unwrap();
    let voice = sfx.play(sound, PlayParams::default()).unwrap();
    if occlusion.is_some() {
        sfx.voice(voice).set_occlusion(1.0).unwrap();
    }
    sfx.set_game_param(speed, 1.0).unwrap();
    (manager, sfx)
}

/// An occlusion that only filters, at `hz`.
fn wall(hz: f64) -> Muffle {
    Muffle {
        volume: Decibels(0.0),
        cutoff_hz: hz,
        ..Muffle::OCCLUSION
    }
}

#[test]
fn a_low_pass_curve_closes_the_filter_occlusion_closes_and_the_lowest_cutoff_wins() {
    let measure = |curve, occlusion| {
        let (mut manager, mut sfx) = tone(curve, occlusion);
        level(&mut manager, &mut sfx)
    };
    let open = measure(None, None);
    let closing = [(0.0, 20_000.0), (1.0, 800.0)];
    let curved = measure(Some((CurveTarget::LowPass, closing)), None);
    let walled = measure(None, Some(wall(800.0)));
    assert!(
        open - curved > 10.0,
        "the filter closes: {open:.2} to {curved:.2} dB"
    );
    assert!(
        (curved - walled).abs() < 0.1,
        "{curved:.2} against {walled:.2} dB"
    );
    // A curve at 2 kHz behind a wall at 800 Hz: the wall's filter is heard.
    let higher = [(0.0, 20_000.0), (1.0, 2_000.0)];
    let both = measure(Some((CurveTarget::LowPass, higher)), Some(wall(800.0)));
    assert!(
        (both - walled).abs() < 0.1,
        "{both:.2} against {walled:.2} dB"
    );
    // At the curve's open end it is the tone as it is.
    let (mut manager, mut sfx) = tone(Some((CurveTarget::LowPass, closing)), None);
    let speed = sfx.game_param("speed").unwrap();
    sfx.set_game_param(speed, 0.0).unwrap();
    let reopened = level(&mut manager, &mut sfx);
    assert!(
        (reopened - open).abs() < 0.1,
        "{reopened:.2} against {open:.2} dB"
    );
}

#[test]
fn a_send_curve_moves_what_the_bus_hears() {
    let (mut manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let (dry, wet) = common::dry_and_wet(&mut sfx);
    let speed = sfx
        .add_game_param("speed", GameParamSettings::new(0.0, 1.0))
        .unwrap();
    let quieter = [(0.0, 0.0), (1.0, -12.0)];
    let settings = SoundSettings::default()
        .group(dry)
        .send(SendSettings::new(wet))
        .curve(Curve::new(speed, CurveTarget::Send(wet), &quieter).unwrap());
    let data = common::sine_at(0.3, TONE, 1.0).loop_region(..);
    let sound = sfx.add_sound("tone", data, settings).unwrap();
    sfx.play(sound, PlayParams::default()).unwrap();
    let full = level(&mut manager, &mut sfx);
    sfx.set_game_param(speed, 1.0).unwrap();
    let down = level(&mut manager, &mut sfx);
    assert!(
        (full - down - 12.0).abs() < 0.1,
        "{full:.2} to {down:.2} dB"
    );
    sfx.set_game_param(speed, 0.5).unwrap();
    let half = level(&mut manager, &mut sfx);
    assert!((full - half - 6.0).abs() < 0.1, "{full:.2} to {half:.2} dB");
}

#[test]
fn a_curve_on_a_send_the_sound_lacks_or_a_cutoff_out_of_range_is_refused() {
    let (_manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let (_, wet) = common::dry_and_wet(&mut sfx);
    let speed = sfx
        .add_game_param("speed", GameParamSettings::new(0.0, 1.0))
        .unwrap();
    let curve = Curve::new(speed, CurveTarget::Send(wet), &[(0.0, -3.0)]).unwrap();
    let settings = SoundSettings::default().curve(curve);
    assert_eq!(
        sfx.add_sound("tone", common::sine(TONE, 0.1), settings),
        Err(AddSoundError::CurveSend(wet)),
        "no send to the bus"
    );
    assert!(sfx.sound("tone").is_none());
    for hz in [10.0, 30_000.0, f64::NAN] {
        assert!(matches!(
            Curve::new(speed, CurveTarget::LowPass, &[(0.0, hz)]),
            Err(GameParamError::Output(_) | GameParamError::Points(_))
        ));
    }
    assert!(
        Curve::new(speed, CurveTarget::Send(wet), &[(0.0, 3.0)]).is_err(),
        "a send curve only lowers"
    );
}

#[test]
fn a_bus_volume_curve_adds_to_the_fader() {
    let (mut manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let storm = sfx
        .add_game_param("storm", GameParamSettings::new(0.0, 1.0))
        .unwrap();
    let quieter = Curve::new(storm, CurveTarget::Volume, &[(0.0, 0.0), (1.0, -12.0)]).unwrap();
    let bus = BusBuilder::new().curve(quieter);
    let bus = sfx.mix_mut().add_bus("rain", bus).unwrap();
    let group = sfx
        .add_group("rain", GroupSettings::default().bus(bus))
        .unwrap();
    let data = common::sine_at(0.3, TONE, 1.0).loop_region(..);
    let settings = SoundSettings::default().group(group);
    let sound = sfx.add_sound("tone", data, settings).unwrap();
    sfx.play(sound, PlayParams::default()).unwrap();
    let full = level(&mut manager, &mut sfx);
    sfx.set_game_param(storm, 1.0).unwrap();
    let down = level(&mut manager, &mut sfx);
    assert!(
        (full - down - 12.0).abs() < 0.1,
        "{full:.2} to {down:.2} dB"
    );
    // The game's fader adds to it, and the curve to the fader.
    sfx.mix_mut()
        .set_bus_volume(bus, -6.0, Tween::default())
        .unwrap();
    let both = level(&mut manager, &mut sfx);
    assert!(
        (full - both - 18.0).abs() < 0.1,
        "{full:.2} to {both:.2} dB"
    );
    sfx.set_game_param(storm, 0.5).unwrap();
    let half = level(&mut manager, &mut sfx);
    assert!(
        (full - half - 12.0).abs() < 0.1,
        "{full:.2} to {half:.2} dB"
    );
    // A bus curve sets only the volume, of this manager's parameters.
    let pitch = Curve::new(storm, CurveTarget::Pitch, &[(0.0, 1.0)]).unwrap();
    assert_eq!(
        sfx.mix_mut()
            .add_bus("pitched", BusBuilder::new().curve(pitch)),
        Err(MixError::Curves)
    );
    assert!(sfx.mix().track("pitched").is_err());
}

/// A manager whose `"world"` bus has a low-pass filter named `"world
/// cutoff"` in the mix, an `"underwater"` parameter closing it to 500 Hz,
/// and the tone playing on it; from a bank if `bank`, else in code.
fn underwater(bank: bool) -> (AudioManager<OfflineBackend>, SoundEffects) {
    let (manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    if bank {
        let text = r#"(
            game_params: { "underwater": (range: (0.0, 1.0)) },
            buses: { "world": (
                effects: [Filter(mode: LowPass, cutoff: 20000.0, param: "world cutoff")],
                curves: [(param: "underwater", target: Param("world cutoff"), points: [(0.0, 20000.0), (1.0, 500.0)])],
            ) },
            groups: { "world": (bus: "world") },
            snapshots: { "deaf": (volumes: [], params: [("world cutoff", 2000.0)]) },
            sounds: { "tone": (recordings: ["tone"], looping: true, group: "world") },
        )"#;
        let bank = pool_audio::data::SoundBank::from_ron("under.ron", text).unwrap();
        let mut files = pool_audio::loader::MemoryLoader::new();
        files.insert_sound("tone", common::sine_at(0.3, TONE, 1.0));
        sfx.add_bank(&bank, &mut files, None).unwrap();
    } else {
        let mut world = BusBuilder::new();
        let mut filter = world
            .add_effect(pool_audio::kira::effect::filter::FilterBuilder::new().cutoff(20_000.0));
        let world = sfx.mix_mut().add_bus("world", world).unwrap();
        let cutoff = (sfx.mix_mut())
            .add_param(
                "world cutoff",
                20_000.0,
                20.0..=20_000.0,
                move |hz, tween| filter.set_cutoff(hz, tween),
            )
            .unwrap();
        let under = sfx
            .add_game_param("underwater", GameParamSettings::new(0.0, 1.0))
            .unwrap();
        let closing = [(0.0, 20_000.0), (1.0, 500.0)];
        let curve = Curve::new(under, CurveTarget::Param(cutoff), &closing).unwrap();
        sfx.mix_mut().add_param_curve(curve).unwrap();
        let deaf = pool_audio::mix::Snapshot::new("deaf").set_param(cutoff, 2_000.0);
        sfx.mix_mut().add_snapshot(deaf).unwrap();
        let group = sfx
            .add_group("world", GroupSettings::default().bus(world))
            .unwrap();
        let data = common::sine_at(0.3, TONE, 1.0).loop_region(..);
        let settings = SoundSettings::default().group(group);
        sfx.add_sound("tone", data, settings).unwrap();
    }
    let tone = sfx.sound("tone").unwrap();
    sfx.play(tone, PlayParams::default()).unwrap();
    (manager, sfx)
}

#[test]
fn an_effect_parameter_follows_a_curve_under_the_snapshots_in_code_and_in_a_bank() {
    let mut heard = Vec::new();
    for bank in [false, true] {
        let (mut manager, mut sfx) = underwater(bank);
        let under = sfx.game_param("underwater").unwrap();
        let deaf = sfx.mix().snapshot("deaf").unwrap();
        let open = level(&mut manager, &mut sfx);
        sfx.set_game_param(under, 1.0).unwrap();
        let closed = level(&mut manager, &mut sfx);
        // A snapshot overrides the curve's value while applied, and lets go.
        sfx.mix_mut()
            .apply_snapshot(deaf, 1.0, Tween::default())
            .unwrap();
        let snapshot = level(&mut manager, &mut sfx);
        sfx.mix_mut()
            .release_snapshot(deaf, Tween::default())
            .unwrap();
        let released = level(&mut manager, &mut sfx);
        assert!(open - closed > 15.0, "closes: {open:.2} to {closed:.2} dB");
        assert!(
            snapshot > closed + 5.0 && snapshot < open - 3.0,
            "{snapshot:.2} dB at 2 kHz"
        );
        assert!(
            (released - closed).abs() < 0.1,
            "{released:.2} against {closed:.2} dB"
        );
        heard.push([open, closed, snapshot, released]);
    }
    for (code, bank) in heard[0].iter().zip(&heard[1]) {
        assert!(
            (code - bank).abs() < 0.05,
            "code {code:.3} against bank {bank:.3} dB"
        );
    }
}

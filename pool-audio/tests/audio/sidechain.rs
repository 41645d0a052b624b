//! Side-chain ducks: a target bus lowered by as much as the voices of a
//! source bus are loud, following them with the attack and release, measured
//! in the render against the compressor's curve.

use std::time::Duration;

use pool_audio::mix::{BusBuilder, MixError, SideChainSettings};
use pool_audio::{GroupSettings, PlayParams, SoundEffectsSettings, SoundSettings};

use super::common::{self, RATE};

/// A bed at 0.25 on a target bus, and a source bus (muted: the side-chain
/// measures its voices, not what the bus plays) with a constant `level` from
/// 0.2 s to 1.2 s; the left channel of 2 s, the bed alone.
fn render(settings: SideChainSettings, level: f32) -> Vec<f32> {
    let unlimited = SoundEffectsSettings {
        limiter: None,
        ..Default::default()
    };
    let (mut manager, mut sfx, _meter) = common::metered(RATE, unlimited);
    let music = sfx.mix_mut().add_bus("music", BusBuilder::new()).unwrap();
    let voice = sfx
        .mix_mut()
        .add_bus("voice", BusBuilder::new().volume(-60.0))
        .unwrap();
    sfx.mix_mut().add_sidechain(voice, music, settings).unwrap();
    let bed = sfx
        .add_group("bed", GroupSettings::default().bus(music))
        .unwrap();
    let dialogue = sfx
        .add_group("dialogue", GroupSettings::default().bus(voice))
        .unwrap();
    let full = |group| SoundSettings::default().first_volume(0.0).group(group);
    let hum = sfx
        .add_sound("hum", common::constant(0.25, 3.0), full(bed))
        .unwrap();
    let line = sfx
        .add_sound("line", common::constant(level, 1.0), full(dialogue))
        .unwrap();
    sfx.play(hum, PlayParams::default()).unwrap();
    let at = |seconds: f64| kira::StartTime::Delayed(Duration::from_secs_f64(seconds));
    sfx.play(line, PlayParams::default().start_time(at(0.2)))
        .unwrap();
    sfx.update(0.01).unwrap();
    common::render_left(&mut manager, 2.0)
}

/// The level a one-pole follower of `time` reaches `t` seconds after its
/// input steps from `from` to `to` dB.
fn follow(from: f64, to: f64, time: Duration, t: f64) -> f64 {
    to + (from - to) * (-t / time.as_secs_f64()).exp()
}

/// A source 20 dB over the threshold lowers the target by 15 dB at a ratio
/// of 4; the reduction follows the source's level as the attack and the
/// release move it (a one-pole from -100 dBFS and back), within 0.5 dB at
/// every 50 ms.
#[test]
fn a_side_chain_lowers_its_target_as_a_compressor_keyed_by_the_source() {
    let settings = SideChainSettings::default()
        .threshold(-30.0)
        .ratio(4.0)
        .max(-24.0)
        .attack(Duration::from_millis(50))
        .release(Duration::from_millis(300));
    let source = 10f32.powf(-10.0 / 20.0);
    let heard = render(settings, source);
    let db_at = |t: f64| {
        let i = (t * f64::from(RATE)) as usize;
        20.0 * (f64::from(heard[i]) / 0.25).log10()
    };
    assert!(db_at(0.19).abs() < 0.01, "untouched before the source");
    for ms in (50..=950).step_by(50) {
        let t = 0.2 + f64::from(ms) / 1000.0;
        let level = follow(-100.0, -10.0, settings.attack, t - 0.2);
        let expected = f64::from(settings.reduction_db(level as f32));
        let measured = db_at(t);
        assert!(
            (measured - expected).abs() < 0.5,
            "{ms} ms in: {measured:.2} vs {expected:.2}"
        );
    }
    assert!((db_at(1.15) + 15.0).abs() < 0.2, "steady: {}", db_at(1.15));
    // The source ends at 1.2 s: the level falls from -10 dBFS with the release.
    for ms in (25..=400).step_by(25) {
        let t = 1.2 + f64::from(ms) / 1000.0;
        let level = follow(-10.0, -100.0, settings.release, t - 1.2);
        let expected = f64::from(settings.reduction_db(level as f32));
        let measured = db_at(t);
        assert!(
            (measured - expected).abs() < 0.5,
            "{ms} ms after: {measured:.2} vs {expected:.2}"
        );
    }
    assert!(db_at(1.9).abs() < 0.01, "back to the bed's level");
    assert!(
        common::largest_step(&heard) < 0.25 * 0.15 / 100.0,
        "no step"
    );
}

/// A source under the threshold leaves the target alone; a loud one lowers
/// it no further than the maximum.
#[test]
fn a_side_chain_acts_above_its_threshold_and_down_to_its_maximum() {
    let settings = SideChainSettings::default().threshold(-30.0).max(-6.0);
    let quiet = render(settings, 10f32.powf(-40.0 / 20.0));
    assert!(quiet.iter().all(|s| (s - 0.25).abs() < 1e-5));
    let loud = render(settings, 0.8);
    let deepest = loud.iter().fold(1.0f32, |m, s| m.min(*s));
    let db = 20.0 * (deepest / 0.25).log10();
    assert!((db + 6.0).abs() < 0.05, "{db}");
}

/// Bad side-chains are typed errors.
#[test]
fn bad_side_chains_are_refused() {
    let (_manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let a = sfx.mix_mut().add_bus("a", BusBuilder::new()).unwrap();
    let b = sfx.mix_mut().add_bus("b", BusBuilder::new()).unwrap();
    for settings in [
        SideChainSettings::default().ratio(0.5),
        SideChainSettings::default().ratio(f32::NAN),
        SideChainSettings::default().threshold(3.0),
        SideChainSettings::default().max(f32::NAN),
        SideChainSettings::default().attack(Duration::ZERO),
        SideChainSettings::default().release(Duration::from_secs(60)),
    ] {
        assert!(matches!(
            sfx.mix_mut().add_sidechain(a, b, settings),
            Err(MixError::SideChain(_))
        ));
    }
    let mut game_track = kira::track::TrackBuilder::new();
    let control = game_track.add_effect(kira::effect::volume_control::VolumeControlBuilder::new(
        kira::Decibels::IDENTITY,
    ));
    let game = sfx.mix_mut().add_track("game", control).unwrap();
    assert_eq!(
        sfx.mix_mut()
            .add_sidechain(a, game, SideChainSettings::default()),
        Err(MixError::GameTrack(game))
    );
    assert_eq!(
        sfx.mix_mut()
            .add_sidechain(game, a, SideChainSettings::default()),
        Err(MixError::NotBus(game))
    );
    for _ in 0..pool_audio::mix::MAX_SIDECHAINS {
        sfx.mix_mut()
            .add_sidechain(a, b, SideChainSettings::default())
            .unwrap();
    }
    assert_eq!(
        sfx.mix_mut()
            .add_sidechain(a, b, SideChainSettings::default()),
        Err(MixError::TooMany)
    );
}

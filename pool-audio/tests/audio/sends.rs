//! Sends: a voice feeds a return bus at a level its sound gives and the game
//! changes, that can follow its distance; measured in the render against
//! kira's own send to the same reverb, against the curve, through a steal's
//! fade and a virtual voice's return.

use std::time::Duration;

use kira::effect::reverb::ReverbBuilder;
use kira::sound::static_sound::StaticSoundData;
use kira::track::{SendTrackBuilder, TrackBuilder};
use kira::{AudioManager, AudioManagerSettings, Decibels, Mix, Tween};
use pool_audio::dsp::MeterBuilder;
use pool_audio::error::{AddSoundError, SettingsError};
use pool_audio::mix::{BusBuilder, MAX_SENDS, SendCurve, SendSettings};
use pool_audio::music::{Music, MusicSettings};
use pool_audio::voices::{Resume, Virtualization};
use pool_audio::{
    GroupSettings, OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings,
    VoiceError, VoiceState, linear_fade,
};

use super::common::{self, RATE};

/// Sound effects with no limiter, so what the tests measure is linear.
fn unlimited() -> SoundEffectsSettings {
    SoundEffectsSettings {
        limiter: None,
        ..Default::default()
    }
}

/// kira's reverb, all wet: the return both renders feed.
fn hall() -> ReverbBuilder {
    ReverbBuilder::new()
        .feedback(0.85)
        .damping(0.3)
        .mix(Mix::WET)
}

/// The reverb tail of a click sent at `level` through a bus of this crate:
/// the left channel of 2 s.
fn our_tail(level: f32) -> Vec<f32> {
    let (mut manager, mut sfx, _meter) = common::metered(RATE, unlimited());
    let bus = sfx
        .mix_mut()
        .add_bus("hall", BusBuilder::new().with_effect(hall()))
        .unwrap();
    // At full scale, as kira plays it (not under the default -1 dBFS headroom).
    let settings = SoundSettings::default()
        .first_volume(0.0)
        .headroom(0.0)
        .send(SendSettings::new(bus).level(level));
    let click = sfx.add_sound("click", common::click(), settings).unwrap();
    sfx.play(click, PlayParams::default()).unwrap();
    sfx.update(0.01).unwrap();
    common::render_left(&mut manager, 2.0)
}

/// The same click, through kira's own send at `level` to a send track with
/// the same reverb.
fn kiras_tail(level: f32) -> Vec<f32> {
    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let send = manager
        .add_send_track(SendTrackBuilder::new().with_effect(hall()))
        .unwrap();
    let mut track = manager
        .add_sub_track(TrackBuilder::new().with_send(send.id(), Decibels(level)))
        .unwrap();
    track.play(common::click()).unwrap();
    common::render_left(&mut manager, 2.0)
}

/// The tail's reverberation time, seconds: Schroeder's backward integration of
/// its energy from `from` frames on, the slope from -5 to -25 dB (T20)
/// extended to 60 dB.
fn rt60(samples: &[f32], from: usize) -> f64 {
    let energy: Vec<f64> = samples[from..]
        .iter()
        .map(|s| f64::from(*s).powi(2))
        .collect();
    let mut decay = vec![0.0; energy.len()];
    let mut sum = 0.0;
    for (i, e) in energy.iter().enumerate().rev() {
        sum += e;
        decay[i] = sum;
    }
    let total = decay[0];
    let at = |db: f64| {
        decay
            .iter()
            .position(|d| 10.0 * (d / total).log10() <= db)
            .expect("the tail decays that far") as f64
    };
    (at(-25.0) - at(-5.0)) / f64::from(RATE) * 3.0
}

/// The energy of `samples` from `from` on, dB.
fn energy_db(samples: &[f32], from: usize) -> f64 {
    10.0 * samples[from..]
        .iter()
        .map(|s| f64::from(*s).powi(2))
        .sum::<f64>()
        .log10()
}

/// A click sent to a reverb return: the tail decays as the same reverb fed
/// by kira's own send (within 10%), its level follows the send level within
/// 0.2 dB, and a send at the mix's floor feeds nothing.
#[test]
fn a_send_feeds_a_reverb_as_kiras_own_send_does() {
    let from = RATE as usize / 100;
    let ours = our_tail(-6.0);
    let kiras = kiras_tail(-6.0);
    let (ours_rt, kiras_rt) = (rt60(&ours, from), rt60(&kiras, from));
    println!("RT60: ours {ours_rt:.3} s, kira's {kiras_rt:.3} s");
    assert!(ours_rt > 0.3, "a tail of some length: {ours_rt}");
    assert!((ours_rt / kiras_rt - 1.0).abs() < 0.1);
    let (ours_db, kiras_db) = (energy_db(&ours, from), energy_db(&kiras, from));
    assert!((ours_db - kiras_db).abs() < 0.2, "{ours_db} vs {kiras_db}");
    let full = energy_db(&our_tail(0.0), from);
    for level in [-12.0, -6.0] {
        let heard = energy_db(&our_tail(level), from) - full;
        println!("send {level} dB: tail {heard:.2} dB");
        assert!((heard - f64::from(level)).abs() < 0.2, "{level}: {heard}");
    }
    let silent = our_tail(-60.0);
    assert!(silent[from..].iter().all(|s| s.abs() < 1e-6));
}

/// A voice whose own output goes to a muted bus and whose send goes to a
/// plain bus: what is heard is its send alone.
struct SendOnly {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    wet: pool_audio::mix::TrackId,
    sound: pool_audio::SoundId,
}

impl SendOnly {
    fn new(settings: SoundEffectsSettings, sound: SoundSettings, data: StaticSoundData) -> Self {
        let (manager, mut sfx, _meter) = common::metered(RATE, settings);
        let (group, wet) = common::dry_and_wet(&mut sfx);
        let settings = sound.group(group).send(SendSettings::new(wet));
        let sound = sfx.add_sound("voice", data, settings).unwrap();
        Self {
            manager,
            sfx,
            wet,
            sound,
        }
    }

    fn render(&mut self, seconds: f64) -> Vec<f32> {
        common::render_left(&mut self.manager, seconds)
    }
}

/// A send level changed while the voice plays: at once, it moves within one
/// 16-frame step, by equal steps; over a tween, it glides with no step larger
/// than its own share.
#[test]
fn a_send_change_is_heard_within_a_step_and_glides() {
    let level = SoundSettings::default().first_volume(0.0);
    let mut scene = SendOnly::new(unlimited(), level, common::constant(0.5, 2.0));
    let voice = scene.sfx.play(scene.sound, PlayParams::default()).unwrap();
    scene.sfx.update(0.01).unwrap();
    let before = scene.render(0.1);
    assert!((before[before.len() - 1] - 0.5).abs() < 1e-4);
    scene
        .sfx
        .voice(voice)
        .set_send(scene.wet, -12.0, Tween::default())
        .unwrap();
    let now = scene.render(0.1);
    let low = 0.5 * 10f32.powf(-12.0 / 20.0);
    // Kira's default tween is 10 ms, linear in dB: reached within it and a
    // step, its largest step the first sample's of that curve.
    let reached = now.iter().position(|s| (s - low).abs() < 1e-4).unwrap();
    assert!(reached <= 480 + 16, "reached after {reached} frames");
    let first = 0.5 * (1.0 - 10f32.powf(-12.0 / 20.0 / 480.0));
    assert!(
        common::largest_step(&now) < first * 1.2,
        "{}",
        common::largest_step(&now)
    );
    scene
        .sfx
        .voice(voice)
        .set_send(scene.wet, 0.0, linear_fade(Duration::ZERO))
        .unwrap();
    let instant = scene.render(0.05);
    let reached = instant.iter().position(|s| (s - 0.5).abs() < 1e-4).unwrap();
    assert!(reached < 16, "an instant change takes one step: {reached}");
    assert!(common::largest_step(&instant) <= (0.5 - low) / 16.0 * 1.01);
}

/// A positioned voice's send follows its curve by distance: the wet level
/// over the dry one, metered on the two buses, is the curve's within 0.5 dB
/// at five distances.
#[test]
fn a_distance_send_follows_its_curve() {
    let curve = SendCurve::new(2.0..=30.0, -20.0, 0.0);
    for distance in [1.0, 5.0, 12.0, 25.0, 40.0] {
        let (mut manager, mut sfx, _meter) = common::metered(RATE, unlimited());
        let mut dry = BusBuilder::new();
        let dry_meter = dry.add_effect(MeterBuilder::new());
        let mut wet = BusBuilder::new();
        let wet_meter = wet.add_effect(MeterBuilder::new());
        let dry = sfx.mix_mut().add_bus("dry", dry).unwrap();
        let wet = sfx.mix_mut().add_bus("wet", wet).unwrap();
        let group = sfx
            .add_group("g", GroupSettings::default().bus(dry))
            .unwrap();
        let send = SendSettings::new(wet).distance(curve);
        let settings = SoundSettings::default()
            .first_volume(0.0)
            .group(group)
            .send(send);
        let hum = sfx
            .add_sound("hum", common::constant(0.5, 1.0), settings)
            .unwrap();
        sfx.play(hum, common::at(distance)).unwrap();
        sfx.update(0.01).unwrap();
        common::render_left(&mut manager, 0.3);
        let heard = 20.0 * (wet_meter.peak() / dry_meter.peak()).log10();
        let expected = send.curve_db(distance);
        println!("{distance} m: wet/dry {heard:.2} dB, curve {expected:.2} dB");
        assert!(
            dry_meter.peak() > 0.01,
            "the voice is heard at {distance} m"
        );
        assert!(
            (heard - expected).abs() < 0.5,
            "{distance} m: {heard} vs {expected}"
        );
    }
}

/// A stolen voice's send fades out with it, over the steal fade, instead of
/// stopping; a voice that went virtual comes back at the send level the game
/// set last.
#[test]
fn a_send_lives_through_a_steal_and_a_virtual_return() {
    let settings = SoundEffectsSettings {
        voice_cap: 1,
        steal_fade: Duration::from_millis(20),
        ..unlimited()
    };
    let sound = SoundSettings::default()
        .first_volume(0.0)
        .virtualization(Virtualization::Virtualize(Resume::FromElapsed));
    let mut scene = SendOnly::new(settings, sound, common::constant(0.5, 4.0).loop_region(..));
    let silent = scene
        .sfx
        .add_sound(
            "silent",
            common::constant(0.0, 0.3),
            SoundSettings::default().priority(10),
        )
        .unwrap();
    let voice = scene.sfx.play(scene.sound, PlayParams::default()).unwrap();
    scene
        .sfx
        .voice(voice)
        .set_send(scene.wet, -6.0, linear_fade(Duration::ZERO))
        .unwrap();
    scene.sfx.update(0.01).unwrap();
    let before = scene.render(0.1);
    let half = 0.5 * 10f32.powf(-6.0 / 20.0);
    assert!((before[before.len() - 1] - half).abs() < 1e-3);
    // A louder priority takes the one voice: the send fades over 20 ms.
    let loud = scene.sfx.play(silent, PlayParams::default()).unwrap();
    scene.sfx.update(0.01).unwrap();
    let fading = scene.render(0.1);
    let gone = fading.iter().position(|s| s.abs() < 1e-4).unwrap();
    assert!((900..=1_000).contains(&gone), "faded after {gone} frames");
    assert!(common::largest_step(&fading) < half / 900.0 * 1.5);
    assert_eq!(scene.sfx.state(voice), VoiceState::Virtual);
    // The silent sound ends; the voice comes back with its send at -6 dB.
    scene
        .sfx
        .voice(loud)
        .stop(linear_fade(Duration::ZERO))
        .unwrap();
    for _ in 0..10 {
        scene.sfx.update(0.01).unwrap();
        scene.render(0.01);
    }
    let back = scene.render(0.2);
    assert_eq!(scene.sfx.state(voice), VoiceState::Real);
    assert!(
        (back[back.len() - 1] - half).abs() < 1e-3,
        "{}",
        back[back.len() - 1]
    );
}

/// Bad sends are typed errors that change nothing.
#[test]
fn bad_sends_are_refused() {
    let (_manager, mut sfx, _meter) = common::metered(RATE, unlimited());
    let music = Music::new(&mut sfx, MusicSettings::default()).unwrap();
    let music = music.track("music").unwrap();
    let bus = sfx.mix_mut().add_bus("bus", BusBuilder::new()).unwrap();
    let click = common::click;
    let refused = |sfx: &mut SoundEffects, settings: SoundSettings| {
        let result = sfx.add_sound("s", click(), settings);
        assert_eq!(sfx.sound("s"), None);
        result.unwrap_err()
    };
    let to = |bus| SoundSettings::default().send(SendSettings::new(bus));
    assert_eq!(refused(&mut sfx, to(music)), AddSoundError::NotBus(music));
    for level in [f32::NAN, 13.0] {
        let settings = SoundSettings::default().send(SendSettings::new(bus).level(level));
        assert!(matches!(
            refused(&mut sfx, settings),
            AddSoundError::Settings(SettingsError::SendLevel(_))
        ));
    }
    for curve in [
        SendCurve::new(5.0..=5.0, 0.0, -6.0),
        SendCurve::new(-1.0..=5.0, 0.0, -6.0),
        SendCurve::new(1.0..=f32::INFINITY, 0.0, -6.0),
        SendCurve::new(1.0..=5.0, f32::NAN, -6.0),
    ] {
        let settings = SoundSettings::default().send(SendSettings::new(bus).distance(curve));
        assert!(matches!(
            refused(&mut sfx, settings),
            AddSoundError::Settings(SettingsError::SendCurve(_))
        ));
    }
    let mut many = SoundSettings::default();
    for _ in 0..=MAX_SENDS {
        many = many.send(SendSettings::new(bus));
    }
    assert_eq!(
        refused(&mut sfx, many),
        AddSoundError::Settings(SettingsError::TooManySends)
    );
    // A voice's send: only to a bus its sound sends to, at a level in range.
    let id = sfx.add_sound("ok", click(), to(bus)).unwrap();
    let voice = sfx.play(id, PlayParams::default()).unwrap();
    let other = sfx.mix_mut().add_bus("other", BusBuilder::new()).unwrap();
    assert_eq!(
        sfx.voice(voice).set_send(other, 0.0, Tween::default()),
        Err(VoiceError::NoSend(other))
    );
    assert!(matches!(
        sfx.voice(voice).set_send(bus, f32::NAN, Tween::default()),
        Err(VoiceError::InvalidParam(_))
    ));
}

/// A snapshot sets the level of every send into a return (the return's input,
/// not the bus's volume), tweened like any mix value, and gives it back.
#[test]
fn a_snapshot_sets_the_sends_into_a_return() {
    use pool_audio::mix::{MixTarget, Snapshot};

    let level = SoundSettings::default().first_volume(0.0);
    let mut scene = SendOnly::new(unlimited(), level, common::constant(0.5, 2.0));
    scene.sfx.play(scene.sound, PlayParams::default()).unwrap();
    scene.sfx.update(0.01).unwrap();
    let before = scene.render(0.05);
    assert!((before[before.len() - 1] - 0.5).abs() < 1e-4);
    let dry_hall = Snapshot::new("dry hall").set(MixTarget::Sends(scene.wet), -12.0);
    let dry_hall = scene.sfx.mix_mut().add_snapshot(dry_hall).unwrap();
    let fade = linear_fade(Duration::from_millis(50));
    scene
        .sfx
        .mix_mut()
        .apply_snapshot(dry_hall, 1.0, fade)
        .unwrap();
    let lowered = scene.render(0.1);
    let low = 0.5 * 10f32.powf(-12.0 / 20.0);
    assert!((lowered[lowered.len() - 1] - low).abs() < 1e-3);
    assert!(
        common::largest_step(&lowered) < (0.5 - low) / 1_000.0,
        "a fade"
    );
    assert_eq!(
        scene.sfx.mix().level(MixTarget::Sends(scene.wet)),
        Ok(Decibels(-12.0))
    );
    scene
        .sfx
        .mix_mut()
        .release_snapshot(dry_hall, fade)
        .unwrap();
    let back = scene.render(0.1);
    assert!((back[back.len() - 1] - 0.5).abs() < 1e-3);
}

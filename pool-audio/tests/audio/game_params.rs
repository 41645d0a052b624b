//! Game parameters: a speed swept from 0 to 1 moves an engine loop's pitch
//! and level along its curves, measured in the render at five points; the
//! seek time measured; a voice's own value beside the game's; every bad
//! parameter, value and curve a typed error that changes nothing.

use std::time::Duration;

use pool_audio::game::{Curve, CurveTarget, GameParamError, GameParamSettings, MAX_POINTS};
use pool_audio::{
    OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings, VoiceError,
    error::AddSoundError, kira::AudioManager,
};

use super::common::{self, RATE};

/// The engine's tone, Hz.
const ENGINE: f64 = 220.0;

/// The pitch curve: -5 semitones at rest, +7 at full speed.
const PITCH: [(f64, f64); 3] = [(0.0, -5.0), (0.5, 0.0), (1.0, 7.0)];
/// The volume curve: -12 dB at rest, 0 dB at full speed.
const VOLUME: [(f64, f64); 2] = [(0.0, -12.0), (1.0, 0.0)];

/// A manager with a speed parameter (seeking across its range in `seek`)
/// and an engine loop following it.
fn engine(
    seek: Duration,
) -> (
    AudioManager<OfflineBackend>,
    SoundEffects,
    pool_audio::SoundId,
    pool_audio::game::GameParamId,
) {
    let (manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let speed = sfx
        .add_game_param("speed", GameParamSettings::new(0.0, 1.0).seek(seek))
        .unwrap();
    let settings = SoundSettings::default()
        .max_voices(2)
        .curve(Curve::new(speed, CurveTarget::Pitch, &PITCH).unwrap())
        .curve(Curve::new(speed, CurveTarget::Volume, &VOLUME).unwrap());
    let hum = common::sine_at(0.3, ENGINE as f32, 1.0).loop_region(..);
    let hum = sfx.add_sound("engine", hum, settings).unwrap();
    (manager, sfx, hum, speed)
}

/// The tone (Hz) and level (dB RMS) of the next 0.2 s, after 0.05 s for the
/// last change's glide.
fn listen(manager: &mut AudioManager<OfflineBackend>) -> (f64, f64) {
    common::render_left(manager, 0.05);
    let heard = common::render_left(manager, 0.2);
    let rms =
        (heard.iter().map(|s| f64::from(*s).powi(2)).sum::<f64>() / heard.len() as f64).sqrt();
    (
        common::frequency(&heard, f64::from(RATE)),
        20.0 * rms.log10(),
    )
}

/// A curve's output at `x`, from its points (linear between them).
fn on(points: &[(f64, f64)], x: f64) -> f64 {
    let i = points
        .iter()
        .position(|p| p.0 >= x)
        .unwrap_or(points.len() - 1)
        .max(1);
    let ((x0, y0), (x1, y1)) = (points[i - 1], points[i]);
    y0 + (y1 - y0) * (x - x0) / (x1 - x0)
}

fn semitones(hz: f64) -> f64 {
    12.0 * (hz / ENGINE).log2()
}

#[test]
fn a_swept_speed_moves_pitch_and_level_along_the_curves() {
    let (mut manager, mut sfx, hum, speed) = engine(Duration::ZERO);
    sfx.play(hum, PlayParams::default()).unwrap();
    let mut heard = Vec::new();
    for x in [1.0, 0.0, 0.25, 0.5, 0.75] {
        sfx.set_game_param(speed, x).unwrap();
        sfx.update(common::BLOCK).unwrap();
        heard.push((x, listen(&mut manager)));
    }
    // Levels relative to full speed, where the volume curve adds 0 dB.
    let full = heard[0].1.1;
    for (x, (hz, db)) in &heard {
        let pitch = semitones(*hz);
        assert!(
            (pitch - on(&PITCH, *x)).abs() < 0.05,
            "speed {x}: {pitch:.3} semitones"
        );
        let level = db - full;
        assert!(
            (level - on(&VOLUME, *x)).abs() < 0.1,
            "speed {x}: {level:.3} dB"
        );
    }
}

#[test]
fn a_parameter_seeks_at_its_speed() {
    // Across the whole range in 1 s: halfway after 0.5 s.
    let (mut manager, mut sfx, hum, speed) = engine(Duration::from_secs(1));
    sfx.play(hum, PlayParams::default()).unwrap();
    sfx.set_game_param(speed, 1.0).unwrap();
    for _ in 0..50 {
        sfx.update(common::BLOCK).unwrap();
        common::render_left(&mut manager, common::BLOCK);
    }
    let value = sfx.game_param_value(speed).unwrap();
    assert!((value - 0.5).abs() < 1e-9, "{value}");
    // Held there while the render is measured.
    sfx.set_game_param(speed, value).unwrap();
    let (hz, _) = listen(&mut manager);
    assert!((semitones(hz) - on(&PITCH, 0.5)).abs() < 0.05, "{hz} Hz");
    sfx.set_game_param(speed, 1.0).unwrap();
    for _ in 0..60 {
        sfx.update(common::BLOCK).unwrap();
        common::render_left(&mut manager, common::BLOCK);
    }
    assert_eq!(sfx.game_param_value(speed).unwrap(), 1.0);
    let (hz, _) = listen(&mut manager);
    assert!((semitones(hz) - 7.0).abs() < 0.05, "{hz} Hz");
}

#[test]
fn a_voices_own_value_goes_before_the_games() {
    let (mut manager, mut sfx, hum, speed) = engine(Duration::ZERO);
    // One car at full speed while the game's speed is 0.25.
    sfx.set_game_param(speed, 0.25).unwrap();
    let fast = sfx.play(hum, PlayParams::default()).unwrap();
    sfx.voice(fast).set_game_param(speed, 1.0).unwrap();
    sfx.update(common::BLOCK).unwrap();
    let (hz, _) = listen(&mut manager);
    assert!((semitones(hz) - 7.0).abs() < 0.05, "its own: {hz} Hz");
    // The game's value moves; the car's own does not.
    sfx.set_game_param(speed, 0.0).unwrap();
    sfx.update(common::BLOCK).unwrap();
    let (hz, _) = listen(&mut manager);
    assert!((semitones(hz) - 7.0).abs() < 0.05, "still its own: {hz} Hz");
    sfx.stop_all(pool_audio::linear_fade(Duration::from_millis(1)))
        .unwrap();
    common::render_left(&mut manager, 0.05);
    sfx.update(common::BLOCK).unwrap();
    // Another car follows the game's.
    sfx.play(hum, PlayParams::default()).unwrap();
    sfx.update(common::BLOCK).unwrap();
    let (hz, _) = listen(&mut manager);
    assert!((semitones(hz) - -5.0).abs() < 0.05, "the game's: {hz} Hz");
}

#[test]
fn bad_parameters_values_and_curves_are_refused() {
    let (_manager, mut sfx, hum, speed) = engine(Duration::ZERO);
    let add = |sfx: &mut SoundEffects, settings| sfx.add_game_param("x", settings);
    assert_eq!(
        add(&mut sfx, GameParamSettings::new(1.0, 1.0)),
        Err(GameParamError::Range(1.0, 1.0))
    );
    assert!(matches!(
        add(&mut sfx, GameParamSettings::new(0.0, f64::NAN)),
        Err(GameParamError::Range(..))
    ));
    assert_eq!(
        add(&mut sfx, GameParamSettings::new(0.0, 1.0).initial(2.0)),
        Err(GameParamError::Value(2.0))
    );
    assert_eq!(
        sfx.add_game_param("speed", GameParamSettings::default()),
        Err(GameParamError::DuplicateName("speed".into()))
    );
    assert!(sfx.game_param("x").is_none());
    assert!(
        matches!(sfx.set_game_param(speed, f64::NAN), Err(GameParamError::Value(v)) if v.is_nan())
    );
    assert_eq!(sfx.game_param_value(speed).unwrap(), 0.0, "unchanged");
    // A value past the range is clamped into it.
    sfx.set_game_param(speed, 5.0).unwrap();
    sfx.update(common::BLOCK).unwrap();
    assert_eq!(sfx.game_param_value(speed).unwrap(), 1.0);

    let curve = |points: &[(f64, f64)]| Curve::new(speed, CurveTarget::Pitch, points);
    assert_eq!(curve(&[]), Err(GameParamError::Points(0)));
    assert_eq!(
        curve(&[(1.0, 0.0), (0.0, 1.0)]),
        Err(GameParamError::Points(2))
    );
    assert_eq!(curve(&[(0.0, f64::NAN)]), Err(GameParamError::Points(1)));
    assert_eq!(
        curve(&[(0.0, 0.0); MAX_POINTS + 1]),
        Err(GameParamError::Points(MAX_POINTS + 1))
    );
    assert_eq!(curve(&[(0.0, 100.0)]), Err(GameParamError::Output(100.0)));
    assert_eq!(
        Curve::new(speed, CurveTarget::Volume, &[(0.0, 3.0)]),
        Err(GameParamError::Output(3.0))
    );

    // A curve of another manager's parameter, or too many curves.
    let (_other, mut elsewhere, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let far = elsewhere
        .add_game_param("speed", GameParamSettings::default())
        .unwrap();
    let foreign =
        SoundSettings::default().curve(Curve::new(far, CurveTarget::Pitch, &[(0.0, 1.0)]).unwrap());
    let tone = common::sine_at(0.3, 440.0, 0.1);
    assert_eq!(
        sfx.add_sound("foreign", tone.clone(), foreign),
        Err(AddSoundError::Curves)
    );
    let one = Curve::new(speed, CurveTarget::Pitch, &[(0.0, 1.0)]).unwrap();
    let five = (0..5).fold(SoundSettings::default(), |s, _| s.curve(one));
    assert_eq!(
        sfx.add_sound("five", tone, five),
        Err(AddSoundError::Curves)
    );
    assert!(sfx.sound("foreign").is_none() && sfx.sound("five").is_none());

    // A voice's own values: at most two parameters, finite, this manager's.
    let voice = sfx.play(hum, PlayParams::default()).unwrap();
    assert_eq!(
        sfx.voice(voice).set_game_param(far, 0.5),
        Err(VoiceError::GameParam)
    );
    assert_eq!(
        sfx.voice(voice).set_game_param(speed, f64::INFINITY),
        Err(VoiceError::GameParam)
    );
    let load = sfx
        .add_game_param("load", GameParamSettings::default())
        .unwrap();
    let rain = sfx
        .add_game_param("rain", GameParamSettings::default())
        .unwrap();
    sfx.voice(voice).set_game_param(speed, 0.5).unwrap();
    sfx.voice(voice).set_game_param(load, 0.5).unwrap();
    sfx.voice(voice).set_game_param(speed, 0.7).unwrap();
    assert_eq!(
        sfx.voice(voice).set_game_param(rain, 0.5),
        Err(VoiceError::TooManyOwnValues)
    );
}

#[test]
fn a_banks_curves_follow_its_parameters() {
    let (mut manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let mut files = pool_audio::loader::MemoryLoader::new();
    files.insert_sound("hum", common::sine_at(0.3, ENGINE as f32, 1.0));
    let text = r#"(
        game_params: { "speed": (range: (0.0, 1.0), initial: 0.5) },
        sounds: {
            "engine": (
                recordings: ["hum"],
                looping: true,
                curves: [(param: "speed", target: Pitch, points: [(0.0, -5.0), (0.5, 0.0), (1.0, 7.0)])],
            ),
        },
    )"#;
    let bank = pool_audio::data::SoundBank::from_ron("engine.ron", text).unwrap();
    sfx.add_bank(&bank, &mut files, None).unwrap();
    let (hum, speed) = (
        sfx.sound("engine").unwrap(),
        sfx.game_param("speed").unwrap(),
    );
    assert_eq!(
        sfx.game_param_value(speed).unwrap(),
        0.5,
        "its initial value"
    );
    sfx.play(hum, PlayParams::default()).unwrap();
    for (x, expected) in [(0.5, 0.0), (1.0, 7.0), (0.0, -5.0)] {
        sfx.set_game_param(speed, x).unwrap();
        sfx.update(common::BLOCK).unwrap();
        let (hz, _) = listen(&mut manager);
        assert!(
            (semitones(hz) - expected).abs() < 0.05,
            "speed {x}: {hz} Hz"
        );
    }
    // A curve of a parameter nowhere is placed in the text.
    let bad = text.replace(r#"param: "speed""#, r#"param: "sped""#);
    let bad = pool_audio::data::SoundBank::from_ron("bad.ron", &bad).unwrap();
    let (_m, mut fresh, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let error = fresh.add_bank(&bad, &mut files, None).unwrap_err();
    assert_eq!(error.path, "sounds.engine.curves[0].param", "{error}");
    assert!(
        fresh.game_param("speed").is_none(),
        "nothing added: {error}"
    );
}

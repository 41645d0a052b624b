//! Game parameters in Bevy: an emitter's own value and the game's, set by a
//! component and a message, heard in the recorded render at the pitches the
//! curve gives; a bad message and a bad component value come back as
//! messages.

use bevy::ecs::message::Messages;
use bevy::prelude::*;
use bevy_pool::pool_audio::game::{Curve, CurveTarget, GameParamError, GameParamSettings};
use bevy_pool::prelude::*;

use crate::common::{RATE, amplitude, app, frames, last};

/// The hum's tone, and the curve's pitches at speed 0 and 1.
const HUM: f32 = 220.0;
const SLOW: f32 = HUM * 0.749_153_5; // -5 semitones
const FAST: f32 = HUM * 1.498_307; // +7 semitones

#[test]
fn an_emitters_own_value_and_the_games_move_their_voices_pitch() {
    let mut app = app();
    let (speed, hum) = {
        let mut sfx = app.world_mut().resource_mut::<Sfx>();
        let speed = sfx
            .add_game_param("speed", GameParamSettings::new(0.0, 1.0))
            .unwrap();
        let frames: Vec<Frame> = (0..RATE as usize)
            .map(|i| {
                Frame::from_mono(0.3 * (i as f32 * HUM * std::f32::consts::TAU / RATE as f32).sin())
            })
            .collect();
        let data = StaticSoundData {
            sample_rate: RATE,
            frames: frames.into(),
            settings: Default::default(),
            slice: None,
        }
        .loop_region(..);
        let pitch = Curve::new(speed, CurveTarget::Pitch, &[(0.0, -5.0), (1.0, 7.0)]).unwrap();
        let settings = SoundSettings::default().curve(pitch).first_volume(-6.0);
        (speed, sfx.add_sound("hum", data, settings).unwrap())
    };
    app.world_mut().spawn((SoundListener, Transform::default()));
    // One car at full speed of its own; another following the game's (0).
    app.world_mut().spawn((
        SoundEmitter::new(hum),
        GameParamValues::new(speed, 1.0),
        Transform::from_xyz(0.0, 0.0, -1.0),
    ));
    app.world_mut()
        .spawn((SoundEmitter::new(hum), Transform::from_xyz(0.0, 0.0, -1.0)));
    frames(&mut app, 20);
    let heard = last(&app, 0.2);
    let (fast, slow) = (amplitude(&heard, FAST), amplitude(&heard, SLOW));
    assert!(
        fast > 0.05 && slow > 0.05,
        "both: {fast} at +7, {slow} at -5"
    );
    // The game's speed goes to 1: both at +7 semitones.
    app.world_mut().write_message(SetGameParam {
        param: speed,
        value: 1.0,
    });
    frames(&mut app, 20);
    let heard = last(&app, 0.2);
    let (fast, slow) = (amplitude(&heard, FAST), amplitude(&heard, SLOW));
    assert!(fast > 0.1 && slow < 0.01, "{fast} at +7, {slow} at -5");

    // A value that is not finite: refused, and said.
    app.world_mut().write_message(SetGameParam {
        param: speed,
        value: f64::NAN,
    });
    app.update();
    let refused: Vec<GameParamRefused> = app
        .world_mut()
        .resource_mut::<Messages<GameParamRefused>>()
        .drain()
        .collect();
    assert_eq!(refused.len(), 1);
    assert!(matches!(refused[0].error, GameParamError::Value(v) if v.is_nan()));
    assert_eq!(
        app.world()
            .resource::<Sfx>()
            .game_param_value(speed)
            .unwrap(),
        1.0
    );
    // An emitter value that is not finite: the emitter's voice is unchanged,
    // and a warning says which emitter.
    app.world_mut()
        .resource_mut::<Messages<SoundWarning>>()
        .clear();
    let bad = app
        .world_mut()
        .spawn((
            SoundEmitter::new(hum),
            GameParamValues::new(speed, f64::INFINITY),
            Transform::from_xyz(0.0, 0.0, -1.0),
        ))
        .id();
    app.update();
    let warnings: Vec<SoundWarning> = app
        .world_mut()
        .resource_mut::<Messages<SoundWarning>>()
        .drain()
        .collect();
    assert!(
        warnings
            .iter()
            .any(|w| matches!(w, SoundWarning::GameParam { entity, .. } if *entity == bad)),
        "{warnings:?}"
    );
}

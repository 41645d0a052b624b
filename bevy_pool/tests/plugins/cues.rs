//! Spatial cues from components, measured in the recorded render: an emitter
//! moved by its transform, or given a `SoundVelocity`, is heard doppler-shifted
//! (pitch by zero crossings); a listener's `SoundVelocity` shifts what it hears;
//! a removed `SoundVelocity` goes back to the velocity derived from the moves;
//! `SoundOcclusion` lowers an emitter's tone by its curve and removing it clears
//! it; a value out of range comes back as a `PlayRefused`.

use bevy::ecs::message::Messages;
use bevy::prelude::*;
use bevy_pool::pool_audio::{
    GroupSettings, PlayError, SoundEffectsSettings, error::ParamError, mix::LoudnessWindow,
};
use bevy_pool::prelude::*;

use crate::common::{DT, RATE, amplitude, app, app_of, frames, last};

const C: f64 = 343.0;

/// A looping sine of `hz`, mono, at half scale.
fn sine(hz: f32) -> StaticSoundData {
    let frames = (0..RATE).map(|i| {
        Frame::from_mono(0.5 * (i as f32 / RATE as f32 * hz * std::f32::consts::TAU).sin())
    });
    StaticSoundData {
        sample_rate: RATE,
        frames: frames.collect(),
        settings: Default::default(),
        slice: None,
    }
    .loop_region(..)
}

/// The frequency of `samples` by rising zero crossings, each placed between
/// its two samples.
fn pitch(samples: &[f32]) -> f64 {
    let crossings: Vec<f64> = samples
        .windows(2)
        .enumerate()
        .filter(|(_, pair)| pair[0] < 0.0 && pair[1] >= 0.0)
        .map(|(i, pair)| i as f64 + f64::from(pair[0] / (pair[0] - pair[1])))
        .collect();
    let span = crossings.last().unwrap() - crossings[0];
    (crossings.len() - 1) as f64 / span * f64::from(RATE)
}

/// An app with a listener at the origin and a 440 Hz sound with doppler.
fn scene() -> (App, SoundId) {
    let mut app = app();
    app.world_mut().spawn((SoundListener, Transform::default()));
    let sound = app
        .world_mut()
        .resource_mut::<Sfx>()
        .add_sound(
            "engine",
            sine(440.0),
            SoundSettings::default().doppler_scale(1.0),
        )
        .unwrap();
    (app, sound)
}

#[test]
fn an_emitter_moved_by_its_transform_or_given_a_velocity_is_heard_doppler_shifted() {
    let approaching = 440.0 * C / (C - 30.0);
    // Moved by its transform at 30 m/s along x, passing 2 m ahead.
    let (mut app, sound) = scene();
    let car = app
        .world_mut()
        .spawn((
            SoundEmitter::new(sound),
            Transform::from_xyz(-60.0, 0.0, -2.0),
        ))
        .id();
    for _ in 0..60 {
        app.world_mut()
            .get_mut::<Transform>(car)
            .unwrap()
            .translation
            .x += (30.0 * DT) as f32;
        app.update();
    }
    let heard = pitch(&last(&app, 0.5));
    assert!(
        (heard / approaching - 1.0).abs() < 0.005,
        "moved: {heard} Hz, {approaching} expected"
    );
    // Still, but its SoundVelocity says it comes at 30 m/s.
    let (mut app, sound) = scene();
    app.world_mut().spawn((
        SoundEmitter::new(sound),
        Transform::from_xyz(0.0, 0.0, -40.0),
        SoundVelocity(Vec3::new(0.0, 0.0, 30.0)),
    ));
    frames(&mut app, 40);
    let heard = pitch(&last(&app, 0.5));
    assert!(
        (heard / approaching - 1.0).abs() < 0.005,
        "given: {heard} Hz"
    );
    // The listener's SoundVelocity: driving towards a still emitter at 20 m/s.
    let (mut app, sound) = scene();
    app.world_mut().spawn((
        SoundEmitter::new(sound),
        Transform::from_xyz(0.0, 0.0, -40.0),
    ));
    let listener = listener(&mut app);
    app.world_mut()
        .entity_mut(listener)
        .insert(SoundVelocity(Vec3::new(0.0, 0.0, -20.0)));
    frames(&mut app, 40);
    let heard = pitch(&last(&app, 0.5));
    let expected = 440.0 * (C + 20.0) / C;
    assert!(
        (heard / expected - 1.0).abs() < 0.005,
        "listener: {heard} Hz, {expected} expected"
    );
}

/// The scene's one listener.
fn listener(app: &mut App) -> Entity {
    app.world_mut()
        .query_filtered::<Entity, With<SoundListener>>()
        .single(app.world())
        .unwrap()
}

#[test]
fn a_removed_velocity_is_derived_from_the_moves_again() {
    let (mut app, sound) = scene();
    let emitter = app
        .world_mut()
        .spawn((
            SoundEmitter::new(sound),
            Transform::from_xyz(0.0, 0.0, -40.0),
            SoundVelocity(Vec3::new(0.0, 0.0, 30.0)),
        ))
        .id();
    let listener = listener(&mut app);
    app.world_mut()
        .entity_mut(listener)
        .insert(SoundVelocity(Vec3::new(0.0, 0.0, -20.0)));
    frames(&mut app, 40);
    let both = 440.0 * (C + 20.0) / (C - 30.0);
    let heard = pitch(&last(&app, 0.5));
    assert!((heard / both - 1.0).abs() < 0.005, "both: {heard} Hz");
    // Both still: once neither has a SoundVelocity, nothing is shifted.
    app.world_mut()
        .entity_mut(emitter)
        .remove::<SoundVelocity>();
    frames(&mut app, 40);
    let listener_only = 440.0 * (C + 20.0) / C;
    let heard = pitch(&last(&app, 0.5));
    assert!(
        (heard / listener_only - 1.0).abs() < 0.005,
        "the emitter's removed: {heard} Hz, {listener_only} expected"
    );
    app.world_mut()
        .entity_mut(listener)
        .remove::<SoundVelocity>();
    frames(&mut app, 40);
    let heard = pitch(&last(&app, 0.5));
    assert!(
        (heard / 440.0 - 1.0).abs() < 0.0005,
        "both removed: {heard} Hz"
    );
}

#[test]
fn occlusion_lowers_an_emitter_removing_it_clears_it_and_a_bad_value_is_refused() {
    let (mut app, _) = scene();
    let hum = app
        .world_mut()
        .resource_mut::<Sfx>()
        .add_sound("hum", sine(200.0), SoundSettings::default())
        .unwrap();
    let emitter = app
        .world_mut()
        .spawn((SoundEmitter::new(hum), Transform::from_xyz(0.0, 0.0, -2.0)))
        .id();
    frames(&mut app, 30);
    let clear = amplitude(&last(&app, 0.2), 200.0);
    app.world_mut()
        .entity_mut(emitter)
        .insert(SoundOcclusion(1.0));
    frames(&mut app, 30);
    let occluded = amplitude(&last(&app, 0.2), 200.0);
    // -15 dB, and the 800 Hz one-pole's -0.26 dB at 200 Hz.
    let db = 20.0 * (occluded / clear).log10();
    assert!((db + 15.26).abs() < 0.3, "occluded by {db} dB");
    app.world_mut()
        .entity_mut(emitter)
        .remove::<SoundOcclusion>();
    frames(&mut app, 30);
    let back = 20.0 * (amplitude(&last(&app, 0.2), 200.0) / clear).log10();
    assert!(back.abs() < 0.05, "back to {back} dB");
    // A NaN occlusion: a message, and the voice keeps what it had.
    app.world_mut()
        .resource_mut::<Messages<PlayRefused>>()
        .clear();
    app.world_mut()
        .entity_mut(emitter)
        .insert(SoundOcclusion(f32::NAN));
    app.update();
    let refusals: Vec<PlayRefused> = app
        .world_mut()
        .resource_mut::<Messages<PlayRefused>>()
        .drain()
        .collect();
    assert!(
        refusals.iter().any(|r| r.entity == Some(emitter)
            && matches!(r.error, PlayError::InvalidParam(ParamError::Amount(_)))),
        "{refusals:?}"
    );
    frames(&mut app, 20);
    let kept = 20.0 * (amplitude(&last(&app, 0.2), 200.0) / clear).log10();
    assert!(kept.abs() < 0.05, "unchanged: {kept} dB");
}

/// An emitter spawned behind a wall plays occluded from its play on: the
/// loudness window's top counts what is heard through the wall at the first
/// frame (65 dB of an 80 dB grenade at occlusion 1, the default curve's
/// -15 dB), as it would for a play given its occlusion.
#[test]
fn an_emitter_spawned_occluded_is_heard_occluded_from_its_play() {
    let mut app = app_of(SoundEffectsPlugin {
        settings: SoundEffectsSettings {
            loudness_window: Some(LoudnessWindow::default()),
            ..Default::default()
        },
        ..Default::default()
    });
    app.world_mut().spawn((SoundListener, Transform::default()));
    let mut sfx = app.world_mut().resource_mut::<Sfx>();
    let world = sfx
        .add_group("world", GroupSettings::default().loudness_window(true))
        .unwrap();
    let settings = SoundSettings::default().group(world).loudness(80.0);
    let grenade = sfx.add_sound("grenade", sine(300.0), settings).unwrap();
    app.world_mut().spawn((
        SoundEmitter::new(grenade),
        Transform::from_xyz(0.0, 0.0, -1.0),
        SoundOcclusion(1.0),
    ));
    app.update();
    let top = app.world().resource::<Sfx>().mix().stats().window_top;
    assert!(
        top.is_some_and(|db| (db.0 - 65.0).abs() < 0.01),
        "top {top:?}"
    );
    // Spawned with a NaN occlusion: it plays without it, and the game is told.
    let bad = app
        .world_mut()
        .spawn((
            SoundEmitter::new(grenade),
            Transform::from_xyz(0.0, 0.0, -1.0),
            SoundOcclusion(f32::NAN),
        ))
        .id();
    app.update();
    assert!(
        app.world()
            .get::<SoundEmitter>(bad)
            .unwrap()
            .voice()
            .is_some()
    );
    let refusals: Vec<PlayRefused> = app
        .world_mut()
        .resource_mut::<Messages<PlayRefused>>()
        .drain()
        .collect();
    assert!(
        refusals.iter().any(|r| r.entity == Some(bad)
            && matches!(r.error, PlayError::InvalidParam(ParamError::Amount(_)))),
        "{refusals:?}"
    );
}

//! Components that react and warnings instead of silence: a changed emitter's
//! volume and sound are heard within the frame (measured in the render); a
//! refused emitter plays once its transform is finite; listeners missing,
//! several or not finite, and emitters not finite, each send one warning.

use std::time::Duration;

use bevy::app::App;
use bevy::ecs::message::Messages;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_pool::pool_audio::{PlayError, error::ParamError, offline::OfflineSettings};
use bevy_pool::prelude::*;

use crate::common::DT;

fn tone(hz: f32) -> StaticSoundData {
    let frames = (0..48_000)
        .map(|i| Frame::from_mono((i as f32 / 48_000.0 * hz * std::f32::consts::TAU).sin()));
    StaticSoundData {
        sample_rate: 48_000,
        frames: frames.collect(),
        settings: Default::default(),
        slice: None,
    }
    .loop_region(..)
}

/// A headless app with the plugin recording its audio, frames of `DT`.
fn app() -> App {
    let mut app = App::new();
    app.add_plugins((
        bevy::time::TimePlugin,
        bevy::transform::TransformPlugin,
        SoundEffectsPlugin {
            output: Output::Offline {
                settings: OfflineSettings::default(),
                record: true,
            },
            ..Default::default()
        },
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        DT,
    )));
    app
}

fn add(app: &mut App, name: &str, data: StaticSoundData) -> SoundId {
    let settings = SoundSettings::default().max_voices(1).first_volume(0.0);
    app.world_mut()
        .resource_mut::<Sfx>()
        .add_sound(name, data, settings)
        .unwrap()
}

/// The left channel of what the frame just rendered.
fn last_frame(app: &App) -> Vec<f32> {
    let samples = app.world().non_send::<AudioOutput>().recorded_samples();
    samples[samples.len() - 1_600..]
        .iter()
        .step_by(2)
        .copied()
        .collect()
}

/// The peak of a frame of a steady tone: its level (an RMS over 3.7 cycles of
/// 220 Hz would move with the phase).
fn level(left: &[f32]) -> f64 {
    left.iter()
        .fold(0.0, |peak, s| peak.max(f64::from(s.abs())))
}

/// Zero crossings per second in `left`: a tone's frequency, twice.
fn crossings(left: &[f32]) -> f64 {
    let n = left
        .windows(2)
        .filter(|w| (w[0] < 0.0) != (w[1] < 0.0))
        .count();
    n as f64 / (left.len() as f64 / 48_000.0)
}

/// What the app said since the last call: Bevy keeps a message for two
/// frames, so tests take them each frame through `frames`.
#[derive(Default)]
struct Said {
    refused: Vec<PlayRefused>,
    warnings: Vec<SoundWarning>,
}

/// `n` frames, and what they said.
fn frames(app: &mut App, n: usize) -> Said {
    let mut said = Said::default();
    for _ in 0..n {
        app.update();
        let world = app.world_mut();
        said.refused
            .extend(world.resource_mut::<Messages<PlayRefused>>().drain());
        said.warnings
            .extend(world.resource_mut::<Messages<SoundWarning>>().drain());
    }
    said
}

#[test]
fn a_changed_volume_and_a_changed_sound_are_heard_within_the_frame() {
    let mut app = app();
    let low = add(&mut app, "low", tone(220.0));
    let high = add(&mut app, "high", tone(880.0));
    app.world_mut().spawn((SoundListener, Transform::default()));
    // Two metres in front of the listener (which faces -z).
    let emitter = app
        .world_mut()
        .spawn((SoundEmitter::new(low), Transform::from_xyz(0.0, 0.0, -2.0)))
        .id();
    frames(&mut app, 5);
    let loud = level(&last_frame(&app));
    assert!(loud > 0.05, "{loud}");
    // A quarter of the volume: heard from the frame it was set in, over 20 ms
    // (the frame after ends the ramp, the third is all at the new level).
    app.world_mut()
        .get_mut::<SoundEmitter>(emitter)
        .unwrap()
        .params
        .volume = pool_audio::kira::Decibels(-12.0412);
    frames(&mut app, 1);
    // The frame's last quarter (12.5 ms on): most of the way down already.
    let ramping = level(&last_frame(&app)[600..]);
    frames(&mut app, 2);
    let quiet = level(&last_frame(&app));
    let db = 20.0 * (quiet / loud).log10();
    assert!((db + 12.04).abs() < 0.2, "{db} dB, asked -12.04");
    assert!(
        ramping < loud * 0.6,
        "lower in the frame it was set: {ramping}"
    );
    let voice = app.world().get::<SoundEmitter>(emitter).unwrap().voice();
    // Another sound: the old voice goes, the new one plays at the emitter's volume.
    app.world_mut()
        .get_mut::<SoundEmitter>(emitter)
        .unwrap()
        .sound = high;
    // The new voice starts in the frame; the old one fades over 50 ms.
    frames(&mut app, 4);
    let heard = last_frame(&app);
    let hz = crossings(&heard) / 2.0;
    assert!((hz - 880.0).abs() < 70.0, "{hz} Hz");
    let db = 20.0 * (level(&heard) / loud).log10();
    assert!((db + 12.04).abs() < 0.2, "the new sound at {db} dB");
    let now = app.world().get::<SoundEmitter>(emitter).unwrap().voice();
    assert!(now.is_some() && now != voice);
    let sfx = app.world().resource::<Sfx>();
    assert_eq!(
        (
            sfx.sound_info(low).copies_playing(),
            sfx.sound_info(high).copies_playing()
        ),
        (0, 1)
    );
}

#[test]
fn a_refused_emitter_plays_once_its_transform_is_finite_and_says_why_once() {
    let mut app = app();
    let hum = add(&mut app, "hum", tone(220.0));
    app.world_mut().spawn((SoundListener, Transform::default()));
    let emitter = app
        .world_mut()
        .spawn((
            SoundEmitter::new(hum),
            Transform::from_xyz(f32::NAN, 0.0, 0.0),
        ))
        .id();
    let said = frames(&mut app, 5);
    let refusals = said.refused;
    assert_eq!(refusals.len(), 1, "one message for five refused frames");
    assert!(matches!(
        refusals[0].error,
        PlayError::InvalidParam(ParamError::Position(_))
    ));
    assert_eq!(said.warnings, [SoundWarning::NonFiniteEmitter(emitter)]);
    let state = app.world().get::<SoundEmitter>(emitter).unwrap();
    assert!(state.voice().is_none() && state.refused().is_some());
    // The game fixes its transform: the emitter plays within the frame.
    *app.world_mut().get_mut::<Transform>(emitter).unwrap() = Transform::from_xyz(0.0, 0.0, -3.0);
    frames(&mut app, 1);
    let state = app.world().get::<SoundEmitter>(emitter).unwrap();
    assert!(state.voice().is_some() && state.refused().is_none());
    assert!(level(&last_frame(&app)) > 0.01);
    // Off: a refused emitter waits for a change.
    let waiting = app
        .world_mut()
        .spawn((
            SoundEmitter::new(hum).retry(false),
            Transform::from_xyz(f32::INFINITY, 0.0, 0.0),
        ))
        .id();
    app.update();
    *app.world_mut().get_mut::<Transform>(waiting).unwrap() = Transform::default();
    app.update();
    let state = app.world().get::<SoundEmitter>(waiting).unwrap();
    assert!(state.voice().is_none(), "no retry without a change");
    app.world_mut()
        .get_mut::<SoundEmitter>(waiting)
        .unwrap()
        .retry = true;
    app.update();
    assert!(
        app.world()
            .get::<SoundEmitter>(waiting)
            .unwrap()
            .voice()
            .is_some()
    );
}

#[test]
fn listeners_missing_several_or_not_finite_each_warn_once() {
    let mut app = app();
    let said = frames(&mut app, 3).warnings;
    assert_eq!(said, [SoundWarning::NoListener]);
    assert!(
        said[0]
            .to_string()
            .contains("no entity has a SoundListener")
    );
    let first = app
        .world_mut()
        .spawn((SoundListener, Transform::from_xyz(1.0, 0.0, 0.0)))
        .id();
    let second = app
        .world_mut()
        .spawn((SoundListener, Transform::from_xyz(50.0, 0.0, 0.0)))
        .id();
    let used = first.min_by_index(second);
    assert_eq!(
        frames(&mut app, 3).warnings,
        [SoundWarning::SeveralListeners { used, count: 2 }]
    );
    // The one of the lower index is heard from: a voice 2 m in front of it is
    // loud (from the other, 49 m away, it would be 29 dB quieter).
    let hum = add(&mut app, "hum", tone(220.0));
    let at = app.world().get::<Transform>(used).unwrap().translation;
    app.world_mut().spawn((
        SoundEmitter::new(hum),
        Transform::from_translation(at + Vec3::new(0.0, 0.0, -2.0)),
    ));
    frames(&mut app, 2);
    let level = level(&last_frame(&app));
    assert!(level > 0.2, "heard from the listener used: {level}");
    app.world_mut().despawn(second.max_by_index(first));
    *app.world_mut().get_mut::<Transform>(used).unwrap() = Transform::from_xyz(f32::NAN, 0.0, 0.0);
    assert_eq!(
        frames(&mut app, 3).warnings,
        [SoundWarning::NonFiniteListener(used)]
    );
}

trait ByIndex {
    fn min_by_index(self, other: Self) -> Self;
    fn max_by_index(self, other: Self) -> Self;
}

impl ByIndex for Entity {
    fn min_by_index(self, other: Self) -> Self {
        if self.index() <= other.index() {
            self
        } else {
            other
        }
    }
    fn max_by_index(self, other: Self) -> Self {
        if self.index() > other.index() {
            self
        } else {
            other
        }
    }
}

#[test]
fn a_replaced_emitter_stops_its_voice_and_an_ended_one_waits_for_a_change() {
    let mut app = app();
    let low = add(&mut app, "low", tone(220.0));
    let high = add(&mut app, "high", tone(880.0));
    app.world_mut().spawn((SoundListener, Transform::default()));
    let entity = app
        .world_mut()
        .spawn((SoundEmitter::new(low), Transform::from_xyz(0.0, 0.0, -2.0)))
        .id();
    frames(&mut app, 2);
    // Another emitter inserted over it: the old voice goes, the new one plays.
    app.world_mut()
        .entity_mut(entity)
        .insert(SoundEmitter::new(high));
    frames(&mut app, 5);
    let sfx = app.world().resource::<Sfx>();
    assert_eq!(
        (
            sfx.sound_info(low).copies_playing(),
            sfx.sound_info(high).copies_playing()
        ),
        (0, 1)
    );
    // A one-shot emitter plays out: its voice is gone, and it stays silent
    // until the game changes it.
    let click = StaticSoundData {
        sample_rate: 48_000,
        frames: vec![Frame::from_mono(0.5); 480].into(),
        settings: Default::default(),
        slice: None,
    };
    let click = add(&mut app, "click", click);
    let once = app
        .world_mut()
        .spawn((
            SoundEmitter::new(click),
            Transform::from_xyz(0.0, 0.0, -2.0),
        ))
        .id();
    frames(&mut app, 1);
    assert!(
        app.world()
            .get::<SoundEmitter>(once)
            .unwrap()
            .voice()
            .is_some()
    );
    frames(&mut app, 5);
    let state = app.world().get::<SoundEmitter>(once).unwrap();
    assert!(state.voice().is_none() && state.refused().is_none());
    assert_eq!(
        app.world()
            .resource::<Sfx>()
            .sound_info(click)
            .copies_playing(),
        0
    );
    app.world_mut()
        .get_mut::<SoundEmitter>(once)
        .unwrap()
        .params
        .volume = pool_audio::kira::Decibels(-0.9151);
    frames(&mut app, 1);
    assert!(
        app.world()
            .get::<SoundEmitter>(once)
            .unwrap()
            .voice()
            .is_some()
    );
}

/// A `fade_out` kira cannot compute still stops the voice (with kira's
/// default fade), on a despawn and on a change of sound, and says so.
#[test]
fn a_bad_fade_out_still_stops_the_voice_and_warns() {
    let mut app = app();
    let low = add(&mut app, "low", tone(220.0));
    let high = add(&mut app, "high", tone(880.0));
    app.world_mut().spawn((SoundListener, Transform::default()));
    let bad = bevy_pool::pool_audio::kira::Tween {
        easing: bevy_pool::pool_audio::kira::Easing::InPowf(-1.0),
        ..Default::default()
    };
    let emitter = |sound| SoundEmitter::new(sound).fade_out(bad);
    let changed = app
        .world_mut()
        .spawn((emitter(low), Transform::from_xyz(0.0, 0.0, -2.0)))
        .id();
    let gone = app
        .world_mut()
        .spawn((emitter(high), Transform::from_xyz(0.0, 0.0, 2.0)))
        .id();
    frames(&mut app, 2);
    app.world_mut()
        .get_mut::<SoundEmitter>(changed)
        .unwrap()
        .sound = high;
    app.world_mut().despawn(gone);
    let said = frames(&mut app, 5);
    let sfx = app.world().resource::<Sfx>();
    assert_eq!(
        (
            sfx.sound_info(low).copies_playing(),
            sfx.sound_info(high).copies_playing()
        ),
        (0, 1),
        "both old voices stopped; the changed emitter plays its new sound"
    );
    let mut warned: Vec<_> = said
        .warnings
        .iter()
        .filter_map(|w| match w {
            SoundWarning::BadFadeOut(entity) => Some(*entity),
            _ => None,
        })
        .collect();
    warned.sort();
    let mut expected = vec![changed, gone];
    expected.sort();
    assert_eq!(warned, expected);
}

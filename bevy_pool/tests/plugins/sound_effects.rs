//! The sound-effects plugin in headless apps, against the plain API doing the
//! same thing: plays, transforms, despawns and pausing.

use std::time::Duration;

use bevy::app::App;
use bevy::ecs::message::Messages;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_pool::{
    Output, PlayRefused, PlaySound, Sfx, SoundEffectsPlugin, SoundEmitter, SoundListener,
};
use pool_audio::kira::sound::static_sound::StaticSoundData;
use pool_audio::kira::{AudioManager, AudioManagerSettings, Frame};
use pool_audio::{
    OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundId, SoundSettings,
    VoiceHandle, VoiceState, offline::OfflineSettings, offline::Rendered, voices::WhenFull,
};

use crate::common::DT;

fn tone(hz: f32, seconds: f32) -> StaticSoundData {
    StaticSoundData {
        sample_rate: 48_000,
        frames: (0..(seconds * 48_000.0) as usize)
            .map(|i| Frame::from_mono((i as f32 / 48_000.0 * hz * std::f32::consts::TAU).sin()))
            .collect(),
        settings: Default::default(),
        slice: None,
    }
}

/// A headless app with the plugin, frames of exactly `DT`, recording its audio.
fn app(plugin: SoundEffectsPlugin) -> App {
    let mut app = App::new();
    app.add_plugins((
        bevy::time::TimePlugin,
        bevy::transform::TransformPlugin,
        plugin,
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        DT,
    )));
    app
}

fn recording() -> SoundEffectsPlugin {
    SoundEffectsPlugin {
        output: Output::Offline {
            settings: OfflineSettings::default(),
            record: true,
        },
        ..Default::default()
    }
}

fn add(app: &mut App, name: &str, data: StaticSoundData, settings: SoundSettings) -> SoundId {
    app.world_mut()
        .resource_mut::<Sfx>()
        .add_sound(name, data, settings)
        .unwrap()
}

/// `count` one-shots of `sound` for the next frame, as `PlaySound` messages.
fn write_plays(app: &mut App, sound: SoundId, count: usize) {
    let mut plays = app.world_mut().resource_mut::<Messages<PlaySound>>();
    for _ in 0..count {
        plays.write(PlaySound {
            sound,
            params: PlayParams::default(),
        });
    }
}

/// A looping engine on an emitter at the origin, after the frame that started
/// it: its entity and its voice.
fn engine_playing(app: &mut App) -> (Entity, VoiceHandle) {
    let engine = add(
        app,
        "engine",
        tone(220.0, 1.0).loop_region(..),
        SoundSettings::default(),
    );
    let car = app
        .world_mut()
        .spawn((SoundEmitter::new(engine), Transform::default()))
        .id();
    app.update();
    let voice = app
        .world()
        .get::<SoundEmitter>(car)
        .and_then(SoundEmitter::voice)
        .unwrap();
    (car, voice)
}

/// The frame deltas the app's clocks gave, to replay them in the plain API.
fn real_delta(app: &App) -> f64 {
    app.world().resource::<Time<Real>>().delta_secs_f64()
}

/// RMS of each channel of `audio`, in dB.
fn channel_db(audio: &Rendered) -> [f64; 2] {
    let samples = audio.samples();
    let frames = (samples.len() / 2).max(1) as f64;
    [0, 1].map(|c| {
        let energy: f64 = samples
            .iter()
            .skip(c)
            .step_by(2)
            .map(|s| f64::from(*s).powi(2))
            .sum();
        10.0 * (energy / frames).max(1e-20).log10()
    })
}

/// 1,000 plays of one sound in one frame through `PlaySound` messages start,
/// recycle and refuse exactly what 1,000 `play` calls do.
#[test]
fn a_thousand_plays_in_one_frame_behave_as_the_plain_api() {
    for when_full in [WhenFull::RecycleOldest, WhenFull::Strict] {
        let settings = SoundSettings::default()
            .max_voices(10)
            .first_volume(-13.9794)
            .when_full(when_full);
        let mut app = app(SoundEffectsPlugin::default());
        let boom = add(&mut app, "boom", tone(110.0, 0.5), settings);
        write_plays(&mut app, boom, 1000);
        app.update();

        let mut manager =
            AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
        let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
        let plain = sfx.add_sound("boom", tone(110.0, 0.5), settings).unwrap();
        let refusals = (0..1000)
            .filter(|_| sfx.play(plain, PlayParams::default()).is_err())
            .count();
        sfx.update(0.0).unwrap();

        let ours = app.world().resource::<Sfx>();
        assert_eq!(ours.stats(), sfx.stats(), "{when_full:?}");
        assert_eq!(
            ours.sound_info(boom).copies_playing(),
            sfx.sound_info(plain).copies_playing()
        );
        // Ten started; the update let go of those the budget does not keep.
        let kept = sfx.sound_info(plain).copies_kept().unwrap();
        assert!((5..10).contains(&kept), "{kept}");
        assert_eq!(ours.sound_info(boom).copies_playing(), kept);
        let refused = app.world().resource::<Messages<PlayRefused>>();
        assert_eq!(
            refused.len(),
            refusals,
            "{when_full:?}: one PlayRefused per refusal"
        );
    }
}

/// A listener and an emitter moved by their transforms are heard exactly as
/// `set_listener` and `set_position` make them heard: the same audio, channel
/// by channel within 0.01 dB (here, sample for sample).
#[test]
fn transforms_move_the_listener_and_the_emitter_as_the_plain_api_does() {
    let mut app = app(recording());
    let engine = add(
        &mut app,
        "engine",
        tone(220.0, 1.0).loop_region(..),
        SoundSettings::default(),
    );
    let listener = app
        .world_mut()
        .spawn((SoundListener, Transform::default()))
        .id();
    let car = app
        .world_mut()
        .spawn((
            SoundEmitter::new(engine),
            Transform::from_xyz(-20.0, 0.0, 3.0),
        ))
        .id();
    // The car drives past; the listener rises and turns half around.
    let path = |frame: usize| {
        let t = frame as f32 * DT as f32;
        (
            [-20.0 + 40.0 * t, 0.0, 3.0],
            [0.0, 2.0 * t, 0.0],
            Quat::from_rotation_y(std::f32::consts::PI * t),
        )
    };
    let mut deltas = Vec::new();
    for frame in 0..60 {
        let (car_at, ears, turn) = path(frame);
        app.world_mut()
            .entity_mut(car)
            .insert(Transform::from_translation(Vec3::from(car_at)));
        app.world_mut()
            .entity_mut(listener)
            .insert(Transform::from_translation(Vec3::from(ears)).with_rotation(turn));
        app.update();
        deltas.push(real_delta(&app));
    }
    let ours = app.world().non_send::<bevy_pool::AudioOutput>().recorded();

    let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
    let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
    let plain = sfx
        .add_sound(
            "engine",
            tone(220.0, 1.0).loop_region(..),
            SoundSettings::default(),
        )
        .unwrap();
    let mut samples = Vec::new();
    let mut voice = None;
    for (frame, dt) in deltas.iter().enumerate() {
        let (car_at, ears, turn) = path(frame);
        sfx.listener().set_position(ears).unwrap();
        sfx.listener()
            .set_orientation(pool_audio::mint::Quaternion {
                v: [turn.x, turn.y, turn.z].into(),
                s: turn.w,
            })
            .unwrap();
        match voice {
            None => {
                voice = Some(
                    sfx.play(plain, PlayParams::default().position(car_at))
                        .unwrap(),
                )
            }
            Some(voice) => sfx.voice(voice).set_position(car_at).unwrap(),
        }
        sfx.update(*dt).unwrap();
        samples.extend_from_slice(manager.backend_mut().render(*dt).unwrap().samples());
    }
    let plain_audio = Rendered::from_samples(48_000, samples);

    assert!(ours.frames() > 40_000, "{} frames recorded", ours.frames());
    assert_eq!(ours.frames(), plain_audio.frames());
    let (a, b) = (channel_db(&ours), channel_db(&plain_audio));
    for channel in 0..2 {
        assert!(
            (a[channel] - b[channel]).abs() < 0.01,
            "channel {channel}: {a:?} against {b:?}"
        );
    }
    assert!(a[0] > -40.0, "the engine is heard: {a:?}");
}

/// A despawned emitter's voice ends with a fade: heard during the 50 ms after
/// the despawn, silent after it.
#[test]
fn a_despawned_emitter_fades_out() {
    let mut app = app(recording());
    let engine = add(
        &mut app,
        "engine",
        tone(220.0, 1.0).loop_region(..),
        SoundSettings::default(),
    );
    app.world_mut().spawn((SoundListener, Transform::default()));
    let car = app
        .world_mut()
        .spawn((
            SoundEmitter::new(engine),
            Transform::from_xyz(2.0, 0.0, 0.0),
        ))
        .id();
    for _ in 0..10 {
        app.update();
    }
    let voice = app
        .world()
        .get::<SoundEmitter>(car)
        .and_then(SoundEmitter::voice)
        .unwrap();
    let before = app
        .world()
        .non_send::<bevy_pool::AudioOutput>()
        .recorded()
        .frames();
    app.world_mut().despawn(car);
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(app.world().resource::<Sfx>().state(voice), VoiceState::Gone);
    let audio = app.world().non_send::<bevy_pool::AudioOutput>().recorded();
    let left = |from_ms: usize, to_ms: usize| -> f32 {
        audio.samples()[2 * (before + from_ms * 48)..2 * (before + to_ms * 48)]
            .iter()
            .fold(0.0f32, |m, s| m.max(s.abs()))
    };
    let (start, middle, after) = (left(0, 10), left(20, 30), left(80, 150));
    assert!(
        start > 0.05,
        "still heard at the start of the fade: {start}"
    );
    assert!(
        middle > 0.0 && middle < start,
        "fading: {middle} after {start}"
    );
    assert_eq!(after, 0.0, "silent once the fade is over");
}

/// With `pause_with_virtual_time`, pausing the game's virtual time pauses the
/// voices, and unpausing resumes them.
#[test]
fn pausing_virtual_time_pauses_sound_effects_when_asked() {
    let mut app = app(SoundEffectsPlugin {
        pause_with_virtual_time: true,
        ..recording()
    });
    app.world_mut().spawn((SoundListener, Transform::default()));
    let (_, voice) = engine_playing(&mut app);
    app.world_mut().resource_mut::<Time<Virtual>>().pause();
    for _ in 0..5 {
        app.update();
    }
    let state = app.world().resource::<Sfx>().state(voice);
    assert!(
        matches!(state, VoiceState::Paused | VoiceState::Fading),
        "{state:?}"
    );
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(
        app.world().resource::<Sfx>().state(voice),
        VoiceState::Paused
    );
    let audio = app.world().non_send::<bevy_pool::AudioOutput>().recorded();
    let tail = &audio.samples()[audio.samples().len() - 2 * 4_800..];
    assert!(
        tail.iter().all(|s| *s == 0.0),
        "a paused game's voices are silent"
    );
    app.world_mut().resource_mut::<Time<Virtual>>().unpause();
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(app.world().resource::<Sfx>().state(voice), VoiceState::Real);
}

/// Removing the component (the entity stays) stops the voice as despawning
/// does, with the emitter's own fade as it is when it goes.
#[test]
fn a_removed_emitter_component_stops_its_voice() {
    let mut app = app(recording());
    let (car, voice) = engine_playing(&mut app);
    app.world_mut()
        .get_mut::<SoundEmitter>(car)
        .unwrap()
        .fade_out = bevy_pool::pool_audio::linear_fade(Duration::ZERO);
    app.world_mut().entity_mut(car).remove::<SoundEmitter>();
    // The observer stopped it at once, before any system ran.
    assert_eq!(app.world().resource::<Sfx>().state(voice), VoiceState::Gone);
    // The mixer ends it in this frame's render; the next update frees its slot.
    app.update();
    app.update();
    assert!(app.world().get_entity(car).is_ok(), "the entity stays");
    let stats = app.world().resource::<Sfx>().stats();
    assert_eq!(
        (stats.real_voices, stats.fading_voices),
        (0, 0),
        "a fade of 0: over"
    );
}

/// An emitter's voice is its entity's: `stop_owner` with the entity stops it,
/// and a play owned by the entity counts against the sound's copies per owner.
#[test]
fn an_emitters_entity_owns_its_voice() {
    let mut app = app(recording());
    let (car, voice) = engine_playing(&mut app);
    let mut sfx = app.world_mut().resource_mut::<Sfx>();
    let engine = sfx.sound("engine").unwrap();
    let other = sfx.play(engine, PlayParams::default()).unwrap();
    sfx.stop_owner(car.to_bits(), pool_audio::linear_fade(Duration::ZERO))
        .unwrap();
    assert_eq!(
        sfx.state(voice),
        VoiceState::Gone,
        "the entity's voice stopped"
    );
    assert_eq!(
        sfx.state(other),
        VoiceState::Real,
        "a voice of nobody plays on"
    );
}

/// A pause the voice bank's full queue refuses is tried again the next frame,
/// not forgotten; and so is the resume.
#[test]
fn a_pause_refused_by_a_full_queue_is_retried_next_frame() {
    let mut app = app(SoundEffectsPlugin {
        pause_with_virtual_time: true,
        ..recording()
    });
    let (_, voice) = engine_playing(&mut app);
    // Fills the queue the mixer reads at its next block: the frame's pause
    // finds no room.
    let fill = |app: &mut App| {
        let mut sfx = app.world_mut().resource_mut::<Sfx>();
        let fade = pool_audio::linear_fade(Duration::ZERO);
        while sfx.voice(voice).set_volume(0.0, fade).is_ok() {}
    };
    app.world_mut().resource_mut::<Time<Virtual>>().pause();
    fill(&mut app);
    let refused = app.world().resource::<Sfx>().stats().queue_full;
    app.update();
    assert!(
        app.world().resource::<Sfx>().stats().queue_full > refused,
        "the pause was refused"
    );
    assert_eq!(app.world().resource::<Sfx>().state(voice), VoiceState::Real);
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(
        app.world().resource::<Sfx>().state(voice),
        VoiceState::Paused,
        "retried: paused"
    );
    app.world_mut().resource_mut::<Time<Virtual>>().unpause();
    fill(&mut app);
    app.update();
    assert_eq!(
        app.world().resource::<Sfx>().state(voice),
        VoiceState::Paused
    );
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(
        app.world().resource::<Sfx>().state(voice),
        VoiceState::Real,
        "retried: resumed"
    );
}

/// Without `pause_with_virtual_time`, pausing virtual time leaves the voices
/// playing (a pause menu keeps its sounds).
#[test]
fn without_the_setting_voices_play_through_a_pause() {
    let mut app = app(recording());
    let engine = add(
        &mut app,
        "engine",
        tone(220.0, 1.0).loop_region(..),
        SoundSettings::default(),
    );
    let car = app
        .world_mut()
        .spawn((SoundEmitter::new(engine), Transform::default()))
        .id();
    app.update();
    app.world_mut().resource_mut::<Time<Virtual>>().pause();
    for _ in 0..5 {
        app.update();
    }
    let voice = app
        .world()
        .get::<SoundEmitter>(car)
        .and_then(SoundEmitter::voice)
        .unwrap();
    assert_eq!(app.world().resource::<Sfx>().state(voice), VoiceState::Real);
}

/// The diagnostics say what the statistics say, once a frame.
#[test]
fn diagnostics_report_voices_plays_and_refusals() {
    use bevy::diagnostic::DiagnosticsStore;
    use bevy_pool::PoolDiagnosticsPlugin as D;
    let mut app = app(SoundEffectsPlugin::default());
    app.add_plugins(D);
    // Four copies at 0.2 fit the budget: all four are kept.
    let settings = SoundSettings::default()
        .max_voices(4)
        .first_volume(-13.9794)
        .when_full(WhenFull::Strict);
    let boom = add(&mut app, "boom", tone(110.0, 0.5), settings);
    write_plays(&mut app, boom, 10);
    app.update();
    let store = app.world().resource::<DiagnosticsStore>();
    let value = |path| store.get(&path).and_then(|d| d.value());
    assert_eq!(value(D::REAL_VOICES), Some(4.0));
    assert_eq!(value(D::PLAYS), Some(4.0));
    assert_eq!(value(D::REFUSED_PLAYS), Some(6.0));
    assert_eq!(value(D::LIMITER_GAIN_REDUCTION_DB), Some(0.0));
}

/// Every voice that ends is one `VoiceEnded` message with its reason: 100
/// plays of a sound of 10 copies in one frame recycle 90 (taken over), the
/// update lets go of the copies the budget does not keep (crowded), and the
/// rest finish.
#[test]
fn every_ended_voice_is_one_message_with_its_reason() {
    use bevy_pool::VoiceEnded;
    use pool_audio::EndReason;

    #[derive(Resource, Default)]
    struct Seen(Vec<VoiceEnded>);
    fn collect(mut seen: ResMut<Seen>, mut ended: MessageReader<VoiceEnded>) {
        seen.0.extend(ended.read().copied());
    }

    let mut app = app(SoundEffectsPlugin::default());
    app.init_resource::<Seen>().add_systems(Last, collect);
    let boom = add(
        &mut app,
        "boom",
        tone(110.0, 0.1),
        SoundSettings::default()
            .max_voices(10)
            .first_volume(-13.9794),
    );
    write_plays(&mut app, boom, 100);
    for _ in 0..30 {
        app.update();
    }
    let seen = &app.world().resource::<Seen>().0;
    let count = |reason| seen.iter().filter(|m| m.0.reason == reason).count();
    let kept = app
        .world()
        .resource::<Sfx>()
        .sound_info(boom)
        .copies_kept()
        .unwrap();
    assert!((5..10).contains(&kept), "{kept}");
    assert_eq!(count(EndReason::Recycled), 90);
    assert_eq!(count(EndReason::Crowded), 10 - kept);
    assert_eq!(count(EndReason::Finished), kept);
    assert_eq!(seen.len(), 100, "one message per voice");
    let mut voices: Vec<_> = seen.iter().map(|m| m.0.voice).collect();
    voices.sort_by_key(|v| format!("{v:?}"));
    voices.dedup();
    assert_eq!(voices.len(), 100, "each voice once");
}

#[test]
fn the_plugin_captures_the_session_when_asked() {
    use bevy_pool::pool_audio::capture::What;
    let mut app = crate::common::app_of(SoundEffectsPlugin {
        capture: Some(10_000),
        ..Default::default()
    });
    let beep = StaticSoundData {
        sample_rate: 48_000,
        frames: vec![Frame::from_mono(0.5); 4_800].into(),
        settings: Default::default(),
        slice: None,
    };
    let sound = app
        .world_mut()
        .resource_mut::<Sfx>()
        .add_sound("beep", beep, SoundSettings::default())
        .unwrap();
    app.world_mut().write_message(PlaySound {
        sound,
        params: PlayParams::default(),
    });
    crate::common::frames(&mut app, 20);
    let capture = app
        .world_mut()
        .resource_mut::<Sfx>()
        .stop_capture()
        .unwrap();
    let events = capture.events();
    assert!(
        events
            .iter()
            .any(|e| matches!(e.what, What::Play { outcome: Ok(_), .. }))
    );
    assert!(
        events
            .iter()
            .filter(|e| matches!(e.what, What::Update { .. }))
            .count()
            >= 20
    );
    assert!(
        events.iter().any(|e| matches!(e.what, What::Ended { .. })),
        "the beep ended"
    );
}

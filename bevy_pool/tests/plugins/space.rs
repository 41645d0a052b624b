//! The space of a level in Bevy: the plugin's mix setup declares buses, an
//! effect parameter and the pause snapshot, and routes the music to a bus;
//! `SoundZone` components are zones that move and go with their entities.
//! Measured in the recorded render.

use std::error::Error;

use bevy::ecs::message::Messages;
use bevy::prelude::*;
use bevy_pool::pool_audio::SoundEffects;
use bevy_pool::pool_audio::kira::effect::filter::FilterBuilder;
use bevy_pool::pool_audio::mix::MixError;
use bevy_pool::prelude::*;

use crate::common::{RATE, amplitude, app_of, frames, last, tone};

/// The world bus, with a low-pass the pause menu closes to 400 Hz, taking
/// the music and the `world` group.
fn world_mix(sfx: &mut SoundEffects, music: &mut MusicSettings) -> Result<(), Box<dyn Error>> {
    let mut world = BusBuilder::new();
    let mut filter = world.add_effect(FilterBuilder::new().cutoff(20_000.0).resonance(0.0));
    let world = sfx.mix_mut().add_bus("world", world)?;
    let cutoff =
        sfx.mix_mut()
            .add_param("cutoff", 20_000.0, 20.0..=20_000.0, move |hz, tween| {
                filter.set_cutoff(hz, tween);
            })?;
    let pause = Snapshot::new("pause")
        .set(world, -6.0)
        .set_param(cutoff, 400.0);
    sfx.mix_mut().add_snapshot(pause)?;
    for track in &mut music.tracks {
        track.bus = Some(world);
    }
    Ok(())
}

fn db(x: f32) -> f32 {
    20.0 * x.log10()
}

/// The pause menu in one message: the music, routed to the world bus by the
/// mix setup, is muffled as the filter's response at 4 kHz says and 6 dB
/// down, and comes back when the snapshot is released.
#[test]
fn the_pause_snapshot_of_the_mix_setup_muffles_the_music() {
    let mut app = app_of(SoundEffectsPlugin {
        mix: Some(world_mix),
        ..Default::default()
    });
    let music = app
        .world()
        .resource::<MusicTracks>()
        .track("music")
        .unwrap();
    app.world_mut().write_message(PlayMusic {
        track: music,
        source: MusicSource::encoded("tone", tone(4_000.0, 4)),
        params: MusicParams::default().looped(),
    });
    frames(&mut app, 30);
    let open = amplitude(&last(&app, 0.1), 4_000.0);
    assert!(open > 0.4, "the music plays: {open}");
    let pause = app
        .world()
        .resource::<Sfx>()
        .mix()
        .snapshot("pause")
        .unwrap();
    app.world_mut().write_message(ApplySnapshot {
        snapshot: pause,
        intensity: 1.0,
        tween: linear_fade(std::time::Duration::ZERO),
    });
    frames(&mut app, 30);
    let paused = db(amplitude(&last(&app, 0.1), 4_000.0) / open);
    let rate = f64::from(RATE);
    let w =
        (std::f64::consts::PI * 4_000.0 / rate).tan() / (std::f64::consts::PI * 400.0 / rate).tan();
    let expected = (20.0 * (1.0 / (1.0 + w * w)).log10() - 6.0) as f32;
    assert!(
        (paused - expected).abs() < 1.0,
        "paused {paused} dB, expected {expected}"
    );
    app.world_mut().write_message(ReleaseSnapshot {
        snapshot: pause,
        tween: linear_fade(std::time::Duration::ZERO),
    });
    frames(&mut app, 30);
    let back = db(amplitude(&last(&app, 0.1), 4_000.0) / open);
    assert!(back.abs() < 0.2, "back: {back} dB");
}

/// A muted bus for the voices' own output and a `wet` bus for zones.
fn zone_mix(sfx: &mut SoundEffects, _: &mut MusicSettings) -> Result<(), Box<dyn Error>> {
    let muted = sfx
        .mix_mut()
        .add_bus("muted", BusBuilder::new().volume(-60.0))?;
    sfx.mix_mut().add_bus("wet", BusBuilder::new())?;
    sfx.add_group("dry", GroupSettings::default().bus(muted))?;
    Ok(())
}

/// A zone that follows the listener sends every voice by the listener's
/// place: silent outside it, whole inside; it moves with its entity and goes
/// when the entity does.
#[test]
fn a_sound_zone_moves_and_goes_with_its_entity() {
    let mut app = app_of(SoundEffectsPlugin {
        mix: Some(zone_mix),
        ..Default::default()
    });
    let hum = {
        let mut sfx = app.world_mut().resource_mut::<Sfx>();
        let dry = sfx.group("dry").unwrap();
        let data = StaticSoundData {
            sample_rate: RATE,
            frames: vec![Frame::from_mono(0.5); 10 * RATE as usize].into(),
            settings: Default::default(),
            slice: None,
        };
        let settings = SoundSettings::default().first_volume(0.0).group(dry);
        sfx.add_sound("hum", data, settings).unwrap()
    };
    let listener = app
        .world_mut()
        .spawn((SoundListener, Transform::from_xyz(20.0, 0.0, 0.0)))
        .id();
    let zone = app
        .world_mut()
        .spawn((
            SoundZone::sphere("wet", 5.0)
                .fade(4.0)
                .follows_listener(true),
            Transform::default(),
        ))
        .id();
    app.world_mut().write_message(PlaySound {
        sound: hum,
        params: PlayParams::default(),
    });
    frames(&mut app, 10);
    let level = |app: &App| *last(app, 0.01).last().unwrap();
    assert_eq!(level(&app), 0.0, "the listener is outside");
    app.world_mut()
        .entity_mut(listener)
        .insert(Transform::from_xyz(1.0, 0.0, 0.0));
    frames(&mut app, 10);
    assert!((level(&app) - 0.5).abs() < 1e-3, "inside: {}", level(&app));
    // The zone moves: 3 m from its centre, still inside; then 7 m, 2 m out
    // of its edge: half faded.
    app.world_mut()
        .entity_mut(zone)
        .insert(Transform::from_xyz(4.0, 0.0, 0.0));
    frames(&mut app, 10);
    assert!((level(&app) - 0.5).abs() < 1e-3, "the zone moved over it");
    app.world_mut()
        .entity_mut(zone)
        .insert(Transform::from_xyz(8.0, 0.0, 0.0));
    frames(&mut app, 10);
    assert!(
        (level(&app) - 0.25).abs() < 1e-3,
        "half faded: {}",
        level(&app)
    );
    app.world_mut().entity_mut(zone).despawn();
    frames(&mut app, 10);
    assert_eq!(level(&app), 0.0, "the zone went with its entity");
}

/// A zone the mix cannot hold comes back as a message naming the entity.
#[test]
fn a_bad_sound_zone_is_a_message() {
    let mut app = app_of(SoundEffectsPlugin {
        mix: Some(zone_mix),
        ..Default::default()
    });
    let unknown = app.world_mut().spawn(SoundZone::sphere("nope", 5.0)).id();
    let empty = app.world_mut().spawn(SoundZone::sphere("wet", 0.0)).id();
    frames(&mut app, 1);
    let messages = app.world().resource::<Messages<ZoneRefused>>();
    let refused: Vec<_> = messages.iter_current_update_messages().cloned().collect();
    assert!(refused.contains(&ZoneRefused {
        entity: unknown,
        error: MixError::UnknownTrack("nope".into()),
    }));
    assert!(
        refused
            .iter()
            .any(|r| r.entity == empty && matches!(r.error, MixError::ZoneShape(_)))
    );
}

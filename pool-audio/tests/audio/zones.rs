//! Zones: a voice (or the listener) inside a zone sends to the zone's bus;
//! crossing the edge crossfades over the zone's fade distance, never a step.
//! Measured in the render, with each voice's own output on a muted bus so
//! what is heard is its zone send alone.

use pool_audio::mix::{BusBuilder, MAX_ZONES, MixError, ZoneSettings, ZoneShape};
use pool_audio::{PlayParams, SoundEffectsSettings, SoundSettings};

use super::common::{self, RATE};

/// A manager whose one sound's voices play a constant 0.5 into a muted bus,
/// a "wet" bus for zones, and the sound.
fn scene() -> (
    kira::AudioManager<pool_audio::OfflineBackend>,
    pool_audio::SoundEffects,
    pool_audio::mix::TrackId,
    pool_audio::SoundId,
) {
    let settings = SoundEffectsSettings {
        limiter: None,
        ..Default::default()
    };
    let (manager, mut sfx, _meter) = common::metered(RATE, settings);
    let (dry, wet) = common::dry_and_wet(&mut sfx);
    let settings = SoundSettings::default().first_volume(0.0).group(dry);
    let hum = sfx
        .add_sound("hum", common::constant(0.5, 10.0), settings)
        .unwrap();
    (manager, sfx, wet, hum)
}

const SPHERE: ZoneShape = ZoneShape::Sphere {
    center: [0.0, 0.0, 0.0],
    radius: 5.0,
};

/// The listener walks from 12 m out to the centre of a zone that follows the
/// listener, 10 cm a frame: every voice's send is silent beyond the fade (4
/// m), rises linearly over it and is whole inside, sample after sample with
/// no step; a voice far away (positioned, not spatialized) sends as the
/// listener's place says, not its own.
#[test]
fn walking_into_a_zone_crossfades_its_send() {
    let (mut manager, mut sfx, wet, hum) = scene();
    let zone = ZoneSettings::new(SPHERE, wet)
        .fade(4.0)
        .follows_listener(true);
    sfx.mix_mut().add_zone(zone).unwrap();
    let far = PlayParams::default()
        .position([100.0, 0.0, 0.0])
        .spatial_blend(0.0);
    sfx.play(hum, far).unwrap();
    let mut heard = Vec::new();
    let mut at_block_end = Vec::new();
    for step in 0..=120 {
        let x = 12.0 - 0.1 * step as f32;
        sfx.listener().set_position([x, 0.0, 0.0]).unwrap();
        sfx.update(0.01).unwrap();
        let block = common::render_left(&mut manager, 0.01);
        at_block_end.push((x, *block.last().unwrap()));
        heard.extend(block);
    }
    for (x, level) in &at_block_end {
        let expected = 0.5 * zone.weight([*x, 0.0, 0.0]);
        assert!(
            (level - expected).abs() < 2e-3,
            "at {x} m: {level} vs {expected}"
        );
    }
    assert!(
        heard.windows(2).all(|w| w[1] >= w[0] - 1e-6),
        "the send only rises"
    );
    assert!(
        heard.iter().take(480 * 20).all(|s| *s == 0.0),
        "silent beyond the fade"
    );
    // 2.5 cm of weight a frame, spread over the chunk that hears it.
    let step = common::largest_step(&heard);
    assert!(step < 0.5 * 0.025 / 100.0, "largest step {step}");
}

/// A zone that weighs each voice by its own place: a voice inside sends, a
/// voice outside does not, and a voice walking out fades with the fade
/// distance; removing the zone fades its send out within a 16-frame step.
#[test]
fn a_voice_sends_by_its_own_place_until_the_zone_goes() {
    let (mut manager, mut sfx, wet, hum) = scene();
    let shape = ZoneShape::Box {
        center: [20.0, 0.0, 0.0],
        half_extents: [5.0, 5.0, 5.0],
    };
    let zone = sfx
        .mix_mut()
        .add_zone(ZoneSettings::new(shape, wet).fade(2.0).level(-6.0))
        .unwrap();
    let inside = PlayParams::default()
        .position([18.0, 0.0, 0.0])
        .spatial_blend(0.0);
    let voice = sfx.play(hum, inside).unwrap();
    // Another sound outside (a copy of the same would share its budget).
    let group = sfx.group("dry").unwrap();
    let settings = SoundSettings::default().first_volume(0.0).group(group);
    let other = sfx
        .add_sound("other", common::constant(0.5, 10.0), settings)
        .unwrap();
    let outside = PlayParams::default()
        .position([0.0, 0.0, 0.0])
        .spatial_blend(0.0);
    sfx.play(other, outside).unwrap();
    sfx.update(0.01).unwrap();
    let level = |block: &[f32]| *block.last().unwrap();
    let half = 0.5 * 10f32.powf(-6.0 / 20.0);
    assert!((level(&common::render_left(&mut manager, 0.05)) - half).abs() < 1e-3);
    // 1 m past the edge (x = 26): half the send.
    sfx.voice(voice).set_position([26.0, 0.0, 0.0]).unwrap();
    sfx.update(0.01).unwrap();
    let out = common::render_left(&mut manager, 0.05);
    assert!((level(&out) - half * 0.5).abs() < 1e-3, "{}", level(&out));
    assert!(common::largest_step(&out) < half * 0.5 / 64.0);
    sfx.mix_mut().remove_zone(zone).unwrap();
    sfx.update(0.01).unwrap();
    let gone = common::render_left(&mut manager, 0.05);
    assert!(level(&gone).abs() < 1e-6);
    // From the last sample before, within one 16-frame step, by equal steps.
    let joined: Vec<f32> = std::iter::once(level(&out)).chain(gone).collect();
    assert!(common::largest_step(&joined) <= half * 0.5 / 16.0 * 1.01);
    // Its id is stale now.
    assert_eq!(sfx.mix_mut().remove_zone(zone), Err(MixError::Unknown));
}

/// A sound can stay out of zones (the interface): its voices never send.
#[test]
fn a_sound_out_of_zones_never_sends() {
    let (mut manager, mut sfx, wet, _hum) = scene();
    sfx.mix_mut()
        .add_zone(ZoneSettings::new(SPHERE, wet).follows_listener(true))
        .unwrap();
    let ui = sfx
        .add_sound(
            "ui",
            common::constant(0.5, 1.0),
            SoundSettings::default()
                .zones(false)
                .group(sfx.group("dry").unwrap()),
        )
        .unwrap();
    sfx.play(ui, PlayParams::default()).unwrap();
    sfx.update(0.01).unwrap();
    let out = common::render_left(&mut manager, 0.1);
    assert!(out.iter().all(|s| *s == 0.0));
}

/// Bad zones are typed errors that change nothing.
#[test]
fn bad_zones_are_refused() {
    let (_manager, mut sfx, wet, _hum) = scene();
    let bad_shapes = [
        ZoneShape::Sphere {
            center: [0.0; 3],
            radius: 0.0,
        },
        ZoneShape::Sphere {
            center: [f32::NAN, 0.0, 0.0],
            radius: 1.0,
        },
        ZoneShape::Box {
            center: [0.0; 3],
            half_extents: [1.0, -1.0, 1.0],
        },
        ZoneShape::Box {
            center: [0.0; 3],
            half_extents: [1.0, f32::INFINITY, 1.0],
        },
    ];
    for shape in bad_shapes {
        assert!(matches!(
            sfx.mix_mut().add_zone(ZoneSettings::new(shape, wet)),
            Err(MixError::ZoneShape(_))
        ));
    }
    for fade in [-1.0, f32::NAN, f32::INFINITY] {
        assert!(matches!(
            sfx.mix_mut()
                .add_zone(ZoneSettings::new(SPHERE, wet).fade(fade)),
            Err(MixError::ZoneFade(_))
        ));
    }
    assert!(matches!(
        sfx.mix_mut()
            .add_zone(ZoneSettings::new(SPHERE, wet).level(f32::NAN)),
        Err(MixError::Volume(_))
    ));
    let (_other_manager, mut other, _) = common::metered(RATE, SoundEffectsSettings::default());
    let foreign = other.mix_mut().add_bus("far", BusBuilder::new()).unwrap();
    assert_eq!(
        sfx.mix_mut().add_zone(ZoneSettings::new(SPHERE, foreign)),
        Err(MixError::ForeignTrack(foreign))
    );
    let zones: Vec<_> = (0..MAX_ZONES)
        .map(|_| {
            sfx.mix_mut()
                .add_zone(ZoneSettings::new(SPHERE, wet))
                .unwrap()
        })
        .collect();
    assert_eq!(
        sfx.mix_mut().add_zone(ZoneSettings::new(SPHERE, wet)),
        Err(MixError::TooManyZones)
    );
    // A bad change leaves the zone as it was; another manager's id is refused.
    assert!(
        sfx.mix_mut()
            .set_zone(zones[0], ZoneSettings::new(SPHERE, wet).fade(-1.0))
            .is_err()
    );
    let theirs = other
        .mix_mut()
        .add_zone(ZoneSettings::new(SPHERE, foreign))
        .unwrap();
    assert_eq!(
        sfx.mix_mut()
            .set_zone(theirs, ZoneSettings::new(SPHERE, wet)),
        Err(MixError::Unknown)
    );
}

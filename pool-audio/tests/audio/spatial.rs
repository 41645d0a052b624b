//! Positioned voices are heard as kira's own spatial tracks hear a sound: the same
//! distance curve and the same ears, measured channel by channel against a kira
//! spatial track rendered beside them (beyond the near field, 2 m from the
//! listener, inside which `spatial/near_field.rs` holds the gains). Plus what a spatial track cannot do: a
//! spatial blend of 0 that really plays the sound as if at the listener, and a
//! play's own panning on top of its position.

use kira::listener::ListenerHandle;
use kira::sound::static_sound::StaticSoundData;
use kira::track::{MainTrackBuilder, SpatialTrackBuilder, SpatialTrackDistances};
use kira::{AudioManager, AudioManagerSettings, Decibels, Tween};
use pool_audio::{
    OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings,
    dsp::MeterBuilder, dsp::MeterHandle, error::ParamError, offline::OfflineSettings,
    spatial::Distances,
};

use pool_audio::mint;

use crate::common::{self, RATE};

mod near_field;

/// A quiet mono tone: the limiter never acts on it.
fn tone() -> StaticSoundData {
    common::sine(440.0, 1.0).volume(Decibels(-12.0))
}

fn manager() -> (AudioManager<OfflineBackend>, MeterHandle) {
    let meter = MeterBuilder::new();
    let reading = meter.handle();
    let manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings {
        main_track_builder: MainTrackBuilder::new().with_effect(meter),
        backend_settings: OfflineSettings { sample_rate: RATE },
        ..Default::default()
    })
    .unwrap();
    (manager, reading)
}

/// The RMS level of each channel, in dB, over the last `seconds` of a render.
fn levels(samples: &[f32], seconds: f64) -> [f64; 2] {
    let frames = (seconds * f64::from(RATE)) as usize;
    let tail = &samples[samples.len() - 2 * frames..];
    [0, 1].map(|channel| {
        let power = tail
            .iter()
            .skip(channel)
            .step_by(2)
            .map(|s| f64::from(*s).powi(2))
            .sum::<f64>()
            / frames as f64;
        10.0 * power.log10()
    })
}

/// One play through pool-audio with the listener at `listener`, moved there
/// after 0.1 s: the channel levels over the last 0.2 s.
fn pool_audio(params: PlayParams, listener: [f32; 3]) -> [f64; 2] {
    pool_audio_turned(params, listener, IDENTITY)
}

/// No rotation: the head faces -z.
const IDENTITY: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

fn quaternion(q: [f32; 4]) -> mint::Quaternion<f32> {
    mint::Quaternion {
        v: mint::Vector3::from([q[0], q[1], q[2]]),
        s: q[3],
    }
}

/// A rotation of `degrees` about the unit `axis`, as `[x, y, z, w]`.
fn turn(axis: [f32; 3], degrees: f32) -> [f32; 4] {
    let (sin, cos) = (degrees.to_radians() / 2.0).sin_cos();
    [axis[0] * sin, axis[1] * sin, axis[2] * sin, cos]
}

/// [`pool_audio`] with the listener also turned to `orientation` after 0.1 s.
fn pool_audio_turned(params: PlayParams, listener: [f32; 3], orientation: [f32; 4]) -> [f64; 2] {
    pool_audio_with(params, listener, orientation, SoundSettings::default())
}

/// [`pool_audio_turned`] with the sound's `settings`.
fn pool_audio_with(
    params: PlayParams,
    listener: [f32; 3],
    orientation: [f32; 4],
    settings: SoundSettings,
) -> [f64; 2] {
    let (mut manager, _) = manager();
    let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
    let id = sfx.add_sound("tone", tone(), settings).unwrap();
    sfx.play(id, params).unwrap();
    manager.backend_mut().render(0.1).unwrap();
    sfx.listener().set_position(listener).unwrap();
    sfx.listener()
        .set_orientation(quaternion(orientation))
        .unwrap();
    sfx.update(0.1).unwrap();
    let audio = manager.backend_mut().render(0.25).unwrap();
    levels(audio.samples(), 0.2)
}

/// The same tone on kira's own spatial track at `position` (full spatialization
/// strength), its listener moved to `listener` after 0.1 s; or, for `None`, on
/// the main track.
fn kira_spatial(position: Option<[f32; 3]>, listener: [f32; 3]) -> [f64; 2] {
    kira_spatial_turned(position, listener, IDENTITY)
}

/// [`kira_spatial`] on a spatial track built from `builder`.
fn kira_spatial_built(
    position: [f32; 3],
    listener: [f32; 3],
    builder: SpatialTrackBuilder,
) -> [f64; 2] {
    kira_spatial_at(Some(position), listener, IDENTITY, builder)
}

/// [`kira_spatial`] with kira's listener also turned to `orientation`.
fn kira_spatial_turned(
    position: Option<[f32; 3]>,
    listener: [f32; 3],
    orientation: [f32; 4],
) -> [f64; 2] {
    kira_spatial_at(position, listener, orientation, SpatialTrackBuilder::new())
}

fn kira_spatial_at(
    position: Option<[f32; 3]>,
    listener: [f32; 3],
    orientation: [f32; 4],
    builder: SpatialTrackBuilder,
) -> [f64; 2] {
    let (mut manager, _) = manager();
    let mut ears: ListenerHandle = manager
        .add_listener(
            mint::Vector3::from([0.0; 3]),
            mint::Quaternion {
                v: mint::Vector3::from([0.0; 3]),
                s: 1.0,
            },
        )
        .unwrap();
    let _track = match position {
        Some(position) => {
            let mut track = manager
                .add_spatial_sub_track(
                    &ears,
                    mint::Vector3::from(position),
                    builder.spatialization_strength(1.0),
                )
                .unwrap();
            track.play(tone()).unwrap();
            Some(track)
        }
        None => {
            manager.play(tone()).unwrap();
            None
        }
    };
    manager.backend_mut().render(0.1).unwrap();
    ears.set_position(mint::Vector3::from(listener), Tween::default());
    ears.set_orientation(quaternion(orientation), Tween::default());
    let audio = manager.backend_mut().render(0.25).unwrap();
    levels(audio.samples(), 0.2)
}

/// Each channel's level relative to the unpositioned sound, in dB.
fn relative(levels: [f64; 2], reference: [f64; 2]) -> [f64; 2] {
    [levels[0] - reference[0], levels[1] - reference[1]]
}

const ORIGIN: [f32; 3] = [0.0; 3];

#[test]
fn a_positioned_voice_is_heard_channel_by_channel_as_kira_hears_a_spatial_track() {
    let ours_center = pool_audio(PlayParams::default(), ORIGIN);
    let kiras_center = kira_spatial(None, ORIGIN);
    for (position, listener) in [
        ([3.0, 0.0, 0.0], ORIGIN),
        ([-3.0, 0.0, 0.0], ORIGIN),
        ([0.0, 0.0, -5.0], ORIGIN),
        ([0.0, 0.0, 5.0], ORIGIN),
        ([2.0, 1.0, -2.0], ORIGIN),
        // Beyond the near field (2 m; inside it, see spatial/near_field.rs).
        ([0.0, 0.0, 2.5], ORIGIN),
        ([40.0, 0.0, 10.0], ORIGIN),
        ([-70.0, 0.0, -20.0], ORIGIN),
        // The listener walks up to a sound and past it.
        ([10.0, 0.0, 0.0], [8.0, 0.0, 0.0]),
        ([10.0, 0.0, 0.0], [14.0, 0.0, -1.0]),
    ] {
        let ours = relative(
            pool_audio(PlayParams::default().position(position), listener),
            ours_center,
        );
        let kiras = relative(kira_spatial(Some(position), listener), kiras_center);
        for channel in 0..2 {
            assert!(
                (ours[channel] - kiras[channel]).abs() < 0.05,
                "at {position:?} from {listener:?}, channel {channel}: {:.3} dB here, {:.3} dB in kira",
                ours[channel],
                kiras[channel]
            );
        }
        assert!(ours.iter().all(|db| *db <= 1e-3), "never louder: {ours:?}");
    }
}

#[test]
fn a_turned_listener_hears_as_kiras_turned_listener_hears() {
    let center = pool_audio(PlayParams::default(), ORIGIN);
    let kiras_center = kira_spatial(None, ORIGIN);
    for (position, orientation) in [
        // A quarter turn left about +y: a voice ahead (-z) is now on the right.
        ([0.0, 0.0, -5.0], turn([0.0, 1.0, 0.0], 90.0)),
        ([5.0, 0.0, 0.0], turn([0.0, 1.0, 0.0], 90.0)),
        // Turned around: left and right swap.
        ([-4.0, 0.0, -1.0], turn([0.0, 1.0, 0.0], 180.0)),
        ([3.0, 2.0, 1.0], turn([0.0, 1.0, 0.0], -37.0)),
        // Rolled and pitched, as a flight camera is.
        ([3.0, 0.0, 0.0], turn([0.0, 0.0, 1.0], 90.0)),
        ([2.0, 3.0, -4.0], turn([0.6, 0.0, 0.8], 50.0)),
    ] {
        let ours = relative(
            pool_audio_turned(
                PlayParams::default().position(position),
                ORIGIN,
                orientation,
            ),
            center,
        );
        let kiras = relative(
            kira_spatial_turned(Some(position), ORIGIN, orientation),
            kiras_center,
        );
        for channel in 0..2 {
            assert!(
                (ours[channel] - kiras[channel]).abs() < 0.05,
                "at {position:?} turned {orientation:?}, channel {channel}: {:.3} dB here, {:.3} dB in kira",
                ours[channel],
                kiras[channel]
            );
        }
    }
    // The quarter turn moves a voice ahead to the right: the right channel is
    // louder by more than 10 dB.
    let ahead = relative(
        pool_audio_turned(
            PlayParams::default().position([0.0, 0.0, -5.0]),
            ORIGIN,
            turn([0.0, 1.0, 0.0], 90.0),
        ),
        center,
    );
    assert!(ahead[1] - ahead[0] > 10.0, "{ahead:?}");
}

#[test]
fn an_orientation_that_is_not_a_rotation_is_refused_and_changes_nothing() {
    let (mut manager, _) = manager();
    let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
    for bad in [
        [0.0; 4],
        [f32::NAN, 0.0, 0.0, 1.0],
        [0.0, f32::INFINITY, 0.0, 1.0],
    ] {
        let error = sfx.listener().set_orientation(quaternion(bad)).unwrap_err();
        assert!(error.to_string().contains("not a rotation"), "{error}");
    }
    // A quaternion of any other length is a rotation: normalized, accepted.
    sfx.listener()
        .set_orientation(quaternion([0.0, 2.0, 0.0, 2.0]))
        .unwrap();
}

#[test]
fn beyond_the_maximum_distance_a_voice_is_silent() {
    let ours = pool_audio(
        PlayParams::default().position([60.0, 0.0, 0.0]),
        [-100.0, 0.0, 0.0],
    );
    assert!(ours.iter().all(|db| *db < -120.0), "{ours:?}");
}

#[test]
fn a_spatial_blend_of_zero_plays_the_sound_as_if_at_the_listener() {
    let center = pool_audio(PlayParams::default(), ORIGIN);
    let far = PlayParams::default().position([60.0, 0.0, 0.0]);
    let flat = relative(pool_audio(far.spatial_blend(0.0), ORIGIN), center);
    assert!(flat.iter().all(|db| db.abs() < 0.01), "{flat:?}");
    // Half way: each channel's gain is half the flat one plus half the spatial one.
    let spatial = relative(pool_audio(far, ORIGIN), center);
    let half = relative(pool_audio(far.spatial_blend(0.5), ORIGIN), center);
    for channel in 0..2 {
        let expected = 20.0 * (0.5 + 0.5 * 10f64.powf(spatial[channel] / 20.0)).log10();
        assert!(
            (half[channel] - expected).abs() < 0.05,
            "channel {channel}: {} dB, expected {expected} dB",
            half[channel]
        );
    }
}

#[test]
fn a_plays_own_panning_applies_on_top_of_its_position() {
    let center = pool_audio(PlayParams::default(), ORIGIN);
    let at = PlayParams::default().position([0.0, 0.0, -4.0]);
    let positioned = relative(pool_audio(at, ORIGIN), center);
    let panning = -0.5_f64;
    let panned = relative(pool_audio(at.panning(panning as f32), ORIGIN), center);
    // kira's pan law: sqrt of each side's share, times sqrt 2; the copy volume
    // is lowered by the louder channel's gain so a panned copy stays in budget.
    let mix = (panning + 1.0) / 2.0;
    let law = [(1.0 - mix).sqrt(), mix.sqrt()].map(|g| 20.0 * (g * 2f64.sqrt()).log10());
    let louder = law[0].max(law[1]);
    for channel in 0..2 {
        let expected = positioned[channel] + law[channel] - louder;
        assert!(
            (panned[channel] - expected).abs() < 0.05,
            "channel {channel}: {} dB, expected {expected} dB",
            panned[channel]
        );
    }
}

/// A positioned voice fading out over 0.6 s, with the listener set to the same
/// place every frame or never: the channel levels over 0.25..0.35 s.
fn fading(listener_every_frame: bool) -> [f64; 2] {
    let (mut manager, _) = manager();
    let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
    let id = sfx
        .add_sound("tone", tone(), SoundSettings::default())
        .unwrap();
    let voice = sfx
        .play(id, PlayParams::default().position([2.0, 0.0, -3.0]))
        .unwrap();
    let fade = pool_audio::linear_fade(std::time::Duration::from_millis(600));
    sfx.voice(voice)
        .set_volume(f32::NEG_INFINITY, fade)
        .unwrap();
    let mut samples = Vec::new();
    for _ in 0..21 {
        if listener_every_frame {
            sfx.listener().set_position(ORIGIN).unwrap();
        }
        sfx.update(1.0 / 60.0).unwrap();
        let audio = manager.backend_mut().render(1.0 / 60.0).unwrap();
        samples.extend_from_slice(audio.samples());
    }
    levels(&samples, 0.1)
}

#[test]
fn moving_the_listener_does_not_cut_a_volume_fade_short() {
    let still = fading(false);
    let moved = fading(true);
    for channel in 0..2 {
        assert!(still[channel] < -20.0, "the fade is under way: {still:?}");
        assert!(
            (still[channel] - moved[channel]).abs() < 0.5,
            "channel {channel}: {} dB with the listener set every frame, {} dB without",
            moved[channel],
            still[channel]
        );
    }
}

#[test]
fn an_endless_volume_fade_on_a_moving_voice_is_neither_a_panic_nor_nan() {
    let (mut manager, meter) = manager();
    let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
    let id = sfx
        .add_sound("tone", tone(), SoundSettings::default())
        .unwrap();
    let voice = sfx
        .play(id, PlayParams::default().position([2.0, 0.0, 0.0]))
        .unwrap();
    let endless = Tween {
        start_time: kira::StartTime::Delayed(std::time::Duration::MAX),
        duration: std::time::Duration::MAX,
        ..Default::default()
    };
    sfx.voice(voice).set_volume(-6.0206, endless).unwrap();
    sfx.listener().set_position([1.0, 0.0, 0.0]).unwrap();
    sfx.update(0.1).unwrap();
    manager.backend_mut().render(0.1).unwrap();
    assert_eq!(meter.non_finite_samples(), 0);
}

#[test]
fn a_plays_or_its_sounds_own_distances_and_curve_are_heard_as_kiras_track_with_them() {
    let ours_center = pool_audio(PlayParams::default(), ORIGIN);
    let kiras_center = kira_spatial(None, ORIGIN);
    for distances in [
        Distances {
            min: 2.0,
            max: 30.0,
            curve: kira::Easing::InPowi(2),
        },
        Distances {
            min: 0.5,
            max: 400.0,
            curve: kira::Easing::OutPowf(1.5),
        },
        Distances {
            min: 5.0,
            max: 20.0,
            curve: kira::Easing::Linear,
        },
    ] {
        let builder = || {
            SpatialTrackBuilder::new()
                .distances(SpatialTrackDistances {
                    min_distance: distances.min,
                    max_distance: distances.max,
                })
                .attenuation_function(distances.curve)
        };
        for position in [[3.0, 0.0, 0.0], [0.0, 0.0, -12.0], [-8.0, 0.0, 9.0]] {
            let kiras = relative(
                kira_spatial_built(position, ORIGIN, builder()),
                kiras_center,
            );
            let per_play = PlayParams::default()
                .position(position)
                .distances(distances);
            let per_sound = SoundSettings::default().distances(distances);
            for ours in [
                pool_audio(per_play, ORIGIN),
                pool_audio_with(
                    PlayParams::default().position(position),
                    ORIGIN,
                    IDENTITY,
                    per_sound,
                ),
            ] {
                let ours = relative(ours, ours_center);
                for channel in 0..2 {
                    assert!(
                        (ours[channel] - kiras[channel]).abs() < 0.05
                            || (ours[channel] < -100.0 && kiras[channel] < -100.0),
                        "{distances:?} at {position:?}, channel {channel}: {:.3} dB here, {:.3} dB in kira",
                        ours[channel],
                        kiras[channel]
                    );
                }
            }
        }
    }
    // Bad distances are refused, and the play is not started.
    let (mut manager, _) = manager();
    let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
    let id = sfx
        .add_sound("tone", tone(), SoundSettings::default())
        .unwrap();
    for bad in [
        Distances {
            min: 10.0,
            max: 10.0,
            ..Default::default()
        },
        Distances {
            min: -1.0,
            ..Default::default()
        },
        Distances {
            max: f32::INFINITY,
            ..Default::default()
        },
        Distances {
            curve: kira::Easing::InPowi(-2),
            ..Default::default()
        },
    ] {
        let played = sfx.play(
            id,
            PlayParams::default()
                .position([1.0, 0.0, 0.0])
                .distances(bad),
        );
        assert!(
            matches!(
                played,
                Err(pool_audio::PlayError::InvalidParam(ParamError::Distances(
                    _
                )))
            ),
            "{bad:?}"
        );
        assert!(matches!(
            SoundSettings::default().distances(bad).validate(),
            Err(pool_audio::error::SettingsError::Distances(_))
        ));
    }
    assert_eq!(sfx.stats().real_voices, 0);
    // 150 m away: past kira's 100 m, inaudible; within a play's own 400 m, heard.
    let far = PlayParams::default().position([150.0, 0.0, 0.0]);
    assert!(matches!(
        sfx.play(id, far),
        Err(pool_audio::PlayError::Inaudible)
    ));
    let wide = Distances {
        min: 1.0,
        max: 400.0,
        ..Default::default()
    };
    let voice = sfx.play(id, far.distances(wide)).unwrap();
    assert_eq!(sfx.state(voice), pool_audio::VoiceState::Real);
}

#[test]
fn a_flat_world_is_the_plane_z_0() {
    for (flat, listener) in [([3.0, 4.0], [0.0, 0.0]), ([-20.0, 7.5], [-5.0, 10.0])] {
        let ours_2d = {
            let (mut manager, _) = manager();
            let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
            let id = sfx
                .add_sound("tone", tone(), SoundSettings::default())
                .unwrap();
            let voice = sfx
                .play(id, PlayParams::default().position_2d([0.0, 0.0]))
                .unwrap();
            sfx.voice(voice).set_position_2d(flat).unwrap();
            sfx.listener().set_position_2d(listener).unwrap();
            sfx.update(0.1).unwrap();
            let audio = manager.backend_mut().render(0.25).unwrap();
            levels(audio.samples(), 0.2)
        };
        let ours_3d = pool_audio(
            PlayParams::default().position([flat[0], flat[1], 0.0]),
            [listener[0], listener[1], 0.0],
        );
        for channel in 0..2 {
            assert!(
                (ours_2d[channel] - ours_3d[channel]).abs() < 0.05,
                "{flat:?}: {ours_2d:?} against {ours_3d:?}"
            );
        }
        // A sound to the listener's right is louder on the right.
        if flat[0] > listener[0] {
            assert!(ours_2d[1] > ours_2d[0] + 1.0, "{ours_2d:?}");
        }
    }
}

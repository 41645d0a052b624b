//! Doppler, measured in the render: the pitch of a 440 Hz tone heard from a
//! passing car, from a listener driving towards it, from a listener driving
//! beside it, in 3-D and in a flat world; a teleport, a scale of 0 and a
//! velocity taken back shift nothing. Pitch is measured by
//! zero crossings (interpolated between samples) of the rendered mix. The
//! game updates every 10 ms, before each block the offline mixer renders.

use kira::{AudioManager, AudioManagerSettings};
use pool_audio::{
    OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundId, SoundSettings,
    VoiceError, VoiceHandle, error::SettingsError,
};

use crate::common::{self, BLOCK};

const RATE: f64 = common::RATE as f64;
const TONE: f64 = 440.0;
const C: f64 = 343.0;

struct Scene {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    tone: SoundId,
    /// Left plus right, every frame rendered.
    mix: Vec<f32>,
}

impl Scene {
    /// A looping 440 Hz tone whose sound has doppler `scale`; no limiter.
    fn new(scale: f64) -> Self {
        let mut manager =
            AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
        let settings = SoundEffectsSettings {
            limiter: None,
            ..Default::default()
        };
        let mut sfx = SoundEffects::new(&mut manager, settings).unwrap();
        let tone = common::sine(TONE as f32, 1.0).loop_region(..);
        let tone = sfx
            .add_sound("tone", tone, SoundSettings::default().doppler_scale(scale))
            .unwrap();
        Self {
            manager,
            sfx,
            tone,
            mix: Vec::new(),
        }
    }

    /// `seconds` of frames, `each` called before each update with the time.
    fn run(&mut self, seconds: f64, mut each: impl FnMut(&mut SoundEffects, f64)) {
        for _ in 0..(seconds / BLOCK).round() as usize {
            let t = self.mix.len() as f64 / RATE;
            each(&mut self.sfx, t);
            self.sfx.update(BLOCK).unwrap();
            let out = self.manager.backend_mut().render(BLOCK).unwrap();
            self.mix
                .extend(out.samples().chunks(2).map(|frame| frame[0] + frame[1]));
        }
    }

    /// A still voice 40 m ahead, given 30 m/s towards the listener.
    fn approaching_at_30(&mut self) -> VoiceHandle {
        let params = PlayParams::default()
            .position([0.0, 0.0, -40.0])
            .velocity([0.0, 0.0, 30.0]);
        self.sfx.play(self.tone, params).unwrap()
    }

    /// The frequency heard from `from` to `to` seconds.
    fn pitch(&self, from: f64, to: f64) -> f64 {
        common::frequency(
            &self.mix[(from * RATE) as usize..(to * RATE) as usize],
            RATE,
        )
    }
}

fn assert_near(heard: f64, expected: f64, tolerance: f64, what: &str) {
    let error = (heard / expected - 1.0).abs();
    assert!(
        error <= tolerance,
        "{what}: heard {heard:.2} Hz, expected {expected:.2} Hz ({:.3}% off)",
        error * 100.0
    );
}

/// A car at 30 m/s passing 2 m in front of the listener, from x = -60 m to
/// +60 m; its velocity `given` or derived from its moves.
fn passing(scale: f64, given: bool) -> Scene {
    let mut scene = Scene::new(scale);
    let at = |t: f64| [(-60.0 + 30.0 * t) as f32, 0.0, -2.0];
    let mut params = PlayParams::default().position(at(0.0));
    if given {
        params = params.velocity([30.0, 0.0, 0.0]);
    }
    let car = scene.sfx.play(scene.tone, params).unwrap();
    scene.run(4.0, |sfx, t| sfx.voice(car).set_position(at(t)).unwrap());
    scene
}

#[test]
fn a_passing_car_is_higher_approaching_and_lower_receding() {
    for given in [false, true] {
        let scene = passing(1.0, given);
        // x from -55 to -25 m: the car comes at nearly all its 30 m/s.
        let approaching = scene.pitch(0.17, 1.17);
        assert_near(approaching, TONE * C / (C - 30.0), 0.005, "approaching");
        // x from 25 to 55 m: it leaves at nearly all of it.
        let receding = scene.pitch(2.84, 3.84);
        assert_near(receding, TONE * C / (C + 30.0), 0.005, "receding");
        // Passing: in between, and moving on smoothly (no block a jump).
        let middle = scene.pitch(1.95, 2.05);
        assert!(middle < approaching && middle > receding, "given {given}");
    }
}

#[test]
fn a_scale_of_zero_is_no_doppler() {
    let scene = passing(0.0, false);
    assert_near(
        scene.pitch(0.17, 1.17),
        TONE,
        0.0005,
        "scale 0, approaching",
    );
    assert_near(scene.pitch(2.84, 3.84), TONE, 0.0005, "scale 0, receding");
}

#[test]
fn a_listener_driving_towards_a_still_source_hears_the_textbook_shift() {
    let mut scene = Scene::new(1.0);
    scene
        .sfx
        .play(
            scene.tone,
            PlayParams::default().position([0.0, 0.0, -80.0]),
        )
        .unwrap();
    // Towards it (-z) at 20 m/s, derived from the listener's moves.
    scene.run(2.0, |sfx, t| {
        sfx.listener()
            .set_position([0.0, 0.0, (-20.0 * t) as f32])
            .unwrap()
    });
    assert_near(
        scene.pitch(0.5, 1.5),
        TONE * (C + 20.0) / C,
        0.005,
        "listener approaching",
    );
}

#[test]
fn a_listener_moving_with_the_source_hears_it_unshifted() {
    let mut scene = Scene::new(1.0);
    // The source 20 m ahead along the road, both at 30 m/s along it.
    let source = |t: f64| [(20.0 + 30.0 * t) as f32, 0.0, -1.0];
    let voice = scene
        .sfx
        .play(scene.tone, PlayParams::default().position(source(0.0)))
        .unwrap();
    scene.run(2.0, |sfx, t| {
        sfx.voice(voice).set_position(source(t)).unwrap();
        sfx.listener()
            .set_position([(30.0 * t) as f32, 0.0, 0.0])
            .unwrap();
    });
    assert_near(scene.pitch(0.5, 1.5), TONE, 0.0005, "moving together");
}

#[test]
fn a_teleport_shifts_nothing() {
    let mut scene = Scene::new(1.0);
    let voice = scene
        .sfx
        .play(scene.tone, PlayParams::default().position([0.0, 0.0, -5.0]))
        .unwrap();
    // At 0.5 s it jumps 50 m away in one frame (5 km/s): a teleport.
    scene.run(1.5, |sfx, t| {
        let z = if t < 0.5 { -5.0 } else { -55.0 };
        sfx.voice(voice).set_position([0.0, 0.0, z]).unwrap();
    });
    assert_near(scene.pitch(0.1, 0.49), TONE, 0.0005, "before the jump");
    assert_near(scene.pitch(0.45, 0.6), TONE, 0.0005, "across the jump");
    assert_near(scene.pitch(0.6, 1.5), TONE, 0.0005, "after the jump");
}

/// A given velocity taken back: the still source, and the still listener,
/// are heard unshifted again from the next update.
#[test]
fn a_velocity_taken_back_is_derived_from_the_moves_again() {
    let mut scene = Scene::new(1.0);
    let voice = scene.approaching_at_30();
    scene
        .sfx
        .listener()
        .set_velocity([0.0, 0.0, -20.0])
        .unwrap();
    scene.run(1.0, |_, _| {});
    let both = TONE * (C + 20.0) / (C - 30.0);
    assert_near(scene.pitch(0.2, 0.9), both, 0.005, "both given");
    scene.sfx.voice(voice).derive_velocity().unwrap();
    scene.run(1.0, |_, _| {});
    let listener = TONE * (C + 20.0) / C;
    assert_near(
        scene.pitch(1.2, 1.9),
        listener,
        0.005,
        "the source's taken back",
    );
    scene.sfx.listener().derive_velocity();
    scene.run(1.0, |_, _| {});
    assert_near(scene.pitch(2.2, 2.9), TONE, 0.0005, "both taken back");
    scene.sfx.voice(voice).stop(Default::default()).unwrap();
    assert!(
        scene
            .sfx
            .voice(voice)
            .derive_velocity()
            .unwrap_err()
            .is_stale()
    );
}

/// A flat game gives velocities as it gives positions, `(x, y)`: the same
/// shifts as in 3-D, given and taken back.
#[test]
fn a_flat_game_gives_velocities_in_two_dimensions() {
    let mut scene = Scene::new(1.0);
    scene.sfx.listener().set_position_2d([0.0, 0.0]).unwrap();
    // 40 m up the screen, coming down at 30 m/s; the listener going up at 20.
    let voice = scene
        .sfx
        .play(
            scene.tone,
            PlayParams::default()
                .position_2d([0.0, 40.0])
                .velocity_2d([0.0, -30.0]),
        )
        .unwrap();
    scene.sfx.listener().set_velocity_2d([0.0, 20.0]).unwrap();
    scene.run(1.0, |_, _| {});
    let both = TONE * (C + 20.0) / (C - 30.0);
    assert_near(scene.pitch(0.2, 0.9), both, 0.005, "both given in 2-D");
    // The source now leaves at 30 m/s: the listener's 20 still towards it.
    scene.sfx.voice(voice).set_velocity_2d([0.0, 30.0]).unwrap();
    scene.run(1.0, |_, _| {});
    let leaving = TONE * (C + 20.0) / (C + 30.0);
    assert_near(scene.pitch(1.2, 1.9), leaving, 0.005, "the source leaving");
    scene.sfx.listener().set_velocity_2d([0.0, 0.0]).unwrap();
    scene.sfx.voice(voice).set_velocity_2d([30.0, 0.0]).unwrap();
    scene.run(1.0, |_, _| {});
    // Across the line to the listener: no part of it along that line.
    assert_near(scene.pitch(2.2, 2.9), TONE, 0.0005, "across");
}

#[test]
fn bad_velocities_and_settings_are_refused_and_change_nothing() {
    let mut scene = Scene::new(1.0);
    let voice: VoiceHandle = scene.approaching_at_30();
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        assert!(matches!(
            scene.sfx.voice(voice).set_velocity([0.0, bad, 0.0]),
            Err(VoiceError::InvalidParam(_))
        ));
        assert!(scene.sfx.voice(voice).set_velocity_2d([bad, 0.0]).is_err());
        assert!(scene.sfx.listener().set_velocity([bad, 0.0, 0.0]).is_err());
        assert!(scene.sfx.listener().set_velocity_2d([0.0, bad]).is_err());
        assert!(
            scene
                .sfx
                .play(scene.tone, PlayParams::default().velocity([bad, 0.0, 0.0]))
                .is_err()
        );
    }
    // Still the given 30 m/s towards the listener.
    scene.run(1.0, |_, _| {});
    assert_near(
        scene.pitch(0.2, 0.9),
        TONE * C / (C - 30.0),
        0.005,
        "after refusals",
    );
    for scale in [f64::NAN, -0.1, 5.1, f64::INFINITY] {
        assert!(matches!(
            SoundSettings::default().doppler_scale(scale).validate(),
            Err(SettingsError::DopplerScale(_))
        ));
    }
    for speed in [0.0, -343.0, f32::NAN, f32::INFINITY] {
        let settings = SoundEffectsSettings {
            speed_of_sound: speed,
            ..Default::default()
        };
        assert!(matches!(
            settings.validate(),
            Err(SettingsError::SpeedOfSound(_))
        ));
        let settings = SoundEffectsSettings {
            teleport_speed: speed,
            ..Default::default()
        };
        assert!(matches!(
            settings.validate(),
            Err(SettingsError::TeleportSpeed(_))
        ));
    }
}

//! Virtual voices: what happens when a game starts more sounds than it can mix.
//! Voices beyond the cap go virtual and come back by audibility; virtual ones
//! keep their playhead, end when their time is up, obey every per-voice call;
//! groups cap, steal and protect; the retrigger interval can apply within a
//! radius; and a resumed loop is where an unvirtualized one is.

use kira::sound::static_sound::StaticSoundData;
use kira::{AudioManager, AudioManagerSettings, Tween};
use pool_audio::{
    GroupSettings, OfflineBackend, PlayError, PlayParams, SoundEffects, SoundEffectsSettings,
    SoundId, SoundSettings, VoiceHandle, VoiceState, voices::Resume, voices::Stealing,
    voices::Virtualization,
};

use crate::common::{self, FRAME, at};

const VIRTUALIZE: Virtualization = Virtualization::Virtualize(Resume::FromElapsed);

struct Game {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
}

impl Game {
    fn new(settings: SoundEffectsSettings) -> Self {
        let mut manager =
            AudioManager::<OfflineBackend>::new(AudioManagerSettings::default()).unwrap();
        let sfx = SoundEffects::new(&mut manager, settings).unwrap();
        Self { manager, sfx }
    }

    fn capped(cap: usize) -> Self {
        Self::new(SoundEffectsSettings {
            voice_cap: cap,
            ..Default::default()
        })
    }

    fn frame(&mut self) {
        self.sfx.update(FRAME).unwrap();
        self.manager.backend_mut().render(FRAME).unwrap();
    }

    fn states(&self, voices: &[VoiceHandle]) -> Vec<VoiceState> {
        voices.iter().map(|v| self.sfx.state(*v)).collect()
    }
}

/// A loop at amplitude 0.1: its budget keeps every copy the tests play (16
/// at the default first volume), so each real copy is heard.
fn looped(seconds: f32) -> StaticSoundData {
    common::sine_at(0.1, 220.0, seconds).loop_region(..)
}

/// Twelve torches 10 m apart; four voices.
fn torches(game: &mut Game) -> (SoundId, Vec<VoiceHandle>) {
    let torch = game
        .sfx
        .add_sound(
            "torch",
            looped(1.0),
            SoundSettings::default()
                .max_voices(16)
                .virtualization(VIRTUALIZE),
        )
        .unwrap();
    let voices = (0..12)
        .map(|i| game.sfx.play(torch, at(5.0 + 10.0 * i as f32)).unwrap())
        .collect();
    (torch, voices)
}

#[test]
fn voices_beyond_the_cap_go_virtual_and_come_back_when_the_listener_walks_up() {
    let mut game = Game::capped(4);
    let (_, voices) = torches(&mut game);
    game.frame();
    use VoiceState::{Real as R, Virtual as V};
    assert_eq!(game.states(&voices), [R, R, R, R, V, V, V, V, V, V, V, V]);
    let stats = game.sfx.stats();
    assert_eq!((stats.real_voices, stats.virtual_voices), (4, 8));

    // The listener walks to the far end: the four nearest there become real.
    game.sfx.listener().set_position([120.0, 0.0, 0.0]).unwrap();
    for _ in 0..3 {
        game.frame();
    }
    assert_eq!(game.states(&voices), [V, V, V, V, V, V, V, V, R, R, R, R]);
    let stats = game.sfx.stats();
    assert_eq!((stats.real_voices, stats.virtual_voices), (4, 8));
    assert!(stats.promoted >= 4 && stats.virtualized >= 4, "{stats:?}");
    assert!(
        voices.iter().all(|v| game.sfx.state(*v).is_live()),
        "nothing was lost"
    );
}

#[test]
fn within_the_margin_nothing_flaps() {
    let mut game = Game::capped(1);
    let torch = game
        .sfx
        .add_sound(
            "torch",
            looped(1.0),
            SoundSettings::default().virtualization(VIRTUALIZE),
        )
        .unwrap();
    let a = game.sfx.play(torch, at(10.0)).unwrap();
    let b = game.sfx.play(torch, at(12.0)).unwrap();
    assert_eq!(
        game.states(&[a, b]),
        [VoiceState::Real, VoiceState::Virtual]
    );
    // b is now 1.2 dB nearer than a: within the 3 dB margin, a stays real.
    game.sfx.voice(b).set_position([8.0, 0.0, 0.0]).unwrap();
    game.frame();
    assert_eq!(
        game.states(&[a, b]),
        [VoiceState::Real, VoiceState::Virtual]
    );
    // Much nearer: b takes the voice.
    game.sfx.voice(b).set_position([1.0, 0.0, 0.0]).unwrap();
    game.frame();
    assert_eq!(
        game.states(&[a, b]),
        [VoiceState::Virtual, VoiceState::Real]
    );
}

#[test]
fn a_virtual_one_shot_ends_when_its_time_is_up_and_a_loop_lives_on() {
    let mut game = Game::capped(1);
    let settings = SoundSettings::default().virtualization(VIRTUALIZE);
    let shot = game
        .sfx
        .add_sound("shot", common::sine(220.0, 0.5), settings)
        .unwrap();
    let hum = game.sfx.add_sound("hum", looped(0.5), settings).unwrap();
    let near = game.sfx.play(hum, at(1.0)).unwrap();
    let far_shot = game.sfx.play(shot, at(30.0)).unwrap();
    let far_hum = game.sfx.play(hum, at(30.0)).unwrap();
    assert_eq!(
        game.states(&[near, far_shot, far_hum]),
        [VoiceState::Real, VoiceState::Virtual, VoiceState::Virtual]
    );
    for _ in 0..24 {
        game.frame(); // 0.4 s
    }
    assert!(game.sfx.state(far_shot).is_live());
    for _ in 0..8 {
        game.frame(); // 0.53 s
    }
    assert!(
        !game.sfx.state(far_shot).is_live(),
        "the one-shot's time is up"
    );
    assert_eq!(game.sfx.stats().ended_virtual, 1);
    for _ in 0..300 {
        game.frame(); // 5 s: the loop wraps ten times
    }
    assert_eq!(game.sfx.state(far_hum), VoiceState::Virtual);
    // A faster playback rate ends a one-shot sooner: 0.5 s at rate 2 is 0.25 s.
    let fast = game.sfx.play(shot, at(30.0).playback_rate(2.0)).unwrap();
    for _ in 0..16 {
        game.frame();
    }
    assert!(!game.sfx.state(fast).is_live());
}

#[test]
fn every_per_voice_operation_works_on_a_virtual_voice() {
    let mut game = Game::capped(1);
    let hum = game
        .sfx
        .add_sound(
            "hum",
            looped(0.5),
            SoundSettings::default().virtualization(VIRTUALIZE),
        )
        .unwrap();
    let near = game.sfx.play(hum, at(20.0)).unwrap();
    let far = game.sfx.play(hum, at(50.0)).unwrap();
    assert_eq!(game.sfx.state(far), VoiceState::Virtual);
    // Another manager knows nothing of it, virtual or not.
    let mut other = Game::capped(1);
    assert_eq!(other.sfx.state(far), VoiceState::Gone);
    assert!(other.sfx.voice(far).stop(Tween::default()).is_err());
    assert!(other.sfx.voice(far).set_position([0.0, 0.0, 0.0]).is_err());
    game.sfx
        .voice(far)
        .set_volume(-6.0206, Tween::default())
        .unwrap();
    assert!(
        game.sfx
            .voice(far)
            .set_volume(f32::NAN, Tween::default())
            .is_err()
    );
    assert!(
        game.sfx
            .voice(far)
            .set_position([f32::NAN, 0.0, 0.0])
            .is_err()
    );
    game.sfx.voice(far).pause(Tween::default()).unwrap();
    assert_eq!(game.sfx.state(far), VoiceState::Paused);
    // A paused voice is never made real, even next to the listener.
    game.sfx.voice(far).set_position([0.0, 0.0, 0.0]).unwrap();
    game.sfx
        .voice(far)
        .set_volume(0.0, Tween::default())
        .unwrap();
    game.frame();
    assert_eq!(
        game.states(&[near, far]),
        [VoiceState::Real, VoiceState::Paused]
    );
    game.sfx.voice(far).resume(Tween::default()).unwrap();
    game.frame();
    assert_eq!(
        game.states(&[near, far]),
        [VoiceState::Virtual, VoiceState::Real]
    );
    game.sfx.voice(near).stop(Tween::default()).unwrap();
    assert_eq!(game.sfx.state(near), VoiceState::Gone);
    assert!(game.sfx.voice(near).stop(Tween::default()).is_err());
    game.sfx.stop_all(Tween::default()).unwrap();
    let stats = game.sfx.stats();
    assert_eq!((stats.real_voices, stats.virtual_voices), (0, 0));
}

#[test]
fn under_the_floor_a_virtualizing_play_is_virtual_and_a_killing_one_refused() {
    let mut game = Game::capped(4);
    let hum = game
        .sfx
        .add_sound(
            "hum",
            looped(0.5),
            SoundSettings::default().virtualization(VIRTUALIZE),
        )
        .unwrap();
    let bang = game
        .sfx
        .add_sound("bang", common::sine(220.0, 0.5), SoundSettings::default())
        .unwrap();
    // 150 m: kira's spatial curve is silent from 100 m on.
    let played = game.sfx.play_detailed(hum, at(150.0)).unwrap();
    assert_eq!(played.state, VoiceState::Virtual);
    assert_eq!(game.sfx.play(bang, at(150.0)), Err(PlayError::Inaudible));
    // Walking up makes it real; walking away sends it back.
    game.sfx.listener().set_position([140.0, 0.0, 0.0]).unwrap();
    game.frame();
    assert_eq!(game.sfx.state(played.voice), VoiceState::Real);
    game.sfx.listener().set_position([0.0, 0.0, 0.0]).unwrap();
    game.frame();
    assert_eq!(game.sfx.state(played.voice), VoiceState::Virtual);
}

#[test]
fn killing_sounds_keep_the_stealing_policies_and_report_what_they_displaced() {
    let mut game = Game::new(SoundEffectsSettings {
        voice_cap: 2,
        stealing: Stealing::Oldest,
        ..Default::default()
    });
    let hum = game
        .sfx
        .add_sound(
            "hum",
            looped(0.5),
            SoundSettings::default().virtualization(VIRTUALIZE),
        )
        .unwrap();
    let bang = game
        .sfx
        .add_sound(
            "bang",
            common::sine_at(0.1, 220.0, 0.5),
            SoundSettings::default(),
        )
        .unwrap();
    let oldest = game.sfx.play(hum, PlayParams::default()).unwrap();
    game.frame();
    let second = game.sfx.play(bang, PlayParams::default()).unwrap();
    game.frame();
    // The oldest voice is stolen; its sound virtualizes, so it goes virtual.
    let third = game.sfx.play_detailed(bang, PlayParams::default()).unwrap();
    assert_eq!(third.state, VoiceState::Real);
    assert_eq!(third.displaced, Some((oldest, VoiceState::Virtual)));
    game.frame();
    // Now the oldest real voice is a killing one: it is stopped.
    let fourth = game.sfx.play_detailed(bang, PlayParams::default()).unwrap();
    assert_eq!(fourth.displaced, Some((second, VoiceState::Gone)));
    assert_eq!(game.sfx.stats().stolen_voices, 1);
}

#[test]
fn the_virtual_voices_have_their_own_cap() {
    let mut game = Game::new(SoundEffectsSettings {
        voice_cap: 1,
        virtual_voices: 2,
        ..Default::default()
    });
    let hum = game
        .sfx
        .add_sound(
            "hum",
            looped(0.5),
            SoundSettings::default().virtualization(VIRTUALIZE),
        )
        .unwrap();
    let real = game.sfx.play(hum, at(1.0)).unwrap();
    let far = game.sfx.play(hum, at(60.0)).unwrap();
    let mid = game.sfx.play(hum, at(30.0)).unwrap();
    // A third virtual voice: the least audible virtual one gives its record up.
    let played = game.sfx.play_detailed(hum, at(40.0)).unwrap();
    assert_eq!(played.state, VoiceState::Virtual);
    assert_eq!(played.displaced, Some((far, VoiceState::Gone)));
    assert_eq!(
        game.states(&[real, far, mid]),
        [VoiceState::Real, VoiceState::Gone, VoiceState::Virtual]
    );
    assert_eq!(game.sfx.stats().dropped_virtual, 1);
}

#[test]
fn groups_cap_steal_within_and_protect_their_voices() {
    let mut game = Game::new(SoundEffectsSettings {
        voice_cap: 4,
        ..Default::default()
    });
    let barks = game
        .sfx
        .add_group(
            "barks",
            GroupSettings::default()
                .max_voices(2)
                .stealing(Stealing::Strict),
        )
        .unwrap();
    let steps = game
        .sfx
        .add_group(
            "steps",
            GroupSettings::default()
                .max_voices(2)
                .stealing(Stealing::Oldest),
        )
        .unwrap();
    let ui = game
        .sfx
        .add_group("ui", GroupSettings::default().max_voices(4).protected(true))
        .unwrap();
    let tone = common::sine_at(0.1, 220.0, 2.0);
    let sound = |game: &mut Game, name: &str, group| {
        game.sfx
            .add_sound(name, tone.clone(), SoundSettings::default().group(group))
            .unwrap()
    };
    let (bark, step, click) = (
        sound(&mut game, "bark", barks),
        sound(&mut game, "step", steps),
        sound(&mut game, "click", ui),
    );
    game.sfx.play(bark, PlayParams::default()).unwrap();
    game.sfx.play(bark, PlayParams::default()).unwrap();
    assert_eq!(
        game.sfx.play(bark, PlayParams::default()),
        Err(PlayError::GroupCap)
    );
    let first_step = game.sfx.play(step, PlayParams::default()).unwrap();
    game.frame();
    game.sfx.play(step, PlayParams::default()).unwrap();
    game.frame();
    // The steps group is full: its own oldest step gives way, nothing else.
    let played = game.sfx.play_detailed(step, PlayParams::default()).unwrap();
    assert_eq!(played.displaced, Some((first_step, VoiceState::Gone)));
    // The global cap (4) is full of barks and steps: a UI click steals one.
    assert!(game.sfx.play(click, PlayParams::default()).is_ok());
    game.frame();
    // Now fill the UI: its voices are never stolen by the other groups.
    for _ in 0..3 {
        game.sfx.play(click, PlayParams::default()).unwrap();
        game.frame();
    }
    assert_eq!(game.sfx.group_stats(ui).unwrap().real_voices, 4);
    assert_eq!(
        game.sfx.play(step, PlayParams::default()),
        Err(PlayError::VoiceCap)
    );
    assert_eq!(game.sfx.group_stats(ui).unwrap().real_voices, 4);
    let stats = game.sfx.group_stats(barks).unwrap();
    assert_eq!((stats.plays, stats.refused), (2, 1));
    let stats = game.sfx.group_stats(steps).unwrap();
    assert_eq!((stats.plays, stats.refused, stats.real_voices), (3, 1, 0));
    assert!(stats.stolen >= 2, "{stats:?}");
    // Another manager's group is unknown here.
    let mut other = Game::capped(1);
    let foreign = other
        .sfx
        .add_group("barks", GroupSettings::default())
        .unwrap();
    assert!(game.sfx.group_stats(foreign).is_none());
    assert!(
        game.sfx
            .add_sound("x", tone, SoundSettings::default().group(foreign))
            .is_err()
    );
}

#[test]
fn the_retrigger_interval_can_apply_within_a_radius_only() {
    let mut game = Game::capped(8);
    let gunshot = game
        .sfx
        .add_sound(
            "gunshot",
            common::sine(220.0, 0.2),
            SoundSettings::default()
                .min_retrigger(std::time::Duration::from_secs_f64(0.5))
                .retrigger_radius(10.0),
        )
        .unwrap();
    assert!(game.sfx.play(gunshot, at(0.0)).is_ok());
    assert_eq!(game.sfx.play(gunshot, at(3.0)), Err(PlayError::Retrigger));
    assert!(
        game.sfx.play(gunshot, at(50.0)).is_ok(),
        "the other end of the map"
    );
    assert_eq!(game.sfx.play(gunshot, at(1.0)), Err(PlayError::Retrigger));
    assert_eq!(game.sfx.play(gunshot, at(52.0)), Err(PlayError::Retrigger));
    for _ in 0..31 {
        game.frame();
    }
    assert!(
        game.sfx.play(gunshot, at(1.0)).is_ok(),
        "the interval is over"
    );
}

/// The ramp's loop length: the alarm's half second is not a whole number of loops.
const LOOP: f64 = 0.8;

/// Renders `seconds` of a game that plays the ramp at 0 and, if `interrupt`, a
/// higher-priority sound from 1 s to 1.5 s that takes the only voice.
fn ramp_render(interrupt: bool, resume: Resume) -> Vec<f32> {
    let mut game = Game::new(SoundEffectsSettings {
        voice_cap: 1,
        limiter: None,
        ..Default::default()
    });
    let settings = SoundSettings::default()
        .max_voices(1)
        .first_volume(-6.0206)
        .virtualization(Virtualization::Virtualize(resume));
    let ramp = game
        .sfx
        .add_sound(
            "ramp",
            common::ramp((LOOP * f64::from(common::RATE)) as usize),
            settings,
        )
        .unwrap();
    let voice = game.sfx.play(ramp, PlayParams::default()).unwrap();
    let alarm = game
        .sfx
        .add_sound(
            "alarm",
            common::sine(330.0, 1.0),
            SoundSettings::default().priority(1),
        )
        .unwrap();
    let mut out = Vec::new();
    for frame in 0..180 {
        if interrupt && frame == 60 {
            let played = game
                .sfx
                .play_detailed(alarm, PlayParams::default())
                .unwrap();
            assert_eq!(played.displaced, Some((voice, VoiceState::Virtual)));
        }
        if interrupt && frame == 90 {
            game.sfx.stop_sound(alarm, Tween::default()).unwrap();
        }
        // Render, then update: the game clock and the audio clock agree.
        let rendered = game.manager.backend_mut().render(FRAME).unwrap();
        out.extend(rendered.samples().iter().step_by(2)); // left channel
        game.sfx.update(FRAME).unwrap();
    }
    assert!(game.sfx.state(voice).is_live());
    out
}

/// Where the ramp's playhead is in the output at `sample`, in its loop (seconds).
fn ramp_position(out: &[f32], sample: usize, amplitude: f32) -> f64 {
    f64::from(out[sample] / amplitude + 0.5) * LOOP
}

#[test]
fn a_resumed_loop_is_within_one_audio_block_of_an_unvirtualized_one() {
    let reference = ramp_render(false, Resume::FromElapsed);
    let resumed = ramp_render(true, Resume::FromElapsed);
    let restarted = ramp_render(true, Resume::FromStart);
    // The ramp's amplitude as played: half its peak-to-peak in the reference.
    let window = &reference[..48_000];
    let amplitude = window.iter().fold(0.0f32, |m, s| m.max(s.abs())) / 0.5;
    // Compare at 2.0 s to 2.9 s: the alarm is long gone, the fade-in over.
    let (mut worst, mut compared): (f64, usize) = (0.0, 0);
    for sample in (96_000..139_000).step_by(997) {
        let expected = ramp_position(&reference, sample, amplitude);
        let got = ramp_position(&resumed, sample, amplitude);
        // Distance on the loop (it wraps every `LOOP` seconds).
        let d = (expected - got).rem_euclid(LOOP);
        let d = d.min(LOOP - d);
        // Samples right at the wrap read as either end: skip them.
        if expected > 0.01 && expected < LOOP - 0.01 {
            worst = worst.max(d);
            compared += 1;
        }
    }
    assert!(compared > 30, "only {compared} points compared");
    // One audio block is the promise (~10 ms); offline the clocks agree exactly.
    assert!(
        worst <= 0.001,
        "the resumed loop is {:.1} ms from the reference",
        worst * 1000.0
    );
    // Restarting from the start is measurably elsewhere.
    let sample = 120_000;
    let expected = ramp_position(&reference, sample, amplitude);
    let got = ramp_position(&restarted, sample, amplitude);
    let d = (expected - got).rem_euclid(LOOP);
    assert!(d.min(LOOP - d) > 0.05, "restart is not resume: {d}");
}

mod model {
    //! After every update, the real voices are the most audible ones within the
    //! hysteresis margin: checked against a model that knows only the documented
    //! rule (priority first, then first-copy volume times play volume times kira's
    //! distance curve times the occlusion curve's volume, and a 3 dB margin). A
    //! step of the model is three frames:
    //! kira lets go of a stopped sound's slot one render after it has faded out,
    //! so after a burst of plays a promotion can wait two frames for room.
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Clone)]
    enum Op {
        /// Play sound `s` (0: priority 0, 1: priority 1) at x, with volume v/10.
        Play(usize, i16, u8),
        Move(usize, i16),
        /// Occlude voice `i` by `a`/2 (0, a half, all).
        Occlude(usize, u8),
        Listener(i16),
        Stop(usize),
        /// Remove sound `s` (its voices end) and add it again: a new id.
        Replace(usize),
        Frame,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => (0..2usize, -150..150i16, 1..=10u8).prop_map(|(s, x, v)| Op::Play(s, x, v)),
            3 => (any::<usize>(), -150..150i16).prop_map(|(i, x)| Op::Move(i, x)),
            2 => (any::<usize>(), 0..=2u8).prop_map(|(i, a)| Op::Occlude(i, a)),
            1 => (-150..150i16).prop_map(Op::Listener),
            1 => any::<usize>().prop_map(Op::Stop),
            1 => (0..2usize).prop_map(Op::Replace),
            4 => Just(Op::Frame),
        ]
    }

    /// kira's spatial curve, written out again from its documentation.
    fn gain(distance: f32) -> f32 {
        let relative = ((distance.clamp(1.0, 100.0)) - 1.0) / 99.0;
        if relative >= 1.0 {
            0.0
        } else {
            10f32.powf(-60.0 * relative / 20.0)
        }
    }

    struct Model {
        x: f32,
        volume: f32,
        sound: usize,
        /// Its occlusion, `0..=1`.
        occlusion: f32,
    }

    /// The default occlusion curve's volume, written out again from its
    /// documentation: -15 dB at 1, linear in dB.
    fn occluded(amount: f32) -> f32 {
        10f32.powf(-15.0 * amount / 20.0)
    }

    /// The game side of a model test: the live voices as the model sees them, and
    /// the listener.
    #[derive(Default)]
    struct World {
        voices: Vec<(VoiceHandle, Model)>,
        listener: f32,
        /// Each sound's settings, to add it again.
        settings: Vec<SoundSettings>,
    }

    impl World {
        /// Applies `op`; `true` for a step of three frames (kira frees a stopped
        /// sound's slot the render after it has faded out: after a burst of plays,
        /// a promotion may wait two frames for room on the track).
        fn apply(&mut self, game: &mut Game, sounds: &mut [SoundId], op: Op) -> bool {
            match op {
                Op::Play(s, x, v) => {
                    let volume = f32::from(v) / 10.0;
                    let voice = game
                        .sfx
                        .play(
                            sounds[s],
                            at(f32::from(x)).volume(common::db(f64::from(volume))),
                        )
                        .expect("a virtualizing sound is never refused");
                    self.voices.push((
                        voice,
                        Model {
                            x: f32::from(x),
                            volume,
                            sound: s,
                            occlusion: 0.0,
                        },
                    ));
                }
                Op::Move(i, x) if !self.voices.is_empty() => {
                    let n = self.voices.len();
                    let (voice, model) = &mut self.voices[i % n];
                    game.sfx
                        .voice(*voice)
                        .set_position([f32::from(x), 0.0, 0.0])
                        .unwrap();
                    model.x = f32::from(x);
                }
                Op::Occlude(i, a) if !self.voices.is_empty() => {
                    let n = self.voices.len();
                    let (voice, model) = &mut self.voices[i % n];
                    let amount = f32::from(a) / 2.0;
                    game.sfx.voice(*voice).set_occlusion(amount).unwrap();
                    model.occlusion = amount;
                }
                Op::Listener(x) => {
                    self.listener = f32::from(x);
                    game.sfx
                        .listener()
                        .set_position([self.listener, 0.0, 0.0])
                        .unwrap();
                }
                Op::Stop(i) if !self.voices.is_empty() => {
                    let (voice, _) = self.voices.remove(i % self.voices.len());
                    game.sfx.voice(voice).stop(Tween::default()).unwrap();
                }
                Op::Replace(s) => {
                    let name = game.sfx.sound_info(sounds[s]).name().unwrap().to_string();
                    let settings = self.settings[s];
                    game.sfx.remove_sound(sounds[s], Tween::default()).unwrap();
                    for (voice, model) in &self.voices {
                        assert!(model.sound != s || !game.sfx.state(*voice).is_live());
                    }
                    self.voices.retain(|(_, model)| model.sound != s);
                    sounds[s] = game.sfx.add_sound(&name, looped(0.5), settings).unwrap();
                }
                Op::Frame => {
                    for _ in 0..3 {
                        game.frame();
                    }
                    return true;
                }
                _ => {}
            }
            false
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        #[test]
        fn real_voices_are_the_most_audible_within_the_margin(
            cap in 1..6usize,
            ops in prop::collection::vec(op(), 1..150),
        ) {
            let mut game = Game::new(SoundEffectsSettings {
                voice_cap: cap,
                ..Default::default()
            });
            let settings: Vec<SoundSettings> = (0..2)
                .map(|i| SoundSettings::default().max_voices(16).first_volume(-10.4576).priority(i).virtualization(VIRTUALIZE))
                .collect();
            let mut sounds: Vec<SoundId> = settings.iter().enumerate()
                .map(|(i, settings)| game.sfx.add_sound(&format!("hum{i}"), looped(0.5), *settings).unwrap())
                .collect();
            let first = game.sfx.sound_info(sounds[0]).copy_volumes().unwrap().volume(0) as f32;
            let margin = 10f32.powf(3.0 / 20.0) * 1.0001;
            let mut world = World { settings, ..World::default() };
            for op in ops {
                if !world.apply(&mut game, &mut sounds, op) {
                    continue;
                }
                let (voices, listener) = (&world.voices, world.listener);
                let rank = |m: &Model| (m.sound, first * m.volume * gain((m.x - listener).abs()) * occluded(m.occlusion));
                let states: Vec<VoiceState> = voices.iter().map(|(v, _)| game.sfx.state(*v)).collect();
                let real: Vec<_> = voices.iter().zip(&states).filter(|(_, s)| **s == VoiceState::Real).map(|((_, m), _)| rank(m)).collect();
                let waiting: Vec<_> = voices.iter().zip(&states).filter(|(_, s)| **s == VoiceState::Virtual)
                    .map(|((_, m), _)| rank(m)).filter(|(_, level)| *level > 0.0 && 20.0 * level.log10() >= -60.0).collect();
                prop_assert!(real.len() <= cap);
                prop_assert!(states.iter().all(|s| matches!(s, VoiceState::Real | VoiceState::Virtual)), "{states:?}");
                for r in &real {
                    prop_assert!(r.1 > 0.0 && 20.0 * r.1.log10() >= -60.0 - 1e-3, "a real voice under the floor: {r:?}");
                }
                for v in &waiting {
                    for r in &real {
                        let beats = v.0 > r.0 || (v.0 == r.0 && v.1 > r.1 * margin);
                        prop_assert!(!beats, "virtual {v:?} beats real {r:?} (listener at {listener})");
                    }
                }
                if real.len() < cap {
                    prop_assert!(waiting.is_empty(), "room for {} more, yet {waiting:?} wait", cap - real.len());
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// With groups: sound 0 in group A (at most 2 real), sound 1 in group B (at
        /// most 3, protected), inside a voice cap of 4. A waiting virtual voice may
        /// replace only a voice of its own group when its group is full, and never
        /// one of another protected group; within those rules it does not beat any
        /// real voice it may replace, and it does not wait while there is room.
        #[test]
        fn groups_cap_and_protect_while_audibility_chooses(
            ops in prop::collection::vec(op(), 1..150),
        ) {
            const CAP: usize = 4;
            const GROUP_CAPS: [usize; 2] = [2, 3];
            let mut game = Game::new(SoundEffectsSettings {
                voice_cap: CAP,
                ..Default::default()
            });
            let a = game.sfx.add_group("a", GroupSettings::default().max_voices(GROUP_CAPS[0])).unwrap();
            let b = game.sfx.add_group("b", GroupSettings::default().max_voices(GROUP_CAPS[1]).protected(true)).unwrap();
            let settings: Vec<SoundSettings> = [a, b].iter()
                .map(|g| SoundSettings::default().max_voices(16).first_volume(-10.4576).group(*g).virtualization(VIRTUALIZE))
                .collect();
            let mut sounds: Vec<SoundId> = settings.iter().enumerate()
                .map(|(i, settings)| game.sfx.add_sound(&format!("hum{i}"), looped(0.5), *settings).unwrap())
                .collect();
            let first = game.sfx.sound_info(sounds[0]).copy_volumes().unwrap().volume(0) as f32;
            let margin = 10f32.powf(3.0 / 20.0) * 1.0001;
            let mut world = World { settings, ..World::default() };
            for op in ops {
                if !world.apply(&mut game, &mut sounds, op) {
                    continue;
                }
                let (voices, listener) = (&world.voices, world.listener);
                let level = |m: &Model| first * m.volume * gain((m.x - listener).abs()) * occluded(m.occlusion);
                let audible = |l: f32| l > 0.0 && 20.0 * l.log10() >= -60.0;
                let mut real = Vec::new();
                let mut waiting = Vec::new();
                for (voice, model) in voices {
                    match game.sfx.state(*voice) {
                        VoiceState::Real => real.push((model.sound, level(model))),
                        VoiceState::Virtual if audible(level(model)) => waiting.push((model.sound, level(model))),
                        VoiceState::Virtual => {}
                        other => prop_assert!(false, "unexpected {other:?}"),
                    }
                }
                let in_group = |g: usize| real.iter().filter(|(s, _)| *s == g).count();
                prop_assert!(real.len() <= CAP);
                prop_assert!(in_group(0) <= GROUP_CAPS[0] && in_group(1) <= GROUP_CAPS[1], "{real:?}");
                prop_assert_eq!(game.sfx.group_stats(a).unwrap().real_voices, in_group(0));
                prop_assert_eq!(game.sfx.group_stats(b).unwrap().real_voices, in_group(1));
                for (g, l) in &waiting {
                    let group_full = in_group(*g) >= GROUP_CAPS[*g];
                    let full = group_full || real.len() >= CAP;
                    prop_assert!(full, "room, yet group {g} at {l} waits: {real:?}");
                    for (rg, rl) in &real {
                        let may_replace = if group_full { rg == g } else { rg == g || *rg != 1 };
                        prop_assert!(!(may_replace && *l > rl * margin),
                            "virtual (group {g}, {l}) beats real (group {rg}, {rl})");
                    }
                }
            }
        }
    }
}

/// With the default settings, a looping sound whose voice loses its place to a
/// louder one goes virtual and keeps its handle, so the game's per-frame
/// `set_position(engine, ..)?` goes on working; a one-shot in the same place
/// ends. The loop comes back when the louder voice ends.
#[test]
fn by_default_a_stolen_loop_goes_virtual_and_a_stolen_one_shot_ends() {
    let mut game = Game::capped(1);
    let engine = game
        .sfx
        .add_sound("engine", looped(1.0), SoundSettings::default())
        .unwrap();
    let blip = game
        .sfx
        .add_sound("blip", common::sine(330.0, 1.0), SoundSettings::default())
        .unwrap();
    let shout = game
        .sfx
        .add_sound(
            "shout",
            common::sine(440.0, 0.2),
            SoundSettings::default().priority(10),
        )
        .unwrap();

    let car = game.sfx.play(engine, at(5.0)).unwrap();
    game.frame();
    game.sfx.play(shout, at(1.0)).unwrap();
    game.frame();
    assert_eq!(game.sfx.state(car), VoiceState::Virtual, "the loop waits");
    for step in 0..30 {
        game.sfx
            .voice(car)
            .set_position([5.0 + step as f32 * 0.1, 0.0, 0.0])
            .unwrap();
        game.frame();
    }
    assert_eq!(
        game.sfx.state(car),
        VoiceState::Real,
        "back once the shout ended"
    );

    let ping = game.sfx.play(blip, at(5.0)).unwrap();
    game.sfx.voice(car).stop(Tween::default()).unwrap();
    for _ in 0..3 {
        game.frame();
    }
    assert_eq!(game.sfx.state(ping), VoiceState::Real);
    game.sfx.play(shout, at(1.0)).unwrap();
    game.frame();
    assert_eq!(game.sfx.state(ping), VoiceState::Gone, "the one-shot ends");
    assert!(
        game.sfx
            .voice(ping)
            .set_position([0.0; 3])
            .unwrap_err()
            .is_stale()
    );
}

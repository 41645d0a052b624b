//! A capture records what the game did and what the manager decided: every
//! play with its outcome (the refusals the game received, with their
//! reasons), every end with the reason `ended()` gave, the calls on voices
//! and the listener, the updates; a full buffer keeps the beginning and
//! counts what it dropped; the file holds every event, one a line.

use pool_audio::capture::{ListenerCall, VoiceCall, VoiceNumber, What};
use pool_audio::{
    EndReason, PlayParams, SoundEffectsSettings, SoundSettings, kira::Tween, voices::WhenFull,
};

use super::common::{self, RATE};

#[test]
fn a_capture_agrees_with_the_plays_refusals_and_ends_the_game_saw() {
    let settings = SoundEffectsSettings {
        voice_cap: 4,
        ..Default::default()
    };
    let (mut manager, mut sfx, _meter) = common::metered(RATE, settings);
    let shot = sfx
        .add_sound(
            "shot",
            common::sine_at(0.2, 440.0, 0.05),
            SoundSettings::default()
                .max_voices(2)
                .when_full(WhenFull::Strict),
        )
        .unwrap();
    let hum = sfx
        .add_sound(
            "hum",
            common::sine_at(0.1, 220.0, 0.5).loop_region(..),
            SoundSettings::default(),
        )
        .unwrap();
    sfx.start_capture(10_000);
    let (mut plays, mut ended) = (Vec::new(), Vec::new());
    for frame in 0..120 {
        sfx.listener()
            .set_position([frame as f32 * 0.1, 0.0, 0.0])
            .unwrap();
        if frame % 5 == 0 {
            // Strict: the third shot at once is refused.
            for _ in 0..3 {
                plays.push(sfx.play(shot, PlayParams::default()));
            }
        }
        if frame % 30 == 0 {
            let at = PlayParams::default().position([frame as f32, 0.0, 0.0]);
            let voice = sfx.play(hum, at);
            if let Ok(voice) = voice {
                sfx.voice(voice).set_volume(-3.0, Tween::default()).unwrap();
            }
            plays.push(voice);
        }
        manager.backend_mut().render(1.0 / 60.0).unwrap();
        sfx.update(1.0 / 60.0).unwrap();
        ended.extend(sfx.ended().iter().map(|e| (e.voice, e.reason)));
    }
    let capture = sfx.stop_capture().unwrap();
    assert_eq!(capture.dropped(), 0);
    let events = capture.events();
    // Every play, in order, with the outcome the game got.
    let captured: Vec<_> = (events.iter())
        .filter_map(|e| match e.what {
            What::Play { outcome, .. } => Some(outcome),
            _ => None,
        })
        .collect();
    assert_eq!(captured.len(), plays.len());
    for (got, played) in captured.iter().zip(&plays) {
        match (got, played) {
            (Ok((number, _)), Ok(_)) => assert!(number.0 != 0),
            (Err(a), Err(b)) => assert_eq!(a, b, "the same reason"),
            other => panic!("{other:?}"),
        }
    }
    assert!(plays.iter().any(Result::is_err), "refusals happened");
    // Every end, with its reason: the same as `ended()` said.
    let ends: Vec<(VoiceNumber, EndReason)> = (events.iter())
        .filter_map(|e| match e.what {
            What::Ended { voice, reason } => Some((voice, reason)),
            _ => None,
        })
        .collect();
    assert_eq!(ends.len(), ended.len());
    assert!(ends.iter().zip(&ended).all(|((_, a), (_, b))| a == b));
    assert!(ends.iter().any(|(_, r)| *r == EndReason::Finished));
    // The calls, and the updates' time.
    let updates = events
        .iter()
        .filter(|e| matches!(e.what, What::Update { .. }))
        .count();
    assert_eq!(updates, 120);
    assert!(events.iter().any(|e| matches!(
        e.what,
        What::Voice {
            call: VoiceCall::Volume(..),
            ..
        }
    )));
    assert!(
        events
            .iter()
            .any(|e| matches!(e.what, What::Listener(ListenerCall::Position(_))))
    );
    // An update is stamped as it is called: before its own time step; the
    // audio rendered just before it.
    let last = events
        .iter()
        .rev()
        .find(|e| matches!(e.what, What::Update { .. }))
        .unwrap();
    assert!((last.time - 119.0 / 60.0).abs() < 1e-3, "{last:?}");
    assert!((last.rendered - 2.0).abs() < 1e-3, "{last:?}");
    // The file: a header and a line per event.
    let mut file = Vec::new();
    capture.write(&mut file).unwrap();
    let text = String::from_utf8(file).unwrap();
    assert_eq!(text.lines().count(), 2 + events.len());
    assert!(
        text.contains("-> refused sound_limit"),
        "a refusal and its reason"
    );
    assert!(text.contains("ended voice"));
}

#[test]
fn a_full_capture_keeps_the_beginning_and_counts_what_it_dropped() {
    let (mut manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    sfx.start_capture(50);
    for _ in 0..80 {
        manager.backend_mut().render(1.0 / 60.0).unwrap();
        sfx.update(1.0 / 60.0).unwrap();
    }
    let capture = sfx.stop_capture().unwrap();
    assert_eq!((capture.events().len(), capture.dropped()), (50, 30));
    assert!(
        (capture.events()[49].time - 49.0 / 60.0).abs() < 1e-3,
        "the first fifty"
    );
    let mut file = Vec::new();
    capture.write(&mut file).unwrap();
    assert!(
        String::from_utf8(file)
            .unwrap()
            .contains("events 50 dropped 30")
    );
    assert!(sfx.stop_capture().is_none(), "one capture at a time");
}

/// A manager set up for the scene: a voice cap, a strict shot, a hum, a
/// snapshot on the hum's group and a game parameter on its volume.
fn scene() -> (
    pool_audio::kira::AudioManager<pool_audio::OfflineBackend>,
    pool_audio::SoundEffects,
) {
    use pool_audio::game::{Curve, CurveTarget, GameParamSettings};
    let settings = SoundEffectsSettings {
        voice_cap: 4,
        seed: 11,
        ..Default::default()
    };
    let (manager, mut sfx, _meter) = common::metered(RATE, settings);
    let world = (sfx.mix_mut())
        .add_bus("world", pool_audio::mix::BusBuilder::new())
        .unwrap();
    let group = sfx
        .add_group("hums", pool_audio::GroupSettings::default().bus(world))
        .unwrap();
    sfx.mix_mut()
        .add_snapshot(pool_audio::mix::Snapshot::new("hush").set(group, -9.0))
        .unwrap();
    let rain = sfx
        .add_game_param("rain", GameParamSettings::new(0.0, 1.0))
        .unwrap();
    let down = Curve::new(rain, CurveTarget::Volume, &[(0.0, 0.0), (1.0, -6.0)]).unwrap();
    sfx.add_sound(
        "shot",
        [
            common::sine_at(0.2, 440.0, 0.05),
            common::sine_at(0.2, 550.0, 0.05),
        ],
        SoundSettings::default()
            .max_voices(2)
            .when_full(WhenFull::Strict)
            .pitch_semitones(-2.0, 2.0),
    )
    .unwrap();
    let hum = common::sine_at(0.1, 220.0, 0.5).loop_region(..);
    let settings = SoundSettings::default().group(group).curve(down);
    sfx.add_sound("hum", hum, settings).unwrap();
    let surface = sfx.add_switch("surface", &["grass", "stone"]).unwrap();
    let steps = pool_audio::sound::Recordings::new()
        .for_state("grass", common::sine_at(0.2, 300.0, 0.05), 1.0)
        .for_state("grass", common::sine_at(0.2, 320.0, 0.05), 1.0)
        .for_state("stone", common::sine_at(0.2, 700.0, 0.05), 1.0);
    let settings = SoundSettings::default().switch(surface).max_voices(4);
    sfx.add_sound("step", steps, settings).unwrap();
    (manager, sfx)
}

/// Two seconds of the scene, captured, with the audio it rendered; `louder`
/// changes one call.
fn session(louder: bool) -> (pool_audio::capture::Capture, Vec<f32>) {
    let (mut manager, mut sfx) = scene();
    let (shot, hum) = (sfx.sound("shot").unwrap(), sfx.sound("hum").unwrap());
    let (hush, rain) = (
        sfx.mix().snapshot("hush").unwrap(),
        sfx.game_param("rain").unwrap(),
    );
    let surface = sfx.switch("surface").unwrap();
    sfx.start_capture(20_000);
    let mut audio = Vec::new();
    for frame in 0..120 {
        sfx.listener()
            .set_position([frame as f32 * 0.2, 0.0, 0.0])
            .unwrap();
        if frame % 4 == 0 {
            for _ in 0..3 {
                let _ = sfx.play(shot, PlayParams::default().position([5.0, 0.0, -2.0]));
            }
        }
        if frame % 20 == 0 {
            let at = PlayParams::default().position([frame as f32 * 0.3, 0.0, 1.0]);
            if let Ok(voice) = sfx.play(hum, at) {
                let volume = if louder && frame == 40 { -1.0 } else { -4.0 };
                sfx.voice(voice)
                    .set_volume(volume, Tween::default())
                    .unwrap();
            }
        }
        if frame == 90 {
            let world = sfx.mix().track("world").unwrap();
            (sfx.mix_mut())
                .set_bus_volume(world, -5.0, Tween::default())
                .unwrap();
        }
        if frame == 60 {
            sfx.mix_mut()
                .apply_snapshot(hush, 1.0, Tween::default())
                .unwrap();
            sfx.set_game_param(rain, 0.5).unwrap();
            sfx.set_switch(surface, "stone").unwrap();
            sfx.reseed(5);
        }
        if frame % 10 == 5 {
            // A step on the switch's state, and one on grass whatever it is.
            let step = sfx.sound("step").unwrap();
            let _ = sfx.play(step, PlayParams::default());
            let grass = sfx.switch_state(surface, "grass").unwrap();
            if let Ok(voice) = sfx.play(step, PlayParams::default().state(grass)) {
                sfx.voice(voice).set_occlusion(0.5).unwrap();
            }
        }
        audio.extend(manager.backend_mut().render(1.0 / 60.0).unwrap().samples());
        sfx.update(1.0 / 60.0).unwrap();
    }
    (sfx.stop_capture().unwrap(), audio)
}

#[test]
fn a_capture_replayed_into_a_fresh_manager_renders_the_same_samples() {
    let (capture, heard) = session(false);
    let (mut manager, mut sfx) = scene();
    let replayed = capture.replay(&mut sfx, &mut manager).unwrap();
    assert_eq!(replayed.len(), heard.len());
    let differing = heard
        .iter()
        .zip(&replayed)
        .filter(|(a, b)| a.to_bits() != b.to_bits())
        .count();
    assert_eq!(differing, 0, "bit for bit");
    assert!(heard.iter().any(|s| s.abs() > 0.01), "it is heard");
    // A session with one call changed replays to its own samples, not these.
    let (changed, _) = session(true);
    let (mut manager, mut sfx) = scene();
    let other = changed.replay(&mut sfx, &mut manager).unwrap();
    assert!(
        other.iter().zip(&heard).any(|(a, b)| a != b),
        "a changed call is heard"
    );
    // A manager set up otherwise: the replay says where it went another way.
    let (mut manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let error = capture.replay(&mut sfx, &mut manager).unwrap_err();
    assert_eq!(
        error,
        pool_audio::capture::ReplayError::UnknownSound("shot".into())
    );
}

#[test]
fn a_capture_file_reads_back_to_the_same_events_and_replays_bit_for_bit() {
    use pool_audio::capture::Capture;
    let (capture, heard) = session(false);
    let mut file = Vec::new();
    capture.write(&mut file).unwrap();
    let text = String::from_utf8(file).unwrap();
    let read = Capture::read(&text).unwrap();
    assert_eq!(read.events().len(), capture.events().len());
    assert!(
        text.contains(" volume=-5 fade=0"),
        "the bus's fader: {text}"
    );
    let mut again = Vec::new();
    read.write(&mut again).unwrap();
    assert_eq!(String::from_utf8(again).unwrap(), text, "the same file");
    // Read in "another process": the same sounds, set up again.
    let (mut manager, mut sfx) = scene();
    let replayed = read.replay(&mut sfx, &mut manager).unwrap();
    assert_eq!(replayed.len(), heard.len());
    assert!(
        replayed
            .iter()
            .zip(&heard)
            .all(|(a, b)| a.to_bits() == b.to_bits()),
        "bit for bit"
    );
    // A line changed in the file is heard.
    let changed = text.replacen("volume=-4 fade=0", "volume=-1 fade=0", 1);
    assert_ne!(changed, text);
    let (mut manager, mut sfx) = scene();
    let other = (Capture::read(&changed).unwrap())
        .replay(&mut sfx, &mut manager)
        .unwrap();
    assert!(other.iter().zip(&heard).any(|(a, b)| a != b));
}

#[test]
fn a_broken_capture_file_says_which_line_and_what() {
    use pool_audio::capture::Capture;
    let (capture, _) = session(false);
    let mut file = Vec::new();
    capture.write(&mut file).unwrap();
    let text = String::from_utf8(file).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let broken = |lines: &[&str]| Capture::read(&lines.join("\n")).unwrap_err();
    assert_eq!(broken(&lines[1..]).line, 1, "no header");
    let play = lines.iter().position(|l| l.contains(" play ")).unwrap();
    let saved = lines[play];
    let bad = saved.replace("position=", "posture=");
    lines[play] = &bad;
    let error = broken(&lines);
    assert_eq!(error.line, play + 1);
    assert!(error.problem.contains("posture"), "{error}");
    let clock = saved.replace(" ->", " delay=clock ->");
    lines[play] = &clock;
    assert!(broken(&lines).problem.contains("clock"));
    let cut = &saved[..saved.len() - 6];
    lines[play] = cut;
    assert_eq!(broken(&lines).line, play + 1, "a line cut short");
    lines[play] = "0 0 explode";
    assert!(broken(&lines).problem.contains("explode"));
}

#[test]
fn the_capture_notes_each_voice_made_virtual_or_real_as_the_game_sees_it() {
    use pool_audio::VoiceState;
    let settings = SoundEffectsSettings {
        voice_cap: 3,
        ..Default::default()
    };
    let (mut manager, mut sfx, _meter) = common::metered(RATE, settings);
    let hum = common::sine_at(0.1, 220.0, 0.5).loop_region(..);
    let hum = sfx.add_sound("hum", hum, SoundSettings::default()).unwrap();
    sfx.start_capture(10_000);
    let mut voices = Vec::new();
    for i in 0..6 {
        let at = PlayParams::default().position([i as f32 * 10.0, 0.0, 0.0]);
        voices.push(sfx.play(hum, at).unwrap());
    }
    // The game's view: each voice's state after each update, as it changes.
    let mut seen: Vec<Vec<bool>> = vec![Vec::new(); voices.len()];
    for frame in 0..180 {
        // The listener walks along the row and back.
        let x = 60.0 * (1.0 - ((frame as f32 / 90.0) - 1.0).abs());
        sfx.listener().set_position([x, 0.0, 0.0]).unwrap();
        manager.backend_mut().render(1.0 / 60.0).unwrap();
        sfx.update(1.0 / 60.0).unwrap();
        for (voice, seen) in voices.iter().zip(&mut seen) {
            let real = match sfx.state(*voice) {
                VoiceState::Virtual => false,
                VoiceState::Real => true,
                _ => continue,
            };
            if seen.last() != Some(&real) {
                seen.push(real);
            }
        }
    }
    let capture = sfx.stop_capture().unwrap();
    let events = capture.events();
    let numbers: Vec<VoiceNumber> = (events.iter())
        .filter_map(|e| match e.what {
            What::Play { outcome, .. } => Some(outcome.unwrap().0),
            _ => None,
        })
        .collect();
    for (number, seen) in numbers.iter().zip(&seen) {
        let mut noted = vec![seen[0]];
        for event in events {
            match event.what {
                What::Virtualized { voice, .. } if voice == *number => noted.push(false),
                What::Promoted { voice } if voice == *number => noted.push(true),
                _ => {}
            }
        }
        assert_eq!(&noted, seen, "voice {number:?}");
    }
    let changes: usize = seen.iter().map(|s| s.len() - 1).sum();
    assert!(changes >= 6, "voices went virtual and came back: {seen:?}");
    assert!(events.iter().any(|e| matches!(
        e.what,
        What::Virtualized {
            why: pool_audio::voices::WhyVirtual::Crowded
                | pool_audio::voices::WhyVirtual::Outranked,
            ..
        }
    )));
}

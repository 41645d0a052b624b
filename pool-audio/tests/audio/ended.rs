//! `SoundEffects::ended`: every voice a play handed out is, at every update,
//! either live or reported ended exactly once, with the reason that ended it,
//! sounds removed and added again included.

use std::collections::HashMap;

use kira::Tween;
use pool_audio::{
    EndReason, PlayParams, SoundEffectsSettings, SoundSettings, VoiceHandle, VoiceState,
    voices::Resume, voices::Stealing, voices::Virtualization, voices::WhenFull,
};
use proptest::prelude::*;

use crate::common::{self, FRAME};

#[derive(Debug, Clone)]
enum Op {
    /// Play sound `s` at x = the value (metres).
    Play(usize, i8),
    Stop(usize),
    StopAll,
    StopSound(usize),
    /// Remove sound `s` and add it again under its name: a new id.
    Replace(usize),
    /// Update and render `n` frames.
    Frames(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (0..4usize, any::<i8>()).prop_map(|(s, x)| Op::Play(s, x)),
        2 => any::<usize>().prop_map(Op::Stop),
        1 => Just(Op::StopAll),
        1 => (0..4usize).prop_map(Op::StopSound),
        1 => (0..4usize).prop_map(Op::Replace),
        4 => (1..20u8).prop_map(Op::Frames),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::proptest_cases(48), ..ProptestConfig::default() })]

    /// Four sounds (a recycling one-shot, a strict one-shot, a virtualizing
    /// loop, a killed loop), a small cap and few virtual voices, so that every
    /// way a voice ends happens; after each update, each voice ever played is
    /// live or was reported once, never both, and its reason is one the
    /// operations could have caused.
    #[test]
    fn every_voice_is_live_or_reported_ended_once(
        cap in 1..5usize,
        virtual_voices in 1..6usize,
        stealing in prop::sample::select(vec![Stealing::Oldest, Stealing::Quietest, Stealing::Furthest]),
        ops in prop::collection::vec(op(), 0..150),
    ) {
        let settings = SoundEffectsSettings { voice_cap: cap, stealing, virtual_voices, ..Default::default() };
        let (mut manager, mut sfx, _) = common::metered(common::RATE, settings);
        let kinds = [
            ("shot", common::sine(440.0, 0.05), SoundSettings::default().max_voices(3)),
            ("bell", common::sine(660.0, 0.1), SoundSettings::default().max_voices(2).when_full(WhenFull::Strict)),
            ("torch", common::sine(220.0, 0.2).loop_region(..), SoundSettings::default()
                .virtualization(Virtualization::Virtualize(Resume::FromElapsed))),
            ("hum", common::sine(110.0, 0.2).loop_region(..), SoundSettings::default()
                .virtualization(Virtualization::Kill)),
        ];
        let mut sounds = kinds
            .clone()
            .map(|(name, data, settings)| sfx.add_sound(name, data, settings).unwrap());
        let mut removed = Vec::new();
        let mut removed_voices = Vec::new();
        let mut sound_of = HashMap::new();
        let mut played: Vec<VoiceHandle> = Vec::new();
        let mut reported: HashMap<VoiceHandle, EndReason> = HashMap::new();
        let mut stopped_by_game: Vec<VoiceHandle> = Vec::new();
        for op in ops {
            match op {
                Op::Play(s, x) => {
                    let params = PlayParams::default().position([f32::from(x), 0.0, 0.0]);
                    if let Ok(voice) = sfx.play(sounds[s], params) {
                        prop_assert!(!played.contains(&voice), "a handle is never handed out twice");
                        played.push(voice);
                        sound_of.insert(voice, sounds[s]);
                    }
                }
                Op::Stop(i) if !played.is_empty() => {
                    let voice = played[i % played.len()];
                    if sfx.voice(voice).stop(Tween::default()).is_ok() {
                        stopped_by_game.push(voice);
                    }
                }
                Op::Stop(_) => {}
                Op::StopAll => {
                    let live: Vec<_> = played.iter().copied().filter(|v| sfx.state(*v).is_live()).collect();
                    if sfx.stop_all(Tween::default()).is_ok() {
                        stopped_by_game.extend(live);
                    }
                }
                Op::StopSound(s) => {
                    let live: Vec<_> = played.iter().copied().filter(|v| sfx.state(*v).is_live()).collect();
                    if sfx.stop_sound(sounds[s], Tween::default()).is_ok() {
                        // Only the voices of that sound: checked through the report below.
                        stopped_by_game.extend(live);
                    }
                }
                Op::Replace(s) => {
                    let (name, data, settings) = kinds[s].clone();
                    let live: Vec<_> = played
                        .iter()
                        .copied()
                        .filter(|v| sfx.state(*v).is_live() && sound_of[v] == sounds[s])
                        .collect();
                    if sfx.remove_sound(sounds[s], Tween::default()).is_ok() {
                        for voice in &live {
                            prop_assert!(!sfx.state(*voice).is_live(), "its voices end with it");
                        }
                        removed_voices.extend(live);
                        prop_assert!(sfx.play(sounds[s], PlayParams::default()).is_err());
                        removed.push(sounds[s]);
                        sounds[s] = sfx.add_sound(name, data, settings).unwrap();
                        prop_assert!(!removed.contains(&sounds[s]), "a new id, never an old one");
                    }
                }
                Op::Frames(n) => {
                    for _ in 0..n {
                        sfx.update(FRAME).unwrap();
                        for end in sfx.ended() {
                            prop_assert!(played.contains(&end.voice), "only voices handed out are reported");
                            prop_assert!(
                                reported.insert(end.voice, end.reason).is_none(),
                                "{:?} reported twice", end.voice
                            );
                            prop_assert!(!sfx.state(end.voice).is_live(), "a reported voice is not live");
                            prop_assert_eq!(end.sound, sound_of[&end.voice]);
                            if end.reason == EndReason::Stopped {
                                prop_assert!(stopped_by_game.contains(&end.voice), "stopped only by the game");
                            }
                            prop_assert_eq!(
                                end.reason == EndReason::Removed,
                                removed_voices.contains(&end.voice),
                                "Removed is the reason exactly for the voices live when their sound was removed"
                            );
                        }
                        for voice in &played {
                            prop_assert!(
                                sfx.state(*voice).is_live() != reported.contains_key(voice),
                                "{voice:?} is live or reported, exactly one of the two"
                            );
                        }
                        manager.backend_mut().render(FRAME).unwrap();
                    }
                }
            }
        }
    }
}

/// Each reason, in a scene made for it, names the right voice and sound.
#[test]
fn each_reason_is_reported_for_the_voice_it_ended() {
    let settings = SoundEffectsSettings {
        voice_cap: 2,
        virtual_voices: 1,
        ..Default::default()
    };
    let (mut manager, mut sfx, _) = common::metered(common::RATE, settings);
    let shot = sfx
        .add_sound(
            "shot",
            common::sine(440.0, 0.05),
            SoundSettings::default().max_voices(1),
        )
        .unwrap();
    let hum = sfx
        .add_sound(
            "hum",
            common::sine(110.0, 0.5).loop_region(..),
            // Quiet enough that its budget keeps its copies.
            SoundSettings::default()
                .first_volume(-13.9794)
                .virtualization(Virtualization::Kill),
        )
        .unwrap();
    let torch = sfx
        .add_sound(
            "torch",
            common::sine(220.0, 0.5).loop_region(..),
            SoundSettings::default(),
        )
        .unwrap();
    let mut frame = |sfx: &mut pool_audio::SoundEffects| {
        sfx.update(FRAME).unwrap();
        manager.backend_mut().render(FRAME).unwrap();
        sfx.ended()
            .iter()
            .map(|e| (e.voice, e.sound, e.reason))
            .collect::<Vec<_>>()
    };
    // Recycled: a second shot takes the first one's place (after the mixer read it).
    let first = sfx.play(shot, PlayParams::default()).unwrap();
    frame(&mut sfx);
    sfx.play(shot, PlayParams::default()).unwrap();
    assert_eq!(frame(&mut sfx), [(first, shot, EndReason::Recycled)]);
    // Recycled before the mixer read its start: the new shot takes it over.
    let unread = sfx.play(shot, PlayParams::default()).unwrap();
    sfx.play(shot, PlayParams::default()).unwrap();
    let ends = frame(&mut sfx);
    assert!(
        ends.contains(&(unread, shot, EndReason::Recycled)),
        "{ends:?}"
    );
    // Finished: the last shot plays to its end (50 ms).
    let ends: Vec<_> = (0..6).flat_map(|_| frame(&mut sfx)).collect();
    assert_eq!(ends.len(), 1);
    assert_eq!((ends[0].1, ends[0].2), (shot, EndReason::Finished));
    // Stolen: two hums fill the cap of 2, a third (killing sound) steals the oldest.
    let a = sfx.play(hum, PlayParams::default()).unwrap();
    sfx.play(hum, PlayParams::default()).unwrap();
    frame(&mut sfx);
    sfx.play(hum, PlayParams::default()).unwrap();
    assert_eq!(frame(&mut sfx), [(a, hum, EndReason::Stolen)]);
    // Stopped.
    sfx.stop_sound(hum, Tween::default()).unwrap();
    let stopped = frame(&mut sfx);
    assert_eq!(stopped.len(), 2);
    assert!(
        stopped
            .iter()
            .all(|(_, s, r)| (*s, *r) == (hum, EndReason::Stopped))
    );
    // Dropped: 2 real voices and room for 1 virtual one. Two torches are real,
    // a third starts virtual, and a fourth takes the only virtual voice's record.
    for x in [90.0, 1.0] {
        sfx.play(torch, PlayParams::default().position([x, 0.0, 0.0]))
            .unwrap();
    }
    let waiting = sfx
        .play(torch, PlayParams::default().position([2.0, 0.0, 0.0]))
        .unwrap();
    assert_eq!(sfx.state(waiting), VoiceState::Virtual);
    sfx.play(torch, PlayParams::default().position([3.0, 0.0, 0.0]))
        .unwrap();
    assert_eq!(frame(&mut sfx), [(waiting, torch, EndReason::Dropped)]);
}

/// A copy its sound's budget no longer keeps above the audibility floor ends
/// `Crowded` at the next update, counted; one of a virtualizing sound goes
/// virtual and stays so while the newer copies take the room.
#[test]
fn a_copy_newer_copies_crowd_out_ends_crowded() {
    let (mut manager, mut sfx, _) = common::metered(common::RATE, SoundEffectsSettings::default());
    // Full scale at the default first volume (0.5): the budget keeps one copy.
    let buzz = sfx
        .add_sound(
            "buzz",
            common::sine(330.0, 0.5).loop_region(..),
            SoundSettings::default().virtualization(Virtualization::Kill),
        )
        .unwrap();
    let fire = sfx
        .add_sound(
            "fire",
            common::sine(220.0, 0.5).loop_region(..),
            SoundSettings::default().virtualization(Virtualization::Virtualize(
                pool_audio::voices::Resume::FromElapsed,
            )),
        )
        .unwrap();
    assert_eq!(sfx.sound_info(buzz).copies_kept(), Some(1));
    let mut frame = |sfx: &mut pool_audio::SoundEffects| {
        sfx.update(1.0 / 60.0).unwrap();
        manager.backend_mut().render(1.0 / 60.0).unwrap();
        sfx.ended()
            .iter()
            .map(|e| (e.voice, e.sound, e.reason))
            .collect::<Vec<_>>()
    };
    let older = sfx.play(buzz, PlayParams::default()).unwrap();
    frame(&mut sfx);
    let newer = sfx.play(buzz, PlayParams::default()).unwrap();
    assert_eq!(
        sfx.sound_info(buzz).copies_playing(),
        2,
        "counted until the update"
    );
    assert_eq!(frame(&mut sfx), [(older, buzz, EndReason::Crowded)]);
    assert!(sfx.state(newer).is_live());
    assert_eq!(sfx.sound_info(buzz).copies_playing(), 1);
    assert_eq!(sfx.stats().crowded_copies, 1);
    // A loop that virtualizes goes virtual instead, and stays virtual.
    let first = sfx.play(fire, PlayParams::default()).unwrap();
    frame(&mut sfx);
    let second = sfx.play(fire, PlayParams::default()).unwrap();
    for _ in 0..5 {
        assert!(frame(&mut sfx).is_empty());
        assert_eq!(
            (sfx.state(first), sfx.state(second)),
            (VoiceState::Virtual, VoiceState::Real)
        );
    }
    assert_eq!(sfx.stats().crowded_copies, 2);
    // Once the newer copy is gone, the older comes back.
    sfx.voice(second).stop(Tween::default()).unwrap();
    for _ in 0..3 {
        frame(&mut sfx);
    }
    assert_eq!(sfx.state(first), VoiceState::Real);
}

//! Copies per owner (`SoundSettings::max_voices_per_owner`, `PlayParams::owner`,
//! `SoundEffects::stop_owner`): four tanks firing every frame each hold at most
//! their share of the shared cannon while the cannon's own cap holds; a strict
//! sound refuses an owner at its cap; stopping an owner stops exactly its voices;
//! and a model of plays, owners and stops that the manager follows exactly.

use std::collections::VecDeque;

use pool_audio::{
    EndReason, PlayError, PlayParams, SoundEffectsSettings, SoundSettings, VoiceHandle,
    error::SettingsError, linear_fade, voices::Virtualization, voices::WhenFull,
};
use proptest::prelude::*;

use crate::common::{self, FRAME};

/// A shared cannon: 8 copies, 2 per owner, long enough to outlast the tests;
/// quiet enough that its budget keeps all 8 (8 x 0.1 fit in -1 dBFS).
fn cannon() -> SoundSettings {
    SoundSettings::default()
        .max_voices(8)
        .first_volume(-20.0)
        .max_voices_per_owner(2)
        .virtualization(Virtualization::Kill)
}

#[test]
fn four_tanks_firing_every_frame_each_hold_two_copies_of_the_cannon() {
    let (mut manager, mut sfx, _) = common::metered(common::RATE, SoundEffectsSettings::default());
    let boom = sfx
        .add_sound("cannon", common::sine(110.0, 5.0), cannon())
        .unwrap();
    let mut fired: [Vec<VoiceHandle>; 4] = Default::default();
    for frame in 0..30 {
        for (tank, shots) in fired.iter_mut().enumerate() {
            let shot = sfx
                .play(boom, PlayParams::default().owner(tank as u64))
                .unwrap();
            shots.push(shot);
        }
        sfx.update(FRAME).unwrap();
        manager.backend_mut().render(FRAME).unwrap();
        for shots in &fired {
            let live: Vec<_> = shots.iter().filter(|v| sfx.state(**v).is_live()).collect();
            let held = (frame + 1).min(2);
            assert_eq!(
                live.len(),
                held,
                "each tank holds its newest shots, two at most"
            );
            assert_eq!(live, shots[shots.len() - held..].iter().collect::<Vec<_>>());
        }
        assert_eq!(
            sfx.sound_info(boom).copies_playing(),
            4 * (frame + 1).min(2),
            "within the cannon's cap"
        );
    }
    let stats = sfx.stats();
    assert_eq!(
        stats.recycled_copies,
        4 * 30 - 8,
        "every other shot recycled its tank's oldest"
    );
    assert_eq!(stats.refused_owner_limit, 0);
}

#[test]
fn a_strict_sound_refuses_an_owner_at_its_cap_and_nothing_changes() {
    let (_manager, mut sfx, _) = common::metered(common::RATE, SoundEffectsSettings::default());
    let strict = cannon().when_full(WhenFull::Strict);
    let boom = sfx
        .add_sound("cannon", common::sine(110.0, 5.0), strict)
        .unwrap();
    let tank = PlayParams::default().owner(3);
    let first = sfx.play(boom, tank).unwrap();
    let second = sfx.play(boom, tank).unwrap();
    assert_eq!(sfx.play(boom, tank), Err(PlayError::OwnerLimit));
    assert!(sfx.state(first).is_live() && sfx.state(second).is_live());
    assert_eq!(sfx.stats().refused_owner_limit, 1);
    // Another owner, and a play without one, still play.
    sfx.play(boom, PlayParams::default().owner(4)).unwrap();
    sfx.play(boom, PlayParams::default()).unwrap();
    assert_eq!(sfx.sound_info(boom).copies_playing(), 4);
}

#[test]
fn stopping_an_owner_stops_exactly_its_voices_of_every_sound() {
    let (mut manager, mut sfx, _) = common::metered(common::RATE, SoundEffectsSettings::default());
    let boom = sfx
        .add_sound("cannon", common::sine(110.0, 5.0), cannon())
        .unwrap();
    let engine = sfx
        .add_sound(
            "engine",
            common::sine(55.0, 1.0).loop_region(..),
            SoundSettings::default(),
        )
        .unwrap();
    let tank = |n: u64| PlayParams::default().owner(n);
    let doomed = [
        sfx.play(engine, tank(1)).unwrap(),
        sfx.play(boom, tank(1)).unwrap(),
    ];
    let kept = [
        sfx.play(engine, tank(2)).unwrap(),
        sfx.play(boom, tank(2)).unwrap(),
        sfx.play(boom, PlayParams::default()).unwrap(),
    ];
    sfx.stop_owner(1, linear_fade(std::time::Duration::from_millis(5)))
        .unwrap();
    assert!(doomed.iter().all(|v| !sfx.state(*v).is_live()));
    assert!(kept.iter().all(|v| sfx.state(*v).is_live()));
    sfx.update(FRAME).unwrap();
    let mut ended: Vec<_> = sfx.ended().iter().map(|e| (e.voice, e.reason)).collect();
    ended.sort_by_key(|(voice, _)| doomed.iter().position(|v| v == voice));
    assert_eq!(
        ended,
        doomed.map(|v| (v, EndReason::Stopped)).to_vec(),
        "reported once each, as stopped"
    );
    manager.backend_mut().render(FRAME).unwrap();
    assert_eq!(
        sfx.stop_owner(99, Default::default()),
        Ok(()),
        "no voice: nothing"
    );
}

#[test]
fn a_cap_per_owner_outside_the_sounds_copies_is_a_typed_error() {
    let (_manager, mut sfx, _) = common::metered(common::RATE, SoundEffectsSettings::default());
    for copies in [0, 9] {
        let bad = cannon().max_voices_per_owner(copies);
        assert_eq!(
            bad.validate(),
            Err(SettingsError::MaxVoicesPerOwner(copies))
        );
        assert!(
            sfx.add_sound("cannon", common::sine(110.0, 0.1), bad)
                .is_err()
        );
        assert_eq!(sfx.sound("cannon"), None, "nothing added");
    }
}

#[derive(Debug, Clone)]
enum Op {
    /// A play by owner `Some(n)`, or by nobody.
    Play(Option<u64>),
    StopOwner(u64),
    /// An update and a frame's render.
    Frame,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => prop::option::weighted(0.85, 0..4u64).prop_map(Op::Play),
        1 => (0..4u64).prop_map(Op::StopOwner),
        2 => Just(Op::Frame),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::proptest_cases(48), ..ProptestConfig::default() })]

    /// The manager against a model: the live copies in start order with their
    /// owners. A play by an owner at its cap recycles that owner's oldest copy;
    /// else a play at the sound's cap recycles the oldest of all; stopping an
    /// owner ends its copies; an update ends the oldest copies past the ones
    /// the budget keeps above the floor (a cannon at 0.2 keeps 5 of its 8).
    /// After every step, exactly the model's voices are live, and the caps
    /// hold.
    #[test]
    fn plays_owners_and_stops_follow_the_model(ops in prop::collection::vec(op(), 1..120)) {
        let (mut manager, mut sfx, _) = common::metered(common::RATE, SoundEffectsSettings::default());
        // 120 steps render at most 2 s: no copy ends by itself.
        let boom = sfx.add_sound("cannon", common::sine(110.0, 2.5), cannon().first_volume(-13.9794)).unwrap();
        let kept = common::kept_copies(&sfx, boom, -1.0, -60.0);
        prop_assert_eq!(Some(kept), sfx.sound_info(boom).copies_kept());
        prop_assert!(kept < 8);
        let mut model: VecDeque<(VoiceHandle, Option<u64>)> = VecDeque::new();
        let mut gone: Vec<VoiceHandle> = Vec::new();
        for op in ops {
            match op {
                Op::Play(owner) => {
                    let params = match owner {
                        Some(owner) => PlayParams::default().owner(owner),
                        None => PlayParams::default(),
                    };
                    let owned = model.iter().filter(|(_, o)| owner.is_some() && *o == owner).count();
                    let victim = if owned >= 2 {
                        model.iter().position(|(_, o)| *o == owner)
                    } else if model.len() >= 8 {
                        Some(0)
                    } else {
                        None
                    };
                    if let Some(at) = victim {
                        gone.extend(model.remove(at).map(|(voice, _)| voice));
                    }
                    let voice = sfx.play(boom, params).unwrap();
                    model.push_back((voice, owner));
                }
                Op::StopOwner(owner) => {
                    sfx.stop_owner(owner, Default::default()).unwrap();
                    gone.extend(model.iter().filter(|(_, o)| *o == Some(owner)).map(|(v, _)| *v));
                    model.retain(|(_, o)| *o != Some(owner));
                }
                Op::Frame => {
                    sfx.update(FRAME).unwrap();
                    manager.backend_mut().render(FRAME).unwrap();
                    while model.len() > kept {
                        gone.extend(model.pop_front().map(|(voice, _)| voice));
                    }
                }
            }
            for (voice, _) in &model {
                prop_assert!(sfx.state(*voice).is_live(), "{voice:?} should be live");
            }
            for voice in &gone {
                prop_assert!(!sfx.state(*voice).is_live(), "{voice:?} should have ended");
            }
            prop_assert_eq!(sfx.sound_info(boom).copies_playing(), model.len());
            for owner in 0..4 {
                prop_assert!(model.iter().filter(|(_, o)| *o == Some(owner)).count() <= 2);
            }
        }
    }
}

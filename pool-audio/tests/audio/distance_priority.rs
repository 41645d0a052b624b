//! Priority by distance (`SoundSettings::distance_priority_offset`) and the tie
//! rule (`SoundSettings::tie`): a far high-priority explosion yields to a near
//! low-priority footstep once the offset puts it below, and not before; equal
//! priorities follow the new play's rule; and the same heard priority decides
//! which looping voices are real as the listener moves.

use pool_audio::{
    PlayError, SoundEffectsSettings, SoundSettings, VoiceHandle, VoiceState, linear_fade,
    voices::Resume, voices::Stealing, voices::Tie, voices::Virtualization,
};

use crate::common::{self, FRAME, at};

/// A high-priority explosion whose priority falls by 20 at 100 m; quiet
/// enough as a first copy that its budget keeps four copies (five), and heard
/// down to -80 dB so that it still plays at 80 m.
fn explosion() -> SoundSettings {
    SoundSettings::default()
        .first_volume(-13.9794)
        .audibility_floor(-80.0)
        .priority(10)
        .distance_priority_offset(-20)
        .virtualization(Virtualization::Kill)
}

fn footstep(tie: Tie) -> SoundSettings {
    SoundSettings::default()
        .priority(0)
        .tie(tie)
        .virtualization(Virtualization::Kill)
}

/// Four explosions at `distance` fill a cap of 4; then a footstep at 1 m with
/// `tie` plays. Returns which explosions still play and the footstep's result.
fn footstep_after_explosions_at(distance: f32, tie: Tie) -> (Vec<bool>, Result<(), PlayError>) {
    let settings = SoundEffectsSettings {
        voice_cap: 4,
        stealing: Stealing::LowestPriority,
        ..Default::default()
    };
    let (mut manager, mut sfx, _) = common::metered(common::RATE, settings);
    let boom = sfx
        .add_sound("explosion", common::sine(80.0, 5.0), explosion())
        .unwrap();
    let step = sfx
        .add_sound("footstep", common::sine(900.0, 5.0), footstep(tie))
        .unwrap();
    let explosions: Vec<VoiceHandle> = (0..4)
        .map(|_| {
            let voice = sfx.play(boom, at(distance)).unwrap();
            sfx.update(FRAME).unwrap();
            manager.backend_mut().render(FRAME).unwrap();
            voice
        })
        .collect();
    let played = sfx.play(step, at(1.0)).map(|_| ());
    (
        explosions.iter().map(|v| sfx.state(*v).is_live()).collect(),
        played,
    )
}

#[test]
fn a_far_high_priority_explosion_yields_to_a_near_footstep_once_the_offset_puts_it_below() {
    // At 20 m the explosions are heard at priority 10 - 4 = 6: the footstep
    // (0) is refused.
    let (alive, played) = footstep_after_explosions_at(20.0, Tie::OldestLoses);
    assert_eq!(alive, [true; 4]);
    assert_eq!(played, Err(PlayError::VoiceCap));
    // At 80 m they are heard at 10 - 16 = -6: the footstep takes the oldest's
    // voice.
    let (alive, played) = footstep_after_explosions_at(80.0, Tie::OldestLoses);
    assert_eq!(played, Ok(()));
    assert_eq!(alive, [false, true, true, true]);
}

#[test]
fn equal_priorities_follow_the_new_plays_tie_rule() {
    // At 50 m the explosions are heard at 10 - 10 = 0, the footstep's own.
    let (alive, played) = footstep_after_explosions_at(50.0, Tie::OldestLoses);
    assert_eq!((alive, played), (vec![false, true, true, true], Ok(())));
    let (alive, played) = footstep_after_explosions_at(50.0, Tie::NewestLoses);
    assert_eq!((alive, played), (vec![true; 4], Err(PlayError::VoiceCap)));
}

#[test]
fn the_heard_priority_decides_which_loops_are_real_as_the_listener_moves() {
    let settings = SoundEffectsSettings {
        voice_cap: 1,
        ..Default::default()
    };
    let (mut manager, mut sfx, _) = common::metered(common::RATE, settings);
    let looping = Virtualization::Virtualize(Resume::FromElapsed);
    let fire = sfx
        .add_sound(
            "fire",
            common::sine(80.0, 1.0).loop_region(..),
            explosion().virtualization(looping),
        )
        .unwrap();
    let stream = sfx
        .add_sound(
            "stream",
            common::sine(900.0, 1.0).loop_region(..),
            SoundSettings::default().virtualization(looping),
        )
        .unwrap();
    let mut frame = |sfx: &mut pool_audio::SoundEffects| {
        sfx.update(FRAME).unwrap();
        manager.backend_mut().render(FRAME).unwrap();
    };
    // The fire at 90 m is heard at 10 - 18 = -8; the stream at 2 m (0) takes
    // the only voice.
    let far_fire = sfx.play(fire, at(90.0)).unwrap();
    frame(&mut sfx);
    let near_stream = sfx.play_detailed(stream, at(2.0)).unwrap();
    assert_eq!(near_stream.state, VoiceState::Real);
    assert_eq!(near_stream.displaced, Some((far_fire, VoiceState::Virtual)));
    // The listener walks to the fire: heard at 10 again, it is real, the
    // stream (now 88 m away) virtual.
    for step in 1..=10 {
        sfx.listener()
            .set_position([9.0 * step as f32, 0.0, 0.0])
            .unwrap();
        frame(&mut sfx);
    }
    frame(&mut sfx);
    assert_eq!(sfx.state(far_fire), VoiceState::Real);
    assert_eq!(sfx.state(near_stream.voice), VoiceState::Virtual);
    sfx.stop_all(linear_fade(std::time::Duration::from_millis(5)))
        .unwrap();
}

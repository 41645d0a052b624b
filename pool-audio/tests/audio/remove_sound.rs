//! `SoundEffects::remove_sound`, as a game changing levels uses it: the removed
//! sound's voices fade out in the render (no click), its samples are freed once
//! the mixer has let go of them (and not before), its id and handles go stale
//! and reach nothing of a sound added in its place, which gets a budget of its
//! own; a refused removal changes nothing.

use std::sync::{Arc, Weak};
use std::time::Duration;

use kira::sound::static_sound::StaticSoundData;
use kira::{AudioManager, Frame};
use pool_audio::{
    EndReason, OfflineBackend, PlayError, PlayParams, SoundEffects, SoundEffectsSettings,
    SoundSettings, VoiceError, error::RemoveSoundError, linear_fade,
};

use crate::common::{self, FRAME, RATE};

/// `seconds` of a constant level: its output's envelope is the voice's gain.
fn constant(level: f32, seconds: f32) -> StaticSoundData {
    let frames: Arc<[Frame]> =
        vec![Frame::from_mono(level); (seconds * RATE as f32) as usize].into();
    StaticSoundData {
        sample_rate: RATE,
        frames,
        settings: Default::default(),
        slice: None,
    }
}

/// `data` with its right channel at half its left: a sound of two channels,
/// whose frames the bank shares with the game's `StaticSoundData`.
fn two_channels(data: StaticSoundData) -> StaticSoundData {
    let frames = data.frames.iter();
    StaticSoundData {
        frames: frames.map(|f| Frame::new(f.left, f.left * 0.5)).collect(),
        ..data
    }
}

fn game() -> (AudioManager<OfflineBackend>, SoundEffects) {
    // No limiter: the output is the voices' sum, sample for sample.
    let settings = SoundEffectsSettings {
        limiter: None,
        ..Default::default()
    };
    let (manager, sfx, _) = common::metered(RATE, settings);
    (manager, sfx)
}

/// The left and right channels of the next `seconds`.
fn render(manager: &mut AudioManager<OfflineBackend>, seconds: f64) -> (Vec<f32>, Vec<f32>) {
    let audio = manager.backend_mut().render(seconds).unwrap();
    let samples = audio.samples();
    (
        samples.iter().step_by(2).copied().collect(),
        samples.iter().skip(1).step_by(2).copied().collect(),
    )
}

#[test]
fn a_removed_sound_fades_out_and_its_samples_are_freed_once_the_mixer_lets_go() {
    let (mut manager, mut sfx) = game();
    let data = two_channels(constant(0.5, 2.0));
    let samples: Weak<[Frame]> = Arc::downgrade(&data.frames);
    let hum = sfx
        .add_sound("hum", data, SoundSettings::default())
        .unwrap();
    let voice = sfx.play(hum, PlayParams::default()).unwrap();
    let (playing, _) = render(&mut manager, 0.1);
    let level = *playing.last().unwrap();
    assert!(level > 0.1, "it plays: {level}");

    sfx.remove_sound(hum, linear_fade(Duration::from_millis(50)))
        .unwrap();
    assert!(!sfx.state(voice).is_live());
    assert_eq!(
        sfx.voice(voice).stop(linear_fade(Duration::ZERO)),
        Err(VoiceError::Stale(pool_audio::error::StaleHandle))
    );
    assert_eq!(
        sfx.play(hum, PlayParams::default()),
        Err(PlayError::UnknownSound)
    );
    assert!(samples.upgrade().is_some(), "the mixer still plays it");

    // The fade, in the render: from the level it had down to silence over
    // 50 ms, each millisecond no louder than the one before.
    let (fading, _) = render(&mut manager, 0.08);
    let per_ms: Vec<f32> = fading
        .chunks(RATE as usize / 1000)
        .map(|ms| ms.iter().fold(0.0f32, |m, s| m.max(s.abs())))
        .collect();
    assert!(
        per_ms[0] > level * 0.9,
        "the fade starts at its level: {per_ms:?}"
    );
    assert!(
        per_ms[20] < level * 0.7 && per_ms[20] > level * 0.4,
        "{per_ms:?}"
    );
    assert!(per_ms.windows(2).all(|w| w[1] <= w[0] + 1e-6), "{per_ms:?}");
    assert!(per_ms[55..].iter().all(|m| *m == 0.0), "{per_ms:?}");

    // The mixer handed the sound back; the game side drops it at its update.
    sfx.update(FRAME).unwrap();
    assert_eq!(sfx.ended()[0].voice, voice);
    assert_eq!(sfx.ended()[0].reason, EndReason::Removed);
    assert!(samples.upgrade().is_none(), "its samples are freed");
    assert_eq!(sfx.stats().fading_voices, 0);
}

/// A mono sound handed over whole is stored as its one channel: its frames
/// are freed as soon as it is added, and it plays at its level in both
/// channels. One whose frames the game still holds shares them (nothing is
/// held twice).
#[test]
fn a_mono_sound_keeps_none_of_the_games_frames_and_plays_in_both_channels() {
    let (mut manager, mut sfx) = game();
    let data = constant(0.5, 2.0);
    let frames: Weak<[Frame]> = Arc::downgrade(&data.frames);
    let hum = sfx
        .add_sound("hum", data, SoundSettings::default())
        .unwrap();
    assert!(frames.upgrade().is_none(), "the game's frames are freed");
    sfx.play(hum, PlayParams::default()).unwrap();
    let (left, right) = render(&mut manager, 0.1);
    let (l, r) = (*left.last().unwrap(), *right.last().unwrap());
    assert!(l > 0.1 && l == r, "both channels at its level: {l} and {r}");
    // The level of a sound of two channels whose left one is the same (and
    // so is its peak, which sets its copy volume).
    let (mut manager, mut sfx) = game();
    let two = two_channels(constant(0.5, 2.0));
    let stereo = sfx.add_sound("two", two, SoundSettings::default()).unwrap();
    sfx.play(stereo, PlayParams::default()).unwrap();
    let (left_two, _) = render(&mut manager, 0.1);
    assert!(
        (left_two.last().unwrap() - l).abs() < 1e-6,
        "{left_two:?} against {l}"
    );

    // The game keeps its data: the bank shares its frames, and holds them
    // once the game lets go.
    let (mut manager, mut sfx) = game();
    let kept = constant(0.5, 2.0);
    let frames: Weak<[Frame]> = Arc::downgrade(&kept.frames);
    let shared = sfx
        .add_sound("kept", kept.clone(), SoundSettings::default())
        .unwrap();
    drop(kept);
    assert!(
        frames.upgrade().is_some(),
        "the bank shares the game's frames"
    );
    sfx.play(shared, PlayParams::default()).unwrap();
    let (left_kept, right_kept) = render(&mut manager, 0.1);
    let (lk, rk) = (*left_kept.last().unwrap(), *right_kept.last().unwrap());
    assert!(lk > 0.1 && lk == rk, "both channels: {lk} and {rk}");
}

#[test]
fn its_virtual_voices_end_with_it_and_are_reported() {
    let settings = SoundEffectsSettings {
        voice_cap: 1,
        limiter: None,
        ..Default::default()
    };
    let (mut manager, mut sfx, _) = common::metered(RATE, settings);
    // A loop: it virtualizes by default.
    let torch = constant(0.3, 0.5).loop_region(..);
    let torch = sfx
        .add_sound("torch", torch, SoundSettings::default())
        .unwrap();
    let at = |x: f32| PlayParams::default().position([x, 0.0, 0.0]);
    let mut voices = vec![sfx.play(torch, at(2.0)).unwrap()];
    voices.extend((0..3).map(|i| sfx.play(torch, at(30.0 + i as f32)).unwrap()));
    render(&mut manager, FRAME);
    sfx.update(FRAME).unwrap();
    let stats = sfx.stats();
    assert_eq!((stats.real_voices, stats.virtual_voices), (1, 3));

    sfx.remove_sound(torch, linear_fade(Duration::from_millis(10)))
        .unwrap();
    let stats = sfx.stats();
    assert_eq!((stats.real_voices, stats.virtual_voices), (0, 0));
    sfx.update(FRAME).unwrap();
    let mut ended: Vec<_> = sfx.ended().iter().map(|e| (e.voice, e.reason)).collect();
    ended.sort_by_key(|(voice, _)| voices.iter().position(|v| v == voice));
    let expected: Vec<_> = voices.iter().map(|v| (*v, EndReason::Removed)).collect();
    assert_eq!(ended, expected);
}

#[test]
fn a_sound_in_its_place_has_its_own_budget_and_the_old_id_reaches_none_of_it() {
    // One copy: its budget is all for itself. Fully right: the right channel
    // is the new sound's alone.
    let settings = SoundSettings::default().max_voices(1).first_volume(-0.9151);
    let right = PlayParams::default().panning(1.0);
    let reference = {
        let (mut manager, mut sfx) = game();
        let alone = sfx.add_sound("new", constant(0.8, 1.0), settings).unwrap();
        render(&mut manager, 0.05);
        sfx.play(alone, right).unwrap();
        render(&mut manager, 0.1).1
    };

    let (mut manager, mut sfx) = game();
    let old = sfx.add_sound("old", constant(0.8, 1.0), settings).unwrap();
    sfx.play(old, PlayParams::default().panning(-1.0)).unwrap();
    render(&mut manager, 0.05);
    // Its copy fades out on the left for 200 ms while the new sound, in the
    // same place of the table, plays on the right.
    sfx.remove_sound(old, linear_fade(Duration::from_millis(200)))
        .unwrap();
    let new = sfx.add_sound("new", constant(0.8, 1.0), settings).unwrap();
    assert_eq!(new.index(), old.index(), "the same place");
    assert_ne!(new, old);
    let voice = sfx.play(new, right).unwrap();
    let (left, out) = render(&mut manager, 0.1);
    assert!(
        left.iter().any(|s| s.abs() > 0.1),
        "the old copy is still fading"
    );
    let worst = out
        .iter()
        .zip(&reference)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    assert!(worst < 1e-6, "the new copy plays as if alone: {worst}");

    // The old id names nothing any more.
    sfx.stop_sound(old, linear_fade(Duration::ZERO)).unwrap();
    assert!(sfx.state(voice).is_live());
    assert_eq!(
        (
            sfx.sound_info(old).copies_playing(),
            sfx.sound_info(new).copies_playing()
        ),
        (0, 1)
    );
    assert_eq!(
        (sfx.sound_info(old).name(), sfx.sound_info(new).name()),
        (None, Some("new"))
    );
    assert!(sfx.sound_info(old).copy_volumes().is_none() && sfx.sound_info(old).peak().is_none());
    assert_eq!(
        sfx.remove_sound(old, linear_fade(Duration::ZERO)),
        Err(RemoveSoundError::UnknownSound)
    );
    assert_eq!(sfx.sound("old"), None);
}

#[test]
fn a_refused_removal_changes_nothing() {
    let (mut manager, mut sfx) = game();
    let hum = sfx
        .add_sound(
            "hum",
            constant(0.3, 1.0).loop_region(..),
            SoundSettings::default(),
        )
        .unwrap();
    let voice = sfx.play(hum, PlayParams::default()).unwrap();
    let bad = kira::Tween {
        easing: kira::Easing::InPowf(f64::NAN),
        ..Default::default()
    };
    assert!(matches!(
        sfx.remove_sound(hum, bad),
        Err(RemoveSoundError::InvalidParam(_))
    ));
    let (mut other_manager, mut other) = game();
    let theirs = other
        .add_sound("hum", constant(0.3, 1.0), SoundSettings::default())
        .unwrap();
    assert_eq!(
        sfx.remove_sound(theirs, linear_fade(Duration::ZERO)),
        Err(RemoveSoundError::UnknownSound)
    );
    // The mixer has not run: the queue fills up.
    while sfx
        .voice(voice)
        .set_volume(-6.0206, linear_fade(Duration::ZERO))
        .is_ok()
    {}
    assert_eq!(
        sfx.remove_sound(hum, linear_fade(Duration::ZERO)),
        Err(RemoveSoundError::QueueFull)
    );
    assert!(sfx.state(voice).is_live());
    assert_eq!(sfx.sound("hum"), Some(hum));
    render(&mut manager, FRAME);
    sfx.remove_sound(hum, linear_fade(Duration::ZERO)).unwrap();
    assert!(!sfx.state(voice).is_live());
    render(&mut other_manager, FRAME);
}

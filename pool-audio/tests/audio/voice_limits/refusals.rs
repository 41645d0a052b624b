//! Every refused play is counted under its reason, nothing else changes, and
//! each error says what was wrong: an unknown sound (removed, or another
//! manager's), a parameter out of range, a recording the sound lacks, a copy
//! under the audibility floor; settings whose headroom is out of range or
//! leaves the first copy under the floor.

use pool_audio::kira::Decibels;

use pool_audio::{
    PlayError, PlayParams, SoundEffectsSettings, SoundSettings, error::AddSoundError,
    error::ParamError, error::SettingsError,
};

use crate::common;

#[test]
fn every_refusal_is_counted_under_its_reason_and_nothing_else_changes() {
    let (_manager, mut sfx, _) = common::metered(common::RATE, SoundEffectsSettings::default());
    let (_other_manager, mut other, _) =
        common::metered(common::RATE, SoundEffectsSettings::default());
    let tone = common::sine(440.0, 0.1);
    let shot = sfx
        .add_sound("shot", tone.clone(), SoundSettings::default())
        .unwrap();
    let gone = sfx
        .add_sound("gone", tone.clone(), SoundSettings::default())
        .unwrap();
    sfx.remove_sound(gone, Default::default()).unwrap();
    let foreign = other
        .add_sound("foreign", tone, SoundSettings::default())
        .unwrap();
    let far = PlayParams::default().position([0.0, 0.0, 500.0]);
    let cases: [(_, _, PlayError); 5] = [
        (gone, PlayParams::default(), PlayError::UnknownSound),
        (foreign, PlayParams::default(), PlayError::UnknownSound),
        (
            shot,
            PlayParams::default().playback_rate(-1.0),
            PlayError::InvalidParam(ParamError::PlaybackRate(-1.0)),
        ),
        (
            shot,
            PlayParams::default().recording(3),
            PlayError::UnknownRecording(3),
        ),
        (shot, far, PlayError::Inaudible),
    ];
    for (sound, params, expected) in cases {
        let before = sfx.stats();
        assert_eq!(sfx.play(sound, params), Err(expected));
        let after = sfx.stats();
        assert_eq!(after.refused(), before.refused() + 1, "{expected}");
        assert_eq!(
            (after.plays, after.real_voices),
            (before.plays, before.real_voices)
        );
        let by_reason = match expected {
            PlayError::Inaudible => after.refused_inaudible - before.refused_inaudible,
            _ => after.refused_invalid - before.refused_invalid,
        };
        assert_eq!(by_reason, 1, "{expected}: counted under its reason");
    }
    assert_eq!(sfx.stats().refused(), 5);
}

#[test]
fn a_headroom_under_the_floor_or_out_of_range_says_so() {
    let (_manager, mut sfx, _) = common::metered(common::RATE, SoundEffectsSettings::default());
    let tone = || common::sine(440.0, 0.1);
    // -100 dBFS: the first copy's volume (0.5) is fine; capped at the
    // headroom over the peak it is under the -60 dB floor.
    let low = SoundSettings::default().headroom(-100.0);
    let error = sfx.add_sound("low", tone(), low).unwrap_err();
    assert_eq!(
        error,
        AddSoundError::Settings(SettingsError::HeadroomUnderFloor {
            headroom: Decibels(-100.0),
            floor: Decibels(-60.0)
        })
    );
    assert!(error.to_string().contains("headroom -100 dBFS"), "{error}");
    // With a floor under it, it plays (at -100 dBFS).
    let lower = low.audibility_floor(-120.0);
    assert!(sfx.add_sound("low", tone(), lower).is_ok());
    // A first volume under the floor is the first volume's fault.
    let quiet = SoundSettings::default().first_volume(-80.0);
    assert_eq!(
        sfx.add_sound("quiet", tone(), quiet).unwrap_err(),
        AddSoundError::Settings(SettingsError::FirstVolumeUnderFloor(Decibels(-80.0)))
    );
    // Out of range: said with the range, whatever the floor.
    for headroom in [-300.0, -1e4, 0.5, f32::NAN, f32::NEG_INFINITY] {
        let bad = SoundSettings::default()
            .headroom(headroom)
            .audibility_floor(f32::NEG_INFINITY);
        let error = sfx.add_sound("bad", tone(), bad).unwrap_err();
        assert!(
            matches!(error, AddSoundError::Settings(SettingsError::Headroom(_))),
            "{headroom}: {error}"
        );
        assert!(error.to_string().contains("-200..=0"), "{error}");
        assert_eq!(sfx.sound("bad"), None);
    }
}

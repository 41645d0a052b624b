//! Reloading a bank while it plays: a changed level and pitch range reach the
//! voices already playing, gliding without a click; a removed sound fades out
//! and its handles go stale; an added sound plays; changed recordings play
//! from the next play; and a reload that is wrong is a placed error that
//! leaves the render as it would have been without it.

use std::time::Duration;

use kira::{AudioManager, Tween};
use pool_audio::data::{BankProblem, SoundBank};
use pool_audio::loader::MemoryLoader;
use pool_audio::{
    EndReason, OfflineBackend, PlayError, PlayParams, SoundEffects, SoundEffectsSettings,
    linear_fade,
};

use super::common::{self, RATE};

/// A bank of one engine hum (a looping 220 Hz tone), with `hum`'s settings
/// written in, and a group for it.
fn bank(hum: &str) -> SoundBank {
    let text = format!(
        "(\n    groups: {{ \"engines\": (max_voices: 4) }},\n    sounds: {{\n        \"hum\": (recordings: [\"low\"], looping: true, group: \"engines\", {hum}),\n    }},\n)"
    );
    SoundBank::from_ron("level.ron", &text).unwrap()
}

fn files() -> MemoryLoader {
    let mut files = MemoryLoader::new();
    files.insert_sound("low", common::sine_at(0.5, 220.0, 1.0));
    files.insert_sound("high", common::sine_at(0.5, 330.0, 1.0));
    files
}

/// A manager with `bank` added and its hum playing for 0.3 s.
fn playing(
    bank: &SoundBank,
) -> (
    AudioManager<OfflineBackend>,
    SoundEffects,
    pool_audio::VoiceHandle,
) {
    let (mut manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    sfx.add_bank(bank, &mut files(), None).unwrap();
    let hum = sfx.sound("hum").unwrap();
    let voice = sfx.play(hum, PlayParams::default()).unwrap();
    sfx.update(1.0 / 60.0).unwrap();
    common::render_left(&mut manager, 0.3);
    (manager, sfx, voice)
}

fn rms_db(samples: &[f32]) -> f64 {
    let sum: f64 = samples.iter().map(|s| f64::from(*s).powi(2)).sum();
    10.0 * (sum / samples.len() as f64).log10()
}

const FADE: Duration = Duration::from_millis(50);

/// The largest step between samples a 220 Hz tone of peak `peak` makes.
fn tone_step(peak: f64, hz: f64) -> f64 {
    peak * 2.0 * std::f64::consts::PI * hz / f64::from(RATE)
}

#[test]
fn a_changed_level_glides_to_the_voice_already_playing_without_a_click() {
    let (mut manager, mut sfx, voice) = playing(&bank("first_volume: -12.0"));
    let before = rms_db(&common::render_left(&mut manager, 0.1));
    let reloaded = sfx
        .reload_bank(
            &bank("first_volume: -6.0"),
            &mut files(),
            None,
            linear_fade(FADE),
        )
        .unwrap();
    let counts = (reloaded.added, reloaded.changed, reloaded.removed);
    assert_eq!(counts, (0, 1, 0), "one sound changed");
    sfx.update(1.0 / 60.0).unwrap();
    // Within a frame (the render's next block) plus the fade.
    let glide = common::render_left(&mut manager, 1.0 / 60.0 + FADE.as_secs_f64());
    let after = rms_db(&common::render_left(&mut manager, 0.1));
    assert!(
        (after - before - 6.0).abs() < 0.1,
        "{before:.2} dB to {after:.2} dB"
    );
    // No click: no step larger than the louder tone's own.
    let largest = f64::from(common::largest_step(&glide));
    let peak = 0.5 * 10f64.powf(-6.0 / 20.0);
    assert!(
        largest <= tone_step(peak, 220.0) * 1.05,
        "a step of {largest}"
    );
    // The same voice, not restarted.
    assert!(sfx.state(voice).is_live());
    assert!(sfx.ended().is_empty());
}

#[test]
fn a_changed_pitch_range_moves_the_voice_within_its_range() {
    let (mut manager, mut sfx, voice) = playing(&bank("pitch_semitones: (-1.0, 1.0)"));
    let heard = common::render_left(&mut manager, 0.2);
    let was = 12.0 * (common::frequency(&heard, f64::from(RATE)) / 220.0).log2();
    assert!((-1.01..=1.01).contains(&was), "{was} semitones");
    // The range moves up 5 semitones: the voice keeps its place in it.
    sfx.reload_bank(
        &bank("pitch_semitones: (4.0, 6.0)"),
        &mut files(),
        None,
        linear_fade(FADE),
    )
    .unwrap();
    sfx.update(1.0 / 60.0).unwrap();
    common::render_left(&mut manager, 0.1);
    let heard = common::render_left(&mut manager, 0.2);
    let now = 12.0 * (common::frequency(&heard, f64::from(RATE)) / 220.0).log2();
    assert!((now - was - 5.0).abs() < 0.05, "{was} to {now} semitones");
    assert!(sfx.state(voice).is_live());
}

#[test]
fn a_removed_sound_fades_out_and_its_handles_go_stale() {
    let (mut manager, mut sfx, voice) = playing(&bank("first_volume: -6.0"));
    let hum = sfx.sound("hum").unwrap();
    let empty = SoundBank::from_ron(
        "level.ron",
        "(groups: { \"engines\": (max_voices: 4) }, sounds: {})",
    )
    .unwrap();
    let reloaded = sfx
        .reload_bank(&empty, &mut files(), None, linear_fade(FADE))
        .unwrap();
    assert_eq!(reloaded.removed, 1);
    assert_eq!(
        sfx.play(hum, PlayParams::default()),
        Err(PlayError::UnknownSound)
    );
    assert!(!sfx.state(voice).is_live());
    let fading = common::render_left(&mut manager, FADE.as_secs_f64() + 0.02);
    let largest = f64::from(common::largest_step(&fading));
    assert!(
        largest <= tone_step(0.5 * 0.5, 220.0) * 1.05,
        "a step of {largest}"
    );
    let after = common::render_left(&mut manager, 0.1);
    assert!(after.iter().all(|s| *s == 0.0), "silent once faded");
    sfx.update(1.0 / 60.0).unwrap();
    assert_eq!(sfx.ended()[0].reason, EndReason::Removed);
}

#[test]
fn an_added_sound_plays_and_new_recordings_play_from_the_next_play() {
    let (mut manager, mut sfx, voice) = playing(&bank("first_volume: -6.0"));
    let text = "(\n    groups: { \"engines\": (max_voices: 4) },\n    sounds: {\n        \"hum\": (recordings: [\"high\"], looping: true, group: \"engines\", first_volume: -6.0),\n        \"beep\": (recordings: [\"high\"]),\n    },\n)";
    let new = SoundBank::from_ron("level.ron", text).unwrap();
    let reloaded = sfx
        .reload_bank(&new, &mut files(), None, linear_fade(FADE))
        .unwrap();
    assert_eq!((reloaded.added, reloaded.changed), (1, 1));
    // The hum playing keeps its recording.
    let heard = common::render_left(&mut manager, 0.2);
    assert!((common::frequency(&heard, f64::from(RATE)) - 220.0).abs() < 1.0);
    sfx.voice(voice).stop(Tween::default()).unwrap();
    sfx.update(1.0 / 60.0).unwrap();
    common::render_left(&mut manager, 0.1);
    // Its next play plays the new one, and the new sound plays.
    for name in ["hum", "beep"] {
        let sound = sfx.sound(name).unwrap();
        let playing = sfx.play(sound, PlayParams::default()).unwrap();
        sfx.update(1.0 / 60.0).unwrap();
        let heard = common::render_left(&mut manager, 0.2);
        let hz = common::frequency(&heard, f64::from(RATE));
        assert!((hz - 330.0).abs() < 1.0, "{name}: {hz} Hz");
        sfx.voice(playing).stop(Tween::default()).unwrap();
        sfx.update(1.0 / 60.0).unwrap();
        common::render_left(&mut manager, 0.1);
    }
}

/// Renders 1 s of the hum, reloading `wrong` (each refused) halfway.
fn render_with(wrong: &[&str]) -> Vec<f32> {
    let (mut manager, mut sfx, _voice) = playing(&bank("first_volume: -6.0"));
    let mut heard = common::render_left(&mut manager, 0.5);
    for text in wrong {
        let Ok(bank) = SoundBank::from_ron("level.ron", text) else {
            continue;
        };
        let error = sfx
            .reload_bank(&bank, &mut files(), None, linear_fade(FADE))
            .unwrap_err();
        assert!(error.line > 0 && error.column > 0, "{error}");
    }
    sfx.update(1.0 / 60.0).unwrap();
    heard.extend(common::render_left(&mut manager, 0.5));
    heard
}

#[test]
fn a_wrong_reload_is_placed_and_changes_nothing_heard() {
    let hum = "\"hum\": (recordings: [\"low\"], looping: true, group: \"engines\"";
    let group = "groups: { \"engines\": (max_voices: 4) }";
    let wrong = [
        // A NaN level.
        format!("({group}, sounds: {{ {hum}, first_volume: NaN) }})"),
        // A new sound in a group nowhere.
        format!(
            "({group}, sounds: {{ {hum}), \"beep\": (recordings: [\"high\"], group: \"nowhere\") }})"
        ),
        // A recording that does not load.
        format!(
            "({group}, sounds: {{ {hum}, first_volume: -3.0), \"beep\": (recordings: [\"gone\"]) }})"
        ),
        // A group changed: a running game cannot take it.
        format!("(groups: {{ \"engines\": (max_voices: 2) }}, sounds: {{ {hum}) }})"),
    ];
    let wrong: Vec<&str> = wrong.iter().map(String::as_str).collect();
    let problems = {
        let (_manager, mut sfx, _voice) = playing(&bank("first_volume: -6.0"));
        (wrong.iter())
            .map(|text| {
                let bank = SoundBank::from_ron("level.ron", text).unwrap();
                let error = sfx.reload_bank(&bank, &mut files(), None, Tween::default());
                let error = error.unwrap_err();
                (error.path, error.problem)
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(problems[0].0, "sounds.hum.first_volume");
    assert!(
        matches!(problems[1], (ref p, BankProblem::Unknown { what: "group", .. }) if p == "sounds.beep.group")
    );
    assert!(
        matches!(problems[2], (ref p, BankProblem::Load(_)) if p == "sounds.beep.recordings[0]")
    );
    assert_eq!(
        problems[3],
        ("groups.engines".into(), BankProblem::Fixed("a group"))
    );
    assert_eq!(
        render_with(&wrong),
        render_with(&[]),
        "the render as without them"
    );
}

#[test]
fn a_bank_never_added_is_not_reloaded() {
    let (_manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let error = sfx
        .reload_bank(
            &bank("first_volume: -6.0"),
            &mut files(),
            None,
            Tween::default(),
        )
        .unwrap_err();
    assert_eq!(error.problem, BankProblem::NotAdded);
    assert!(sfx.sound("hum").is_none());
}

#[test]
fn a_recording_file_changed_on_disk_plays_from_the_next_play_with_the_text_unchanged() {
    let (mut manager, mut sfx, voice) = playing(&bank("first_volume: -6.0"));
    // The designer exports a new take over "low": the loader has it now.
    let mut files = files();
    files.insert_sound("low", common::sine_at(0.5, 330.0, 1.0));
    let same = bank("first_volume: -6.0");
    let untouched = sfx
        .reload_bank(&same, &mut files, None, linear_fade(FADE))
        .unwrap();
    assert_eq!(untouched.changed, 0, "the text alone: nothing changed");
    let mut touched = same.clone();
    touched.file_changed("low");
    let reloaded = sfx
        .reload_bank(&touched, &mut files, None, linear_fade(FADE))
        .unwrap();
    assert_eq!(reloaded.changed, 1);
    // The voice playing keeps its take; the next play has the new one.
    let heard = common::render_left(&mut manager, 0.2);
    assert!((common::frequency(&heard, f64::from(RATE)) - 220.0).abs() < 1.0);
    sfx.voice(voice).stop(Tween::default()).unwrap();
    let hum = sfx.sound("hum").unwrap();
    sfx.play(hum, PlayParams::default()).unwrap();
    sfx.update(1.0 / 60.0).unwrap();
    common::render_left(&mut manager, 0.1);
    let heard = common::render_left(&mut manager, 0.2);
    assert!((common::frequency(&heard, f64::from(RATE)) - 330.0).abs() < 1.0);
    // The mark is spent: the same bank again changes nothing.
    let again = sfx
        .reload_bank(&same, &mut files, None, linear_fade(FADE))
        .unwrap();
    assert_eq!(again.changed, 0);
}

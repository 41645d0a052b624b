//! Fifty-odd malformed banks: wrong types, missing and unknown fields,
//! circles, out-of-range and non-finite numbers, unknown and taken names,
//! files that do not load, a huge file. Each is a typed error that names the
//! field, placed on its line and column, and the manager is left as it was:
//! nothing it declares exists, and the render is the one without it.

use pool_audio::data::{BankError, BankProblem, SoundBank};
use pool_audio::loader::MemoryLoader;
use pool_audio::mix::BusBuilder;
use pool_audio::{GroupSettings, PlayParams, SoundEffectsSettings, SoundSettings};

use crate::common::{self, RATE};

/// The kind of a problem, to compare.
fn kind(problem: &BankProblem) -> &'static str {
    match problem {
        BankProblem::Syntax(_) => "syntax",
        BankProblem::Io(_) => "io",
        BankProblem::TooLarge(_) => "large",
        BankProblem::Unknown { .. } => "unknown",
        BankProblem::Taken { .. } => "taken",
        BankProblem::ParentLater(_) => "parent",
        BankProblem::NoMusic => "music",
        BankProblem::Load(_) => "load",
        BankProblem::Sound(_) => "sound",
        BankProblem::Group(_) => "group",
        BankProblem::Mix(_) => "mix",
        BankProblem::Music(_) => "music track",
        BankProblem::Number(_) => "number",
        _ => "other",
    }
}

/// A sound of `fields` (the recording "a" first).
fn sound(fields: &str) -> String {
    format!(r#"(sounds: {{ "s": (recordings: ["a"], {fields}) }})"#)
}

/// A bus "b" with `effect`.
fn effect(effect: &str) -> String {
    format!(r#"(buses: {{ "b": (effects: [{effect}]) }})"#)
}

/// Each malformed bank, the path its error names, and the kind of problem.
fn cases() -> Vec<(String, &'static str, &'static str)> {
    let s = |t: &str| t.to_string();
    vec![
        // Not a bank at all.
        (s(""), "", "syntax"),
        (s("("), "", "syntax"),
        (s("[1, 2]"), "", "syntax"),
        (s("(sounds: [])"), "sounds", "syntax"),
        (s("(noises: {})"), "noises", "syntax"),
        (
            s(r#"(sounds: { "s": (recordings: ["a"]), "s": (recordings: ["a"]) })"#),
            "sounds.s",
            "syntax",
        ),
        (
            s(r#"(sounds: { "s": (recordings: "a") })"#),
            "sounds.s.recordings",
            "syntax",
        ),
        (
            s(r#"(sounds: { "s": (recordings: [(weight: 2.0)]) })"#),
            "sounds.s.recordings[0]",
            "syntax",
        ),
        (
            s(r#"(sounds: { "s": (recordings: [(file: "a", weigh: 2.0)]) })"#),
            "sounds.s.recordings[0].weigh",
            "syntax",
        ),
        // Wrong types and unknown fields in a sound.
        (sound("max_voices: -3"), "sounds.s.max_voices", "syntax"),
        (sound("max_voices: 2.5"), "sounds.s.max_voices", "syntax"),
        (
            sound("first_volume: \"loud\""),
            "sounds.s.first_volume",
            "syntax",
        ),
        (
            sound("when_full: Sometimes"),
            "sounds.s.when_full",
            "syntax",
        ),
        (sound("pick: Random"), "sounds.s", "syntax"),
        (
            sound("pitch_semitones: (1.0)"),
            "sounds.s.pitch_semitones",
            "syntax",
        ),
        (sound("volume: -3.0"), "sounds.s.volume", "syntax"),
        (
            sound("distances: (min: 1.0, max: 2.0, curve: Wobbly)"),
            "sounds.s.distances.curve",
            "syntax",
        ),
        // Numbers out of range or not finite in a sound.
        (sound("max_voices: 0"), "sounds.s.max_voices", "sound"),
        (sound("max_voices: 1000"), "sounds.s.max_voices", "sound"),
        (sound("first_volume: NaN"), "sounds.s.first_volume", "sound"),
        (sound("first_volume: 6.0"), "sounds.s.first_volume", "sound"),
        (sound("headroom: inf"), "sounds.s.headroom", "sound"),
        (
            sound("min_retrigger: -1.0"),
            "sounds.s.min_retrigger",
            "number",
        ),
        (
            sound("min_retrigger: NaN"),
            "sounds.s.min_retrigger",
            "number",
        ),
        (
            sound("pitch_semitones: (2.0, -2.0)"),
            "sounds.s.pitch_semitones",
            "sound",
        ),
        (
            sound("pitch_semitones: (0.0, 1000.0)"),
            "sounds.s.pitch_semitones",
            "sound",
        ),
        (
            sound("volume_range: (-3.0, 3.0)"),
            "sounds.s.volume_range",
            "sound",
        ),
        (
            sound("max_voices: 2, max_voices_per_owner: 5"),
            "sounds.s.max_voices_per_owner",
            "sound",
        ),
        (
            sound("retrigger_radius: -1.0"),
            "sounds.s.retrigger_radius",
            "sound",
        ),
        (
            sound(r#"sends: [(bus: "nowhere")]"#),
            "sounds.s.sends[0].bus",
            "unknown",
        ),
        // Names nowhere, and names already taken.
        (sound(r#"group: "nowhere""#), "sounds.s.group", "unknown"),
        (
            s(r#"(sounds: { "s": (recordings: ["missing"]) })"#),
            "sounds.s.recordings[0]",
            "load",
        ),
        (
            s(r#"(sounds: { "s": () })"#),
            "sounds.s.recordings",
            "sound",
        ),
        (
            s(r#"(sounds: { "s": (recordings: [(file: "a", weight: -1.0)]) })"#),
            "sounds.s.recordings[0]",
            "sound",
        ),
        (
            s(
                r#"(switches: { "w": ["x", "y"] }, sounds: { "s": (switch: "w", recordings: [(file: "a", state: "x"), (file: "a", weight: 0.0, state: "y")]) })"#,
            ),
            "sounds.s.recordings",
            "sound",
        ),
        (
            s(
                r#"(switches: { "w": ["x"] }, sounds: { "s": (switch: "w", recordings: [(file: "a", state: "z")]) })"#,
            ),
            "sounds.s.switch",
            "sound",
        ),
        (
            s(
                r#"(game_params: { "p": (range: (0.0, 1.0)) }, sounds: { "s": (recordings: ["a"], curves: [(param: "p", target: Send("nowhere"), points: [(0.0, -3.0)])]) })"#,
            ),
            "sounds.s.curves[0].target[0]",
            "unknown",
        ),
        (
            s(
                r#"(game_params: { "p": (range: (0.0, 1.0)) }, sounds: { "s": (recordings: ["a"], curves: [(param: "p", target: LowPass, points: [(0.0, 5.0)])]) })"#,
            ),
            "sounds.s.curves[0].points",
            "other",
        ),
        (
            s(
                r#"(game_params: { "p": (range: (0.0, 1.0)) }, buses: { "b": (curves: [(param: "p", target: LowPass, points: [(0.0, -12.0)])]) })"#,
            ),
            "buses.b.curves[0].target",
            "mix",
        ),
        (
            s(
                r#"(game_params: { "p": (range: (0.0, 1.0)) }, buses: { "b": (curves: [(param: "p", target: Param("nowhere"), points: [(0.0, 100.0)])]) })"#,
            ),
            "buses.b.curves[0].target[0]",
            "unknown",
        ),
        (
            s(
                r#"(game_params: { "p": (range: (0.0, 1.0)) }, buses: { "b": (effects: [Filter(mode: LowPass, cutoff: 100.0, param: "x")], curves: [(param: "p", target: Param("x"), points: [(0.0, 100000.0)])]) })"#,
            ),
            "buses.b.curves[0].points",
            "mix",
        ),
        (
            s(
                r#"(buses: { "b": (effects: [Filter(mode: LowPass, cutoff: 100.0, param: "x"), Reverb(param: "x")]) })"#,
            ),
            "buses.b.effects[1].param",
            "mix",
        ),
        (
            s(
                r#"(game_params: { "p": (range: (0.0, 1.0)) }, buses: { "b": (effects: [Filter(mode: LowPass, cutoff: 100.0, param: "x")]) }, sounds: { "s": (recordings: ["a"], curves: [(param: "p", target: Param("x"), points: [(0.0, 100.0)])]) })"#,
            ),
            "sounds.s.curves",
            "sound",
        ),
        (
            s(r#"(sounds: { "base": (recordings: ["a"]) })"#),
            "sounds.base",
            "taken",
        ),
        (
            s(r#"(groups: { "game group": () })"#),
            r#"groups["game group"]"#,
            "taken",
        ),
        (
            s(r#"(buses: { "game bus": () })"#),
            r#"buses["game bus"]"#,
            "taken",
        ),
        (
            s(r#"(groups: { "g": (max_voices: 0) })"#),
            "groups.g.max_voices",
            "group",
        ),
        (
            s(r#"(groups: { "g": (bus: "nowhere") })"#),
            "groups.g.bus",
            "unknown",
        ),
        (
            s(r#"(groups: { "g": (stealing: Loudest) })"#),
            "groups.g.stealing",
            "syntax",
        ),
        // Bus trees with circles, and effects out of range.
        (
            s(r#"(buses: { "a": (parent: "a") })"#),
            "buses.a.parent",
            "parent",
        ),
        (
            s(r#"(buses: { "a": (parent: "b"), "b": () })"#),
            "buses.a.parent",
            "parent",
        ),
        (
            s(r#"(buses: { "a": (volume: 40.0) })"#),
            "buses.a.volume",
            "mix",
        ),
        (
            effect("Filter(mode: LowPass, cutoff: NaN)"),
            "buses.b.effects[0].cutoff",
            "number",
        ),
        (
            effect("Filter(mode: LowPass, cutoff: -5.0)"),
            "buses.b.effects[0].cutoff",
            "number",
        ),
        (
            effect("Filter(mode: LowPass)"),
            "buses.b.effects[0]",
            "syntax",
        ),
        (
            effect("Reverb(mix: 2.0)"),
            "buses.b.effects[0].mix",
            "number",
        ),
        (
            effect("Delay(time: 3600.0)"),
            "buses.b.effects[0].time",
            "number",
        ),
        (
            effect("Compressor(threshold: -10.0, ratio: 0.5)"),
            "buses.b.effects[0].ratio",
            "number",
        ),
        (
            effect("Eq(kind: Bell, frequency: 1000.0, gain: inf, q: 1.0)"),
            "buses.b.effects[0].gain",
            "number",
        ),
        (effect("Chorus(depth: 1.0)"), "buses.b.effects[0]", "syntax"),
        // Ducks, snapshots, zones, music.
        (
            s(r#"(ducks: [(source: "nowhere", target: SoundEffects)])"#),
            "ducks[0].source",
            "unknown",
        ),
        (
            s(r#"(ducks: [(source: "game group", target: Group("nowhere"))])"#),
            "ducks[0].target",
            "unknown",
        ),
        (
            s(r#"(ducks: [(source: "game group", target: SoundEffects, amount: 5.0)])"#),
            "ducks[0].amount",
            "mix",
        ),
        (
            s(r#"(ducks: [(source: "game group", target: SoundEffects, hold: -1.0)])"#),
            "ducks[0].hold",
            "number",
        ),
        (
            s(r#"(snapshots: { "p": (volumes: [(Track("nowhere"), -3.0)]) })"#),
            "snapshots.p.volumes[0][0]",
            "unknown",
        ),
        (
            s(r#"(snapshots: { "p": (volumes: [(SoundEffects, 99.0)]) })"#),
            "snapshots.p.volumes",
            "mix",
        ),
        (
            s(r#"(snapshots: { "p": (params: [("nowhere", 1.0)]) })"#),
            "snapshots.p.params[0][0]",
            "unknown",
        ),
        (
            s(
                r#"(zones: { "z": (shape: Sphere(center: (0.0, 0.0, 0.0), radius: -1.0), bus: "game bus") })"#,
            ),
            "zones.z.shape",
            "mix",
        ),
        (
            s(
                r#"(zones: { "z": (shape: Sphere(center: (0.0, 0.0, 0.0), radius: 1.0), bus: "nowhere") })"#,
            ),
            "zones.z.bus",
            "unknown",
        ),
        (
            s(r#"(music: (tracks: { "m": () }))"#),
            "music.tracks",
            "music",
        ),
        (
            s(r#"(music: (pieces: { "p": (file: "p.ogg", fade: -1.0) }))"#),
            "music.pieces.p.fade",
            "number",
        ),
    ]
}

/// A manager with the game's own sound, group and bus, as a bank finds it.
fn game() -> (
    pool_audio::kira::AudioManager<pool_audio::OfflineBackend>,
    pool_audio::SoundEffects,
) {
    let (manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let base = common::sine_at(0.3, 440.0, 0.3);
    sfx.add_sound("base", base, SoundSettings::default())
        .unwrap();
    sfx.add_group("game group", GroupSettings::default())
        .unwrap();
    sfx.mix_mut()
        .add_bus("game bus", BusBuilder::new())
        .unwrap();
    (manager, sfx)
}

/// The game's sound played and rendered, after whatever was done to `sfx`.
fn render(
    manager: &mut pool_audio::kira::AudioManager<pool_audio::OfflineBackend>,
    sfx: &mut pool_audio::SoundEffects,
) -> Vec<f32> {
    let base = sfx.sound("base").unwrap();
    sfx.play(base, PlayParams::default()).unwrap();
    sfx.update(common::BLOCK).unwrap();
    common::render_left(manager, 0.05)
}

/// The bank of `text` read and added to a fresh game's manager: its error,
/// and whether the manager was left as it was.
fn attempt(text: &str, untouched: &[f32]) -> BankError {
    let (mut manager, mut sfx) = game();
    let mut files = MemoryLoader::new();
    files.insert_sound("a", common::sine_at(0.3, 330.0, 0.1));
    let error = match SoundBank::from_ron("bad.ron", text) {
        Err(error) => error,
        Ok(bank) => sfx.add_bank(&bank, &mut files, None).expect_err(text),
    };
    for name in ["s", "a", "b", "g", "z", "p", "m", "w"] {
        assert!(sfx.switch(name).is_none(), "{text}: switch {name} added");
        assert!(sfx.sound(name).is_none(), "{text}: sound {name} added");
        assert!(sfx.group(name).is_none(), "{text}: group {name} added");
        assert!(sfx.mix().track(name).is_err(), "{text}: track {name} added");
        assert!(
            sfx.mix().snapshot(name).is_none(),
            "{text}: snapshot {name} added"
        );
    }
    assert_eq!(
        render(&mut manager, &mut sfx),
        untouched,
        "{text}: the render changed"
    );
    error
}

#[test]
fn every_malformed_bank_is_a_placed_typed_error_and_changes_nothing() {
    let (mut manager, mut sfx) = game();
    let untouched = render(&mut manager, &mut sfx);
    let cases = cases();
    assert!(cases.len() >= 50, "{} cases", cases.len());
    let mut wrong = Vec::new();
    for (text, path, expected) in &cases {
        let error = attempt(text, &untouched);
        if kind(&error.problem) != *expected || error.path != *path {
            wrong.push(format!(
                "{text}\n  expected {expected} at {path:?}, got {error}"
            ));
            continue;
        }
        assert_eq!(error.file, "bad.ron");
        if !path.is_empty() {
            assert!(
                error.line >= 1 && error.column >= 1,
                "{text}: {error} is placed"
            );
            // The place is where the value (or its field, or its map) is.
            let lines: Vec<&str> = text.lines().collect();
            let line = lines[error.line - 1];
            let at: String = line.chars().skip(error.column - 1).collect();
            assert!(!at.trim().is_empty(), "{text}: {error} points at nothing");
        }
        assert!(!error.to_string().is_empty());
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_huge_or_deep_file_is_refused() {
    let huge = format!("(sounds: {{ {} }})", r#""x": (), "#.repeat(1 << 19));
    let error = SoundBank::from_ron("huge.ron", &huge).unwrap_err();
    assert!(matches!(error.problem, BankProblem::TooLarge(_)), "{error}");
    let deep = format!("(sounds: {}{})", "[".repeat(100_000), "]".repeat(100_000));
    let error = SoundBank::from_ron("deep.ron", &deep).unwrap_err();
    assert!(matches!(error.problem, BankProblem::Syntax(_)), "{error}");
    let missing = SoundBank::from_file("/nowhere/at/all.ron").unwrap_err();
    assert!(matches!(missing.problem, BankProblem::Io(_)), "{missing}");
}

//! Sound banks: every setting round-trips through the text; a bank renders
//! what the same sounds built in code render, sample for sample; a bank names
//! what the game made in code; music tracks, pieces and zones come from it;
//! and every malformed bank (in `banks/malformed.rs`) is a placed, typed
//! error that changes nothing.

mod malformed;

use kira::effect::filter::{FilterBuilder, FilterMode};
use kira::effect::reverb::ReverbBuilder;
use kira::{Decibels, Mix};
use pool_audio::data::{BankProblem, SoundBank};
use pool_audio::loader::MemoryLoader;
use pool_audio::mix::{BusBuilder, SendCurve, SendSettings};
use pool_audio::music::{Music, MusicSettings};
use pool_audio::sound::Pick;
use pool_audio::voices::Stealing;
use pool_audio::{GroupSettings, PlayParams, SoundEffectsSettings, SoundSettings};

use super::common::{self, RATE};

/// A bank that sets every field of every kind to something not its default.
pub(crate) const EVERY_SETTING: &str = r#"
// Every field, none at its default.
(
    buses: {
        "world": (volume: -2.0, curves: [
            (param: "speed", target: Volume, points: [(0.0, 0.0), (60.0, -4.0)]),
            (param: "speed", target: Param("world rumble"), points: [(0.0, 80.0), (60.0, 200.0)]),
        ], effects: [
            Filter(mode: HighPass, cutoff: 80.0, resonance: 0.2, mix: 0.9, param: "world rumble"),
            Eq(kind: Bell, frequency: 1000.0, gain: 3.0, q: 0.7),
            Compressor(threshold: -12.0, ratio: 4.0, attack: 0.005, release: 0.2, makeup_gain: 2.0, mix: 0.8),
            Distortion(kind: SoftClip, drive: 6.0, mix: 0.3),
        ]),
        "reverb": (parent: "world", volume: -6.0, effects: [
            Reverb(feedback: 0.8, damping: 0.3, stereo_width: 0.9, mix: 1.0),
            Delay(time: 0.25, feedback: -9.0, mix: 0.4),
        ]),
    },
    groups: {
        "weapons": (max_voices: 12, stealing: Quietest, protected: true, loudness_window: true, bus: "world"),
    },
    switches: { "surface": ["grass", "stone"] },
    game_params: { "speed": (range: (0.0, 60.0), initial: 10.0, seek: 0.5) },
    sounds: {
        "shot": (
            recordings: [(file: "a", state: "grass"), (file: "b", weight: 0.5, state: "stone")],
            switch: "surface",
            curves: [
                (param: "speed", target: Pitch, points: [(0.0, -2.0), (60.0, 3.0)], easing: InPowi(2)),
                (param: "speed", target: Volume, points: [(0.0, -9.0), (30.0, -3.0), (60.0, 0.0)]),
                (param: "speed", target: LowPass, points: [(0.0, 20000.0), (60.0, 2500.0)]),
                (param: "speed", target: Send("reverb"), points: [(0.0, 0.0), (60.0, -9.0)]),
            ],
            looping: true,
            max_voices: 6,
            first_volume: -10.0,
            headroom: -2.0,
            audibility_floor: -50.0,
            min_retrigger: 0.03,
            priority: 5,
            when_full: Strict,
            virtualization: Virtualize(FromStart),
            group: "weapons",
            retrigger_radius: 4.0,
            max_voices_per_owner: 2,
            pick: Random(avoid_last: 1),
            pitch_semitones: (-2.0, 1.5),
            volume_range: (-3.0, -1.0),
            distance_priority_offset: -3,
            tie: NewestLoses,
            loudness: 20.0,
            doppler_scale: 0.5,
            obstruction: (volume: -4.0, cutoff_hz: 3000.0, easing: InPowi(2)),
            occlusion: (volume: -12.0, cutoff_hz: 900.0, easing: Linear),
            distances: (min: 2.0, max: 80.0, curve: OutPowf(1.5)),
            sends: [(bus: "reverb", level: -8.0, distance: (from: 5.0, to: 40.0, near: -20.0, far: 0.0))],
            zones: false,
        ),
    },
    ducks: [(source: "weapons", target: Track("world"), amount: -6.0, attack: 0.05, hold: 0.1, release: 0.7)],
    snapshots: {
        "pause": (priority: 2, mode: Blend, volumes: [(Group("weapons"), -9.0), (Sends("reverb"), -20.0), (SoundEffects, -3.0)], params: [("cutoff", 600.0)]),
    },
    zones: {
        "cave": (shape: Box(center: (1.0, 2.0, 3.0), half_extents: (4.0, 5.0, 6.0)), bus: "reverb", level: -4.0, fade: 3.0, follows_listener: true),
    },
    music: (
        tracks: { "menu": (volume: -5.0, pause_with_game: true, bus: "world") },
        pieces: { "theme": (file: "theme.ogg", fade: 1.5, start_at: 2.0, loop_from: 0.5) },
    ),
)
"#;

#[test]
fn every_setting_round_trips_through_the_text() {
    for (file, text) in [
        ("every.ron", EVERY_SETTING.to_string()),
        ("level.bank.ron", level_bank()),
    ] {
        let bank = SoundBank::from_ron(file, &text).unwrap();
        let printed = bank.to_ron();
        let again = SoundBank::from_ron("printed.ron", &printed).unwrap();
        assert!(bank.same_as(&again), "{file} printed as:\n{printed}");
        assert_eq!(again.to_ron(), printed, "{file}: printing is stable");
    }
    // The defaults are the code's: an empty sound is `SoundSettings::default()`.
    let empty = SoundBank::from_ron("e.ron", r#"(sounds: { "s": () })"#).unwrap();
    let code = SoundSettings::default();
    let printed = empty.to_ron();
    assert!(
        printed.contains(&format!("max_voices: {}", code.max_voices)),
        "{printed}"
    );
    assert!(printed.contains("when_full: RecycleOldest"), "{printed}");
}

/// The showcase level's bank.
fn level_bank() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../assets/sounds/level.bank.ron"
    );
    std::fs::read_to_string(path).unwrap()
}

/// Two recordings a sound of the tests is made of: a 220 Hz and a 330 Hz
/// sine, 0.2 s each.
fn loader() -> MemoryLoader {
    let mut files = MemoryLoader::new();
    files.insert_sound("low", common::sine_at(0.3, 220.0, 0.2));
    files.insert_sound("high", common::sine_at(0.3, 330.0, 0.2));
    files
}

const IN_A_BANK: &str = r#"(
    buses: {
        "world": (effects: [Filter(mode: LowPass, cutoff: 2000.0)]),
        "reverb": (parent: "world", volume: -3.0, effects: [Reverb(mix: 1.0)]),
    },
    groups: { "weapons": (max_voices: 3, stealing: Quietest, bus: "world") },
    sounds: {
        "shot": (
            recordings: ["low", (file: "high", weight: 2.0)],
            pick: Shuffle,
            max_voices: 4,
            first_volume: -9.0,
            pitch_semitones: (-1.0, 1.0),
            volume_range: (-6.0, 0.0),
            group: "weapons",
            sends: [(bus: "reverb", level: -6.0, distance: (from: 2.0, to: 30.0, near: -20.0, far: 0.0))],
        ),
    },
)"#;

/// The sounds of [`IN_A_BANK`], built in code.
fn in_code(sfx: &mut pool_audio::SoundEffects, files: &mut MemoryLoader) {
    let world = BusBuilder::new().with_effect(
        FilterBuilder::new()
            .mode(FilterMode::LowPass)
            .cutoff(2000.0),
    );
    let world = sfx.mix_mut().add_bus("world", world).unwrap();
    let reverb = BusBuilder::new()
        .parent(world)
        .volume(-3.0)
        .with_effect(ReverbBuilder::new().mix(Mix::WET));
    let reverb = sfx.mix_mut().add_bus("reverb", reverb).unwrap();
    let weapons = GroupSettings::default()
        .max_voices(3)
        .stealing(Stealing::Quietest)
        .bus(world);
    let weapons = sfx.add_group("weapons", weapons).unwrap();
    let recordings = pool_audio::sound::Recordings::new()
        .with(
            pool_audio::loader::SoundLoader::load(files, "low").unwrap(),
            1.0,
        )
        .with(
            pool_audio::loader::SoundLoader::load(files, "high").unwrap(),
            2.0,
        );
    let send = SendSettings::new(reverb)
        .level(-6.0)
        .distance(SendCurve::new(2.0..=30.0, -20.0, 0.0));
    let settings = SoundSettings::default()
        .pick(Pick::Shuffle)
        .max_voices(4)
        .first_volume(-9.0)
        .pitch_semitones(-1.0, 1.0)
        .volume_range(-6.0, 0.0)
        .group(weapons)
        .send(send);
    sfx.add_sound("shot", recordings, settings).unwrap();
}

/// Six shots at places around the listener, one a frame, rendered.
fn six_shots(
    manager: &mut pool_audio::kira::AudioManager<pool_audio::OfflineBackend>,
    sfx: &mut pool_audio::SoundEffects,
) -> Vec<f32> {
    let shot = sfx.sound("shot").unwrap();
    let mut out = Vec::new();
    for i in 0..6 {
        let x = [1.0, 8.0, -15.0, 25.0, 40.0, -3.0][i];
        sfx.play(shot, PlayParams::default().position([x, 0.0, 2.0]))
            .unwrap();
        sfx.update(common::BLOCK).unwrap();
        out.extend(common::render_left(manager, common::BLOCK));
    }
    out.extend(common::render_left(manager, 0.4));
    out
}

#[test]
fn a_bank_renders_what_the_same_sounds_in_code_render() {
    let (mut manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    in_code(&mut sfx, &mut loader());
    let code = six_shots(&mut manager, &mut sfx);

    let (mut manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let bank = SoundBank::from_ron("shots.ron", IN_A_BANK).unwrap();
    sfx.add_bank(&bank, &mut loader(), None).unwrap();
    let banked = six_shots(&mut manager, &mut sfx);

    let peak = code.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    assert!(peak > 0.05, "the shots are heard: {peak}");
    assert_eq!(code.len(), banked.len());
    let most = code
        .iter()
        .zip(&banked)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    assert_eq!(most, 0.0, "the renders differ by {most}");
}

#[test]
fn a_bank_names_what_the_game_made_in_code() {
    let (mut manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let world = sfx.mix_mut().add_bus("world", BusBuilder::new()).unwrap();
    let dialogue = sfx.add_group("dialogue", GroupSettings::default()).unwrap();
    let text = r#"(
        groups: { "steps": (bus: "world") },
        sounds: { "step": (recordings: ["low"], group: "steps", sends: [(bus: "world", level: -6.0)]) },
        ducks: [(source: "dialogue", target: Group("steps"))],
        snapshots: { "quiet": (volumes: [(Track("world"), -10.0), (Group("dialogue"), -3.0)]) },
    )"#;
    let bank = SoundBank::from_ron("steps.ron", text).unwrap();
    sfx.add_bank(&bank, &mut loader(), None).unwrap();
    assert!(sfx.group("steps").is_some());
    assert!(sfx.mix().snapshot("quiet").is_some());
    assert_eq!(sfx.mix().track("world").unwrap(), world);
    assert_eq!(sfx.group("dialogue"), Some(dialogue));
    let step = sfx.sound("step").unwrap();
    sfx.play(step, PlayParams::default()).unwrap();
    sfx.update(common::BLOCK).unwrap();
    let heard = common::render_left(&mut manager, 0.1);
    assert!(
        heard.iter().any(|s| s.abs() > 0.01),
        "the step is heard through the game's bus"
    );

    // Added again, every name it declares is taken: refused, nothing changes.
    let again = sfx.add_bank(&bank, &mut loader(), None).unwrap_err();
    assert_eq!(again.path, "sounds.step");
    assert!(
        matches!(again.problem, BankProblem::Taken { what: "sound", .. }),
        "{again}"
    );
}

#[test]
fn music_tracks_pieces_and_zones_come_from_the_bank() {
    let (_manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let bank = SoundBank::from_ron("every.ron", EVERY_SETTING).unwrap();
    // The bank names an effect parameter the game adds with its filter.
    let mut bus = BusBuilder::new();
    let mut filter = bus.add_effect(FilterBuilder::new().cutoff(20_000.0));
    sfx.mix_mut().add_bus("game filter", bus).unwrap();
    sfx.mix_mut()
        .add_param("cutoff", 20_000.0, 20.0..=20_000.0, move |hz, tween| {
            filter.set_cutoff(hz, tween)
        })
        .unwrap();
    let mut files = MemoryLoader::new();
    files.insert_sound("a", common::sine_at(0.2, 440.0, 0.1));
    files.insert_sound("b", common::sine_at(0.2, 660.0, 0.1));

    let no_music = sfx.add_bank(&bank, &mut files, None).unwrap_err();
    assert_eq!(no_music.problem, BankProblem::NoMusic);
    assert_eq!(no_music.path, "music.tracks");
    assert!(
        sfx.sound("shot").is_none() && sfx.mix().track("world").is_err(),
        "nothing added"
    );

    let mut music = Music::new(&mut sfx, MusicSettings::default()).unwrap();
    sfx.add_bank(&bank, &mut files, Some(&mut music)).unwrap();
    assert_eq!(
        music.track("menu").unwrap(),
        sfx.mix().track("menu").unwrap()
    );
    let (file, params) = bank.piece("theme").unwrap();
    assert_eq!(file, "theme.ogg");
    assert_eq!(params.start_at, std::time::Duration::from_secs(2));
    assert_eq!(
        params.loop_from,
        Some(std::time::Duration::from_millis(500))
    );
    assert_eq!(params.fade.duration, std::time::Duration::from_millis(1500));
    assert!(matches!(
        bank.piece("credits").unwrap_err().problem,
        BankProblem::Unknown { what: "piece", .. }
    ));

    let cave = bank.zone("cave", &sfx).unwrap();
    assert_eq!(cave.bus, sfx.mix().track("reverb").unwrap());
    assert_eq!(
        (cave.level, cave.fade, cave.follows_listener),
        (Decibels(-4.0), 3.0, true)
    );
    sfx.mix_mut().add_zone(cave).unwrap();
}

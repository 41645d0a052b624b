//! Switches: footsteps on grass and then on stone play only that state's
//! recordings, each recording known by its tone in the render, with the
//! sound's pick rules inside each state; a play's own state beside the
//! game's; every bad switch, state or sound a typed error that changes
//! nothing; a bank's switches.

use std::time::Duration;

use pool_audio::data::SoundBank;
use pool_audio::loader::MemoryLoader;
use pool_audio::sound::{Pick, Recordings, SwitchError};
use pool_audio::{
    OfflineBackend, PlayError, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings,
    error::AddSoundError, kira::AudioManager, linear_fade,
};

use super::common::{self, RATE};

/// The tones of the grass takes and of the stone takes, Hz.
const GRASS: [f64; 3] = [300.0, 450.0, 600.0];
const STONE: [f64; 2] = [900.0, 1200.0];

/// A take: 0.2 s of a sine at `hz`.
fn take(hz: f64) -> pool_audio::kira::sound::static_sound::StaticSoundData {
    common::sine_at(0.3, hz as f32, 0.2)
}

/// Footsteps of three grass takes and two stone takes, picked by `pick`.
fn footsteps(
    sfx: &mut SoundEffects,
    pick: Pick,
) -> (pool_audio::SoundId, pool_audio::sound::SwitchId) {
    let surface = sfx.add_switch("surface", &["grass", "stone"]).unwrap();
    let mut takes = Recordings::new();
    for hz in GRASS {
        takes = takes.for_state("grass", take(hz), 1.0);
    }
    for hz in STONE {
        takes = takes.for_state("stone", take(hz), 1.0);
    }
    let settings = SoundSettings::default()
        .switch(surface)
        .pick(pick)
        .max_voices(1);
    (sfx.add_sound("footstep", takes, settings).unwrap(), surface)
}

/// The tone of the next play of `step` with `params`, rendered alone.
fn tone(
    manager: &mut AudioManager<OfflineBackend>,
    sfx: &mut SoundEffects,
    step: pool_audio::SoundId,
    params: PlayParams,
) -> f64 {
    sfx.play(step, params).unwrap();
    sfx.update(common::BLOCK).unwrap();
    let heard = common::render_left(manager, 0.1);
    sfx.stop_all(linear_fade(Duration::from_millis(1))).unwrap();
    common::render_left(manager, 0.15);
    sfx.update(common::BLOCK).unwrap();
    let hz = common::frequency(&heard[480..], f64::from(RATE));
    // The nearest take's tone: the render is that take.
    let takes = GRASS.iter().chain(&STONE);
    let nearest = takes
        .min_by(|a, b| (*a - hz).abs().total_cmp(&(*b - hz).abs()))
        .unwrap();
    assert!((nearest - hz).abs() < 5.0, "{hz} Hz is no take's tone");
    *nearest
}

#[test]
fn a_play_picks_among_the_current_states_recordings_by_the_sounds_rules() {
    let (mut manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let (step, surface) = footsteps(&mut sfx, Pick::Shuffle);
    // On grass: two shuffled rounds, each every grass take once.
    let grass: Vec<f64> = (0..6)
        .map(|_| tone(&mut manager, &mut sfx, step, PlayParams::default()))
        .collect();
    for round in grass.chunks(3) {
        let mut sorted = round.to_vec();
        sorted.sort_by(f64::total_cmp);
        assert_eq!(sorted, GRASS, "a grass round: {grass:?}");
    }
    // A round never starts with the take that ended the one before.
    assert_ne!(grass[2], grass[3], "{grass:?}");
    // On stone: only the stone takes, each round both.
    sfx.set_switch(surface, "stone").unwrap();
    let stone: Vec<f64> = (0..4)
        .map(|_| tone(&mut manager, &mut sfx, step, PlayParams::default()))
        .collect();
    for round in stone.chunks(2) {
        let mut sorted = round.to_vec();
        sorted.sort_by(f64::total_cmp);
        assert_eq!(sorted, STONE, "a stone round: {stone:?}");
    }
    // Each state keeps its own round: a stone round interrupted by a whole
    // grass round goes on where it was.
    for _ in 0..6 {
        sfx.set_switch(surface, "stone").unwrap();
        let first = tone(&mut manager, &mut sfx, step, PlayParams::default());
        sfx.set_switch(surface, "grass").unwrap();
        for _ in 0..3 {
            tone(&mut manager, &mut sfx, step, PlayParams::default());
        }
        sfx.set_switch(surface, "stone").unwrap();
        let second = tone(&mut manager, &mut sfx, step, PlayParams::default());
        assert_ne!(first, second, "the stone round went on");
    }
    // Another character still on grass: its own state, the game's unchanged.
    let on_grass = sfx.switch_state(surface, "grass").unwrap();
    for _ in 0..4 {
        let hz = tone(
            &mut manager,
            &mut sfx,
            step,
            PlayParams::default().state(on_grass),
        );
        assert!(GRASS.contains(&hz), "{hz}");
    }
    assert_eq!(sfx.switch_current(surface).unwrap(), "stone");
    // A named recording plays whatever the state.
    let named = tone(
        &mut manager,
        &mut sfx,
        step,
        PlayParams::default().recording(0),
    );
    assert_eq!(named, GRASS[0]);
}

#[test]
fn sequential_and_random_picks_stay_inside_the_state() {
    for pick in [Pick::Sequential, Pick::Random { avoid_last: 2 }] {
        let (mut manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
        let (step, surface) = footsteps(&mut sfx, pick);
        sfx.set_switch(surface, "stone").unwrap();
        let stone: Vec<f64> = (0..6)
            .map(|_| tone(&mut manager, &mut sfx, step, PlayParams::default()))
            .collect();
        assert!(
            stone.iter().all(|hz| STONE.contains(hz)),
            "{pick:?}: {stone:?}"
        );
        // Two takes, a window of one at least: they alternate.
        assert!(
            stone.windows(2).all(|w| w[0] != w[1]),
            "{pick:?}: {stone:?}"
        );
        sfx.set_switch(surface, "grass").unwrap();
        let grass: Vec<f64> = (0..6)
            .map(|_| tone(&mut manager, &mut sfx, step, PlayParams::default()))
            .collect();
        assert!(
            grass.iter().all(|hz| GRASS.contains(hz)),
            "{pick:?}: {grass:?}"
        );
        assert!(
            grass.windows(2).all(|w| w[0] != w[1]),
            "{pick:?}: {grass:?}"
        );
    }
}

#[test]
fn bad_switches_states_and_sounds_are_refused_and_change_nothing() {
    let (_manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let surface = sfx.add_switch("surface", &["grass", "stone"]).unwrap();
    assert_eq!(
        sfx.add_switch("surface", &["x"]),
        Err(SwitchError::DuplicateName("surface".into()))
    );
    assert_eq!(sfx.add_switch("empty", &[]), Err(SwitchError::NoStates));
    assert_eq!(
        sfx.add_switch("twice", &["a", "a"]),
        Err(SwitchError::DuplicateState("a".into()))
    );
    assert!(sfx.switch("empty").is_none() && sfx.switch("twice").is_none());
    assert_eq!(
        sfx.set_switch(surface, "sand"),
        Err(SwitchError::UnknownState("sand".into()))
    );
    assert_eq!(sfx.switch_current(surface).unwrap(), "grass");

    let add = |sfx: &mut SoundEffects, takes: Recordings, settings: SoundSettings| {
        sfx.add_sound("step", takes, settings)
    };
    let switched = SoundSettings::default().switch(surface);
    let unknown = Recordings::new()
        .for_state("grass", take(300.0), 1.0)
        .for_state("sand", take(400.0), 1.0);
    assert_eq!(
        add(&mut sfx, unknown, switched),
        Err(AddSoundError::Switch(SwitchError::UnknownState(
            "sand".into()
        )))
    );
    let stateless = Recordings::new()
        .for_state("grass", take(300.0), 1.0)
        .with(take(400.0), 1.0);
    assert_eq!(
        add(&mut sfx, stateless, switched),
        Err(AddSoundError::Switch(SwitchError::NoState { recording: 1 }))
    );
    let no_stone = Recordings::new()
        .for_state("grass", take(300.0), 1.0)
        .for_state("stone", take(400.0), 0.0);
    assert_eq!(
        add(&mut sfx, no_stone, switched),
        Err(AddSoundError::Switch(SwitchError::EmptyState(
            "stone".into()
        )))
    );
    let no_switch = Recordings::new().for_state("grass", take(300.0), 1.0);
    assert_eq!(
        add(&mut sfx, no_switch, SoundSettings::default()),
        Err(AddSoundError::Switch(SwitchError::NoSwitch))
    );
    assert!(sfx.sound("step").is_none(), "nothing added");

    // A play's state of another switch, of another manager, or for a sound of
    // no switch is refused.
    let other = sfx.add_switch("weather", &["dry", "rain"]).unwrap();
    let rain = sfx.switch_state(other, "rain").unwrap();
    let takes = Recordings::new()
        .for_state("grass", take(300.0), 1.0)
        .for_state("stone", take(600.0), 1.0);
    let step = sfx.add_sound("step", takes, switched).unwrap();
    assert_eq!(
        sfx.play(step, PlayParams::default().state(rain))
            .unwrap_err(),
        PlayError::WrongState
    );
    let plain = sfx
        .add_sound("plain", take(500.0), SoundSettings::default())
        .unwrap();
    let grass = sfx.switch_state(surface, "grass").unwrap();
    assert_eq!(
        sfx.play(plain, PlayParams::default().state(grass))
            .unwrap_err(),
        PlayError::WrongState
    );
    let (_other_manager, mut elsewhere, _m) =
        common::metered(RATE, SoundEffectsSettings::default());
    let far = elsewhere
        .add_switch("surface", &["grass", "stone"])
        .unwrap();
    let far_grass = elsewhere.switch_state(far, "grass").unwrap();
    assert_eq!(
        sfx.play(step, PlayParams::default().state(far_grass))
            .unwrap_err(),
        PlayError::WrongState
    );
    assert_eq!(sfx.set_switch(far, "stone"), Err(SwitchError::Unknown));
    assert_eq!(sfx.stats().plays, 0);
}

#[test]
fn a_banks_switches_pick_its_recordings() {
    let (mut manager, mut sfx, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let mut files = MemoryLoader::new();
    for hz in GRASS.iter().chain(&STONE) {
        files.insert_sound(format!("{hz}"), take(*hz));
    }
    let text = r#"(
        switches: { "surface": ["grass", "stone"] },
        sounds: {
            "footstep": (
                switch: "surface",
                pick: Shuffle,
                max_voices: 1,
                recordings: [
                    (file: "300", state: "grass"), (file: "450", state: "grass"), (file: "600", state: "grass"),
                    (file: "900", state: "stone"), (file: "1200", state: "stone"),
                ],
            ),
        },
    )"#;
    let bank = SoundBank::from_ron("steps.ron", text).unwrap();
    assert!(bank.same_as(&SoundBank::from_ron("again.ron", &bank.to_ron()).unwrap()));
    sfx.add_bank(&bank, &mut files, None).unwrap();
    let (step, surface) = (
        sfx.sound("footstep").unwrap(),
        sfx.switch("surface").unwrap(),
    );
    sfx.set_switch(surface, "stone").unwrap();
    for _ in 0..4 {
        let hz = tone(&mut manager, &mut sfx, step, PlayParams::default());
        assert!(STONE.contains(&hz), "{hz}");
    }
    // A state the switch lacks is placed in the text.
    let bad = text.replace(r#"state: "stone""#, r#"state: "sand""#);
    let bad = SoundBank::from_ron("bad.ron", &bad).unwrap();
    let (_m, mut fresh, _meter) = common::metered(RATE, SoundEffectsSettings::default());
    let error = fresh.add_bank(&bad, &mut files, None).unwrap_err();
    assert_eq!(error.path, "sounds.footstep.switch", "{error}");
    assert!(fresh.switch("surface").is_none(), "nothing added: {error}");
}

//! Music is part of the mix: under the output's limiter with the sound
//! effects, ducked and set by snapshots with no extra step, crossfaded along
//! its tween's easing, decoded as its backend needs. Measured in the render.

use kira::backend::mock::{MockBackend, MockBackendSettings};
use kira::{AudioManager, AudioManagerSettings, Easing, Tween};
use pool_audio::mix::{DuckSettings, Snapshot};
use pool_audio::music::{Decode, Music, MusicParams, MusicSettings, MusicSource};
use pool_audio::{GroupSettings, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};

use super::{RATE, amplitude, common, fade, render, setup_with, tone};

/// Music near full scale and a sound effect at full scale: over 1 together,
/// held under the ceiling by the output's one limiter.
#[test]
fn the_ceiling_holds_music_and_sound_effects_together() {
    let mut peaks = Vec::new();
    for limiter in [None, Some(Default::default())] {
        let settings = SoundEffectsSettings {
            limiter,
            ..Default::default()
        };
        // A meter on the main track reads the mix before kira clamps it.
        let (mut manager, mut sfx, meter) = common::metered(RATE, settings);
        let mut music = Music::new(&mut sfx, MusicSettings::default()).unwrap();
        let m = music.track("music").unwrap();
        let loud = MusicSource::encoded("loud", tone(220.0, 2.0, RATE, 1));
        music
            .play(&mut sfx, m, &loud, MusicParams::default())
            .unwrap();
        music.set_volume(m, 5.0, fade(0.0)).unwrap();
        let hit = sfx
            .add_sound(
                "hit",
                common::constant(0.9, 1.0),
                SoundSettings::default().first_volume(0.0),
            )
            .unwrap();
        sfx.play(hit, PlayParams::default()).unwrap();
        sfx.update(0.01).unwrap();
        render(&mut manager, &mut music, 0.5);
        peaks.push(meter.peak());
    }
    let ceiling = 10f32.powf(-1.0 / 20.0);
    println!("peaks: unlimited {:.3}, limited {:.3}", peaks[0], peaks[1]);
    assert!(peaks[0] > 1.2, "the scene must overshoot: {}", peaks[0]);
    assert!(peaks[1] <= ceiling + 1e-4, "{} over {ceiling}", peaks[1]);
}

/// A duck from a voice group lowers a music track, and a snapshot sets it,
/// by the id `Music` gives: no control handed over, no second name.
#[test]
fn ducks_and_snapshots_reach_music_tracks_by_id() {
    let (mut manager, mut sfx, mut music) = setup_with(false);
    let m = music.track("music").unwrap();
    assert_eq!(sfx.mix().track("music"), Ok(m));
    let piece = MusicSource::encoded("piece", tone(220.0, 4.0, RATE, 1));
    music
        .play(&mut sfx, m, &piece, MusicParams::default())
        .unwrap();
    let dialogue = sfx.add_group("dialogue", GroupSettings::default()).unwrap();
    let duck = DuckSettings::default()
        .amount(-12.0)
        .attack(fade(0.0))
        .release(fade(0.0));
    sfx.mix_mut().add_duck(dialogue, m, duck).unwrap();
    let line = sfx
        .add_sound(
            "line",
            common::constant(0.0, 2.0),
            SoundSettings::default().group(dialogue),
        )
        .unwrap();
    let level = |out: &pool_audio::offline::Rendered| {
        20.0 * amplitude(&out.samples()[9_600..9_600 + 9_600], 220.0).log10()
    };
    let before = level(&render(&mut manager, &mut music, 0.3));
    sfx.play(line, PlayParams::default()).unwrap();
    sfx.update(0.01).unwrap();
    let ducked = level(&render(&mut manager, &mut music, 0.3));
    println!("music {before:.2} dB, under dialogue {ducked:.2} dB");
    assert!((ducked - before + 12.0).abs() < 0.2, "{before} -> {ducked}");

    let quiet = sfx
        .mix_mut()
        .add_snapshot(Snapshot::new("quiet").set(m, -6.0))
        .unwrap();
    sfx.mix_mut().apply_snapshot(quiet, 1.0, fade(0.0)).unwrap();
    let both = level(&render(&mut manager, &mut music, 0.3));
    println!("and a -6 dB snapshot: {both:.2} dB");
    assert!((both - before + 18.0).abs() < 0.2, "{before} -> {both}");
}

/// A crossfade follows its tween's easing, with equal power at every point:
/// with `InPowi(2)` half way through, the new piece is at `sin(pi/8)` and the
/// old at `cos(pi/8)` of their levels (a quarter of the way, eased).
#[test]
fn a_crossfade_follows_its_easing() {
    let (mut manager, mut sfx, mut music) = setup_with(false);
    let m = music.track("music").unwrap();
    let calm = MusicSource::encoded("calm", tone(220.0, 4.0, RATE, 1));
    let boss = MusicSource::encoded("boss", tone(330.0, 4.0, RATE, 1));
    music
        .play(&mut sfx, m, &calm, MusicParams::default())
        .unwrap();
    render(&mut manager, &mut music, 0.2);
    let eased = Tween {
        easing: Easing::InPowi(2),
        ..fade(1.0)
    };
    music
        .play(&mut sfx, m, &boss, MusicParams::default().fade(eased))
        .unwrap();
    let during = render(&mut manager, &mut music, 1.0);
    let middle = &during.samples()[(0.45 * 96_000.0) as usize..][..9_600];
    let (old, new) = (amplitude(middle, 220.0), amplitude(middle, 330.0));
    let angle = std::f32::consts::FRAC_PI_2 * 0.25;
    println!("half way: old {old:.3}, new {new:.3}");
    assert!((old - 0.5 * angle.cos()).abs() < 0.01, "{old}");
    assert!((new - 0.5 * angle.sin()).abs() < 0.01, "{new}");
}

/// By default music decodes on the caller's thread offline, and on threads
/// with any other backend (kira's mock here, a sound card in a game).
#[test]
fn decoding_follows_the_backend() {
    let mut manager = AudioManager::<MockBackend>::new(AudioManagerSettings {
        backend_settings: MockBackendSettings { sample_rate: RATE },
        ..Default::default()
    })
    .unwrap();
    let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default()).unwrap();
    let music = Music::new(&mut sfx, MusicSettings::default()).unwrap();
    assert_eq!(music.decode(), Decode::Thread);
    let (_manager, mut sfx, _) = setup_with(true);
    let music = Music::new(
        &mut sfx,
        MusicSettings {
            tracks: Vec::new(),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(music.decode(), Decode::Caller);
}

/// Music routed to a bus plays through the bus's chain: a 300 Hz low-pass
/// bus takes a 4 kHz tone down by over 40 dB, and nothing of it reaches the
/// output dry; a snapshot on the bus sets the music's level.
#[test]
fn a_music_track_routed_to_a_bus_plays_through_its_effects() {
    use kira::effect::filter::FilterBuilder;
    use pool_audio::mix::BusBuilder;
    use pool_audio::music::TrackSettings;

    let mut levels = Vec::new();
    for cutoff in [None, Some(300.0)] {
        let (mut manager, mut sfx, _) = common::metered(
            RATE,
            SoundEffectsSettings {
                limiter: None,
                ..Default::default()
            },
        );
        let mut bus = BusBuilder::new();
        if let Some(cutoff) = cutoff {
            bus = bus.with_effect(FilterBuilder::new().cutoff(cutoff));
        }
        let menu = sfx.mix_mut().add_bus("menu", bus).unwrap();
        let settings = MusicSettings {
            tracks: vec![TrackSettings::new("music").bus(menu)],
            ..Default::default()
        };
        let mut music = Music::new(&mut sfx, settings).unwrap();
        let track = music.track("music").unwrap();
        let piece = MusicSource::encoded("tone", tone(4_000.0, 1.0, RATE, 1));
        music
            .play(&mut sfx, track, &piece, MusicParams::default())
            .unwrap();
        let rendered = render(&mut manager, &mut music, 0.5);
        let heard = &rendered.samples()[2 * 9_600..];
        levels.push(amplitude(heard, 4_000.0));
        if cutoff.is_none() {
            // The bus's volume, set by a snapshot, is the music's.
            let quiet = sfx
                .mix_mut()
                .add_snapshot(Snapshot::new("quiet").set(menu, -20.0))
                .unwrap();
            sfx.mix_mut().apply_snapshot(quiet, 1.0, fade(0.0)).unwrap();
            let rendered = render(&mut manager, &mut music, 0.2);
            let quiet = amplitude(&rendered.samples()[2 * 4_800..], 4_000.0);
            let drop_db = 20.0 * (quiet / levels[0]).log10();
            assert!(
                (drop_db + 20.0).abs() < 0.2,
                "snapshot on the bus: {drop_db} dB"
            );
        }
    }
    println!(
        "4 kHz music: dry {:.3}, through a 300 Hz low-pass {:.5}",
        levels[0], levels[1]
    );
    assert!(
        levels[0] > 0.45,
        "the plain bus passes the tone: {}",
        levels[0]
    );
    assert!(
        levels[1] < levels[0] * 0.01,
        "{} vs {}",
        levels[1],
        levels[0]
    );
}

/// The left channel of 1 s with a bed at 0.25 on `target` (the music track,
/// or a bus a group of sound effects plays into), lowered by a side-chain
/// from a muted bus where a constant source sounds from 0.2 s. The bus the
/// side-chain needs is added first, as a game adds its buses before music
/// plays; the music track is then made under the buses' root.
fn side_chained_bed(onto_music: bool) -> Vec<f32> {
    use pool_audio::mix::{BusBuilder, SideChainSettings};

    let (mut manager, mut sfx, mut music) = setup_with(false);
    let voice = sfx
        .mix_mut()
        .add_bus("voice", BusBuilder::new().volume(-60.0))
        .unwrap();
    let m = music.track("music").unwrap();
    let target = if onto_music {
        m
    } else {
        sfx.mix_mut().add_bus("beds", BusBuilder::new()).unwrap()
    };
    let settings = SideChainSettings::default()
        .threshold(-30.0)
        .ratio(4.0)
        .attack(std::time::Duration::from_millis(20));
    sfx.mix_mut()
        .add_sidechain(voice, target, settings)
        .unwrap();
    let full = |group| SoundSettings::default().first_volume(0.0).group(group);
    if onto_music {
        let bed = MusicSource::encoded("bed", super::constant(0.25, 2.0));
        music
            .play(&mut sfx, m, &bed, MusicParams::default())
            .unwrap();
    } else {
        let beds = sfx
            .add_group("beds", GroupSettings::default().bus(target))
            .unwrap();
        let bed = sfx
            .add_sound("bed", common::constant(0.25, 2.0), full(beds))
            .unwrap();
        sfx.play(bed, PlayParams::default()).unwrap();
    }
    let dialogue = sfx
        .add_group("dialogue", GroupSettings::default().bus(voice))
        .unwrap();
    let line = sfx
        .add_sound("line", common::constant(0.3, 1.0), full(dialogue))
        .unwrap();
    let at = kira::StartTime::Delayed(std::time::Duration::from_millis(200));
    sfx.play(line, PlayParams::default().start_time(at))
        .unwrap();
    sfx.update(0.01).unwrap();
    let out = render(&mut manager, &mut music, 1.0);
    out.samples().iter().step_by(2).copied().collect()
}

/// A side-chain lowers a music track as it lowers a bus, in the same block:
/// the two reductions agree within 0.05 dB at every frame.
#[test]
fn a_side_chain_reaches_a_music_track_as_it_reaches_a_bus() {
    let (music, bus) = (side_chained_bed(true), side_chained_bed(false));
    let db = |heard: &[f32], n: usize| 20.0 * (heard[n] / heard[4_800]).log10();
    let mut largest = 0.0f32;
    for n in 4_800..48_000 {
        largest = largest.max((db(&music, n) - db(&bus, n)).abs());
    }
    let deepest = db(&bus, 47_999);
    println!("reduction {deepest:.2} dB; largest difference {largest:.3} dB");
    assert!(deepest < -6.0, "the side-chain acts: {deepest} dB");
    assert!(largest < 0.05, "music and bus differ by {largest} dB");
}

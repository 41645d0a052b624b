//! Variations (`Recordings`, `Pick`, `SoundSettings::pitch_semitones` and
//! `volume_db`): the orders keep their promises over thousands of plays, the
//! weights are followed, each play's pitch and level measured in the render stay
//! inside the sound's ranges, a burst of the loudest combination stays inside the
//! copy budget, recordings of different lengths, rates and channels each play as
//! recorded, and bad inputs are typed errors that change nothing.

use std::sync::Arc;

use kira::sound::static_sound::StaticSoundData;
use kira::{Decibels, Frame};
use pool_audio::{
    PlayError, PlayParams, SoundEffects, SoundEffectsSettings, SoundEffectsStats, SoundId,
    SoundSettings, error::AddSoundError, error::ParamError, error::SettingsError, sound::Pick,
    sound::Recordings, voices::Virtualization,
};

use crate::common::{self, FRAME};

/// A short click of `level`, `frames` long: a recording that ends quickly.
fn click(level: f32, frames: usize) -> StaticSoundData {
    let frames: Arc<[Frame]> = vec![Frame::from_mono(level); frames].into();
    StaticSoundData {
        sample_rate: common::RATE,
        frames,
        settings: Default::default(),
        slice: None,
    }
}

fn unlimited() -> SoundEffectsSettings {
    SoundEffectsSettings {
        limiter: None,
        ..Default::default()
    }
}

/// Plays `sound` `n` times, ten plays a frame, and returns the recording each
/// play picked.
fn picks(
    manager: &mut kira::AudioManager<pool_audio::OfflineBackend>,
    sfx: &mut SoundEffects,
    sound: SoundId,
    n: usize,
) -> Vec<usize> {
    let mut picked = Vec::with_capacity(n);
    for i in 0..n {
        let voice = sfx.play(sound, PlayParams::default()).unwrap();
        picked.push(sfx.recording_of(voice).unwrap());
        if i % 10 == 9 {
            sfx.update(FRAME).unwrap();
            manager.backend_mut().render(0.001).unwrap();
        }
    }
    picked
}

#[test]
fn random_avoiding_the_last_two_never_repeats_within_the_window() {
    let (mut manager, mut sfx, _) = common::metered(common::RATE, unlimited());
    let takes: Vec<_> = (0..4).map(|i| click(0.1, 48 + i)).collect();
    let settings = SoundSettings::default().pick(Pick::Random { avoid_last: 2 });
    let shot = sfx.add_sound("shot", takes, settings).unwrap();
    let picked = picks(&mut manager, &mut sfx, shot, 10_000);
    for (i, window) in picked.windows(3).enumerate() {
        assert!(
            window[2] != window[0] && window[2] != window[1] && window[0] != window[1],
            "play {} repeats one of the two before it: {window:?}",
            i + 2
        );
    }
    for recording in 0..4 {
        let share = picked.iter().filter(|r| **r == recording).count();
        assert!(share > 2_000, "recording {recording} picked {share} times");
    }
}

#[test]
fn shuffle_plays_every_recording_before_any_repeats() {
    let (mut manager, mut sfx, _) = common::metered(common::RATE, unlimited());
    let takes: Vec<_> = (0..4).map(|i| click(0.1, 48 + i)).collect();
    let steps = sfx
        .add_sound("steps", takes, SoundSettings::default().pick(Pick::Shuffle))
        .unwrap();
    let picked = picks(&mut manager, &mut sfx, steps, 4_000);
    for round in picked.chunks(4) {
        let mut sorted = round.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, [0, 1, 2, 3], "a round of four plays each once");
    }
    assert!(
        picked.windows(2).all(|pair| pair[0] != pair[1]),
        "not even across rounds"
    );
    // Sequential goes around in order.
    let takes: Vec<_> = (0..3).map(|i| click(0.1, 48 + i)).collect();
    let lines = sfx
        .add_sound(
            "lines",
            takes,
            SoundSettings::default().pick(Pick::Sequential),
        )
        .unwrap();
    assert_eq!(
        picks(&mut manager, &mut sfx, lines, 7),
        [0, 1, 2, 0, 1, 2, 0]
    );
}

/// The long-run shares of `Pick::Random` with `weights` avoiding the last
/// pick, worked out from the docs' rule (by weight among the recordings but
/// the last one): the stationary distribution of that Markov chain.
fn shares_avoiding_the_last(weights: &[f64]) -> Vec<f64> {
    let n = weights.len();
    let mut p = vec![1.0 / n as f64; n];
    for _ in 0..1_000 {
        let mut next = vec![0.0; n];
        for (last, share) in p.iter().enumerate() {
            let others: f64 = (0..n).filter(|j| *j != last).map(|j| weights[j]).sum();
            for j in (0..n).filter(|j| *j != last) {
                next[j] += share * weights[j] / others;
            }
        }
        p = next;
    }
    p
}

#[test]
fn weights_under_the_default_repeat_window_give_the_shares_the_docs_say() {
    let (mut manager, mut sfx, _) = common::metered(common::RATE, unlimited());
    let weights = [1.0, 2.0, 3.0, 4.0];
    let recordings = weights
        .iter()
        .enumerate()
        .fold(Recordings::new(), |set, (i, w)| {
            set.with(click(0.1, 48 + i), *w)
        });
    let shot = sfx
        .add_sound("shot", recordings, SoundSettings::default())
        .unwrap();
    let n = 8_000;
    let picked = picks(&mut manager, &mut sfx, shot, n);
    let expected = shares_avoiding_the_last(&weights);
    for (r, documented) in [0.13, 0.23, 0.30, 0.34].iter().enumerate() {
        let share = picked.iter().filter(|p| **p == r).count() as f64 / n as f64;
        assert!(
            (share - expected[r]).abs() < 0.02,
            "{r}: {share} against {expected:?}"
        );
        assert!((expected[r] - documented).abs() < 0.005, "{expected:?}");
    }
    assert!(
        picked.windows(2).all(|w| w[0] != w[1]),
        "never twice in a row"
    );
}

#[test]
fn a_window_of_all_but_one_repeats_its_first_round() {
    let (mut manager, mut sfx, _) = common::metered(common::RATE, unlimited());
    let takes: Vec<_> = (0..4).map(|i| click(0.1, 48 + i)).collect();
    let settings = SoundSettings::default().pick(Pick::Random { avoid_last: 3 });
    let shot = sfx.add_sound("shot", takes, settings).unwrap();
    let picked = picks(&mut manager, &mut sfx, shot, 40);
    let mut first = picked[..4].to_vec();
    for round in picked.chunks(4) {
        assert_eq!(round, &picked[..4], "{picked:?}");
    }
    first.sort_unstable();
    assert_eq!(first, [0, 1, 2, 3], "every recording in the first round");
}

#[test]
fn random_choices_follow_the_weights() {
    let (mut manager, mut sfx, _) = common::metered(common::RATE, unlimited());
    let weights = [1.0, 2.0, 3.0, 4.0];
    let recordings = weights
        .iter()
        .enumerate()
        .fold(Recordings::new(), |set, (i, w)| {
            set.with(click(0.1, 48 + i), *w)
        });
    let settings = SoundSettings::default().pick(Pick::Random { avoid_last: 0 });
    let shot = sfx.add_sound("shot", recordings, settings).unwrap();
    let n = 10_000;
    let picked = picks(&mut manager, &mut sfx, shot, n);
    let total: f64 = weights.iter().sum();
    let chi_square: f64 = (0..4)
        .map(|r| {
            let observed = picked.iter().filter(|p| **p == r).count() as f64;
            let expected = n as f64 * weights[r] / total;
            (observed - expected).powi(2) / expected
        })
        .sum();
    // 3 degrees of freedom: p > 0.01 below 11.345.
    eprintln!("weights 1:2:3:4 over {n} picks: chi-square {chi_square:.2}");
    assert!(chi_square < 11.345, "chi-square {chi_square}");
    // A recording of weight 0 is never picked, unless a play names it.
    let never = Recordings::new()
        .with(click(0.1, 48), 1.0)
        .with(click(0.1, 49), 0.0);
    let rare = sfx
        .add_sound("rare", never, SoundSettings::default())
        .unwrap();
    assert!(
        picks(&mut manager, &mut sfx, rare, 200)
            .iter()
            .all(|r| *r == 0)
    );
    let named = sfx.play(rare, PlayParams::default().recording(1)).unwrap();
    assert_eq!(sfx.recording_of(named), Some(1));
}

/// The frequency of a steady sine in `samples` (interleaved stereo, left
/// channel).
fn frequency(samples: &[f32], rate: f64) -> f64 {
    common::frequency(&common::left(samples), rate)
}

fn peak(samples: &[f32]) -> f32 {
    samples.iter().fold(0.0, |peak, s| peak.max(s.abs()))
}

#[test]
fn each_plays_pitch_and_level_measured_in_the_render_stay_in_the_ranges() {
    let (mut manager, mut sfx, _) = common::metered(common::RATE, unlimited());
    let one_at_a_time = SoundSettings::default()
        .max_voices(1)
        .first_volume(0.0)
        .virtualization(Virtualization::Kill);
    let tone = [common::sine(440.0, 0.4), common::sine(440.0, 0.4)];
    let plain = sfx.add_sound("plain", tone.clone(), one_at_a_time).unwrap();
    let varied = sfx
        .add_sound(
            "varied",
            tone,
            one_at_a_time
                .pitch_semitones(-12.0, 12.0)
                .volume_range(-6.0, 0.0),
        )
        .unwrap();
    let rate = f64::from(common::RATE);
    // Each play alone: started, its steady part rendered, then stopped.
    let mut measure = |sound| {
        sfx.play(sound, PlayParams::default()).unwrap();
        manager.backend_mut().render(0.02).unwrap();
        let steady = manager.backend_mut().render(0.1).unwrap();
        sfx.stop_all(pool_audio::linear_fade(std::time::Duration::from_millis(1)))
            .unwrap();
        manager.backend_mut().render(0.01).unwrap();
        sfx.update(FRAME).unwrap();
        let samples = steady.samples();
        (frequency(samples, rate), peak(samples))
    };
    let (reference_hz, reference_peak) = measure(plain);
    assert!((reference_hz - 440.0).abs() < 2.0, "{reference_hz}");
    let (mut semitones, mut decibels) = (Vec::new(), Vec::new());
    for _ in 0..60 {
        let (hz, level) = measure(varied);
        semitones.push(12.0 * (hz / reference_hz).log2());
        decibels.push(20.0 * f64::from(level / reference_peak).log10());
    }
    let range = |values: &[f64]| {
        values
            .iter()
            .fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(*v), hi.max(*v)))
    };
    let (low, high) = range(&semitones);
    eprintln!("pitch measured over 60 plays: {low:.2} to {high:.2} semitones");
    assert!(
        low >= -12.05 && high <= 12.05,
        "pitch {low}..{high} semitones"
    );
    assert!(
        low < -8.0 && high > 8.0,
        "the draws span the range: {low}..{high}"
    );
    let (low, high) = range(&decibels);
    eprintln!("level measured over 60 plays: {low:.2} to {high:.2} dB");
    assert!(low >= -6.05 && high <= 0.05, "level {low}..{high} dB");
    assert!(
        low < -4.5 && high > -1.5,
        "the draws span the range: {low}..{high}"
    );
}

#[test]
fn a_burst_of_the_loudest_combination_stays_inside_the_budget() {
    // Three recordings: quiet, loud and stereo at another rate, a short one.
    let quiet = common::sine(220.0, 1.0);
    let quiet = StaticSoundData {
        frames: quiet.frames.iter().map(|f| *f * 0.3).collect(),
        ..quiet
    };
    let loud = common::sine(330.0, 0.6);
    let other_rate = StaticSoundData {
        sample_rate: 32_000,
        frames: (0..16_000)
            .map(|i| {
                let t = i as f32 / 32_000.0;
                Frame {
                    left: 0.8 * (t * 500.0 * std::f32::consts::TAU).sin(),
                    right: 0.2 * (t * 700.0 * std::f32::consts::TAU).sin(),
                }
            })
            .collect(),
        settings: Default::default(),
        slice: None,
    };
    let ceiling = 10f32.powf(-1.0 / 20.0);
    for (volume_db, name) in [((0.0, 0.0), "full"), ((-6.0, 0.0), "varied")] {
        for named in [Some(1), None] {
            let (mut manager, mut sfx, meter) = common::metered(common::RATE, unlimited());
            let settings = SoundSettings::default()
                .max_voices(10)
                .first_volume(-10.4576)
                .pitch_semitones(-3.0, 3.0)
                .volume_range(volume_db.0, volume_db.1);
            let takes = [quiet.clone(), loud.clone(), other_rate.clone()];
            let boom = sfx.add_sound(name, takes, settings).unwrap();
            for i in 0..100 {
                let params = PlayParams::default().panning([0.0, -0.7, 0.7][i % 3]);
                let params = match named {
                    Some(r) => params.recording(r),
                    None => params,
                };
                let _ = sfx.play(boom, params);
            }
            assert_eq!(sfx.sound_info(boom).copies_playing(), 10);
            manager.backend_mut().render(1.0).unwrap();
            let peak = meter.peak();
            eprintln!(
                "{name}, recording {named:?}: peak {:.2} dBFS",
                20.0 * peak.log10()
            );
            assert!(
                peak <= ceiling + 1e-4 && peak > 0.1,
                "{name}, recording {named:?}: peak {peak} against {ceiling}"
            );
        }
    }
}

#[test]
fn recordings_of_other_lengths_rates_and_channels_each_play_as_recorded() {
    let (mut manager, mut sfx, _) = common::metered(common::RATE, unlimited());
    let short = click(0.5, 4_800); // 0.1 s at 48 kHz, mono
    let long_left = StaticSoundData {
        sample_rate: 24_000,
        frames: vec![
            Frame {
                left: 0.5,
                right: 0.0
            };
            7_200
        ]
        .into(), // 0.3 s
        settings: Default::default(),
        slice: None,
    };
    let sound = sfx
        .add_sound("two", [short, long_left], SoundSettings::default())
        .unwrap();
    for (recording, seconds, right) in [(0, 0.1, true), (1, 0.3, false)] {
        sfx.play(sound, PlayParams::default().recording(recording))
            .unwrap();
        let audio = manager.backend_mut().render(0.5).unwrap();
        let samples = audio.samples();
        let sounding = samples
            .chunks(2)
            .rposition(|frame| frame[0].abs() > 0.01)
            .unwrap();
        let heard = sounding as f64 / f64::from(common::RATE);
        assert!(
            (heard - seconds).abs() < 0.005,
            "recording {recording} sounded {heard} s, recorded {seconds} s"
        );
        let right_heard = samples.chunks(2).any(|frame| frame[1].abs() > 0.01);
        assert_eq!(right_heard, right, "recording {recording}'s right channel");
        sfx.update(FRAME).unwrap();
    }
}

#[test]
fn bad_recordings_and_ranges_are_typed_errors_and_change_nothing() {
    let (_manager, mut sfx, _) = common::metered(common::RATE, unlimited());
    let good = sfx
        .add_sound(
            "good",
            [click(0.1, 48), click(0.2, 48)],
            SoundSettings::default(),
        )
        .unwrap();
    let before: SoundEffectsStats = sfx.stats();
    let refusals: Vec<(Recordings, SoundSettings, AddSoundError)> = vec![
        (
            Recordings::new(),
            SoundSettings::default(),
            AddSoundError::NoRecordings,
        ),
        (
            Recordings::new()
                .with(click(0.1, 48), 0.0)
                .with(click(0.1, 48), 0.0),
            SoundSettings::default(),
            AddSoundError::NoWeight,
        ),
        (
            Recordings::new()
                .with(click(0.1, 48), 1.0)
                .with(click(0.1, 48), f64::NAN),
            SoundSettings::default(),
            AddSoundError::Weight {
                recording: 1,
                weight: f64::NAN,
            },
        ),
        (
            (0..65).map(|_| click(0.1, 48)).collect(),
            SoundSettings::default(),
            AddSoundError::TooManyRecordings(65),
        ),
        (
            [click(0.1, 48), click(0.1, 48)].into(),
            SoundSettings::default().pitch_semitones(f64::NAN, 1.0),
            AddSoundError::Settings(SettingsError::PitchSemitones(f64::NAN, 1.0)),
        ),
        (
            [click(0.1, 48), click(0.1, 48)].into(),
            SoundSettings::default().pitch_semitones(0.0, 49.0),
            AddSoundError::Settings(SettingsError::PitchSemitones(0.0, 49.0)),
        ),
        (
            [click(0.1, 48), click(0.1, 48)].into(),
            SoundSettings::default().volume_range(-3.0, f32::NAN),
            AddSoundError::Settings(SettingsError::VolumeRange(
                Decibels(-3.0),
                Decibels(f32::NAN),
            )),
        ),
        (
            [click(0.1, 48), click(0.1, 48)].into(),
            SoundSettings::default().volume_range(-3.0, 2.0),
            AddSoundError::Settings(SettingsError::VolumeRange(Decibels(-3.0), Decibels(2.0))),
        ),
    ];
    for (recordings, settings, expected) in refusals {
        let error = sfx.add_sound("bad", recordings, settings).unwrap_err();
        // NaN is not equal to itself: compare what the errors say.
        assert_eq!(error.to_string(), expected.to_string());
        assert_eq!(sfx.sound("bad"), None, "{error}: nothing added");
    }
    assert_eq!(
        sfx.play(good, PlayParams::default().recording(2)),
        Err(PlayError::UnknownRecording(2))
    );
    assert!(matches!(
        sfx.play(good, PlayParams::default().volume(f32::NAN)),
        Err(PlayError::InvalidParam(ParamError::Volume(_)))
    ));
    let after = sfx.stats();
    assert_eq!(after.refused_invalid, before.refused_invalid + 2, "counted");
    assert_eq!(after.plays, before.plays, "refused plays change nothing");
    assert_eq!(
        (after.real_voices, after.virtual_voices),
        (before.real_voices, before.virtual_voices)
    );
    assert_eq!(sfx.sound_info(good).recordings(), 2);
}

/// The left channel of 3 s of a looping ramp (0.8 s a loop) played as
/// `recording` of `recordings`, and if `interrupt`, displaced by a
/// higher-priority sound from 1 s to 1.5 s.
fn ramp_render(recordings: Vec<StaticSoundData>, recording: usize, interrupt: bool) -> Vec<f32> {
    let settings = SoundEffectsSettings {
        voice_cap: 1,
        limiter: None,
        ..Default::default()
    };
    let (mut manager, mut sfx, _) = common::metered(common::RATE, settings);
    let loops = SoundSettings::default()
        .max_voices(1)
        .virtualization(Virtualization::Virtualize(
            pool_audio::voices::Resume::FromElapsed,
        ));
    let ramps = sfx.add_sound("ramps", recordings, loops).unwrap();
    let alarm = sfx
        .add_sound(
            "alarm",
            common::sine(330.0, 1.0),
            SoundSettings::default().priority(1),
        )
        .unwrap();
    let voice = sfx
        .play(ramps, PlayParams::default().recording(recording))
        .unwrap();
    let mut out = Vec::new();
    for frame in 0..180 {
        if interrupt && frame == 60 {
            sfx.play(alarm, PlayParams::default()).unwrap();
            assert_eq!(sfx.state(voice), pool_audio::VoiceState::Virtual);
        }
        if interrupt && frame == 90 {
            sfx.stop_sound(alarm, kira::Tween::default()).unwrap();
        }
        let rendered = manager.backend_mut().render(FRAME).unwrap();
        out.extend(rendered.samples().iter().step_by(2));
        sfx.update(FRAME).unwrap();
    }
    out
}

#[test]
fn a_virtual_voice_of_a_recording_resumes_on_that_recordings_own_loop() {
    const LOOP: f64 = 0.8;
    let long = || common::ramp((LOOP * f64::from(common::RATE)) as usize);
    let short = common::ramp(14_400); // 0.3 s: another length
    let reference = ramp_render(vec![long()], 0, false);
    let resumed = ramp_render(vec![short, long()], 1, true);
    let amplitude = reference[..48_000].iter().fold(0f32, |m, s| m.max(s.abs())) / 0.5;
    let position = |out: &[f32], sample: usize| f64::from(out[sample] / amplitude + 0.5) * LOOP;
    let mut worst: f64 = 0.0;
    for sample in (96_000..139_000).step_by(997) {
        let expected = position(&reference, sample);
        if expected > 0.01 && expected < LOOP - 0.01 {
            let d = (expected - position(&resumed, sample)).rem_euclid(LOOP);
            worst = worst.max(d.min(LOOP - d));
        }
    }
    assert!(
        worst <= 0.001,
        "the resumed recording is {:.1} ms from where it would be",
        worst * 1000.0
    );
}

#[test]
fn a_voice_keeps_its_drawn_pitch_and_volume_when_the_game_sets_them() {
    let (mut manager, mut sfx, _) = common::metered(common::RATE, unlimited());
    let single = SoundSettings::default().max_voices(1).first_volume(0.0);
    let tone = || common::sine(440.0, 2.0);
    let plain = sfx.add_sound("plain", tone(), single).unwrap();
    // A range of one value: always 7 semitones up and 6 dB down.
    let fixed = single.pitch_semitones(7.0, 7.0).volume_range(-6.0, -6.0);
    let varied = sfx.add_sound("varied", tone(), fixed).unwrap();
    let rate = f64::from(common::RATE);
    let mut heard = |sfx: &mut SoundEffects| {
        manager.backend_mut().render(0.03).unwrap();
        let audio = manager.backend_mut().render(0.1).unwrap();
        sfx.update(0.13).unwrap();
        (
            frequency(audio.samples(), rate),
            f64::from(peak(audio.samples())),
        )
    };
    sfx.play(plain, PlayParams::default()).unwrap();
    let (_, reference) = heard(&mut sfx);
    sfx.stop_sound(
        plain,
        pool_audio::linear_fade(std::time::Duration::from_millis(1)),
    )
    .unwrap();
    let voice = sfx.play(varied, PlayParams::default()).unwrap();
    let (hz, level) = heard(&mut sfx);
    let fifth = 440.0 * 2f64.powf(7.0 / 12.0);
    assert!((hz - fifth).abs() < 3.0, "{hz} Hz");
    assert!((20.0 * (level / reference).log10() + 6.0).abs() < 0.1);
    // Half the rate and half the volume: the draw stays on top of both.
    let fade = pool_audio::linear_fade(std::time::Duration::from_millis(1));
    sfx.voice(voice).set_playback_rate(0.5, fade).unwrap();
    sfx.voice(voice).set_volume(-6.0206, fade).unwrap();
    let (hz, level) = heard(&mut sfx);
    assert!(
        (hz - fifth / 2.0).abs() < 2.0,
        "{hz} Hz, not {}",
        fifth / 2.0
    );
    let db = 20.0 * (level / reference).log10();
    assert!(
        (db + 12.02).abs() < 0.1,
        "{db} dB: -6 dB drawn and half the volume"
    );
}

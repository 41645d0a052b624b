//! The mix guarantee where a game takes it: panned, pitched, resampled, decoded,
//! continuous and mixed sounds, and every bad number a game can pass in. One test
//! per situation; each failed before the peaks were measured, the pan law
//! compensated, the outgoing and incoming copies kept inside the budget, the
//! limiter added and the numbers checked.

use std::sync::Arc;
use std::time::Duration;

use kira::sound::static_sound::StaticSoundData;

use kira::{AudioManager, AudioManagerSettings, Frame, Tween};
use pool_audio::{
    OfflineBackend, PlayError, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings,
    VoiceError, dsp::MeterHandle, error::ParamError, error::SoundError, error::StaleHandle,
    linear_fade, loader::MemoryLoader, offline::OfflineError, offline::OfflineSettings,
};

use crate::common::{self, FRAME, HEADROOM};

struct Game {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    meter: MeterHandle,
}

impl Game {
    /// A game at 48 kHz. `limited: false` turns the limiter off, to show what the
    /// copy attenuation alone holds.
    fn new(limited: bool) -> Self {
        Self::at(48_000, limited)
    }

    fn at(rate: u32, limited: bool) -> Self {
        let mut settings = SoundEffectsSettings::default();
        if !limited {
            settings.limiter = None;
        }
        let (manager, sfx, meter) = common::metered(rate, settings);
        Self {
            manager,
            sfx,
            meter,
        }
    }

    fn frame(&mut self, dt: f64) {
        self.sfx.update(dt).unwrap();
        self.manager.backend_mut().render(dt).unwrap();
    }

    fn render(&mut self, seconds: f64) -> Vec<f32> {
        self.manager
            .backend_mut()
            .render(seconds)
            .unwrap()
            .samples()
            .to_vec()
    }

    /// Adds `data` as a full stack (see [`full_stack`]) and plays it `copies`
    /// times in this frame, copy `i` with `params(i)`.
    fn stack(
        &mut self,
        name: &str,
        data: StaticSoundData,
        copies: usize,
        params: impl Fn(usize) -> PlayParams,
    ) -> pool_audio::SoundId {
        let sound = self.sfx.add_sound(name, data, full_stack()).unwrap();
        for i in 0..copies {
            self.sfx.play(sound, params(i)).unwrap();
        }
        sound
    }

    /// Peak before kira's clamp, at most `ceiling`, nothing clipped, nothing NaN.
    fn assert_under(&self, ceiling: f32, what: &str) {
        let peak = self.meter.peak();
        assert!(
            peak <= ceiling + 1e-5,
            "{what}: peak {peak} above {ceiling}"
        );
        assert_eq!(self.meter.clipped_samples(), 0, "{what}: clipped");
        assert_eq!(self.meter.non_finite_samples(), 0, "{what}: NaN");
        assert!(peak > 0.0, "{what}: something played");
    }
}

/// A full-scale square wave with a period of `period` samples: the sharp edges
/// kira's cubic overshoots on.
fn square(rate: u32, period: usize, seconds: f64) -> StaticSoundData {
    let n = (seconds * f64::from(rate)) as usize;
    common::mono_at(
        rate,
        (0..n).map(move |i| if i % period < period / 2 { 1.0 } else { -1.0 }),
    )
}

/// Eight copies, the first at 0.2: every copy above the audibility floor even
/// for a sound whose peak is 1.25.
fn full_stack() -> SoundSettings {
    SoundSettings::default()
        .max_voices(8)
        .first_volume(-13.9794)
}

#[test]
fn a_stack_panned_hard_to_one_side_stays_under_the_headroom() {
    for panning in [1.0, -1.0, 0.5, -0.26] {
        let mut game = Game::new(false);
        game.stack("tone", common::sine(440.0, 0.3), 8, |_| {
            PlayParams::default().panning(panning)
        });
        game.render(0.3);
        game.assert_under(HEADROOM, &format!("panning {panning}"));
        // The louder side plays at the full budget: nothing is given away.
        assert!(game.meter.peak() > HEADROOM * 0.97, "{}", game.meter.peak());
    }
}

#[test]
fn a_stack_whose_panning_moves_stays_under_the_headroom_on_each_channel() {
    // Eight copies in the middle, then swept hard left and on to hard right: the
    // louder channel gets the pan law's sqrt 2 on the way, and the bank lowers
    // the copies by it at every point of the fade.
    let mut game = Game::new(false);
    let sound = game.stack("tone", common::sine(440.0, 1.0), 8, |_| {
        PlayParams::default()
    });
    let voices: Vec<_> = (0..8)
        .map(|_| game.sfx.play(sound, PlayParams::default()))
        .filter_map(Result::ok)
        .collect();
    assert!(!voices.is_empty());
    game.render(0.05);
    for (target, millis) in [(-1.0, 100), (1.0, 300)] {
        for voice in &voices {
            let fade = linear_fade(Duration::from_millis(millis));
            game.sfx.voice(*voice).set_panning(target, fade).unwrap();
        }
        game.render(millis as f64 / 1000.0 + 0.05);
    }
    game.assert_under(HEADROOM, "a moving panning");
    assert!(game.meter.peak() > HEADROOM * 0.9, "{}", game.meter.peak());
    assert!(matches!(
        game.sfx
            .voice(voices[0])
            .set_panning(f32::NAN, Tween::default()),
        Err(VoiceError::InvalidParam(ParamError::Panning(_)))
    ));
}

#[test]
fn a_pitched_square_wave_and_a_resampled_file_stay_under_the_headroom() {
    // kira's cubic overshoots the edges by up to a quarter once it interpolates.
    for (rate, playback_rate) in [(48_000, 1.37), (48_000, 0.8), (44_100, 1.0), (22_050, 1.2)] {
        let mut game = Game::new(false);
        let buzz = game.stack("buzz", square(rate, 4, 0.2), 8, |_| {
            PlayParams::default().playback_rate(playback_rate)
        });
        assert!(game.sfx.sound_info(buzz).peak().unwrap().max() > 1.2);
        game.render(0.25);
        game.assert_under(HEADROOM, &format!("{rate} Hz at rate {playback_rate}"));
    }
}

#[test]
fn a_decoded_vorbis_file_that_peaks_above_full_scale_stays_under_the_headroom() {
    // A full-scale square wave encoded as Ogg Vorbis (44.1 kHz): the decoder gives
    // back samples above 1.0.
    let mut loader = MemoryLoader::new();
    loader.insert_encoded(
        "square",
        include_bytes!("../assets/square-44k.ogg").to_vec(),
    );
    let data = loader.load("square").unwrap();
    let mut game = Game::new(false);
    let rates = [1.0, 1.1, 0.9, 1.0, 1.05, 0.95, 1.0, 1.2];
    let square = game.stack("square", data, 8, |i| {
        PlayParams::default().playback_rate(rates[i])
    });
    let peak = game.sfx.sound_info(square).peak().unwrap();
    assert!(peak.sample() > 1.0, "decoded peak {}", peak.sample());
    game.render(0.3);
    game.assert_under(HEADROOM, "decoded vorbis");
}

/// A cosine starts at its peak: a new copy and the outgoing one it replaces are
/// both loud at the moment the new one starts.
fn cosine(frequency: f32, seconds: f32) -> StaticSoundData {
    let n = (seconds * 48_000.0) as usize;
    common::mono_at(
        48_000,
        (0..n).map(move |i| (i as f32 / 48_000.0 * frequency * std::f32::consts::TAU).cos()),
    )
}

#[test]
fn continuous_recycling_never_sums_the_outgoing_and_incoming_copies() {
    // One copy per sound at the whole headroom: every play recycles it. Once,
    // the outgoing copy faded out while the new one played at full volume, and
    // the two summed to 1.35 (a 110 Hz cosine at 60 fps); then the new copy
    // waited for the old one's fade; now it starts at once and rises as the old
    // one falls, inside the budget.
    for (fps, plays_per_frame) in [(60.0, 1), (60.0, 3), (240.0, 1), (1000.0, 1)] {
        let mut game = Game::new(false);
        let hum = game
            .sfx
            .add_sound(
                "hum",
                cosine(110.0, 0.5),
                SoundSettings::default().max_voices(1).first_volume(0.0),
            )
            .unwrap();
        let dt = 1.0 / fps;
        for _ in 0..(0.5 * fps) as usize {
            for _ in 0..plays_per_frame {
                game.sfx.play(hum, PlayParams::default()).unwrap();
            }
            game.frame(dt);
        }
        game.assert_under(HEADROOM, &format!("{fps} fps, {plays_per_frame} per frame"));
        assert!(game.sfx.stats().recycled_copies > 0);
    }
}

#[test]
fn a_recycled_copy_fades_out_without_a_click() {
    let mut game = Game::new(false);
    let hum = game
        .sfx
        .add_sound(
            "hum",
            common::sine(220.0, 0.5),
            SoundSettings::default().max_voices(1).first_volume(0.0),
        )
        .unwrap();
    let (mut previous, mut largest_step) = (0.0f32, 0.0f32);
    for _ in 0..60 {
        game.sfx.play(hum, PlayParams::default()).unwrap();
        game.sfx.update(FRAME).unwrap();
        for s in game.render(FRAME).iter().step_by(2) {
            largest_step = largest_step.max((s - previous).abs());
            previous = *s;
        }
    }
    // A copy cut off mid-wave would jump by up to the headroom in one sample; the
    // 10 ms fade (60 dB) steepens a 220 Hz sine's largest step by 12% at most.
    let sine_step = HEADROOM * (std::f32::consts::TAU * 220.0 / 48_000.0);
    assert!(
        largest_step <= sine_step * 1.15,
        "a step of {largest_step} (a sine's largest is {sine_step})"
    );
    assert_eq!(game.sfx.stats().recycled_copies, 59);
}

#[test]
fn a_stopped_copy_with_a_long_fade_does_not_stack_with_the_next_one() {
    let mut game = Game::new(false);
    let tone = game
        .sfx
        .add_sound(
            "tone",
            cosine(110.0, 2.0),
            SoundSettings::default().max_voices(1).first_volume(0.0),
        )
        .unwrap();
    let first = game.sfx.play(tone, PlayParams::default()).unwrap();
    game.frame(FRAME);
    game.sfx
        .voice(first)
        .stop(linear_fade(Duration::from_secs(1)))
        .unwrap();
    assert_eq!(game.sfx.sound_info(tone).copies_fading(), 1);
    game.sfx.play(tone, PlayParams::default()).unwrap();
    game.render(0.5);
    game.assert_under(HEADROOM, "a long fade cut short by the next copy");
}

#[test]
fn several_different_sounds_at_once_stay_under_the_limiters_ceiling() {
    let stacks = |game: &mut Game| {
        for (i, f) in [220.0, 330.0, 440.0].into_iter().enumerate() {
            game.stack(&format!("{f}"), common::sine(f, 0.3), 8, |_| {
                PlayParams::default().panning(i as f32 - 1.0)
            });
        }
        game.render(0.3);
    };
    let mut attenuated = Game::new(false);
    stacks(&mut attenuated);
    assert!(
        attenuated.meter.peak() > 1.0,
        "three stacks add up: {}",
        attenuated.meter.peak()
    );
    let mut limited = Game::new(true);
    stacks(&mut limited);
    limited.assert_under(HEADROOM, "three full stacks through the limiter");
    let limiter = limited.sfx.limiter().unwrap();
    assert!(limiter.take_max_gain_reduction().0 > 3.0);
}

#[test]
fn a_one_sound_storm_never_wakes_the_limiter() {
    let mut game = Game::new(true);
    let buzz = game
        .sfx
        .add_sound("buzz", square(44_100, 6, 0.3), full_stack())
        .unwrap();
    for i in 0..200 {
        let params = PlayParams::default()
            .panning((i % 5) as f32 / 2.0 - 1.0)
            .playback_rate(0.8 + (i % 7) as f64 * 0.07);
        game.sfx.play(buzz, params).unwrap();
    }
    assert_eq!(game.sfx.sound_info(buzz).copies_playing(), 8);
    game.render(0.4);
    game.assert_under(HEADROOM, "storm");
    let limiter = game.sfx.limiter().unwrap();
    assert_eq!(limiter.limited_frames(), 0);
    assert_eq!(limiter.take_max_gain_reduction().0, 0.0);
}

#[test]
fn positioned_copies_stay_under_the_headroom_at_any_distance_and_blend() {
    for (position, blend) in [
        ([0.0, 0.0, 0.0], 1.0),
        ([0.5, 0.0, 0.0], 1.0),
        ([-3.0, 0.0, 1.0], 0.5),
        ([2.0, 0.0, 0.0], 0.0),
        ([0.2, 0.0, 0.0], 1.0),
        ([-1.0, 0.0, -1.0], 0.7),
    ] {
        for panning in [1.0, -1.0, 0.0] {
            // A mono tone, and a stereo one loud on the right only: the
            // positioned voice keeps its stereo image (kira's spatial tracks
            // mixed it to mono), so its louder channel is what the budget holds.
            let stereo = common::sine(440.0, 0.3);
            let frames: Arc<[Frame]> = stereo
                .frames
                .iter()
                .map(|f| Frame::new(0.1 * f.left, f.right))
                .collect();
            let one_sided = StaticSoundData { frames, ..stereo };
            for (name, data) in [("mono", common::sine(440.0, 0.3)), ("stereo", one_sided)] {
                let mut game = Game::new(false);
                game.stack(name, data, 8, |_| {
                    PlayParams::default()
                        .position(position)
                        .spatial_blend(blend)
                        .panning(panning)
                });
                game.render(0.3);
                game.assert_under(
                    HEADROOM,
                    &format!("{name} at {position:?}, blend {blend}, panning {panning}"),
                );
            }
        }
    }
}

#[test]
fn a_nan_spatial_blend_position_or_listener_is_refused_and_the_mix_stays_finite() {
    let mut game = Game::new(true);
    let tone = game
        .sfx
        .add_sound("tone", common::sine(440.0, 0.3), full_stack())
        .unwrap();
    let here = PlayParams::default().position([1.0, 0.0, 0.0]);
    assert_eq!(
        game.sfx
            .play(tone, here.spatial_blend(f32::NAN))
            .unwrap_err()
            .to_string(),
        PlayError::InvalidParam(ParamError::SpatialBlend(f32::NAN)).to_string()
    );
    assert!(matches!(
        game.sfx.play(tone, here.spatial_blend(1.5)),
        Err(PlayError::InvalidParam(ParamError::SpatialBlend(_)))
    ));
    assert!(matches!(
        game.sfx
            .play(tone, PlayParams::default().position([f32::NAN, 0.0, 0.0])),
        Err(PlayError::InvalidParam(ParamError::Position(_)))
    ));
    let voice = game.sfx.play(tone, here).unwrap();
    assert!(matches!(
        game.sfx
            .voice(voice)
            .set_position([0.0, f32::INFINITY, 0.0]),
        Err(VoiceError::InvalidParam(ParamError::Position(_)))
    ));
    assert!(
        game.sfx
            .listener()
            .set_position([0.0, 0.0, f32::NAN])
            .is_err()
    );
    assert!(matches!(
        game.sfx.voice(voice).set_volume(f32::NAN, Tween::default()),
        Err(VoiceError::InvalidParam(ParamError::Volume(_)))
    ));
    // Extreme but finite positions are fine: kira's spatialization stays finite.
    game.sfx.listener().set_position([-3e38, 0.0, 0.0]).unwrap();
    game.sfx
        .voice(voice)
        .set_position([3e38, 3e38, -3e38])
        .unwrap();
    game.render(0.2);
    assert_eq!(game.meter.non_finite_samples(), 0);
    assert!(game.meter.peak().is_finite());
}

#[test]
fn playback_rates_volumes_and_pans_out_of_range_are_refused() {
    let mut game = Game::new(true);
    let tone = game
        .sfx
        .add_sound("tone", common::sine(440.0, 0.1), full_stack())
        .unwrap();
    for rate in [1e9, 17.0, 0.05, 0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(
            game.sfx
                .play(tone, PlayParams::default().playback_rate(rate))
                .map_err(|e| e.to_string()),
            Err(PlayError::InvalidParam(ParamError::PlaybackRate(rate)).to_string()),
            "{rate}"
        );
    }
    for rate in [1.0 / 16.0, 16.0] {
        assert!(
            game.sfx
                .play(tone, PlayParams::default().playback_rate(rate))
                .is_ok()
        );
    }
    for volume in [-0.1, 1.01, f64::NAN] {
        assert!(
            game.sfx
                .play(tone, PlayParams::default().volume(common::db(volume)))
                .is_err()
        );
    }
    for panning in [1.01, f32::NAN, f32::NEG_INFINITY] {
        assert!(
            game.sfx
                .play(tone, PlayParams::default().panning(panning))
                .is_err()
        );
    }
    assert!(
        game.sfx
            .set_track_volume(3.5218, linear_fade(Duration::ZERO))
            .is_err()
    );
    assert!(
        game.sfx
            .set_track_volume(f32::NAN, linear_fade(Duration::ZERO))
            .is_err()
    );
    // The fastest rate renders in bounded time; nothing was refused silently.
    game.render(0.1);
    assert_eq!(game.sfx.stats().plays, 2);
}

#[test]
fn sound_data_kira_cannot_play_is_refused_when_added() {
    let mut game = Game::new(true);
    let ok = common::sine(440.0, 0.01);
    let cases: Vec<(StaticSoundData, SoundError)> = vec![
        (
            StaticSoundData {
                sample_rate: 0,
                ..ok.clone()
            },
            SoundError::SampleRate(0),
        ),
        (
            StaticSoundData {
                sample_rate: u32::MAX,
                ..ok.clone()
            },
            SoundError::SampleRate(u32::MAX),
        ),
        (
            StaticSoundData {
                slice: Some((100, 1000)),
                ..ok.clone()
            },
            SoundError::Slice {
                start: 100,
                end: 1000,
                frames: 480,
            },
        ),
        (
            StaticSoundData {
                slice: Some((300, 200)),
                ..ok.clone()
            },
            SoundError::Slice {
                start: 300,
                end: 200,
                frames: 480,
            },
        ),
        (
            StaticSoundData {
                slice: Some((10, 10)),
                ..ok.clone()
            },
            SoundError::Empty,
        ),
        (
            common::mono_at(48_000, [0.1, f32::NAN, 0.1].into_iter()),
            SoundError::NonFinite { frame: 1 },
        ),
        (
            ok.loop_region(
                kira::sound::PlaybackPosition::Samples(100)
                    ..kira::sound::PlaybackPosition::Samples(100),
            ),
            SoundError::LoopRegion {
                start: 100,
                end: 100,
            },
        ),
        (
            ok.reverse(true)
                .start_position(kira::sound::PlaybackPosition::Samples(480)),
            SoundError::StartPosition(480),
        ),
        (
            ok.fade_in_tween(kira::Tween {
                easing: kira::Easing::InPowf(f64::NAN),
                ..Default::default()
            }),
            SoundError::FadeIn,
        ),
    ];
    for (i, (data, expected)) in cases.into_iter().enumerate() {
        let added = game
            .sfx
            .add_sound(&format!("bad{i}"), data, SoundSettings::default());
        assert_eq!(
            added,
            Err(pool_audio::error::AddSoundError::Sound(expected)),
            "case {i}"
        );
    }
    assert!(
        game.sfx
            .add_sound("fine", ok, SoundSettings::default())
            .is_ok()
    );
    // Nothing bad reached kira: rendering goes on.
    game.render(0.05);
}

#[test]
fn rendering_too_much_is_a_typed_error_not_an_abort() {
    let mut game = Game::new(true);
    assert!(matches!(
        game.manager.backend_mut().render(1e15),
        Err(OfflineError::TooLong { .. })
    ));
    assert!(matches!(
        game.manager.backend_mut().render(f64::MAX),
        Err(OfflineError::TooLong { .. })
    ));
    for rate in [0, u32::MAX] {
        let settings = AudioManagerSettings {
            backend_settings: OfflineSettings { sample_rate: rate },
            ..Default::default()
        };
        assert!(matches!(
            AudioManager::<OfflineBackend>::new(settings),
            Err(OfflineError::SampleRate(r)) if r == rate
        ));
    }
    assert_eq!(game.render(0.01).len(), 960, "the backend still renders");
}

#[test]
fn ids_and_handles_from_another_manager_are_refused() {
    let mut a = Game::new(true);
    let mut b = Game::new(true);
    let tone_a = a
        .sfx
        .add_sound("tone", common::sine(440.0, 1.0), full_stack())
        .unwrap();
    let tone_b = b
        .sfx
        .add_sound("tone", common::sine(220.0, 1.0), full_stack())
        .unwrap();
    assert_eq!(tone_a.index(), tone_b.index(), "the same index in both");
    assert_eq!(
        b.sfx.play(tone_a, PlayParams::default()),
        Err(PlayError::UnknownSound)
    );
    assert_eq!(b.sfx.sound_info(tone_a).copies_playing(), 0);
    assert!(b.sfx.sound_info(tone_a).name().is_none());
    let voice_a = a.sfx.play(tone_a, PlayParams::default()).unwrap();
    let voice_b = b.sfx.play(tone_b, PlayParams::default()).unwrap();
    assert!(!b.sfx.state(voice_a).is_live());
    assert_eq!(
        b.sfx.voice(voice_a).stop(linear_fade(Duration::ZERO)),
        Err(VoiceError::Stale(StaleHandle))
    );
    assert_eq!(
        b.sfx.voice(voice_a).set_volume(-20.0, Tween::default()),
        Err(VoiceError::Stale(StaleHandle))
    );
    assert_eq!(
        b.sfx.voice(voice_a).pause(Tween::default()),
        Err(VoiceError::Stale(StaleHandle))
    );
    b.sfx
        .stop_sound(tone_a, linear_fade(Duration::ZERO))
        .expect("a linear fade is valid");
    assert!(
        b.sfx.state(voice_b).is_live(),
        "b's own voice was not touched"
    );
    assert!(a.sfx.state(voice_a).is_live());
}

#[test]
fn min_retrigger_counts_exact_frames() {
    for (fps, frames) in [(60.0, 6), (30.0, 3), (144.0, 15)] {
        let mut game = Game::new(true);
        let step = game
            .sfx
            .add_sound(
                "step",
                common::sine(440.0, 0.05),
                SoundSettings::default().min_retrigger(std::time::Duration::from_secs_f64(0.1)),
            )
            .unwrap();
        game.sfx.play(step, PlayParams::default()).unwrap();
        let mut waited = 0;
        loop {
            game.frame(1.0 / fps);
            waited += 1;
            if game.sfx.play(step, PlayParams::default()).is_ok() {
                break;
            }
        }
        assert_eq!(waited, frames, "{fps} fps");
    }
}

#[test]
fn fading_up_from_a_volume_of_zero_stays_finite() {
    // 0 is -inf dB; kira fades in decibels, and a fade from -inf is NaN.
    let mut game = Game::new(true);
    let tone = game
        .sfx
        .add_sound("tone", common::sine(440.0, 1.0), full_stack())
        .unwrap();
    let voice = game.sfx.play(tone, PlayParams::default()).unwrap();
    game.sfx
        .voice(voice)
        .set_volume(f32::NEG_INFINITY, linear_fade(Duration::ZERO))
        .unwrap();
    game.render(0.05);
    game.sfx
        .voice(voice)
        .set_volume(0.0, linear_fade(Duration::from_millis(50)))
        .unwrap();
    game.render(0.1);
    game.sfx
        .voice(voice)
        .set_volume(f32::NEG_INFINITY, linear_fade(Duration::ZERO))
        .unwrap();
    game.render(0.05);
    game.sfx
        .voice(voice)
        .set_volume(0.0, linear_fade(Duration::from_millis(50)))
        .unwrap();
    game.sfx
        .set_track_volume(f32::NEG_INFINITY, linear_fade(Duration::ZERO))
        .unwrap();
    game.render(0.05);
    game.sfx
        .set_track_volume(0.0, linear_fade(Duration::from_millis(50)))
        .unwrap();
    game.render(0.1);
    game.assert_under(HEADROOM, "faded up from silence");
}

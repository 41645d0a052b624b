//! The audio cases: the game-thread cost of `SoundEffects::play` (free voice,
//! voice-cap steal) beside a raw kira `play` on a track of the same capacity, and
//! `update` with 64 active voices. Rendering (the audio thread's work) is not
//! timed: kira frees a sound's slot only when the renderer has processed it, so the
//! play cases flush every batch (stop, render 1 ms, update) outside the timed span.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kira::effect::{Effect, EffectBuilder};
use kira::info::{Info, MockInfoBuilder};
use kira::sound::static_sound::{StaticSoundData, StaticSoundHandle};
use kira::track::{TrackBuilder, TrackHandle};
use kira::{AudioManager, AudioManagerSettings, Frame};
use pool_audio::{
    OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundId, SoundSettings,
    dsp::LimiterBuilder, dsp::LimiterHandle, dsp::LimiterSettings, linear_fade, sound::Recordings,
    voices::Resume, voices::Virtualization,
};

use crate::{Sample, Workload};

pub(crate) const VOICE_CAP: usize = 64;

pub(crate) fn manager() -> AudioManager<OfflineBackend> {
    AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())
        .expect("the offline backend needs no device")
}

/// [`tone`], looping whole, handed over as a game hands a loaded sound over:
/// kira's `StaticSoundData::loop_region` clones the data it is called on, and
/// the bank shares frames something else holds (a mono sound handed over
/// whole it stores as one channel).
pub(crate) fn looping_tone() -> StaticSoundData {
    let mut data = tone();
    data.settings = data.settings.loop_region(..);
    data
}

/// Two seconds of a quiet tone: long enough that no voice ends by itself.
pub(crate) fn tone() -> StaticSoundData {
    let frames: Arc<[Frame]> = (0..96_000)
        .map(|i| {
            let s = 0.1 * (i as f32 * 0.0576).sin();
            Frame { left: s, right: s }
        })
        .collect();
    StaticSoundData {
        sample_rate: 48_000,
        frames,
        settings: Default::default(),
        slice: None,
    }
}

/// Runs `cycles` cycles in batches of [`AudioPlay::BATCH`], calling `flush` before
/// each batch, and returns the time and allocations of the batches alone.
pub(crate) fn batched<W: Workload>(case: &mut W, cycles: u64, flush: fn(&mut W)) -> Sample {
    let mut timed = Sample::default();
    let mut left = cycles;
    while left > 0 {
        let batch = left.min(AudioPlay::BATCH);
        flush(case);
        let before = alloc_counter::thread_allocations();
        let start = Instant::now();
        for _ in 0..batch {
            case.cycle();
        }
        timed.elapsed += start.elapsed();
        timed.allocations += alloc_counter::thread_allocations() - before;
        left -= batch;
    }
    timed
}

/// `SoundEffects::play` on a free voice (`steal: false`), or with every voice busy
/// so that each play steals the oldest (`steal: true`).
pub struct AudioPlay {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    sounds: Vec<SoundId>,
    case: PlayCase,
    next: usize,
}

/// What an [`AudioPlay`] plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PlayCase {
    /// A free voice each play.
    Free,
    /// A steal each play.
    Steal,
    /// Plays carry an owner and their sounds cap copies per owner.
    Owners,
    /// A free voice each play, of a sound of four recordings with pitch and
    /// volume ranges: each play picks one and draws both.
    Variations,
    /// A free voice each play, of a sound with two game-parameter curves
    /// (pitch and volume) and a switch of two states of two recordings each.
    Curves,
}

/// Sounds of the owner case: each takes a play from each of four owners per
/// batch, so a play counts its owner's copies among up to three others.
const OWNED_SOUNDS: usize = 8;

impl AudioPlay {
    /// A manager with a 64-voice cap and 64 sounds of 1 copy each (so a play never
    /// recycles a copy of its own sound).
    pub fn new(steal: bool) -> Self {
        Self::build(if steal {
            PlayCase::Steal
        } else {
            PlayCase::Free
        })
    }

    /// A free voice each play, as [`new`](Self::new)`(false)`, for plays with
    /// an owner of sounds that cap copies per owner (8 sounds of 8 copies, 2
    /// per owner, four owners in turn).
    pub fn with_owners() -> Self {
        Self::build(PlayCase::Owners)
    }

    /// A free voice each play, as [`new`](Self::new)`(false)`, of sounds of four
    /// recordings (picked at random, avoiding the last) with a pitch range of
    /// ±2 semitones and a volume range of -4 to 0 dB.
    pub fn with_variations() -> Self {
        Self::build(PlayCase::Variations)
    }

    /// A free voice each play, as [`new`](Self::new)`(false)`, of sounds with
    /// two game-parameter curves (pitch and volume, three points each) and a
    /// switch: two states of two recordings each, picked at random.
    pub fn with_curves() -> Self {
        Self::build(PlayCase::Curves)
    }

    /// The curves and switch of the [`PlayCase::Curves`] sounds.
    fn curved(sfx: &mut SoundEffects) -> SoundSettings {
        use pool_audio::game::{Curve, CurveTarget, GameParamSettings};
        let speed = sfx
            .add_game_param("speed", GameParamSettings::new(0.0, 1.0).initial(0.4))
            .expect("a new parameter");
        let surface = sfx
            .add_switch("surface", &["grass", "stone"])
            .expect("a new switch");
        let pitch = Curve::new(
            speed,
            CurveTarget::Pitch,
            &[(0.0, -5.0), (0.5, 0.0), (1.0, 7.0)],
        );
        let volume = Curve::new(
            speed,
            CurveTarget::Volume,
            &[(0.0, -12.0), (0.5, -3.0), (1.0, 0.0)],
        );
        SoundSettings::default()
            .max_voices(1)
            .switch(surface)
            .curve(pitch.expect("valid points"))
            .curve(volume.expect("valid points"))
    }

    fn build(case: PlayCase) -> Self {
        let mut manager = manager();
        let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())
            .expect("valid settings");
        let data = tone();
        let settings = match case {
            PlayCase::Curves => Self::curved(&mut sfx),
            PlayCase::Owners => SoundSettings::default()
                .max_voices(8)
                .max_voices_per_owner(2),
            PlayCase::Variations => SoundSettings::default()
                .max_voices(1)
                .pitch_semitones(-2.0, 2.0)
                .volume_range(-4.0, 0.0),
            PlayCase::Free | PlayCase::Steal => SoundSettings::default().max_voices(1),
        };
        let recordings: Recordings = match case {
            PlayCase::Variations => vec![data.clone(); 4].into(),
            PlayCase::Curves => ["grass", "grass", "stone", "stone"]
                .iter()
                .fold(Recordings::new(), |r, state| {
                    r.for_state(state, data.clone(), 1.0)
                }),
            _ => data.into(),
        };
        let count = if case == PlayCase::Owners {
            OWNED_SOUNDS
        } else {
            VOICE_CAP * 2
        };
        let sounds = (0..count)
            .map(|i| {
                sfx.add_sound(&format!("tone{i}"), recordings.clone(), settings)
                    .expect("valid sound")
            })
            .collect();
        let mut this = Self {
            manager,
            sfx,
            sounds,
            case,
            next: 0,
        };
        this.flush();
        this
    }

    /// Untimed: frees every slot of the voice bank, then (for the steal case)
    /// fills the cap.
    fn flush(&mut self) {
        // Stolen voices fade for 10 ms, and their slots are free once the mixer
        // reports them over: render past the fade and update, twice.
        self.sfx
            .stop_all(linear_fade(Duration::ZERO))
            .expect("a linear fade is valid");
        for seconds in [0.012, 0.001] {
            let _ = self.manager.backend_mut().render(seconds);
            let _ = self.sfx.update(seconds);
        }
        if self.case == PlayCase::Steal {
            for i in 0..VOICE_CAP {
                let _ = self
                    .sfx
                    .play(self.sounds[VOICE_CAP + i], PlayParams::default());
            }
        }
    }

    /// Plays per flush: a free voice each (32 of 64), or one steal each (each
    /// stolen voice fades in kira until the next flush; 32 fit beside 64 voices).
    const BATCH: u64 = 32;
}

impl Workload for AudioPlay {
    fn cycle(&mut self) {
        let (sound, params) = if self.case == PlayCase::Owners {
            let owner = (self.next / OWNED_SOUNDS % 4) as u64;
            (self.next % OWNED_SOUNDS, PlayParams::default().owner(owner))
        } else {
            (self.next, PlayParams::default())
        };
        let _ = black_box(self.sfx.play(self.sounds[sound], params));
        self.next = (self.next + 1) % VOICE_CAP;
    }

    fn sampled_run(&mut self, cycles: u64) -> Sample {
        batched(self, cycles, Self::flush)
    }
}

/// Baseline: a raw kira `play` on a sub-track with the manager's capacity.
pub struct KiraPlay {
    manager: AudioManager<OfflineBackend>,
    track: TrackHandle,
    data: StaticSoundData,
    handles: Vec<StaticSoundHandle>,
}

impl KiraPlay {
    /// A sub-track with room for 128 sounds.
    pub fn new() -> Self {
        let mut manager = manager();
        let track = manager
            .add_sub_track(TrackBuilder::new().sound_capacity(VOICE_CAP * 2))
            .expect("room for a track");
        Self {
            manager,
            track,
            data: tone(),
            handles: Vec::with_capacity(VOICE_CAP),
        }
    }

    fn flush(&mut self) {
        for mut handle in self.handles.drain(..) {
            handle.stop(linear_fade(Duration::ZERO));
        }
        let _ = self.manager.backend_mut().render(0.001);
        let _ = self.manager.backend_mut().render(0.001);
    }
}

impl Default for KiraPlay {
    fn default() -> Self {
        Self::new()
    }
}

impl Workload for KiraPlay {
    fn cycle(&mut self) {
        if let Ok(handle) = self.track.play(self.data.clone()) {
            self.handles.push(handle);
        }
    }

    fn sampled_run(&mut self, cycles: u64) -> Sample {
        batched(self, cycles, Self::flush)
    }
}

/// `SoundEffects::update` with 64 active voices, none ending.
pub struct AudioUpdate {
    _manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
}

impl AudioUpdate {
    /// 64 voices playing.
    pub fn new() -> Self {
        let mut manager = manager();
        let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())
            .expect("valid settings");
        let data = tone();
        for i in 0..VOICE_CAP {
            let id = sfx
                .add_sound(
                    &format!("tone{i}"),
                    data.clone(),
                    SoundSettings::default().max_voices(1),
                )
                .expect("valid sound");
            sfx.play(id, PlayParams::default()).expect("a free voice");
        }
        let _ = manager.backend_mut().render(0.01);
        Self {
            _manager: manager,
            sfx,
        }
    }

    /// Active voices (for the tests).
    pub fn active(&self) -> usize {
        self.sfx.stats().real_voices
    }
}

impl Default for AudioUpdate {
    fn default() -> Self {
        Self::new()
    }
}

impl Workload for AudioUpdate {
    fn cycle(&mut self) {
        let _ = black_box(self.sfx.update(0.0));
    }
}

/// 48 kHz stereo frames in one second.
pub(crate) const SECOND: usize = 48_000;

/// The limiter as kira runs it: one second of audio per cycle, in 128-frame
/// chunks, over a signal (three loud tones beating) that keeps it acting all the
/// time: its worst case (idle, it only moves the audio through its delay line).
pub struct LimiterSecond {
    effect: Box<dyn Effect>,
    handle: LimiterHandle,
    input: Vec<Frame>,
    buffer: Vec<Frame>,
    info: Info<'static>,
}

impl LimiterSecond {
    /// The default limiter (-1 dBFS, 1.5 ms look-ahead, 50 ms release) at 48 kHz.
    pub fn new() -> Self {
        let builder = LimiterBuilder::new(LimiterSettings::default()).expect("valid settings");
        let (mut effect, handle) = builder.build();
        effect.init(SECOND as u32, 128);
        let input = (0..SECOND)
            .map(|i| {
                let t = i as f32 / SECOND as f32;
                let s = [220.0f32, 331.0, 443.0]
                    .iter()
                    .map(|f| 0.4 * (t * f * std::f32::consts::TAU).sin())
                    .sum::<f32>();
                Frame {
                    left: s,
                    right: 0.8 * s,
                }
            })
            .collect();
        Self {
            effect,
            handle,
            input,
            buffer: vec![Frame::ZERO; SECOND],
            info: MockInfoBuilder::new().build(),
        }
    }
}

impl LimiterSecond {
    /// The limiter's readings (how much of the time it acted).
    pub fn limiter(&self) -> &LimiterHandle {
        &self.handle
    }
}

impl Default for LimiterSecond {
    fn default() -> Self {
        Self::new()
    }
}

impl Workload for LimiterSecond {
    fn cycle(&mut self) {
        self.buffer.copy_from_slice(&self.input);
        for chunk in self.buffer.chunks_mut(128) {
            self.effect.process(chunk, 1.0 / SECOND as f64, &self.info);
        }
        black_box(&self.buffer);
    }
}

/// The render the limiter protects: ten voices (ten looping copies of a tone,
/// through `SoundEffects` without a limiter), one second of audio per cycle into
/// a buffer that is reused.
pub struct RenderSecond {
    manager: AudioManager<OfflineBackend>,
    _sfx: SoundEffects,
    buffer: Vec<f32>,
}

impl RenderSecond {
    /// Ten voices playing, forever.
    pub fn new() -> Self {
        let mut manager = manager();
        let mut sfx = SoundEffects::new(
            &mut manager,
            SoundEffectsSettings {
                limiter: None,
                ..Default::default()
            },
        )
        .expect("valid settings");
        let id = sfx
            .add_sound(
                "tone",
                looping_tone(),
                SoundSettings::default()
                    .max_voices(10)
                    .first_volume(-13.9794),
            )
            .expect("valid sound");
        for _ in 0..10 {
            sfx.play(id, PlayParams::default()).expect("a free voice");
        }
        Self {
            manager,
            _sfx: sfx,
            buffer: vec![0.0; 2 * SECOND],
        }
    }
}

impl Default for RenderSecond {
    fn default() -> Self {
        Self::new()
    }
}

impl Workload for RenderSecond {
    fn cycle(&mut self) {
        let _ = self.manager.backend_mut().render_into(&mut self.buffer);
        black_box(&self.buffer);
    }
}

/// The torches' first-copy volume: 32 of them fit the budget at it.
pub(crate) const TORCH_VOLUME: f64 = 0.05;

/// A looping tone for torches: every voice of it loops forever.
pub(crate) fn torch_settings(copies: usize) -> SoundSettings {
    SoundSettings::default()
        .max_voices(copies)
        .first_volume(kira::Decibels((20.0 * TORCH_VOLUME.log10()) as f32))
        .virtualization(Virtualization::Virtualize(Resume::FromElapsed))
}

/// A spiral of `count` voices around the listener, each at its own distance
/// (2 m to about 92 m).
pub(crate) fn spiral(count: usize) -> impl Iterator<Item = [f32; 3]> {
    (0..count).map(move |i| {
        let angle = i as f32 * 0.1;
        let radius = 2.0 + i as f32 * 90.0 / count as f32;
        [radius * angle.cos(), 0.0, radius * angle.sin()]
    })
}

/// Three frames (render, then update): the real voices are chosen and started.
pub(crate) fn settle(manager: &mut AudioManager<OfflineBackend>, sfx: &mut SoundEffects) {
    for _ in 0..3 {
        let _ = manager.backend_mut().render(1.0 / 60.0);
        let _ = sfx.update(1.0 / 60.0);
    }
}

/// `SoundEffects::update` with 1,000 virtual and 32 real looping voices, one
/// frame (1/60 s) per cycle: every playhead advances, every voice is ranked, and
/// the listener stays put, so no voice changes places.
pub struct AudioUpdateVirtual {
    _manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
}

impl AudioUpdateVirtual {
    /// Voices in the workload.
    pub const VOICES: usize = 1_032;

    /// 1,032 torches, 32 real.
    pub fn new() -> Self {
        let mut manager = manager();
        let mut sfx = SoundEffects::new(
            &mut manager,
            SoundEffectsSettings {
                voice_cap: 32,
                ..Default::default()
            },
        )
        .expect("valid settings");
        let torch = sfx
            .add_sound("torch", looping_tone(), torch_settings(32))
            .expect("valid sound");
        for position in spiral(Self::VOICES) {
            sfx.play(torch, PlayParams::default().position(position))
                .expect("a virtualizing play is never refused");
        }
        settle(&mut manager, &mut sfx);
        Self {
            _manager: manager,
            sfx,
        }
    }

    /// Real and virtual voices (for the tests).
    pub fn voices(&self) -> (usize, usize) {
        let stats = self.sfx.stats();
        (stats.real_voices, stats.virtual_voices)
    }
}

impl Default for AudioUpdateVirtual {
    fn default() -> Self {
        Self::new()
    }
}

impl Workload for AudioUpdateVirtual {
    fn cycle(&mut self) {
        let _ = black_box(self.sfx.update(1.0 / 60.0));
    }
}

/// One second of audio from the voice bank, with voices that are real or
/// virtual: 300 looping positioned torches of which at most 32 are real
/// (`virtual_render`), 32 positioned real voices (`bank_render_32_positioned`),
/// or 32 plain real voices (`bank_render_32`). Virtual voices cost no mixing,
/// and a positioned voice only has gains per channel: all three should be close,
/// and under kira's own 32 sounds (`real_render_32`, [`KiraRender`]).
pub struct VoicesRender {
    manager: AudioManager<OfflineBackend>,
    _sfx: SoundEffects,
    buffer: Vec<f32>,
}

impl VoicesRender {
    /// `torches` looping voices (at most 32 real), positioned or not.
    pub fn new(torches: usize, positioned: bool) -> Self {
        Self::at_rate(torches, positioned, 1.0)
    }

    /// As [`new`](Self::new), every voice at playback rate `rate`: a pitched
    /// voice is read through kira's interpolator at every sample.
    pub fn at_rate(torches: usize, positioned: bool, rate: f64) -> Self {
        Self::build(torches, positioned, rate, (false, false))
    }

    /// 32 plain voices of a group routed to a bus with no effect: the bank's
    /// mixing, its out to the bus, the bus's tap and track.
    pub fn bused() -> Self {
        Self::build(32, false, 1.0, (true, false))
    }

    /// 32 plain voices on the sound-effects track, each sending to a bus with
    /// no effect: the bank's mixing with a send per voice, and the return.
    pub fn sending() -> Self {
        Self::build(32, false, 1.0, (false, true))
    }

    fn build(torches: usize, positioned: bool, rate: f64, (bused, sends): (bool, bool)) -> Self {
        let mut manager = manager();
        let mut sfx = SoundEffects::new(
            &mut manager,
            SoundEffectsSettings {
                voice_cap: 32,
                limiter: None,
                ..Default::default()
            },
        )
        .expect("valid settings");
        let mut settings = torch_settings(32);
        if bused {
            let bus = sfx
                .mix_mut()
                .add_bus("bus", pool_audio::mix::BusBuilder::new())
                .expect("a new bus");
            let group = pool_audio::GroupSettings::default().max_voices(32).bus(bus);
            settings = settings.group(sfx.add_group("torches", group).expect("a new group"));
        }
        if sends {
            let bus = sfx
                .mix_mut()
                .add_bus("return", pool_audio::mix::BusBuilder::new())
                .expect("a new bus");
            settings = settings.send(pool_audio::mix::SendSettings::new(bus).level(-6.0));
        }
        let torch = sfx
            .add_sound("torch", looping_tone(), settings)
            .expect("valid sound");
        // The same places as the nearest of 300: the same real voices either way.
        for position in spiral(300).take(torches) {
            let params = if positioned {
                PlayParams::default().position(position)
            } else {
                PlayParams::default()
            }
            .playback_rate(rate);
            sfx.play(torch, params)
                .expect("a virtualizing play is never refused");
        }
        settle(&mut manager, &mut sfx);
        Self {
            manager,
            _sfx: sfx,
            buffer: vec![0.0; 2 * SECOND],
        }
    }

    /// Real and virtual voices (for the tests).
    pub fn voices(&self) -> (usize, usize) {
        let stats = self._sfx.stats();
        (stats.real_voices, stats.virtual_voices)
    }

    /// The last second rendered, interleaved stereo.
    pub fn rendered(&self) -> &[f32] {
        &self.buffer
    }
}

impl Workload for VoicesRender {
    fn cycle(&mut self) {
        let _ = self.manager.backend_mut().render_into(&mut self.buffer);
        black_box(&self.buffer);
    }
}

/// Baseline for the voice bank's mixing: kira's own 32 static sounds, looping the
/// same tone at the volume the bank plays its 32 real voices at (the first-copy
/// volume of the torches), on a sub-track, one second of audio per cycle.
pub struct KiraRender {
    manager: AudioManager<OfflineBackend>,
    _track: TrackHandle,
    _sounds: Vec<StaticSoundHandle>,
    buffer: Vec<f32>,
}

impl KiraRender {
    /// 32 kira sounds playing, forever.
    pub fn new() -> Self {
        let mut manager = manager();
        let mut track = manager
            .add_sub_track(TrackBuilder::new().sound_capacity(64))
            .expect("room for a track");
        let volume = kira::Decibels((20.0 * TORCH_VOLUME.log10()) as f32);
        let sounds = (0..32)
            .map(|_| {
                track
                    .play(tone().loop_region(..).volume(volume))
                    .expect("room for 32 sounds")
            })
            .collect();
        Self {
            manager,
            _track: track,
            _sounds: sounds,
            buffer: vec![0.0; 2 * SECOND],
        }
    }
}

impl Default for KiraRender {
    fn default() -> Self {
        Self::new()
    }
}

impl Workload for KiraRender {
    fn cycle(&mut self) {
        let _ = self.manager.backend_mut().render_into(&mut self.buffer);
        black_box(&self.buffer);
    }
}

/// How a start is measured by [`start_latencies`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartCase {
    /// Nothing playing.
    Fresh,
    /// The sound's one copy plays: the new copy recycles it.
    Recycled,
    /// The one voice plays another sound: the new copy steals it.
    Stolen,
    /// A copy started this frame, not yet heard: the new play takes it over.
    TakenOver,
}

/// Frames from a play to the first sample of its sound in the output, with the
/// default limiter (1.5 ms look-ahead) on the track: fresh, recycled, stolen and
/// taken-over copies. The play is issued between two renders of the offline
/// backend, whose blocks are 10 ms: a start within one block shows as the
/// look-ahead alone.
pub fn start_latencies() -> Vec<(StartCase, usize)> {
    // One full-scale sample, then silence: where a copy starts is plain to see.
    let click = StaticSoundData {
        sample_rate: 48_000,
        frames: (0..14_400)
            .map(|i| Frame::from_mono(if i == 0 { 1.0 } else { 0.0 }))
            .collect(),
        settings: Default::default(),
        slice: None,
    };
    let one = SoundSettings::default().max_voices(1);
    [
        StartCase::Fresh,
        StartCase::Recycled,
        StartCase::Stolen,
        StartCase::TakenOver,
    ]
    .into_iter()
    .map(|case| {
        let mut manager = manager();
        let cap = if case == StartCase::Stolen { 1 } else { 64 };
        let mut sfx = SoundEffects::new(
            &mut manager,
            SoundEffectsSettings {
                voice_cap: cap,
                ..Default::default()
            },
        )
        .expect("valid settings");
        let first = sfx
            .add_sound("first", click.clone(), one)
            .expect("valid sound");
        let second = sfx
            .add_sound("second", click.clone(), one)
            .expect("valid sound");
        match case {
            StartCase::Fresh => {}
            StartCase::TakenOver => {
                let _ = sfx.play(first, PlayParams::default().volume(-6.0206));
            }
            StartCase::Recycled | StartCase::Stolen => {
                let _ = sfx.play(first, PlayParams::default());
                let _ = manager.backend_mut().render(0.05);
                let _ = sfx.update(0.05);
            }
        }
        let sound = if case == StartCase::Stolen {
            second
        } else {
            first
        };
        let _ = sfx.play(sound, PlayParams::default());
        let audio = manager.backend_mut().render(0.05).expect("a short render");
        let frames = audio
            .samples()
            .iter()
            .step_by(2)
            .position(|s| *s != 0.0)
            .unwrap_or(usize::MAX);
        (case, frames)
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_play_cases_never_run_out_of_voices_or_kira_room() {
        for steal in [false, true] {
            let mut case = AudioPlay::new(steal);
            case.timed_run(500);
            let stats = case.sfx.stats();
            assert_eq!(stats.refused_voice_cap, 0, "steal={steal}: {stats:?}");
            if steal {
                assert!(stats.stolen_voices >= 500, "{stats:?}");
            }
        }
        let mut owned = AudioPlay::with_owners();
        owned.timed_run(500);
        let stats = owned.sfx.stats();
        assert_eq!(stats.plays, 500, "{stats:?}");
        assert_eq!(
            stats.recycled_copies + stats.refused_owner_limit + stats.stolen_voices,
            0,
            "an owner never reaches its cap: {stats:?}"
        );
        let mut varied = AudioPlay::with_variations();
        varied.timed_run(500);
        let stats = varied.sfx.stats();
        assert_eq!((stats.plays, stats.stolen_voices), (500, 0), "{stats:?}");
        let mut kira = KiraPlay::new();
        kira.timed_run(500);
    }

    #[test]
    fn every_start_is_heard_after_the_lookahead_alone() {
        for (case, frames) in start_latencies() {
            assert_eq!(frames, 72, "{case:?}");
        }
    }

    #[test]
    fn the_kira_baseline_renders_its_32_sounds_at_the_banks_level() {
        let mut kira = KiraRender::new();
        let mut bank = VoicesRender::new(32, false);
        kira.cycle();
        bank.cycle();
        let peak = |buffer: &[f32]| buffer.iter().fold(0.0f32, |m, s| m.max(s.abs()));
        let (kira, bank) = (peak(&kira.buffer), peak(&bank.buffer));
        assert!(
            kira > 0.1 && (kira - bank).abs() < 0.01 * kira,
            "kira {kira}, bank {bank}"
        );
    }

    #[test]
    fn the_mix_cases_limit_and_render_ten_voices() {
        let mut limiter = LimiterSecond::new();
        limiter.cycle();
        let ceiling = 10f32.powf(-1.0 / 20.0);
        assert!(limiter.buffer.iter().all(|f| f.left.abs() <= ceiling));
        assert!(
            limiter.input.iter().any(|f| f.left.abs() > ceiling),
            "it has work"
        );
        assert!(
            limiter.limiter().active_fraction() > 0.99,
            "the worst case: acting all the time"
        );
        let mut render = RenderSecond::new();
        render.cycle();
        render.cycle();
        assert!(
            render.buffer.iter().any(|s| *s != 0.0),
            "still playing after 2 s"
        );
        assert_eq!(render._sfx.stats().real_voices, 10);
    }

    #[test]
    fn the_virtual_cases_hold_what_they_say() {
        assert_eq!(AudioUpdateVirtual::new().voices(), (32, 1_000));
        assert_eq!(VoicesRender::new(300, true).voices(), (32, 268));
        assert_eq!(VoicesRender::new(32, true).voices(), (32, 0));
        assert_eq!(VoicesRender::new(32, false).voices(), (32, 0));
    }

    #[test]
    fn the_update_case_keeps_64_voices() {
        let mut case = AudioUpdate::new();
        case.run(100);
        assert_eq!(case.active(), 64);
    }
}

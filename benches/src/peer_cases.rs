//! The voice bank beside the peers a Rust game would pick instead, on the same
//! scenes, offline: kira's own static sounds (one per play) and Firewheel's
//! graph of `SamplerNode`s (what bevy_seedling's sampler pools are made of),
//! driven by calling its processor directly, as its own backends do.
//!
//! Firewheel 0.14 has no pool of its own (`firewheel-pool` does not build
//! against it; pooling lives in bevy_seedling), so its side here is a fixed set
//! of sampler nodes with the pool's choice made by the bench: a stopped node if
//! there is one, else the oldest start (bevy_seedling's default when a pool is
//! full). Its levels are set in decibels (`Volume::Linear` is perceptual), and
//! its samples are de-interleaved `Vec<Vec<f32>>`.

use std::hint::black_box;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use audioadapter_buffers::direct::InterleavedSlice;
use firewheel::backend::BackendProcessInfo;
use firewheel::collector::ArcGc;
use firewheel::node::{NodeID, StreamStatus};
use firewheel::nodes::sampler::{RepeatMode, SamplerConfig, SamplerNode};
use firewheel::nodes::spatial_basic::SpatialBasicNode;
use firewheel::processor::FirewheelProcessor;
use firewheel::sample_resource::SampleResource;
use firewheel::{ActivateInfo, FirewheelConfig, FirewheelContext, Volume};
use kira::sound::static_sound::{StaticSoundData, StaticSoundHandle};
use kira::track::{MainTrackBuilder, TrackBuilder, TrackHandle};
use kira::{AudioManager, AudioManagerSettings, Decibels, Frame};
use pool_audio::{
    OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundId, SoundSettings,
    dsp::MeterBuilder, dsp::MeterHandle,
};

use crate::{Sample, Workload};

/// Frames a second.
const RATE: u32 = 48_000;
/// Firewheel's block: 512 frames per call of its processor.
const BLOCK: usize = 512;
/// Voices in the mixing scene.
pub const MIX_VOICES: usize = 32;
/// The level of each voice of the mixing scene, in dB: 32 of them peak under
/// 1 (kira clamps its output there; Firewheel does not), so all three outputs
/// can be compared.
const MIX_DB: f32 = -30.0;
/// Plays in the storm, all of one sound in one frame.
pub const STORM_PLAYS: usize = 100;
/// Copies of the storm's sound allowed at once.
pub const STORM_COPIES: usize = 10;

/// The peers' versions measured, as `Cargo.lock` pins them (a test checks).
pub const PEER_VERSIONS: [(&str, &str); 3] = [
    ("kira", "0.12.6"),
    ("firewheel", "0.14.0"),
    ("firewheel-graph", "0.14.1"),
];

/// The peers of the table, in column order.
pub const PEERS: [&str; 3] = ["bank", "kira", "firewheel"];

/// The mixing scene's cases (one second of audio a cycle), the play cases,
/// and the positioned scene's cases (one second of audio a cycle).
pub const PEER_CASES: [&str; 9] = [
    "peer_mix_bank",
    "peer_mix_kira",
    "peer_mix_firewheel",
    "peer_play_bank",
    "peer_play_kira",
    "peer_play_firewheel",
    "peer_spatial_bank",
    "peer_spatial_kira",
    "peer_spatial_firewheel",
];

/// Emitters in the positioned scene.
pub const SPATIAL_EMITTERS: usize = 300;
/// Voices the positioned scene mixes where the peer chooses (the bank's cap).
pub const SPATIAL_REAL: usize = 32;

/// Voice `i`'s playback rate in the mixing scene: 0.8 to 1.37, never 1.0
/// (Firewheel copies straight through at exactly 1.0, the others interpolate).
pub fn mix_rate(i: usize) -> f64 {
    0.8 + 0.57 * i as f64 / (MIX_VOICES - 1) as f64
}

/// One second of a 440 Hz sine at amplitude `amplitude`: it loops seamlessly.
pub(crate) fn sine(amplitude: f32) -> Vec<f32> {
    (0..RATE as usize)
        .map(|i| amplitude * (std::f32::consts::TAU * 440.0 * i as f32 / RATE as f32).sin())
        .collect()
}

fn kira_sound(samples: &[f32]) -> StaticSoundData {
    kira_channels(&[samples.to_vec()])
}

/// A kira sound of one channel (heard in both) or two.
pub(crate) fn kira_channels(channels: &[Vec<f32>]) -> StaticSoundData {
    let frames: Arc<[Frame]> = match channels {
        [left, right] => (left.iter().zip(right))
            .map(|(left, right)| Frame {
                left: *left,
                right: *right,
            })
            .collect(),
        [mono, ..] => mono.iter().map(|s| Frame::from_mono(*s)).collect(),
        [] => Arc::new([]),
    };
    StaticSoundData {
        sample_rate: RATE,
        frames,
        settings: Default::default(),
        slice: None,
    }
}

/// Decibels to amplitude, for the tests' expected levels.
#[cfg(test)]
fn amplitude(db: f32) -> f64 {
    10f64.powf(f64::from(db) / 20.0)
}

// ------------------------------------------------------------------ Firewheel

/// A Firewheel graph of sampler nodes, all on the graph's stereo output, and
/// its processor, called by hand. The processor is declared first so it drops
/// first: a context dropped before its processor waits for it (3 s).
pub struct FirewheelBank {
    processor: FirewheelProcessor,
    context: FirewheelContext,
    nodes: Vec<(NodeID, SamplerNode)>,
    /// The start order of each node (0: stopped).
    started: Vec<u64>,
    starts: u64,
}

impl FirewheelBank {
    /// `rates.len()` nodes holding `samples` (mono, at 48 kHz), each at its
    /// rate and at `volume_db`, looping or not, all stopped.
    pub fn new(samples: Vec<f32>, rates: &[f64], volume_db: f32, looping: bool) -> Self {
        Self::with_channels(vec![samples], rates, volume_db, looping)
    }

    /// As [`new`](Self::new), the sound of one channel or two.
    pub fn with_channels(
        channels: Vec<Vec<f32>>,
        rates: &[f64],
        volume_db: f32,
        looping: bool,
    ) -> Self {
        let mut context = FirewheelContext::new(FirewheelConfig::default());
        let out = context.graph_out_node_id();
        let nodes = rates
            .iter()
            .map(|rate| {
                let node = sampler(&mut context, volume_db, *rate, looping);
                context
                    .connect(node.0, out, &[(0, 0), (1, 1)], false)
                    .expect("stereo into the graph's output");
                node
            })
            .collect();
        Self::activated(context, nodes, channels)
    }

    /// Activates `context` offline, gives every node the sound's `channels`
    /// (one copy shared), and renders a first block.
    fn activated(
        mut context: FirewheelContext,
        nodes: Vec<(NodeID, SamplerNode)>,
        channels: Vec<Vec<f32>>,
    ) -> Self {
        let sample: ArcGc<dyn SampleResource + Send + Sync> = channels.into();
        let processor = context
            .activate(ActivateInfo {
                sample_rate: NonZeroU32::new(RATE).expect("a rate"),
                max_block_frames: NonZeroU32::new(BLOCK as u32).expect("a block"),
                num_stream_in_channels: 0,
                num_stream_out_channels: 2,
                input_to_output_latency_seconds: 0.0,
            })
            .expect("an offline activation");
        for (id, _) in &nodes {
            context.queue_event_for(*id, SamplerNode::set_dyn_sample_event(sample.clone()));
        }
        let mut this = Self {
            processor,
            context,
            started: vec![0; nodes.len()],
            nodes,
            starts: 0,
        };
        this.update();
        this.render(&mut [0.0; 2 * BLOCK]);
        this
    }

    /// A sampler and a `SpatialBasicNode` (Firewheel's own spatial model) per
    /// offset from the listener, each looping `samples` at `volume_db`, all
    /// playing.
    pub fn spatial(samples: Vec<f32>, offsets: &[[f32; 3]], volume_db: f32) -> Self {
        let mut context = FirewheelContext::new(FirewheelConfig::default());
        let out = context.graph_out_node_id();
        let mut nodes = Vec::with_capacity(offsets.len());
        for offset in offsets {
            let node = sampler(&mut context, volume_db, 1.0, true);
            let spatial = context
                .add_node(
                    SpatialBasicNode::from_volume_offset(Volume::UNITY_GAIN, *offset),
                    None,
                )
                .expect("a spatial node");
            context
                .connect(node.0, spatial, &[(0, 0), (1, 1)], false)
                .expect("stereo into the spatial node");
            context
                .connect(spatial, out, &[(0, 0), (1, 1)], false)
                .expect("stereo into the graph's output");
            nodes.push(node);
        }
        let mut this = Self::activated(context, nodes, vec![samples]);
        for _ in 0..offsets.len() {
            this.play();
        }
        this.update();
        this
    }

    /// Starts a node from the beginning: a stopped one, else the one started
    /// longest ago. Takes effect at the next [`update`](Self::update) and
    /// render, as Firewheel's events do.
    #[inline]
    pub fn play(&mut self) -> usize {
        let node = match self.started.iter().position(|s| *s == 0) {
            Some(free) => free,
            None => (0..self.started.len())
                .min_by_key(|i| self.started[*i])
                .unwrap_or(0),
        };
        self.starts += 1;
        self.started[node] = self.starts;
        let (id, params) = &mut self.nodes[node];
        params.start_or_restart();
        self.context.queue_event_for(*id, params.sync_play_event());
        node
    }

    /// Stops every node (untimed upkeep between batches of plays).
    pub fn stop_all(&mut self) {
        for ((id, params), started) in self.nodes.iter_mut().zip(&mut self.started) {
            if *started != 0 {
                params.stop();
                self.context.queue_event_for(*id, params.sync_play_event());
                *started = 0;
            }
        }
        self.update();
    }

    /// Sends the queued events to the processor (Firewheel's once-a-frame call).
    #[inline]
    pub fn update(&mut self) {
        let _ = self.context.update();
    }

    /// Renders `out` (interleaved stereo) in blocks of 512 frames.
    #[inline]
    pub fn render(&mut self, out: &mut [f32]) {
        let empty: &[f32] = &[];
        for chunk in out.chunks_mut(2 * BLOCK) {
            let frames = chunk.len() / 2;
            let (Ok(input), Ok(mut output)) = (
                InterleavedSlice::new(empty, 0, 0),
                InterleavedSlice::new_mut(chunk, 2, frames),
            ) else {
                return;
            };
            self.processor.process(
                &input,
                &mut output,
                BackendProcessInfo {
                    frames,
                    process_timestamp: None,
                    duration_since_stream_start: Duration::ZERO,
                    input_stream_status: StreamStatus::empty(),
                    output_stream_status: StreamStatus::empty(),
                    dropped_frames: 0,
                    process_to_playback_delay: None,
                },
            );
        }
    }
}

/// A sampler node at `volume_db` and `speed`, looping or not, stopped. Its
/// settings go in with the node: the processor copies them when it is built,
/// so no event is needed for them.
fn sampler(
    context: &mut FirewheelContext,
    volume_db: f32,
    speed: f64,
    looping: bool,
) -> (NodeID, SamplerNode) {
    let params = SamplerNode {
        volume: Volume::Decibels(volume_db),
        speed,
        repeat_mode: if looping {
            RepeatMode::RepeatEndlessly
        } else {
            RepeatMode::PlayOnce
        },
        ..Default::default()
    };
    let id = context
        .add_node(params, Some(SamplerConfig::default()))
        .expect("a sampler node");
    (id, params)
}

// ------------------------------------------------------------------ the mixing scene

/// Where one peer's mixing scene renders one second of audio a cycle.
// Built once per measurement, never moved in a loop: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
pub enum PeerMix {
    /// The voice bank: 32 sounds of one copy each, each played once at its rate.
    Bank {
        /// The manager whose backend renders.
        manager: AudioManager<OfflineBackend>,
        /// The sound effects (kept alive).
        sfx: SoundEffects,
        /// One second of interleaved stereo.
        buffer: Vec<f32>,
    },
    /// kira's own static sounds on a sub-track, one per voice.
    Kira {
        /// The manager whose backend renders.
        manager: AudioManager<OfflineBackend>,
        /// The sounds (kept alive).
        sounds: Vec<StaticSoundHandle>,
        /// The track (kept alive).
        track: TrackHandle,
        /// One second of interleaved stereo.
        buffer: Vec<f32>,
    },
    /// Firewheel's sampler nodes, one per voice.
    Firewheel {
        /// The graph.
        bank: Box<FirewheelBank>,
        /// One second of interleaved stereo.
        buffer: Vec<f32>,
    },
}

fn manager(main: MainTrackBuilder) -> AudioManager<OfflineBackend> {
    AudioManager::<OfflineBackend>::new(AudioManagerSettings {
        main_track_builder: main,
        ..Default::default()
    })
    .expect("the offline backend needs no device")
}

impl PeerMix {
    /// `peer`'s 32 looping voices at rates 0.8-1.37, each at -30 dB, playing.
    pub fn new(peer: &str) -> Option<Self> {
        let rates: Vec<f64> = (0..MIX_VOICES).map(mix_rate).collect();
        Self::scene(peer, vec![sine(0.5)], &rates)
    }

    /// `peer`'s looping voices of a one-second 440 Hz sine of one channel or
    /// two (`channels`), one at each of `rates`, each at -30 dB, playing.
    pub fn scene(peer: &str, channels: Vec<Vec<f32>>, rates: &[f64]) -> Option<Self> {
        let voices = rates.len();
        let buffer = vec![0.0; 2 * RATE as usize];
        let mut this = match peer {
            "bank" => {
                let mut manager = manager(MainTrackBuilder::new());
                let mut sfx = SoundEffects::new(
                    &mut manager,
                    SoundEffectsSettings {
                        voice_cap: voices,
                        limiter: None,
                        ..Default::default()
                    },
                )
                .expect("valid settings");
                let settings = SoundSettings::default().max_voices(1).first_volume(MIX_DB);
                let data = kira_channels(&channels).loop_region(..);
                for (i, rate) in rates.iter().enumerate() {
                    let id = sfx
                        .add_sound(&format!("voice{i}"), data.clone(), settings)
                        .expect("a valid sound");
                    sfx.play(id, PlayParams::default().playback_rate(*rate))
                        .expect("a free voice");
                }
                Self::Bank {
                    manager,
                    sfx,
                    buffer,
                }
            }
            "kira" => {
                let mut manager = manager(MainTrackBuilder::new());
                let mut track = manager
                    .add_sub_track(TrackBuilder::new().sound_capacity(2 * voices))
                    .expect("room for a track");
                let data = kira_channels(&channels)
                    .loop_region(..)
                    .volume(Decibels(MIX_DB));
                let sounds = rates
                    .iter()
                    .map(|rate| {
                        track
                            .play(data.clone().playback_rate(*rate))
                            .expect("room for the sounds")
                    })
                    .collect();
                Self::Kira {
                    manager,
                    sounds,
                    track,
                    buffer,
                }
            }
            "firewheel" => {
                let mut bank = FirewheelBank::with_channels(channels, rates, MIX_DB, true);
                for _ in 0..voices {
                    bank.play();
                }
                bank.update();
                Self::Firewheel {
                    bank: Box::new(bank),
                    buffer,
                }
            }
            _ => return None,
        };
        this.cycle();
        Some(this)
    }

    /// The last second rendered.
    pub fn rendered(&self) -> &[f32] {
        match self {
            Self::Bank { buffer, .. }
            | Self::Kira { buffer, .. }
            | Self::Firewheel { buffer, .. } => buffer,
        }
    }
}

impl Workload for PeerMix {
    fn cycle(&mut self) {
        match self {
            Self::Bank {
                manager, buffer, ..
            }
            | Self::Kira {
                manager, buffer, ..
            } => {
                let _ = manager.backend_mut().render_into(buffer);
            }
            Self::Firewheel { bank, buffer } => bank.render(buffer),
        }
        black_box(self.rendered());
    }
}

// ------------------------------------------------------------------ the positioned scene

/// One peer's positioned scene: [`SPATIAL_EMITTERS`] looping emitters on a
/// spiral around a still listener (2 m to 92 m), each in the peer's own
/// spatial model, one second of audio a cycle.
// Built once per measurement, never moved in a loop: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
pub enum PeerSpatial {
    /// The voice bank: 300 positioned plays, the 32 most audible real.
    Bank(Box<crate::VoicesRender>),
    /// kira: a spatial sub-track per emitter, each playing the tone: all 300.
    Kira {
        /// The manager whose backend renders.
        manager: AudioManager<OfflineBackend>,
        /// The listener (kept alive: the tracks hear through it).
        _listener: kira::listener::ListenerHandle,
        /// The emitters' tracks (kept alive).
        tracks: Vec<kira::track::SpatialTrackHandle>,
        /// One second of interleaved stereo.
        buffer: Vec<f32>,
    },
    /// Firewheel: a sampler and a spatial node for each of the 32 nearest
    /// emitters (Firewheel chooses none; the bench does, as a pool would).
    Firewheel {
        /// The graph.
        bank: Box<FirewheelBank>,
        /// One second of interleaved stereo.
        buffer: Vec<f32>,
    },
}

impl PeerSpatial {
    /// `peer`'s positioned scene, playing.
    pub fn new(peer: &str) -> Option<Self> {
        let volume_db = (20.0 * crate::audio_cases::TORCH_VOLUME.log10()) as f32;
        let buffer = vec![0.0; 2 * RATE as usize];
        Some(match peer {
            "bank" => Self::Bank(Box::new(crate::VoicesRender::new(SPATIAL_EMITTERS, true))),
            "kira" => {
                let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings {
                    capacities: kira::Capacities {
                        sub_track_capacity: 2 * SPATIAL_EMITTERS,
                        ..Default::default()
                    },
                    ..Default::default()
                })
                .expect("the offline backend needs no device");
                let listener = manager
                    .add_listener(
                        pool_audio::mint::Vector3::from([0.0; 3]),
                        pool_audio::mint::Quaternion {
                            v: pool_audio::mint::Vector3::from([0.0; 3]),
                            s: 1.0,
                        },
                    )
                    .expect("room for a listener");
                let data = crate::audio_cases::tone()
                    .loop_region(..)
                    .volume(Decibels(volume_db));
                let tracks = crate::audio_cases::spiral(SPATIAL_EMITTERS)
                    .map(|position| {
                        let mut track = manager
                            .add_spatial_sub_track(
                                &listener,
                                pool_audio::mint::Vector3::from(position),
                                kira::track::SpatialTrackBuilder::new(),
                            )
                            .expect("room for a track");
                        track.play(data.clone()).expect("room for a sound");
                        track
                    })
                    .collect();
                Self::Kira {
                    manager,
                    _listener: listener,
                    tracks,
                    buffer,
                }
            }
            "firewheel" => {
                let mut positions: Vec<[f32; 3]> =
                    crate::audio_cases::spiral(SPATIAL_EMITTERS).collect();
                let distance = |p: &[f32; 3]| p.iter().map(|c| c * c).sum::<f32>();
                positions.sort_by(|a, b| distance(a).total_cmp(&distance(b)));
                positions.truncate(SPATIAL_REAL);
                let samples = crate::audio_cases::tone()
                    .frames
                    .iter()
                    .map(|frame| frame.left)
                    .collect();
                Self::Firewheel {
                    bank: Box::new(FirewheelBank::spatial(samples, &positions, volume_db)),
                    buffer,
                }
            }
            _ => return None,
        })
    }
}

impl Workload for PeerSpatial {
    fn cycle(&mut self) {
        match self {
            Self::Bank(case) => case.cycle(),
            Self::Kira {
                manager, buffer, ..
            } => {
                let _ = manager.backend_mut().render_into(buffer);
                black_box(&buffer);
            }
            Self::Firewheel { bank, buffer } => {
                bank.render(buffer);
                black_box(&buffer);
            }
        }
    }
}

// ------------------------------------------------------------------ plays

/// Plays of one frame, each on a free voice: one peer's game-thread cost of a
/// play (Firewheel's includes its share of the frame's `update`, which sends
/// the events). Between batches, untimed, everything stops and renders.
pub enum PeerPlay {
    /// The voice bank: 64 sounds of one copy, voice cap 64.
    Bank(Box<crate::AudioPlay>),
    /// kira's `play` on a sub-track.
    Kira(Box<crate::KiraPlay>),
    /// 64 Firewheel sampler nodes.
    Firewheel {
        /// The graph.
        bank: Box<FirewheelBank>,
        /// A block of output for the untimed renders.
        block: Vec<f32>,
    },
}

impl PeerPlay {
    /// Plays per batch: a game frame's.
    const BATCH: u64 = 32;

    /// `peer`'s play case.
    pub fn new(peer: &str) -> Option<Self> {
        Some(match peer {
            "bank" => Self::Bank(Box::new(crate::AudioPlay::new(false))),
            "kira" => Self::Kira(Box::default()),
            "firewheel" => Self::Firewheel {
                bank: Box::new(FirewheelBank::new(sine(0.5), &[1.0; 64], -6.0, false)),
                block: vec![0.0; 2 * BLOCK],
            },
            _ => return None,
        })
    }
}

impl Workload for PeerPlay {
    fn cycle(&mut self) {
        match self {
            Self::Bank(case) => case.cycle(),
            Self::Kira(case) => case.cycle(),
            Self::Firewheel { bank, .. } => {
                black_box(bank.play());
            }
        }
    }

    fn sampled_run(&mut self, cycles: u64) -> Sample {
        let Self::Firewheel { bank, block } = self else {
            return match self {
                Self::Bank(case) => case.sampled_run(cycles),
                Self::Kira(case) => case.sampled_run(cycles),
                Self::Firewheel { .. } => Sample::default(),
            };
        };
        let mut timed = Sample::default();
        let mut left = cycles;
        while left > 0 {
            let batch = left.min(Self::BATCH);
            bank.stop_all();
            bank.render(block);
            let before = alloc_counter::thread_allocations();
            let start = std::time::Instant::now();
            for _ in 0..batch {
                black_box(bank.play());
            }
            bank.update();
            timed.elapsed += start.elapsed();
            timed.allocations += alloc_counter::thread_allocations() - before;
            left -= batch;
        }
        timed
    }
}

/// Case `peer_{mix,play,spatial}_{peer}`.
pub fn peer_case(name: &str) -> Option<Box<dyn Workload>> {
    let rest = name.strip_prefix("peer_")?;
    if let Some(peer) = rest.strip_prefix("mix_") {
        return PeerMix::new(peer).map(|case| Box::new(case) as Box<dyn Workload>);
    }
    if let Some(peer) = rest.strip_prefix("spatial_") {
        return PeerSpatial::new(peer).map(|case| Box::new(case) as Box<dyn Workload>);
    }
    let peer = rest.strip_prefix("play_")?;
    PeerPlay::new(peer).map(|case| Box::new(case) as Box<dyn Workload>)
}

// ------------------------------------------------------------------ the storm

/// What one peer did with [`STORM_PLAYS`] plays of one sound in one frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Storm {
    /// The peer.
    pub peer: &'static str,
    /// Copies sounding after the storm.
    pub copies: usize,
    /// The peak of the 100 ms after it, before any clamp (kira clamps its
    /// output to 1: a meter last on its main track reads the mix before).
    pub peak: f32,
}

/// A full-scale 1 s sine, each play at -6 dB: [`STORM_PLAYS`] plays in one
/// frame through the bank (a sound of [`STORM_COPIES`] copies under its copy
/// budget, the default limiter on), through kira (a play each) and through
/// Firewheel ([`STORM_COPIES`] nodes, the oldest restarted when all play).
pub fn storms() -> Vec<Storm> {
    let samples = sine(1.0);
    let mut out = vec![0.0; 2 * RATE as usize / 10];
    let metered = || {
        let meter = MeterBuilder::new();
        let handle: MeterHandle = meter.handle();
        (manager(MainTrackBuilder::new().with_effect(meter)), handle)
    };
    let bank = {
        let (mut manager, meter) = metered();
        let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())
            .expect("valid settings");
        let id: SoundId = sfx
            .add_sound(
                "boom",
                kira_sound(&samples),
                SoundSettings::default()
                    .max_voices(STORM_COPIES)
                    .first_volume(-6.0206),
            )
            .expect("a valid sound");
        for _ in 0..STORM_PLAYS {
            let _ = sfx.play(id, PlayParams::default());
        }
        let _ = manager.backend_mut().render_into(&mut out);
        let _ = sfx.update(0.1);
        Storm {
            peer: "bank",
            copies: sfx.stats().real_voices,
            peak: meter.peak(),
        }
    };
    let kira = {
        let (mut manager, meter) = metered();
        let mut track = manager
            .add_sub_track(TrackBuilder::new().sound_capacity(2 * STORM_PLAYS))
            .expect("room for a track");
        let data = kira_sound(&samples).volume(Decibels(-6.0206));
        let handles: Vec<StaticSoundHandle> = (0..STORM_PLAYS)
            .filter_map(|_| track.play(data.clone()).ok())
            .collect();
        let _ = manager.backend_mut().render_into(&mut out);
        Storm {
            peer: "kira",
            copies: handles.len(),
            peak: meter.peak(),
        }
    };
    let firewheel = {
        let mut bank = FirewheelBank::new(samples, &[1.0; STORM_COPIES], -6.0206, false);
        for _ in 0..STORM_PLAYS {
            bank.play();
        }
        bank.update();
        bank.render(&mut out);
        Storm {
            peer: "firewheel",
            copies: STORM_COPIES,
            peak: out.iter().fold(0.0f32, |peak, s| peak.max(s.abs())),
        }
    };
    vec![bank, kira, firewheel]
}

// ------------------------------------------------------------------ start latency

/// Frames from a play, issued between two renders, to the first sample of its
/// sound in the output, per peer: the bank with its default limiter (whose
/// look-ahead is the whole delay) and without, kira, Firewheel. The sound is a
/// constant level, so a fade-in cannot hide where it starts.
pub fn peer_latencies() -> Vec<(&'static str, Option<usize>)> {
    let level: Vec<f32> = vec![0.5; RATE as usize / 10];
    let mut out = vec![0.0f32; 2 * RATE as usize / 20];
    let first = |out: &[f32]| out.iter().position(|s| s.abs() > 1e-6).map(|at| at / 2);
    let bank = |limiter: bool, out: &mut Vec<f32>| {
        let mut manager = manager(MainTrackBuilder::new());
        let mut settings = SoundEffectsSettings::default();
        if !limiter {
            settings.limiter = None;
        }
        let mut sfx = SoundEffects::new(&mut manager, settings).expect("valid settings");
        let id = sfx
            .add_sound("level", kira_sound(&level), SoundSettings::default())
            .expect("a valid sound");
        let _ = manager.backend_mut().render_into(out);
        let _ = sfx.play(id, PlayParams::default());
        let _ = manager.backend_mut().render_into(out);
        first(out)
    };
    let with_limiter = bank(true, &mut out);
    let without = bank(false, &mut out);
    let kira = {
        let mut manager = manager(MainTrackBuilder::new());
        let _ = manager.backend_mut().render_into(&mut out);
        let _handle = manager.play(kira_sound(&level));
        let _ = manager.backend_mut().render_into(&mut out);
        first(&out)
    };
    let firewheel = {
        let mut bank = FirewheelBank::new(level, &[1.0], 0.0, false);
        bank.render(&mut out);
        bank.play();
        bank.update();
        bank.render(&mut out);
        first(&out)
    };
    vec![
        ("bank (default limiter)", with_limiter),
        ("bank (no limiter)", without),
        ("kira", kira),
        ("firewheel", firewheel),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rms(samples: &[f32]) -> f64 {
        (samples.iter().map(|s| f64::from(*s).powi(2)).sum::<f64>() / samples.len() as f64).sqrt()
    }

    #[test]
    fn every_peer_mixes_the_same_level() {
        // 32 unrelated sines of amplitude 0.5 at -30 dB: sqrt(32 / 2) * 0.5 * 0.0316.
        let expected = (MIX_VOICES as f64 / 2.0).sqrt() * 0.5 * amplitude(MIX_DB);
        for peer in PEERS {
            let mix = PeerMix::new(peer).expect("a peer");
            let rms = rms(mix.rendered());
            assert!(
                (rms / expected - 1.0).abs() < 0.03,
                "{peer}: RMS {rms:.4}, expected {expected:.4}"
            );
        }
    }

    #[test]
    fn only_the_bank_keeps_the_storm_under_the_ceiling() {
        let storms = storms();
        let peak = |peer| storms.iter().find(|s| s.peer == peer).expect("a peer");
        assert!(peak("bank").peak < 0.891, "{:?}", peak("bank"));
        assert!(peak("bank").copies <= STORM_COPIES);
        assert!(peak("kira").peak > 40.0, "{:?}", peak("kira"));
        assert!(peak("firewheel").peak > 4.0, "{:?}", peak("firewheel"));
    }

    #[test]
    fn every_peer_plays_the_positioned_scene() {
        for peer in PEERS {
            let mut scene = PeerSpatial::new(peer).expect("a peer");
            scene.cycle();
            let (rendered, voices): (&[f32], usize) = match &scene {
                PeerSpatial::Bank(case) => (case.rendered(), case.voices().0),
                PeerSpatial::Kira { buffer, tracks, .. } => (buffer, tracks.len()),
                PeerSpatial::Firewheel { buffer, bank } => (buffer, bank.nodes.len()),
            };
            let peak = rendered.iter().fold(0.0f32, |p, s| p.max(s.abs()));
            assert!(peak > 0.01, "{peer}: silent, peak {peak}");
            let expected = if peer == "kira" {
                SPATIAL_EMITTERS
            } else {
                SPATIAL_REAL
            };
            assert_eq!(voices, expected, "{peer}");
        }
    }

    #[test]
    fn the_versions_named_are_the_versions_built() {
        let lock = include_str!("../../Cargo.lock");
        for (name, version) in PEER_VERSIONS {
            let entry = format!("name = \"{name}\"\nversion = \"{version}\"");
            assert!(lock.contains(&entry), "Cargo.lock has no {name} {version}");
        }
    }

    #[test]
    fn every_start_is_measured() {
        for (peer, frames) in peer_latencies() {
            let frames = frames.unwrap_or_else(|| panic!("{peer} never started"));
            assert!(frames < 480, "{peer}: {frames} frames");
        }
    }
}

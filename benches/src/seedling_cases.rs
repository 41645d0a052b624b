//! The Bevy frame through bevy_seedling (Firewheel in Bevy, its sampler pools)
//! beside the same frame through `bevy_pool` (its sound only): 300 looping
//! emitters that move, a moving listener, the audio systems and the frame's
//! audio rendered offline.
//!
//! bevy_seedling has no device-free output that a bench can drive (its mock
//! backend runs the processor in real time on a thread of its own), so this
//! module is one: a plugin that activates Firewheel's context as seedling's
//! backends do and keeps the processor, which the bench calls for each frame's
//! 800 frames of audio. Its pool holds a sampler and a `SpatialBasicNode` per
//! emitter: seedling has no virtual voices, so 300 emitters in a pool of 32
//! would take samplers from each other every frame (and by default despawn the
//! losers); `bevy_pool` mixes 32 real voices and keeps the other 268 virtual.

use std::num::{NonZeroU32, NonZeroUsize};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use audioadapter_buffers_4::direct::InterleavedSlice;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_seedling::SeedlingCorePlugin;
use bevy_seedling::context::{AudioContextConfig, SampleRate};
use bevy_seedling::firewheel::backend::BackendProcessInfo;
use bevy_seedling::firewheel::node::StreamStatus;
use bevy_seedling::firewheel::processor::FirewheelProcessor;
use bevy_seedling::firewheel::sample_resource::InterleavedResourceF32;
use bevy_seedling::firewheel::{ActivateInfo, FirewheelConfig};
use bevy_seedling::node::DiffRate;
use bevy_seedling::platform::initialize_stream;
use bevy_seedling::prelude::*;

use crate::Workload;
use crate::bevy_cases::{Clock, DT, EMITTERS, Index, hum_samples, move_emitters, place};

const RATE: NonZeroU32 = NonZeroU32::new(48_000).expect("a rate");
/// Audio frames in one game frame (1/60 s at 48 kHz).
const FRAMES: usize = 800;

/// Firewheel's processor, kept for the bench to call.
#[derive(Resource)]
struct Offline {
    processor: Mutex<FirewheelProcessor>,
    /// Given to the processor as the time of every block: far in the future,
    /// so its clock correction is 0 and its time counts rendered frames only.
    stamp: Instant,
}

/// The device-free output: Firewheel's context activated, the processor kept.
struct OfflineOutput;

impl Plugin for OfflineOutput {
    fn build(&self, app: &mut App) {
        app.add_systems(
            PostStartup,
            start.in_set(SeedlingStartupSystems::StreamInitialization),
        );
    }
}

fn start(mut context: ResMut<AudioContext>, mut commands: Commands) {
    let processor = context.with(|context| {
        context.activate(ActivateInfo {
            sample_rate: RATE,
            max_block_frames: NonZeroU32::new(1024).expect("a block"),
            num_stream_in_channels: 0,
            num_stream_out_channels: 2,
            input_to_output_latency_seconds: 0.0,
        })
    });
    let Ok(processor) = processor else {
        return;
    };
    commands.insert_resource(Offline {
        processor: Mutex::new(processor),
        stamp: Instant::now() + Duration::from_secs(1 << 30),
    });
    initialize_stream(SampleRate::new(RATE), commands);
}

/// The emitters' pool.
#[derive(PoolLabel, Debug, Clone, PartialEq, Eq, Hash)]
struct Emitters;

/// One frame through bevy_seedling: `app.update()` and the frame's audio.
pub struct SeedlingFrame {
    app: App,
    buffer: Vec<f32>,
}

impl SeedlingFrame {
    /// The app and its emitters, warmed up, with a sampler for each.
    ///
    /// # Panics
    /// If the scene cannot be set up (a bug in this case).
    pub fn new() -> Self {
        Self::with_pool(EMITTERS)
    }

    /// The app and its emitters, with a pool of `pool` samplers, warmed up.
    ///
    /// # Panics
    /// If the scene cannot be set up (a bug in this case).
    pub fn with_pool(pool: usize) -> Self {
        let mut app = App::new();
        app.add_plugins((
            MinimalPlugins,
            bevy::asset::AssetPlugin::default(),
            bevy::transform::TransformPlugin,
            SeedlingCorePlugin,
            OfflineOutput,
        ))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            DT,
        )))
        // Send parameter changes every frame (by default every 10 ms of audio).
        .insert_resource(DiffRate(Duration::ZERO))
        .insert_resource(AudioGraphTemplate::Minimal)
        .insert_resource(AudioContextConfig(FirewheelConfig {
            channel_capacity: 1024,
            immediate_event_capacity: 4096,
            event_queue_capacity: 1024,
            initial_node_capacity: 1024,
            initial_edge_capacity: 2048,
            ..Default::default()
        }))
        .init_resource::<Clock>()
        .add_systems(Update, move_emitters);
        app.finish();
        app.cleanup();
        let hum = app
            .world_mut()
            .resource_mut::<Assets<AudioSample>>()
            .add(AudioSample::new(
                InterleavedResourceF32 {
                    data: hum_samples(),
                    channels: NonZeroUsize::MIN,
                    sample_rate: Some(RATE),
                },
                RATE,
            ));
        app.world_mut().spawn((
            SamplerPool(Emitters),
            PoolSize(pool..=pool),
            sample_effects![SpatialBasicNode::default()],
        ));
        for i in 0..EMITTERS {
            app.world_mut().spawn((
                Emitters,
                SamplePlayer::new(hum.clone()).looping(),
                Transform::from_translation(Vec3::from(place(i, 0.0))),
                Index(i),
            ));
        }
        app.world_mut()
            .spawn((SpatialListener3D, Transform::default()));
        let mut this = Self {
            app,
            buffer: vec![0.0; 2 * FRAMES],
        };
        for _ in 0..120 {
            this.cycle();
        }
        this
    }

    /// The last frame's audio, interleaved stereo.
    pub fn rendered(&self) -> &[f32] {
        &self.buffer
    }

    /// Samplers playing.
    pub fn playing(&mut self) -> usize {
        let mut players = self.app.world_mut().query::<&SamplePlayer>();
        players.iter(self.app.world()).count()
    }

    /// The median time of the app's update and of the audio render over
    /// `frames` frames, in µs: the game thread's share and the mixer's.
    pub fn split_micros(&mut self, frames: usize) -> (f64, f64) {
        let mut update = Vec::with_capacity(frames);
        let mut render = Vec::with_capacity(frames);
        for _ in 0..frames {
            let start = Instant::now();
            self.app.update();
            update.push(start.elapsed().as_secs_f64() * 1e6);
            let start = Instant::now();
            self.render();
            render.push(start.elapsed().as_secs_f64() * 1e6);
        }
        let median = |mut values: Vec<f64>| {
            values.sort_by(f64::total_cmp);
            values.get(values.len() / 2).copied().unwrap_or(0.0)
        };
        (median(update), median(render))
    }

    /// Sampler nodes the pool has handed to emitters.
    pub fn assigned(&mut self) -> usize {
        let mut samplers = self
            .app
            .world_mut()
            .query_filtered::<Entity, (With<SamplePlayer>, With<SampleEffects>)>();
        samplers.iter(self.app.world()).count()
    }

    fn render(&mut self) {
        let Some(offline) = self.app.world().get_resource::<Offline>() else {
            return;
        };
        let Ok(mut processor) = offline.processor.lock() else {
            return;
        };
        let empty: &[f32] = &[];
        let (Ok(input), Ok(mut output)) = (
            InterleavedSlice::new(empty, 0, 0),
            InterleavedSlice::new_mut(&mut self.buffer, 2, FRAMES),
        ) else {
            return;
        };
        processor.process(
            &input,
            &mut output,
            BackendProcessInfo {
                frames: FRAMES,
                process_timestamp: Some(offline.stamp),
                duration_since_stream_start: Duration::ZERO,
                input_stream_status: StreamStatus::empty(),
                output_stream_status: StreamStatus::empty(),
                dropped_frames: 0,
                process_to_playback_delay: None,
            },
        );
    }
}

impl Default for SeedlingFrame {
    fn default() -> Self {
        Self::new()
    }
}

impl Workload for SeedlingFrame {
    fn cycle(&mut self) {
        self.app.update();
        self.render();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_emitter_sounds_through_seedling() {
        let mut frame = SeedlingFrame::new();
        frame.cycle();
        let peak = frame.rendered().iter().fold(0.0f32, |p, s| p.max(s.abs()));
        assert!(peak > 0.01, "silent: peak {peak}");
        assert_eq!(frame.playing(), EMITTERS);
        assert_eq!(frame.assigned(), EMITTERS, "samplers assigned");
    }

    /// What seedling does with more looping emitters than samplers: the
    /// players it cannot serve are despawned (its default when a play is
    /// interrupted or waits too long), emitters and all.
    #[test]
    fn a_pool_smaller_than_the_emitters_despawns_the_rest() {
        let mut frame = SeedlingFrame::with_pool(32);
        frame.cycle();
        assert_eq!(frame.playing(), 32);
    }
}

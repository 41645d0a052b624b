//! Workloads shared by the criterion benchmarks (`cargo bench -p benches`) and the
//! side-by-side `report` binary (`cargo run --release -p benches --bin report`).
//!
//! **Pool cases.** One *cycle* is what a game does for every short-lived object:
//! take one object, write it, and give back the oldest live one. Every case keeps
//! about half of its `size` objects live, except the `_full` cases where every
//! object is live and each request must take one away from its owner.
//!
//! | case | what it is |
//! |---|---|
//! | `fifo_recycle` | `pool_core::Pool` with `RecycleOldest`, prewarmed to `size` |
//! | `strict` | `pool_core::Pool` with `Strict`, prewarmed to `size` |
//! | `grow_to_max` | `pool_core::Pool` that started empty (initial 0) and grew to its working set on demand |
//! | `fifo_recycle_full` | every object live: each acquire recycles the oldest (O(1)) |
//! | `slotmap` | raw `slotmap::SlotMap` insert + remove (baseline: no pooling) |
//! | `box` | `Box::new` + drop (baseline: the heap) |
//! | `object_pool` | the `object-pool` crate: `pull` + drop of its guard |
//! | `unity_scan_full` | a Unity sound manager's algorithm: a queue rotated until an idle source is found, every source busy, so each request scans the whole queue then steals the front |
//!
//! **Recycle cases** (`recycle_{container}_{bytes}b`): recycling the oldest live
//! object with the pool (`pool`) and with what a game writes instead, slotmap or
//! slab plus a `VecDeque` of keys with lazy deletion (`slotmap_deque`,
//! `slab_deque`); see [`recycle_case`] and [`recycle_worst_ns`].
//!
//! **Effects cases** (`pool-effects`), `size` live effects:
//!
//! | case | one cycle | reported per |
//! |---|---|---|
//! | `effects_update` | one `Effects::update` over `size` live (looping) effects | live effect |
//! | `naive_effects_update` | the same in a `Vec<Box<Effect>>`: advance each, `retain` the unfinished | live effect |
//! | `effects_spawn` | spawn one effect and stop the oldest, `size / 2` live | spawn |
//! | `naive_effects_spawn` | `Box::new` one effect into a queue and drop the oldest | spawn |
//! | `effects_update_culled` | one update over `10 * size` live effects that pause and catch up off-screen, `size` in view | visible effect |
//! | `effects_chain` | 16 one-frame flashes spawned and ended in one update, each followed by its kind's follow-up, 16 oldest follow-ups stopped | chained spawn |
//! | `effects_chain_by_hand` | the same, the game spawning each follow-up from the finished events | chained spawn |
//!
//! **Audio cases** (`pool-audio`, offline backend, voice cap 64): the game-thread
//! cost of `SoundEffects::play` on a free voice (`audio_play`) and with every voice
//! busy so each play steals (`audio_play_steal`), of a sound with two
//! game-parameter curves and a switch (`audio_play_curves`), beside a raw kira `play` on a
//! track of the same capacity (`kira_play`); and `update` with 64 active voices
//! (`audio_update`), and with all of them in the loudness window
//! (`audio_update_window`); one read of the voice table of 300 voices, 32 of
//! them real (`audio_voice_table`); a game frame of that level (the listener
//! moves, a shot plays, the update) without and with a capture recording
//! (`audio_frame`, `audio_frame_capture`). Rendering between batches is not
//! timed.
//!
//! **Your own policy and object type**: the pool cases are generic over the
//! pooled object ([`Pooled`]) and the policy; [`compare_policy`] measures yours
//! beside the built-in ones and [`print_pool_table`] prints the report's table
//! (`cargo run --release -p benches --example compare_policies`;
//! `benches/custom_policy.rs` is the same as a criterion group to copy).
//!
//! **Mix cases**, one cycle being one second of 48 kHz stereo audio: the limiter
//! alone, as kira runs it (`limiter`: in 128-frame chunks, over a signal it has
//! to hold down a third of the time), beside the offline render of the 10 voices
//! it protects, without a limiter (`render_10_voices`).
//!
//! **Sound banks**, one cycle being one whole load into a fresh manager: a
//! bank of 200 sounds (recordings already decoded) read and added
//! (`bank_add_200`), beside the same sounds added in code (`bank_code_200`);
//! and one cycle being a reload of that bank changing 20 of its sounds, an
//! update and a 128-frame block (`bank_reload_20`).
//!
//! **Render cases**, one cycle being one second of 48 kHz stereo audio: the
//! voice bank mixing 32 real voices, plain (`bank_render_32`) or positioned
//! (`bank_render_32_positioned`), or in four groups with three ducks on, two
//! snapshots applied (one always moving) and the loudness window on
//! (`bank_render_32_mixed`; its twin without the mix, `bank_render_32_groups`),
//! positioned and pitched (`bank_render_32_pitched`), positioned with doppler
//! and a low-pass on (`bank_render_32_cues`),
//! and 300 positioned voices of which 32 are
//! real (`virtual_render`), beside kira's own 32 static sounds playing the same
//! tone at the same level (`real_render_32`).
//!
//! **Start latency** ([`start_latencies`]): frames from a play to its first
//! sample in the output, fresh, recycled, stolen and taken over.

mod arena_cases;
mod audio_cases;
mod bank_cases;
mod bevy_cases;
mod compare;
mod cue_cases;
mod effects_cases;
mod entity_cases;
mod mix_cases;
mod peer_cases;
mod pool_cases;
mod recycle_cases;
mod scale_cases;
mod seedling_cases;
mod table_cases;
pub use table_cases::{AudioFrame, VoiceTableRead};

pub use arena_cases::{
    ARENA_CONTAINERS, ARENA_OBJECTS, ARENA_OPS, ArenaOp, Blob, OBJECT_BYTES, SIZE_CONTAINERS,
    SlabHalfLive, arena_case, size_case,
};
pub use audio_cases::{
    AudioPlay, AudioUpdate, AudioUpdateVirtual, KiraPlay, KiraRender, LimiterSecond, RenderSecond,
    StartCase, VoicesRender, start_latencies,
};
pub use bank_cases::{BANK_SOUNDS, BankLoad, BankReload};
pub use bevy_cases::{BevyFrame, PlainFrame};
pub use compare::{Measured, Settings, compare_policy, measure, print_pool_table};
pub use cue_cases::CuesRender;
pub use effects_cases::{
    EffectsChain, EffectsSpawn, EffectsUpdate, EffectsUpdateCulled, NaiveEffectsSpawn,
    NaiveEffectsUpdate,
};
pub use entity_cases::{ENTITY_BATCHES, ENTITY_PREFABS, EntityFrame, entity_case};
pub use mix_cases::{AudioUpdateWindow, MixedRender};
pub use peer_cases::{
    FirewheelBank, MIX_VOICES, PEER_CASES, PEER_VERSIONS, PEERS, PeerMix, PeerPlay, PeerSpatial,
    SPATIAL_EMITTERS, SPATIAL_REAL, STORM_COPIES, STORM_PLAYS, Storm, mix_rate, peer_case,
    peer_latencies, storms,
};
pub use pool_cases::{
    BoxHalfLive, ObjectPoolHalfLive, PoolDisjoint, PoolFull, PoolHalfLive, SlotMapDisjoint,
    SlotMapHalfLive, UnityScanFull,
};
pub use recycle_cases::{
    RECYCLE_CONTAINERS, SlabDeque, SlotMapDeque, recycle_case, recycle_worst_ns,
};
pub use scale_cases::{
    BankMemory, SCALE_BUDGET, SCALE_FEW, SCALE_MANY, SCALE_SCENES, bank_memory, scale_case,
    scale_case_name, voices_within_budget,
};
pub use seedling_cases::SeedlingFrame;

use pool_core::{RecycleOldest, Strict};

/// Pool sizes measured: a small effect pool, a big one, and a bullet-hell one.
pub const SIZES: [usize; 3] = [64, 1024, 16384];

/// Live effects in the update cases.
pub const EFFECTS_UPDATE_SIZES: [usize; 2] = [10_000, 100_000];

/// Pool size of the spawn cases (half of it live).
pub const EFFECTS_SPAWN_SIZE: usize = 1024;

/// A typical pooled object: a particle, 32 bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Particle {
    /// Where it is.
    pub position: [f32; 3],
    /// Where it goes.
    pub velocity: [f32; 3],
    /// Seconds left.
    pub life: f32,
    /// Who spawned it.
    pub owner: u32,
}

impl Particle {
    fn spawned(owner: u32) -> Self {
        Self {
            position: [owner as f32, 0.0, 1.0],
            velocity: [0.0, 1.0, 0.0],
            life: 1.5,
            owner,
        }
    }
}

/// An object type the pool cases can hold: yours, to compare policies on it
/// (`cargo run --release -p benches --example compare_policies`).
pub trait Pooled: Sized + 'static {
    /// A fresh object: the pool's factory, and what the baseline inserts.
    fn fresh() -> Self;

    /// What a game writes into an object it takes; `n` counts the cycles.
    fn spawn(&mut self, n: u32);

    /// A fresh object, spawned: what the slotmap baseline inserts each cycle.
    fn spawned(n: u32) -> Self {
        let mut object = Self::fresh();
        object.spawn(n);
        object
    }
}

impl Pooled for Particle {
    fn fresh() -> Self {
        Self::default()
    }

    fn spawn(&mut self, n: u32) {
        *self = Self::spawned(n);
    }

    fn spawned(n: u32) -> Self {
        Particle::spawned(n)
    }
}

/// One benchmark case: a structure prepared at a size, and its cycle.
pub trait Workload {
    /// One cycle (see the crate docs for what a cycle is in each case).
    fn cycle(&mut self);

    /// How many items one cycle handles: the report divides by it (1 for the pool
    /// cases; the number of live effects for an update).
    fn items_per_cycle(&self) -> u64 {
        1
    }

    /// `cycles` cycles in a loop, monomorphized per case so that the measurement
    /// pays one dynamic call per sample, not per cycle.
    fn run(&mut self, cycles: u64) {
        for _ in 0..cycles {
            self.cycle();
        }
    }

    /// Runs `cycles` cycles and returns the time they took.
    fn timed_run(&mut self, cycles: u64) -> std::time::Duration {
        self.sampled_run(cycles).elapsed
    }

    /// Runs `cycles` cycles and returns the time they took and the heap
    /// allocations they made (counted when the binary's global allocator is
    /// `alloc_counter`'s). Cases with untimed upkeep between cycles (the audio
    /// cases render between batches) override it to count the cycles alone.
    fn sampled_run(&mut self, cycles: u64) -> Sample {
        let before = alloc_counter::thread_allocations();
        let start = std::time::Instant::now();
        self.run(cycles);
        let elapsed = start.elapsed();
        Sample {
            elapsed,
            allocations: alloc_counter::thread_allocations() - before,
        }
    }
}

/// What one measured run of a [`Workload`] cost, its untimed upkeep left out.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Sample {
    /// Time spent in the cycles.
    pub elapsed: std::time::Duration,
    /// Heap allocations made by the cycles.
    pub allocations: u64,
}

/// The pool cases of the report, in its row order.
pub const CASES: [&str; 8] = [
    "fifo_recycle",
    "strict",
    "grow_to_max",
    "fifo_recycle_full",
    "slotmap",
    "box",
    "object_pool",
    "unity_scan_full",
];

/// The effects cases of the report, in its row order.
pub const EFFECTS_CASES: [&str; 7] = [
    "effects_update",
    "naive_effects_update",
    "effects_spawn",
    "naive_effects_spawn",
    "effects_update_culled",
    "effects_chain",
    "effects_chain_by_hand",
];

/// The audio cases of the report, in its row order (their size is the voice cap).
pub const AUDIO_CASES: [&str; 12] = [
    "audio_play",
    "audio_play_steal",
    "audio_play_owner",
    "audio_play_variation",
    "audio_play_curves",
    "kira_play",
    "audio_update",
    "audio_update_window",
    "audio_update_virtual",
    "audio_voice_table",
    "audio_frame",
    "audio_frame_capture",
];

/// The mix-ceiling cases of the report: one cycle is one second of audio.
pub const MIX_CASES: [&str; 2] = ["limiter", "render_10_voices"];

/// The sound-bank cases: a bank of [`BANK_SOUNDS`] sounds added from its text,
/// beside the same sounds added in code (one cycle: one whole load).
pub const BANK_CASES: [&str; 3] = ["bank_add_200", "bank_code_200", "bank_reload_20"];

/// One game frame (300 moving emitters, 1,000 live effects, both updates, the
/// frame's audio rendered) through the Bevy plugins and through the plain API.
pub const BEVY_CASES: [&str; 2] = ["bevy_frame", "plain_frame"];

/// The voice bank's mixing against kira's own 32 sounds (`real_render_32`): one
/// cycle is one second of audio.
pub const RENDER_CASES: [&str; 10] = [
    "real_render_32",
    "bank_render_32",
    "bank_render_32_bused",
    "bank_render_32_sends",
    "bank_render_32_groups",
    "bank_render_32_mixed",
    "bank_render_32_positioned",
    "bank_render_32_pitched",
    "bank_render_32_cues",
    "virtual_render",
];

/// Builds case `name` at `size`, warmed up (the working set exists and every
/// structure has reached its size). `None` for an unknown name.
pub fn workload(name: &str, size: usize) -> Option<Box<dyn Workload>> {
    Some(match name {
        "fifo_recycle" => Box::new(PoolHalfLive::<_, Particle>::new(size, size, RecycleOldest)),
        "strict" => Box::new(PoolHalfLive::<_, Particle>::new(size, size, Strict)),
        "grow_to_max" => Box::new(PoolHalfLive::<_, Particle>::new(0, size, Strict)),
        "fifo_recycle_full" => Box::new(PoolFull::<_, Particle>::new(size, RecycleOldest)),
        "slotmap" => Box::new(SlotMapHalfLive::<Particle>::new(size)),
        "disjoint2" => Box::new(PoolDisjoint::new(size)),
        "slotmap_disjoint2" => Box::new(SlotMapDisjoint::new(size)),
        "box" => Box::new(BoxHalfLive::new(size)),
        "object_pool" => Box::new(ObjectPoolHalfLive::new(size)),
        "unity_scan_full" => Box::new(UnityScanFull::new(size)),
        "effects_update" => Box::new(EffectsUpdate::new(size)),
        "naive_effects_update" => Box::new(NaiveEffectsUpdate::new(size)),
        "effects_spawn" => Box::new(EffectsSpawn::new(size)),
        "naive_effects_spawn" => Box::new(NaiveEffectsSpawn::new(size)),
        "effects_update_culled" => Box::new(EffectsUpdateCulled::new(size)),
        "effects_chain" => Box::new(EffectsChain::new(size, false)),
        "effects_chain_by_hand" => Box::new(EffectsChain::new(size, true)),
        "audio_play" => Box::new(AudioPlay::new(false)),
        "audio_play_steal" => Box::new(AudioPlay::new(true)),
        "audio_play_owner" => Box::new(AudioPlay::with_owners()),
        "audio_play_variation" => Box::new(AudioPlay::with_variations()),
        "audio_play_curves" => Box::new(AudioPlay::with_curves()),
        "kira_play" => Box::new(KiraPlay::new()),
        "audio_update" => Box::new(AudioUpdate::new()),
        "limiter" => Box::new(LimiterSecond::new()),
        "render_10_voices" => Box::new(RenderSecond::new()),
        "bank_add_200" => Box::new(BankLoad::new(true)),
        "bank_code_200" => Box::new(BankLoad::new(false)),
        "bank_reload_20" => Box::new(BankReload::new()),
        "audio_update_virtual" => Box::new(AudioUpdateVirtual::new()),
        "audio_voice_table" => Box::new(VoiceTableRead::new()),
        "audio_frame" => Box::new(AudioFrame::new(false)),
        "audio_frame_capture" => Box::new(AudioFrame::new(true)),
        "audio_update_window" => Box::new(AudioUpdateWindow::new()),
        "bank_render_32_mixed" => Box::new(MixedRender::new(true)),
        "bank_render_32_groups" => Box::new(MixedRender::new(false)),
        "real_render_32" => Box::new(KiraRender::new()),
        "bank_render_32" => Box::new(VoicesRender::new(32, false)),
        "bank_render_32_bused" => Box::new(VoicesRender::bused()),
        "bank_render_32_sends" => Box::new(VoicesRender::sending()),
        "bank_render_32_positioned" => Box::new(VoicesRender::new(32, true)),
        "bank_render_32_pitched" => Box::new(VoicesRender::at_rate(32, true, 1.1)),
        "bank_render_32_cues" => Box::new(CuesRender::new()),
        "virtual_render" => Box::new(VoicesRender::new(300, true)),
        "bevy_frame" => Box::new(BevyFrame::new()),
        "bevy_sound_frame" => Box::new(BevyFrame::sound_only(false)),
        "seedling_frame" => Box::new(SeedlingFrame::new()),
        "plain_frame" => Box::new(PlainFrame::new()),
        _ => {
            return size_case(name, size)
                .or_else(|| arena_case(name))
                .or_else(|| recycle_case(name, size))
                .or_else(|| peer_case(name))
                .or_else(|| scale_case(name, size))
                .or_else(|| entity_case(name, size));
        }
    })
}

/// The workspace README's Rust examples, compiled and run as doctests here, in the
/// crate that depends on every other.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;

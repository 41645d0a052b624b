//! The level's content, shared by the plain showcase and the Bevy example
//! (`bevy_pool`'s `headless`), so both play the same level: its sounds, groups
//! and settings, its effect kinds, where its 300 ambience emitters stand, the
//! listener's walk, and the rules of its waves.

use std::error::Error;
use std::sync::Arc;

use kira::Frame;
use kira::sound::static_sound::StaticSoundData;
use std::time::Duration;

use pool_audio::loader::FileLoader;
use pool_audio::{
    GroupId, GroupSettings, PlayParams, SoundEffects, SoundEffectsSettings, SoundId, SoundSettings,
    mix::BusBuilder, mix::DuckSettings, mix::LoudnessWindow, mix::MixError, mix::Snapshot,
    mix::SnapshotId, mix::TrackId, mix::ZoneSettings, mix::ZoneShape, sound::Pick, voices::Resume,
    voices::Stealing, voices::Virtualization,
};
use pool_effects::{AddKindError, EffectKind, Effects, KindId};

/// The output's sample rate.
pub const RATE: u32 = 48_000;
/// Frames per second of the game loop.
pub const FPS: usize = 60;
/// The map is `-HALF..HALF` metres on both axes.
pub const HALF: f32 = 100.0;
/// Real voices, all sounds together.
pub const VOICE_CAP: usize = 32;
/// A wave every this many seconds: a horn and [`ENEMIES_PER_WAVE`] enemies.
pub const WAVE_SECONDS: usize = 3;
/// Enemies in a wave, 15 to 35 m around the listener.
pub const ENEMIES_PER_WAVE: usize = 60;
/// Seconds into a wave when every enemy left dies at once (the storm).
pub const STORM_SECONDS: usize = 2;
/// Enemies walk towards the listener at this speed, m/s.
pub const ENEMY_SPEED: f32 = 3.0;
/// Hits an enemy takes.
pub const ENEMY_HP: u8 = 2;
/// The player fires at the nearest enemy this many times a second.
pub const SHOTS_PER_SECOND: usize = 10;
/// Bullets in flight at most (a strict pool: with all in flight, the player waits).
pub const BULLETS: usize = 64;
/// Bullet speed, m/s, and lifetime, s.
pub const BULLET_SPEED: f32 = 60.0;
/// How long a bullet flies, s.
pub const BULLET_LIFE: f32 = 1.0;
/// A bullet hits an enemy within this distance, m.
pub const HIT_RADIUS: f32 = 1.5;
/// The player's footstep every this many frames (0.45 s) as it walks.
pub const STEP_FRAMES: usize = 27;

/// The level's sounds.
pub struct Sounds {
    /// A looping torch (ambience group).
    pub torch: SoundId,
    /// A looping waterfall (ambience group).
    pub waterfall: SoundId,
    /// An enemy dying (explosions group).
    pub explosion: SoundId,
    /// The player's shot (combat group).
    pub gunshot: SoundId,
    /// The player's footstep (footsteps group).
    pub footstep: SoundId,
    /// A bullet's hit (combat group).
    pub spark: SoundId,
    /// A new wave (UI group, protected).
    pub horn: SoundId,
    /// The ambience group (torches and waterfalls), outside the loudness window.
    pub ambience: GroupId,
    /// The explosions' group, in the loudness window: it ducks the footsteps.
    pub explosions: GroupId,
    /// The footsteps' group, in the loudness window, ducked by explosions.
    pub footsteps: GroupId,
}

/// The level's sound-effect settings: the voice cap, and the loudness window
/// (40 dB high, a 1.5 s release, its top never under 60 dB) over combat,
/// explosions and footsteps.
pub fn settings() -> SoundEffectsSettings {
    let window = LoudnessWindow::default()
        .height(40.0)
        .release(Duration::from_millis(1500))
        .floor(60.0);
    SoundEffectsSettings {
        voice_cap: VOICE_CAP,
        loudness_window: Some(window),
        ..Default::default()
    }
}

/// The level's mix: explosions duck the footsteps by 12 dB (a 30 ms attack,
/// held 0.3 s after the last explosion, back over 0.7 s), and the "storm"
/// snapshot, for the moment every enemy dies at once, lowers the ambience by
/// 6 dB (and the `music` track by 6 dB if there is one). Returns the
/// snapshot.
///
/// # Errors
/// What `add_duck` and `add_snapshot` return (none for this content, with
/// `music` a track of `sfx`'s mix).
pub fn add_mix(
    sfx: &mut SoundEffects,
    sounds: &Sounds,
    music: Option<pool_audio::mix::TrackId>,
) -> Result<SnapshotId, MixError> {
    let duck = DuckSettings::default()
        .amount(-12.0)
        .attack(pool_audio::linear_fade(Duration::from_millis(30)))
        .hold(Duration::from_millis(300))
        .release(pool_audio::linear_fade(Duration::from_millis(700)));
    sfx.mix_mut()
        .add_duck(sounds.explosions, sounds.footsteps, duck)?;
    let mut storm = Snapshot::new("storm").set(sounds.ambience, -6.0);
    if let Some(music) = music {
        storm = storm.set(music, -6.0);
    }
    sfx.mix_mut().add_snapshot(storm)
}

/// The space of the level: a world bus every sound but the interface goes
/// through, with a low-pass the pause menu closes; the reverb of a cave at the
/// map's centre, under the world bus; the cave's zone, which follows the
/// listener (the room the player hears); the pause snapshot; a meter on each
/// bus.
pub struct Space {
    /// The world bus.
    pub world: TrackId,
    /// The cave's zone.
    pub cave: ZoneSettings,
    /// The pause menu: the world 6 dB down and muffled to 400 Hz.
    pub pause: SnapshotId,
    /// The world bus's level.
    pub world_meter: pool_audio::dsp::MeterHandle,
    /// The cave reverb's level.
    pub cave_meter: pool_audio::dsp::MeterHandle,
}

/// Adds the level's buses, the cave zone and the pause snapshot (before the
/// sounds: their groups route to the world bus).
///
/// # Errors
/// What `add_bus`, `add_param`, `add_zone` and `add_snapshot` return (none
/// for this content).
pub fn add_space(sfx: &mut SoundEffects) -> Result<Space, MixError> {
    use kira::effect::filter::FilterBuilder;
    use kira::effect::reverb::ReverbBuilder;
    use pool_audio::dsp::MeterBuilder;

    let mut world = BusBuilder::new();
    let mut filter = world.add_effect(FilterBuilder::new().cutoff(20_000.0));
    let world_meter = world.add_effect(MeterBuilder::new());
    let world = sfx.mix_mut().add_bus("world", world)?;
    let mut cave = BusBuilder::new().parent(world);
    cave.add_effect(
        ReverbBuilder::new()
            .feedback(0.85)
            .damping(0.4)
            .mix(kira::Mix::WET),
    );
    let cave_meter = cave.add_effect(MeterBuilder::new());
    let cave_bus = sfx.mix_mut().add_bus("cave reverb", cave)?;
    let shape = ZoneShape::Sphere {
        center: [0.0, 0.0, 0.0],
        radius: 25.0,
    };
    let cave = ZoneSettings::new(shape, cave_bus)
        .level(-3.0)
        .fade(15.0)
        .follows_listener(true);
    sfx.mix_mut().add_zone(cave)?;
    let cutoff = sfx.mix_mut().add_param(
        "world cutoff",
        20_000.0,
        20.0..=20_000.0,
        move |hz, tween| {
            filter.set_cutoff(hz, tween);
        },
    )?;
    let pause = Snapshot::new("pause")
        .priority(10)
        .set(world, -6.0)
        .set_param(cutoff, 400.0);
    let pause = sfx.mix_mut().add_snapshot(pause)?;
    Ok(Space {
        world,
        cave,
        pause,
        world_meter,
        cave_meter,
    })
}

/// The level's effect kinds.
pub struct Kinds {
    /// An enemy dying.
    pub explosion: KindId,
    /// The player's shot.
    pub muzzle: KindId,
    /// A bullet's hit.
    pub spark: KindId,
}

/// One ambience emitter: where it stands, whether it is a waterfall, its volume.
pub struct Ambience {
    /// Map position (x, z), metres.
    pub at: [f32; 2],
    /// A waterfall, else a torch.
    pub waterfall: bool,
    /// The play's volume, as an amplitude.
    pub volume: f32,
}

/// The level's generator, seeded as the level is.
pub fn rng() -> Lcg {
    Lcg(0x1e7e1)
}

/// The workspace's folder of sound files.
pub const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets");

/// Adds the level's groups and sounds (the footsteps loaded from [`ASSETS`],
/// the other sounds' data drawn from `rng`).
///
/// # Errors
/// What `add_group` and `add_sound` return (none for this content), and a
/// footstep file that does not load.
pub fn add_sounds(sfx: &mut SoundEffects, rng: &mut Lcg) -> Result<Sounds, Box<dyn Error>> {
    add_sounds_on(sfx, rng, None)
}

/// As [`add_sounds`], every group but the interface's routed to bus `world`
/// if given (see [`add_space`]).
///
/// # Errors
/// As [`add_sounds`].
pub fn add_sounds_on(
    sfx: &mut SoundEffects,
    rng: &mut Lcg,
    world: Option<TrackId>,
) -> Result<Sounds, Box<dyn Error>> {
    let on = |group: GroupSettings| match world {
        Some(bus) => group.bus(bus),
        None => group,
    };
    let ambience = sfx.add_group("ambience", on(GroupSettings::default().max_voices(24)))?;
    let combat = sfx.add_group(
        "combat",
        on(GroupSettings::default()
            .max_voices(16)
            .stealing(Stealing::Oldest)
            .loudness_window(true)),
    )?;
    let in_window = on(GroupSettings::default().loudness_window(true));
    let booms = sfx.add_group("explosions", in_window.max_voices(8))?;
    let steps = sfx.add_group("footsteps", in_window.max_voices(2))?;
    let ui = sfx.add_group("ui", GroupSettings::default().max_voices(2).protected(true))?;
    let loops = Virtualization::Virtualize(Resume::FromElapsed);
    let torch = sfx.add_sound(
        "torch",
        noise(rng, 1.0, 0.6, 0.08).loop_region(..),
        SoundSettings::default()
            .max_voices(16)
            .first_volume(-9.1186)
            .virtualization(loops)
            .group(ambience),
    )?;
    let waterfall = sfx.add_sound(
        "waterfall",
        noise(rng, 2.0, 0.8, 0.5).loop_region(..),
        SoundSettings::default()
            .max_voices(8)
            .first_volume(-6.0206)
            .virtualization(loops)
            .group(ambience),
    )?;
    // Shots, steps and explosions vary: several recordings each (drawn from
    // the same generator), a pitch and a volume drawn per play.
    let explosions: Vec<_> = (0..3)
        .map(|i| burst(rng, 0.5 + 0.1 * i as f32, 1.0, 0.12 + 0.03 * i as f32))
        .collect();
    let gunshots: Vec<_> = (0..4)
        .map(|i| burst(rng, 0.12 + 0.02 * i as f32, 0.9, 0.5 + 0.1 * i as f32))
        .collect();
    // Footsteps are three recorded takes from the workspace's `assets/`. The
    // generator moves on as if it had drawn them (four bursts of 60-90 ms), so
    // the level's layout, drawn after the sounds, stays the same.
    let mut files = FileLoader::new(ASSETS);
    let footsteps = files.takes([
        "sounds/step_1.wav",
        "sounds/step_2.wav",
        "sounds/step_3.wav",
    ])?;
    for i in 0..4 {
        for _ in 0..((0.06 + 0.01 * i as f32) * RATE as f32) as usize {
            rng.range(-1.0, 1.0);
        }
    }
    Ok(Sounds {
        torch,
        waterfall,
        explosion: sfx.add_sound(
            "explosion",
            explosions,
            SoundSettings::default()
                .max_voices(8)
                .first_volume(-12.0412)
                .min_retrigger(std::time::Duration::from_secs_f64(0.03))
                .retrigger_radius(4.0)
                .pitch_semitones(-3.0, 1.0)
                .volume_range(-3.0, 0.0)
                .group(booms)
                .loudness(100.0),
        )?,
        gunshot: sfx.add_sound(
            "gunshot",
            gunshots,
            SoundSettings::default()
                .max_voices(4)
                .first_volume(-10.4576)
                .pitch_semitones(-1.5, 1.5)
                .volume_range(-3.0, 0.0)
                .group(combat)
                .loudness(88.0),
        )?,
        footstep: sfx.add_sound(
            "footstep",
            footsteps,
            SoundSettings::default()
                .max_voices(2)
                .first_volume(-10.4576)
                .pick(Pick::Shuffle)
                .pitch_semitones(-1.0, 1.0)
                .volume_range(-6.0, 0.0)
                .group(steps)
                .loudness(70.0),
        )?,
        spark: sfx.add_sound(
            "spark",
            burst(rng, 0.08, 0.7, 0.9),
            SoundSettings::default()
                .max_voices(4)
                .first_volume(-13.9794)
                .group(combat)
                .loudness(80.0),
        )?,
        horn: sfx.add_sound(
            "horn",
            horn(0.6),
            SoundSettings::default()
                .max_voices(1)
                .first_volume(-6.0206)
                .priority(10)
                .zones(false)
                .group(ui),
        )?,
        ambience,
        explosions: booms,
        footsteps: steps,
    })
}

/// 280 torches on a jittered grid, 20 waterfalls along a river (drawn from
/// `rng` after the sounds).
pub fn ambience(rng: &mut Lcg) -> Vec<Ambience> {
    let mut emitters = Vec::with_capacity(300);
    for i in 0..280 {
        let (gx, gz) = ((i % 20) as f32, (i / 20) as f32);
        let at = [
            -HALF + 5.0 + gx * 10.0 + rng.range(-3.0, 3.0),
            -HALF + 5.0 + gz * 14.3 + rng.range(-3.0, 3.0),
        ];
        let volume = rng.range(0.5, 1.0);
        emitters.push(Ambience {
            at,
            waterfall: false,
            volume,
        });
    }
    for i in 0..20 {
        let t = i as f32 / 19.0;
        emitters.push(Ambience {
            at: [-HALF + 10.0 + t * 180.0, 40.0 * (t * 6.0).sin()],
            waterfall: true,
            volume: 1.0,
        });
    }
    emitters
}

/// Adds the level's effect kinds.
///
/// # Errors
/// What `add_kind` returns (none for this content).
pub fn add_kinds(effects: &mut Effects) -> Result<Kinds, AddKindError> {
    Ok(Kinds {
        explosion: effects.add_kind(
            EffectKind::new("explosion", 16, Duration::from_secs_f64(1.0 / 30.0))
                .layer(1)
                .pool(64, 256),
        )?,
        muzzle: effects.add_kind(
            EffectKind::new("muzzle", 4, Duration::from_secs_f64(1.0 / 60.0))
                .layer(2)
                .pool(8, 32),
        )?,
        spark: effects.add_kind(
            EffectKind::new("spark", 6, Duration::from_secs_f64(1.0 / 60.0))
                .layer(3)
                .pool(16, 64),
        )?,
    })
}

/// Where the listener is at `t` (0 at the start of the run, 1 at its end): it
/// walks the diagonal of the map, weaving.
pub fn listener_at(t: f32) -> [f32; 2] {
    [
        -90.0 + 180.0 * t,
        -90.0 + 180.0 * t + 30.0 * (t * 9.0).sin(),
    ]
}

/// The frames of a run of `frames` at which the player opens and closes the
/// pause menu: 70% and 85% of the way.
pub fn pause_frames(frames: usize) -> (usize, usize) {
    (frames * 7 / 10, frames * 17 / 20)
}

/// Where a new wave's enemy stands: 15 to 35 m from the listener, drawn from `rng`.
pub fn enemy_at(listener: [f32; 2], rng: &mut Lcg) -> [f32; 2] {
    let angle = rng.range(0.0, std::f32::consts::TAU);
    let distance = rng.range(15.0, 35.0);
    [
        listener[0] + distance * angle.cos(),
        listener[1] + distance * angle.sin(),
    ]
}

/// A play at map position `at` (x, z) on the ground.
pub fn at_params(at: [f32; 2]) -> PlayParams {
    PlayParams::default().position([at[0], 0.0, at[1]])
}

/// The distance between two map positions.
pub fn distance(a: [f32; 2], b: [f32; 2]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

fn data(samples: Vec<f32>) -> StaticSoundData {
    let frames: Arc<[Frame]> = samples.into_iter().map(Frame::from_mono).collect();
    StaticSoundData {
        sample_rate: RATE,
        frames,
        settings: Default::default(),
        slice: None,
    }
}

/// Low-passed noise (`smooth` in `0..1`: the one-pole coefficient), `seconds`
/// long, peaking near `level`.
fn noise(rng: &mut Lcg, seconds: f32, level: f32, smooth: f32) -> StaticSoundData {
    let mut y = 0.0f32;
    let raw: Vec<f32> = (0..(seconds * RATE as f32) as usize)
        .map(|_| {
            y += smooth * (rng.range(-1.0, 1.0) - y);
            y
        })
        .collect();
    let peak = raw.iter().fold(0.0f32, |m, s| m.max(s.abs())).max(1e-6);
    data(raw.into_iter().map(|s| s / peak * level).collect())
}

/// A decaying noise burst.
fn burst(rng: &mut Lcg, seconds: f32, level: f32, smooth: f32) -> StaticSoundData {
    let n = (seconds * RATE as f32) as usize;
    let mut y = 0.0f32;
    data(
        (0..n)
            .map(|i| {
                y += smooth * (rng.range(-1.0, 1.0) - y);
                let envelope = (1.0 - i as f32 / n as f32).powi(3);
                (y * 2.0).clamp(-1.0, 1.0) * level * envelope
            })
            .collect(),
    )
}

/// A rising horn for a new wave.
fn horn(seconds: f32) -> StaticSoundData {
    let n = (seconds * RATE as f32) as usize;
    let mut phase = 0.0f32;
    data(
        (0..n)
            .map(|i| {
                let t = i as f32 / n as f32;
                phase += (220.0 + 220.0 * t) / RATE as f32;
                0.8 * (phase * std::f32::consts::TAU).sin() * (1.0 - t)
            })
            .collect(),
    )
}

/// A small deterministic generator: the same level every run.
pub struct Lcg(pub u64);

impl Lcg {
    /// A uniform number in `low..high`.
    pub fn range(&mut self, low: f32, high: f32) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        low + (high - low) * ((self.0 >> 40) as f32 / (1u64 << 24) as f32)
    }
}

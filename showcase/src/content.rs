//! The level's content, shared by the plain showcase and the Bevy example
//! (`bevy_pool`'s `headless`), so both play the same level: its sounds, groups
//! and settings, its effect kinds, where its 300 ambience emitters stand, the
//! listener's walk, and the rules of its waves.

use std::error::Error;
use std::sync::Arc;

use kira::Frame;
use kira::sound::static_sound::StaticSoundData;
use std::time::Duration;

use pool_audio::data::SoundBank;
use pool_audio::loader::MemoryLoader;
use pool_audio::{
    GroupId, PlayParams, SoundEffects, SoundEffectsSettings, SoundId, mix::BusBuilder,
    mix::LoudnessWindow, mix::MixError, mix::Snapshot, mix::SnapshotId, mix::TrackId,
    mix::ZoneSettings, mix::ZoneShape,
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

/// The level's sound bank, under [`ASSETS`]: its groups and sounds, the duck
/// of the footsteps under explosions and the storm snapshot.
pub const BANK: &str = "sounds/level.bank.ron";

/// The level's sound bank and the bytes of every file it names, by the
/// bank's name for it: read from [`ASSETS`] ([`files`]), or built into the
/// program (the web example).
pub struct Files {
    /// The level's bank ([`BANK`]).
    pub bank: SoundBank,
    /// Its files, encoded.
    pub loader: MemoryLoader,
}

/// The level's bank and its files, read from [`ASSETS`].
///
/// # Errors
/// The bank's, or a file that cannot be read.
pub fn files() -> Result<Files, Box<dyn Error>> {
    let bank = SoundBank::from_file(format!("{ASSETS}/{BANK}"))?;
    let mut loader = MemoryLoader::new();
    for file in bank.files() {
        let bytes = std::fs::read(format!("{ASSETS}/{file}"))
            .map_err(|error| format!("{ASSETS}/{file}: {error}"))?;
        loader.insert_encoded(file, bytes);
    }
    Ok(Files { bank, loader })
}

/// Adds the level's sound bank ([`files`]) to `sfx`, which holds the world bus
/// ([`add_space`]) and a `music` track, and moves `rng` on past the sounds it
/// once drew (the level's layout is drawn after them). Returns the sounds and
/// groups the level plays, and the storm snapshot: for the moment every enemy
/// dies at once, the ambience and the music 6 dB down.
///
/// # Errors
/// The bank's error (none for this content), and a name the level plays that
/// the bank lacks.
pub fn add_sounds(
    sfx: &mut SoundEffects,
    rng: &mut Lcg,
    files: &mut Files,
) -> Result<(Sounds, SnapshotId), Box<dyn Error>> {
    sfx.add_bank(&files.bank, &mut files.loader, None)?;
    // The sounds were drawn from the level's generator before they were
    // files: it moves on as it did then.
    drop(synthesized(rng));
    let sound = |name: &str| {
        sfx.sound(name)
            .ok_or(format!("no sound {name:?} in the bank"))
    };
    let group = |name: &str| {
        sfx.group(name)
            .ok_or(format!("no group {name:?} in the bank"))
    };
    let sounds = Sounds {
        torch: sound("torch")?,
        waterfall: sound("waterfall")?,
        explosion: sound("explosion")?,
        gunshot: sound("gunshot")?,
        footstep: sound("footstep")?,
        spark: sound("spark")?,
        horn: sound("horn")?,
        ambience: group("ambience")?,
        explosions: group("explosions")?,
        footsteps: group("footsteps")?,
    };
    let storm = sfx
        .mix()
        .snapshot("storm")
        .ok_or("no snapshot \"storm\" in the bank")?;
    Ok((sounds, storm))
}

/// The level's made sounds, drawn from `rng` in this order, by the name of
/// their file under `assets/sounds/level/` (written by the showcase's
/// `make_sounds` example): low-passed noise for the torch and the waterfall,
/// three explosions and four gunshots (decaying bursts), a spark, a horn.
/// The footsteps are recorded takes; the generator moves on as if it had
/// drawn four bursts of 60-90 ms for them.
pub fn synthesized(rng: &mut Lcg) -> Vec<(String, StaticSoundData)> {
    let mut made = vec![
        ("torch".to_string(), noise(rng, 1.0, 0.6, 0.08)),
        ("waterfall".to_string(), noise(rng, 2.0, 0.8, 0.5)),
    ];
    for i in 0..3 {
        let explosion = burst(rng, 0.5 + 0.1 * i as f32, 1.0, 0.12 + 0.03 * i as f32);
        made.push((format!("explosion_{}", i + 1), explosion));
    }
    for i in 0..4 {
        let gunshot = burst(rng, 0.12 + 0.02 * i as f32, 0.9, 0.5 + 0.1 * i as f32);
        made.push((format!("gunshot_{}", i + 1), gunshot));
    }
    for i in 0..4 {
        for _ in 0..((0.06 + 0.01 * i as f32) * RATE as f32) as usize {
            rng.range(-1.0, 1.0);
        }
    }
    made.push(("spark".to_string(), burst(rng, 0.08, 0.7, 0.9)));
    made.push(("horn".to_string(), horn(0.6)));
    made
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

//! The level: the map, its ambience, the listener's walk, enemies, bullets and
//! effects, and the sounds of it all.

use std::error::Error;
use std::path::Path;
use std::sync::Arc;

use kira::sound::static_sound::StaticSoundData;
use kira::track::MainTrackBuilder;
use kira::{AudioManager, AudioManagerSettings, Frame};
use pool_audio::{
    GroupSettings, MeterBuilder, MeterHandle, OfflineBackend, OfflineSettings, PlayParams,
    Rendered, Resume, SoundEffects, SoundEffectsSettings, SoundId, SoundSettings, Stealing,
    Virtualization, VoiceHandle, VoiceState,
};
use pool_core::{Pool, Strict};
use pool_effects::{DrawList, EffectKind, Effects, KindId};

use crate::FPS;

const RATE: u32 = 48_000;
/// The map is `-HALF..HALF` metres on both axes.
pub(crate) const HALF: f32 = 100.0;
const DT: f64 = 1.0 / FPS as f64;
/// Real voices, all sounds together.
pub(crate) const VOICE_CAP: usize = 32;

pub(crate) struct Enemy {
    pub(crate) at: [f32; 2],
    hp: u8,
}

pub(crate) struct Bullet {
    pub(crate) at: [f32; 2],
    velocity: [f32; 2],
    life: f32,
}

/// One ambience emitter: where it is, its voice, and whether it is a waterfall.
pub(crate) struct Emitter {
    pub(crate) at: [f32; 2],
    pub(crate) voice: VoiceHandle,
    pub(crate) waterfall: bool,
}

/// What one second of the level did.
pub(crate) struct SecondRow {
    pub(crate) second: usize,
    pub(crate) real: usize,
    pub(crate) virtual_voices: usize,
    pub(crate) plays: u64,
    pub(crate) stolen: u64,
    pub(crate) peak_db: f32,
    pub(crate) clipped: f64,
}

struct Sounds {
    explosion: SoundId,
    gunshot: SoundId,
    spark: SoundId,
    horn: SoundId,
}

struct Kinds {
    explosion: KindId,
    muzzle: KindId,
    spark: KindId,
}

pub(crate) struct Level {
    manager: AudioManager<OfflineBackend>,
    meter: MeterHandle,
    pub(crate) sfx: SoundEffects,
    sounds: Sounds,
    pub(crate) effects: Effects,
    kinds: Kinds,
    pub(crate) draw: DrawList,
    pub(crate) enemies: Pool<Enemy>,
    pub(crate) bullets: Pool<Bullet, Strict>,
    pub(crate) emitters: Vec<Emitter>,
    pub(crate) listener: [f32; 2],
    audio: Vec<f32>,
    rng: Lcg,
    // Per-second bookkeeping.
    max_real: usize,
    max_virtual: usize,
    last_plays: u64,
    last_stolen: u64,
}

impl Level {
    pub(crate) fn new() -> Result<Self, Box<dyn Error>> {
        let meter = MeterBuilder::new();
        let reading = meter.handle();
        let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings {
            main_track_builder: MainTrackBuilder::new().with_effect(meter),
            backend_settings: OfflineSettings { sample_rate: RATE },
            ..Default::default()
        })?;
        let mut sfx = SoundEffects::new(
            &mut manager,
            SoundEffectsSettings {
                voice_cap: VOICE_CAP,
                ..Default::default()
            },
        )?;
        let ambience = sfx.add_group("ambience", GroupSettings::default().max_voices(24))?;
        let combat = sfx.add_group(
            "combat",
            GroupSettings::default()
                .max_voices(16)
                .stealing(Stealing::Oldest),
        )?;
        let ui = sfx.add_group("ui", GroupSettings::default().max_voices(2).protected(true))?;
        let mut rng = Lcg(0x1e7e1);
        let loops = Virtualization::Virtualize(Resume::FromElapsed);
        let torch = sfx.add_sound(
            "torch",
            noise(&mut rng, 1.0, 0.6, 0.08).loop_region(..),
            SoundSettings::default()
                .max_voices(16)
                .first_volume(0.35)
                .virtualization(loops)
                .group(ambience),
        )?;
        let waterfall = sfx.add_sound(
            "waterfall",
            noise(&mut rng, 2.0, 0.8, 0.5).loop_region(..),
            SoundSettings::default()
                .max_voices(8)
                .first_volume(0.5)
                .virtualization(loops)
                .group(ambience),
        )?;
        let sounds = Sounds {
            explosion: sfx.add_sound(
                "explosion",
                burst(&mut rng, 0.6, 1.0, 0.15),
                SoundSettings::default()
                    .max_voices(8)
                    .first_volume(0.25)
                    .min_retrigger(0.03)
                    .retrigger_radius(4.0)
                    .group(combat),
            )?,
            gunshot: sfx.add_sound(
                "gunshot",
                burst(&mut rng, 0.15, 0.9, 0.6),
                SoundSettings::default()
                    .max_voices(4)
                    .first_volume(0.3)
                    .group(combat),
            )?,
            spark: sfx.add_sound(
                "spark",
                burst(&mut rng, 0.08, 0.7, 0.9),
                SoundSettings::default()
                    .max_voices(4)
                    .first_volume(0.2)
                    .group(combat),
            )?,
            horn: sfx.add_sound(
                "horn",
                horn(0.6),
                SoundSettings::default()
                    .max_voices(1)
                    .first_volume(0.5)
                    .priority(10)
                    .group(ui),
            )?,
        };

        // 280 torches on a jittered grid, 20 waterfalls along a river.
        let mut emitters = Vec::with_capacity(300);
        for i in 0..280 {
            let (gx, gz) = ((i % 20) as f32, (i / 20) as f32);
            let at = [
                -HALF + 5.0 + gx * 10.0 + rng.range(-3.0, 3.0),
                -HALF + 5.0 + gz * 14.3 + rng.range(-3.0, 3.0),
            ];
            let voice = sfx.play(torch, at_params(at).volume(rng.range(0.5, 1.0).into()))?;
            emitters.push(Emitter {
                at,
                voice,
                waterfall: false,
            });
        }
        for i in 0..20 {
            let t = i as f32 / 19.0;
            let at = [-HALF + 10.0 + t * 180.0, 40.0 * (t * 6.0).sin()];
            let voice = sfx.play(waterfall, at_params(at))?;
            emitters.push(Emitter {
                at,
                voice,
                waterfall: true,
            });
        }

        let mut effects = Effects::new();
        let kinds = Kinds {
            explosion: effects.add_kind(
                EffectKind::new("explosion", 16, 1.0 / 30.0)
                    .layer(1)
                    .pool(64, 256),
            )?,
            muzzle: effects.add_kind(
                EffectKind::new("muzzle", 4, 1.0 / 60.0)
                    .layer(2)
                    .pool(8, 32),
            )?,
            spark: effects.add_kind(
                EffectKind::new("spark", 6, 1.0 / 60.0)
                    .layer(3)
                    .pool(16, 64),
            )?,
        };
        let enemies = Pool::builder(|| Enemy {
            at: [0.0; 2],
            hp: 0,
        })
        .initial(64)
        .max_objects(256)
        .build()?;
        let bullets = Pool::builder(|| Bullet {
            at: [0.0; 2],
            velocity: [0.0; 2],
            life: 0.0,
        })
        .initial(64)
        .max_objects(64)
        .policy(Strict)
        .build()?;
        Ok(Self {
            manager,
            meter: reading,
            sfx,
            sounds,
            effects,
            kinds,
            draw: DrawList::new(),
            enemies,
            bullets,
            emitters,
            listener: [-90.0, -90.0],
            audio: Vec::new(),
            rng,
            max_real: 0,
            max_virtual: 0,
            last_plays: 0,
            last_stolen: 0,
        })
    }

    /// One frame of `frames`: the game, then its audio, then the sound effects'
    /// update (so the game clock and the audio clock agree), then the effects.
    pub(crate) fn step(&mut self, frame: usize, frames: usize) -> Result<(), Box<dyn Error>> {
        // The listener walks the diagonal of the map over the run.
        let t = frame as f32 / frames as f32;
        self.listener = [
            -90.0 + 180.0 * t,
            -90.0 + 180.0 * t + 30.0 * (t * 9.0).sin(),
        ];
        self.sfx
            .set_listener([self.listener[0], 0.0, self.listener[1]])?;
        let second = frame % (FPS * 3);
        // A wave every three seconds: a horn and sixty enemies around the player.
        if second == 0 {
            let _ = self.sfx.play(self.sounds.horn, PlayParams::default());
            for _ in 0..60 {
                let angle = self.rng.range(0.0, std::f32::consts::TAU);
                let distance = self.rng.range(15.0, 35.0);
                let at = [
                    self.listener[0] + distance * angle.cos(),
                    self.listener[1] + distance * angle.sin(),
                ];
                let (_, enemy) = self.enemies.acquire_mut();
                *enemy = Enemy { at, hp: 2 };
            }
        }
        // The storm: two seconds into a wave, every enemy dies at once.
        if second == 2 * FPS {
            let mut dead = Vec::new();
            self.enemies.reclaim(|_, enemy| {
                dead.push(enemy.at);
                true
            });
            for at in dead {
                self.explode(at);
            }
        }
        // Enemies walk towards the player.
        let listener = self.listener;
        self.enemies.for_each_mut(|_, enemy| {
            let d = [listener[0] - enemy.at[0], listener[1] - enemy.at[1]];
            let length = (d[0] * d[0] + d[1] * d[1]).sqrt().max(1e-3);
            enemy.at[0] += d[0] / length * 3.0 * DT as f32;
            enemy.at[1] += d[1] / length * 3.0 * DT as f32;
        });
        // The player fires at the nearest enemy ten times a second.
        if frame.is_multiple_of(FPS / 10) {
            self.fire();
        }
        self.move_bullets();

        let rendered = self.manager.backend_mut().render(DT)?;
        self.audio.extend_from_slice(rendered.samples());
        self.sfx.update(DT)?;
        self.effects.update(DT)?;
        self.draw.fill(&self.effects);
        let stats = self.sfx.stats();
        self.max_real = self.max_real.max(stats.real_voices);
        self.max_virtual = self.max_virtual.max(stats.virtual_voices);
        Ok(())
    }

    fn fire(&mut self) {
        let listener = self.listener;
        let Some(target) = self
            .enemies
            .iter()
            .map(|(_, e)| e.at)
            .min_by(|a, b| distance(*a, listener).total_cmp(&distance(*b, listener)))
        else {
            return;
        };
        let d = [target[0] - listener[0], target[1] - listener[1]];
        let length = (d[0] * d[0] + d[1] * d[1]).sqrt().max(1e-3);
        // Strict: with every bullet in flight, the player waits.
        if let Ok((_, bullet)) = self.bullets.try_acquire_mut() {
            *bullet = Bullet {
                at: listener,
                velocity: [d[0] / length * 60.0, d[1] / length * 60.0],
                life: 1.0,
            };
            let _ = self.effects.spawn(self.kinds.muzzle, listener);
            let _ = self.sfx.play(self.sounds.gunshot, at_params(listener));
        }
    }

    fn move_bullets(&mut self) {
        let mut hits = Vec::new();
        let enemies = &mut self.enemies;
        self.bullets.reclaim(|_, bullet| {
            bullet.at[0] += bullet.velocity[0] * DT as f32;
            bullet.at[1] += bullet.velocity[1] * DT as f32;
            bullet.life -= DT as f32;
            let mut hit = false;
            enemies.for_each_mut(|_, enemy| {
                if !hit && enemy.hp > 0 && distance(enemy.at, bullet.at) < 1.5 {
                    enemy.hp -= 1;
                    hit = true;
                }
            });
            if hit {
                hits.push(bullet.at);
            }
            hit || bullet.life <= 0.0
        });
        let mut dead = Vec::new();
        self.enemies.reclaim(|_, enemy| {
            if enemy.hp == 0 {
                dead.push(enemy.at);
            }
            enemy.hp == 0
        });
        for at in hits {
            let _ = self.effects.spawn(self.kinds.spark, at);
            let _ = self.sfx.play(self.sounds.spark, at_params(at));
        }
        for at in dead {
            self.explode(at);
        }
    }

    fn explode(&mut self, at: [f32; 2]) {
        let _ = self.effects.spawn(self.kinds.explosion, at);
        let _ = self.sfx.play(self.sounds.explosion, at_params(at));
    }

    /// The row of the second that just ended; resets the per-second readings.
    pub(crate) fn second_row(&mut self, second: usize) -> SecondRow {
        let stats = self.sfx.stats();
        let displaced = stats.stolen_voices + stats.virtualized;
        let peak = self.meter.peak();
        let row = SecondRow {
            second,
            real: self.max_real,
            virtual_voices: self.max_virtual,
            plays: stats.plays - self.last_plays,
            stolen: displaced - self.last_stolen,
            peak_db: 20.0 * peak.max(1e-9).log10(),
            clipped: self.meter.clipped_fraction(),
        };
        self.meter.reset();
        self.last_plays = stats.plays;
        self.last_stolen = displaced;
        self.max_real = 0;
        self.max_virtual = 0;
        row
    }

    /// Whether an emitter's voice is real now.
    pub(crate) fn is_real(&self, emitter: &Emitter) -> bool {
        self.sfx.state(emitter.voice) == VoiceState::Real
    }

    /// Gain reduction of the limiter since the last call, in dB.
    pub(crate) fn take_gain_reduction_db(&self) -> f32 {
        self.sfx
            .limiter()
            .map_or(0.0, |l| l.take_max_gain_reduction_db())
    }

    /// The peak of the last frame's rendered audio, for the plot (after kira's
    /// clamp; the per-second rows read the meter, before it).
    pub(crate) fn last_frame_peak(&self) -> f32 {
        let frame = (RATE as usize / FPS) * 2;
        self.audio[self.audio.len().saturating_sub(frame)..]
            .iter()
            .fold(0.0f32, |m, s| m.max(s.abs()))
    }

    pub(crate) fn write_wav(&self, path: &Path) -> Result<(), Box<dyn Error>> {
        Rendered::from_samples(RATE, self.audio.clone()).write_wav(path)?;
        Ok(())
    }
}

fn at_params(at: [f32; 2]) -> PlayParams {
    PlayParams::default().position([at[0], 0.0, at[1]])
}

pub(crate) fn distance(a: [f32; 2], b: [f32; 2]) -> f32 {
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
pub(crate) struct Lcg(pub(crate) u64);

impl Lcg {
    pub(crate) fn range(&mut self, low: f32, high: f32) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        low + (high - low) * ((self.0 >> 40) as f32 / (1u64 << 24) as f32)
    }
}

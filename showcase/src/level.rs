//! The level: the map, its ambience, the listener's walk, enemies, bullets and
//! effects, and the sounds of it all. The showcase renders it offline; the web
//! example (`web/`) plays it in a browser, through `pool_audio::web` or kira's
//! own output.

use std::error::Error;
use std::path::Path;

use kira::backend::Backend;
use kira::track::MainTrackBuilder;
use kira::{AudioManager, AudioManagerSettings};
use std::time::Duration;

use crate::car;
use crate::content::{
    self, BULLET_LIFE, BULLET_SPEED, BULLETS, ENEMIES_PER_WAVE, ENEMY_HP, ENEMY_SPEED, FPS,
    HIT_RADIUS, Kinds, Lcg, RATE, SHOTS_PER_SECOND, STEP_FRAMES, STORM_SECONDS, Sounds,
    WAVE_SECONDS, at_params, distance,
};
use pool_audio::SoundId;
use pool_audio::music::{Music, MusicSettings};
use pool_audio::{
    OfflineBackend, PlayParams, SoundEffects, VoiceHandle, VoiceState, dsp::MeterBuilder,
    dsp::MeterHandle, linear_fade, mix::SnapshotId, offline::OfflineSettings, offline::Rendered,
};
use pool_core::{Pool, Strict};
use pool_effects::{DrawList, Effects};

const DT: f64 = 1.0 / FPS as f64;

/// An enemy: where it stands and the hits it can still take.
pub struct Enemy {
    /// Its position on the map, m.
    pub at: [f32; 2],
    hp: u8,
}

/// A bullet in flight.
pub struct Bullet {
    /// Its position on the map, m.
    pub at: [f32; 2],
    velocity: [f32; 2],
    life: f32,
}

/// One ambience emitter: where it is, its voice, and whether it is a waterfall.
pub struct Emitter {
    /// Where it stands, m.
    pub at: [f32; 2],
    /// Its looping voice.
    pub voice: VoiceHandle,
    /// A waterfall, or a torch.
    pub waterfall: bool,
}

/// What one second of the level did.
pub struct SecondRow {
    /// The second that ended (1 for the first).
    pub second: usize,
    /// The most real voices at an update in the second.
    pub real: usize,
    /// The most virtual voices at an update in the second.
    pub virtual_voices: usize,
    /// Plays asked for in the second.
    pub plays: u64,
    /// Voices stolen or made virtual in the second.
    pub stolen: u64,
    /// The mix's peak before kira's clamp, dBFS.
    pub peak_db: f32,
    /// The fraction of samples over full scale.
    pub clipped: f64,
}

/// The level and its sound, played through the kira backend `B`: rendered on
/// demand by the [`OfflineBackend`] (the showcase, the web output) or pulled by
/// a device's (kira's own web output).
pub struct Level<B: Backend = OfflineBackend> {
    manager: AudioManager<B>,
    meter: MeterHandle,
    /// The level's sound effects.
    pub sfx: SoundEffects,
    /// Its sounds and groups.
    pub sounds: Sounds,
    /// The snapshot of the moment every enemy dies at once.
    storm: SnapshotId,
    /// The world bus, the cave and the pause menu.
    pub space: content::Space,
    /// Its tracks, which the storm snapshot sets.
    _music: Music,
    /// Explosions, muzzle flashes and sparks.
    pub effects: Effects,
    kinds: Kinds,
    /// What to draw of the effects, filled each frame.
    pub draw: DrawList,
    /// The enemies alive.
    pub enemies: Pool<Enemy>,
    /// The bullets in flight.
    pub bullets: Pool<Bullet, Strict>,
    /// The 300 ambience emitters.
    pub emitters: Vec<Emitter>,
    /// Where the listener stands, m.
    pub listener: [f32; 2],
    /// The passing car's engine and its voice (see `showcase::car`).
    car_sound: SoundId,
    car: Option<VoiceHandle>,
    /// The car's and the listener's positions, frame by frame.
    /// Empty where the level does not keep it ([`Level::from_setup`]).
    pub track: car::Track,
    /// Whether `track` is kept.
    keep_track: bool,
    audio: Vec<f32>,
    /// Kept from frame to frame: the enemies that died and where bullets hit.
    dead: Vec<[f32; 2]>,
    hits: Vec<[f32; 2]>,
    rng: Lcg,
    // Per-second bookkeeping.
    max_real: usize,
    max_virtual: usize,
    last_plays: u64,
    last_stolen: u64,
}

/// The level's sound as it is before its first play: what a replay of its
/// capture starts from.
pub struct Setup<B: Backend = OfflineBackend> {
    /// The kira manager.
    pub manager: AudioManager<B>,
    /// The main track's meter.
    pub meter: MeterHandle,
    /// The level's sound effects, its bank added.
    pub sfx: SoundEffects,
    /// The world bus, the cave and the pause menu.
    pub space: content::Space,
    /// The music's tracks.
    pub music: Music,
    /// The sounds and groups.
    pub sounds: Sounds,
    /// The storm snapshot.
    pub storm: SnapshotId,
    /// The car's engine.
    pub car_sound: SoundId,
    /// The level's generator, past the sounds.
    pub rng: Lcg,
}

impl Setup {
    /// The level's sound rendered offline at [`RATE`], its files read from
    /// [`content::ASSETS`].
    ///
    /// # Errors
    /// kira's, the bank's or a file's.
    pub fn new() -> Result<Self, Box<dyn Error>> {
        let backend = OfflineSettings { sample_rate: RATE };
        Self::with_backend(backend, &mut content::files()?)
    }
}

impl<B: Backend + 'static> Setup<B> {
    /// The level's sound through the backend `B`, its bank and sound files
    /// from `files` (see [`content::Files`]).
    ///
    /// # Errors
    /// The backend's, kira's, the bank's or a file's.
    pub fn with_backend(
        backend: B::Settings,
        files: &mut content::Files,
    ) -> Result<Self, Box<dyn Error>>
    where
        B::Error: Error + 'static,
        B::Settings: Default,
    {
        let meter = MeterBuilder::new();
        let reading = meter.handle();
        let mut manager = AudioManager::<B>::new(AudioManagerSettings {
            main_track_builder: MainTrackBuilder::new().with_effect(meter),
            backend_settings: backend,
            ..Default::default()
        })?;
        let mut sfx = SoundEffects::new(&mut manager, content::settings())?;
        let mut rng = content::rng();
        let space = content::add_space(&mut sfx)?;
        // The storm lowers the music track too (the level plays no music).
        let music = Music::new(&mut sfx, MusicSettings::default())?;
        let (sounds, storm) = content::add_sounds(&mut sfx, &mut rng, files)?;
        let car_sound = car::add(&mut sfx)?;
        Ok(Self {
            manager,
            meter: reading,
            sfx,
            space,
            music,
            sounds,
            storm,
            car_sound,
            rng,
        })
    }
}

impl Level {
    /// The level rendered offline, its sound captured from its first play
    /// with room for `capture` events, if asked.
    ///
    /// # Errors
    /// The setup's, or a first play's.
    pub fn new(capture: Option<usize>) -> Result<Self, Box<dyn Error>> {
        Self::from_setup(Setup::new()?, capture, true)
    }
}

impl<B: Backend> Level<B> {
    /// The level on `setup`, captured with room for `capture` events if
    /// asked; `keep_track` keeps the car's and the listener's positions
    /// frame by frame (for the showcase's pictures; a game that runs for
    /// hours does not).
    ///
    /// # Errors
    /// A first play's.
    pub fn from_setup(
        setup: Setup<B>,
        capture: Option<usize>,
        keep_track: bool,
    ) -> Result<Self, Box<dyn Error>> {
        let Setup {
            manager,
            meter: reading,
            mut sfx,
            space,
            music,
            sounds,
            storm,
            car_sound,
            mut rng,
        } = setup;
        if let Some(events) = capture {
            sfx.start_capture(events);
        }
        let mut emitters = Vec::with_capacity(300);
        for ambience in content::ambience(&mut rng) {
            let sound = if ambience.waterfall {
                sounds.waterfall
            } else {
                sounds.torch
            };
            let voice = sfx.play(
                sound,
                at_params(ambience.at).volume(20.0 * ambience.volume.log10()),
            )?;
            emitters.push(Emitter {
                at: ambience.at,
                voice,
                waterfall: ambience.waterfall,
            });
        }

        let mut effects = Effects::new();
        let kinds = content::add_kinds(&mut effects)?;
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
        .initial(BULLETS)
        .max_objects(BULLETS)
        .policy(Strict)
        .build()?;
        Ok(Self {
            manager,
            meter: reading,
            sfx,
            _music: music,
            sounds,
            storm,
            space,
            effects,
            kinds,
            draw: DrawList::new(),
            enemies,
            bullets,
            emitters,
            listener: [-90.0, -90.0],
            car_sound,
            car: None,
            track: Vec::new(),
            keep_track,
            audio: Vec::new(),
            dead: Vec::with_capacity(256),
            hits: Vec::with_capacity(BULLETS),
            rng,
            max_real: 0,
            max_virtual: 0,
            last_plays: 0,
            last_stolen: 0,
        })
    }

    /// The game of frame `frame` of `frames` (1/60 s): the listener's walk,
    /// the car, the waves, the storm, the pause menu, bullets and their
    /// sounds. The audio of the frame comes next, then [`Level::after_audio`].
    ///
    /// # Errors
    /// A snapshot's or the listener's (none for this content).
    pub fn play_frame(&mut self, frame: usize, frames: usize) -> Result<(), Box<dyn Error>> {
        // The listener walks the diagonal of the map over the run.
        self.listener = content::listener_at(frame as f32 / frames as f32);
        self.sfx
            .listener()
            .set_position([self.listener[0], 0.0, self.listener[1]])?;
        // The car drives across the map, passing the listener half way.
        let car = car::at(frame as f64 / FPS as f64, frames as f64 / FPS as f64);
        match self.car {
            None => self.car = Some(self.sfx.play(self.car_sound, at_params(car))?),
            Some(voice) => {
                let _ = self.sfx.voice(voice).set_position([car[0], 0.0, car[1]]);
            }
        }
        if self.keep_track {
            self.track.push((car, self.listener));
        }
        if frame.is_multiple_of(STEP_FRAMES) {
            let _ = self.sfx.play(self.sounds.footstep, PlayParams::default());
        }
        let second = frame % (FPS * WAVE_SECONDS);
        // A wave every three seconds: a horn and sixty enemies around the player.
        if second == 0 {
            let _ = self.sfx.play(self.sounds.horn, PlayParams::default());
            for _ in 0..ENEMIES_PER_WAVE {
                let at = content::enemy_at(self.listener, &mut self.rng);
                let (_, enemy) = self.enemies.acquire_mut();
                *enemy = Enemy { at, hp: ENEMY_HP };
            }
        }
        // The storm: two seconds into a wave, every enemy dies at once.
        if second == STORM_SECONDS * FPS {
            let mut dead = std::mem::take(&mut self.dead);
            self.enemies.reclaim(|_, enemy| {
                dead.push(enemy.at);
                true
            });
            for at in dead.drain(..) {
                self.explode(at);
            }
            self.dead = dead;
            self.sfx.mix_mut().apply_snapshot(
                self.storm,
                1.0,
                linear_fade(Duration::from_millis(200)),
            )?;
        }
        if second == STORM_SECONDS * FPS + FPS / 2 {
            self.sfx
                .mix_mut()
                .release_snapshot(self.storm, linear_fade(Duration::from_secs(1)))?;
        }
        // The player opens the pause menu at 70% of the run and closes it at
        // 85%: the world muffles under it (the level plays on).
        let (open, close) = content::pause_frames(frames);
        if frame == open {
            let fade = linear_fade(Duration::from_millis(300));
            self.sfx
                .mix_mut()
                .apply_snapshot(self.space.pause, 1.0, fade)?;
        }
        if frame == close {
            let fade = linear_fade(Duration::from_millis(500));
            self.sfx
                .mix_mut()
                .release_snapshot(self.space.pause, fade)?;
        }
        // Enemies walk towards the player.
        let listener = self.listener;
        self.enemies.for_each_mut(|_, enemy| {
            let d = [listener[0] - enemy.at[0], listener[1] - enemy.at[1]];
            let length = (d[0] * d[0] + d[1] * d[1]).sqrt().max(1e-3);
            enemy.at[0] += d[0] / length * ENEMY_SPEED * DT as f32;
            enemy.at[1] += d[1] / length * ENEMY_SPEED * DT as f32;
        });
        // The player fires at the nearest enemy ten times a second.
        if frame.is_multiple_of(FPS / SHOTS_PER_SECOND) {
            self.fire();
        }
        self.move_bullets();
        Ok(())
    }

    /// After the frame's audio: the sound effects' update (so the game
    /// clock and the audio clock agree), then the effects.
    ///
    /// # Errors
    /// The update's (none for this content).
    pub fn after_audio(&mut self) -> Result<(), Box<dyn Error>> {
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
                velocity: [d[0] / length * BULLET_SPEED, d[1] / length * BULLET_SPEED],
                life: BULLET_LIFE,
            };
            let _ = self.effects.spawn(self.kinds.muzzle, listener);
            let _ = self.sfx.play(self.sounds.gunshot, at_params(listener));
        }
    }

    fn move_bullets(&mut self) {
        let mut hits = std::mem::take(&mut self.hits);
        let enemies = &mut self.enemies;
        self.bullets.reclaim(|_, bullet| {
            bullet.at[0] += bullet.velocity[0] * DT as f32;
            bullet.at[1] += bullet.velocity[1] * DT as f32;
            bullet.life -= DT as f32;
            let mut hit = false;
            enemies.for_each_mut(|_, enemy| {
                if !hit && enemy.hp > 0 && distance(enemy.at, bullet.at) < HIT_RADIUS {
                    enemy.hp -= 1;
                    hit = true;
                }
            });
            if hit {
                hits.push(bullet.at);
            }
            hit || bullet.life <= 0.0
        });
        let mut dead = std::mem::take(&mut self.dead);
        self.enemies.reclaim(|_, enemy| {
            if enemy.hp == 0 {
                dead.push(enemy.at);
            }
            enemy.hp == 0
        });
        for at in hits.drain(..) {
            let _ = self.effects.spawn(self.kinds.spark, at);
            let _ = self.sfx.play(self.sounds.spark, at_params(at));
        }
        for at in dead.drain(..) {
            self.explode(at);
        }
        self.hits = hits;
        self.dead = dead;
    }

    fn explode(&mut self, at: [f32; 2]) {
        let _ = self.effects.spawn(self.kinds.explosion, at);
        let _ = self.sfx.play(self.sounds.explosion, at_params(at));
    }

    /// The kira manager.
    pub fn manager_mut(&mut self) -> &mut AudioManager<B> {
        &mut self.manager
    }

    /// The main track's peak since the last [`Level::second_row`], before
    /// kira's clamp (linear).
    pub fn peak(&self) -> f32 {
        self.meter.peak()
    }

    /// The row of the second that just ended; resets the per-second readings.
    pub fn second_row(&mut self, second: usize) -> SecondRow {
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
    pub fn is_real(&self, emitter: &Emitter) -> bool {
        self.sfx.state(emitter.voice) == VoiceState::Real
    }

    /// Gain reduction of the limiter since the last call, in dB.
    pub fn take_gain_reduction_db(&self) -> f32 {
        self.sfx
            .limiter()
            .map_or(0.0, |l| l.take_max_gain_reduction().0)
    }
}

impl Level {
    /// One frame of `frames` rendered offline: [`Level::play_frame`], 1/60 s
    /// of audio (kept for [`Level::write_wav`]), [`Level::after_audio`].
    ///
    /// # Errors
    /// The frame's or the render's.
    pub fn step(&mut self, frame: usize, frames: usize) -> Result<(), Box<dyn Error>> {
        self.play_frame(frame, frames)?;
        let rendered = self.manager.backend_mut().render(DT)?;
        self.audio.extend_from_slice(rendered.samples());
        self.after_audio()
    }

    /// The peak of the last frame's rendered audio, for the plot (after kira's
    /// clamp; the per-second rows read the meter, before it).
    pub fn last_frame_peak(&self) -> f32 {
        let frame = (RATE as usize / FPS) * 2;
        self.audio[self.audio.len().saturating_sub(frame)..]
            .iter()
            .fold(0.0f32, |m, s| m.max(s.abs()))
    }

    /// Writes the audio rendered so far.
    ///
    /// # Errors
    /// The file's.
    pub fn write_wav(&self, path: &Path) -> Result<(), Box<dyn Error>> {
        Rendered::from_samples(RATE, self.audio.clone()).write_wav(path)?;
        Ok(())
    }
}

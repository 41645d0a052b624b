//! The effects cases: `pool-effects` against a naive `Vec<Box<Effect>>`.

use std::collections::VecDeque;
use std::hint::black_box;
use std::time::Duration;

use pool_effects::{
    EffectHandle, EffectKind, Effects, Finished, FollowUp, KindId, Offscreen, Rgba, Vec2, View,
};

use crate::Workload;

/// One frame at 60 Hz.
const DT: f32 = 1.0 / 60.0;

/// `size` looping effects, updated once per cycle (so none ever ends and the live
/// count stays `size`). Frames are 1/30 s: half the updates change an effect's frame.
pub struct EffectsUpdate {
    effects: Effects,
    live: u64,
}

impl EffectsUpdate {
    /// `size` live looping effects.
    pub fn new(size: usize) -> Self {
        let mut effects = Effects::new();
        let fire = effects
            .add_kind(
                EffectKind::new("fire", 8, Duration::from_secs_f64(1.0 / 30.0))
                    .looping()
                    .pool(size, size),
            )
            .expect("valid benchmark kind");
        for i in 0..size {
            effects
                .spawn(fire, [i as f32, 0.0])
                .expect("room for every effect");
        }
        let mut this = Self {
            effects,
            live: size as u64,
        };
        this.run(4);
        this
    }
}

impl Workload for EffectsUpdate {
    fn cycle(&mut self) {
        let _ = black_box(self.effects.update(f64::from(DT)));
    }

    fn items_per_cycle(&self) -> u64 {
        self.live
    }
}

/// The effect a naive implementation would box: the same fields as
/// `pool_effects::Effect`, with its clock in `f32` seconds.
#[derive(Debug, Clone)]
#[allow(dead_code)] // carried, like the real effect's fields, but the update reads only the clock
struct NaiveEffect {
    position: Vec2,
    rotation: f32,
    scale: Vec2,
    tint: Rgba,
    tag: u64,
    time_scale: f32,
    elapsed: f32,
    frame: u32,
    looping: bool,
}

impl NaiveEffect {
    fn new(x: f32, looping: bool) -> Self {
        Self {
            position: Vec2 { x, y: 0.0 },
            rotation: 0.0,
            scale: Vec2 { x: 1.0, y: 1.0 },
            tint: Rgba::WHITE,
            tag: 0,
            time_scale: 1.0,
            elapsed: 0.0,
            frame: 0,
            looping,
        }
    }
}

const NAIVE_FRAMES: u32 = 8;
const NAIVE_INTERVAL: f32 = 1.0 / 30.0;

/// Baseline: `size` boxed effects in a `Vec`, each advanced, finished ones removed
/// with `retain` (none finish: they loop).
pub struct NaiveEffectsUpdate {
    // The naive baseline boxes each effect on purpose: that is what it measures.
    #[allow(clippy::vec_box)]
    effects: Vec<Box<NaiveEffect>>,
}

impl NaiveEffectsUpdate {
    /// `size` live looping effects, each in its own `Box`.
    pub fn new(size: usize) -> Self {
        let mut this = Self {
            effects: (0..size)
                .map(|i| Box::new(NaiveEffect::new(i as f32, true)))
                .collect(),
        };
        this.run(4);
        this
    }
}

impl Workload for NaiveEffectsUpdate {
    fn cycle(&mut self) {
        let duration = NAIVE_INTERVAL * NAIVE_FRAMES as f32;
        for effect in &mut self.effects {
            effect.elapsed += DT * effect.time_scale;
            if effect.looping && effect.elapsed >= duration {
                effect.elapsed -= duration;
            }
            effect.frame = (effect.elapsed / NAIVE_INTERVAL) as u32;
        }
        self.effects
            .retain(|effect| effect.looping || effect.frame < NAIVE_FRAMES);
        black_box(&self.effects);
    }

    fn items_per_cycle(&self) -> u64 {
        self.effects.len() as u64
    }
}

/// A kind of `size` instances with half of them live: each cycle spawns one effect
/// (and sets its tag) and stops the oldest.
pub struct EffectsSpawn {
    effects: Effects,
    kind: KindId,
    live: VecDeque<EffectHandle>,
    tag: u64,
}

impl EffectsSpawn {
    /// Half of `size` live, prewarmed.
    pub fn new(size: usize) -> Self {
        let mut effects = Effects::new();
        let kind = effects
            .add_kind(
                EffectKind::new("hit", 12, Duration::from_secs_f64(1.0 / 30.0)).pool(size, size),
            )
            .expect("valid benchmark kind");
        let mut this = Self {
            effects,
            kind,
            live: VecDeque::with_capacity(size),
            tag: 0,
        };
        for _ in 0..size / 2 {
            let handle = this.effects.spawn(kind, [0.0, 0.0]).expect("room");
            this.live.push_back(handle);
        }
        this.run(size as u64);
        this
    }
}

impl Workload for EffectsSpawn {
    fn cycle(&mut self) {
        self.tag = self.tag.wrapping_add(1);
        if let Ok((handle, mut effect)) = self.effects.spawn_mut(self.kind, [1.0, 2.0]) {
            effect.tag = self.tag;
            self.live.push_back(handle);
        }
        if let Some(oldest) = self.live.pop_front() {
            let _ = black_box(self.effects.stop(oldest));
        }
    }
}

/// Baseline: each spawn a `Box::new`, each finish a drop.
pub struct NaiveEffectsSpawn {
    live: VecDeque<Box<NaiveEffect>>,
    tag: u64,
}

impl NaiveEffectsSpawn {
    /// Half of `size` live.
    pub fn new(size: usize) -> Self {
        let mut this = Self {
            live: (0..size / 2)
                .map(|_| Box::new(NaiveEffect::new(0.0, false)))
                .collect(),
            tag: 0,
        };
        this.live.reserve(size);
        this.run(size as u64);
        this
    }
}

impl Workload for NaiveEffectsSpawn {
    fn cycle(&mut self) {
        self.tag = self.tag.wrapping_add(1);
        let mut effect = Box::new(NaiveEffect::new(1.0, false));
        effect.tag = self.tag;
        effect.position.y = 2.0;
        self.live.push_back(black_box(effect));
        black_box(self.live.pop_front());
    }
}

/// `10 * size` live looping effects of a kind that pauses and catches up
/// off-screen, `size` of them in the view: one update (ns per visible effect).
pub struct EffectsUpdateCulled {
    effects: Effects,
    visible: u64,
}

impl EffectsUpdateCulled {
    /// `size` on screen, `9 * size` off it.
    pub fn new(size: usize) -> Self {
        let total = size * 10;
        let mut effects = Effects::new();
        let fire = effects
            .add_kind(
                EffectKind::new("fire", 8, Duration::from_secs_f64(1.0 / 30.0))
                    .looping()
                    .offscreen(Offscreen::CatchUp)
                    .pool(total, total),
            )
            .expect("valid benchmark kind");
        effects
            .set_view(View::new([0.0, 0.0], [size as f32 - 0.5, 1.0]))
            .expect("a valid view");
        // Interleaved, so on- and off-screen effects share the pool's memory.
        for i in 0..total {
            let x = if i % 10 == 0 { i / 10 } else { size + i } as f32;
            effects
                .spawn(fire, [x, 0.0])
                .expect("room for every effect");
        }
        let mut this = Self {
            effects,
            visible: size as u64,
        };
        this.run(4);
        this
    }
}

impl Workload for EffectsUpdateCulled {
    fn cycle(&mut self) {
        let _ = black_box(self.effects.update(f64::from(DT)));
    }

    fn items_per_cycle(&self) -> u64 {
        self.visible
    }
}

/// Flashes ended per chain cycle.
const CHAIN_BURST: usize = 16;

/// A chain cycle: 16 one-frame flashes spawned and ended in one update, each
/// followed by a smoke puff, and the 16 oldest puffs stopped (`size / 2` puffs
/// live). `by_hand` spawns the puffs from the finished events instead of by the
/// kind's follow-up: the same work, the follow-up's spawn against a plain one.
pub struct EffectsChain {
    effects: Effects,
    flash: KindId,
    smoke: KindId,
    puffs: VecDeque<EffectHandle>,
    done: Vec<Finished>,
    by_hand: bool,
}

impl EffectsChain {
    /// `size` puffs' pool, half live; chained by the kind or `by_hand`.
    pub fn new(size: usize, by_hand: bool) -> Self {
        let mut effects = Effects::new();
        let mut flash = EffectKind::new("flash", 1, Duration::from_secs_f64(f64::from(DT)))
            .pool(CHAIN_BURST, CHAIN_BURST);
        if !by_hand {
            flash = flash.follow_up("smoke");
        }
        let flash = effects.add_kind(flash).expect("valid benchmark kind");
        let smoke = effects
            .add_kind(
                EffectKind::new("smoke", 8, Duration::from_millis(100))
                    .looping()
                    .pool(size, size),
            )
            .expect("valid benchmark kind");
        let mut puffs = VecDeque::with_capacity(size);
        for _ in 0..size / 2 {
            puffs.push_back(effects.spawn(smoke, [0.0, 0.0]).expect("room"));
        }
        let mut this = Self {
            effects,
            flash,
            smoke,
            puffs,
            done: Vec::with_capacity(CHAIN_BURST),
            by_hand,
        };
        this.run(size as u64);
        this
    }
}

impl Workload for EffectsChain {
    fn cycle(&mut self) {
        for i in 0..CHAIN_BURST {
            let _ = self.effects.spawn(self.flash, [i as f32, 2.0]);
        }
        let _ = self.effects.update(f64::from(DT));
        self.effects.take_finished(&mut self.done);
        for done in &self.done {
            let puff = if self.by_hand {
                self.effects.spawn(self.smoke, done.position).ok()
            } else if let FollowUp::Spawned(puff) = done.follow_up {
                Some(puff)
            } else {
                None
            };
            if let Some(puff) = puff {
                self.puffs.push_back(puff);
            }
        }
        for _ in 0..self.done.len() {
            if let Some(oldest) = self.puffs.pop_front() {
                let _ = black_box(self.effects.stop(oldest));
            }
        }
    }

    fn items_per_cycle(&self) -> u64 {
        CHAIN_BURST as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_update_cases_keep_every_effect_live() {
        let mut pooled = EffectsUpdate::new(100);
        let mut naive = NaiveEffectsUpdate::new(100);
        pooled.run(500);
        naive.run(500);
        assert_eq!(pooled.effects.live_count(), 100);
        assert_eq!(
            (pooled.items_per_cycle(), naive.items_per_cycle()),
            (100, 100)
        );
    }

    #[test]
    fn the_culled_update_draws_a_tenth_and_parks_the_rest() {
        let mut culled = EffectsUpdateCulled::new(100);
        culled.run(100);
        assert_eq!(culled.effects.live_count(), 1000);
        let kind = culled.effects.kind("fire").unwrap();
        assert_eq!(culled.effects.stats(kind).unwrap().offscreen, 900);
        assert_eq!(culled.items_per_cycle(), 100);
    }

    #[test]
    fn both_chain_cases_follow_every_flash_with_a_puff() {
        for by_hand in [false, true] {
            let mut chain = EffectsChain::new(64, by_hand);
            chain.run(100);
            assert_eq!(chain.effects.live_count(), 32, "by hand: {by_hand}");
            assert_eq!(chain.done.len(), CHAIN_BURST);
            let stats = chain.effects.stats(chain.smoke).unwrap();
            assert_eq!(stats.spawns, 32 + 16 * (64 + 100), "by hand: {by_hand}");
        }
    }

    #[test]
    fn the_spawn_cases_keep_half_live() {
        let mut pooled = EffectsSpawn::new(64);
        pooled.run(1000);
        assert_eq!(pooled.effects.live_count(), 32);
        let mut naive = NaiveEffectsSpawn::new(64);
        naive.run(1000);
        assert_eq!(naive.live.len(), 32);
    }
}

//! One game frame through the Bevy plugins against the same frame through the
//! plain API: 300 looping emitters that move, a moving listener, 1,000 live
//! (looping) effects, the sound effects' and the effects' update, and the
//! frame's audio rendered offline, in both.

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_pool::{
    AudioOutput, Output, Sfx, SoundEffectsPlugin, SoundEmitter, SoundListener, Vfx, VfxPlugin,
};
use kira::sound::static_sound::StaticSoundData;
use kira::{AudioManager, AudioManagerSettings, Frame};
use pool_audio::{
    OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings, VoiceHandle,
};
use pool_effects::{EffectKind, Effects};

use crate::Workload;

/// Emitters in both frames.
pub(crate) const EMITTERS: usize = 300;
/// Live effects in both frames.
pub(crate) const EFFECTS: usize = 1_000;
pub(crate) const DT: f64 = 1.0 / 60.0;

/// The emitters' sound: half a second of a hum, mono, 48 kHz.
pub(crate) fn hum_samples() -> Vec<f32> {
    (0..24_000).map(|i| (i as f32 * 0.03).sin() * 0.3).collect()
}

fn hum() -> StaticSoundData {
    StaticSoundData {
        sample_rate: 48_000,
        frames: hum_samples().into_iter().map(Frame::from_mono).collect(),
        settings: Default::default(),
        slice: None,
    }
    .loop_region(..)
}

fn sparkle() -> EffectKind {
    EffectKind::new("sparkle", 8, Duration::from_secs_f64(1.0 / 30.0))
        .looping()
        .pool(EFFECTS, EFFECTS)
}

/// Where emitter `i` is at time `t`.
pub(crate) fn place(i: usize, t: f32) -> [f32; 3] {
    let base = (i as f32 - EMITTERS as f32 / 2.0) * 0.7;
    [base + (t + i as f32).sin() * 2.0, (i % 10) as f32, 0.0]
}

/// Which emitter an entity is, for [`place`].
#[derive(Component)]
pub(crate) struct Index(pub(crate) usize);

/// The scene's time, for [`place`].
#[derive(Resource, Default)]
pub(crate) struct Clock(f32);

/// Moves every emitter to its place at the scene's next time.
pub(crate) fn move_emitters(
    mut clock: ResMut<Clock>,
    mut emitters: Query<(&mut Transform, &Index)>,
) {
    clock.0 += DT as f32;
    for (mut transform, index) in &mut emitters {
        transform.translation = Vec3::from(place(index.0, clock.0));
    }
}

/// The frame as a Bevy app runs it: `app.update()`.
pub struct BevyFrame {
    app: App,
}

impl BevyFrame {
    /// The app, its emitters and effects, warmed up.
    ///
    /// # Panics
    /// If the scene cannot be set up (a bug in this case).
    pub fn new() -> Self {
        Self::build(true, false, SoundSettings::default())
    }

    /// The same app without the effects, its sound allowed as many copies as
    /// the voice cap (32): its sound alone, the frame the peers' table sets
    /// beside bevy_seedling's, recording its audio if `record` (for its peak).
    ///
    /// # Panics
    /// If the scene cannot be set up (a bug in this case).
    pub fn sound_only(record: bool) -> Self {
        Self::build(false, record, SoundSettings::default().max_voices(32))
    }

    fn build(effects: bool, record: bool, sound: SoundSettings) -> Self {
        let mut app = App::new();
        app.add_plugins((
            bevy::time::TimePlugin,
            bevy::transform::TransformPlugin,
            SoundEffectsPlugin {
                output: Output::Offline {
                    settings: Default::default(),
                    record,
                },
                ..Default::default()
            },
        ))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            DT,
        )))
        .init_resource::<Clock>()
        .add_systems(Update, move_emitters);
        let hum = app
            .world_mut()
            .resource_mut::<Sfx>()
            .add_sound("hum", hum(), sound)
            .expect("a valid sound");
        if effects {
            app.add_plugins(VfxPlugin);
            let mut fx = app.world_mut().resource_mut::<Vfx>();
            let kind = fx.add_kind(sparkle()).expect("a valid kind");
            for i in 0..EFFECTS {
                fx.spawn(kind, [i as f32, 0.0])
                    .expect("room for every effect");
            }
        }
        for i in 0..EMITTERS {
            app.world_mut().spawn((
                SoundEmitter::new(hum),
                Transform::from_translation(Vec3::from(place(i, 0.0))),
                Index(i),
            ));
        }
        app.world_mut().spawn((SoundListener, Transform::default()));
        for _ in 0..120 {
            app.update();
        }
        Self { app }
    }

    /// The largest sample recorded so far (a frame built to record).
    pub fn recorded_peak(&self) -> f32 {
        self.app
            .world()
            .non_send::<AudioOutput>()
            .recorded_samples()
            .iter()
            .fold(0.0, |peak, s| peak.max(s.abs()))
    }

    /// Real and virtual voices.
    pub fn voices(&self) -> (usize, usize) {
        let stats = self.app.world().resource::<Sfx>().stats();
        (stats.real_voices, stats.virtual_voices)
    }
}

impl Default for BevyFrame {
    fn default() -> Self {
        Self::new()
    }
}

impl Workload for BevyFrame {
    fn cycle(&mut self) {
        self.app.update();
    }
}

/// The same frame written against the plain API.
pub struct PlainFrame {
    manager: AudioManager<OfflineBackend>,
    sfx: SoundEffects,
    effects: Effects,
    voices: Vec<VoiceHandle>,
    scratch: Vec<f32>,
    t: f32,
}

impl PlainFrame {
    /// The manager, the emitters' voices and the effects, warmed up.
    ///
    /// # Panics
    /// If the scene cannot be set up (a bug in this case).
    pub fn new() -> Self {
        let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())
            .expect("the offline backend starts");
        let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())
            .expect("default settings");
        let hum = sfx
            .add_sound("hum", hum(), SoundSettings::default())
            .expect("a valid sound");
        let voices = (0..EMITTERS)
            .map(|i| {
                sfx.play(hum, PlayParams::default().position(place(i, 0.0)))
                    .expect("a voice for every emitter")
            })
            .collect();
        let mut effects = Effects::new();
        let kind = effects.add_kind(sparkle()).expect("a valid kind");
        for i in 0..EFFECTS {
            effects
                .spawn(kind, [i as f32, 0.0])
                .expect("room for every effect");
        }
        let mut frame = Self {
            manager,
            sfx,
            effects,
            voices,
            scratch: Vec::new(),
            t: 0.0,
        };
        for _ in 0..120 {
            frame.cycle();
        }
        frame
    }
}

impl Default for PlainFrame {
    fn default() -> Self {
        Self::new()
    }
}

impl Workload for PlainFrame {
    fn cycle(&mut self) {
        self.t += DT as f32;
        let _ = self.sfx.listener().set_position([0.0; 3]);
        for (i, voice) in self.voices.iter().enumerate() {
            let _ = self.sfx.voice(*voice).set_position(place(i, self.t));
        }
        let _ = self.sfx.update(DT);
        let _ = self.effects.update(DT);
        self.scratch.clear();
        let _ = self
            .manager
            .backend_mut()
            .render_append(DT, &mut self.scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_frames_hold_the_same_scene() {
        let mut bevy = BevyFrame::new();
        let mut plain = PlainFrame::new();
        bevy.cycle();
        plain.cycle();
        let ours = bevy.app.world().resource::<Sfx>().stats();
        let theirs = plain.sfx.stats();
        assert_eq!(
            (ours.real_voices + ours.virtual_voices, ours.real_voices),
            (
                theirs.real_voices + theirs.virtual_voices,
                theirs.real_voices
            )
        );
        assert_eq!(ours.real_voices + ours.virtual_voices, EMITTERS);
        assert_eq!(bevy.app.world().resource::<Vfx>().live_count(), EFFECTS);
        assert_eq!(plain.effects.live_count(), EFFECTS);
    }
}

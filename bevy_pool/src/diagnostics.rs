//! The plugins' numbers as Bevy diagnostics, for a profiler overlay or a log.

use bevy::app::{App, Plugin, PostUpdate};
use bevy::diagnostic::{Diagnostic, DiagnosticPath, Diagnostics, RegisterDiagnostic};
use bevy::ecs::prelude::*;

use crate::audio::{Sfx, SoundSystems};
use crate::effects::{Vfx, VfxSystems};
use crate::emitters::EmitterStats;

/// Registers the sound effects' and the effects' numbers as Bevy diagnostics,
/// measured once a frame after their update: real and virtual voices, plays,
/// stolen voices and refusals (totals so far), the limiter's gain reduction
/// (dB) and live effects. Add it beside [`SoundEffectsPlugin`](crate::SoundEffectsPlugin)
/// and [`VfxPlugin`](crate::VfxPlugin), either or both.
///
/// ```
/// use bevy::diagnostic::DiagnosticsStore;
/// use bevy::prelude::*;
/// use bevy_pool::{PoolDiagnosticsPlugin, SoundEffectsPlugin};
///
/// let mut app = App::new();
/// app.add_plugins((bevy::time::TimePlugin, bevy::transform::TransformPlugin, SoundEffectsPlugin::default(), PoolDiagnosticsPlugin));
/// app.update();
/// let store = app.world().resource::<DiagnosticsStore>();
/// assert_eq!(store.get(&PoolDiagnosticsPlugin::REAL_VOICES).and_then(|d| d.value()), Some(0.0));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct PoolDiagnosticsPlugin;

impl PoolDiagnosticsPlugin {
    /// Real voices now.
    pub const REAL_VOICES: DiagnosticPath = DiagnosticPath::const_new("bevy_pool/real_voices");
    /// Virtual voices now.
    pub const VIRTUAL_VOICES: DiagnosticPath =
        DiagnosticPath::const_new("bevy_pool/virtual_voices");
    /// Plays that started a voice, so far.
    pub const PLAYS: DiagnosticPath = DiagnosticPath::const_new("bevy_pool/plays");
    /// Voices stolen (ended) by a cap or a more audible voice, so far.
    pub const STOLEN_VOICES: DiagnosticPath = DiagnosticPath::const_new("bevy_pool/stolen_voices");
    /// Plays refused, so far, for any reason but a full command queue
    /// (`SoundEffectsStats::refused`; `Sfx::stats()` has them by reason).
    pub const REFUSED_PLAYS: DiagnosticPath = DiagnosticPath::const_new("bevy_pool/refused_plays");
    /// The limiter's gain reduction now, in dB (0 when it does nothing).
    pub const LIMITER_GAIN_REDUCTION_DB: DiagnosticPath =
        DiagnosticPath::const_new("bevy_pool/limiter_gain_reduction_db");
    /// Live effects now.
    pub const LIVE_EFFECTS: DiagnosticPath = DiagnosticPath::const_new("bevy_pool/live_effects");
    /// Emitters whose play is refused and waits for a retry, now.
    pub const WAITING_EMITTERS: DiagnosticPath =
        DiagnosticPath::const_new("bevy_pool/waiting_emitters");
    /// Emitter plays tried again after a refusal, so far.
    pub const EMITTER_RETRIES: DiagnosticPath =
        DiagnosticPath::const_new("bevy_pool/emitter_retries");

    const ALL: [DiagnosticPath; 9] = [
        Self::WAITING_EMITTERS,
        Self::EMITTER_RETRIES,
        Self::REAL_VOICES,
        Self::VIRTUAL_VOICES,
        Self::PLAYS,
        Self::STOLEN_VOICES,
        Self::REFUSED_PLAYS,
        Self::LIMITER_GAIN_REDUCTION_DB,
        Self::LIVE_EFFECTS,
    ];
}

impl Plugin for PoolDiagnosticsPlugin {
    fn build(&self, app: &mut App) {
        for path in Self::ALL {
            app.register_diagnostic(Diagnostic::new(path));
        }
        app.add_systems(
            PostUpdate,
            measure
                .after(SoundSystems::Update)
                .after(VfxSystems::Update),
        );
    }
}

fn measure(
    mut diagnostics: Diagnostics,
    sfx: Option<Res<Sfx>>,
    fx: Option<Res<Vfx>>,
    emitters: Option<Res<EmitterStats>>,
) {
    type P = PoolDiagnosticsPlugin;
    if let Some(emitters) = emitters {
        let (waiting, retries) = (emitters.waiting, emitters.retries);
        diagnostics.add_measurement(&P::WAITING_EMITTERS, || waiting as f64);
        diagnostics.add_measurement(&P::EMITTER_RETRIES, || retries as f64);
    }
    if let Some(sfx) = sfx {
        let stats = sfx.stats();
        diagnostics.add_measurement(&P::REAL_VOICES, || stats.real_voices as f64);
        diagnostics.add_measurement(&P::VIRTUAL_VOICES, || stats.virtual_voices as f64);
        diagnostics.add_measurement(&P::PLAYS, || stats.plays as f64);
        diagnostics.add_measurement(&P::STOLEN_VOICES, || stats.stolen_voices as f64);
        let refused = stats.refused();
        diagnostics.add_measurement(&P::REFUSED_PLAYS, || refused as f64);
        if let Some(limiter) = sfx.limiter() {
            let db = f64::from(limiter.gain_reduction().0);
            diagnostics.add_measurement(&P::LIMITER_GAIN_REDUCTION_DB, || db);
        }
    }
    if let Some(fx) = fx {
        let live = fx.live_count();
        diagnostics.add_measurement(&P::LIVE_EFFECTS, || live as f64);
    }
}

//! Doppler, obstruction and occlusion from components: an emitter's or the
//! listener's [`SoundVelocity`] (without one, or once it is removed, the velocity
//! is derived from its moves at each update), and an emitter's [`SoundObstruction`] and [`SoundOcclusion`]
//! from the game's own ray tests. A component holding a value out of range
//! comes back as a [`PlayRefused`]; the voice keeps what it had.
//!
//! Each component is part of the voice's play: an emitter spawned behind a
//! wall is heard through it from its first sample, and counted so in its
//! audibility and the loudness window. Each follows its changes; removing an
//! obstruction or occlusion clears it.

use bevy::prelude::*;
use pool_audio::{PlayError, PlayParams, VoiceError};

use crate::audio::{PlayRefused, Sfx, SoundListener};
use crate::emitters::SoundEmitter;

/// How fast an emitter or the listener moves, in m/s, for doppler (the
/// emitter's sound needs a [`doppler_scale`](pool_audio::SoundSettings::doppler_scale)).
/// Without it, the velocity is derived from the entity's moves at each update;
/// a game with a physics engine copies the body's velocity here. Removing it
/// goes back to the velocity derived from the moves.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(
    feature = "reflect",
    derive(Reflect),
    reflect(Component, Default, Debug, PartialEq)
)]
pub struct SoundVelocity(pub Vec3);

/// How much is in an emitter's direct path, `0..=1` (Wwise's obstruction),
/// through its sound's obstruction curve. Part of the voice's play: an emitter
/// spawned behind a wall is heard through it from its first sample. It follows
/// its changes; removing it clears it.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(
    feature = "reflect",
    derive(Reflect),
    reflect(Component, Default, Debug, PartialEq)
)]
pub struct SoundObstruction(pub f32);

/// How much is between an emitter and the listener, `0..=1` (Wwise's
/// occlusion), through its sound's occlusion curve; it lowers the voice's
/// audibility, and its place in the loudness window, too. Part of the voice's
/// play from its first sample; it follows its changes; removing it clears it.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(
    feature = "reflect",
    derive(Reflect),
    reflect(Component, Default, Debug, PartialEq)
)]
pub struct SoundOcclusion(pub f32);

/// An emitter's cue components, as its play reads them.
pub(crate) type EmitterCues<'a> = (
    Option<&'a SoundVelocity>,
    Option<&'a SoundObstruction>,
    Option<&'a SoundOcclusion>,
);

/// `params` with an emitter's cues, so that its play is heard with them from
/// its start (its audibility, the loudness window's top); a value that
/// `PlayParams::validate` refuses is left out, for [`emitter_cues`] to report
/// while the voice plays without it.
pub(crate) fn at_play(
    params: PlayParams,
    (velocity, obstruction, occlusion): EmitterCues,
) -> PlayParams {
    let cues = [
        velocity.map(|v| PlayParams::default().velocity(v.0.to_array())),
        obstruction.map(|o| PlayParams::default().obstruction(o.0)),
        occlusion.map(|o| PlayParams::default().occlusion(o.0)),
    ];
    let valid = |cue: &PlayParams| cue.validate().is_ok();
    let [velocity, obstruction, occlusion] = cues.map(|cue| cue.filter(valid));
    PlayParams {
        velocity: velocity.map_or(params.velocity, |cue| cue.velocity),
        obstruction: obstruction.map_or(params.obstruction, |cue| cue.obstruction),
        occlusion: occlusion.map_or(params.occlusion, |cue| cue.occlusion),
        ..params
    }
}

type EmitterCueChanges<'a> = (
    Entity,
    &'a mut SoundEmitter,
    Option<Ref<'a, SoundVelocity>>,
    Option<Ref<'a, SoundObstruction>>,
    Option<Ref<'a, SoundOcclusion>>,
);

/// Emitters with a cue: the others are not visited at all.
type WithCue = Or<(
    With<SoundVelocity>,
    With<SoundObstruction>,
    With<SoundOcclusion>,
)>;

/// Emitters' voices get their cues: all of them when the voice is new, the
/// changed ones otherwise; removed obstruction and occlusion are cleared, a
/// removed velocity is derived from the moves again.
pub(crate) fn emitter_cues(
    mut sfx: ResMut<Sfx>,
    mut queries: ParamSet<(Query<EmitterCueChanges, WithCue>, Query<&SoundEmitter>)>,
    mut cleared: (
        RemovedComponents<SoundVelocity>,
        RemovedComponents<SoundObstruction>,
        RemovedComponents<SoundOcclusion>,
    ),
    mut refused: MessageWriter<PlayRefused>,
) {
    for (entity, mut emitter, velocity, obstruction, occlusion) in &mut queries.p0() {
        // The system's own bookkeeping is not the game's change.
        let emitter = emitter.bypass_change_detection();
        let Some(voice) = emitter.voice() else {
            continue;
        };
        let new = emitter.cued != Some(voice);
        let mut results = [None, None, None];
        if let Some(v) = velocity.filter(|v| new || v.is_changed()) {
            results[0] = Some(sfx.voice(voice).set_velocity(v.0.to_array()));
        }
        if let Some(o) = obstruction.filter(|o| new || o.is_changed()) {
            results[1] = Some(sfx.voice(voice).set_obstruction(o.0));
        }
        if let Some(o) = occlusion.filter(|o| new || o.is_changed()) {
            results[2] = Some(sfx.voice(voice).set_occlusion(o.0));
        }
        report(&mut refused, emitter, entity, results);
        if new {
            emitter.cued = Some(voice);
        }
    }
    // An emitter whose last cue went has none left: found among them all.
    let emitters = queries.p1();
    let (velocities, obstructions, occlusions) = &mut cleared;
    for entity in velocities.read() {
        if let Ok(emitter) = emitters.get(entity)
            && let Some(voice) = emitter.voice()
        {
            let _ = sfx.voice(voice).derive_velocity();
        }
    }
    for entity in obstructions.read() {
        if let Ok(emitter) = emitters.get(entity)
            && let Some(voice) = emitter.voice()
        {
            let _ = sfx.voice(voice).set_obstruction(0.0);
        }
    }
    for entity in occlusions.read() {
        if let Ok(emitter) = emitters.get(entity)
            && let Some(voice) = emitter.voice()
        {
            let _ = sfx.voice(voice).set_occlusion(0.0);
        }
    }
}

/// A value out of range (or a full queue) reaches the game as a message; a
/// voice that ended meanwhile is not the game's error.
fn report(
    refused: &mut MessageWriter<PlayRefused>,
    emitter: &SoundEmitter,
    entity: Entity,
    results: [Option<Result<(), VoiceError>>; 3],
) {
    let error = results
        .into_iter()
        .flatten()
        .find_map(|result| match result {
            Err(VoiceError::InvalidParam(param)) => Some(PlayError::InvalidParam(param)),
            Err(VoiceError::QueueFull) => Some(PlayError::QueueFull),
            _ => None,
        });
    if let Some(error) = error {
        refused.write(PlayRefused {
            sound: emitter.sound,
            entity: Some(entity),
            error,
        });
    }
}

/// The listener's velocity, when it has a [`SoundVelocity`] that changed (the
/// listener of the lowest entity index, as for its position); derived from
/// its moves again once no listener has one.
pub(crate) fn listener_velocity(
    mut sfx: ResMut<Sfx>,
    listeners: Query<(Entity, Ref<SoundVelocity>), With<SoundListener>>,
    mut removed: RemovedComponents<SoundVelocity>,
    all: Query<(), With<SoundListener>>,
) {
    if removed.read().any(|entity| all.contains(entity)) && listeners.is_empty() {
        sfx.listener().derive_velocity();
    }
    let used = listeners.iter().min_by_key(|(entity, _)| entity.index());
    if let Some((_, velocity)) = used
        && velocity.is_changed()
    {
        // A NaN velocity is refused and changes nothing.
        let _ = sfx.listener().set_velocity(velocity.0.to_array());
    }
}

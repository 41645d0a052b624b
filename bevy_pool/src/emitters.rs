//! Emitters: a sound that plays from an entity, follows its `GlobalTransform`,
//! reacts when the game changes it, tries again while it is refused, and
//! stops when the entity goes.

use std::time::Duration;

use bevy::ecs::prelude::*;
use bevy::transform::components::GlobalTransform;
use pool_audio::kira::Tween;
use pool_audio::{PlayError, PlayParams, SoundId, VoiceError, VoiceHandle, linear_fade};

use crate::audio::{PlayRefused, Sfx, SoundWarning, warn};
use crate::cues::{EmitterCues, at_play};

/// A sound that plays from an entity and follows its `GlobalTransform` every
/// frame: an engine, a torch, a waterfall. Its voice starts when the component
/// is added; when the entity is despawned (or the component removed) the voice
/// stops with [`SoundEmitter::fade_out`]. Unless its params name an owner, the
/// entity is its voice's owner (`Entity::to_bits`), so a sound's
/// `max_voices_per_owner` caps it per entity and `stop_owner` stops it.
/// The emitters of one sound share its copies (`max_voices`, 8 by default,
/// and the copy budget that keeps fewer when they would sum too loud): fifty
/// torches of one sound under a voice cap of 32 are at most its copies real,
/// the rest virtual; raise the sound's `max_voices` to hear more of them.
///
/// It reacts: a change of its `params`' volume, playback rate or panning
/// reaches the voice within the frame, over [`CHANGE_FADE`]; a change of its
/// `sound` (or of another parameter) stops the voice with `fade_out` and
/// starts the new one. A play that was refused (a [`PlayRefused`] message says
/// why: a cap, a non-finite transform, a removed sound) is tried again every
/// frame until it plays, unless [`retry`](Self::retry) is off; changing the
/// component tries again at once either way. An emitter whose voice ended (a
/// one-shot played out, a voice stolen or stopped, its sound removed) stays
/// silent, its [`voice`](Self::voice) `None`, until the game changes it.
///
/// With a [`SoundVelocity`](crate::SoundVelocity), an [`SoundObstruction`](crate::SoundObstruction)
/// or an [`SoundOcclusion`](crate::SoundOcclusion) on the entity, its voice plays with
/// them from its start, heard through them as a play given them is, and
/// follows their changes (see `cues.rs`); without a velocity, doppler follows
/// its moves.
#[derive(Component, Debug, Clone)]
pub struct SoundEmitter {
    /// The sound to play.
    pub sound: SoundId,
    /// How to play it; its position is the entity's.
    pub params: PlayParams,
    /// The fade when the emitter goes away or changes its sound (default 50 ms,
    /// linear). One whose easing kira cannot compute stops the voice with
    /// kira's default 10 ms fade and sends a
    /// [`SoundWarning::BadFadeOut`](crate::SoundWarning::BadFadeOut).
    pub fade_out: Tween,
    /// Whether a refused play is tried again each frame (default `true`).
    pub retry: bool,
    voice: Option<VoiceHandle>,
    /// The sound and parameters the voice was started or last updated with.
    applied: Option<(SoundId, PlayParams)>,
    /// Why the last play was refused, while it waits for a retry or a change.
    refused: Option<PlayError>,
    /// A non-finite transform was warned of (until the transform is finite).
    warned: bool,
    /// The voice its cues were last given to (see `cues.rs`).
    pub(crate) cued: Option<VoiceHandle>,
}

/// How long a change of an emitter's volume, rate or panning takes to reach its
/// voice: short enough to follow a game's value frame by frame, long enough
/// not to click.
pub const CHANGE_FADE: Duration = Duration::from_millis(20);

impl SoundEmitter {
    /// Plays `sound` from the entity, with a 50 ms fade when it goes away.
    pub fn new(sound: SoundId) -> Self {
        Self {
            sound,
            params: PlayParams::default(),
            fade_out: linear_fade(Duration::from_millis(50)),
            retry: true,
            voice: None,
            applied: None,
            refused: None,
            warned: false,
            cued: None,
        }
    }

    /// Plays with `params` (volume, rate, panning, ...).
    pub fn params(mut self, params: PlayParams) -> Self {
        self.params = params;
        self
    }

    /// Fades out with `fade` when it goes away or changes its sound.
    pub fn fade_out(mut self, fade: Tween) -> Self {
        self.fade_out = fade;
        self
    }

    /// Whether a refused play is tried again each frame.
    pub fn retry(mut self, retry: bool) -> Self {
        self.retry = retry;
        self
    }

    /// The emitter's voice once it started (`None` while its play is refused).
    pub fn voice(&self) -> Option<VoiceHandle> {
        self.voice
    }

    /// Why its play is refused, while it waits for a retry or a change.
    pub fn refused(&self) -> Option<PlayError> {
        self.refused
    }
}

/// Emitters whose play is refused and waits, and how many plays were tried
/// again, for [`PoolDiagnosticsPlugin`](crate::PoolDiagnosticsPlugin).
#[derive(Resource, Debug, Clone, Copy, Default)]
pub(crate) struct EmitterStats {
    pub(crate) waiting: usize,
    pub(crate) retries: u64,
}

fn position(transform: &GlobalTransform) -> [f32; 3] {
    let t = transform.translation();
    [t.x, t.y, t.z]
}

/// Starts `emitter`'s voice (of `entity`, at `transform`): its voice and what
/// it applied, or the emitter waiting, with a refusal message when the reason
/// is new (a retry refused for the same reason says nothing again).
fn start(
    sfx: &mut Sfx,
    (entity, cues): (Entity, EmitterCues),
    emitter: &mut SoundEmitter,
    transform: &GlobalTransform,
    refused: &mut MessageWriter<PlayRefused>,
) {
    let mut params = at_play(emitter.params.position(position(transform)), cues);
    if params.owner.is_none() {
        params = params.owner(entity.to_bits());
    }
    match sfx.play(emitter.sound, params) {
        Ok(voice) => {
            emitter.voice = Some(voice);
            emitter.applied = Some((emitter.sound, emitter.params));
            emitter.refused = None;
        }
        Err(error) => {
            emitter.voice = None;
            emitter.applied = None;
            if !emitter
                .refused
                .is_some_and(|before| same_reason(before, error))
            {
                refused.write(PlayRefused {
                    sound: emitter.sound,
                    entity: Some(entity),
                    error,
                });
            }
            emitter.refused = Some(error);
        }
    }
}

/// Stops an emitter's voice with its `fade_out`, or with kira's default fade
/// if that one's easing is refused; `true` then (the caller says so). A stale
/// voice ended already.
fn stop_voice(sfx: &mut Sfx, fade: Tween, voice: VoiceHandle) -> bool {
    let refused = matches!(
        sfx.voice(voice).stop(fade),
        Err(VoiceError::InvalidParam(_))
    );
    if refused {
        let _ = sfx.voice(voice).stop(Tween::default());
    }
    refused
}

/// `true` if two refusals give the same reason (a NaN position is not equal
/// to itself, but it is the same reason).
fn same_reason(a: PlayError, b: PlayError) -> bool {
    use std::mem::discriminant;
    match (a, b) {
        (PlayError::InvalidParam(a), PlayError::InvalidParam(b)) => {
            discriminant(&a) == discriminant(&b)
        }
        (a, b) => discriminant(&a) == discriminant(&b),
    }
}

/// New emitters start; refused ones try again (each frame with `retry`, at
/// once when changed); changed ones bring their voice up to date.
pub(crate) fn start_and_react(
    mut sfx: ResMut<Sfx>,
    mut emitters: Query<(Entity, &mut SoundEmitter, &GlobalTransform, EmitterCues)>,
    mut refused: MessageWriter<PlayRefused>,
    mut warnings: MessageWriter<SoundWarning>,
    mut stats: ResMut<EmitterStats>,
) {
    let mut waiting = 0;
    for (entity, mut emitter, transform, cues) in &mut emitters {
        let (added, changed) = (emitter.is_added(), emitter.is_changed());
        // The systems' own writes below do not count as the game's changes.
        let emitter = emitter.bypass_change_detection();
        if let Some(voice) = emitter.voice
            && !sfx.state(voice).is_live()
        {
            // Its voice ended (played out, stolen, stopped, its sound
            // removed): silent until the game changes the emitter.
            (emitter.voice, emitter.applied) = (None, None);
        }
        if emitter.applied.is_none() {
            let waited = emitter.refused.is_some();
            // An emitter whose voice ended is not refused: it waits for a change.
            if added || changed || (waited && emitter.retry) {
                let tried = waited && !added;
                stats.retries += u64::from(tried);
                start(&mut sfx, (entity, cues), emitter, transform, &mut refused);
            }
        } else if changed && !added {
            let writers = (&mut refused, &mut warnings);
            react(&mut sfx, (entity, cues), emitter, transform, writers);
        }
        waiting += usize::from(emitter.refused.is_some());
    }
    stats.waiting = waiting;
}

/// A changed emitter with a voice: its volume, rate and panning reach the
/// voice over [`CHANGE_FADE`]; another sound or any other parameter restarts
/// it (the old voice fading out over `fade_out`).
fn react(
    sfx: &mut Sfx,
    (entity, cues): (Entity, EmitterCues),
    emitter: &mut SoundEmitter,
    transform: &GlobalTransform,
    (refused, warnings): (
        &mut MessageWriter<PlayRefused>,
        &mut MessageWriter<SoundWarning>,
    ),
) {
    let (Some((sound, before)), Some(voice)) = (emitter.applied, emitter.voice) else {
        return;
    };
    let now = emitter.params;
    let tunable = PlayParams {
        volume: before.volume,
        playback_rate: before.playback_rate,
        panning: before.panning,
        position: before.position,
        ..now
    };
    if sound != emitter.sound || tunable != before {
        if stop_voice(sfx, emitter.fade_out, voice) {
            warn(warnings, SoundWarning::BadFadeOut(entity));
        }
        start(sfx, (entity, cues), emitter, transform, refused);
        return;
    }
    let fade = linear_fade(CHANGE_FADE);
    // A voice that ended (a one-shot emitter) is stale: there is nothing to
    // tune, and nothing to start again.
    let tuned = [
        (now.volume != before.volume).then(|| sfx.voice(voice).set_volume(now.volume, fade)),
        (now.playback_rate != before.playback_rate)
            .then(|| sfx.voice(voice).set_playback_rate(now.playback_rate, fade)),
        (now.panning != before.panning).then(|| sfx.voice(voice).set_panning(now.panning, fade)),
    ];
    // A value out of range reaches the game as a message, not silence.
    let error = tuned.into_iter().flatten().find_map(|result| match result {
        Err(VoiceError::InvalidParam(param)) => Some(PlayError::InvalidParam(param)),
        Err(VoiceError::QueueFull) => Some(PlayError::QueueFull),
        _ => None,
    });
    if let Some(error) = error {
        refused.write(PlayRefused {
            sound,
            entity: Some(entity),
            error,
        });
    }
    emitter.applied = Some((sound, now));
}

/// Voices follow their emitters; a non-finite transform is warned of once.
pub(crate) fn follow_emitters(
    mut sfx: ResMut<Sfx>,
    mut emitters: Query<(Entity, &mut SoundEmitter, &GlobalTransform), Changed<GlobalTransform>>,
    mut warnings: MessageWriter<SoundWarning>,
) {
    for (entity, mut emitter, transform) in &mut emitters {
        let emitter = emitter.bypass_change_detection();
        let at = position(transform);
        let finite = at.iter().all(|c| c.is_finite());
        if !finite && !emitter.warned {
            warn(&mut warnings, SoundWarning::NonFiniteEmitter(entity));
        }
        emitter.warned = !finite;
        if let Some(voice) = emitter.voice
            && finite
        {
            // A voice that ended (a one-shot emitter) is forgotten.
            let _ = sfx.voice(voice).set_position(at);
        }
    }
}

/// An emitter that goes away (its entity despawned, the component removed, or
/// replaced by another inserted over it) stops its voice with its `fade_out`:
/// an observer, run before the old value goes (it can still read it),
/// whichever system or command does it. A replacing emitter starts its own.
pub(crate) fn stop_gone_emitter(
    gone: On<Discard, SoundEmitter>,
    emitters: Query<&SoundEmitter>,
    sfx: Option<ResMut<Sfx>>,
    warnings: Option<MessageWriter<SoundWarning>>,
) {
    let (Ok(emitter), Some(mut sfx)) = (emitters.get(gone.entity), sfx) else {
        return;
    };
    if let Some(voice) = emitter.voice {
        // A voice that ended already is stale: nothing to stop.
        if stop_voice(&mut sfx, emitter.fade_out, voice)
            && let Some(mut warnings) = warnings
        {
            warn(&mut warnings, SoundWarning::BadFadeOut(gone.entity));
        }
    }
}

//! The mix in Bevy: ducks and snapshots are [`Sfx`](crate::Sfx)'s own (add
//! them at load time, `ResMut<Sfx>`); a system applies and releases snapshots
//! from [`ApplySnapshot`] and [`ReleaseSnapshot`] messages, and a refusal comes
//! back as a [`MixRefused`] message. The plugin hands every music track's mix
//! gain to the sound effects, so ducks and snapshots can name `"music"` and
//! `"ambience"`.

use bevy::prelude::*;
use pool_audio::kira::Tween;
use pool_audio::{mix::MixError, mix::SnapshotId};

use crate::Sfx;

/// Applies a snapshot at an intensity (`0..=1`), every target moving with
/// the tween; again with another intensity, moves it there.
#[derive(Message, Debug, Clone, Copy)]
pub struct ApplySnapshot {
    /// The snapshot ([`Mix::snapshot`](pool_audio::mix::Mix::snapshot) resolves a name once).
    pub snapshot: SnapshotId,
    /// How much of it, `0..=1`.
    pub intensity: f32,
    /// How its targets move.
    pub tween: Tween,
}

/// Releases a snapshot: its targets move back with the tween.
#[derive(Message, Debug, Clone, Copy)]
pub struct ReleaseSnapshot {
    /// The snapshot.
    pub snapshot: SnapshotId,
    /// How its targets move back.
    pub tween: Tween,
}

/// An [`ApplySnapshot`] or [`ReleaseSnapshot`] refused: nothing changed.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct MixRefused {
    /// The snapshot named.
    pub snapshot: SnapshotId,
    /// Why.
    pub error: MixError,
}

/// Applies, then releases: of an apply and a release of one snapshot in the
/// same frame, the release wins.
pub(crate) fn mix_messages(
    mut sfx: ResMut<Sfx>,
    mut applies: MessageReader<ApplySnapshot>,
    mut releases: MessageReader<ReleaseSnapshot>,
    mut refused: MessageWriter<MixRefused>,
) {
    for apply in applies.read() {
        if let Err(error) =
            sfx.mix_mut()
                .apply_snapshot(apply.snapshot, apply.intensity, apply.tween)
        {
            refused.write(MixRefused {
                snapshot: apply.snapshot,
                error,
            });
        }
    }
    for release in releases.read() {
        if let Err(error) = sfx
            .mix_mut()
            .release_snapshot(release.snapshot, release.tween)
        {
            refused.write(MixRefused {
                snapshot: release.snapshot,
                error,
            });
        }
    }
}

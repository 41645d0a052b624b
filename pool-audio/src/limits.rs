//! The limits of the manager's settings (voices, fades, margins, groups),
//! named once for the checks, the errors and the docs. A sound's own limits sit
//! beside what they limit: `MAX_VOICES_PER_SOUND` with the copy volumes,
//! `MAX_PLAYBACK_RATE` with the play parameters, `MAX_RETRIGGER` here.

use std::time::Duration;

/// The largest voice cap,
/// [`SoundEffectsSettings::voice_cap`](crate::SoundEffectsSettings::voice_cap)
/// (and a group's [`GroupSettings::max_voices`](crate::GroupSettings::max_voices)).
pub const MAX_VOICE_CAP: usize = 4096;
/// The most virtual voices,
/// [`SoundEffectsSettings::virtual_voices`](crate::SoundEffectsSettings::virtual_voices).
pub const MAX_VIRTUAL_VOICES: usize = 65_536;
/// The largest hysteresis,
/// [`SoundEffectsSettings::virtual_margin_db`](crate::SoundEffectsSettings::virtual_margin_db).
pub const MAX_VIRTUAL_MARGIN_DB: f64 = 24.0;
/// The shortest
/// [`SoundEffectsSettings::steal_fade`](crate::SoundEffectsSettings::steal_fade):
/// a shorter fade clicks.
pub const MIN_STEAL_FADE: Duration = Duration::from_millis(1);
/// The longest
/// [`SoundEffectsSettings::steal_fade`](crate::SoundEffectsSettings::steal_fade).
pub const MAX_STEAL_FADE: Duration = Duration::from_secs(1);
/// The longest retrigger interval,
/// [`SoundSettings::min_retrigger`](crate::SoundSettings::min_retrigger), in
/// seconds: an hour (a longer one is a mistake).
pub const MAX_RETRIGGER: f64 = 3600.0;
/// The most recordings one sound holds ([`Recordings`](crate::Recordings)).
pub const MAX_RECORDINGS: usize = 64;
/// The widest pitch variation either way, in semitones
/// ([`SoundSettings::pitch_semitones`](crate::SoundSettings::pitch_semitones)):
/// four octaves, the playback rates a play may ask for.
pub const MAX_PITCH_SEMITONES: f64 = 48.0;
/// The most voice groups one manager holds.
pub const MAX_GROUPS: usize = 256;

// Every voice record of the largest manager fits in one pool.
const _: () = assert!(MAX_VOICE_CAP + MAX_VIRTUAL_VOICES <= pool_core::MAX_OBJECTS_LIMIT);

//! The limits of the manager's settings, a sound's and a play's (voices,
//! fades, margins, groups, rates), named once for the checks, the errors and
//! the docs. The mix's, the music's and the spatial cues' limits sit in their
//! modules (`mix`, `music`, `spatial`).

use std::time::Duration;

use kira::Decibels;

/// The largest voice cap,
/// [`SoundEffectsSettings::voice_cap`](crate::SoundEffectsSettings::voice_cap)
/// (and a group's [`GroupSettings::max_voices`](crate::GroupSettings::max_voices)).
pub const MAX_VOICE_CAP: usize = 4096;
/// The most virtual voices,
/// [`SoundEffectsSettings::virtual_voices`](crate::SoundEffectsSettings::virtual_voices).
pub const MAX_VIRTUAL_VOICES: usize = 65_536;
/// The largest hysteresis,
/// [`SoundEffectsSettings::virtual_margin`](crate::SoundEffectsSettings::virtual_margin).
pub const MAX_VIRTUAL_MARGIN: Decibels = Decibels(24.0);
/// The shortest
/// [`SoundEffectsSettings::steal_fade`](crate::SoundEffectsSettings::steal_fade):
/// a shorter fade clicks.
pub const MIN_STEAL_FADE: Duration = Duration::from_millis(1);
/// The longest
/// [`SoundEffectsSettings::steal_fade`](crate::SoundEffectsSettings::steal_fade).
pub const MAX_STEAL_FADE: Duration = Duration::from_secs(1);
/// The longest retrigger interval,
/// [`SoundSettings::min_retrigger`](crate::SoundSettings::min_retrigger): an
/// hour (a longer one is a mistake).
pub const MAX_RETRIGGER: Duration = Duration::from_secs(3600);

/// The longest delay a play may start after
/// ([`PlayParams::start_time`](crate::PlayParams::start_time)): an hour.
pub const MAX_START_DELAY: Duration = Duration::from_secs(3600);
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

/// The slowest playback rate a play may ask for: 1/16, four octaves down.
pub const MIN_PLAYBACK_RATE: f64 = 1.0 / 16.0;

/// The fastest playback rate a play may ask for: 16, four octaves up. kira's
/// resampler reads this many source frames per output frame (times the sound's
/// sample rate over the output's): far above, rendering falls behind real time.
/// The worst case allowed, 64 voices of 192 kHz sounds at rate 16, rendered one
/// second of 48 kHz audio in one second on the 2-core machine this crate is
/// measured on: about real time, for one audio thread.
pub const MAX_PLAYBACK_RATE: f64 = 16.0;

/// The most copies of one sound that may play at once (the copy slots of a sound
/// live in a fixed-size array).
pub const MAX_VOICES_PER_SOUND: usize = 64;

/// The highest sample rate a sound may have. kira's resampler reads
/// `sample rate x playback rate / output rate` frames per output frame; with this
/// and the highest playback rate (16) that stays at most 64 at a 48 kHz output.
pub const MAX_SOUND_SAMPLE_RATE: u32 = 192_000;

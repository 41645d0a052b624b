//! The limits every setting and count is checked against, in one place.

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
/// The most voice groups one manager holds.
pub const MAX_GROUPS: usize = 256;

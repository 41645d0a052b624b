//! Sound-effect voices on [kira](https://docs.rs/kira) that never clip and never
//! drop the wrong sound. **Work in progress:** this session built the attenuation
//! solver, the offline backend with its pre-clamp meter, and the loaders; the
//! manager, voice stealing and the `bomb` demo are next.
//!
//! # Why
//! When 100 enemies explode in the same frame, a game plays the same explosion 100
//! times at once. The in-phase copies add up sample by sample, the mix peaks far
//! above full scale, and kira's output clamp turns the explosion into a harsh
//! square wave (source 003). The fix this crate builds on: copy `i` of a sound plays
//! at `v * p^i`, with `p` solved so that every stack of copies sums to the headroom
//! ([`CopyVolumes`]); and everything is tested offline, with the mix metered before
//! kira's clamp ([`OfflineBackend`], [`MeterBuilder`]), on machines without a sound
//! card.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod attenuation;
mod error;
mod loader;
mod meter;
mod offline;
mod params;
mod passes;
mod settings;
mod sound_effects;
mod voice;

pub use attenuation::{AttenuationError, CopyVolumes, MAX_VOICES_PER_SOUND};
pub use error::{PlayError, StaleVoice};
pub use loader::{FileLoader, LoadError, MemoryLoader, SoundLoader};
pub use meter::{MeterBuilder, MeterHandle};
pub use offline::{OfflineBackend, OfflineError, OfflineSettings, Rendered};
pub use params::PlayParams;
pub use settings::{SettingsError, SoundEffectsSettings, SoundSettings, Stealing, WhenFull};
pub use sound_effects::{AddSoundError, AudioStats, InvalidTime, SetupError, SoundEffects};
pub use voice::{SoundId, VoiceHandle};

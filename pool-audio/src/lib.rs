//! Sound-effect voices on [kira](https://docs.rs/kira) that never clip and never
//! drop the wrong sound.
//!
//! # Why
//! When 100 enemies explode in the same frame, a game plays the same explosion 100
//! times at once. The in-phase copies add up sample by sample: in kira the mix peaks
//! at 100x full scale before the output clamp, and 99.5% of the samples come out
//! clipped, a square wave instead of an explosion (source 003; the `bomb` example
//! measures it). A kira track also refuses its 129th sound, so the newest sound, the
//! one the player should hear, is the one dropped.
//!
//! # How
//! - Per sound, at most `max_voices` copies play. Copy `i` plays at `v * p^i`, with
//!   `p` solved by Newton's method so that all copies together reach exactly the
//!   headroom (default -1 dBFS): any stack of copies stays below full scale
//!   ([`CopyVolumes`]). A new copy takes the lowest free copy index, the loudest
//!   free volume. Copies below the audibility floor (default -60 dB) are not started.
//! - When a sound's copies are all playing, its oldest copy is recycled (faded out)
//!   or the play is refused ([`WhenFull`]). A copy started in the same frame is
//!   simply taken over: nothing of it has been heard, so 200 plays in one frame ask
//!   kira for 10 sounds, not 200.
//! - A global voice cap (default 64) steals by [`Stealing`] policy (oldest,
//!   quietest, furthest, lowest priority, or refuse), fading the stolen voice out in
//!   10 ms. Voices are `pool_core` pooled objects behind generational
//!   [`VoiceHandle`]s, and stealing is a `pool_core` exhaustion policy.
//! - kira's own limit never fires: the sound-effects track holds twice the cap, and
//!   a sound stays counted until kira has freed its slot (one processing pass after
//!   it stops, observed through a counter on the track).
//! - Positioned sounds play through emitters: kira spatial sub-tracks created up
//!   front (source 000's audio sources), heard from a listener the manager owns,
//!   with a spatial blend per play like Unity's. An emitter is reused once kira has
//!   let go of its previous sound.
//! - Everything runs offline: [`OfflineBackend`] renders the mix into memory and WAV
//!   files, and [`MeterBuilder`] meters the mix before kira's silent clamp.
//!
//! ```
//! use kira::{AudioManager, AudioManagerSettings};
//! use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
//! # let boom = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame { left: 0.5, right: 0.5 }; 4800].into(), settings: Default::default(), slice: None };
//!
//! // The game's own manager (`AudioManager::<DefaultBackend>` with the `device`
//! // feature); music and other tracks keep working beside the sound effects.
//! let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
//! let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
//! let explosion = sfx.add_sound("explosion", boom, SoundSettings::default().max_voices(10).first_volume(0.2))?;
//!
//! // In the game loop:
//! let voice = sfx.play(explosion, PlayParams::default().playback_rate(1.05))?;
//! sfx.update(1.0 / 60.0)?; // once per frame: ended voices go back to the pool
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Real playback
//! The default build needs no audio device and no system library. The `device`
//! feature turns on kira's cpal backend (`kira::DefaultBackend`); on Linux it needs
//! the ALSA headers (`libasound2-dev` on Debian and Ubuntu).
//!
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod attenuation;
mod clock;
mod copies;
mod emitters;
mod error;
mod limiter;
mod loader;
mod meter;
mod offline;
mod params;
mod passes;
mod peak;
mod settings;
mod sound_effects;
mod sound_error;
mod stats;
mod voice;

pub use attenuation::{AttenuationError, CopyVolumes, MAX_VOICES_PER_SOUND};
pub use error::{AddSoundError, InvalidTime, ParamError, PlayError, SetupError, VoiceError};
pub use limiter::{LimiterBuilder, LimiterError, LimiterHandle, LimiterSettings};
pub use loader::{FileLoader, LoadError, MemoryLoader, SoundLoader};
pub use meter::{MeterBuilder, MeterHandle};
pub use offline::{
    MAX_OFFLINE_SAMPLE_RATE, OfflineBackend, OfflineError, OfflineSettings, Rendered,
};
pub use params::{MAX_PLAYBACK_RATE, MIN_PLAYBACK_RATE, PlayParams};
pub use peak::SoundPeak;
pub use settings::{SettingsError, SoundEffectsSettings, SoundSettings, Stealing, WhenFull};
pub use sound_effects::SoundEffects;
pub use sound_error::{MAX_SOUND_SAMPLE_RATE, SoundError};
pub use stats::AudioStats;
pub use voice::{SoundId, VoiceHandle};

//! Sound-effect voices on [kira](https://docs.rs/kira) that never clip and never
//! drop the wrong sound.
//!
//! # Why
//! When 100 enemies explode in the same frame, a game plays the same explosion 100
//! times at once. The in-phase copies add up sample by sample: in kira the mix peaks
//! at 100x full scale before the output clamp, and 99.5% of the samples come out
//! clipped, a square wave instead of an explosion (the `bomb` example measures
//! it). A kira track also refuses its 129th sound, so the newest sound, the one the
//! player should hear, is the one dropped. And a real game goes further than one
//! sound in the middle: it pans, pitches, decodes lossy files, plays continuously
//! and plays many different sounds at once.
//!
//! # How: the mix chain
//! 1. **Copy attenuation, per sound.** At most `max_voices` copies of a sound play.
//!    Copy `i` plays at `v * p^i`, `p` solved by Newton's method so that all copies
//!    together reach the headroom (default -1 dBFS) *at the sound's measured peak*:
//!    when a sound is added, [`SoundPeak`] measures the largest value kira can
//!    output from it, samples and the overshoot of kira's cubic resampling (up to
//!    1.25x, at any playback rate or sample rate), and the budget is `headroom /
//!    peak` ([`CopyVolumes`]). Each play is lowered by kira's pan-law gain on its
//!    louder channel (up to sqrt 2 when panned hard), so a panned copy stays inside
//!    its budget too; kira's spatialization never adds gain. A new copy takes the
//!    lowest free copy index; copies below the audibility floor (default -60 dB)
//!    are not started.
//! 2. **Recycling hands an index over.** When a sound's copies are all playing, its
//!    oldest copy fades out over the steal fade (10 ms) and the new copy starts at
//!    that index once it has faded, so the two never sum above the index's budget
//!    however many recycles a frame brings; or the play is refused ([`WhenFull`]).
//!    A copy started in the same frame is simply taken over: nothing of it has been
//!    heard, so 200 plays in one frame ask kira for 10 sounds, not 200.
//! 3. **A voice cap** (default 64, and per [group](GroupSettings)) steals by
//!    [`Stealing`] policy (oldest, quietest, furthest, lowest priority, or refuse),
//!    fading the stolen voice out. Voices, real and virtual, are `pool_core` pooled
//!    objects behind generational [`VoiceHandle`]s; when the virtual voices are all
//!    taken, a `pool_core` exhaustion policy gives up the least audible one.
//! 4. **A mix ceiling**: a look-ahead peak limiter ([`LimiterBuilder`]) last on the
//!    sound-effects track, so several sounds at once never exceed the ceiling
//!    (default -1 dBFS) either. In a storm of one sound it does nothing: the
//!    attenuation already holds the stack under it.
//! 5. **A meter** ([`MeterBuilder`]), last on the main track, sees the mix before
//!    kira's silent clamp: the tests and examples measure what they claim with it.
//!
//! kira's own limit never fires: the sound-effects track holds twice the cap, and a
//! sound stays counted until kira has freed its slot (one processing pass after it
//! stops, observed through a counter on the track).
//!
//! Positioned voices are spatialized per voice, as FMOD and Wwise do it: each is a
//! plain kira sound on the sound-effects track whose volume and panning follow a
//! listener the manager owns ([`SoundEffects::set_listener`]). The distance curve
//! and the ears are kira's own spatial track's (a test compares them channel by
//! channel), with a spatial blend per play like Unity's (0 plays the sound as if
//! at the listener) and the play's own panning on top. A positioned voice costs
//! the mix what an unpositioned one does; a kira spatial track per voice cost
//! about four times as much.
//!
//! # More sounds than voices: virtual voices
//! A level with 300 torches cannot mix 300 voices, and a looping fire that loses
//! its voice should not be gone for good. A sound set to
//! [`Virtualization::Virtualize`] keeps every voice it cannot make real (cap
//! reached, under the audibility floor, stolen) as a *virtual* voice: a record in
//! a `pool_core` pool (at most [`SoundEffectsSettings::virtual_voices`], default
//! 1024) with its handle, parameters, position and playhead, advanced by each
//! update's time step times its playback rate, and no kira sound behind it. A
//! virtual one-shot ends when its time is up; a loop wraps around its loop region.
//! Each [`update`](SoundEffects::update) ranks every voice by priority, then
//! audibility (its sound's first-copy volume times its play volume times kira's
//! distance curve: 0 dB within 1 m, linear in dB down to silence at 100 m), and
//! the most audible virtual voices take the places of the least audible real ones
//! when they are louder by a margin (3 dB by default, so voices near the edge do not
//! flap): the real one fades out and goes virtual, the virtual one starts at its
//! playhead ([`Resume::FromElapsed`]) or its start ([`Resume::FromStart`]) with a
//! short fade-in. Voice groups ([`GroupSettings`]) cap their own real voices inside
//! the global cap, with their own stealing; a protected group is never stolen from
//! by another. [`SoundEffects::play_detailed`] says whether a play is real or
//! virtual and which voice it displaced; [`SoundEffects::state`] tells a voice's
//! state later.
//!
//! | here | FMOD | Wwise | Unreal |
//! |---|---|---|---|
//! | [`Virtualization::Virtualize`] | virtual voice | virtual voice behaviour "send to virtual voice" | virtualization mode "play when silent" |
//! | [`Virtualization::Kill`] | (a stolen voice stops) | "kill voice" | virtualization disabled |
//! | [`Resume::FromElapsed`] / [`Resume::FromStart`] | (virtual voices keep their position) | "play from elapsed time" / "play from beginning" | "play when silent" / "restart" |
//! | `voice_cap` | max software channels / real channels | max number of voices (physical voices) | max channels |
//! | [`GroupSettings`] `max_voices` + `stealing` | event max instances + stealing | playback limit + "when limit is reached" | sound concurrency max count + resolution rule |
//! | [`GroupSettings::protected`] | (priority) | (priority) | (priority) |
//! | `audibility_floor_db` | vol0 virtual level | volume threshold | (silence) |
//! | `virtual_margin_db` | (none) | (none) | (none) |
//! | `min_retrigger` + `retrigger_radius` | event cooldown (no radius) | (none) | concurrency retrigger time (no radius) |
//!
//! Costs, measured by the `report`: one update with 1,000 virtual and 32 real
//! voices ranks and advances every voice without allocating; a virtual voice adds
//! nothing to the mix (300 positioned looping voices of which 32 are real render
//! in the time of the same 32 alone, and in about the time of 32 unpositioned
//! voices).
//!
//! # Nothing a game passes in can break the mix
//! Every number is checked where it enters and refused with a typed error saying
//! which value was wrong: play parameters ([`ParamError`]; playback rates within
//! [`MIN_PLAYBACK_RATE`]`..=`[`MAX_PLAYBACK_RATE`]), volumes, positions, the
//! listener, every setting ([`SettingsError`]), sound data kira would choke on (a
//! sample rate of 0, a slice outside the frames, NaN samples: [`SoundError`]),
//! render lengths ([`OfflineError`]). Ids and handles know the manager that issued
//! them. No NaN or out-of-range value reaches kira's audio thread.
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
//! let voice = sfx.play(explosion, PlayParams::default().playback_rate(1.05).panning(-0.5))?;
//! assert!(sfx.contains(voice));
//! sfx.update(1.0 / 60.0)?; // once per frame: ended voices go back to the pool
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Offline and on a device
//! Everything runs offline: [`OfflineBackend`] renders the mix into memory and WAV
//! files at any sample rate, so the whole crate is tested with no sound card. The
//! default build needs no audio device and no system library. The `device` feature
//! turns on kira's cpal backend (`kira::DefaultBackend`); on Linux it needs the
//! ALSA headers (`libasound2-dev` on Debian and Ubuntu).
//!
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod attenuation;
mod audibility;
mod bank;
mod clock;
mod sound;

mod error;
mod groups;
mod level;
mod limiter;
mod loader;
mod meter;
mod offline;
mod params;
mod peak;
mod playhead;
mod settings;
mod sound_effects;
mod sound_error;
mod spatial;
mod stats;
mod voice;

pub use attenuation::{AttenuationError, CopyVolumes, MAX_VOICES_PER_SOUND};
pub use error::{AddGroupError, AddSoundError, PlayError, SetupError, VoiceError};
pub use groups::{GroupId, GroupSettings, GroupStats};
/// kira, whose types ([`kira::Tween`], [`kira::AudioManager`], sound data) this
/// crate's signatures take: the version this crate is built against.
pub use kira;
pub use limiter::{LimiterBuilder, LimiterError, LimiterHandle, LimiterSettings};
pub use loader::{FileLoader, LoadError, MemoryLoader, SoundLoader};
pub use meter::{MeterBuilder, MeterHandle};
/// The vector types positions are given in (`impl Into<mint::Vector3<f32>>`).
pub use mint;
pub use offline::{
    MAX_OFFLINE_SAMPLE_RATE, OfflineBackend, OfflineError, OfflineSettings, Rendered,
};
pub use params::{MAX_PLAYBACK_RATE, MIN_PLAYBACK_RATE, ParamError, PlayParams};
pub use peak::SoundPeak;
/// The workspace's shared errors, from `pool_core`: a stale handle (inside
/// [`VoiceError::Stale`]) and a bad time step (from [`SoundEffects::update`]).
pub use pool_core::{StaleHandle, TimeError};
pub use settings::{
    Resume, SettingsError, SoundEffectsSettings, SoundSettings, Stealing, Virtualization, WhenFull,
};
pub use sound_effects::SoundEffects;
pub use sound_error::{MAX_SOUND_SAMPLE_RATE, SoundError};
pub use stats::AudioStats;
pub use voice::{Played, SoundId, VoiceHandle, VoiceState};

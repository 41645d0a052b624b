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
//! This crate gives a kira game what FMOD and Wwise give theirs: a fixed set of
//! voices inside the mixer, created once and reused (no allocation per play, every
//! start in the next audio block), per-sound copy limits whose copies share a
//! budget so a stack stays under full scale, a voice cap with stealing, virtual
//! voices that come back where they would be, and a limiter as the ceiling.
//!
//! ```
//! use pool_audio::kira::{AudioManager, AudioManagerSettings};
//! use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
//! use pool_audio::loader::FileLoader;
//! # const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets");
//!
//! // The game's own manager (`AudioManager::<DefaultBackend>` with the `device`
//! // feature); music and other tracks keep working beside the sound effects.
//! let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
//! let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
//! // The game's assets folder; explosion.ogg is stereo, 44.1 kHz, peaking at -2.7 dBFS.
//! let mut files = FileLoader::new(ASSETS);
//! let boom = files.load("sounds/explosion.ogg")?;
//! // At most 10 copies, the newest at -14 dB.
//! let explosion = sfx.add_sound("explosion", boom, SoundSettings::default().max_voices(10).first_volume(-14.0))?;
//!
//! // 100 enemies explode in the same frame.
//! for _ in 0..100 {
//!     sfx.play(explosion, PlayParams::default())?;
//! }
//! assert_eq!(sfx.sound_info(explosion).copies_playing(), 10);
//! sfx.update(1.0 / 60.0)?; // once per frame
//!
//! // The stack of copies peaks at -1 dBFS at most: nothing clips.
//! let audio = manager.backend_mut().render(0.5)?;
//! assert!(audio.peak() > 0.5 && audio.peak() <= 10f32.powf(-1.0 / 20.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Quick start
//! In the game's `Cargo.toml` (the crates are not on crates.io yet: point at a
//! clone of this workspace):
//!
//! ```toml
//! [dependencies]
//! pool-audio = { path = "../pool/pool-audio" }                        # offline, headless: builds anywhere
//! # pool-audio = { path = "../pool/pool-audio", features = ["device"] } # plus kira's cpal backend, for a sound card
//! ```
//!
//! Use kira through [`pool_audio::kira`](crate::kira), the kira this crate is
//! built on, with its WAV, Ogg, FLAC and MP3 decoders and without a device. A
//! plain `kira = "0.12"` turns on kira's default features, whose cpal backend
//! needs the ALSA and D-Bus headers ("dbus-1 was not found" on a machine without
//! them); if the game names kira itself, write `kira = { version = "0.12",
//! default-features = false, features = ["wav", "ogg", "flac", "mp3"] }`, plus
//! `"cpal"` for a device. The `device` feature needs `libasound2-dev` on Linux.
//!
//! One frame of a game, sixty times: the player listens, a car (a looping
//! sound) drives past, footsteps (a group of at most 4 voices) and gunshots (a
//! stream of one-shots) play, and the sound goes to a WAV file.
//!
//! ```
//! use pool_audio::kira::{AudioManager, AudioManagerSettings, Frame, Tween};
//! use pool_audio::kira::sound::static_sound::StaticSoundData;
//! use pool_audio::{GroupSettings, OfflineBackend, PlayParams, offline::Rendered, SoundEffects, SoundEffectsSettings, SoundSettings};
//!
//! // Sounds come from a `FileLoader` (WAV, Ogg, FLAC, MP3 under the game's
//! // assets folder); the engine hum is a tone made in code.
//! # const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets");
//! let mut files = pool_audio::loader::FileLoader::new(ASSETS);
//! let hum = StaticSoundData {
//!     sample_rate: 48_000,
//!     frames: (0..24_000).map(|i| Frame::from_mono((i as f32 / 48_000.0 * 110.0 * std::f32::consts::TAU).sin())).collect(),
//!     settings: Default::default(),
//!     slice: None,
//! };
//!
//! // Load time: the manager (`DefaultBackend` with the `device` feature), the
//! // sound effects on it, a group, the sounds. Resolve names to ids once.
//! let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
//! let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
//! let feet = sfx.add_group("footsteps", GroupSettings::default().max_voices(4))?;
//! let engine = sfx.add_sound("engine", hum.loop_region(..), SoundSettings::default())?;
//! // Three takes of a footstep: each play picks one.
//! let takes = files.takes(["sounds/step_1.wav", "sounds/step_2.wav", "sounds/step_3.wav"])?;
//! let step = sfx.add_sound("step", takes, SoundSettings::default().group(feet))?;
//! let shot = sfx.add_sound("shot", files.load("sounds/laser.wav")?, SoundSettings::default().max_voices(6))?;
//!
//! let car = sfx.play(engine, PlayParams::default().position([-30.0, 0.0, 5.0]))?;
//! let mut audio = Vec::new();
//! let dt = 1.0 / 60.0;
//! for frame in 0..60 {
//!     let t = frame as f32 * dt as f32;
//!     sfx.listener().set_position([0.0, 0.0, 0.0])?; // the player's ears, every frame
//!     // The car drives past at 30 m/s. It is looping, so it never ends on its own,
//!     // and when it loses its voice it goes virtual: its handle stays good.
//!     sfx.voice(car).set_position([-30.0 + 30.0 * 2.0 * t, 0.0, 5.0])?;
//!     if frame % 8 == 0 {
//!         sfx.play(step, PlayParams::default().position([0.5, -1.0, 0.0]))?;
//!     }
//!     if frame % 3 == 0 {
//!         sfx.play(shot, PlayParams::default().position([3.0, 0.0, 1.0]).volume(-2.0))?;
//!     }
//!     sfx.update(dt)?; // once per frame, after the game's plays
//!     // With a device, kira plays on its own; offline, render the frame's audio.
//!     audio.extend_from_slice(manager.backend_mut().render(dt)?.samples());
//! }
//! sfx.voice(car).stop(Tween::default())?;
//!
//! let level = Rendered::from_samples(manager.backend_mut().sample_rate(), audio);
//! assert!(level.peak() > 0.1 && level.peak() <= 10f32.powf(-1.0 / 20.0)); // loud, at most -1 dBFS
//! assert!(sfx.stats().real_voices <= 64 && sfx.stats().plays == 1 + 8 + 20);
//! # let path = std::env::temp_dir().join(format!("pool-audio-quick-start-{}.wav", std::process::id()));
//! level.write_wav(&path)?;
//! # std::fs::remove_file(&path)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The mix chain
//! 1. **Copies of a sound share a budget.** At most `max_voices` copies of a
//!    sound play. They are ranked by age, newest first, and copy `r` plays at
//!    `v * p^r` ([`CopyVolumes`]): `v` is the first copy's volume, `p` is solved
//!    so that all the copies together reach the headroom (default -1 dBFS) *at
//!    the sound's measured peak* ([`SoundPeak`]: its samples and the overshoot of
//!    kira's cubic resampling, up to 1.25x, at any playback rate or sample rate).
//!    A panned play is lowered by kira's pan-law gain on its louder channel, and
//!    positions never add gain, so every copy stays inside its share. The voice
//!    bank applies the shares sample by sample:
//!    - a burst (copies started together) starts at exactly those volumes;
//!    - then the copies settle to levels that leave room for one more first copy,
//!      so in a steady stream (a machine gun, footsteps) every shot starts at the
//!      same level: the first copy's, or what is left beside one when the first
//!      copy takes more than half the budget;
//!    - at every sample, copies take their share oldest first, each at most what
//!      the older ones leave of the budget: a copy that starts while older ones
//!      are still fading rises as they fall. The sum never exceeds the budget,
//!      and nothing is cut: levels move by ramps.
//!
//!    No copy plays under the audibility floor (default -60 dB) and still
//!    counts. Onsets: copy volumes the shares would put under the floor play
//!    at it, the others sharing what is left, so a burst starts exactly
//!    `max_voices` copies (settings whose copies cannot all fit the headroom
//!    even at the floor are refused: [`SettingsError::InaudibleCopies`] names
//!    how many fit). Settled levels fall with age, and the settling that
//!    leaves room for the next onset takes the oldest copies under the floor
//!    or to nothing: those leave at the next [`update`](SoundEffects::update),
//!    fading out over the steal fade as they were settling anyway, their
//!    voices and places (under `max_voices`, an owner's cap, the voice cap)
//!    free again. They end [`EndReason::Crowded`] (or go virtual, if the
//!    sound virtualizes) and are counted in [`SoundEffectsStats::crowded_copies`];
//!    [`SoundInfo::copies_kept`](crate::SoundInfo::copies_kept) says how many a sound keeps. Full-scale
//!    data at the default first volume (-6.02 dB, half amplitude) keeps one: each new copy takes
//!    over from the last in a 10 ms crossfade. A play whose own onset is
//!    under the floor (quiet, far) is not started.
//! 2. **When a sound's copies are all playing**, its [`WhenFull`] decides:
//!    recycle the oldest copy (it fades out over the steal fade, 10 ms by
//!    default, while the new copy starts at once) or refuse. A copy whose start
//!    the mixer has not read yet is simply taken over: 200 plays in one frame
//!    start 10 voices, not 200.
//! 3. **A voice cap** (default 64, and per [group](GroupSettings)) steals by
//!    [`Stealing`] policy (oldest, quietest, furthest, lowest priority, or refuse),
//!    fading the stolen voice out. Voices, real and virtual, are `pool_core` pooled
//!    objects behind generational [`VoiceHandle`]s.
//! 4. **A mix ceiling**: a look-ahead peak limiter ([`LimiterBuilder`]) last on the
//!    output that holds the sound effects and the [music], so
//!    several sounds at once, and music with them, never exceed the ceiling
//!    (default -1 dBFS) either. In a storm of one sound it does nothing: the
//!    copies' budget already holds the stack under it.
//! 5. **A meter** ([`MeterBuilder`]), last on the main track, sees the mix before
//!    kira's silent clamp: the tests and examples measure what they claim with it.
//!
//! # The voice bank: FMOD's channels, inside kira's mixer
//! The real voices live in the mixer: one kira sound on the sound-effects track
//! holds them all (FMOD calls them channels, Wwise physical voices), twice the
//! voice cap of them (every real voice, and as many still fading out), created
//! when [`SoundEffects::new`] runs. Each voice reads its sound's decoded frames,
//! shared by every copy, through kira's own interpolator, with kira `Parameter`s
//! and `Tween`s for its volume, playback rate and fades. The game tells the voices
//! what to do through a bounded lock-free queue read at the start of every audio
//! block, and the mixer reports back which voices have ended and where each
//! stopped. What that gives, measured by the tests and the `report`:
//! - **A play allocates nothing** and costs a fraction of kira's own play.
//! - **Every start is heard in the next audio block**: fresh, recycled, stolen or
//!   taken over, the first sample is the first of the block (plus the limiter's
//!   1.5 ms look-ahead).
//! - **Fades of any length are fades.** Gains are computed every 16 frames
//!   while anything fades (every 128 while nothing does) and interpolated in
//!   between: a 1 ms steal fade or stop fade is heard as a fade from its first
//!   sample. Fades are linear in amplitude (a [`kira::Tween`](https://docs.rs/kira/0.12/kira/struct.Tween.html)'s
//!   easing applies to the amplitude); a play's own volume fades in decibels, as
//!   kira fades.
//! - **Exact playheads.** The mixer counts a voice's playhead in frames; a voice
//!   that goes virtual takes the mixer's playhead, and advances by the game's time
//!   steps without rounding: a loop virtual for ten minutes comes back within a
//!   fraction of a millisecond of where it would be.
//! - **Mixing costs less than kira's own sounds**: 32 voices in the bank render in
//!   well under the time kira's own 32 static sounds take.
//!
//! The bank plays what kira's static sounds play: [`StaticSoundData`](kira::sound::static_sound::StaticSoundData)
//! with its slice, loop region, reverse, start position, start time (a delay or a
//! kira clock time) and fade-in, at any sample rate and playback rate
//! ([`MIN_PLAYBACK_RATE`]`..=`[`MAX_PLAYBACK_RATE`]); the data's own volume,
//! panning and playback rate are replaced by the play's. Long pieces (music,
//! ambience beds) are streamed by [`Music`] instead.
//! If the queue is ever full (the mixer has not run since the commands were sent:
//! a stalled device), calls say so with [`PlayError::QueueFull`] or
//! [`VoiceError::QueueFull`] and change nothing.
//!
//! **The mixer never allocates and never frees.** A voice of the bank holds a
//! reference to its sound's samples, never the last one: the game side keeps
//! its own until the mixer can hold none, and drops it on the game thread. A
//! game changing levels removes the last level's sounds with
//! [`SoundEffects::remove_sound`]: their voices fade out, their ids and handles
//! go stale, and their samples are freed by a later update, once the mixer has
//! read its command queue through and every voice of them is over. A test
//! counts allocations and frees in the mixer's render over 600 busy frames with
//! sounds removed under their playing voices: none.
//!
//! # The game side
//! [`SoundEffects`] is a facade over parts that each keep their own invariants:
//! the voices (every voice's pooled record, the bank's slots as the game sees
//! them, the game's end of the bank's queues, the ended voices in lists that
//! never grow), the sound table (sounds by generational id and name, each with
//! its copies in start order) and the voice groups. A play is decided before
//! anything changes: a pure function of what the play is (its sound, its
//! parameters, how audible it is) and of what the manager answers (is there room
//! under the caps, which voice would give way, is a slot free, has the mixer read
//! the oldest copy's start) returns the plan (refused and why, virtual, a
//! take-over, or real with a victim), and one executor carries it out.
//!
//! # Positioned voices
//! Positioned voices are spatialized per voice, as FMOD and Wwise do it: each
//! voice's gain per channel follows a listener the manager owns
//! ([`Listener::set_position`](crate::Listener::set_position)). The distance curve and the ears are kira's own
//! spatial track's (a test compares them channel by channel), with a spatial blend
//! per play like Unity's (0 plays the sound as if at the listener) and the play's
//! own panning on top. A positioned voice costs the mix what an unpositioned one
//! does.
//!
//! One thing differs near the head. kira's ears sit 10 cm either side of its
//! centre, so a voice at the listener (the player's own gun or footsteps, with
//! the listener on the player) would be behind both ears, 28 dB down, and
//! louder as it moved away. Within 2 m of the listener (the near field) the
//! gains move steadily from kira's at 2 m to the unpositioned play's, centred,
//! at the listener: measured as both channels' power together, a voice in
//! front is 1.2 dB under the unpositioned play at 50 cm, 2.3 dB at 1 m and
//! 4.1 dB at 2 m (behind: 2.8, 6.1, 11.5; beside: 1.6, 2.8, 4.0, the near ear
//! 0.1, 0.2, 0.9 dB down and the far one 4.0, 9.9, 29.0); that level never
//! rises as a voice moves away from 0 to 2 m, no 1 cm step changes it by more than 0.5 dB, and a voice passing
//! through the listener moves without a jump. Beyond 2 m the gains are kira's
//! (where a voice's [`Distances`] hold it at full level beyond 2 m, kira's
//! parallax makes it up to 0.7 dB louder far away than at 2 m, behind the
//! listener).
//!
//! Doppler, obstruction and occlusion are applied inside each voice too (see
//! [`Muffle`] and [`doppler_factor`]): a sound with a
//! [`doppler_scale`](SoundSettings::doppler_scale) shifts in pitch with its and
//! the listener's velocities, given or derived from their moves at each update
//! ([`Voice::derive_velocity`](crate::Voice::derive_velocity) takes a given one back);
//! [`Voice::set_obstruction`](crate::Voice::set_obstruction) and [`Voice::set_occlusion`](crate::Voice::set_occlusion) lower a
//! voice and close a one-pole low-pass on it, gliding over [`MUFFLE_FADE`], and
//! occlusion lowers its audibility. A reused slot starts with nothing of the
//! voice before it (a test compares every slot of a full bank with a fresh
//! manager's, within 1e-6).
//!
//! # More sounds than voices: virtual voices
//! A level with 300 torches cannot mix 300 voices, and a looping fire that loses
//! its voice should not be gone for good. A sound set to
//! [`Virtualization::Virtualize`] keeps every voice it cannot make real (cap
//! reached, under the audibility floor, stolen) as a *virtual* voice: a record in
//! a `pool_core` pool (at most [`SoundEffectsSettings::virtual_voices`], default
//! 1024) with its handle, parameters, position and playhead, advanced by each
//! update's time step times its playback rate, and no voice in the mixer behind
//! it. A virtual one-shot ends when its time is up; a loop wraps around its loop
//! region. Each [`update`](SoundEffects::update) ranks every voice by priority,
//! then audibility (its sound's first-copy volume times its play volume times
//! kira's distance curve, by default 0 dB within 1 m, linear in dB down to
//! silence at 100 m; see [`Distances`]), and the most audible virtual voices take the places of the least
//! audible real ones when they are louder by a margin (3 dB by default, so voices
//! near the edge do not flap): the real one fades out and goes virtual, the
//! virtual one starts at its playhead ([`Resume::FromElapsed`]) or its start
//! ([`Resume::FromStart`]) with a short fade-in. Voice groups ([`GroupSettings`])
//! cap their own real voices inside the global cap, with their own stealing; a
//! protected group is never stolen from by another.
//! [`SoundEffects::play_detailed`] says whether a play is real or virtual and
//! which voice it displaced; [`SoundEffects::state`] tells a voice's state later.
//!
//! | here | FMOD | Wwise | Unreal |
//! |---|---|---|---|
//! | a real voice, in the voice bank | channel | physical voice | active sound |
//! | [`Virtualization::Virtualize`] | virtual voice | virtual voice behaviour "send to virtual voice" | virtualization mode "play when silent" |
//! | [`Virtualization::Kill`] | (a stolen voice stops) | "kill voice" | virtualization disabled |
//! | [`Resume::FromElapsed`] / [`Resume::FromStart`] | (virtual voices keep their position) | "play from elapsed time" / "play from beginning" | "play when silent" / "restart" |
//! | `voice_cap` | max software channels / real channels | max number of voices (physical voices) | max channels |
//! | [`SoundSettings`] `max_voices` + [`WhenFull`] | event max instances + stealing | playback limit + "when limit is reached" | sound concurrency max count + resolution rule |
//! | [`GroupSettings`] `max_voices` + `stealing` | bus or group limits | playback limit on a bus | sound concurrency group |
//! | [`mix::BusBuilder`], [`GroupSettings::bus`] | group bus with effects | audio bus with effects | submix with effects |
//! | [`GroupSettings::protected`] | (priority) | (priority) | (priority) |
//! | `audibility_floor` | vol0 virtual level | volume threshold | (silence) |
//! | `virtual_margin` | (none) | (none) | (none) |
//! | `min_retrigger` + `retrigger_radius` | event cooldown (no radius) | (none) | concurrency retrigger time (no radius) |
//! | `max_voices_per_owner` + [`PlayParams::owner`], [`SoundEffects::stop_owner`] | (none) | playback limit "per game object" | sound concurrency "limit to owner" |
//! | [`Recordings`] + [`Pick`] (`Random { avoid_last }`, `Shuffle`, `Sequential`) | multi instrument (shuffle, random, sequential) | random container ("avoid repeating last N", standard or shuffle), sequence container | random node |
//! | `pitch_semitones`, `volume_range` | random modulators on pitch and volume | randomizer on pitch and volume | (per-node modulators) |
//! | `distance_priority_offset` | (priority is fixed) | "offset priority by ... at max distance" | (priority is fixed) |
//! | [`Tie`] | (none) | "when priority is equal: discard oldest / newest instance" | resolution rule |
//! | [`SoundEffectsSettings::seed`], [`SoundEffects::reseed`] | (none) | (none) | (none) |
//! | [`SoundEffects::add_switch`], [`Recordings::for_state`] | (parameter sheet by a labelled parameter) | switch container | switch (sound cue) |
//! | [`SoundEffects::add_game_param`], [`game::Curve`] | parameter with automation curves (seek speed) | game parameter (RTPC) with curves (slew rate) | (modulation) |
//! | [`data::SoundBank`], [`SoundEffects::add_bank`] | bank | SoundBank | (assets) |
//!
//! One update with 1,000 virtual and 32 real voices ranks and advances every voice
//! without allocating; a virtual voice adds nothing to the mix.
//!
//! # Sounds that never repeat the same way
//! A sound holds one recording or several ([`Recordings`], each with a weight),
//! and each play picks one by its [`Pick`]: at random avoiding the last few picks,
//! in shuffled rounds, or in order; [`PlayParams::recording`] names one. A pitch
//! range in semitones and a volume range in dB (which only lowers) are drawn per
//! play. The copy budget is solved against the loudest recording at full volume,
//! and the peak it is solved against already holds at every playback rate, so
//! every draw stays inside it. A voice keeps which recording it plays
//! ([`SoundEffects::recording_of`]); each recording keeps its own frames, sample
//! rate, loop and playhead under its sound's one budget.
//!
//! Priority can fall (or rise) with distance: a sound's
//! `distance_priority_offset` moves its priority linearly from none at the
//! listener to all of it at the play's maximum distance (100 m by default),
//! rounded to a whole priority, wherever voices
//! are ranked and wherever [`Stealing::LowestPriority`] picks a victim; that
//! policy steals only a voice below the play, and a tie goes by the play's
//! [`Tie`].
//!
//! A sound of a switch ([`SoundEffects::add_switch`]) has each recording in
//! one of the switch's states ([`Recordings::for_state`]): a play picks among
//! the current state's recordings (or its own state's,
//! [`PlayParams::state`]), by the sound's pick rules inside them, each state
//! keeping its own recent picks and rounds. A game parameter
//! ([`game`]) moves a sound's volume and pitch through curves, for every
//! voice or for one; a sound bank ([`data`]) holds all of it as a file a
//! sound designer edits.
//!
//! Every random choice comes from one seeded generator per manager
//! ([`SoundEffectsSettings::seed`], [`SoundEffects::reseed`]): the same seed,
//! the same calls and the same render sizes render the same samples, bit for
//! bit, on the offline backend. Render sizes count: the mixer computes gains
//! and moves kira's tweens in steps from the start of each render, so the
//! same audio split into other sizes differs by rounding (2.4e-6 at most
//! on a test scene of fades, a settling burst, a pitched voice and the
//! limiter at work). A replay renders with the sizes its game rendered with.
//!
//! # Music and ambience
//! [`Music`] streams long pieces ([`MusicSource`]: files, bytes, readers) on
//! tracks of the mix beside the sound-effects track, under the same limiter:
//! decoded a packet at a time into a ring ahead of the mixer, on a thread per
//! piece or, offline, when the game calls [`Music::fill`] (the same mix on
//! every run); crossfaded with equal power along a [`Tween`](kira::Tween)'s
//! easing, looped, sought, paused per track or with the game. Its tracks are
//! named once, in the mix: ducks and snapshots reach them by their
//! [`TrackId`]. The mixer side
//! allocates and frees nothing; an hour-long piece streams in the memory of its
//! ring.
//!
//! # A mix that makes room: ducks, snapshots, the loudness window
//! What the player hears first is decided by three tools, set by the game side
//! and applied inside the voice bank (one gain per group, tweened every 16
//! frames while it moves) or on a track of the mix (a volume-control effect: [`Music`]'s
//! tracks have one, and a kira track of the game's joins the mix with
//! [`MixMut::add_track`](crate::MixMut::add_track)):
//! - **ducks** ([`MixMut::add_duck`](crate::MixMut::add_duck), [`DuckSettings`]): a group's voices
//!   lower a group, a track or every sound effect, with attack, hold, release
//!   and curve; several on one target by [`DuckRule`] (the deepest, or Wwise's
//!   sum down to a maximum);
//! - **snapshots** ([`Snapshot`], [`MixMut::apply_snapshot`](crate::MixMut::apply_snapshot)): mix states
//!   with an intensity and a tween, combined by priority, [`SnapshotMode::Override`]
//!   or [`SnapshotMode::Blend`] (FMOD's modes);
//! - **the loudness window** ([`LoudnessWindow`], Wwise's HDR audio): sounds
//!   declare a loudness, groups opt in, every voice plays at its loudness minus
//!   the window's top (the loudest voice, released slowly), and voices under
//!   the window go virtual. Inside the bank it is one gain per group and a fixed
//!   gain per voice, so it costs the mixer nothing per voice beyond a group gain.
//!
//! Ends are known at the sample: the voice bank reports where in the audio a
//! voice's sound ended, so a duck's hold and the window's fall are counted
//! from there, not from the update that learns of the end (up to a game frame
//! later). Measured: the window's fall follows its line from the end's sample
//! within a frame once the mixer joins it at its next block, and a duck's
//! release starts within one 16-frame step of end plus hold, for ends on a
//! block's boundary and inside one. (A duck on a named kira track starts its
//! delayed release at kira's next 128-frame chunk.)
//!
//! The mixer allocates and frees nothing for any of them.
//!
//! # Seeing the mix
//! [`SoundEffects::voices`] lists every voice, real and virtual, with why it
//! is virtual and the level it is heard at in each ear
//! ([`VoiceInfo`](voices::VoiceInfo)), without an allocation: what a debug
//! view draws each frame ([`SoundEffects::voice_table`] writes it as text).
//!
//! A [`capture`] records the session: every call that changes what is
//! heard, every refusal, end, virtualization and promotion with its reason,
//! and the mix's ducks, snapshots and window. Because the render is
//! deterministic, a capture is a bug report that can be heard:
//!
//! 1. The game starts one with room for its events
//!    ([`SoundEffects::start_capture`], right after adding its sounds: the
//!    buffer is made then and nothing is allocated while recording), and on
//!    a key or a bug writes it ([`SoundEffects::stop_capture`],
//!    [`Capture::write`](capture::Capture::write)).
//! 2. A test or a tool reads the file ([`Capture::read`](capture::Capture::read)),
//!    sets a fresh manager on the [`OfflineBackend`] up as the game's (the
//!    same settings, sounds, groups, buses in the same order: a bank does
//!    it in one call) and replays it
//!    ([`Capture::replay`](capture::Capture::replay)): the same samples,
//!    bit for bit. A [`Replay`](capture::Replay) stops at any moment to
//!    read the voice table there.
//!
//! The showcase does both: `showcase --capture FILE`, then `showcase replay
//! FILE --at 5` writes the replay's WAV (identical to the session's), a
//! timeline of every voice and prints the voice table at 5 s
//! (`docs/showcase-timeline.png` is a minute of it).
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
//! # One vocabulary
//! The crates of this workspace name one idea one way, and take kira's types
//! where kira has one:
//!
//! | idea | name | type |
//! |---|---|---|
//! | the game's time step | `update(dt)` | `dt: f64` seconds; NaN, infinite or negative is `Err(pool_core::TimeError)` before anything changes |
//! | every other span of time | a delay, an interval, a position in a piece | `std::time::Duration` (`SoundSettings::min_retrigger`, `MusicSettings::buffer`, `Music::seek`, `EffectKind::new(.., frame_interval)`, `ReleaseAfter` in Bevy) |
//! | a fade | every `stop`, `pause`, `resume`, `set_volume`, `set_playback_rate`, `stop_all`, `stop_sound`, `remove_sound`, a duck's attack and release, a snapshot, a crossfade | kira's `Tween`; [`linear_fade`]`(duration)` for a linear one starting now |
//! | a start time | [`PlayParams::start_time`] | kira's `StartTime`: at once, after a delay, at a clock's time |
//! | a level | a play's and a voice's volume, `first_volume`, `headroom`, `audibility_floor`, `volume_range`, `loudness`, a track's volume, a duck's amount, a snapshot's value, the limiter's ceiling, a muffle's volume | kira's `Decibels` (an `f32` converts, as in kira: `volume(-6.0)` is 6 dB down); a volume is at most 0 dB, `f32::NEG_INFINITY` is silence |
//! | a position | `PlayParams::position`, `voice(h).set_position`, `listener().set_position` (`position_2d` and `set_position_2d` for a flat game) | `impl Into<mint::Vector3<f32>>`: glam, nalgebra, cgmath values and `[f32; 3]` convert; NaN or infinite is refused |
//! | a mix target | a group, the sound effects, a music track | [`mix::MixTarget`]; a track is named once and addressed by its [`mix::TrackId`] |
//! | a handle that is gone | a voice that ended, another manager's | `pool_core::StaleHandle`, inside `VoiceError::Stale` (`is_stale()` to match it) |
//! | the most at once | `max_voices` (a sound's copies, a group's voices), `max_voices_per_owner`, `voice_cap` (all real voices) | `usize` |
//! | what ended | `ended()`, each handle once with its `EndReason` | `&[Ended]`, replaced at each `update` (`VoiceEnded` messages in Bevy) |
//! | registration | `add_sound`, `add_group`, `add_track`, and `remove_sound` | ids to keep: `SoundId`, `GroupId`, `TrackId`; `sound(name)` looks one up |
//! | statistics | `stats()` | [`SoundEffectsStats`], `GroupStats`, `MusicStats`, all `#[non_exhaustive]` |
//!
//! Copy attenuation is arithmetic on amplitudes (copies sum sample by
//! sample), and [`sound::CopyVolumes`] shows it so; every level a game sets or
//! reads is in decibels. The steal fade is a `Duration` setting, not a
//! `Tween`: a stolen copy fades out linearly over exactly that time while the
//! copies' levels ramp over it too, and the copies' budget relies on that
//! shape.
//!
//! # Defaults, and why
//!
//!
//! | setting | default | why |
//! |---|---|---|
//! | `SoundSettings::max_voices` | 8 copies | enough to carry a stacked sound (a burst of explosions, a stream of shots); more copies add loudness the budget then takes away |
//! | `first_volume` | -6.02 dB (half amplitude) | the newest copy plays at it and the older ones share what it leaves of the headroom: one copy alone peaks 6 dB under the sound's own peak, and a burst of 8 starts at -1 dBFS; how many copies stay once settled is in the field's docs. A sound that never stacks (a stinger, a line of dialogue) plays at -1 dBFS with `max_voices(1).first_volume(0.0)` |
//! | `headroom` | -1 dBFS | what every copy of a sound sums to at most, measured on the sound's own peak (resampling overshoot included) |
//! | `virtualization` | `Auto` | a looping sound that loses its voice goes virtual and keeps its handle (FMOD's default), so the game's calls on it go on working and the loop comes back where it would be; a one-shot ends, since a one-shot heard late is heard wrong |
//! | a call on a voice that ended | `Err(VoiceError::Stale(_))` | one-shots end on their own; `error.is_stale()` lets the game forget the handle instead of ending its frame with `?` |
//! | `audibility_floor` | -60 dB | quieter is not heard in a game's mix; no copy that holds a voice plays under it, and a play whose onset (volume, distance) is under it is not started |
//! | `when_full` | `RecycleOldest` | the newest copy is the one the player should hear; the oldest fades out over the steal fade |
//! | `max_voices_per_owner` | none | a sound shared by many owners (a cannon on every tank) is capped per owner only when asked: `max_voices_per_owner(2)` keeps one tank from taking all the copies |
//! | `pick` | `Pick::Random { avoid_last: 1 }` | a sound of several recordings never plays the same one twice in a row (Godot's and Wwise's habit); a sound of one recording plays it, drawing nothing |
//! | `pitch_semitones`, `volume_range` | `(0, 0)`: none | variation is asked for per sound; the volume range only lowers (as FMOD's modulator), so the copy budget, solved against the loudest recording at full volume, holds for every draw |
//! | `distance_priority_offset` | 0 | a sound's priority is its own until asked: `-20` puts a far explosion below a near footstep of priority `priority - 20` or more |
//! | `tie` | `Tie::OldestLoses` | as `when_full`'s default: the newest play is the one the player should hear |
//! | `SoundEffectsSettings::seed` | 0 | every run sounds the same and a test can compare renders; a game that wants another sequence each session passes its own seed or calls `reseed` |
//! | `SoundEffectsSettings::voice_cap` | 64 real voices | room for a busy scene; every real voice costs mixing, virtual ones do not: set it for the platform |
//! | `stealing` | `Stealing::Oldest` (groups too, 16 voices each) | the voice closest to its end; `Quietest`, `Furthest`, `LowestPriority` (only a voice below the play, ties by the play's `tie`) or `Strict` by choice |
//! | `steal_fade` | 10 ms | short enough to free the voice within a frame, long enough not to click (a 1 ms fade's largest step is 0.55x a 440 Hz sine's own) |
//! | the limiter | on: -1 dBFS ceiling, 1.5 ms look-ahead, 50 ms release | different sounds at once add up past any one sound's budget |
//! | loaders' `max_frames` | 8,388,608 frames (64 MiB decoded) | a sound effect is seconds long; a file that decodes to more is refused before it is allocated |
//!
//! # Offline and on a device
//! Everything runs offline: [`OfflineBackend`] renders the mix into memory and WAV
//! files at any sample rate, so the whole crate is tested with no sound card; its
//! audio time follows the durations asked for exactly, at any frame rate. The
//! default build needs no audio device and no system library. The `device` feature
//! turns on kira's cpal backend (`kira::DefaultBackend`); on Linux it needs the
//! ALSA headers (`libasound2-dev` on Debian and Ubuntu). On a device, a play
//! lands in the device's next block, and a virtual voice's playhead is as exact as
//! the game's clock is to the device's.
//!
//! In a browser, [`web`] plays the offline backend's mix through an AudioWorklet:
//! the game renders ahead by a buffering it chooses, so a stall of the page's
//! main thread shorter than that is not heard (kira's own web output, the
//! `device` feature on `wasm32`, renders on the main thread as each buffer node
//! ends). The workspace's web example plays the showcase's level that way in
//! headless Chromium; the figures are in the benchmarks page.
//!
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod attenuation;
mod audibility;
mod bank;
mod bus;
pub mod capture;
mod clock;
mod cues;
// A bank's error is made once per load, never in a loop: its size (the
// refused call's own error inside) costs nothing worth a box.
#[allow(clippy::result_large_err)]
pub mod data;
mod ears;
pub mod error;
pub mod game;
mod groups;
mod handles;
mod level;
mod limiter;
pub mod limits;
pub mod loader;
mod meter;
mod mix_core;
pub mod music;
pub mod offline;
mod params;
mod peak;
mod playhead;
mod send;
mod settings;
mod sidechain;
mod sound_effects;
mod sound_error;
mod sound_table;
mod stats;
mod stealing;
mod switch;
mod variations;
mod voice_info;
mod voice_pool;
pub mod web;
mod zone;

pub use error::{PlayError, VoiceError};
pub use groups::GroupSettings;
pub use handles::{EndReason, Ended, GroupId, Played, SoundId, VoiceHandle, VoiceState};
/// kira, whose types ([`kira::Tween`](https://docs.rs/kira/0.12/kira/struct.Tween.html), [`kira::AudioManager`](https://docs.rs/kira/0.12/kira/manager/struct.AudioManager.html), sound data) this
/// crate's signatures take: the version this crate is built against.
pub use kira;
/// The vector types positions are given in (`impl Into<mint::Vector3<f32>>`).
pub use mint;
pub use offline::OfflineBackend;
pub use params::{PlayParams, linear_fade};
pub use settings::{SoundEffectsSettings, SoundSettings};
pub use sound_effects::SoundEffects;
pub use stats::SoundEffectsStats;

// Inside the crate, every public item is named by its root path
// (`crate::Distances`), whichever module shows it to users: in code and in
// doc links, so the modules depend on each other no more than they did.
#[allow(unused_imports)]
use {
    attenuation::{AttenuationError, CopyVolumes},
    audibility::Distances,
    bus::{BusBuilder, MAX_VOICE_BUSES},
    cues::{
        MAX_DOPPLER_SCALE, MIN_CUTOFF_HZ, MIN_MUFFLE, MUFFLE_FADE, Muffle, OPEN_CUTOFF_HZ,
        SPEED_OF_SOUND, doppler_factor,
    },
    error::{AddGroupError, AddSoundError, RemoveSoundError, SetupError},
    groups::GroupStats,
    limiter::{LimiterBuilder, LimiterError, LimiterHandle, LimiterSettings},
    limits::{
        MAX_GROUPS, MAX_PITCH_SEMITONES, MAX_PLAYBACK_RATE, MAX_RECORDINGS, MAX_RETRIGGER,
        MAX_SOUND_SAMPLE_RATE, MAX_START_DELAY, MAX_STEAL_FADE, MAX_VIRTUAL_MARGIN,
        MAX_VIRTUAL_VOICES, MAX_VOICE_CAP, MAX_VOICES_PER_SOUND, MIN_PLAYBACK_RATE, MIN_STEAL_FADE,
    },
    loader::{DEFAULT_MAX_FRAMES, FileLoader, LoadError, MemoryLoader, SoundLoader},
    meter::{MeterBuilder, MeterHandle},
    mix_core::{
        DuckId, DuckRule, DuckSettings, LoudnessWindow, MAX_LOUDNESS, MAX_MIX, MAX_MIX_ITEMS,
        MAX_MIX_TIME, MIN_MIX, MixError, MixStats, MixTarget, ParamId, Snapshot, SnapshotId,
        SnapshotMode, TrackId,
    },
    music::{
        BUFFER_RANGE, Decode, MAX_FADE, MAX_TRACK, Music, MusicError, MusicParams, MusicSettings,
        MusicSource, MusicStats, SEEK_FADE, TrackSettings,
    },
    offline::{MAX_OFFLINE_SAMPLE_RATE, OfflineError, OfflineSettings, Rendered},
    params::ParamError,
    peak::SoundPeak,
    pool_core::{StaleHandle, TimeError},
    send::{MAX_SENDS, SendCurve, SendSettings, Sends},
    settings::{Resume, SettingsError, Virtualization, WhenFull},
    sidechain::{MAX_SIDECHAINS, SideChainId, SideChainSettings},
    sound_effects::{Listener, Mix, MixMut, SoundInfo, Voice},
    sound_error::SoundError,
    stealing::{Stealing, Tie},
    variations::{Pick, Recordings},
    zone::{MAX_ZONES, ZoneId, ZoneSettings, ZoneShape},
};

/// What a sound is made of and how its copies share a budget: its
/// recordings and how a play picks one, the copy volumes and the measured
/// peak they are solved against.
pub mod sound {
    pub use crate::attenuation::CopyVolumes;
    pub use crate::peak::SoundPeak;
    pub use crate::sound_effects::SoundInfo;
    pub use crate::switch::{MAX_STATES, MAX_SWITCHES, SwitchError, SwitchId, SwitchState};
    pub use crate::variations::{Pick, Recordings};
}

/// How voices are kept and given up: what a full sound does, which voice a
/// cap steals, what becomes of a voice that loses its place (virtual voices)
/// and how it comes back, a group's counts.
pub mod voices {
    pub use crate::groups::GroupStats;
    pub use crate::settings::{Resume, Virtualization, WhenFull};
    pub use crate::sound_effects::Voice;
    pub use crate::stealing::{Stealing, Tie};
    pub use crate::voice_info::{VoiceInfo, VoiceTable, WhyVirtual};
}

/// The mix that makes room: buses, ducks, snapshots and the loudness window.
///
/// A copy budget and a limiter keep the mix under its ceiling; these decide
/// what the player hears first, and where.
///
/// - A **bus** ([`BusBuilder`],
///   [`MixMut::add_bus`]) is a kira track with a
///   chain of kira effects (filter, EQ, reverb, delay, compressor, distortion,
///   or the game's own), their handles kept by the game for live changes.
///   Voice groups ([`GroupSettings::bus`]), music tracks
///   ([`TrackSettings::bus`](crate::music::TrackSettings::bus)) and other
///   buses route to it; buses form a tree declared once (a parent exists
///   before its children, so there is no circle), under the output, whose
///   limiter stays last: nothing a chain adds lifts the mix over the ceiling.
///   A bus is a track of the mix, named by a [`TrackId`]: ducks and
///   snapshots set its volume, and [`MixMut::set_bus_volume`] is the game's
///   fader. Voices of a bused group are mixed in the voice bank like any
///   other and reach their bus in the same block, on the same frame (FMOD's
///   group buses, Wwise's audio busses, Unreal's submixes).
/// - A **send** ([`SendSettings`], added to a sound
///   with [`SoundSettings::send`]) feeds a return bus (a reverb, a delay)
///   from each of the sound's voices at a level the game moves while the
///   voice plays ([`Voice::set_send`](crate::voices::Voice::set_send),
///   tweened, heard within a 16-frame step), optionally plus a curve by
///   distance ([`SendCurve`]: more reverb further
///   away, Wwise's game-defined auxiliary sends). The bank renders a voice
///   with sends once and adds it to each return: no added latency, and a
///   voice with no send pays nothing. A stolen voice's sends fade with it; a
///   virtual voice comes back at the send levels set last.
/// - A **zone** ([`ZoneSettings`], [`MixMut::add_zone`]) is a place of the
///   level with a room sound: a sphere or a box with a return bus and a
///   level. Each voice inside sends to it (of sounds that take part,
///   [`SoundSettings::zones`], on by default); outside, the send falls to
///   nothing over the zone's fade distance, so crossing the edge is a
///   crossfade. A zone that follows the listener sends every voice by where
///   the listener is: the room the player hears. Zones move and go while
///   the game runs; the mixer weighs each voice once a chunk and moves its
///   gains through the chunk (Unreal's reverb volumes, Godot's `Area3D`
///   reverb buses).
///
/// - A **duck** lowers a target (a voice group, a track of the mix: music,
///   ambience or a kira track of the game's, or every sound effect) while any voice of its source group sounds: Wwise's
///   auto-ducking, with its attack (fade out), hold (recovery time), release
///   (fade in) and curve.
/// - A **snapshot** is a mix state (a pause menu, underwater, a boss fight):
///   volumes of groups, tracks and buses, the level of every send into a
///   return ([`MixTarget::Sends`]), and values of effect parameters
///   ([`MixMut::add_param`]: a bus filter's cutoff, a reverb's mix, through
///   the effect's kira handle), applied with an intensity and a tween and
///   released with a tween; FMOD's snapshots, overriding or blending by
///   priority. The pause menu that muffles the whole game, music included,
///   is one snapshot on the bus everything goes through.
/// - The **loudness window** ([`LoudnessWindow`],
///   Wwise's HDR audio) plays every voice at its loudness minus the loudest.
///
/// - A **side-chain** ([`MixMut::add_sidechain`], [`SideChainSettings`])
///   lowers a bus or a music track by as much as the voices of a source bus
///   are loud, following them with an attack and a release, as a compressor
///   keyed by the source: dialogue lowering the music only while, and as far
///   as, someone speaks (FMOD's and Wwise's side-chain).
///
/// The game side decides the values at each [`update`](SoundEffects::update)
/// (ducks) or call (snapshots); the mixer applies them: a group's gains are
/// kira parameters inside the voice bank, tweened block by block; a named
/// track's gain is a kira volume-control effect on that track. A target's
/// ducking and its snapshots' volume add in decibels. The game reaches the mix
/// through [`SoundEffects::mix`] and [`SoundEffects::mix_mut`].
///
/// At the edges:
/// - A duck is decided at each `update`, so it starts within one update of
///   its source's first voice (a game that plays and then updates in the same
///   frame ducks in the block the voice starts). A holding duck still counts
///   until its hold is over; its release goes to the mixer delayed by the rest
///   of the hold.
/// - A named track has one gain: when a duck and a snapshot change it in the
///   same call, both move with the snapshot's tween.
/// - Several ducks on one target take the deepest by default, so a second
///   reason to duck never buries the first one's target further;
///   [`DuckRule::Sum`] is Wwise's rule, summed down to a maximum.
/// - Snapshots combine per target from the lowest priority up: `Override`
///   moves the value towards its own by its intensity, `Blend` adds its own
///   times its intensity.
///
/// Not yet: zones that turn with a rotation (boxes are
/// aligned with the axes); the loudness window is set when the
/// manager is made; mix tweens start now or after a delay, not on a kira
/// clock ([`MixError::ClockStart`]). Voice groups reach at most
/// [`MAX_VOICE_BUSES`] buses; the sound-effects
/// track (ungrouped voices and groups with no bus) is not a parent of buses.
pub mod mix {
    pub use crate::bus::{BusBuilder, MAX_VOICE_BUSES};
    pub use crate::mix_core::{
        DuckId, DuckRule, DuckSettings, LoudnessWindow, MAX_LOUDNESS, MAX_MIX, MAX_MIX_ITEMS,
        MAX_MIX_TIME, MIN_MIX, MixError, MixStats, MixTarget, ParamId, Snapshot, SnapshotId,
        SnapshotMode, TrackId,
    };
    pub use crate::send::{MAX_SENDS, SendCurve, SendSettings, Sends};
    pub use crate::sidechain::{MAX_SIDECHAINS, SideChainId, SideChainSettings};
    pub use crate::sound_effects::{Mix, MixMut};
    pub use crate::zone::{MAX_ZONES, ZoneId, ZoneSettings, ZoneShape};
}

/// Positioned voices: where the listener is ([`SoundEffects::listener`]), how
/// a sound fades with distance, doppler, obstruction and occlusion.
///
/// Each positioned voice gets a gain per channel from where it is, as kira's
/// spatial track at full strength would give it (distance by
/// [`Distances::level`](spatial::Distances::level), and kira's ears 10 cm either
/// side of the head), with a spatial blend and the play's own panning on top,
/// computed in the voice bank. Within 2 m of the listener the gains move
/// steadily to the unpositioned play's, centred, so a sound at the listener
/// plays at full level (see the crate docs on positioned voices).
pub mod spatial {
    pub use crate::audibility::Distances;
    pub use crate::cues::{
        MAX_DOPPLER_SCALE, MIN_CUTOFF_HZ, MIN_MUFFLE, MUFFLE_FADE, Muffle, OPEN_CUTOFF_HZ,
        SPEED_OF_SOUND, doppler_factor,
    };
    pub use crate::sound_effects::Listener;
}

/// The limiter that is the mix's ceiling and the meter the tests measure
/// with: kira effects, for any track.
pub mod dsp {
    pub use crate::limiter::{LimiterBuilder, LimiterError, LimiterHandle, LimiterSettings};
    pub use crate::meter::{MeterBuilder, MeterHandle};
}

/// What a game names in its first hour, in one `use`:
/// `use pool_audio::prelude::*;`.
pub mod prelude {
    #[doc(no_inline)]
    pub use crate::kira::{AudioManager, AudioManagerSettings, Tween};
    pub use crate::loader::{FileLoader, MemoryLoader, SoundLoader};
    pub use crate::offline::Rendered;
    pub use crate::sound::{Pick, Recordings};
    pub use crate::voices::{Resume, Stealing, Virtualization, WhenFull};
    pub use crate::{
        EndReason, Ended, GroupId, GroupSettings, OfflineBackend, PlayError, PlayParams, Played,
        SoundEffects, SoundEffectsSettings, SoundEffectsStats, SoundId, SoundSettings, VoiceError,
        VoiceHandle, VoiceState, linear_fade,
    };
}

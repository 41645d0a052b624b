//! Sound banks: the sounds, groups, buses, ducks, snapshots, zones and music
//! of a game as a text file a sound designer edits, instead of code.
//!
//! A bank is [RON](https://docs.rs/ron), the format of Bevy's scenes and
//! assets: every setting the code builds has a field of the same name, and
//! every field left out is the code's default. Levels are decibels, times
//! seconds, distances metres; sounds, groups, buses and tracks are named, and
//! a bank may name what the game made in code before it. Adding a bank checks
//! everything first and changes nothing when anything is wrong: the error
//! gives the file, line and column, the field's path and the value as written
//! (see [`BankError`]).
//!
//! ```
//! use pool_audio::data::SoundBank;
//! use pool_audio::kira::{AudioManager, AudioManagerSettings};
//! use pool_audio::loader::FileLoader;
//! use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings};
//! # const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets");
//!
//! let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
//! let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
//! // A bank as the designer writes it (usually a file: `SoundBank::from_file`).
//! let bank = SoundBank::from_ron("weapons.bank.ron", r#"(
//!     groups: { "weapons": (max_voices: 12, stealing: Quietest) },
//!     sounds: {
//!         "laser": (
//!             recordings: ["sounds/laser.wav"],
//!             max_voices: 8,
//!             first_volume: -8.0,
//!             pitch_semitones: (-0.5, 0.5),
//!             group: "weapons",
//!         ),
//!     },
//! )"#)?;
//! // Its files are found by the loader, under the game's assets folder.
//! sfx.add_bank(&bank, &mut FileLoader::new(ASSETS), None)?;
//!
//! let laser = sfx.sound("laser").expect("the bank's laser");
//! sfx.play(laser, PlayParams::default())?;
//! sfx.update(1.0 / 60.0)?;
//! let audio = manager.backend_mut().render(0.25)?;
//! assert!(audio.peak() > 0.01, "the laser is heard");
//! assert_eq!(sfx.group_stats(sfx.group("weapons").unwrap()).unwrap().real_voices, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The showcase's level plays from `assets/sounds/level.bank.ron`, a whole
//! bank: groups on a bus the game made, looping ambience, varied shots and
//! steps, a duck and a snapshot.
//!
//! # The format
//! The bank holds, each optional:
//!
//! ```ron
//! (
//!     buses: {
//!         "world": (parent: None, volume: 0.0, effects: [Filter(mode: LowPass, cutoff: 8000.0, param: "world cutoff")],
//!             curves: [(param: "speed", target: Param("world cutoff"), points: [(0.0, 2000.0), (1.0, 8000.0)])]),
//!         "reverb": (parent: "world", effects: [Reverb(feedback: 0.8, mix: 1.0)],
//!             curves: [(param: "speed", target: Volume, points: [(0.0, -6.0), (1.0, 0.0)])]),
//!     },
//!     groups: { "weapons": (max_voices: 12, stealing: Quietest, bus: "world") },
//!     switches: { "surface": ["grass", "stone"] },
//!     game_params: { "speed": (range: (0.0, 1.0), initial: 0.0, seek: 0.5) },
//!     sounds: {
//!         "laser": (
//!             recordings: ["sounds/laser.wav", (file: "sounds/laser2.wav", weight: 0.5)],
//!             max_voices: 8, first_volume: -6.0, pitch_semitones: (-1.0, 1.0),
//!             group: "weapons",
//!             sends: [(bus: "reverb", level: -12.0, distance: (from: 5.0, to: 50.0, near: -20.0, far: 0.0))],
//!             curves: [
//!                 (param: "speed", target: Pitch, points: [(0.0, 0.0), (1.0, 12.0)]),
//!                 (param: "speed", target: Volume, points: [(0.0, -12.0), (1.0, 0.0)], easing: OutPowi(2)),
//!                 (param: "speed", target: LowPass, points: [(0.0, 2000.0), (1.0, 20000.0)]),
//!                 (param: "speed", target: Send("reverb"), points: [(0.0, -20.0), (1.0, 0.0)]),
//!             ],
//!         ),
//!         "footstep": (
//!             switch: "surface",
//!             pick: Shuffle,
//!             recordings: [
//!                 (file: "sounds/step_1.wav", state: "grass"),
//!                 (file: "sounds/step_2.wav", weight: 2.0, state: "grass"),
//!                 (file: "sounds/step_3.wav", state: "stone"),
//!             ],
//!         ),
//!     },
//!     ducks: [(source: "dialogue", target: Group("weapons"), amount: -12.0, attack: 0.1, hold: 0.25, release: 0.5)],
//!     snapshots: { "pause": (priority: 1, volumes: [(Track("world"), -20.0)], params: [("cutoff", 600.0)]) },
//!     zones: { "cave": (shape: Sphere(center: (0.0, 0.0, 0.0), radius: 10.0), bus: "reverb") },
//!     music: (tracks: { "music": () }, pieces: { "theme": (file: "music/theme.ogg", loop_from: 0.0) }),
//! )
//! ```
//!
//! What must be given: a recording's `file`; a send's and a zone's `bus`; a
//! zone's `shape`; a duck's `source` and `target`; a curve's `param`,
//! `target` and `points`; a game parameter's `range`; a piece's `file`; an
//! effect's `mode` and `cutoff` (filter), `kind`, `frequency`, `gain` and `q`
//! (EQ), `time` (delay), `threshold` and `ratio` (compressor), `drive`
//! (distortion). Every other field may be left out and is the code's default
//! (a recording's `weight` 1 and no `state`, a curve's `easing` `Linear`, a
//! game parameter's `initial` the low end of its range and `seek` 0). An
//! easing is kira's: `Linear`, `InPowi(2)`, `OutPowi(2)`, `InOutPowi(2)`,
//! `InPowf(1.5)`, `OutPowf(1.5)`, `InOutPowf(1.5)`. Every effect setting is a
//! plain number (`mix` from 0, dry, to 1, wet); `mode` and `kind` are names.
//! Recording and piece files are paths under the loader's root (a game's
//! assets folder; in Bevy, the asset server's), whatever folder the bank is
//! in.
//!
//! Reading a bank ([`SoundBank::from_ron`]) checks its shape and types: a
//! field that is not there, a string where a number goes. Its values (a NaN,
//! a level above 0 dB, a name nowhere) are checked when it is added or
//! reloaded, against the manager.
//!
//! - **sounds**: every field of [`SoundSettings`](crate::SoundSettings) (an
//!   `Option` field is its value, or `None`; `obstruction` and `occlusion` are
//!   `(volume: dB, cutoff_hz: Hz, easing: Linear)`, `distances` is `(min, max,
//!   curve)`), with `recordings`: each a file under the loader's root, or
//!   `(file, weight)`; `looping` (each recording loops whole); `group` by name; `sends`, each `(bus, level,
//!   distance)`.
//! - **groups**: every field of [`GroupSettings`](crate::GroupSettings),
//!   `bus` by name.
//! - **game_params**: each `(range: (low, high), initial, seek)` (seek in
//!   seconds; see [`GameParamSettings`](crate::game::GameParamSettings)); a
//!   sound's `curves`, each `(param, target, points: [(value, output), ..],
//!   easing)`, the target `Volume` (dB), `Pitch` (semitones), `LowPass`
//!   (Hz) or `Send(bus)` (dB on the sound's send to that bus) (see
//!   [`Curve`](crate::game::Curve) and [`CurveTarget`](crate::game::CurveTarget)).
//! - **switches**: each a list of its states (`"surface": ["grass",
//!   "stone"]`); a sound of a switch names it (`switch: "surface"`) and
//!   gives each recording its state (`(file: "..", state: "grass")`). See
//!   [`SoundEffects::add_switch`](crate::SoundEffects::add_switch).
//! - **buses**: `parent` (a bus declared before, or one the game made),
//!   `volume`, `curves` (`Volume` curves on the bus, and `Param(name)`
//!   curves on an effect parameter: see
//!   [`MixMut::add_param_curve`](crate::mix::MixMut::add_param_curve)), and
//!   `effects` in order, each of which may name its main value a parameter
//!   of the mix with `param: "name"` (a filter's cutoff, an EQ band's gain,
//!   the others' mix) for snapshots and curves to set: kira's `Filter(mode, cutoff,
//!   resonance, mix)`, `Eq(kind, frequency, gain, q)`, `Reverb(feedback,
//!   damping, stereo_width, mix)`, `Delay(time, feedback, mix)`,
//!   `Compressor(threshold, ratio, attack, release, makeup_gain, mix)`,
//!   `Distortion(kind, drive, mix)`; a setting left out is kira's default.
//! - **ducks**: `source` (a group), `target`, and [`DuckSettings`](crate::mix::DuckSettings)'
//!   `amount` (dB, `-60..=0`; default -12), `attack`, `hold` and `release`
//!   (seconds; defaults 0.1, 0.25 and 0.5, the fades linear). A target is `Group(name)`,
//!   `Track(name)` (a bus or a music track), `SoundEffects`, or `Sends(bus)`.
//! - **snapshots**: [`Snapshot`](crate::mix::Snapshot)'s `priority`, `mode`,
//!   `volumes` as `(target, dB)` and `params` as `(name, value)` of the
//!   effect parameters the game added.
//! - **zones**: templates the game places with
//!   [`SoundBank::zone`]: `shape`, `bus`, `level`, `fade`, `follows_listener`.
//! - **music**: `tracks` to make (`volume`, `pause_with_game`, `bus`), and
//!   `pieces` by name (`file`, and [`MusicParams`](crate::music::MusicParams)'
//!   `fade`, `start_at`, `loop_from` in seconds), played with
//!   [`SoundBank::piece`].
//!
//! # Reloading while the game runs
//! [`SoundEffects::reload_bank`](crate::SoundEffects::reload_bank) takes a
//! new text of a bank added before (the same file name) and applies what
//! changed, as a sound designer edits the file under the running game:
//! a changed sound keeps its voices, which glide over the reload's fade to
//! their new level (first volume, headroom, copies, volume range), pitch
//! range and curves, each keeping its place in the sound's ranges; its other
//! settings and new recordings apply from its next play. A sound the text
//! leaves out fades out and its handles go stale; what the text adds is
//! added; a bus's volume moves. A group, switch, game parameter, duck,
//! snapshot or music track, a bus's parent, effects and curves, a sound's group,
//! switch and sends are fixed while the game runs
//! ([`BankProblem::Fixed`]). A reload is checked as a bank is added and
//! changes nothing when anything is wrong; the mixer takes it without a heap
//! call, and recordings it replaces are freed on the game thread once no
//! voice plays them.
//!
//! ```
//! use pool_audio::data::SoundBank;
//! use pool_audio::kira::{AudioManager, AudioManagerSettings};
//! use pool_audio::loader::FileLoader;
//! use pool_audio::{linear_fade, OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings};
//! # const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets");
//!
//! let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
//! let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
//! let mut files = FileLoader::new(ASSETS);
//! let rain = |level: f32| SoundBank::from_ron("ambience.bank.ron", &format!(
//!     r#"(sounds: {{ "rain": (recordings: ["sounds/level/waterfall.wav"], looping: true, first_volume: {level}) }})"#,
//! ));
//! sfx.add_bank(&rain(-20.0)?, &mut files, None)?;
//! sfx.play(sfx.sound("rain").unwrap(), PlayParams::default())?;
//! sfx.update(1.0 / 60.0)?;
//! let mut level = |seconds| -> Result<f32, pool_audio::offline::OfflineError> {
//!     let audio = manager.backend_mut().render(seconds)?;
//!     let sum: f32 = audio.samples().iter().map(|s| s * s).sum();
//!     Ok((sum / audio.samples().len() as f32).sqrt())
//! };
//! let quiet = level(1.0)?;
//! // The designer raises the rain 6 dB: it glides there over 0.2 s.
//! let fade = linear_fade(std::time::Duration::from_millis(200));
//! let reloaded = sfx.reload_bank(&rain(-14.0)?, &mut files, None, fade)?;
//! assert_eq!(reloaded.changed, 1);
//! sfx.update(1.0 / 60.0)?;
//! level(0.3)?;
//! let louder = level(1.0)?;
//! assert!((20.0 * (louder / quiet).log10() - 6.0).abs() < 0.5, "{quiet} to {louder}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Inside
//! Reading a bank parses the text into its schema (`data/schema.rs`) with
//! `ron` and serde; a syntax or type error is placed by ron. Adding it loads
//! every recording, then *rehearses*: the whole bank is added to a scratch
//! manager with the same settings, holding stand-ins for what the bank names
//! from the game's manager, through the same calls a game makes. Only when
//! the rehearsal succeeds is the bank added to the game's manager. Every
//! check is the one the code path makes; an error's path is found in the text
//! by a small reader of RON's shape (`data/locate.rs`) to give its line and
//! column. A reload compares the new text with the old: it rehearses the
//! sounds that are new or changed and every new declaration, on a scratch
//! manager holding stand-ins for the rest; a changed sound then gets a new
//! entry and new recordings under its id, its live voices are told their
//! new volume and rate, and the voice bank one new budget for its voices
//! (whose copy levels ramp to it); its old recordings are kept on the game
//! side until no slot of the mixer plays them.

pub(crate) mod adding;
mod effects;
mod error;
mod locate;
pub(crate) mod schema;

use std::path::Path;

pub use error::{BankError, BankProblem};
pub(crate) use locate::Path as ValuePath;

use locate::Values;
use schema::BankFile;

/// What a [`reload_bank`](crate::SoundEffects::reload_bank) changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Reloaded {
    /// Sounds the new text adds.
    pub added: usize,
    /// Sounds whose settings or recordings it changes.
    pub changed: usize,
    /// Sounds it leaves out, removed.
    pub removed: usize,
}

/// The largest bank file read: 4 MiB.
pub const MAX_BANK_BYTES: u64 = 4 << 20;

/// A sound bank, read and parsed (see the [module](self)). Add it to a
/// manager with [`SoundEffects::add_bank`](crate::SoundEffects::add_bank).
#[derive(Debug, Clone, PartialEq)]
pub struct SoundBank {
    file: String,
    text: String,
    pub(crate) bank: BankFile,
    /// Recording files changed since the bank was last added or reloaded
    /// (see [`SoundBank::file_changed`]).
    pub(crate) changed_files: Vec<String>,
}

impl SoundBank {
    /// The bank written in `text`, read from a file named `file` (for
    /// errors).
    ///
    /// # Errors
    /// [`BankProblem::Syntax`] where the text is not a bank, or
    /// [`BankProblem::TooLarge`].
    ///
    /// ```
    /// use pool_audio::data::SoundBank;
    ///
    /// let bank = SoundBank::from_ron("ui.ron", r#"(sounds: { "click": (recordings: ["ui/click.wav"]) })"#)?;
    /// assert_eq!(bank.sounds().collect::<Vec<_>>(), ["click"]);
    /// let typo = SoundBank::from_ron("ui.ron", r#"(sounds: { "click": (recording: ["ui/click.wav"]) })"#);
    /// assert_eq!(typo.unwrap_err().path, "sounds.click.recording");
    /// # Ok::<(), pool_audio::data::BankError>(())
    /// ```
    pub fn from_ron(file: &str, text: &str) -> Result<Self, BankError> {
        if text.len() as u64 > MAX_BANK_BYTES {
            return Err(BankError {
                file: file.into(),
                line: 0,
                column: 0,
                path: String::new(),
                value: String::new(),
                problem: BankProblem::TooLarge(text.len() as u64),
            });
        }
        let options = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        match options.from_str::<BankFile>(text) {
            Ok(bank) => Ok(Self {
                file: file.into(),
                text: text.into(),
                bank,
                changed_files: Vec::new(),
            }),
            Err(error) => {
                let start = error.span.start;
                // ron places some errors on the space before the value.
                let at = locate::offset(text, start.line, start.col);
                let at = at + text[at..].len() - text[at..].trim_start().len();
                let values = Values::of(text);
                let path = values.path_at(at);
                Err(place(
                    file,
                    text,
                    &values,
                    &path,
                    BankProblem::Syntax(error.code.to_string()),
                ))
            }
        }
    }

    /// The bank in the file at `path`.
    ///
    /// # Errors
    /// [`BankProblem::Io`], [`BankProblem::TooLarge`], and
    /// [`from_ron`](Self::from_ron)'s errors.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Self, BankError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let io = |problem| BankError {
            file: name.clone(),
            line: 0,
            column: 0,
            path: String::new(),
            value: String::new(),
            problem,
        };
        let size = std::fs::metadata(path)
            .map_err(|e| io(BankProblem::Io(e.to_string())))?
            .len();
        if size > MAX_BANK_BYTES {
            return Err(io(BankProblem::TooLarge(size)));
        }
        let text = std::fs::read_to_string(path).map_err(|e| io(BankProblem::Io(e.to_string())))?;
        Self::from_ron(&name, &text)
    }

    /// The bank written out as RON, every field given: reading it back gives
    /// an equal bank.
    ///
    /// ```
    /// use pool_audio::data::SoundBank;
    ///
    /// let bank = SoundBank::from_ron("a.ron", r#"(sounds: { "click": (recordings: ["click.wav"], max_voices: 2) })"#)?;
    /// let again = SoundBank::from_ron("b.ron", &bank.to_ron())?;
    /// assert_eq!(again.sounds().collect::<Vec<_>>(), ["click"]);
    /// assert!(bank.same_as(&again));
    /// # Ok::<(), pool_audio::data::BankError>(())
    /// ```
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::default().struct_names(false);
        // Every field is a plain number, string, list or map: nothing to refuse.
        ron::ser::to_string_pretty(&self.bank, config).unwrap_or_default()
    }

    /// Whether `other` holds the same settings (whatever file and text they
    /// came from).
    pub fn same_as(&self, other: &Self) -> bool {
        self.bank == other.bank
    }

    /// The file it was read from, as named.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The names of its sounds, in the file's order.
    pub fn sounds(&self) -> impl Iterator<Item = &str> {
        self.bank.sounds.iter().map(|(name, _)| name)
    }

    /// Marks the recording file `file` as changed on disk since the bank
    /// was added or last reloaded: the next
    /// [`reload_bank`](crate::SoundEffects::reload_bank) of this bank loads
    /// it again for every sound that plays it, as for a sound whose text
    /// changed, even if the text did not (an asset loader that sees a
    /// recording change calls it).
    ///
    /// ```
    /// use pool_audio::data::SoundBank;
    ///
    /// let mut bank = SoundBank::from_ron("steps.ron", r#"(sounds: { "step": (recordings: ["steps/1.wav"]) })"#)?;
    /// bank.file_changed("steps/1.wav");
    /// assert_eq!(bank.changed_files().collect::<Vec<_>>(), ["steps/1.wav"]);
    /// # Ok::<(), pool_audio::data::BankError>(())
    /// ```
    pub fn file_changed(&mut self, file: &str) {
        if !self.changed_files.iter().any(|f| f == file) {
            self.changed_files.push(file.to_string());
        }
    }

    /// The recording files marked changed (see
    /// [`file_changed`](Self::file_changed)).
    pub fn changed_files(&self) -> impl Iterator<Item = &str> {
        self.changed_files.iter().map(String::as_str)
    }

    /// Every recording file its sounds name (each once, in the file's
    /// order), as the loader is asked for them (paths under its root): what
    /// a game preloads, or an asset loader reads with the bank.
    ///
    /// ```
    /// use pool_audio::data::SoundBank;
    ///
    /// let bank = SoundBank::from_ron("steps.ron", r#"(sounds: {
    ///     "step": (recordings: ["steps/1.wav", (file: "steps/2.wav", weight: 2.0)]),
    ///     "land": (recordings: ["steps/2.wav"]),
    /// })"#)?;
    /// assert_eq!(bank.files().collect::<Vec<_>>(), ["steps/1.wav", "steps/2.wav"]);
    /// # Ok::<(), pool_audio::data::BankError>(())
    /// ```
    pub fn files(&self) -> impl Iterator<Item = &str> {
        let all = (self.bank.sounds.iter()).flat_map(|(_, s)| s.recordings.iter());
        let mut seen = std::collections::HashSet::new();
        all.map(|r| r.file.as_str())
            .filter(move |f| seen.insert(*f))
    }

    /// The zone named `name`, its bus resolved in `sfx`, for the game to
    /// place with [`MixMut::add_zone`](crate::mix::MixMut::add_zone)
    /// (moving its shape to where the level has it).
    ///
    /// # Errors
    /// [`BankProblem::Unknown`] for a zone or bus that is not there.
    pub fn zone(
        &self,
        name: &str,
        sfx: &crate::SoundEffects,
    ) -> Result<crate::mix::ZoneSettings, BankError> {
        let path = ValuePath::default().key("zones").key(name);
        let Some(zone) = self.bank.zones.get(name) else {
            let name = name.into();
            return Err(self.error(&path, BankProblem::Unknown { what: "zone", name }));
        };
        let bus = sfx.mix().track(&zone.bus).map_err(|_| {
            let name = zone.bus.clone();
            self.error(&path.key("bus"), BankProblem::Unknown { what: "bus", name })
        })?;
        let mut settings =
            crate::mix::ZoneSettings::new(zone.shape, bus).follows_listener(zone.follows_listener);
        if let Some(level) = zone.level {
            settings = settings.level(level);
        }
        if let Some(fade) = zone.fade {
            settings = settings.fade(fade);
        }
        Ok(settings)
    }

    /// The piece of music named `name`: its file (a key for the loader's
    /// [`music`](crate::loader::SoundLoader::music)) and how it plays, for
    /// [`Music::play`](crate::music::Music::play).
    ///
    /// # Errors
    /// [`BankProblem::Unknown`], or [`BankProblem::Number`] for a time that
    /// is negative or not finite.
    pub fn piece(&self, name: &str) -> Result<(&str, crate::music::MusicParams), BankError> {
        let path = ValuePath::default().key("music").key("pieces").key(name);
        let Some(piece) = self.bank.music.pieces.get(name) else {
            let name = name.into();
            return Err(self.error(
                &path,
                BankProblem::Unknown {
                    what: "piece",
                    name,
                },
            ));
        };
        let time = |field: &str, seconds: f64| {
            std::time::Duration::try_from_secs_f64(seconds).map_err(|_| {
                let message = format!("{seconds} is not a time in seconds (at least 0, finite)");
                self.error(&path.key(field), BankProblem::Number(message))
            })
        };
        let mut params = crate::music::MusicParams::default()
            .fade(crate::linear_fade(time("fade", piece.fade)?))
            .start_at(time("start_at", piece.start_at)?);
        if let Some(from) = piece.loop_from {
            params = params.loop_from(time("loop_from", from)?);
        }
        Ok((&piece.file, params))
    }

    /// The same file and text, holding `bank` (a part of this one).
    pub(crate) fn with(&self, bank: BankFile) -> Self {
        Self {
            file: self.file.clone(),
            text: self.text.clone(),
            bank,
            changed_files: self.changed_files.clone(),
        }
    }

    /// An error about the value at `path`, placed in the text.
    pub(crate) fn error(&self, path: &ValuePath, problem: BankProblem) -> BankError {
        place(
            &self.file,
            &self.text,
            &Values::of(&self.text),
            path,
            problem,
        )
    }
}

/// An error about the value at `path` of `text`, with its line, column and
/// text (or the nearest enclosing value's, for a field left out).
fn place(
    file: &str,
    text: &str,
    values: &Values,
    path: &ValuePath,
    problem: BankProblem,
) -> BankError {
    let mut found = path.clone();
    let span = loop {
        if let Some(span) = values.span(&found) {
            break Some(span);
        }
        if found.0.pop().is_none() {
            break None;
        }
    };
    let (line, column, value) = match span {
        Some((start, end)) => {
            let (line, column) = locate::line_column(text, start);
            let written: String = text
                .get(start..end)
                .unwrap_or("")
                .chars()
                .take(81)
                .collect();
            let value = if written.chars().count() > 80 {
                format!("{}...", written.chars().take(77).collect::<String>())
            } else {
                written
            };
            (
                line,
                column,
                if found == *path { value } else { String::new() },
            )
        }
        None => (0, 0, String::new()),
    };
    BankError {
        file: file.into(),
        line,
        column,
        path: path.to_string(),
        value,
        problem,
    }
}

#[cfg(test)]
mod tests {
    /// The format shown in the module's documentation is a bank.
    #[test]
    fn the_documented_format_reads() {
        let source = include_str!("data.rs");
        let start = source.find("//! ```ron\n").unwrap() + "//! ```ron\n".len();
        let end = start + source[start..].find("//! ```\n").unwrap();
        let text: String = source[start..end]
            .lines()
            .map(|line| line.trim_start_matches("//!").trim_start_matches(' '))
            .collect::<Vec<_>>()
            .join("\n");
        let bank = super::SoundBank::from_ron("doc.ron", &text).unwrap();
        assert_eq!(bank.sounds().collect::<Vec<_>>(), ["laser", "footstep"]);
    }
}

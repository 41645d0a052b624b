//! A bank's errors: each names the file, the line and column, the field's
//! path and the value as written, and says what was wrong.

use std::fmt;

use crate::error::{AddGroupError, AddSoundError};
use crate::loader::LoadError;
use crate::mix::MixError;
use crate::music::MusicError;

/// What was wrong with a sound bank, and where. Adding a bank that gives one
/// changes nothing.
///
/// ```
/// use pool_audio::data::{BankProblem, SoundBank};
///
/// let text = "(\n    sounds: {\n        \"laser\": (recordings: [\"laser.wav\"], max_voices: -3),\n    },\n)";
/// let error = SoundBank::from_ron("sfx.ron", text).unwrap_err();
/// assert_eq!((error.line, error.column), (3, 58));
/// assert_eq!(error.path, "sounds.laser.max_voices");
/// assert_eq!(error.value, "-3");
/// assert!(matches!(error.problem, BankProblem::Syntax(_)));
/// assert!(error.to_string().starts_with("sfx.ron:3:58: sounds.laser.max_voices = -3: "));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct BankError {
    /// The file, as named when it was read.
    pub file: String,
    /// The line of the value, from 1 (0: not in the text).
    pub line: usize,
    /// The column of the value, from 1, in characters (0: not in the text).
    pub column: usize,
    /// The path of the value: `sounds.laser.max_voices`,
    /// `sounds.laser.recordings[1]` (empty for the whole file).
    pub path: String,
    /// The value as the file writes it (shortened past 80 characters).
    pub value: String,
    /// What was wrong.
    pub problem: BankProblem,
}

/// What was wrong with a value of a bank.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum BankProblem {
    /// The text is not a bank: a syntax error, a wrong type, a missing or
    /// unknown field (RON's message).
    Syntax(String),
    /// The file could not be read.
    Io(String),
    /// The file is larger than [`MAX_BANK_BYTES`](crate::data::MAX_BANK_BYTES).
    TooLarge(u64),
    /// A name the bank uses is neither in the bank nor in the manager.
    Unknown {
        /// What the name should name: `"group"`, `"bus"`, `"track"`, ...
        what: &'static str,
        /// The name.
        name: String,
    },
    /// A name the bank declares is already taken in the manager.
    Taken {
        /// What the name names.
        what: &'static str,
        /// The name.
        name: String,
    },
    /// A bus's parent comes later in the bank, or is itself.
    ParentLater(String),
    /// The bank declares music tracks, but no [`Music`](crate::music::Music)
    /// was given to add them to.
    NoMusic,
    /// A recording's file did not load.
    Load(LoadError),
    /// A sound's settings or recordings were refused.
    Sound(AddSoundError),
    /// A group's settings were refused.
    Group(AddGroupError),
    /// A bus, duck, snapshot or zone was refused.
    Mix(MixError),
    /// A music track was refused.
    Music(MusicError),
    /// A switch, or a sound's states, were refused.
    Switch(crate::sound::SwitchError),
    /// A game parameter or a curve was refused.
    GameParam(crate::game::GameParamError),
    /// A number is not a number, or out of its range.
    Number(String),
    /// The scratch manager a bank is rehearsed on could not be made.
    Scratch(String),
    /// A reloaded bank's file was never added to the manager.
    NotAdded,
    /// A reload changes or leaves out what a running game cannot change:
    /// what, such as `"a group"`.
    Fixed(&'static str),
    /// The voice bank's queue has no room for a reload's changes this
    /// frame: reload again after the next update.
    Busy,
}

impl fmt::Display for BankProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax(message) => f.write_str(message),
            Self::Io(message) => write!(f, "cannot read the file: {message}"),
            Self::TooLarge(bytes) => write!(
                f,
                "{bytes} bytes: a bank holds at most {} bytes",
                crate::data::MAX_BANK_BYTES
            ),
            Self::Unknown { what, name } => {
                write!(f, "no {what} {name:?} in the bank or the manager")
            }
            Self::Taken { what, name } => write!(f, "the manager has a {what} {name:?} already"),
            Self::ParentLater(name) => write!(
                f,
                "bus {name:?} is not declared before this one: a parent comes first"
            ),
            Self::NoMusic => f.write_str("the bank has music tracks: add it with the game's Music"),
            Self::Load(error) => write!(f, "{error}"),
            Self::Sound(error) => write!(f, "{error}"),
            Self::Group(error) => write!(f, "{error}"),
            Self::Mix(error) => write!(f, "{error}"),
            Self::Music(error) => write!(f, "{error}"),
            Self::Switch(error) => write!(f, "{error}"),
            Self::GameParam(error) => write!(f, "{error}"),
            Self::Number(message) => f.write_str(message),
            Self::Scratch(message) => write!(f, "cannot rehearse the bank: {message}"),
            Self::NotAdded => f.write_str("no bank of this file was added: add it first"),
            Self::Fixed(what) => write!(
                f,
                "a reload cannot change or leave out {what}: add the bank to a new manager"
            ),
            Self::Busy => f.write_str(
                "the voice bank's queue is full this frame: reload after the next update",
            ),
        }
    }
}

impl fmt::Display for BankError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        match (self.path.is_empty(), self.value.is_empty()) {
            (false, false) => write!(f, "{} = {}: ", self.path, self.value)?,
            (false, true) => write!(f, "{}: ", self.path)?,
            _ => {}
        }
        write!(f, "{}", self.problem)
    }
}

impl std::error::Error for BankError {}

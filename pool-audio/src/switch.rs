//! Switches: a named value with named states (the surface under a footstep:
//! grass, stone, wood) that picks which of a sound's recordings a play plays,
//! as Wwise's switch containers do. A sound of a switch has each recording in
//! one state; a play picks among the recordings of the switch's current state
//! (the game's, or the play's own), with the sound's pick rules inside that
//! state's recordings. To the picker, a state is a set of recordings.

use std::fmt;

/// The most switches a manager holds.
pub const MAX_SWITCHES: usize = 64;
/// The most states a switch has.
pub const MAX_STATES: usize = 64;

/// A switch of a manager, from
/// [`SoundEffects::add_switch`](crate::SoundEffects::add_switch); valid only
/// with the manager that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SwitchId {
    pub(crate) index: u32,
    pub(crate) owner: u32,
}

/// One state of one switch, for a play that names its own
/// ([`PlayParams::state`](crate::PlayParams::state)): the footstep of a
/// character on stone while the game's switch says grass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SwitchState {
    pub(crate) switch: SwitchId,
    pub(crate) state: u16,
}

impl SwitchState {
    /// The switch it is a state of.
    pub fn switch(&self) -> SwitchId {
        self.switch
    }
}

/// Why a switch, a state or a sound's states were refused; nothing changed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SwitchError {
    /// The manager has a switch of that name already.
    DuplicateName(String),
    /// A switch needs at least one state.
    NoStates,
    /// More than [`MAX_STATES`] states.
    TooManyStates(usize),
    /// A state named twice.
    DuplicateState(String),
    /// The manager holds [`MAX_SWITCHES`] switches already.
    TooMany,
    /// The switch is not one of this manager's.
    Unknown,
    /// The switch has no state of that name.
    UnknownState(String),
    /// A recording of a sound of a switch names no state.
    NoState {
        /// Which recording.
        recording: usize,
    },
    /// A sound gives states to its recordings but names no switch.
    NoSwitch,
    /// A state of the sound's switch has no recording that can be picked
    /// (of weight above 0).
    EmptyState(String),
}

impl fmt::Display for SwitchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DuplicateName(name) => write!(f, "the manager has a switch {name:?} already"),
            Self::NoStates => f.write_str("a switch needs at least one state"),
            Self::TooManyStates(n) => write!(f, "{n} states: a switch has at most {MAX_STATES}"),
            Self::DuplicateState(name) => write!(f, "state {name:?} is named twice"),
            Self::TooMany => write!(f, "a manager holds at most {MAX_SWITCHES} switches"),
            Self::Unknown => f.write_str("not a switch of this manager"),
            Self::UnknownState(name) => write!(f, "the switch has no state {name:?}"),
            Self::NoState { recording } => {
                write!(
                    f,
                    "recording {recording} names no state of the sound's switch"
                )
            }
            Self::NoSwitch => {
                f.write_str("the recordings have states but the sound names no switch")
            }
            Self::EmptyState(name) => write!(f, "state {name:?} has no recording to pick"),
        }
    }
}

impl std::error::Error for SwitchError {}

/// A sound's switch (by index) and the recordings of each of its states,
/// as sets (recording `i` is bit `i`).
pub(crate) type StateSets = (u32, Box<[u64]>);

/// One switch on the game side.
#[derive(Debug, Clone)]
struct Switch {
    name: String,
    states: Vec<String>,
    current: u16,
}

/// The switches of a manager.
#[derive(Debug, Clone)]
pub(crate) struct Switches {
    owner: u32,
    list: Vec<Switch>,
}

impl Switches {
    pub(crate) fn new(owner: u32) -> Self {
        Self {
            owner,
            list: Vec::new(),
        }
    }

    /// Adds a switch of `states`, the first one current.
    pub(crate) fn add(&mut self, name: &str, states: &[&str]) -> Result<SwitchId, SwitchError> {
        if self.list.iter().any(|s| s.name == name) {
            return Err(SwitchError::DuplicateName(name.into()));
        }
        if states.is_empty() {
            return Err(SwitchError::NoStates);
        }
        if states.len() > MAX_STATES {
            return Err(SwitchError::TooManyStates(states.len()));
        }
        if let Some((i, _)) = (states.iter().enumerate()).find(|(i, s)| states[..*i].contains(s)) {
            return Err(SwitchError::DuplicateState(states[i].into()));
        }
        if self.list.len() >= MAX_SWITCHES {
            return Err(SwitchError::TooMany);
        }
        self.list.push(Switch {
            name: name.into(),
            states: states.iter().map(|s| s.to_string()).collect(),
            current: 0,
        });
        Ok(SwitchId {
            index: self.list.len() as u32 - 1,
            owner: self.owner,
        })
    }

    fn get(&self, id: SwitchId) -> Result<&Switch, SwitchError> {
        (id.owner == self.owner)
            .then(|| self.list.get(id.index as usize))
            .flatten()
            .ok_or(SwitchError::Unknown)
    }

    /// The switch named `name`.
    pub(crate) fn find(&self, name: &str) -> Option<SwitchId> {
        let index = self.list.iter().position(|s| s.name == name)?;
        Some(SwitchId {
            index: index as u32,
            owner: self.owner,
        })
    }

    /// State `state` of switch `id`.
    pub(crate) fn state(&self, id: SwitchId, state: &str) -> Result<SwitchState, SwitchError> {
        let index = (self.get(id)?.states.iter())
            .position(|s| s == state)
            .ok_or_else(|| SwitchError::UnknownState(state.into()))?;
        Ok(SwitchState {
            switch: id,
            state: index as u16,
        })
    }

    /// Makes `state` its switch's current state.
    pub(crate) fn set(&mut self, state: SwitchState) -> Result<(), SwitchError> {
        self.get(state.switch)?;
        self.list[state.switch.index as usize].current = state.state;
        Ok(())
    }

    /// The states of switch `id` (none for another manager's).
    pub(crate) fn states(&self, id: SwitchId) -> Vec<String> {
        self.get(id).map(|s| s.states.clone()).unwrap_or_default()
    }

    /// The current state of switch `id`, by name.
    pub(crate) fn current(&self, id: SwitchId) -> Result<&str, SwitchError> {
        let switch = self.get(id)?;
        Ok(&switch.states[usize::from(switch.current)])
    }

    /// The recordings of each state of switch `id`, as sets (recording `i`
    /// is bit `i`), from each recording's state name.
    pub(crate) fn sets(
        &self,
        id: SwitchId,
        states: &[Option<&str>],
        weights: impl Iterator<Item = f64>,
    ) -> Result<Box<[u64]>, SwitchError> {
        let switch = self.get(id)?;
        let mut sets = vec![0u64; switch.states.len()];
        let mut pickable = vec![false; switch.states.len()];
        for ((recording, state), weight) in states.iter().enumerate().zip(weights) {
            let state = state.ok_or(SwitchError::NoState { recording })?;
            let index = (switch.states.iter())
                .position(|s| s == state)
                .ok_or_else(|| SwitchError::UnknownState(state.into()))?;
            sets[index] |= 1 << recording;
            pickable[index] |= weight > 0.0;
        }
        if let Some(empty) = pickable.iter().position(|p| !p) {
            return Err(SwitchError::EmptyState(switch.states[empty].clone()));
        }
        Ok(sets.into())
    }

    /// Which recordings a play of a sound of switch `switch` (by index) may
    /// pick: its own state's, or the switch's current state's.
    #[inline]
    pub(crate) fn set_for(
        &self,
        (switch, sets): (u32, &[u64]),
        own: Option<SwitchState>,
    ) -> Result<u64, SwitchError> {
        let state = match own {
            Some(own) if own.switch.owner == self.owner && own.switch.index == switch => own.state,
            Some(_) => return Err(SwitchError::Unknown),
            None => self.list.get(switch as usize).map_or(0, |s| s.current),
        };
        Ok(sets.get(usize::from(state)).copied().unwrap_or(u64::MAX))
    }
}

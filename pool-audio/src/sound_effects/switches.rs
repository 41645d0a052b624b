//! The switches of a manager (see `switch.rs`): adding one, setting its
//! state, and the recordings of each state of a sound of a switch.

use super::SoundEffects;
use crate::error::AddSoundError;
use crate::sound::{Recordings, SwitchError, SwitchId, SwitchState};

impl SoundEffects {
    /// Adds a switch named `name` of `states` (the surface under a footstep:
    /// `["grass", "stone", "wood"]`), the first one current. A sound of the
    /// switch ([`SoundSettings::switch`](crate::SoundSettings::switch)) has
    /// each recording in one of its states
    /// ([`Recordings::for_state`](crate::sound::Recordings::for_state)), and
    /// a play picks among the recordings of the current state, with the
    /// sound's pick rules inside them.
    ///
    /// # Errors
    /// [`SwitchError::DuplicateName`], [`SwitchError::NoStates`],
    /// [`SwitchError::TooManyStates`], [`SwitchError::DuplicateState`],
    /// [`SwitchError::TooMany`]; nothing is added.
    ///
    /// ```
    /// # use pool_audio::kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// use pool_audio::loader::{FileLoader, SoundLoader};
    /// use pool_audio::sound::{Pick, Recordings};
    /// # const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets");
    ///
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let surface = sfx.add_switch("surface", &["grass", "stone"])?;
    /// let mut files = FileLoader::new(ASSETS);
    /// let steps = Recordings::new()
    ///     .for_state("grass", files.load("sounds/step_1.wav")?, 1.0)
    ///     .for_state("grass", files.load("sounds/step_2.wav")?, 1.0)
    ///     .for_state("stone", files.load("sounds/step_3.wav")?, 1.0);
    /// let settings = SoundSettings::default().switch(surface).pick(Pick::Shuffle);
    /// let step = sfx.add_sound("footstep", steps, settings)?;
    ///
    /// sfx.set_switch(surface, "stone")?;
    /// assert_eq!(sfx.switch_current(surface)?, "stone");
    /// sfx.play(step, PlayParams::default())?; // the stone take
    /// // Another character, still on grass.
    /// let grass = sfx.switch_state(surface, "grass")?;
    /// sfx.play(step, PlayParams::default().state(grass))?;
    /// assert!(sfx.set_switch(surface, "sand").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_switch(&mut self, name: &str, states: &[&str]) -> Result<SwitchId, SwitchError> {
        self.switches.add(name, states)
    }

    /// The switch named `name`.
    pub fn switch(&self, name: &str) -> Option<SwitchId> {
        self.switches.find(name)
    }

    /// State `state` of `switch`, for a play of its own
    /// ([`PlayParams::state`](crate::PlayParams::state)). Resolve it once.
    ///
    /// # Errors
    /// [`SwitchError::Unknown`], [`SwitchError::UnknownState`].
    pub fn switch_state(&self, switch: SwitchId, state: &str) -> Result<SwitchState, SwitchError> {
        self.switches.state(switch, state)
    }

    /// Makes `state` the current state of `switch`: the next plays of its
    /// sounds pick among that state's recordings (voices playing go on).
    ///
    /// # Errors
    /// [`SwitchError::Unknown`], [`SwitchError::UnknownState`]; nothing
    /// changes.
    pub fn set_switch(&mut self, switch: SwitchId, state: &str) -> Result<(), SwitchError> {
        let state = self.switches.state(switch, state)?;
        self.switches.set(state)?;
        self.note(|_| Some(crate::capture::What::Switch(state)));
        Ok(())
    }

    /// The current state of `switch`.
    ///
    /// # Errors
    /// [`SwitchError::Unknown`].
    pub fn switch_current(&self, switch: SwitchId) -> Result<&str, SwitchError> {
        self.switches.current(switch)
    }

    /// The switch of a sound about to be added and the recordings of each
    /// of its states (`None` for a sound of no switch).
    pub(super) fn switch_sets(
        &self,
        recordings: &Recordings,
        settings: &crate::SoundSettings,
    ) -> Result<Option<crate::switch::StateSets>, AddSoundError> {
        let Some(switch) = settings.switch else {
            if recordings.states.is_empty() {
                return Ok(None);
            }
            return Err(AddSoundError::Switch(SwitchError::NoSwitch));
        };
        let states: Vec<Option<&str>> =
            (0..recordings.len()).map(|i| recordings.state(i)).collect();
        let weights = recordings.list.iter().map(|(_, w)| *w);
        let sets = (self.switches.sets(switch, &states, weights)).map_err(AddSoundError::Switch)?;
        Ok(Some((switch.index, sets)))
    }
}

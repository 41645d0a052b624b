//! The ids and handles a manager hands out, and what it says about a voice: its
//! state, what a play did, why it ended.

use std::sync::atomic::{AtomicU32, Ordering};

pool_core::new_handle_type! {
    /// The voice pool's own key.
    pub(crate) struct VoiceKey;
}

/// Which [`SoundEffects`](crate::SoundEffects) issued an id: ids and handles carry
/// it, so one manager refuses another's instead of acting on its own sound.
pub(crate) fn next_owner() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A handle to a playing voice: generational, so once the voice ends, is stolen or
/// is stopped, the handle is stale and can never touch the voice's next sound; and
/// tagged with its manager, so another manager refuses it.
///
/// ```
/// assert_eq!(std::mem::size_of::<pool_audio::VoiceHandle>(), 12);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct VoiceHandle {
    pub(crate) key: VoiceKey,
    pub(crate) owner: u32,
}

impl std::fmt::Debug for VoiceHandle {
    /// As the voice table and a capture name it: `VoiceHandle(4294967297)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "VoiceHandle({})", self.number())
    }
}

impl VoiceHandle {
    /// Its number: unique among its manager's voices in the session, the
    /// voice's name in a capture and in the voice table.
    pub fn number(self) -> u64 {
        use pool_core::Key;
        self.key.data().as_ffi()
    }
}

/// A sound registered with [`SoundEffects`](crate::SoundEffects): a small id,
/// resolved from its name once, valid only with the manager that issued it and
/// only until the sound is removed
/// ([`remove_sound`](crate::SoundEffects::remove_sound)): a sound added later in
/// the same place of the manager's table gets another id, and the old one stays
/// stale.
///
/// ```
/// # use pool_audio::SoundId;
/// fn takes(sound: SoundId) -> usize { sound.index() }
/// assert_eq!(std::mem::size_of::<SoundId>(), 12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SoundId {
    pub(crate) index: u32,
    /// How many sounds held this place of the table before it.
    pub(crate) generation: u32,
    pub(crate) owner: u32,
}

impl SoundId {
    /// Its place in the manager's table of sounds: sounds added without any
    /// removed are numbered in the order they were added; a removed sound's place
    /// is given to a later one (with a new id). Good for an array beside the
    /// manager's sounds, whose entry the game overwrites when a new sound takes
    /// the place.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings, Tween};
    /// # use pool_audio::{OfflineBackend, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::ZERO; 48].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let first = sfx.add_sound("click", click.clone(), SoundSettings::default())?;
    /// let second = sfx.add_sound("clack", click.clone(), SoundSettings::default())?;
    /// assert_eq!((first.index(), second.index()), (0, 1));
    /// sfx.remove_sound(first, Tween::default())?;
    /// let third = sfx.add_sound("clonk", click, SoundSettings::default())?;
    /// assert_eq!(third.index(), 0);
    /// assert_ne!(third, first);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn index(self) -> usize {
        self.index as usize
    }

    /// The voice bank's name for the sound: unique among every sound the
    /// manager ever held, so voices of a removed sound still fading out never
    /// share a budget with a sound added in its place.
    pub(crate) fn bank_key(self) -> u64 {
        (u64::from(self.generation) << 32) | u64::from(self.index)
    }
}

/// A voice group added with [`SoundEffects::add_group`](crate::SoundEffects::add_group):
/// a small id, valid only with the manager that issued it.
///
/// ```
/// assert_eq!(std::mem::size_of::<pool_audio::GroupId>(), 8);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GroupId {
    pub(crate) index: u32,
    pub(crate) owner: u32,
}

/// What a voice is doing now, from [`SoundEffects::state`](crate::SoundEffects::state).
///
/// ```
/// use pool_audio::VoiceState;
/// assert!(VoiceState::Virtual.is_live() && !VoiceState::Gone.is_live());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum VoiceState {
    /// Mixed by the voice bank: heard.
    Real,
    /// Tracked but not mixed: its playhead runs on, and it becomes real again when
    /// it is among the most audible voices.
    Virtual,
    /// Paused by the game (real or virtual); it keeps its place.
    Paused,
    /// Real, fading towards a pause or back from one.
    Fading,
    /// Ended, stopped, stolen, recycled, dropped, its sound removed, or another
    /// manager's handle: the handle is stale.
    Gone,
}

impl VoiceState {
    /// `true` unless [`Gone`](Self::Gone).
    ///
    /// ```
    /// assert!(pool_audio::VoiceState::Paused.is_live());
    /// ```
    pub fn is_live(self) -> bool {
        self != Self::Gone
    }
}

/// What a play did, from [`SoundEffects::play_detailed`](crate::SoundEffects::play_detailed).
///
/// ```
/// # use kira::{AudioManager, AudioManagerSettings};
/// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings, VoiceState};
/// # let click = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 480].into(), settings: Default::default(), slice: None };
/// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
/// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
/// let id = sfx.add_sound("click", click, SoundSettings::default())?;
/// let played = sfx.play_detailed(id, PlayParams::default())?;
/// assert_eq!((played.state, played.displaced), (VoiceState::Real, None));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Played {
    /// The new voice.
    pub voice: VoiceHandle,
    /// [`VoiceState::Real`] or [`VoiceState::Virtual`].
    pub state: VoiceState,
    /// The voice that gave up its place for it, if any, and what became of it:
    /// [`VoiceState::Virtual`] (it virtualizes) or [`VoiceState::Gone`] (stopped
    /// with the steal fade, recycled, taken over, or a virtual voice dropped
    /// because the virtual voices were all taken).
    pub displaced: Option<(VoiceHandle, VoiceState)>,
}

/// Why a voice ended: its handle is stale from then on.
///
/// ```
/// use pool_audio::EndReason;
/// assert_ne!(EndReason::Finished, EndReason::Stopped);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EndReason {
    /// It played to its end (a one-shot, real or virtual).
    Finished,
    /// The game stopped it (`stop`, `stop_sound`, `stop_all`).
    Stopped,
    /// Its sound's copies were all playing and a new copy took its place
    /// (`WhenFull::RecycleOldest`).
    Recycled,
    /// A cap was reached, a more audible voice took its place, or it fell
    /// under the loudness window, and its sound does not virtualize.
    Stolen,
    /// Newer copies of its sound took its room: its sound's copy budget could
    /// no longer keep it at or above the audibility floor (see
    /// [`SoundInfo::copies_kept`](crate::SoundInfo::copies_kept)). It
    /// faded out over the steal fade, as its level was settling to nothing.
    Crowded,
    /// It was virtual, and every virtual voice was taken: the least audible one
    /// gave its record up for a new play.
    Dropped,
    /// Its sound was removed
    /// ([`remove_sound`](crate::SoundEffects::remove_sound)).
    Removed,
}

/// A voice that ended, as [`SoundEffects::ended`](crate::SoundEffects::ended)
/// reports it once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ended {
    /// Its (now stale) handle.
    pub voice: VoiceHandle,
    /// Its sound.
    pub sound: SoundId,
    /// Why it ended.
    pub reason: EndReason,
}

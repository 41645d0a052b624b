//! What a profiler overlay shows about sound effects.

/// Counters and levels of a [`SoundEffects`](crate::SoundEffects).
///
/// ```
/// # use pool_audio::SoundEffectsStats;
/// let stats = SoundEffectsStats::default();
/// assert_eq!(stats.real_voices, 0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct SoundEffectsStats {
    /// Real voices now: mixed (or paused) by the voice bank.
    pub real_voices: usize,
    /// Virtual voices now: tracked, not mixed.
    pub virtual_voices: usize,
    /// The most real voices ever at once.
    pub peak_voices: usize,
    /// Stopped, stolen or virtualized voices still fading out in the voice bank.
    pub fading_voices: usize,
    /// Plays that started (or took over) a voice.
    pub plays: u64,
    /// Copies stopped because their sound was at `max_voices` (recycle-oldest).
    pub recycled_copies: u64,
    /// Copies that left because their sound's newer copies took their room:
    /// its budget could no longer keep them at or above the audibility floor
    /// ([`EndReason::Crowded`](crate::EndReason::Crowded), or virtual if the
    /// sound virtualizes; see [`SoundInfo::copies_kept`](crate::SoundInfo::copies_kept)).
    pub crowded_copies: u64,
    /// Voices of killing sounds stolen (ended) because a cap was reached, a
    /// more audible voice took their place, or they fell under the loudness
    /// window.
    pub stolen_voices: u64,
    /// Real voices that went virtual (displaced, or under the audibility floor).
    pub virtualized: u64,
    /// Virtual voices that became real again.
    pub promoted: u64,
    /// Virtual voices dropped because every virtual voice was taken.
    pub dropped_virtual: u64,
    /// Virtual one-shots that ended while virtual.
    pub ended_virtual: u64,
    /// Plays refused: the sound's copies were all playing and it refuses.
    pub refused_sound_limit: u64,
    /// Plays refused: the copies the play's owner may have of the sound were
    /// all playing and it refuses.
    pub refused_owner_limit: u64,
    /// Plays refused: the voice cap was reached and no voice could give way.
    pub refused_voice_cap: u64,
    /// Plays refused: every voice of the voice bank was playing or still fading
    /// out.
    pub refused_no_free_voice: u64,
    /// Plays refused: the sound's group was full and none of its voices could give way.
    pub refused_group_cap: u64,
    /// Plays refused by the retrigger interval.
    pub refused_retrigger: u64,
    /// Copies not started because they would be below the audibility floor.
    pub refused_inaudible: u64,
    /// Copies not started because they would be heard under the loudness
    /// window's bottom.
    pub refused_out_of_window: u64,
    /// Plays refused before anything was decided: an unknown or removed
    /// sound, a parameter out of range, a recording the sound does not have,
    /// or the voice bank refusing.
    pub refused_invalid: u64,
    /// Calls refused, and promotions or virtualizations put off to a later
    /// update, because the voice bank's command queue was full.
    pub queue_full: u64,
    /// Voices that ended without a line in
    /// [`ended`](crate::SoundEffects::ended): one update lists at most
    /// `voice_cap + virtual_voices` ends (and at least 1,024), and never grows
    /// its list.
    pub unreported_ends: u64,
}

impl SoundEffectsStats {
    /// Counts a refused play under its reason.
    pub(crate) fn count_refusal(&mut self, refusal: crate::PlayError) {
        use crate::PlayError;
        let counter = match refusal {
            PlayError::Retrigger => &mut self.refused_retrigger,
            PlayError::Inaudible => &mut self.refused_inaudible,
            PlayError::OutOfWindow => &mut self.refused_out_of_window,
            PlayError::SoundLimit => &mut self.refused_sound_limit,
            PlayError::OwnerLimit => &mut self.refused_owner_limit,
            PlayError::VoiceCap => &mut self.refused_voice_cap,
            PlayError::GroupCap => &mut self.refused_group_cap,
            PlayError::NoFreeVoice => &mut self.refused_no_free_voice,
            PlayError::QueueFull => &mut self.queue_full,
            PlayError::UnknownSound
            | PlayError::InvalidParam(_)
            | PlayError::UnknownRecording(_)
            | PlayError::WrongState
            | PlayError::Backend => &mut self.refused_invalid,
        };
        *counter += 1;
    }

    /// Every refused play but those refused for a full queue: one per
    /// [`PlayError`](crate::PlayError) a play returned. (Plays refused with
    /// [`PlayError::QueueFull`](crate::PlayError::QueueFull) are counted in
    /// [`queue_full`](Self::queue_full), with the other calls a full queue
    /// refused or put off.)
    ///
    /// ```
    /// # use pool_audio::SoundEffectsStats;
    /// assert_eq!(SoundEffectsStats::default().refused(), 0);
    /// ```
    #[must_use]
    pub fn refused(&self) -> u64 {
        self.refused_sound_limit
            + self.refused_owner_limit
            + self.refused_voice_cap
            + self.refused_no_free_voice
            + self.refused_group_cap
            + self.refused_retrigger
            + self.refused_inaudible
            + self.refused_out_of_window
            + self.refused_invalid
    }
}

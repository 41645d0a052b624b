//! Variations: a sound with several recordings, one picked per play, and a
//! pitch and a volume drawn per play, so the hundredth gunshot does not sound
//! like the first.
//!
//! A sound's recordings are picked by weight in one of three orders ([`Pick`]):
//! at random, avoiding the last few picks (Wwise's Random container with
//! "avoid repeating last N", Godot's `PLAYBACK_RANDOM_NO_REPEATS`); shuffled, a
//! round playing every recording once before any repeats (Wwise's Shuffle,
//! FMOD's Shuffle); or in order (FMOD's Sequential). A pitch range in semitones
//! and a volume range in decibels are drawn uniformly per play (FMOD's and
//! Godot's units). The volume range only lowers a recording: the sound's copy
//! budget is solved against its loudest recording at full volume, so the
//! loudest combination of a burst stays inside it; the pitch does not move a
//! peak bound that already holds at every playback rate (see
//! [`SoundPeak`](crate::SoundPeak)).
//!
//! Every draw comes from one seeded generator per manager
//! ([`SoundEffectsSettings::seed`](crate::SoundEffectsSettings::seed)): the same
//! seed and the same calls pick the same recordings at the same pitches and
//! volumes, so a replay or a test renders the same samples.

use kira::sound::static_sound::StaticSoundData;

use crate::MAX_RECORDINGS;
use crate::level::amplitude;
use crate::{MAX_PLAYBACK_RATE, MIN_PLAYBACK_RATE};

/// The recordings of one sound, each with a weight: its odds in each draw of
/// [`Pick::Random`] among the recordings not avoided, and in the order of a
/// [`Pick::Shuffle`] round (0: never, unless a play names it). The long-run
/// shares follow the weights exactly only under `Random { avoid_last: 0 }`:
/// avoiding the last picks pulls them towards equal (1:2:3:4 under the
/// default `avoid_last: 1` gives about .13/.23/.30/.34, measured by a test),
/// and a shuffle plays every recording once a round whatever its weight. One
/// recording converts, and so does a `Vec` or an array of them (each of
/// weight 1). Recordings may differ in length, sample rate, channels and
/// kira settings.
///
/// ```
/// # let shot = |seconds: f64| kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); (seconds * 48_000.0) as usize].into(), settings: Default::default(), slice: None };
/// use pool_audio::sound::Recordings;
///
/// let one: Recordings = shot(0.2).into();
/// let three: Recordings = [shot(0.2), shot(0.25), shot(0.3)].into();
/// let weighted = Recordings::new().with(shot(0.2), 3.0).with(shot(0.4), 1.0);
/// assert_eq!((one.len(), three.len(), weighted.len()), (1, 3, 2));
/// assert_eq!(weighted.weight(0), Some(3.0));
/// ```
#[derive(Debug, Clone, Default)]
pub struct Recordings {
    pub(crate) list: Vec<(StaticSoundData, f64)>,
    /// Each recording's peak, when a sound bank's rehearsal measured them
    /// already (see `sound_effects/banks.rs`); measured when added otherwise.
    pub(crate) peaks: Option<Vec<crate::SoundPeak>>,
    /// The switch state of each recording given one, by index.
    pub(crate) states: Vec<(usize, String)>,
}

impl Recordings {
    /// No recordings yet (a sound needs at least one).
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `data` with `weight` (finite, `>= 0`; checked when the sound is
    /// added).
    #[must_use]
    pub fn with(mut self, data: StaticSoundData, weight: f64) -> Self {
        self.list.push((data, weight));
        self.peaks = None;
        self
    }

    /// Adds `data` with `weight`, in switch state `state` of the sound's
    /// switch ([`SoundSettings::switch`](crate::SoundSettings::switch)): a
    /// play picks it only while that state is the one it plays in.
    ///
    /// ```
    /// # let take = |seconds: f64| kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); (seconds * 48_000.0) as usize].into(), settings: Default::default(), slice: None };
    /// use pool_audio::sound::Recordings;
    ///
    /// let steps = Recordings::new()
    ///     .for_state("grass", take(0.2), 1.0)
    ///     .for_state("grass", take(0.25), 1.0)
    ///     .for_state("stone", take(0.15), 1.0);
    /// assert_eq!(steps.len(), 3);
    /// assert_eq!(steps.state(2), Some("stone"));
    /// ```
    #[must_use]
    pub fn for_state(mut self, state: &str, data: StaticSoundData, weight: f64) -> Self {
        self.states.push((self.list.len(), state.to_string()));
        self.with(data, weight)
    }

    /// The switch state of recording `index`, if it has one.
    pub fn state(&self, index: usize) -> Option<&str> {
        self.states
            .iter()
            .find(|(i, _)| *i == index)
            .map(|(_, s)| s.as_str())
    }

    /// How many recordings there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// `true` if there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The weight of recording `index`.
    pub fn weight(&self, index: usize) -> Option<f64> {
        self.list.get(index).map(|(_, weight)| *weight)
    }
}

impl From<StaticSoundData> for Recordings {
    fn from(data: StaticSoundData) -> Self {
        Self::new().with(data, 1.0)
    }
}

impl From<Vec<StaticSoundData>> for Recordings {
    fn from(list: Vec<StaticSoundData>) -> Self {
        list.into_iter().collect()
    }
}

impl<const N: usize> From<[StaticSoundData; N]> for Recordings {
    fn from(list: [StaticSoundData; N]) -> Self {
        list.into_iter().collect()
    }
}

impl FromIterator<StaticSoundData> for Recordings {
    fn from_iter<I: IntoIterator<Item = StaticSoundData>>(iter: I) -> Self {
        Self {
            list: iter.into_iter().map(|data| (data, 1.0)).collect(),
            peaks: None,
            states: Vec::new(),
        }
    }
}

/// How a sound with several recordings picks the one a play plays (a play may
/// also name one: [`PlayParams::recording`](crate::PlayParams::recording)).
/// Recordings of weight 0 are never picked.
///
/// ```
/// use pool_audio::{sound::Pick, SoundSettings};
///
/// assert_eq!(SoundSettings::default().pick, Pick::Random { avoid_last: 1 });
/// let footsteps = SoundSettings::default().pick(Pick::Shuffle);
/// assert_eq!(footsteps.pick, Pick::Shuffle);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Pick {
    /// By weight among the recordings that are not one of the last
    /// `avoid_last` picks (the default avoids the last one). The window is at
    /// most all but one of the recordings that can be picked, and at all but
    /// one a single recording is left each time: with 4 recordings,
    /// `avoid_last: 3` draws an order for the first 4 plays and then repeats
    /// it (use [`Pick::Shuffle`] for a new order every round); with one
    /// recording, it always plays.
    Random {
        /// How many of the latest picks are not picked again.
        avoid_last: usize,
    },
    /// Rounds: each round plays every recording once, in an order drawn by
    /// weight, and a round never starts with the recording that ended the one
    /// before it.
    Shuffle,
    /// In the order they were given, around and around.
    Sequential,
}

impl Default for Pick {
    fn default() -> Self {
        Self::Random { avoid_last: 1 }
    }
}

/// The seeded generator every random choice of one manager draws from
/// (fastrand's wyrand: small, fast, and the same sequence for the same seed).
#[derive(Debug, Clone)]
pub(crate) struct Dice {
    rng: fastrand::Rng,
}

impl Dice {
    pub(crate) fn new(seed: u64) -> Self {
        Self {
            rng: fastrand::Rng::with_seed(seed),
        }
    }

    /// A whole number drawn uniformly in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.rng.usize(..n)
    }

    /// Two fractions drawn uniformly in `[0, 1)`, from one draw.
    pub(crate) fn pair(&mut self) -> (f64, f64) {
        const STEP: f64 = 1.0 / (1u64 << 32) as f64;
        let bits = self.rng.u64(..);
        (
            (bits >> 32) as f64 * STEP,
            (bits & 0xffff_ffff) as f64 * STEP,
        )
    }

    /// A number drawn uniformly in `[low, high]` (`low` itself, without a
    /// draw, when the range is empty).
    pub(crate) fn uniform(&mut self, (low, high): (f64, f64)) -> f64 {
        if high > low {
            low + (high - low) * self.rng.f64()
        } else {
            low
        }
    }
}

/// What a play's variation drew: a gain on its volume and a factor on its
/// playback rate, kept with the voice so that later `set_volume` and
/// `set_playback_rate` calls vary from the same draw.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Variation {
    pub(crate) gain: f64,
    pub(crate) shift: f64,
}

impl Variation {
    /// No variation.
    pub(crate) const NONE: Self = Self {
        gain: 1.0,
        shift: 1.0,
    };

    /// A play volume, varied.
    pub(crate) fn volume(self, volume: f64) -> f64 {
        volume * self.gain
    }

    /// A playback rate, varied, inside
    /// [`MIN_PLAYBACK_RATE`]`..=`[`MAX_PLAYBACK_RATE`].
    pub(crate) fn rate(self, rate: f64) -> f64 {
        (rate * self.shift).clamp(MIN_PLAYBACK_RATE, MAX_PLAYBACK_RATE)
    }
}

/// A draw from a sound's `volume_range` and `pitch_semitones` ranges.
pub(crate) fn vary(
    dice: &mut Dice,
    volume_db: (f64, f64),
    pitch_semitones: (f64, f64),
) -> Variation {
    // One draw of 64 bits gives both fractions (32 bits each: a step of
    // 2^-32 of the range).
    let (u, v) = dice.pair();
    let within = |(low, high): (f64, f64), fraction: f64| low + (high - low) * fraction;
    let gain = if volume_db == (0.0, 0.0) {
        1.0
    } else {
        amplitude(within(volume_db, u))
    };
    let shift = if pitch_semitones == (0.0, 0.0) {
        1.0
    } else {
        semitones(within(pitch_semitones, v))
    };
    Variation { gain, shift }
}

/// The playback rate that shifts the pitch by `semitones` (12 to the octave).
pub(crate) fn semitones(semitones: f64) -> f64 {
    (semitones / 12.0).exp2()
}

/// Which recordings are which, as a bit each (recording `i` is bit `i`).
pub(crate) type Set = u64;

/// The set whose round and recent picks a play of `recording` counts in: the
/// play's own `among` if it holds the recording (a pick, or a named play of
/// its state's), else the first of the switch's `sets` that does (a play of
/// one state naming another state's recording counts in that state), else
/// all.
pub(crate) fn counted_in(recording: u16, among: Set, sets: &[Set]) -> Set {
    let holds = |set: &Set| set & 1 << recording != 0;
    if holds(&among) {
        return among;
    }
    sets.iter().copied().find(holds).unwrap_or(Set::MAX)
}

const _: () = assert!(MAX_RECORDINGS <= Set::BITS as usize);

/// The members of a set, lowest first.
struct Members(Set);

impl Iterator for Members {
    type Item = u16;

    fn next(&mut self) -> Option<u16> {
        if self.0 == 0 {
            return None;
        }
        let member = self.0.trailing_zeros() as u16;
        self.0 &= self.0 - 1;
        Some(member)
    }
}

/// One sound's picking: its weights, its order and what it has played. A
/// play picks among a set of its recordings (all of them, or its switch
/// state's): each rule keeps to the set, and what it remembers is per
/// recording, so each set keeps its own order, round and recent picks.
#[derive(Debug, Clone)]
pub(crate) struct Picker {
    pick: Pick,
    weights: Box<[f64]>,
    /// The recordings that can be picked (weight above 0).
    pickable: Set,
    /// How many of a set's latest picks `Random` avoids (at most all but one
    /// of the set's pickable recordings; 0 for the other orders).
    avoid: usize,
    /// Every recording weighs the same, none 0: a draw is a uniform index.
    equal: bool,
    /// The recordings the current round of their set has played (`Shuffle`).
    played: Set,
    /// When each recording was last played (the count of plays then; 0:
    /// never).
    stamps: Box<[u64]>,
    /// Plays so far.
    clock: u64,
}

impl Picker {
    /// A picker for recordings of `weights` (checked: finite, `>= 0`, one
    /// above 0, at most [`MAX_RECORDINGS`]).
    pub(crate) fn new(pick: Pick, weights: impl Iterator<Item = f64>) -> Self {
        let weights: Vec<f64> = weights.take(MAX_RECORDINGS).collect();
        // Relative to the largest, so that their sum is finite (at most 64)
        // whatever finite weights were given.
        let largest = weights.iter().copied().fold(0.0, f64::max);
        let scale = if largest > 0.0 { largest } else { 1.0 };
        let weights: Box<[f64]> = weights.iter().map(|w| w / scale).collect();
        let pickable: Set = weights
            .iter()
            .enumerate()
            .filter(|(_, w)| **w > 0.0)
            .fold(0, |set, (i, _)| set | 1 << i);
        let avoid = match pick {
            Pick::Random { avoid_last } => avoid_last,
            Pick::Shuffle | Pick::Sequential => 0,
        };
        // Equal weights, none of them 0.
        let equal = weights.iter().all(|w| *w > 0.0 && *w == weights[0]);
        let stamps = vec![0; weights.len()].into();
        Self {
            pick,
            weights,
            pickable,
            avoid,
            equal,
            played: 0,
            stamps,
            clock: 0,
        }
    }

    /// The recording the next play plays (nothing changes until
    /// [`played`](Self::played)).
    #[inline]
    pub(crate) fn choose(&self, dice: &mut Dice, among: Set) -> u16 {
        if self.weights.len() < 2 {
            return 0;
        }
        let pickable = self.pickable & among;
        match self.pick {
            Pick::Random { .. } => {
                // Not one of the set's latest picks, leaving one at least.
                let window = self
                    .avoid
                    .min((pickable.count_ones() as usize).saturating_sub(1));
                let mut set = pickable;
                for _ in 0..window {
                    set &= !self.last_in(set).map_or(0, |r| 1 << r);
                }
                self.draw(dice, set)
            }
            Pick::Shuffle => {
                // A round a named play of another set filled is over too.
                let played = if pickable & !self.played == 0 {
                    0
                } else {
                    self.played & pickable
                };
                let mut set = pickable & !played;
                if played == 0
                    && let Some(last) = self.last_in(pickable)
                    && set.count_ones() > 1
                {
                    // A new round, not starting where the last one ended.
                    set &= !(1 << last);
                }
                self.draw(dice, set)
            }
            Pick::Sequential => {
                let n = self.weights.len() as u16;
                let from = self.last_in(among).map_or(0, |last| (last + 1) % n);
                (0..n)
                    .map(|step| (from + step) % n)
                    .find(|r| pickable & 1 << r != 0)
                    .unwrap_or(0)
            }
        }
    }

    /// The one of `set` played last, if any has been.
    fn last_in(&self, set: Set) -> Option<u16> {
        Members(set)
            .filter(|r| self.stamps.get(usize::from(*r)).is_some_and(|s| *s > 0))
            .max_by_key(|r| self.stamps[usize::from(*r)])
    }

    /// One of `set`, drawn by weight.
    fn draw(&self, dice: &mut Dice, set: Set) -> u16 {
        if set == 0 {
            return 0;
        }
        let members = || Members(set);
        if self.equal {
            // Every recording weighs the same: a uniform index, drawn again
            // while it falls outside `set` (at most a few times: `set` holds
            // most of them), then counted out of `set` if that is slow.
            let n = self.weights.len();
            for _ in 0..8 {
                let r = dice.below(n);
                if set & 1 << r != 0 {
                    return r as u16;
                }
            }
            let nth = dice.below(set.count_ones() as usize);
            return members().nth(nth).unwrap_or(0);
        }
        let weight = |r: u16| self.weights.get(usize::from(r)).copied().unwrap_or(0.0);
        let total: f64 = members().map(weight).sum();
        let mut point = dice.uniform((0.0, total));
        let mut chosen = 0;
        for r in members() {
            chosen = r;
            if point < weight(r) {
                break;
            }
            point -= weight(r);
        }
        chosen
    }

    /// Recording `recording` was played (picked, or named by the play).
    #[inline]
    pub(crate) fn played(&mut self, recording: u16, among: Set) {
        if self.weights.len() >= 2 {
            self.remember(recording, among);
        }
    }

    fn remember(&mut self, recording: u16, among: Set) {
        self.clock += 1;
        if let Some(stamp) = self.stamps.get_mut(usize::from(recording)) {
            *stamp = self.clock;
        }
        if self.pickable & among & !self.played == 0 {
            // A round a named play of another set filled: over.
            self.played &= !among;
        }
        self.played |= 1 << recording;
        if self.pickable & among & !self.played == 0 {
            // The round is over: the next pick starts the next one.
            self.played &= !among;
        }
    }

    /// Forgets what was played, as when the sound was added.
    pub(crate) fn reset(&mut self) {
        self.played = 0;
        self.stamps.fill(0);
        self.clock = 0;
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn picks(picker: &mut Picker, dice: &mut Dice, n: usize) -> Vec<u16> {
        (0..n)
            .map(|_| {
                let r = picker.choose(dice, Set::MAX);
                picker.played(r, Set::MAX);
                r
            })
            .collect()
    }

    #[test]
    fn sequential_goes_around_skipping_weight_zero() {
        let mut picker = Picker::new(Pick::Sequential, [1.0, 0.0, 2.0].into_iter());
        assert_eq!(picks(&mut picker, &mut Dice::new(1), 5), [0, 2, 0, 2, 0]);
    }

    #[test]
    fn shuffle_rounds_play_each_once_and_never_repeat_across_a_boundary() {
        let mut picker = Picker::new(Pick::Shuffle, [1.0; 4].into_iter());
        let all = picks(&mut picker, &mut Dice::new(3), 400);
        for round in all.chunks(4) {
            let mut sorted = round.to_vec();
            sorted.sort();
            assert_eq!(sorted, [0, 1, 2, 3], "{all:?}");
        }
        assert!(all.windows(2).all(|w| w[0] != w[1]));
    }

    #[test]
    fn huge_weights_are_picked_by_their_ratios() {
        let mut picker = Picker::new(
            Pick::Random { avoid_last: 0 },
            [1e308, 1e308, 1.0].into_iter(),
        );
        let all = picks(&mut picker, &mut Dice::new(2), 1_000);
        assert!(
            all.contains(&0) && all.contains(&1),
            "both huge ones are picked"
        );
        assert!(
            all.iter().filter(|r| **r == 2).count() < 5,
            "the tiny one rarely"
        );
    }

    #[test]
    fn one_recording_is_always_picked_without_a_draw() {
        let mut picker = Picker::new(Pick::default(), [1.0].into_iter());
        let mut dice = Dice::new(9);
        let before = dice.clone().rng.u64(..);
        assert_eq!(picks(&mut picker, &mut dice, 3), [0, 0, 0]);
        assert_eq!(dice.rng.u64(..), before, "no draw was spent");
    }

    /// What a picker promises, kept by a model that knows only the rules: the
    /// picks so far, the round so far, the last one.
    fn check(pick: Pick, weights: &[f64], picks: &[(u16, bool)]) -> Result<(), String> {
        let pickable: Vec<u16> = (0..weights.len() as u16)
            .filter(|r| weights[usize::from(*r)] > 0.0)
            .collect();
        let mut round: Vec<u16> = Vec::new();
        let mut history: Vec<u16> = Vec::new();
        for (i, (r, named)) in picks.iter().copied().enumerate() {
            if !named {
                if weights.len() > 1 && !pickable.contains(&r) {
                    return Err(format!("pick {i}: {r} has weight 0"));
                }
                match pick {
                    Pick::Random { avoid_last } => {
                        let window = avoid_last.min(pickable.len() - 1);
                        if history.iter().rev().take(window).any(|h| *h == r) {
                            return Err(format!("pick {i}: {r} is among the last {window}"));
                        }
                    }
                    Pick::Shuffle => {
                        if round.contains(&r) {
                            return Err(format!("pick {i}: {r} again in one round"));
                        }
                        if round.is_empty() && pickable.len() > 1 && history.last() == Some(&r) {
                            return Err(format!("pick {i}: a round starts with the last one"));
                        }
                    }
                    Pick::Sequential => {
                        let n = weights.len() as u16;
                        let from = history.last().map_or(0, |l| (l + 1) % n);
                        let next = (0..n)
                            .map(|s| (from + s) % n)
                            .find(|c| pickable.contains(c));
                        if weights.len() > 1 && next != Some(r) {
                            return Err(format!("pick {i}: {r}, not the next, {next:?}"));
                        }
                    }
                }
            }
            history.push(r);
            if !round.contains(&r) && pickable.contains(&r) {
                round.push(r);
            }
            if pickable.iter().all(|p| round.contains(p)) {
                round.clear();
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn every_order_keeps_its_promise_with_named_plays_between(
            order in 0..5usize,
            weights in proptest::collection::vec(prop_oneof![Just(0.0), 0.1..10.0f64], 1..8),
            plays in proptest::collection::vec(proptest::option::weighted(0.1, 0..8u16), 1..200),
            seed: u64,
        ) {
            prop_assume!(weights.iter().any(|w| *w > 0.0));
            let pick = match order {
                0 => Pick::Shuffle,
                1 => Pick::Sequential,
                n => Pick::Random { avoid_last: n - 2 },
            };
            let mut picker = Picker::new(pick, weights.iter().copied());
            let mut dice = Dice::new(seed);
            let mut picks = Vec::new();
            for named in plays {
                let named = named.filter(|r| usize::from(*r) < weights.len());
                let r = named.unwrap_or_else(|| picker.choose(&mut dice, Set::MAX));
                prop_assert!(usize::from(r) < weights.len());
                picker.played(r, Set::MAX);
                picks.push((r, named.is_some()));
            }
            if let Err(broken) = check(pick, &weights, &picks) {
                return Err(TestCaseError::fail(format!("{pick:?} {weights:?}: {broken}; {picks:?}")));
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// With states (each recording in one), every order keeps its promise
        /// inside each state, whatever the states' plays between: the model
        /// is the one above, over each state's own picks.
        #[test]
        fn every_order_keeps_its_promise_inside_each_state(
            order in 0..5usize,
            recordings in proptest::collection::vec((prop_oneof![Just(0.0), 0.1..10.0f64], 0..3usize), 1..8),
            plays in proptest::collection::vec((0..3usize, proptest::option::weighted(0.1, 0..8u16)), 1..200),
            seed: u64,
        ) {
            let weights: Vec<f64> = recordings.iter().map(|(w, _)| *w).collect();
            let state_of: Vec<usize> = recordings.iter().map(|(_, s)| *s).collect();
            let sets: Vec<Set> = (0..3)
                .map(|s| (0..weights.len()).filter(|r| state_of[*r] == s).fold(0, |set, r| set | 1 << r))
                .collect();
            let pick = match order {
                0 => Pick::Shuffle,
                1 => Pick::Sequential,
                n => Pick::Random { avoid_last: n - 2 },
            };
            let mut picker = Picker::new(pick, weights.iter().copied());
            let mut dice = Dice::new(seed);
            let mut picks = Vec::new();
            let pickable = |s: usize| (0..weights.len()).any(|r| state_of[r] == s && weights[r] > 0.0);
            for (state, named) in plays {
                if !pickable(state) {
                    continue;
                }
                let named = named.filter(|r| usize::from(*r) < weights.len());
                let r = named.unwrap_or_else(|| picker.choose(&mut dice, sets[state]));
                if named.is_none() && weights.len() > 1 {
                    prop_assert!(sets[state] & 1 << r != 0, "{r} is not of state {state}");
                }
                picker.played(r, counted_in(r, sets[state], &sets));
                picks.push((r, named.is_some()));
            }
            for state in 0..3 {
                // The state's own picks, against its own weights.
                let own: Vec<(u16, bool)> = picks.iter().copied().filter(|(r, _)| state_of[usize::from(*r)] == state).collect();
                let masked: Vec<f64> = (0..weights.len()).map(|r| if state_of[r] == state { weights[r] } else { 0.0 }).collect();
                if !pickable(state) || weights.len() < 2 {
                    continue;
                }
                if let Err(broken) = check(pick, &masked, &own) {
                    return Err(TestCaseError::fail(format!("{pick:?} state {state} {masked:?}: {broken}; {own:?}")));
                }
            }
        }
    }

    #[test]
    fn a_varied_rate_stays_in_range() {
        let mut dice = Dice::new(5);
        for _ in 0..100 {
            let drawn = vary(&mut dice, (-6.0, 0.0), (0.0, 12.0));
            let (volume, rate) = (drawn.volume(1.0), drawn.rate(15.0));
            assert!((0.5..=1.0).contains(&volume), "{volume}");
            assert!(rate <= MAX_PLAYBACK_RATE);
        }
        assert_eq!(vary(&mut dice, (0.0, 0.0), (0.0, 0.0)), Variation::NONE);
    }
}

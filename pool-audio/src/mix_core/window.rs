//! The loudness window (Wwise's HDR audio). Real loudness spans far more than
//! a mix can hold: each sound declares how loud it is in the world
//! ([`SoundSettings::loudness`](crate::SoundSettings::loudness)), and
//! the groups that opt in
//! ([`GroupSettings::loudness_window`](crate::GroupSettings::loudness_window))
//! are mixed relative to the window's top, which follows the loudest of their
//! voices:
//!
//! - a voice's gain is its loudness minus the top (on top of everything else
//!   it has): the loudest sound plays as recorded, a footstep 30 dB quieter
//!   than a grenade plays 30 dB down while the grenade sounds;
//! - the top rises at once, on the play of a louder sound (so the loud sound
//!   is never heard too loud: the groups' new gain reaches the mixer before
//!   the voice's start, and a refused play puts the top back), and falls back
//!   over the release time once the loudest voice has ended, to the loudest
//!   voice left (a paused voice keeps its place), never below the floor;
//! - what counts is what is heard: a voice's loudness plus its distance
//!   attenuation and its occlusion's volume (a far grenade does not push the
//!   footsteps down; one behind a wall at occlusion 1 counts 15 dB less), but
//!   not the play's own volume; a sound of a group in the window that declares
//!   no loudness plays at the window's floor;
//! - a voice more than the window's height below the top is out of the window:
//!   it goes virtual, or ends if its sound does not virtualize (reported
//!   [`EndReason::Stolen`](crate::EndReason::Stolen)), and comes back when the
//!   falling top brings it into the window again; a new play under the window
//!   starts virtual, or is refused
//!   [`PlayError::OutOfWindow`](crate::PlayError::OutOfWindow) (not started,
//!   so never in `ended()`).
//!
//! Inside the voice bank the window is one gain per group that opts in
//! (`floor - top`, in dB) and a fixed gain per voice (`loudness - floor`), so
//! the mixer does no more work per voice than for any other group gain.

use std::time::Duration;

use kira::{Decibels, Tween};

use crate::SettingsError;
use crate::bank::{Command, MixPart};

/// The highest window height, and the largest loudness or floor.
pub const MAX_LOUDNESS: Decibels = Decibels(200.0);

/// [`MAX_LOUDNESS`] in `f64` dB, as the window computes.
const MAX_LOUDNESS_DB: f64 = 200.0;

/// The loudness window's settings: in
/// [`SoundEffectsSettings::loudness_window`](crate::SoundEffectsSettings::loudness_window).
///
/// ```
/// use std::time::Duration;
/// use pool_audio::mix::LoudnessWindow;
///
/// let window = LoudnessWindow::default().height(30.0).release(Duration::from_secs(2));
/// assert!(window.validate().is_ok());
/// assert!(LoudnessWindow::default().height(0.0).validate().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct LoudnessWindow {
    /// How far below the top a voice is still heard, `(0, 200]` dB
    /// (default 40 dB).
    pub height: Decibels,
    /// How long the top takes to fall to its new value once the loudest voice
    /// has ended, linear in dB, at most an hour (default 1 s). A voice that played to its
    /// end starts the fall from the sample the voice bank reports it ended on:
    /// the update that learns of the end (up to a game frame later) puts the
    /// top on the fall's line there, and the groups join it in the mixer's
    /// next block (a jump the mixer spreads over one 16-frame step).
    pub release: Duration,
    /// The lowest the top goes, on the game's loudness scale, finite and at
    /// most 200 dB in size (default 0 dB): a quiet scene plays each voice at
    /// its loudness minus the floor.
    pub floor: Decibels,
}

impl Default for LoudnessWindow {
    fn default() -> Self {
        Self {
            height: Decibels(40.0),
            release: Duration::from_secs(1),
            floor: Decibels(0.0),
        }
    }
}

impl LoudnessWindow {
    /// How far below the top a voice is still heard (an `f32` is decibels).
    pub fn height(mut self, height: impl Into<Decibels>) -> Self {
        self.height = height.into();
        self
    }

    /// How long the top takes to fall.
    pub fn release(mut self, release: Duration) -> Self {
        self.release = release;
        self
    }

    /// The lowest the top goes.
    pub fn floor(mut self, floor: impl Into<Decibels>) -> Self {
        self.floor = floor.into();
        self
    }

    /// The height, in `f64` dB as the window computes.
    fn height_db(&self) -> f64 {
        f64::from(self.height.0)
    }

    /// The floor, in `f64` dB as the window computes.
    fn floor_db(&self) -> f64 {
        f64::from(self.floor.0)
    }

    /// Checks every value.
    ///
    /// # Errors
    /// [`SettingsError::WindowHeight`], [`SettingsError::WindowRelease`],
    /// [`SettingsError::WindowFloor`].
    pub fn validate(&self) -> Result<(), SettingsError> {
        if !(self.height_db() > 0.0 && self.height_db() <= MAX_LOUDNESS_DB) {
            return Err(SettingsError::WindowHeight(self.height));
        }
        if self.release > super::MAX_MIX_TIME {
            return Err(SettingsError::WindowRelease(self.release));
        }
        if !(-MAX_LOUDNESS_DB..=MAX_LOUDNESS_DB).contains(&self.floor_db()) {
            return Err(SettingsError::WindowFloor(self.floor));
        }
        Ok(())
    }
}

/// The window as a play or a pass over the voices reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct WindowNow {
    pub(crate) top: f64,
    pub(crate) height: f64,
    pub(crate) floor: f64,
    /// `floor - top` as an amplitude: the groups' gain.
    pub(crate) scale: f32,
    /// `top - height`: a voice heard quieter than this is out of the window.
    pub(crate) bottom: f64,
    /// The same as an amplitude relative to the floor.
    pub(crate) bottom_gain: f32,
    /// The top as an amplitude relative to the floor.
    pub(crate) top_gain: f32,
}

impl WindowNow {
    /// No window: every gain 1, nothing below it.
    pub(crate) const OFF: Self = Self {
        top: 0.0,
        height: f64::INFINITY,
        floor: 0.0,
        scale: 1.0,
        bottom: f64::NEG_INFINITY,
        bottom_gain: 0.0,
        top_gain: 1.0,
    };

    /// The window's gain on a voice of loudness `db`, an amplitude.
    pub(crate) fn gain(&self, db: f64) -> f32 {
        crate::level::amplitude(db - self.top) as f32
    }

    /// A voice heard at `db` (its loudness and its distance attenuation) is
    /// below the window.
    pub(crate) fn below(&self, db: f64) -> bool {
        db < self.bottom
    }

    /// A voice's fixed gain in the bank (the group's is `floor - top`).
    pub(crate) fn voice_gain(&self, db: f64) -> f32 {
        crate::level::amplitude(db - self.floor) as f32
    }
}

/// A voice of loudness `db` as heard through a distance attenuation of
/// `gain` (`-inf` for silence).
pub(crate) fn heard_db(db: f64, gain: f32) -> f64 {
    if gain > 0.0 {
        db + crate::level::decibels(f64::from(gain))
    } else {
        f64::NEG_INFINITY
    }
}

/// Ratios of heard amplitudes closer to 1 than this are rounding (the pass
/// over the voices keeps what it hears as `f32` amplitudes): the top does not
/// rise for them (about 0.001 dB).
const SAME: f32 = 1e-4;

/// How far the loudest voice must move from where the top is falling to for
/// the fall to start again towards it, as a ratio of amplitudes (0.5 dB): a
/// listener walking past a loud voice changes what it hears at every update,
/// and the fall should not restart at every one.
const RETARGET: f32 = 0.0593;

/// The top falling: from, to, seconds into the release.
#[derive(Debug, Clone, Copy)]
struct Fall {
    from: f64,
    to: f64,
    elapsed: f64,
}

/// What a play that raised the top puts back if it is refused.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Saved {
    now: WindowNow,
    fall: Option<Fall>,
    target: f64,
    target_gain: f32,
    tween: Tween,
}

/// The window of one manager.
pub(crate) struct Window {
    settings: LoudnessWindow,
    /// The top and what follows from it, computed when the top moves.
    now: WindowNow,
    fall: Option<Fall>,
    /// The groups that opt in, by bank entry.
    groups: Vec<u16>,
    /// Groups whose gain the mixer has not been sent since the last change
    /// (`tween`), and groups that have never been sent it (a group added,
    /// or every group after a refused raise): those start from the top as it
    /// is now. Both hold at most every group: no allocation once made.
    unsent: Vec<u16>,
    fresh: Vec<u16>,
    /// How the groups move to the target, as last decided.
    tween: Tween,
    /// The top's target sent last (`floor - target` is the groups' gain), and
    /// as an amplitude relative to the floor.
    target: f64,
    target_gain: f32,
}

/// A tween of `duration`, linear in dB.
fn linear(duration: Duration) -> Tween {
    Tween {
        duration,
        ..Tween::default()
    }
}

impl Window {
    pub(crate) fn new(settings: LoudnessWindow) -> Self {
        let groups = crate::MAX_GROUPS;
        let mut window = Self {
            settings,
            now: WindowNow::OFF,
            fall: None,
            groups: Vec::with_capacity(groups),
            unsent: Vec::with_capacity(groups),
            fresh: Vec::with_capacity(groups),
            tween: linear(Duration::ZERO),
            target: settings.floor_db(),
            target_gain: 1.0,
        };
        window.set_top(settings.floor_db());
        window
    }

    pub(crate) fn now(&self) -> WindowNow {
        self.now
    }

    /// Moves the top to `top` and computes what follows from it.
    fn set_top(&mut self, top: f64) {
        let (floor, height) = (self.settings.floor_db(), self.settings.height_db());
        self.now = WindowNow {
            top,
            height,
            floor,
            scale: crate::level::amplitude(floor - top) as f32,
            bottom: top - height,
            bottom_gain: crate::level::amplitude(top - height - floor) as f32,
            top_gain: crate::level::amplitude(top - floor) as f32,
        };
    }

    /// Every group is to be sent the target with `tween`.
    fn changed(&mut self, tween: Tween) {
        self.tween = tween;
        self.unsent.clear();
        self.unsent.extend_from_slice(&self.groups);
    }

    /// Group `entry` opts in: it is sent the window's gain as it is now.
    pub(crate) fn add_group(&mut self, entry: u16) {
        self.groups.push(entry);
        self.fresh.push(entry);
    }

    /// The groups that opt in.
    pub(crate) fn groups(&self) -> usize {
        self.groups.len()
    }

    /// The state a refused raise puts back.
    pub(crate) fn save(&self) -> Saved {
        Saved {
            now: self.now,
            fall: self.fall,
            target: self.target,
            target_gain: self.target_gain,
            tween: self.tween,
        }
    }

    /// Puts back `saved`. With `sent`, the raise reached the mixer: every
    /// group is sent the window as it is again, from the saved top.
    pub(crate) fn restore(&mut self, saved: Saved, sent: bool) {
        self.now = saved.now;
        self.fall = saved.fall;
        self.target = saved.target;
        self.target_gain = saved.target_gain;
        self.tween = saved.tween;
        self.unsent.clear();
        if sent {
            self.fresh.clear();
            self.fresh.extend_from_slice(&self.groups);
        }
    }

    /// A voice heard at `db` starts: the top rises to it at once. `true` if
    /// it rose.
    pub(crate) fn raise(&mut self, db: f64) -> bool {
        if db <= self.now.top {
            return false;
        }
        self.set_top(db);
        self.fall = None;
        self.target = db;
        self.target_gain = self.now.top_gain;
        self.changed(linear(Duration::ZERO));
        true
    }

    /// `dt` seconds on: a falling top moves down its line.
    pub(crate) fn advance(&mut self, dt: f64) {
        let Some(fall) = &mut self.fall else { return };
        fall.elapsed += dt;
        let release = self.settings.release.as_secs_f64();
        let top = if fall.elapsed >= release {
            let to = fall.to;
            self.fall = None;
            to
        } else {
            fall.from + (fall.to - fall.from) * fall.elapsed / release
        };
        self.set_top(top);
    }

    /// The loudest voice in the window is heard at `loudest`, an amplitude
    /// relative to the floor (0 for none): the top rises to it, or starts
    /// falling to it (or the floor) over the release time. Compared as
    /// amplitudes: an update where nothing changed computes no logarithm.
    ///
    /// `ended` is the loudest voice that played to its end since the last
    /// update (as heard, and how long ago it ended in the audio): if it was
    /// the top, the fall starts from its end, not from now. The groups then
    /// join the fall where it is by now (a jump the mixer spreads over one
    /// 16-frame step) and follow it from there.
    pub(crate) fn settle(&mut self, loudest: f32, ended: (f32, f64)) {
        let heard = loudest.max(1.0);
        let to_db = |gain: f32| self.settings.floor_db() + crate::level::decibels(f64::from(gain));
        if heard > self.now.top_gain * (1.0 + SAME) {
            self.raise(to_db(heard));
        } else if heard < self.now.top_gain && (heard / self.target_gain - 1.0).abs() > RETARGET {
            let target = to_db(heard);
            let release = self.settings.release.as_secs_f64();
            let (ended_heard, ago) = ended;
            let was_top = ended_heard * (1.0 + SAME) >= self.now.top_gain;
            let elapsed = if was_top { ago.min(release) } else { 0.0 };
            self.fall = Some(Fall {
                from: self.now.top,
                to: target,
                elapsed: 0.0,
            });
            self.target = target;
            self.target_gain = heard;
            if elapsed > 0.0 {
                // Every group joins the fall where it is now.
                self.advance(elapsed);
                self.unsent.clear();
                self.fresh.clear();
                self.fresh.extend_from_slice(&self.groups);
            } else {
                self.changed(linear(self.settings.release));
            }
        }
    }

    /// Sends each group its gain if it has not been sent it; a group the
    /// bank's queue has no room for is sent at the next call.
    pub(crate) fn flush(&mut self, mut send: impl FnMut(Command) -> bool) {
        if !self.is_pending() {
            return;
        }
        let floor = self.settings.floor_db();
        let db = floor - self.target;
        let (tween, from) = (self.tween, floor - self.now.top);
        // What is left of a fall, for a group that starts from the top now.
        let rest = self.fall.map_or(Duration::ZERO, |fall| {
            self.settings
                .release
                .saturating_sub(Duration::from_secs_f64(fall.elapsed))
        });
        // A fresh group's command comes last: it starts from the top as it is.
        self.unsent.retain(|&entry| {
            !send(Command::SetMix {
                entry,
                part: MixPart::Window,
                from: None,
                db,
                tween,
            })
        });
        self.fresh.retain(|&entry| {
            !send(Command::SetMix {
                entry,
                part: MixPart::Window,
                from: Some(from),
                db,
                tween: linear(rest),
            })
        });
    }

    pub(crate) fn is_pending(&self) -> bool {
        !self.unsent.is_empty() || !self.fresh.is_empty()
    }
}

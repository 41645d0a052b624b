//! A limiter as a kira effect builder: what a track is built with.

use std::sync::Arc;

use kira::effect::{Effect, EffectBuilder};

use super::Limiter;
use super::handle::{LimiterHandle, LimiterReadings};
use super::settings::{LimiterError, LimiterSettings};

/// Adds a look-ahead peak limiter to a kira track. [`SoundEffects`](crate::SoundEffects)
/// puts one on its track by default; put another last on the main track
/// (`MainTrackBuilder::with_effect`, before a meter) to hold music and effects
/// together under one ceiling.
///
/// ```
/// use pool_audio::kira::{AudioManager, AudioManagerSettings, Frame, track::MainTrackBuilder};
/// use pool_audio::kira::sound::static_sound::StaticSoundData;
/// use pool_audio::{dsp::LimiterBuilder, dsp::LimiterSettings, OfflineBackend};
///
/// let limiter = LimiterBuilder::new(LimiterSettings::default())?;
/// let reading = limiter.handle();
/// let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings {
///     main_track_builder: MainTrackBuilder::new().with_effect(limiter),
///     ..Default::default()
/// })?;
/// // Three copies of a full-scale tone: 3.0 before the limiter.
/// let tone = StaticSoundData { sample_rate: 48_000, frames: vec![Frame::from_mono(1.0); 4800].into(), settings: Default::default(), slice: None };
/// for _ in 0..3 {
///     manager.play(tone.clone())?;
/// }
/// let audio = manager.backend_mut().render(0.1)?;
/// assert!(audio.peak() <= 10f32.powf(-1.0 / 20.0) + 1e-6);
/// assert!(reading.take_max_gain_reduction().0 > 10.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
#[must_use = "a limiter does nothing until added to a track"]
pub struct LimiterBuilder {
    pub(super) settings: LimiterSettings,
    pub(super) readings: Arc<LimiterReadings>,
}

impl LimiterBuilder {
    /// A limiter with these settings.
    ///
    /// # Errors
    /// [`LimiterError`] if a setting is out of range.
    ///
    /// ```
    /// use pool_audio::{dsp::LimiterBuilder, dsp::LimiterSettings};
    ///
    /// assert!(LimiterBuilder::new(LimiterSettings { ceiling: pool_audio::kira::Decibels(3.0), ..Default::default() }).is_err());
    /// ```
    pub fn new(settings: LimiterSettings) -> Result<Self, LimiterError> {
        settings.validate()?;
        Ok(Self {
            settings,
            readings: Arc::default(),
        })
    }

    /// The handle that reads this limiter, before the builder is moved into a track
    /// (adding it to a track returns the same handle).
    ///
    /// ```
    /// # use pool_audio::{dsp::LimiterBuilder, dsp::LimiterSettings};
    /// let limiter = LimiterBuilder::new(LimiterSettings::default())?;
    /// assert_eq!(limiter.handle().frames(), 0);
    /// # Ok::<(), pool_audio::dsp::LimiterError>(())
    /// ```
    pub fn handle(&self) -> LimiterHandle {
        LimiterHandle {
            ceiling: self.settings.ceiling,
            readings: self.readings.clone(),
        }
    }
}

impl EffectBuilder for LimiterBuilder {
    type Handle = LimiterHandle;

    fn build(self) -> (Box<dyn Effect>, LimiterHandle) {
        let handle = self.handle();
        (Box::new(Limiter::new(self.settings, self.readings)), handle)
    }
}

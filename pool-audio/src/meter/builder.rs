//! A meter as a kira effect builder: what a track is built with.

use std::sync::Arc;

use kira::effect::{Effect, EffectBuilder};

use super::Meter;
use super::handle::{MeterHandle, MeterReadings};

/// Adds a pre-clamp meter to a kira track: put it last on the main track
/// (`MainTrackBuilder::with_effect`) to meter what kira is about to clamp. Works the
/// same on the offline backend and on a real device.
///
/// ```
/// use pool_audio::kira::{AudioManager, AudioManagerSettings, track::MainTrackBuilder};
/// use pool_audio::{dsp::MeterBuilder, OfflineBackend, offline::OfflineSettings};
///
/// let meter = MeterBuilder::new();
/// let reading = meter.handle();
/// let manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings {
///     main_track_builder: MainTrackBuilder::new().with_effect(meter),
///     backend_settings: OfflineSettings::default(),
///     ..Default::default()
/// })?;
/// assert_eq!(reading.peak(), 0.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
#[must_use = "a meter does nothing until added to a track"]
pub struct MeterBuilder {
    pub(super) readings: Arc<MeterReadings>,
}

impl MeterBuilder {
    /// A meter with nothing measured yet.
    ///
    /// ```
    /// # use pool_audio::dsp::MeterBuilder;
    /// let meter = MeterBuilder::new();
    /// assert_eq!((meter.handle().peak(), meter.handle().samples()), (0.0, 0));
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// The handle that reads this meter, before the builder is moved into a track
    /// (adding it to a track returns the same handle).
    ///
    /// ```
    /// # use pool_audio::dsp::MeterBuilder;
    /// let meter = MeterBuilder::new();
    /// assert_eq!(meter.handle().samples(), 0);
    /// ```
    pub fn handle(&self) -> MeterHandle {
        MeterHandle {
            readings: self.readings.clone(),
        }
    }
}

impl EffectBuilder for MeterBuilder {
    type Handle = MeterHandle;

    fn build(self) -> (Box<dyn Effect>, Self::Handle) {
        let handle = self.handle();
        (
            Box::new(Meter {
                readings: self.readings,
            }),
            handle,
        )
    }
}

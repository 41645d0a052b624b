//! What a single play asks for.

use crate::error::PlayError;

/// How to play one copy: volume, playback rate, panning, position. Validated by
/// [`SoundEffects::play`](crate::SoundEffects::play).
///
/// ```
/// use pool_audio::PlayParams;
///
/// let params = PlayParams::default().volume(0.8).playback_rate(1.1).panning(-0.3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct PlayParams {
    pub(crate) volume: f64,
    pub(crate) playback_rate: f64,
    pub(crate) panning: f32,
    pub(crate) position: Option<[f32; 3]>,
    pub(crate) spatial_blend: f32,
}

impl Default for PlayParams {
    fn default() -> Self {
        Self {
            volume: 1.0,
            playback_rate: 1.0,
            panning: 0.0,
            position: None,
            spatial_blend: 1.0,
        }
    }
}

impl PlayParams {
    /// A linear amplitude multiplier on the copy's own volume, in `[0, 1]`.
    ///
    /// ```
    /// # use pool_audio::PlayParams;
    /// let params = PlayParams::default().volume(0.5);
    /// ```
    pub fn volume(mut self, volume: f64) -> Self {
        self.volume = volume;
        self
    }

    /// Speed and pitch, above 0 (1 is the recorded speed).
    ///
    /// ```
    /// # use pool_audio::PlayParams;
    /// let params = PlayParams::default().playback_rate(0.9);
    /// ```
    pub fn playback_rate(mut self, rate: f64) -> Self {
        self.playback_rate = rate;
        self
    }

    /// Stereo position, -1 (left) to 1 (right).
    ///
    /// ```
    /// # use pool_audio::PlayParams;
    /// let params = PlayParams::default().panning(0.5);
    /// ```
    pub fn panning(mut self, panning: f32) -> Self {
        self.panning = panning;
        self
    }

    /// Where the sound is in the world: it plays through a pooled emitter (a kira
    /// spatial sub-track) relative to the listener, and
    /// [`Stealing::Furthest`](crate::Stealing::Furthest) uses it.
    ///
    /// ```
    /// # use pool_audio::PlayParams;
    /// let params = PlayParams::default().position([10.0, 0.0, -3.0]);
    /// ```
    pub fn position(mut self, position: [f32; 3]) -> Self {
        self.position = Some(position);
        self
    }

    /// How much a positioned sound is spatialized, `0..=1` (Unity's spatial blend:
    /// 0 plays it as if at the listener, 1 fully by its position; default 1).
    ///
    /// ```
    /// # use pool_audio::PlayParams;
    /// let params = PlayParams::default().position([5.0, 0.0, 0.0]).spatial_blend(0.5);
    /// ```
    pub fn spatial_blend(mut self, blend: f32) -> Self {
        self.spatial_blend = blend;
        self
    }

    pub(crate) fn validate(&self) -> Result<(), PlayError> {
        let ok = self.volume.is_finite()
            && (0.0..=1.0).contains(&self.volume)
            && self.playback_rate.is_finite()
            && self.playback_rate > 0.0
            && self.panning.is_finite()
            && (-1.0..=1.0).contains(&self.panning)
            && self
                .position
                .is_none_or(|p| p.iter().all(|c| c.is_finite()));
        if ok {
            Ok(())
        } else {
            Err(PlayError::InvalidParams)
        }
    }
}

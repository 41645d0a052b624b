//! `Output::Web` (the `web` feature): the plugin's offline mix played in a
//! browser through `pool_audio::web`, the worklet started on the page's first
//! click, touch or key. Elsewhere than wasm32 the plugin falls back to the
//! offline output and says so.

use pool_audio::OfflineBackend;
use pool_audio::web::{WebOutput, WebSettings};

/// The web output and, in a browser, the page's half.
pub(crate) struct WebAudio {
    output: WebOutput,
    #[cfg(target_arch = "wasm32")]
    page: pool_audio::web::WebPage,
}

impl WebAudio {
    /// The output on `backend`, waiting for the page's first gesture; or why
    /// there is none (not in a browser).
    ///
    /// # Panics
    /// For a buffering out of range, as the plugin's other settings.
    pub(crate) fn new(backend: &OfflineBackend, settings: WebSettings) -> Result<Self, String> {
        let output = WebOutput::new(backend, settings)
            .unwrap_or_else(|error| panic!("SoundEffectsPlugin's web output: {error}"));
        #[cfg(target_arch = "wasm32")]
        {
            let page = pool_audio::web::WebPage::on_first_gesture(&output);
            Ok(Self { output, page })
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            drop(output);
            Err("the web output plays only in a browser (wasm32): \
                 the sound effects play on the offline output, silent"
                .to_string())
        }
    }

    /// The output's counts.
    pub(crate) fn output(&self) -> &WebOutput {
        &self.output
    }

    /// Hands the frame's audio to the page: `Ok(false)` before the page's
    /// first gesture (the caller renders the frame's time offline, so the mix
    /// keeps the game's pace), `Err` with why once the page failed to start.
    pub(crate) fn frame(&mut self, backend: &mut OfflineBackend) -> Result<bool, String> {
        #[cfg(target_arch = "wasm32")]
        {
            if let Some(failure) = self.page.failure() {
                return Err(format!("the web output could not start: {failure}"));
            }
            // Before the first gesture the plugin renders the frame's time
            // itself (seconds 0 here: nothing skipped twice).
            if !self.page.is_running() {
                return Ok(false);
            }
            self.page
                .frame(&mut self.output, backend, 0.0)
                .map_err(|error| error.to_string())
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let _ = backend;
            Ok(false)
        }
    }
}

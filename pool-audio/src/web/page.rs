//! The page's half driven from Rust (the `web` feature, on wasm32): the
//! AudioContext and the worklet, started on the page's first user gesture.

use wasm_bindgen::prelude::*;

use super::{WORKLET_JS, WebError, WebOutput};
use crate::OfflineBackend;

#[wasm_bindgen(module = "/src/web/output.js")]
extern "C" {
    type PoolAudioPage;

    #[wasm_bindgen(constructor)]
    fn new(
        sample_rate: u32,
        ring_frames: u32,
        memory: JsValue,
        worklet: &str,
        record_frames: u32,
    ) -> PoolAudioPage;

    #[wasm_bindgen(method, getter)]
    fn output(this: &PoolAudioPage) -> JsValue;

    #[wasm_bindgen(method)]
    fn running(this: &PoolAudioPage) -> bool;

    #[wasm_bindgen(method)]
    fn failure(this: &PoolAudioPage) -> Option<String>;

    #[wasm_bindgen(method)]
    fn consumed(this: &PoolAudioPage) -> u32;

    #[wasm_bindgen(method)]
    fn underruns(this: &PoolAudioPage) -> u32;

    #[wasm_bindgen(method)]
    fn push(this: &PoolAudioPage, pointer: u32, samples: u32);
}

/// The browser's side of a [`WebOutput`], from Rust (the `web` feature, on
/// wasm32): made at start-up ([`WebPage::on_first_gesture`]), it starts the
/// AudioContext and the worklet on the page's first `pointerdown`, `keydown`
/// or `touchend` (browsers start audio only on a user gesture: a scripted
/// `click()` is none); each frame, after the game's plays and before
/// [`SoundEffects::update`](crate::SoundEffects::update), [`WebPage::frame`]
/// renders what keeps the buffering ahead and hands it to the worklet. No
/// JavaScript to write and no file to serve (wasm-bindgen brings `output.js`
/// along, and the worklet loads from [`WORKLET_JS`]); the page must still be
/// cross-origin isolated. See the [module](super) for a frame's code; the
/// workspace's web example plays its level this way (`web/src/bindings.rs`).
pub struct WebPage {
    page: PoolAudioPage,
}

impl std::fmt::Debug for WebPage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebPage")
            .field("running", &self.is_running())
            .finish()
    }
}

impl WebPage {
    /// Waits for the page's first user gesture to start `output`'s worklet.
    pub fn on_first_gesture(output: &WebOutput) -> Self {
        Self::recording(output, 0)
    }

    /// As [`on_first_gesture`](Self::on_first_gesture), and keeps the first
    /// `frames` frames the worklet plays, for a test to read back
    /// ([`js_output`](Self::js_output)`.recorded()`).
    pub fn recording(output: &WebOutput, frames: u32) -> Self {
        let page = PoolAudioPage::new(
            output.sample_rate(),
            output.ring_frames(),
            wasm_bindgen::memory(),
            WORKLET_JS,
            frames,
        );
        Self { page }
    }

    /// The running `PoolAudioOutput` of `output.js` (null before): its
    /// AudioContext, its counts (`playedFrames()`, `missingFrames()`,
    /// `peak()`), its recording, for a page that shows or tests them.
    pub fn js_output(&self) -> JsValue {
        self.page.output()
    }

    /// Whether the worklet plays: after the first gesture, once the
    /// AudioContext has started.
    pub fn is_running(&self) -> bool {
        self.page.running()
    }

    /// Why the output could not start (the page not cross-origin isolated, no
    /// AudioWorklet), once it has failed.
    pub fn failure(&self) -> Option<String> {
        self.page.failure()
    }

    /// The frame's audio, for a frame of `seconds`: renders what keeps
    /// `output`'s buffering ahead of the worklet and hands it over. Before
    /// the worklet runs, [`skips`](WebOutput::skip) the frame's `seconds`
    /// unheard (the mix keeps the game's pace) and returns `false`.
    /// Allocates nothing.
    ///
    /// # Errors
    /// As [`WebOutput::fill`] and [`WebOutput::skip`]; nothing is rendered.
    pub fn frame(
        &self,
        output: &mut WebOutput,
        backend: &mut OfflineBackend,
        seconds: f64,
    ) -> Result<bool, WebError> {
        if !self.page.running() {
            output.skip(backend, seconds)?;
            return Ok(false);
        }
        let consumed = self.page.consumed();
        let samples = output.fill(backend, consumed, self.page.underruns())?;
        if !samples.is_empty() {
            // wasm32 addresses fit in 32 bits.
            self.page
                .push(samples.as_ptr() as u32, samples.len() as u32);
        }
        Ok(true)
    }
}

//! What the page calls (wasm only): the level through `pool_audio::web`
//! ([`Game`]), the same level through kira's own web output ([`KiraGame`]),
//! and the allocation count of the whole module.

use std::error::Error;
use std::time::Duration;

use kira::backend::cpal::cpal::{BufferSize, StreamConfig};
use kira::backend::cpal::{CpalBackend, CpalBackendSettings};
use pool_audio::web::{WebPage, WebSettings};
use showcase::level::{Level, Setup};
use wasm_bindgen::prelude::*;

use crate::{RUN_FRAMES, WebGame, files};

// Every allocation of the module counted, for the page to read per frame.
#[global_allocator]
static GLOBAL: alloc_counter::CountingAllocator = alloc_counter::CountingAllocator;

fn js(error: Box<dyn Error>) -> JsError {
    JsError::new(&error.to_string())
}

/// Allocations the module has made since it started (the wasm module runs on
/// one thread).
#[wasm_bindgen]
pub fn allocations() -> f64 {
    alloc_counter::thread_allocations() as f64
}

/// The level through `pool_audio::web`, its worklet started on the page's
/// first user gesture.
#[wasm_bindgen]
pub struct Game {
    game: WebGame,
    page: WebPage,
}

#[wasm_bindgen]
impl Game {
    /// The level buffering `buffering_ms` ahead of the worklet, its sound
    /// captured with room for `capture_events` events (0: none), the first
    /// `record_frames` frames played kept.
    #[wasm_bindgen(constructor)]
    pub fn new(
        buffering_ms: f64,
        capture_events: usize,
        record_frames: u32,
    ) -> Result<Game, JsError> {
        if !buffering_ms.is_finite() || buffering_ms < 0.0 {
            return Err(JsError::new(&format!("a buffering of {buffering_ms} ms")));
        }
        let settings = WebSettings {
            buffering: Duration::from_secs_f64(buffering_ms / 1000.0),
        };
        let capture = (capture_events > 0).then_some(capture_events);
        let game = WebGame::new(settings, capture).map_err(js)?;
        let page = WebPage::recording(game.output(), record_frames);
        Ok(Self { game, page })
    }

    /// The output's sample rate.
    pub fn sample_rate(&self) -> u32 {
        self.game.output().sample_rate()
    }

    /// The frames kept ahead of the worklet.
    pub fn buffering_frames(&self) -> u32 {
        self.game.output().buffering_frames()
    }

    /// One game frame, its audio handed to the worklet once it runs.
    pub fn frame(&mut self) -> Result<(), JsError> {
        let page = &self.page;
        self.game
            .frame_with(|output, backend| page.frame(output, backend, 1.0 / 60.0))
            .map_err(js)?;
        match self.page.failure() {
            Some(failure) => Err(JsError::new(&failure)),
            None => Ok(()),
        }
    }

    /// Underruns the worklet counted, as of the last frame.
    pub fn underruns(&self) -> u32 {
        self.game.output().underruns()
    }

    /// Frames handed to the worklet.
    pub fn written(&self) -> u32 {
        self.game.output().written()
    }

    /// The page's running `PoolAudioOutput` (null before the first gesture).
    pub fn output(&self) -> JsValue {
        self.page.js_output()
    }

    /// The mix's largest peak so far, dBFS, before kira's clamp.
    pub fn peak_db(&self) -> f32 {
        self.game.peak_db()
    }

    /// Real and virtual voices now, as text for the page.
    pub fn voices(&mut self) -> String {
        let stats = self.game.level_mut().sfx.stats();
        format!(
            "{} real, {} virtual",
            stats.real_voices, stats.virtual_voices
        )
    }

    /// Stops the capture and returns it as text (empty without one).
    pub fn capture(&mut self) -> Result<String, JsError> {
        let Some(capture) = self.game.level_mut().sfx.stop_capture() else {
            return Ok(String::new());
        };
        let mut text = Vec::new();
        capture.write(&mut text).map_err(|e| js(e.into()))?;
        String::from_utf8(text).map_err(|e| js(e.into()))
    }
}

/// The level through kira's own web output (cpal's): kira renders when the
/// browser's buffer node ends; the page only runs the game.
#[wasm_bindgen]
pub struct KiraGame {
    level: Level<CpalBackend>,
    frame: usize,
    peak: f32,
}

#[wasm_bindgen]
impl KiraGame {
    /// The level on kira's web output at 48 kHz, in buffers of
    /// `buffer_frames` (0: cpal's default, 2,048); call from a user gesture.
    #[wasm_bindgen(constructor)]
    pub fn new(buffer_frames: u32) -> Result<KiraGame, JsError> {
        let buffer_size = match buffer_frames {
            0 => BufferSize::Default,
            frames => BufferSize::Fixed(frames),
        };
        let settings = CpalBackendSettings {
            device: None,
            config: Some(StreamConfig {
                channels: 2,
                sample_rate: showcase::content::RATE,
                buffer_size,
            }),
        };
        let setup =
            Setup::<CpalBackend>::with_backend(settings, &mut files().map_err(js)?).map_err(js)?;
        let level = Level::from_setup(setup, None, false).map_err(js)?;
        Ok(Self {
            level,
            frame: 0,
            peak: 0.0,
        })
    }

    /// One game frame.
    pub fn frame(&mut self) -> Result<(), JsError> {
        self.level
            .play_frame(self.frame % RUN_FRAMES, RUN_FRAMES)
            .map_err(js)?;
        self.frame += 1;
        self.level.after_audio().map_err(js)?;
        self.peak = self.peak.max(self.level.peak());
        Ok(())
    }

    /// The mix's largest peak so far, dBFS, before kira's clamp.
    pub fn peak_db(&self) -> f32 {
        20.0 * self.peak.max(1e-9).log10()
    }
}

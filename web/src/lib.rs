//! The showcase's level in a browser, three ways, for the figures side by side:
//!
//! - [`WebGame`]: the level (300 looping emitters, waves of enemies, pooled
//!   bullets and effects, a passing car, a storm snapshot and the pause menu)
//!   through [`pool_audio::web`]: each game frame renders just enough ahead of
//!   the AudioWorklet (`Game` in the bindings, with `WebPage`);
//! - `start_bevy`: the `headless` example's level as a Bevy app, through
//!   `bevy_pool`'s `Output::Web`;
//! - `KiraGame`: the level through kira's own web output (cpal's).
//!
//! The level's sound bank and files are built into the program.
//! `scripts/web.sh` builds the page with wasm-bindgen, serves it on the
//! loopback (`--serve`) and drives headless Chromium through it
//! (`--measure`); the bindings (`bindings.rs`, `bevy_app.rs`) are wasm only.
//! Natively this is a plain library, so its tests run with the workspace's.

use std::error::Error;

use pool_audio::OfflineBackend;
use pool_audio::data::SoundBank;
use pool_audio::loader::MemoryLoader;
use pool_audio::web::{WebError, WebOutput, WebSettings};
use showcase::content::{self, FPS};
use showcase::level::{Level, Setup};

#[cfg(target_arch = "wasm32")]
pub mod bevy_app;
#[cfg(target_arch = "wasm32")]
pub mod bindings;

/// Frames in one run of the level (60 s): the listener walks the map once a run.
pub const RUN_FRAMES: usize = 60 * FPS;

/// The level's sound bank and every file it names, built into the program.
const FILES: [(&str, &[u8]); 14] = [
    (
        "sounds/level/explosion_1.wav",
        include_bytes!("../../assets/sounds/level/explosion_1.wav"),
    ),
    (
        "sounds/level/explosion_2.wav",
        include_bytes!("../../assets/sounds/level/explosion_2.wav"),
    ),
    (
        "sounds/level/explosion_3.wav",
        include_bytes!("../../assets/sounds/level/explosion_3.wav"),
    ),
    (
        "sounds/level/gunshot_1.wav",
        include_bytes!("../../assets/sounds/level/gunshot_1.wav"),
    ),
    (
        "sounds/level/gunshot_2.wav",
        include_bytes!("../../assets/sounds/level/gunshot_2.wav"),
    ),
    (
        "sounds/level/gunshot_3.wav",
        include_bytes!("../../assets/sounds/level/gunshot_3.wav"),
    ),
    (
        "sounds/level/gunshot_4.wav",
        include_bytes!("../../assets/sounds/level/gunshot_4.wav"),
    ),
    (
        "sounds/level/horn.wav",
        include_bytes!("../../assets/sounds/level/horn.wav"),
    ),
    (
        "sounds/level/spark.wav",
        include_bytes!("../../assets/sounds/level/spark.wav"),
    ),
    (
        "sounds/level/torch.wav",
        include_bytes!("../../assets/sounds/level/torch.wav"),
    ),
    (
        "sounds/level/waterfall.wav",
        include_bytes!("../../assets/sounds/level/waterfall.wav"),
    ),
    (
        "sounds/step_1.wav",
        include_bytes!("../../assets/sounds/step_1.wav"),
    ),
    (
        "sounds/step_2.wav",
        include_bytes!("../../assets/sounds/step_2.wav"),
    ),
    (
        "sounds/step_3.wav",
        include_bytes!("../../assets/sounds/step_3.wav"),
    ),
];

/// The level's bank, as in the assets folder.
const BANK: &str = include_str!("../../assets/sounds/level.bank.ron");

/// The level's bank and files from what is built in.
///
/// # Errors
/// The bank's (none for the built-in one).
pub fn files() -> Result<content::Files, Box<dyn Error>> {
    let bank = SoundBank::from_ron(content::BANK, BANK)?;
    let mut loader = MemoryLoader::new();
    for (name, bytes) in FILES {
        loader.insert_encoded(name, bytes.to_vec());
    }
    Ok(content::Files { bank, loader })
}

/// The level through [`pool_audio::web`]: the page calls [`WebGame::frame`] 60
/// times a second of its clock and pushes the samples it returns.
pub struct WebGame {
    level: Level,
    output: WebOutput,
    frame: usize,
    /// The largest of the main track's peaks, linear (before kira's clamp).
    peak: f32,
}

impl WebGame {
    /// The level at 48 kHz buffering `settings`' worth ahead of the worklet,
    /// its sound captured with room for `capture` events if asked.
    ///
    /// # Errors
    /// The level's or the output's.
    pub fn new(settings: WebSettings, capture: Option<usize>) -> Result<Self, Box<dyn Error>> {
        let backend = pool_audio::offline::OfflineSettings {
            sample_rate: content::RATE,
        };
        let setup = Setup::with_backend(backend, &mut files()?)?;
        let mut level = Level::from_setup(setup, capture, false)?;
        let output = WebOutput::new(level.manager_mut().backend_mut(), settings)?;
        Ok(Self {
            level,
            output,
            frame: 0,
            peak: 0.0,
        })
    }

    /// One game frame (1/60 s): the game, then what keeps the buffering
    /// ahead of a worklet that has `consumed` frames and counted `underruns`,
    /// then the sound effects' update. Returns the samples for the page to
    /// push.
    ///
    /// # Errors
    /// The level's, or [`pool_audio::web::WebError`] for figures the
    /// output did not hand out.
    pub fn frame(&mut self, consumed: u32, underruns: u32) -> Result<&[f32], Box<dyn Error>> {
        let filled = self
            .frame_with(|output, backend| Ok(output.fill(backend, consumed, underruns)?.len()))?;
        Ok(&self.output.samples()[..filled])
    }

    /// One game frame with the frame's audio made by `audio` (a
    /// [`WebOutput::fill`], or `WebPage::frame` in a browser).
    ///
    /// # Errors
    /// The level's, or `audio`'s.
    pub fn frame_with<R>(
        &mut self,
        audio: impl FnOnce(&mut WebOutput, &mut OfflineBackend) -> Result<R, WebError>,
    ) -> Result<R, Box<dyn Error>> {
        self.level.play_frame(self.frame % RUN_FRAMES, RUN_FRAMES)?;
        self.frame += 1;
        let backend = self.level.manager_mut().backend_mut();
        let made = audio(&mut self.output, backend)?;
        self.level.after_audio()?;
        self.peak = self.peak.max(self.level.peak());
        Ok(made)
    }

    /// The output: its counts and the ring's size.
    pub fn output(&self) -> &WebOutput {
        &self.output
    }

    /// The level.
    pub fn level_mut(&mut self) -> &mut Level {
        &mut self.level
    }

    /// Game frames played.
    pub fn frames(&self) -> usize {
        self.frame
    }

    /// The mix's largest peak so far, dBFS, before kira's clamp.
    pub fn peak_db(&self) -> f32 {
        20.0 * self.peak.max(1e-9).log10()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_the_bank_names_is_built_in() {
        let files = files().unwrap();
        let named: Vec<&str> = files.bank.files().collect();
        let built: Vec<&str> = FILES.iter().map(|(name, _)| *name).collect();
        for name in &named {
            assert!(built.contains(name), "{name} is not built in");
        }
        assert_eq!(
            named.len(),
            built.len(),
            "a built-in file the bank does not name"
        );
    }
}

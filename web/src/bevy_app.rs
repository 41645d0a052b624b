//! The level through `bevy_pool`'s plugins in a browser (wasm only): the
//! `headless` example's systems (`bevy_pool/examples/headless/level.rs`) on
//! `Output::Web`, Bevy's schedule runner at 60 frames a second.

use std::cell::Cell;
use std::time::Duration;

use bevy::app::ScheduleRunnerPlugin;
use bevy::prelude::*;
use bevy_pool::{AudioOutput, EntityPoolPlugin, Output, VfxPlugin};
use pool_audio::web::WebSettings;
use showcase::content::FPS;
use wasm_bindgen::prelude::*;

use crate::{RUN_FRAMES, files};

#[path = "../../bevy_pool/examples/headless/level.rs"]
mod level;

/// What the page reads of the Bevy app, written by its last system each frame.
#[derive(Clone, Copy, Default)]
struct Published {
    frames: u64,
    underruns: u32,
    written: u32,
    web: bool,
    /// Allocations of the module at frame 600 (10 s), and since.
    at_ten_seconds: u64,
    since: u64,
}

thread_local! {
    static PUBLISHED: Cell<Published> = const { Cell::new(Published {
        frames: 0, underruns: 0, written: 0, web: false, at_ten_seconds: 0, since: 0,
    }) };
}

/// Starts the level as a Bevy app buffering `buffering_ms` ahead of the
/// worklet; its sound starts on the page's first click or key.
#[wasm_bindgen]
pub fn start_bevy(buffering_ms: f64) -> Result<(), JsError> {
    if !buffering_ms.is_finite() || buffering_ms < 0.0 {
        return Err(JsError::new(&format!("a buffering of {buffering_ms} ms")));
    }
    let settings = WebSettings {
        buffering: Duration::from_secs_f64(buffering_ms / 1000.0),
    };
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(ScheduleRunnerPlugin::run_loop(Duration::from_secs_f64(
            1.0 / FPS as f64,
        ))),
        TransformPlugin,
        level::sound_plugin(Output::Web(settings)),
        VfxPlugin,
        EntityPoolPlugin,
    ))
    .add_systems(Last, publish);
    let mut files = files().map_err(|e| JsError::new(&e.to_string()))?;
    level::add_level(&mut app, RUN_FRAMES as u64, true, &mut files)
        .map_err(|e| JsError::new(&e.to_string()))?;
    app.run();
    Ok(())
}

fn publish(output: NonSend<AudioOutput>, level: Res<level::Level>) {
    let now = alloc_counter::thread_allocations();
    PUBLISHED.with(|published| {
        let mut p = published.get();
        p.frames = level.frame;
        if let Some(web) = output.web() {
            (p.underruns, p.written, p.web) = (web.underruns(), web.written(), true);
        } else {
            p.web = false;
        }
        if level.frame == 600 {
            p.at_ten_seconds = now;
        }
        if level.frame > 600 {
            p.since = now - p.at_ten_seconds;
        }
        published.set(p);
    });
}

/// The Bevy app's frames, its web output's underruns and frames written, and
/// its allocations per frame after its first 10 s, as
/// `[frames, underruns, written, allocations per frame]` (-1 where there is
/// no web output or no figure yet).
#[wasm_bindgen]
pub fn bevy_stats() -> Vec<f64> {
    let p = PUBLISHED.with(Cell::get);
    let web = |x: u32| if p.web { f64::from(x) } else { -1.0 };
    let per_frame = if p.frames > 600 {
        p.since as f64 / (p.frames - 600) as f64
    } else {
        -1.0
    };
    vec![p.frames as f64, web(p.underruns), web(p.written), per_frame]
}

//! bevy_pool's integration tests, one binary: each module was its own test
//! binary once, and `common` holds what several of them use. Apart: the tests
//! that count heap calls (`tests/counted`, the binary with the counting global
//! allocator), and `tests/device_fallback.rs`, which runs itself again with no
//! ALSA configuration (`device` feature).

mod assets;
mod banks;
mod common;
mod cues;
#[cfg(feature = "debug")]
mod debug_view;
mod effects;
mod emitters;
mod game_params;
mod mixing;
mod music;
#[cfg(feature = "reflect")]
mod scenes;
mod sound_effects;
mod space;

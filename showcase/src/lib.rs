//! The showcase level's content, for the plain showcase (this crate's binary),
//! the Bevy example that plays the same level through `bevy_pool`'s plugins, and
//! the web example (`web/`) that plays it in a browser.

pub mod car;
pub mod content;
pub mod level;

//! The showcase level's content, for the plain showcase (this crate's binary)
//! and the Bevy example that plays the same level through `bevy_pool`'s plugins.

pub mod car;
pub mod content;

//! The tests that count heap calls, in one binary with the counting allocator.
//! It counts per thread, so tests running side by side do not see each
//! other's allocations: the mixer's blocks allocate nothing, loading holds
//! what it says, music streams in bounded memory.

#[global_allocator]
static GLOBAL: alloc_counter::CountingAllocator = alloc_counter::CountingAllocator;

#[allow(dead_code)]
#[path = "../audio/common.rs"]
mod common;
mod game;
mod loaders;
mod music;
mod no_alloc;
mod offline;
mod reload;
mod voice_table;
mod web;

//! The tests that count heap calls, in one binary with the counting allocator
//! (it counts per thread, so tests running side by side do not see each
//! other's allocations): a warm frame of the plugins, of the entity pools and
//! of the sprites allocates nothing.

#[global_allocator]
static GLOBAL: alloc_counter::CountingAllocator = alloc_counter::CountingAllocator;

#[cfg(feature = "debug")]
mod debug_view;
mod entity_pools;
mod no_alloc;
mod sprites;

//! The tests that count heap calls, in one binary with the counting allocator
//! (it counts per thread, so tests running side by side do not see each
//! other's allocations): a warm frame of effects, culled or not, allocates
//! nothing.

#[global_allocator]
static GLOBAL: alloc_counter::CountingAllocator = alloc_counter::CountingAllocator;

mod culling;
mod no_alloc;

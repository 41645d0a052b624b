//! Your own policy on your own object type, beside the built-in ones, measured
//! side by side in one run and printed as the report's table:
//! `cargo run --release -p benches --example compare_policies [-- --quick]`.
//!
//! The object and the policy are defined here: replace them with yours.

use benches::{Pooled, Settings, compare_policy, print_pool_table};
use pool_core::{ExhaustionPolicy, Key, LiveObjects};

// Counts allocations, for the table's last column.
#[global_allocator]
static GLOBAL: alloc_counter::CountingAllocator = alloc_counter::CountingAllocator;

/// The pooled object: an enemy with a priority.
#[derive(Default)]
struct Enemy {
    health: f32,
    priority: u32,
}

impl Pooled for Enemy {
    fn fresh() -> Self {
        Enemy::default()
    }

    fn spawn(&mut self, n: u32) {
        *self = Enemy {
            health: 100.0,
            priority: n % 8,
        };
    }
}

/// The policy: recycle the live enemy with the lowest priority (O(live)).
struct LowestPriority;

impl ExhaustionPolicy<Enemy> for LowestPriority {
    fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, Enemy, K>) -> Option<K> {
        // The lowest priority; among equals, the weakest.
        live.iter()
            .min_by(|(_, a), (_, b)| {
                a.priority
                    .cmp(&b.priority)
                    .then(a.health.total_cmp(&b.health))
            })
            .map(|(handle, _)| handle)
    }
}

fn main() {
    let settings = Settings::from_args();
    let rows = compare_policy("lowest_priority", || LowestPriority, &[64, 1024], &settings);
    print_pool_table(&rows, &settings);
}

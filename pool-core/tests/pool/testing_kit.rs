//! The property-test kit (`pool_core::testing`) on the built-in policies, which
//! it must pass, and on deliberately broken ones, which it must catch and report
//! as a short, readable story.

use pool_core::testing::{Failure, PoolTest, oldest, refuses};
use pool_core::{
    ExhaustionPolicy, Key, LiveObjects, PolicyChoice, RecycleLowest, RecycleOldest, Strict,
};
use slotmap::KeyData;

/// A pooled object with something to choose by.
#[derive(Debug, Default)]
struct Enemy {
    priority: u32,
    hits: u32,
}

/// The seed of the tests that assert what a failure shrinks to: shrinking
/// finds a small case, and with a new seed each run not always the same one.
const SEED: u64 = 1;

fn enemies() -> PoolTest<Enemy> {
    PoolTest::new(Enemy::default)
        .mutate(|enemy, value| enemy.priority = value % 4)
        .on_acquire(|enemy| enemy.hits += 1)
        .on_release(|enemy| enemy.priority = 0)
}

/// The first live object with the lowest priority (oldest first).
fn lowest_priority(
    live: &[(pool_core::Handle, &Enemy)],
    victim: Option<pool_core::Handle>,
) -> Result<(), String> {
    let lowest = live.iter().min_by_key(|(_, e)| e.priority).map(|(h, _)| *h);
    if victim == lowest {
        Ok(())
    } else {
        Err(format!(
            "chose {victim:?}, the first lowest priority is {lowest:?}"
        ))
    }
}

#[test]
fn the_built_in_policies_pass() {
    enemies().expect_victim(refuses()).run(|| Strict);
    enemies().expect_victim(oldest()).run(|| RecycleOldest);
    enemies()
        .expect_victim(lowest_priority)
        .run(|| RecycleLowest(|e: &Enemy| e.priority));
    enemies()
        .expect_victim(oldest())
        .run(|| PolicyChoice::RecycleOldest);
    enemies()
        .expect_victim(refuses())
        .run(|| PolicyChoice::Strict);
}

#[test]
fn a_custom_policy_passes_with_its_own_rule() {
    struct LowestPriority;
    impl ExhaustionPolicy<Enemy> for LowestPriority {
        fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, Enemy, K>) -> Option<K> {
            live.iter()
                .min_by_key(|(_, e)| e.priority)
                .map(|(handle, _)| handle)
        }
    }
    enemies()
        .max_objects(1..=8)
        .expect_victim(lowest_priority)
        .run(|| LowestPriority);
}

/// Recycles the oldest, then names that same (now stale) object again.
struct SameVictimTwice {
    last: Option<KeyData>,
}

impl<T> ExhaustionPolicy<T> for SameVictimTwice {
    fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, T, K>) -> Option<K> {
        match self.last {
            Some(last) => Some(K::from(last)),
            None => {
                let oldest = live.oldest()?;
                self.last = Some(oldest.data());
                Some(oldest)
            }
        }
    }
}

/// Names a handle the pool never gave anyone.
struct MadeUp;

impl<T> ExhaustionPolicy<T> for MadeUp {
    fn choose_victim<K: Key>(&mut self, _: LiveObjects<'_, T, K>) -> Option<K> {
        Some(K::null())
    }
}

/// Panics when asked.
struct Panics;

impl<T> ExhaustionPolicy<T> for Panics {
    fn choose_victim<K: Key>(&mut self, _: LiveObjects<'_, T, K>) -> Option<K> {
        panic!("this policy panics");
    }
}

/// Recycles the newest: legal, but not what the rule says.
struct Newest;

impl<T> ExhaustionPolicy<T> for Newest {
    fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, T, K>) -> Option<K> {
        live.newest()
    }
}

fn failure(result: Result<(), Failure>) -> Failure {
    let failure = result.expect_err("the kit should have caught the broken policy");
    // The report, as a user reads it (shown with --nocapture).
    println!("{failure}\n");
    failure
}

#[test]
fn a_victim_that_is_no_longer_live_is_reported_with_its_history() {
    let failure = failure(
        enemies()
            .seed(SEED)
            .check(|| SameVictimTwice { last: None }),
    );
    assert!(
        failure
            .reason
            .contains("which is not live: it was recycled at step 2"),
        "{failure}"
    );
    assert_eq!(failure.max_objects, 1, "shrunk to the smallest pool");
    assert_eq!(
        failure.steps,
        [
            "acquire -> #1",
            "acquire -> #2: pool full; the policy chose #1, recycled",
            "acquire: pool full; the policy chose #1",
        ],
        "{failure}"
    );
}

#[test]
fn a_victim_never_handed_out_is_reported() {
    let failure = failure(enemies().seed(SEED).check(|| MadeUp));
    assert!(
        failure.reason.contains("this pool never handed it out"),
        "{failure}"
    );
    assert!(failure.reason.contains("InvalidVictim"), "{failure}");
    assert_eq!(
        failure.steps,
        [
            "acquire -> #1",
            "acquire: pool full; the policy chose a handle this pool never handed out",
        ],
        "{failure}"
    );
}

#[test]
fn a_panicking_policy_is_reported_with_the_sequence_that_reaches_it() {
    let failure = failure(enemies().seed(SEED).check(|| Panics));
    assert!(
        failure
            .reason
            .contains("user code panicked: this policy panics"),
        "{failure}"
    );
    assert_eq!(failure.max_objects, 1, "{failure}");
    assert_eq!(failure.steps, ["acquire -> #1", "acquire"], "{failure}");
}

#[test]
fn a_policy_that_breaks_the_users_rule_is_reported() {
    let failure = failure(
        enemies()
            .seed(SEED)
            .expect_victim(oldest())
            .check(|| Newest),
    );
    assert!(
        failure
            .reason
            .contains("the victim is not the oldest live object"),
        "{failure}"
    );
    // The smallest pool where the newest is not the oldest: two objects.
    assert_eq!(failure.max_objects, 2, "{failure}");
    assert_eq!(failure.steps.len(), 3, "{failure}");
}

#[test]
fn a_rule_about_the_objects_is_checked_at_every_choice() {
    // RecycleOldest ignores priorities: the kit finds a case where the oldest is
    // not the lowest priority, and says which write made it so.
    let failure = failure(
        enemies()
            .expect_victim(lowest_priority)
            .check(|| RecycleOldest),
    );
    assert!(
        failure.reason.contains("the first lowest priority"),
        "{failure}"
    );
    assert!(
        failure
            .steps
            .iter()
            .any(|s| s.starts_with("write") || s.contains(", writing")),
        "{failure}"
    );
}

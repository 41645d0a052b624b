//! A model-based property test for your own pool configuration: your object type,
//! factory, hooks and exhaustion policy (feature `testing`).
//!
//! # Why
//! A custom [`ExhaustionPolicy`] or a hook is code the pool trusts: a policy that
//! names an object that is no longer live, or a hook that disturbs what the pool
//! counts, breaks promises the pool cannot check on the hot path. This is the test
//! the crate runs on itself, made generic: random sequences of operations (acquire,
//! release, renew, reclaim, get, your own writes, reinitialize, clear, trim,
//! prewarm) are applied to a pool built from your parts and to a small reference
//! model, and after every step the pool must agree with the model:
//!
//! - live, idle and total counts, every statistic, and the live objects in the
//!   pool's order (acquisition order, or by slot for a policy that keeps none);
//! - no two live handles reach the same object; a handle once stale stays stale and
//!   a new handle is never an old one;
//! - your factory and hooks are called exactly as documented, once per creation,
//!   handout, release and destruction (dropping the pool included);
//! - on a full pool, whatever your policy does is something a policy may do: refuse
//!   (then the pool refuses), or name a live object, which is then reset, handed out
//!   again (the same object) and its old handle stale. A victim that is not live is
//!   reported as released, recycled or never handed out;
//! - and whatever you expect of your policy: the model cannot know which victim you
//!   meant, so [`PoolTest::expect_victim`] takes your rule ("the lowest priority")
//!   and checks it at every choice. [`oldest`] and [`refuses`] are the rules of the
//!   built-in policies.
//!
//! A failure is shrunk to a minimal case and replayed step by step, so the report
//! reads as a story: `3. acquire: pool full; policy chose #1, which was recycled at
//! step 2`. A panic in your code is reported the same way.
//!
//! # How
//! ```
//! use pool_core::testing::PoolTest;
//! use pool_core::{ExhaustionPolicy, Key, LiveObjects};
//!
//! #[derive(Default)]
//! struct Enemy { priority: u32 }
//!
//! struct LowestPriority;
//! impl ExhaustionPolicy<Enemy> for LowestPriority {
//!     fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, Enemy, K>) -> Option<K> {
//!         live.iter().min_by_key(|(_, e)| e.priority).map(|(handle, _)| handle)
//!     }
//! }
//!
//! PoolTest::new(Enemy::default)
//!     .mutate(|enemy, value| enemy.priority = value % 4)
//!     .on_release(|enemy| enemy.priority = 0)
//!     .expect_victim(|live, victim| {
//!         let lowest = live.iter().map(|(_, e)| e.priority).min();
//!         let chosen = live.iter().find(|(h, _)| Some(*h) == victim).map(|(_, e)| e.priority);
//!         if chosen == lowest { Ok(()) } else { Err(format!("chose {chosen:?}, lowest is {lowest:?}")) }
//!     })
//!     .run(|| LowestPriority);
//! ```
//!
//! [`PoolTest::check`] returns the [`Failure`] instead of panicking. The number of
//! cases follows proptest's `PROPTEST_CASES` (default 256) unless
//! [`PoolTest::cases`] sets it.

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;
use core::ops::RangeInclusive;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestError, TestRunner};

use crate::{ExhaustionPolicy, Handle, Key, LiveObjects};

mod model;

/// What a rule about the victim sees: the live objects of the full pool, oldest
/// first, and what the policy chose (`None`: it refused).
pub type Expectation<T> =
    dyn Fn(&[(Handle, &T)], Option<Handle>) -> Result<(), String> + Send + Sync;

type Factory<T> = dyn Fn() -> T + Send + Sync;
type Hook<T> = dyn Fn(&mut T) + Send + Sync;
type Destroy<T> = dyn Fn(T) + Send + Sync;
type Mutate<T> = dyn Fn(&mut T, u32) + Send + Sync;

/// A model-based property test of one pool configuration: see the
/// [module docs](self).
///
/// ```
/// use pool_core::RecycleOldest;
/// use pool_core::testing::{PoolTest, oldest};
///
/// PoolTest::new(|| 0u32).max_objects(1..=4).expect_victim(oldest()).run(|| RecycleOldest);
/// ```
pub struct PoolTest<T> {
    factory: Arc<Factory<T>>,
    on_acquire: Option<Arc<Hook<T>>>,
    on_release: Option<Arc<Hook<T>>>,
    on_destroy: Option<Arc<Destroy<T>>>,
    mutate: Option<Arc<Mutate<T>>>,
    expect: Option<Arc<Expectation<T>>>,
    max_objects: RangeInclusive<usize>,
    operations: usize,
    cases: Option<u32>,
}

impl<T: 'static> PoolTest<T> {
    /// A test of pools whose objects `factory` makes; sizes `1..=6`, up to 64
    /// operations per case, any victim allowed.
    ///
    /// ```
    /// # use pool_core::testing::PoolTest;
    /// PoolTest::new(String::new).run(|| pool_core::Strict);
    /// ```
    pub fn new(factory: impl Fn() -> T + Send + Sync + 'static) -> Self {
        Self {
            factory: Arc::new(factory),
            on_acquire: None,
            on_release: None,
            on_destroy: None,
            mutate: None,
            expect: None,
            max_objects: 1..=6,
            operations: 64,
            cases: None,
        }
    }

    /// The range `max_objects` is drawn from (`initial` is drawn from
    /// `0..=max_objects`, and half the pools are built lazily). Small pools fill up
    /// often, which is where policies act.
    ///
    /// ```
    /// # use pool_core::testing::PoolTest;
    /// PoolTest::new(|| 0u8).max_objects(1..=2).run(|| pool_core::RecycleOldest);
    /// ```
    pub fn max_objects(mut self, range: RangeInclusive<usize>) -> Self {
        self.max_objects = range;
        self
    }

    /// At most this many operations per case (default 64).
    ///
    /// ```
    /// # use pool_core::testing::PoolTest;
    /// PoolTest::new(|| 0u8).operations(8).run(|| pool_core::Strict);
    /// ```
    pub fn operations(mut self, operations: usize) -> Self {
        self.operations = operations;
        self
    }

    /// How many random cases to run (default: proptest's, 256 or
    /// `PROPTEST_CASES`).
    ///
    /// ```
    /// # use pool_core::testing::PoolTest;
    /// PoolTest::new(|| 0u8).cases(16).run(|| pool_core::Strict);
    /// ```
    pub fn cases(mut self, cases: u32) -> Self {
        self.cases = Some(cases);
        self
    }

    /// The pool's acquire hook (see [`PoolBuilder::on_acquire`](crate::PoolBuilder::on_acquire)).
    ///
    /// ```
    /// # use pool_core::testing::PoolTest;
    /// PoolTest::new(|| 0u32).on_acquire(|n| *n += 1).run(|| pool_core::Strict);
    /// ```
    pub fn on_acquire(mut self, hook: impl Fn(&mut T) + Send + Sync + 'static) -> Self {
        self.on_acquire = Some(Arc::new(hook));
        self
    }

    /// The pool's release hook (see [`PoolBuilder::on_release`](crate::PoolBuilder::on_release)).
    ///
    /// ```
    /// # use pool_core::testing::PoolTest;
    /// PoolTest::new(|| 0u32).on_release(|n| *n = 0).run(|| pool_core::Strict);
    /// ```
    pub fn on_release(mut self, hook: impl Fn(&mut T) + Send + Sync + 'static) -> Self {
        self.on_release = Some(Arc::new(hook));
        self
    }

    /// The pool's destroy hook (see [`PoolBuilder::on_destroy`](crate::PoolBuilder::on_destroy)).
    ///
    /// ```
    /// # use pool_core::testing::PoolTest;
    /// PoolTest::new(|| vec![0u8; 4]).on_destroy(drop).run(|| pool_core::Strict);
    /// ```
    pub fn on_destroy(mut self, hook: impl Fn(T) + Send + Sync + 'static) -> Self {
        self.on_destroy = Some(Arc::new(hook));
        self
    }

    /// What a random write does to a live object, given a random number below 100: how the
    /// objects come to differ, so that a policy has something to choose by.
    ///
    /// ```
    /// # use pool_core::testing::PoolTest;
    /// PoolTest::new(|| 0u32).mutate(|n, value| *n = value % 10).run(|| pool_core::Strict);
    /// ```
    pub fn mutate(mut self, mutate: impl Fn(&mut T, u32) + Send + Sync + 'static) -> Self {
        self.mutate = Some(Arc::new(mutate));
        self
    }

    /// Your rule for the policy, checked at every choice it makes on a full pool:
    /// given the live objects (oldest first) and the victim (`None`: it refused),
    /// `Err` with a reason if the choice breaks the rule.
    ///
    /// ```
    /// # use pool_core::testing::PoolTest;
    /// use pool_core::RecycleLowest;
    ///
    /// PoolTest::new(|| 0u32)
    ///     .mutate(|n, value| *n = value % 5)
    ///     .expect_victim(|live, victim| {
    ///         let lowest = live.iter().min_by_key(|(_, n)| **n).map(|(h, _)| *h);
    ///         if victim == lowest { Ok(()) } else { Err("not the first lowest".into()) }
    ///     })
    ///     .run(|| RecycleLowest(|n: &u32| *n));
    /// ```
    pub fn expect_victim(
        mut self,
        expect: impl Fn(&[(Handle, &T)], Option<Handle>) -> Result<(), String> + Send + Sync + 'static,
    ) -> Self {
        self.expect = Some(Arc::new(expect));
        self
    }

    /// Runs the test with a policy made by `policy` for each case.
    ///
    /// # Panics
    /// With the [`Failure`] report, when a case fails: the test failed. See
    /// [`check`](Self::check) to get the failure instead.
    ///
    /// ```
    /// # use pool_core::testing::{PoolTest, refuses};
    /// PoolTest::new(|| 0u8).expect_victim(refuses()).run(|| pool_core::Strict);
    /// ```
    pub fn run<P: ExhaustionPolicy<T> + 'static>(&self, policy: impl Fn() -> P) {
        if let Err(failure) = self.check(policy) {
            panic!("{failure}");
        }
    }

    /// Runs the test with a policy made by `policy` for each case.
    ///
    /// # Errors
    /// The first failing case, shrunk and replayed step by step.
    ///
    /// ```
    /// use pool_core::testing::{PoolTest, oldest};
    ///
    /// // `Strict` refuses where the rule expects the oldest to be recycled.
    /// let failure = PoolTest::new(|| 0u8).expect_victim(oldest()).check(|| pool_core::Strict).unwrap_err();
    /// assert!(failure.to_string().contains("refused"));
    /// // The shrunk case ends with the refusal (shrinking usually leaves a pool of
    /// // 1 and two acquires; a random run may keep a step more).
    /// assert!(failure.steps.last().unwrap().contains("refused"), "{failure}");
    /// ```
    pub fn check<P: ExhaustionPolicy<T> + 'static>(
        &self,
        policy: impl Fn() -> P,
    ) -> Result<(), Failure> {
        let mut config = Config {
            failure_persistence: None,
            ..Config::default()
        };
        if let Some(cases) = self.cases {
            config.cases = cases;
        }
        let mut runner = TestRunner::new(config);
        let strategy = case(self.max_objects.clone(), self.operations);
        let result = runner.run(&strategy, |case| {
            model::run(self, policy(), &case, None).map_err(TestCaseError::fail)
        });
        match result {
            Ok(()) => Ok(()),
            Err(TestError::Abort(reason)) => Err(Failure {
                reason: format!("the test could not run: {reason}"),
                initial: 0,
                max_objects: 0,
                lazy: false,
                steps: Vec::new(),
            }),
            Err(TestError::Fail(reason, case)) => {
                // Replay the minimal case for its story.
                let mut steps = Vec::new();
                let replayed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    model::run(self, policy(), &case, Some(&mut steps))
                }));
                let reason = match replayed {
                    Ok(Err(reason)) => reason,
                    _ => String::from(reason.message()),
                };
                Err(Failure {
                    reason,
                    initial: case.initial,
                    max_objects: case.max_objects,
                    lazy: case.lazy,
                    steps,
                })
            }
        }
    }
}

/// The rule of [`RecycleOldest`](crate::RecycleOldest): the oldest live object is
/// the victim.
///
/// ```
/// use pool_core::testing::{PoolTest, oldest};
/// PoolTest::new(|| 0u8).expect_victim(oldest()).run(|| pool_core::RecycleOldest);
/// ```
pub fn oldest<T>()
-> impl Fn(&[(Handle, &T)], Option<Handle>) -> Result<(), String> + Send + Sync + 'static {
    |live, victim| {
        let oldest = live.first().map(|(handle, _)| *handle);
        match victim {
            None => Err(String::from(
                "the policy refused; the oldest should have been recycled",
            )),
            Some(victim) if Some(victim) == oldest => Ok(()),
            Some(_) => Err(String::from("the victim is not the oldest live object")),
        }
    }
}

/// The rule of [`Strict`](crate::Strict): a full pool refuses.
///
/// ```
/// use pool_core::testing::{PoolTest, refuses};
/// PoolTest::new(|| 0u8).expect_victim(refuses()).run(|| pool_core::Strict);
/// ```
pub fn refuses<T>()
-> impl Fn(&[(Handle, &T)], Option<Handle>) -> Result<(), String> + Send + Sync + 'static {
    |_, victim| match victim {
        None => Ok(()),
        Some(_) => Err(String::from("the policy recycled; a strict pool refuses")),
    }
}

/// A failed [`PoolTest`]: what went wrong, and the minimal case that shows it,
/// replayed step by step. Its `Display` is the report.
///
/// ```
/// use pool_core::testing::{PoolTest, refuses};
/// let failure = PoolTest::new(|| 0u8).expect_victim(refuses()).check(|| pool_core::RecycleOldest).unwrap_err();
/// assert_eq!(failure.max_objects, 1);
/// assert!(failure.reason.contains("strict"), "{failure}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Failure {
    /// What the pool or the policy did wrong, at the last step.
    pub reason: String,
    /// The failing case's `initial`.
    pub initial: usize,
    /// The failing case's `max_objects`.
    pub max_objects: usize,
    /// Whether the pool was built with `build_lazy`.
    pub lazy: bool,
    /// Each operation of the minimal case and what the model says it did; handles
    /// are named `#1`, `#2`... in the order they were handed out.
    pub steps: Vec<String>,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "pool test failed: {}", self.reason)?;
        write!(
            f,
            "minimal case: initial {}, max_objects {}{}, {} operation(s):",
            self.initial,
            self.max_objects,
            if self.lazy { ", built lazily" } else { "" },
            self.steps.len()
        )?;
        for (i, step) in self.steps.iter().enumerate() {
            write!(f, "\n  {}. {step}", i + 1)?;
        }
        Ok(())
    }
}

impl std::error::Error for Failure {}

/// One operation of a case.
#[derive(Debug, Clone, Copy)]
enum Op {
    Acquire,
    /// The live handle at this index (oldest first), or with `true` the stale one
    /// (both wrap around; either kind if there is none of the other).
    Release(usize, bool),
    Renew(usize, bool),
    Get(usize, bool),
    Write(usize, bool, u32),
    /// Releases the live objects at the set bits of their positions, oldest first.
    Reclaim(u64),
    Reinitialize,
    Clear(bool),
    TrimIdle(usize),
    PrewarmStep(usize),
}

#[derive(Debug, Clone)]
struct Case {
    initial: usize,
    max_objects: usize,
    lazy: bool,
    ops: Vec<Op>,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => Just(Op::Acquire),
        4 => (any::<usize>(), stale()).prop_map(|(i, s)| Op::Release(i, s)),
        1 => (any::<usize>(), stale()).prop_map(|(i, s)| Op::Renew(i, s)),
        2 => (any::<usize>(), stale()).prop_map(|(i, s)| Op::Get(i, s)),
        3 => (any::<usize>(), stale(), 0..100u32).prop_map(|(i, s, v)| Op::Write(i, s, v)),
        1 => any::<u64>().prop_map(Op::Reclaim),
        1 => Just(Op::Reinitialize),
        1 => any::<bool>().prop_map(Op::Clear),
        1 => (0..4usize).prop_map(Op::TrimIdle),
        1 => (0..4usize).prop_map(Op::PrewarmStep),
    ]
}

/// A stale handle one time in four.
fn stale() -> impl Strategy<Value = bool> {
    prop::bool::weighted(0.25)
}

fn case(max_objects: RangeInclusive<usize>, operations: usize) -> impl Strategy<Value = Case> {
    let (low, high) = (*max_objects.start(), *max_objects.end());
    (low.max(1)..=high.max(low).max(1)).prop_flat_map(move |max| {
        (
            0..=max,
            any::<bool>(),
            prop::collection::vec(op(), 0..=operations),
        )
            .prop_map(move |(initial, lazy, ops)| Case {
                initial,
                max_objects: max,
                lazy,
                ops,
            })
    })
}

/// How often the user's code ran.
#[derive(Debug, Default)]
struct Calls {
    factory: AtomicU64,
    acquire: AtomicU64,
    release: AtomicU64,
    destroy: AtomicU64,
}

impl Calls {
    fn read(&self) -> [u64; 4] {
        [&self.factory, &self.acquire, &self.release, &self.destroy]
            .map(|count| count.load(Ordering::Relaxed))
    }
}

/// What the policy did at its last choice.
struct Choice {
    live: Vec<Handle>,
    victim: Option<Handle>,
    /// Where the victim's object is, to check that the same object is handed out.
    victim_at: Option<usize>,
    verdict: Result<(), String>,
}

/// The user's policy, recording each choice and judging it by the expectation.
struct Recording<P, T> {
    inner: P,
    expect: Option<Arc<Expectation<T>>>,
    choice: Arc<Mutex<Option<Choice>>>,
}

impl<T, P: ExhaustionPolicy<T>> ExhaustionPolicy<T> for Recording<P, T> {
    const KEEPS_ORDER: bool = P::KEEPS_ORDER;

    fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, T, K>) -> Option<K> {
        let victim = self.inner.choose_victim(live);
        let objects: Vec<(Handle, &T)> = live
            .iter()
            .map(|(key, object)| (Handle::from(key.data()), object))
            .collect();
        let victim_handle = victim.map(|key| Handle::from(key.data()));
        let victim_at = objects
            .iter()
            .find(|(handle, _)| Some(*handle) == victim_handle)
            .map(|(_, object)| *object as *const T as usize);
        let verdict = match &self.expect {
            Some(expect) => expect(&objects, victim_handle),
            None => Ok(()),
        };
        *self.choice.lock().unwrap_or_else(|e| e.into_inner()) = Some(Choice {
            live: objects.iter().map(|(handle, _)| *handle).collect(),
            victim: victim_handle,
            victim_at,
            verdict,
        });
        victim
    }
}

/// The pool under test: the user's parts wrapped to count and record.
type Tested<T, P> = crate::Pool<T, Recording<P, T>, Handle>;

fn build<T: 'static, P: ExhaustionPolicy<T>>(
    test: &PoolTest<T>,
    policy: P,
    case: &Case,
    calls: &Arc<Calls>,
    choice: &Arc<Mutex<Option<Choice>>>,
) -> Result<Tested<T, P>, String> {
    let (factory, counts) = (test.factory.clone(), calls.clone());
    let mut builder = crate::Pool::builder(move || {
        counts.factory.fetch_add(1, Ordering::Relaxed);
        factory()
    })
    .initial(case.initial)
    .max_objects(case.max_objects)
    .policy(Recording {
        inner: policy,
        expect: test.expect.clone(),
        choice: choice.clone(),
    })
    .handle::<Handle>();
    let (hook, counts) = (test.on_acquire.clone(), calls.clone());
    builder = builder.on_acquire(move |object| {
        counts.acquire.fetch_add(1, Ordering::Relaxed);
        if let Some(hook) = &hook {
            hook(object);
        }
    });
    let (hook, counts) = (test.on_release.clone(), calls.clone());
    builder = builder.on_release(move |object| {
        counts.release.fetch_add(1, Ordering::Relaxed);
        if let Some(hook) = &hook {
            hook(object);
        }
    });
    let (hook, counts) = (test.on_destroy.clone(), calls.clone());
    builder = builder.on_destroy(move |object| {
        counts.destroy.fetch_add(1, Ordering::Relaxed);
        if let Some(hook) = &hook {
            hook(object);
        }
    });
    let built = if case.lazy {
        builder.build_lazy()
    } else {
        builder.build()
    };
    built.map_err(|error| format!("the pool could not be built: {error}"))
}

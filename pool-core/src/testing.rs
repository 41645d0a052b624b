//! A model-based property test for your own pool configuration: your object type,
//! factory, hooks and exhaustion policy (feature `testing`).
//!
//! # Why
//! A custom [`ExhaustionPolicy`] or a hook is code the pool trusts: a policy that
//! names an object that is no longer live, or a hook that disturbs what the pool
//! counts, breaks promises the pool cannot check on the hot path. This is the test
//! the crate runs on itself, made generic: random sequences of operations (acquire,
//! release, renew, reclaim, get, your own writes through `get_mut`,
//! `get_disjoint_mut`, `for_each_mut` and `iter_mut`, reinitialize, clear, trim,
//! prewarm, another pool's handles) are applied to a pool built from your parts and to a small reference
//! model, and after every step the pool must agree with the model:
//!
//! - live, idle and total counts, every statistic, and the live objects in the
//!   pool's order (acquisition order, or by slot for a policy that keeps none);
//! - no two live handles reach the same object; a handle once stale stays stale and
//!   a new handle is never an old one; a handle of another pool of the same
//!   handle type reaches nothing;
//! - your factory and hooks are called exactly as documented, once per creation,
//!   handout, release and destruction (dropping the pool included);
//! - on a full pool, whatever your policy does is something a policy may do: refuse
//!   (then the pool refuses), or name a live object, which is then reset, handed out
//!   again (the same object) and its old handle stale. A victim that is not live is
//!   reported as released, recycled or never handed out;
//! - with [`PoolTest::check_contents`], each live object's `Debug` text is the
//!   model's, and each hook is given the object the model expects: with objects
//!   your factory numbers, every handout, recycle, write and destruction reaches
//!   the right object;
//! - with [`PoolTest::inject_panics`], steps run with your factory, a hook or the
//!   policy panicking, and the pool must do what the crate docs promise for a
//!   panic in user code;
//! - and whatever you expect of your policy: the model cannot know which victim you
//!   meant, so [`PoolTest::expect_victim`] takes your rule ("the lowest priority")
//!   and checks it at every choice. [`oldest`] and [`refuses`] are the rules of the
//!   built-in policies.
//!
//! A failure is shrunk to a minimal case and replayed step by step, so the report
//! reads as a story: `3. acquire: pool full; policy chose #1, which was recycled at
//! step 2`. A panic in your code is reported the same way.
//!
//! This model is the crate's only one: its own model test runs it on every
//! built-in policy with numbered objects, contents checked and panics injected,
//! and its fuzz target feeds it cases through [`PoolTest::check_case`] (with the
//! `arbitrary` feature, [`Step`] and [`Op`] come from fuzzer input).
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
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use core::ops::RangeInclusive;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestError, TestRunner};

use crate::{ExhaustionPolicy, Handle, Key, LiveObjects};

mod check;
mod model;
mod replay;
mod steps;

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
    seed: Option<u64>,
    panics: bool,
    show: Option<fn(&T) -> String>,
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
            seed: None,
            panics: false,
            show: None,
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

    /// Draws the random cases from `seed`, so that every run draws the same
    /// ones and shrinks a failure to the same case (default: a new seed each
    /// run, or `PROPTEST_RNG_SEED`). For a test that asserts what a failure
    /// shrinks to; shrinking finds a small case, not always the smallest.
    ///
    /// ```
    /// use pool_core::testing::{PoolTest, oldest};
    ///
    /// // `Strict` refuses where the rule expects the oldest to be recycled.
    /// let test = PoolTest::new(|| 0u8).expect_victim(oldest()).seed(7);
    /// let first = test.check(|| pool_core::Strict).unwrap_err();
    /// assert_eq!(first, test.check(|| pool_core::Strict).unwrap_err());
    /// ```
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
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

    /// Also runs steps with one piece of user code (the factory, a hook, the
    /// policy) panicking, and checks that the pool then does what its docs promise
    /// ("Panics in user code" in the crate docs): a game that catches a panic keeps
    /// a pool that agrees with the model. The panics are the kit's own, raised
    /// where your code would run; the kit's panic hook keeps them off standard
    /// error, and any other panic is still a failure.
    ///
    /// ```
    /// # use pool_core::testing::PoolTest;
    /// PoolTest::new(|| 0u32).on_release(|n| *n = 0).inject_panics().run(|| pool_core::RecycleOldest);
    /// ```
    pub fn inject_panics(mut self) -> Self {
        self.panics = true;
        self
    }

    /// Also checks what is in the objects, through their `Debug` text: the model
    /// keeps each object's text as your factory made it and as each hook and
    /// write left it, and after every step each live object must read as the
    /// model's. The object a hook is given, and the one dropped by the destroy
    /// hook, must be the one the model expects; so a factory that numbers its
    /// objects makes every handout, recycle and destruction an identity check.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// use pool_core::testing::PoolTest;
    ///
    /// static SERIAL: AtomicU32 = AtomicU32::new(0);
    /// PoolTest::new(|| (SERIAL.fetch_add(1, Ordering::Relaxed), 0u32))
    ///     .mutate(|(_, value), v| *value = v)
    ///     .on_release(|(_, value)| *value = 0)
    ///     .check_contents()
    ///     .run(|| pool_core::RecycleOldest);
    /// ```
    pub fn check_contents(mut self) -> Self
    where
        T: fmt::Debug,
    {
        self.show = Some(|object| format!("{object:?}"));
        self
    }

    /// Runs one case, such as one a fuzzer made or one written by hand, with
    /// `policy`; a case of a pool that cannot be built (`max_objects` 0, or
    /// `initial` above it) fails with the builder's error.
    ///
    /// # Errors
    /// The [`Failure`], with the case replayed step by step.
    ///
    /// ```
    /// use pool_core::testing::{Case, Op, PoolTest};
    ///
    /// let case = Case::new(0, 1, false, vec![Op::Acquire.into(), Op::Acquire.into()]);
    /// let failure = PoolTest::new(|| 0u8).check_case(pool_core::Strict, &case);
    /// assert!(failure.is_ok());
    /// ```
    pub fn check_case<P: ExhaustionPolicy<T> + 'static>(
        &self,
        policy: P,
        case: &Case,
    ) -> Result<(), Failure> {
        let mut steps = Vec::new();
        let replayed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            replay::run(self, policy, case, Some(&mut steps))
        }));
        let reason = match replayed {
            Ok(Ok(())) => return Ok(()),
            Ok(Err(reason)) => reason,
            Err(payload) => format!("the kit panicked: {}", replay::message(&*payload)),
        };
        Err(Failure {
            reason,
            initial: case.initial,
            max_objects: case.max_objects,
            lazy: case.lazy,
            steps,
        })
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
        if let Some(seed) = self.seed {
            config.rng_seed = RngSeed::Fixed(seed);
        }
        let mut runner = TestRunner::new(config);
        let strategy = case(self.max_objects.clone(), self.operations, self.panics);
        let result = runner.run(&strategy, |case| {
            replay::run(self, policy(), &case, None).map_err(TestCaseError::fail)
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
                    replay::run(self, policy(), &case, Some(&mut steps))
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

/// Which piece of user code a [`Step`] makes panic, the next time it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[non_exhaustive]
pub enum UserCode {
    /// The factory.
    Factory,
    /// The acquire hook (if the test has one).
    AcquireHook,
    /// The release hook (if the test has one).
    ReleaseHook,
    /// The destroy hook (if the test has one).
    DestroyHook,
    /// The policy's `choose_victim`.
    Policy,
}

impl UserCode {
    fn name(self) -> &'static str {
        match self {
            Self::Factory => "the factory",
            Self::AcquireHook => "the acquire hook",
            Self::ReleaseHook => "the release hook",
            Self::DestroyHook => "the destroy hook",
            Self::Policy => "the policy",
        }
    }
}

/// Which handle an operation uses: the live one at `index` in the pool's order,
/// or with `stale` the stale one at `index` (both wrap around; either kind if
/// there is none of the asked one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Pick {
    /// The position among the handles of that kind.
    pub index: usize,
    /// A stale handle rather than a live one.
    pub stale: bool,
}

/// One operation of a [`Case`]. Values given to writes go through the test's
/// [`mutate`](PoolTest::mutate).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[non_exhaustive]
pub enum Op {
    /// `try_acquire_detailed`.
    Acquire,
    /// `release`.
    Release(Pick),
    /// `renew`.
    Renew(Pick),
    /// `get` and `contains`.
    Get(Pick),
    /// `get_mut`, then a write of the value.
    Write(Pick, u32),
    /// `get_disjoint_mut` of two handles, then a write of the value to the first
    /// and of the value plus one to the second.
    WriteTwo(Pick, Pick, u32),
    /// `for_each_mut`, writing the value to every live object.
    ForEach(u32),
    /// `iter_mut`, writing the value to every live object.
    IterMut(u32),
    /// `reclaim`, releasing the live objects at the set bits of their positions
    /// (in the pool's order, modulo 64).
    Reclaim(u64),
    /// `reinitialize`.
    Reinitialize,
    /// `clear` (`true`) or `clear_idle` (`false`).
    Clear(bool),
    /// `trim_idle`, keeping this many.
    TrimIdle(usize),
    /// `prewarm_step` with this budget.
    PrewarmStep(usize),
    /// `retain_idle`, dropping the idle objects at the set bits of their
    /// positions from the top of the idle stack (modulo 64).
    RetainIdle(u64),
    /// A handle of another pool of the same handle type (the kit's own, with
    /// objects in the same slots, one more handed out at each such step), given
    /// to every call that takes a handle: each must refuse it as stale.
    Foreign(Pick),
}

/// One step of a [`Case`]: an operation, optionally with one piece of user code
/// set to panic the next time it runs during it (see
/// [`inject_panics`](PoolTest::inject_panics)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Step {
    /// The operation.
    pub op: Op,
    /// The user code that panics during it, if it runs.
    pub panicking: Option<UserCode>,
}

impl From<Op> for Step {
    fn from(op: Op) -> Self {
        Self {
            op,
            panicking: None,
        }
    }
}

/// A pool's sizes and the steps run on it: what [`PoolTest`] generates, and what
/// [`PoolTest::check_case`] replays (a case from a fuzzer, or one written by hand
/// to pin a bug).
///
/// ```
/// use pool_core::testing::{Case, Op, PoolTest, Step, UserCode};
///
/// // A full pool recycles its only object while its release hook panics.
/// let case = Case::new(0, 1, false, vec![
///     Op::Acquire.into(),
///     Step { op: Op::Acquire, panicking: Some(UserCode::ReleaseHook) },
/// ]);
/// let test = PoolTest::new(|| 0u8).on_release(|n| *n = 0).inject_panics();
/// test.check_case(pool_core::RecycleOldest, &case).unwrap();
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Case {
    /// The pool's `initial`.
    pub initial: usize,
    /// The pool's `max_objects`.
    pub max_objects: usize,
    /// Whether the pool is built with `build_lazy`.
    pub lazy: bool,
    /// What is done to it.
    pub steps: Vec<Step>,
}

impl Case {
    /// A case of a pool built with `initial` and `max_objects` (lazily with
    /// `lazy`), running `steps`.
    pub fn new(initial: usize, max_objects: usize, lazy: bool, steps: Vec<Step>) -> Self {
        Self {
            initial,
            max_objects,
            lazy,
            steps,
        }
    }
}

fn pick() -> impl Strategy<Value = Pick> {
    // A stale handle one time in four.
    (any::<usize>(), prop::bool::weighted(0.25)).prop_map(|(index, stale)| Pick { index, stale })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => Just(Op::Acquire),
        4 => pick().prop_map(Op::Release),
        1 => pick().prop_map(Op::Renew),
        2 => pick().prop_map(Op::Get),
        3 => (pick(), 0..100u32).prop_map(|(p, v)| Op::Write(p, v)),
        1 => (pick(), pick(), 0..100u32).prop_map(|(p, q, v)| Op::WriteTwo(p, q, v)),
        1 => (0..100u32).prop_map(Op::ForEach),
        1 => (0..100u32).prop_map(Op::IterMut),
        1 => any::<u64>().prop_map(Op::Reclaim),
        1 => Just(Op::Reinitialize),
        1 => any::<bool>().prop_map(Op::Clear),
        1 => (0..4usize).prop_map(Op::TrimIdle),
        1 => (0..4usize).prop_map(Op::PrewarmStep),
        1 => any::<u64>().prop_map(Op::RetainIdle),
        1 => pick().prop_map(Op::Foreign),
    ]
}

fn step(panics: bool) -> impl Strategy<Value = Step> {
    let code = prop::sample::select(vec![
        UserCode::Factory,
        UserCode::AcquireHook,
        UserCode::ReleaseHook,
        UserCode::DestroyHook,
        UserCode::Policy,
    ]);
    let panicking = if panics {
        prop::option::weighted(0.2, code).boxed()
    } else {
        Just(None).boxed()
    };
    (op(), panicking).prop_map(|(op, panicking)| Step { op, panicking })
}

fn case(
    max_objects: RangeInclusive<usize>,
    operations: usize,
    panics: bool,
) -> impl Strategy<Value = Case> {
    let (low, high) = (*max_objects.start(), *max_objects.end());
    (low.max(1)..=high.max(low).max(1)).prop_flat_map(move |max| {
        (
            0..=max,
            any::<bool>(),
            prop::collection::vec(step(panics), 0..=operations),
        )
            .prop_map(move |(initial, lazy, steps)| Case::new(initial, max, lazy, steps))
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

/// What a hook saw, as `Debug` text (with [`PoolTest::check_contents`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    /// What the factory made.
    Made,
    /// What the acquire hook was given, and what it left.
    AcquireIn,
    AcquireOut,
    /// What the release hook was given, and what it left.
    ReleaseIn,
    ReleaseOut,
    /// What the destroy hook was given.
    Destroyed,
}

/// The harness around the user's code, shared by the pool's closures and the
/// model: call counts, the planned panic, and what the hooks saw.
#[derive(Default)]
struct Harness {
    calls: Calls,
    planned: Mutex<Option<UserCode>>,
    seen: Mutex<alloc::collections::VecDeque<(Seen, String)>>,
}

/// The payload of the kit's planned panics.
struct Planned;

impl Harness {
    /// Raises the planned panic if `code` is the one planned (once).
    fn enter(&self, code: UserCode) {
        let mut planned = self.planned.lock().unwrap_or_else(|e| e.into_inner());
        if planned.take_if(|c| *c == code).is_some() {
            drop(planned);
            std::panic::panic_any(Planned);
        }
    }

    fn see<T>(&self, show: Option<fn(&T) -> String>, what: Seen, object: &T) {
        if let Some(show) = show {
            let text = show(object);
            self.seen
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push_back((what, text));
        }
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
    harness: Arc<Harness>,
}

impl<T, P: ExhaustionPolicy<T>> ExhaustionPolicy<T> for Recording<P, T> {
    const KEEPS_ORDER: bool = P::KEEPS_ORDER;

    fn choose_victim<K: Key>(&mut self, live: LiveObjects<'_, T, K>) -> Option<K> {
        self.harness.enter(UserCode::Policy);
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

/// Builds the pool of `case` from the user's parts, each wrapped to count its
/// calls, raise the planned panic and record what it saw. A hook the test does
/// not have is not installed, so the pool's paths without hooks are tested too.
fn build<T: 'static, P: ExhaustionPolicy<T>>(
    test: &PoolTest<T>,
    policy: P,
    case: &Case,
    harness: &Arc<Harness>,
    choice: &Arc<Mutex<Option<Choice>>>,
) -> Result<Tested<T, P>, String> {
    let show = test.show;
    let (factory, h) = (test.factory.clone(), harness.clone());
    let mut builder = crate::Pool::builder(move || {
        h.calls.factory.fetch_add(1, Ordering::Relaxed);
        h.enter(UserCode::Factory);
        let object = factory();
        h.see(show, Seen::Made, &object);
        object
    })
    .initial(case.initial)
    .max_objects(case.max_objects)
    .policy(Recording {
        inner: policy,
        expect: test.expect.clone(),
        choice: choice.clone(),
        harness: harness.clone(),
    })
    .handle::<Handle>();
    if let Some(hook) = test.on_acquire.clone() {
        let h = harness.clone();
        builder = builder.on_acquire(move |object| {
            h.calls.acquire.fetch_add(1, Ordering::Relaxed);
            h.enter(UserCode::AcquireHook);
            h.see(show, Seen::AcquireIn, object);
            hook(object);
            h.see(show, Seen::AcquireOut, object);
        });
    }
    if let Some(hook) = test.on_release.clone() {
        let h = harness.clone();
        builder = builder.on_release(move |object| {
            h.calls.release.fetch_add(1, Ordering::Relaxed);
            h.enter(UserCode::ReleaseHook);
            h.see(show, Seen::ReleaseIn, object);
            hook(object);
            h.see(show, Seen::ReleaseOut, object);
        });
    }
    if let Some(hook) = test.on_destroy.clone() {
        let h = harness.clone();
        builder = builder.on_destroy(move |object| {
            h.calls.destroy.fetch_add(1, Ordering::Relaxed);
            h.enter(UserCode::DestroyHook);
            h.see(show, Seen::Destroyed, &object);
            hook(object);
        });
    }
    let built = if case.lazy {
        builder.build_lazy()
    } else {
        builder.build()
    };
    built.map_err(|error| format!("the pool could not be built: {error}"))
}

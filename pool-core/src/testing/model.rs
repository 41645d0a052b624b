//! The reference model of a pool, written as plainly as possible: live objects
//! in a `Vec` in the pool's order, idle objects on a stack, expected statistics
//! and hook calls, and what each planned panic in user code leaves behind. The
//! crate's own model test and its fuzz target drive this model; there is no
//! other. `replay.rs` runs a case on it and a pool side by side, `steps.rs`
//! applies each operation to both, `check.rs` compares them.

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use super::{Case, Harness, Pick, PoolTest, Seen, UserCode};
use crate::{Handle, Pool, PoolStats, RecycleOldest};

/// Indices into the call counts: the factory and the acquire, release and
/// destroy hooks.
pub(super) const FACTORY: usize = 0;
pub(super) const ACQUIRE: usize = 1;
pub(super) const RELEASE: usize = 2;
pub(super) const DESTROY: usize = 3;

pub(super) const RECYCLED: &str = "recycled";

/// An object as the model knows it: which factory call made it, and (with
/// `check_contents`) its `Debug` text.
#[derive(Debug, Clone)]
pub(super) struct Object {
    pub(super) serial: u64,
    pub(super) text: Option<String>,
}

pub(super) struct Model {
    pub(super) initial: usize,
    pub(super) max: usize,
    /// Live objects in the pool's order, with their handles.
    pub(super) live: Vec<(Handle, Object)>,
    /// Idle objects; the top of the stack is the end.
    pub(super) idle: Vec<Object>,
    pub(super) made: u64,
    pub(super) stats: PoolStats,
    pub(super) calls: [u64; 4],
    /// Which of the factory and hooks the pool has.
    pub(super) installed: [bool; 4],
    /// Every handle handed out, in order: `#1`, `#2`...
    pub(super) handed: Vec<Handle>,
    /// How and at which step each handle that is no longer live ended.
    pub(super) ended: Vec<(Handle, &'static str, usize)>,
    /// The step being run (1-based).
    pub(super) step: usize,
    /// The user code set to panic the next time it runs.
    pub(super) armed: Option<UserCode>,
    pub(super) harness: Arc<Harness>,
    pub(super) contents: bool,
    /// The first disagreement found while the model replays a step.
    pub(super) error: Option<String>,
    /// Another pool of the same handle type, whose handles the pool must refuse.
    pub(super) foreign: Foreign,
}

/// Another pool of the pool's handle type and size, so that its handles name
/// the same slots: the source of [`Op::Foreign`](super::Op::Foreign)'s handles.
pub(super) struct Foreign {
    pool: Pool<(), RecycleOldest>,
    /// Every handle it handed out, in order.
    handed: Vec<Handle>,
}

impl Foreign {
    fn new(max_objects: usize) -> Self {
        let pool = Pool::builder(|| ())
            .max_objects(max_objects.max(1))
            .policy(RecycleOldest)
            .build();
        Self {
            pool: pool.expect("a size of at least 1"),
            handed: Vec::new(),
        }
    }

    /// Hands out one more object (recycling its oldest when full, so its
    /// handles go stale too) and returns the handle `pick` names among those it
    /// ever handed out: a live one, or with `stale` a stale one.
    pub(super) fn handle(&mut self, pick: Pick) -> Handle {
        self.handed.push(self.pool.acquire());
        let (live, stale): (Vec<Handle>, Vec<Handle>) = self
            .handed
            .iter()
            .partition(|handle| self.pool.contains(**handle));
        let from = if pick.stale && !stale.is_empty() {
            stale
        } else {
            live
        };
        from[pick.index % from.len()]
    }
}

impl Model {
    /// The model of `case`'s pool, before it is built (nothing made yet).
    pub(super) fn new<T>(test: &PoolTest<T>, case: &Case, harness: &Arc<Harness>) -> Self {
        Self {
            initial: case.initial,
            max: case.max_objects,
            live: Vec::new(),
            idle: Vec::new(),
            made: 0,
            stats: PoolStats::default(),
            calls: [0; 4],
            installed: [
                true,
                test.on_acquire.is_some(),
                test.on_release.is_some(),
                test.on_destroy.is_some(),
            ],
            handed: Vec::new(),
            ended: Vec::new(),
            step: 0,
            armed: None,
            harness: harness.clone(),
            contents: test.show.is_some(),
            error: None,
            foreign: Foreign::new(case.max_objects),
        }
    }

    pub(super) fn total(&self) -> usize {
        self.live.len() + self.idle.len()
    }

    pub(super) fn fail(&mut self, reason: String) {
        self.error.get_or_insert(reason);
    }

    pub(super) fn name(&self, handle: Handle) -> String {
        match self.handed.iter().position(|h| *h == handle) {
            Some(at) => format!("#{}", at + 1),
            None => String::from("a handle this pool never handed out"),
        }
    }

    /// Why `handle` is not live.
    pub(super) fn fate(&self, handle: Handle) -> String {
        match self.ended.iter().find(|(h, ..)| *h == handle) {
            Some((_, how, step)) => format!("it was {how} at step {step}"),
            None if self.handed.contains(&handle) => String::from("it was never live"),
            None => String::from("this pool never handed it out"),
        }
    }

    pub(super) fn position(&self, handle: Handle) -> Option<usize> {
        self.live.iter().position(|(h, _)| *h == handle)
    }

    pub(super) fn is_live(&self, handle: Handle) -> bool {
        self.position(handle).is_some()
    }

    /// The handle `pick` names, or `None` if no handle was handed out yet.
    pub(super) fn pick(&self, pick: Pick) -> Option<Handle> {
        let stale_ones: Vec<Handle> = self
            .handed
            .iter()
            .copied()
            .filter(|h| !self.is_live(*h))
            .collect();
        let live: Vec<Handle> = self.live.iter().map(|(h, _)| *h).collect();
        let (first, second) = if pick.stale {
            (&stale_ones, &live)
        } else {
            (&live, &stale_ones)
        };
        [first, second]
            .into_iter()
            .find(|handles| !handles.is_empty())
            .map(|handles| handles[pick.index % handles.len()])
    }

    /// `code` runs now: counts it, and says whether it is the one set to panic.
    pub(super) fn panics(&mut self, code: UserCode) -> bool {
        let counted = match code {
            UserCode::Factory => Some(FACTORY),
            UserCode::AcquireHook => Some(ACQUIRE),
            UserCode::ReleaseHook => Some(RELEASE),
            UserCode::DestroyHook => Some(DESTROY),
            UserCode::Policy => None,
        };
        if let Some(i) = counted {
            if !self.installed[i] {
                return false;
            }
            self.calls[i] += 1;
        }
        self.armed.take_if(|c| *c == code).is_some()
    }

    /// What a hook saw next must be `what`: for what it was given, `object`'s
    /// text; for what it left (or what the factory made), the text `object` takes.
    pub(super) fn saw(&mut self, what: Seen, object: &mut Object) {
        if !self.contents {
            return;
        }
        let next = self
            .harness
            .seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop_front();
        match (next, what) {
            (Some((seen, text)), _) if seen != what => self.fail(format!(
                "expected {what:?} of object {}, but the pool's hooks saw {seen:?} of {text}",
                object.serial
            )),
            (None, _) => self.fail(format!(
                "expected {what:?} of object {}, but no hook saw it",
                object.serial
            )),
            (Some((_, text)), Seen::Made | Seen::AcquireOut | Seen::ReleaseOut) => {
                object.text = Some(text);
            }
            (Some((_, text)), _) => {
                if object.text.as_ref() != Some(&text) {
                    self.fail(format!(
                        "{} was given {text}, expected {}",
                        match what {
                            Seen::AcquireIn => "the acquire hook",
                            Seen::ReleaseIn => "the release hook",
                            _ => "the destroy hook",
                        },
                        object.text.as_deref().unwrap_or("?")
                    ));
                }
            }
        }
    }

    /// A new object, or `None` if the factory panicked (nothing changes then).
    pub(super) fn create(&mut self) -> Option<Object> {
        if self.panics(UserCode::Factory) {
            return None;
        }
        let mut object = Object {
            serial: self.made,
            text: None,
        };
        self.made += 1;
        self.saw(Seen::Made, &mut object);
        self.stats.creates += 1;
        self.stats.peak_total = self.stats.peak_total.max(self.total() + 1);
        Some(object)
    }

    /// Makes `object` live under `handle`; `false` if its acquire hook panicked:
    /// the acquire never happened and the object is back on top of the idle stack.
    pub(super) fn activate(&mut self, handle: Option<Handle>, mut object: Object) -> bool {
        if self.panics(UserCode::AcquireHook) {
            self.idle.push(object);
            return false;
        }
        if self.installed[ACQUIRE] {
            self.saw(Seen::AcquireIn, &mut object);
            self.saw(Seen::AcquireOut, &mut object);
        }
        let Some(handle) = handle else {
            self.fail(String::from("the pool handed out no handle"));
            return false;
        };
        if self.handed.contains(&handle) {
            self.fail(format!(
                "the pool handed out {} again (a new handle must never equal an old one)",
                self.name(handle)
            ));
        }
        self.handed.push(handle);
        self.live.push((handle, object));
        self.stats.acquires += 1;
        self.stats.peak_live = self.stats.peak_live.max(self.live.len());
        true
    }

    /// Ends live object `at` (`how`: released, recycled...): its handle goes stale,
    /// the release hook resets it and it goes on top of the idle stack. If the
    /// release hook panics, the object is destroyed instead (counted, but not
    /// through the destroy hook); then `false`.
    pub(super) fn end_live(&mut self, at: usize, how: &'static str) -> bool {
        let (handle, mut object) = self.live.remove(at);
        self.ended.push((handle, how, self.step));
        if self.panics(UserCode::ReleaseHook) {
            self.stats.destroys += 1;
            return false;
        }
        if self.installed[RELEASE] {
            self.saw(Seen::ReleaseIn, &mut object);
            self.saw(Seen::ReleaseOut, &mut object);
        }
        self.idle.push(object);
        true
    }

    /// Destroys `object`; `false` if the destroy hook panicked (the object is
    /// counted as destroyed all the same).
    pub(super) fn destroy(&mut self, mut object: Object) -> bool {
        self.stats.destroys += 1;
        if self.panics(UserCode::DestroyHook) {
            return false;
        }
        if self.installed[DESTROY] {
            self.saw(Seen::Destroyed, &mut object);
        }
        true
    }

    /// Creates idle objects up to `initial` within `budget`; the number still
    /// missing, or `None` if the factory panicked.
    /// The pool hands them out in the order it made them: each goes below the
    /// one made before it on the idle stack.
    pub(super) fn prewarm(&mut self, budget: usize) -> Option<usize> {
        let mut created = 0;
        let bottom = self.idle.len();
        while created < budget && self.total() < self.initial {
            let object = self.create()?;
            self.idle.insert(bottom, object);
            created += 1;
        }
        Some(self.initial.saturating_sub(self.total()))
    }
}

//! The user code a pool is configured with: the factory that creates objects and
//! the hooks run when one is handed out, given back or destroyed. Boxed once at
//! construction; `pool/hooks.rs` runs them under unwind guards.

use alloc::boxed::Box;

type Factory<T> = Box<dyn FnMut() -> T + Send + Sync>;
type Hook<T> = Box<dyn FnMut(&mut T) + Send + Sync>;
type DestroyHook<T> = Box<dyn FnMut(T) + Send + Sync>;

pub(crate) struct Hooks<T> {
    pub(crate) factory: Factory<T>,
    pub(crate) on_acquire: Option<Hook<T>>,
    pub(crate) on_release: Option<Hook<T>>,
    pub(crate) on_destroy: Option<DestroyHook<T>>,
}

impl<T> Hooks<T> {
    pub(crate) fn new(factory: Factory<T>) -> Self {
        Self {
            factory,
            on_acquire: None,
            on_release: None,
            on_destroy: None,
        }
    }
}

//! Side-chains inside the bank (see `sidechain.rs`): each measures its source
//! bus's out at every step, follows it with its attack and release, and at
//! the end of the block publishes its target's gain (the deepest of the
//! side-chains on it).

use std::sync::Arc;

use arrayvec::ArrayVec;
use kira::{Decibels, Frame};

use crate::MAX_SIDECHAINS;
use crate::bus::KeyedGains;
use crate::sidechain::SideChainOut;

/// The quietest level a side-chain measures, dBFS.
const FLOOR_DB: f32 = -100.0;

struct Chain {
    chain: SideChainOut,
    /// The followed level, dBFS.
    level: f32,
}

pub(super) struct SideChains {
    list: ArrayVec<Chain, MAX_SIDECHAINS>,
    gains: Arc<KeyedGains>,
}

impl SideChains {
    pub(super) fn new(gains: Arc<KeyedGains>) -> Self {
        Self {
            list: ArrayVec::new(),
            gains,
        }
    }

    pub(super) fn add(&mut self, chain: SideChainOut) {
        let _ = self.list.try_push(Chain {
            chain,
            level: FLOOR_DB,
        });
    }

    pub(super) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Follows each source through a step of `seconds`, `step(out)` giving
    /// the frames mixed into an out in it (`None`: nothing).
    pub(super) fn measure<'a>(&mut self, seconds: f64, step: impl Fn(u8) -> Option<&'a [Frame]>) {
        for chain in &mut self.list {
            let peak = step(chain.chain.source).map_or(0.0, |frames| {
                frames
                    .iter()
                    .fold(0.0f32, |m, f| m.max(f.left.abs()).max(f.right.abs()))
            });
            let level = (20.0 * peak.log10()).max(FLOOR_DB);
            let settings = &chain.chain.settings;
            let time = if level > chain.level {
                settings.attack
            } else {
                settings.release
            };
            let coefficient = 1.0 - (-seconds / time.as_secs_f64()).exp();
            chain.level += (level - chain.level) * coefficient as f32;
        }
    }

    /// Publishes each target's gain: the deepest of its side-chains.
    pub(super) fn publish(&self) {
        for (i, chain) in self.list.iter().enumerate() {
            let target = chain.chain.target;
            // Once per target: at its first side-chain.
            if self.list[..i].iter().any(|c| c.chain.target == target) {
                continue;
            }
            let reduction = self
                .list
                .iter()
                .filter(|c| c.chain.target == target)
                .map(|c| c.chain.settings.reduction_db(c.level))
                .fold(0.0f32, f32::min);
            self.gains
                .set(usize::from(target), Decibels(reduction).as_amplitude());
        }
    }
}

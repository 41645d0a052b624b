//! Measuring cases side by side, as the `report` does, and the report's pool table
//! for your own object type and policy.
//!
//! Cases are measured in interleaved rounds (one short sample of each case per
//! round). A case's time is its median sample; its ratio to the baseline is the
//! median of its per-round ratios, so a burst of load from another process, which
//! slows every case of a round alike, cancels out of the ratio.

use std::time::Duration;

use pool_core::{ExhaustionPolicy, RecycleOldest, Strict};

use crate::{PoolFull, PoolHalfLive, Pooled, SlotMapHalfLive, Workload};

/// How long to measure.
///
/// ```
/// let quick = benches::Settings::quick();
/// assert!(quick.rounds < benches::Settings::default().rounds);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Interleaved rounds (odd, so the median is a sample).
    pub rounds: usize,
    /// The length of one sample of one case.
    pub sample: Duration,
}

impl Default for Settings {
    /// The report's: 61 rounds of 5 ms samples.
    fn default() -> Self {
        Self {
            rounds: 61,
            sample: Duration::from_millis(5),
        }
    }
}

impl Settings {
    /// The report's `--quick`: 7 rounds.
    pub fn quick() -> Self {
        Self {
            rounds: 7,
            ..Self::default()
        }
    }

    /// [`quick`](Self::quick) if the command line has `--quick`, else the default.
    pub fn from_args() -> Self {
        if std::env::args().any(|a| a == "--quick") {
            Self::quick()
        } else {
            Self::default()
        }
    }
}

/// One measured case: one row of a report table.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// The case's name.
    pub case: String,
    /// The size it was measured at.
    pub size: usize,
    /// Nanoseconds per item: per cycle, or per live effect for an update.
    pub ns_per_cycle: f64,
    /// Median per-round ratio to the group's baseline.
    pub vs_baseline: f64,
    /// The spread of the per-round ratios: their 10th and 90th percentiles (the
    /// middle 80% of the rounds lie between them).
    pub vs_spread: (f64, f64),
    /// Heap allocations per cycle, when the binary's global allocator is
    /// `alloc_counter::CountingAllocator` (0 otherwise).
    pub allocs_per_cycle: f64,
}

fn median(values: Vec<f64>) -> f64 {
    percentile(values, 0.5)
}

/// The `p`-quantile of `values` (the nearest rank), `p` in `[0, 1]`.
fn percentile(mut values: Vec<f64>, p: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    let rank = ((values.len() - 1) as f64 * p).round() as usize;
    values[rank]
}

impl Measured {
    /// The ratio to the baseline as the report prints it: the median with its
    /// spread over the rounds, `0.39x (0.37-0.41)`, to `digits` decimals.
    ///
    /// ```
    /// # use benches::Measured;
    /// let row = Measured { case: "a".into(), size: 1, ns_per_cycle: 1.0, vs_baseline: 0.39, vs_spread: (0.371, 0.414), allocs_per_cycle: 0.0 };
    /// assert_eq!(row.ratio(2), "0.39x (0.37-0.41)");
    /// ```
    pub fn ratio(&self, digits: usize) -> String {
        let (low, high) = self.vs_spread;
        format!(
            "{:.digits$}x ({low:.digits$}-{high:.digits$})",
            self.vs_baseline
        )
    }
}

/// How many cycles fill about `target` time, from a short calibration run.
fn calibrate(case: &mut dyn Workload, target: Duration) -> u64 {
    let mut cycles = 16u64;
    loop {
        let elapsed = case.timed_run(cycles);
        if elapsed >= target / 8 || cycles >= 1 << 30 {
            let per_cycle = elapsed.as_secs_f64() / cycles as f64;
            return ((target.as_secs_f64() / per_cycle.max(1e-10)) as u64).max(1);
        }
        cycles *= 4;
    }
}

/// Measures `cases` (name and prepared workload) at `size` in interleaved rounds,
/// with ratios to the case named `baseline`.
///
/// # Panics
/// If `baseline` is not one of the cases' names.
///
/// ```
/// use benches::{PoolHalfLive, Particle, Settings, SlotMapHalfLive, Workload, measure};
/// use pool_core::Strict;
///
/// let cases: Vec<(String, Box<dyn Workload>)> = vec![
///     ("strict".into(), Box::new(PoolHalfLive::<_, Particle>::new(64, 64, Strict))),
///     ("slotmap".into(), Box::new(SlotMapHalfLive::<Particle>::new(64))),
/// ];
/// let quick = Settings { rounds: 3, sample: std::time::Duration::from_micros(200) };
/// let rows = measure(cases, 64, "slotmap", &quick);
/// assert_eq!(rows[1].vs_baseline, 1.0);
/// ```
pub fn measure(
    cases: Vec<(String, Box<dyn Workload>)>,
    size: usize,
    baseline: &str,
    settings: &Settings,
) -> Vec<Measured> {
    let (names, mut cases): (Vec<String>, Vec<Box<dyn Workload>>) = cases.into_iter().unzip();
    let cycles: Vec<u64> = cases
        .iter_mut()
        .map(|case| calibrate(case.as_mut(), settings.sample))
        .collect();
    let mut samples = vec![Vec::with_capacity(settings.rounds); cases.len()];
    let mut allocations = vec![0u64; cases.len()];
    for _ in 0..settings.rounds {
        for (i, case) in cases.iter_mut().enumerate() {
            let items = (cycles[i] * case.items_per_cycle()).max(1);
            let sample = case.sampled_run(cycles[i]);
            allocations[i] += sample.allocations;
            samples[i].push(sample.elapsed.as_secs_f64() * 1e9 / items as f64);
        }
    }
    let base = names
        .iter()
        .position(|case| case == baseline)
        .expect("the baseline is one of the cases");
    names
        .into_iter()
        .enumerate()
        .map(|(i, case)| Measured {
            case,
            size,
            ns_per_cycle: median(samples[i].clone()),
            vs_baseline: median(ratios(&samples[i], &samples[base])),
            vs_spread: (
                percentile(ratios(&samples[i], &samples[base]), 0.1),
                percentile(ratios(&samples[i], &samples[base]), 0.9),
            ),
            allocs_per_cycle: allocations[i] as f64 / (cycles[i] * settings.rounds as u64) as f64,
        })
        .collect()
}

/// Each round's ratio of a case's sample to the baseline's.
fn ratios(case: &[f64], base: &[f64]) -> Vec<f64> {
    case.iter()
        .zip(base)
        .map(|(case, base)| case / base)
        .collect()
}

/// Your policy on your object type beside the built-in ones, at each of `sizes`,
/// measured side by side: `name` (half the objects live: the policy never runs),
/// `name_full` (every object live: it runs on every acquire), `strict`,
/// `fifo_recycle`, `fifo_recycle_full` and the `slotmap` baseline, all holding `T`.
///
/// ```
/// use benches::{Particle, Settings, compare_policy};
/// use pool_core::RecycleOldest;
///
/// let quick = Settings { rounds: 3, sample: std::time::Duration::from_micros(200) };
/// let rows = compare_policy::<Particle, _>("mine", || RecycleOldest, &[64], &quick);
/// assert_eq!(rows.len(), 6);
/// ```
pub fn compare_policy<T: Pooled, P: ExhaustionPolicy<T> + 'static>(
    name: &str,
    policy: impl Fn() -> P,
    sizes: &[usize],
    settings: &Settings,
) -> Vec<Measured> {
    sizes
        .iter()
        .flat_map(|&size| {
            let cases: Vec<(String, Box<dyn Workload>)> = vec![
                (
                    name.into(),
                    Box::new(PoolHalfLive::<P, T>::new(size, size, policy())),
                ),
                (
                    format!("{name}_full"),
                    Box::new(PoolFull::<P, T>::new(size, policy())),
                ),
                (
                    "strict".into(),
                    Box::new(PoolHalfLive::<_, T>::new(size, size, Strict)),
                ),
                (
                    "fifo_recycle".into(),
                    Box::new(PoolHalfLive::<_, T>::new(size, size, RecycleOldest)),
                ),
                (
                    "fifo_recycle_full".into(),
                    Box::new(PoolFull::<_, T>::new(size, RecycleOldest)),
                ),
                ("slotmap".into(), Box::new(SlotMapHalfLive::<T>::new(size))),
            ];
            measure(cases, size, "slotmap", settings)
        })
        .collect()
}

/// Prints `rows` as the report's pool table: one row per case (in first-seen
/// order), ns per cycle and the ratio to slotmap at each size, and the most
/// allocations per cycle at any size.
pub fn print_pool_table(rows: &[Measured], settings: &Settings) {
    let mut sizes: Vec<usize> = Vec::new();
    let mut cases: Vec<&str> = Vec::new();
    for row in rows {
        if !sizes.contains(&row.size) {
            sizes.push(row.size);
        }
        if !cases.contains(&row.case.as_str()) {
            cases.push(&row.case);
        }
    }
    println!("One cycle: acquire one object, write it, release the oldest live one (half the");
    println!("objects live; `_full`: every object live, so each acquire takes one away).");
    println!(
        "Median of {} interleaved rounds; \"vs slotmap\" is the median of per-round ratios (in brackets: their 10th to 90th percentile).",
        settings.rounds
    );
    println!();
    print!("| case |");
    for size in &sizes {
        print!(" ns/cycle @{size} | vs slotmap |");
    }
    println!(" allocs/cycle |");
    print!("|---|");
    for _ in &sizes {
        print!("---:|---:|");
    }
    println!("---:|");
    for case in cases {
        print!("| `{case}` |");
        let mut allocs: f64 = 0.0;
        for row in rows.iter().filter(|row| row.case == case) {
            print!(" {:.1} | {} |", row.ns_per_cycle, row.ratio(2));
            allocs = allocs.max(row.allocs_per_cycle);
        }
        println!(" {allocs:.2} |");
    }
}

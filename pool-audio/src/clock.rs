//! Game time in whole microseconds. Summing `1/60` sixty times in floating point
//! lands a hair under 1.0, which would refuse a retrigger one frame late; integers
//! add up exactly. Each step is rounded to the nearest microsecond, so the clock
//! can lag the sum of the steps by half a microsecond per update: comparisons with
//! an interval allow for exactly that, so `0.1 s` is six updates at 60 fps and
//! three at 30 fps.

#[cfg(test)]
use pool_core::seconds_to_micros as micros;

/// `true` once `elapsed` microseconds over `updates` updates reach `interval`,
/// allowing each update's rounding (at most half a microsecond).
pub(crate) fn reached(elapsed: u64, updates: u64, interval: u64) -> bool {
    elapsed.saturating_add(updates.div_ceil(2)) >= interval
}

#[cfg(test)]
mod tests {
    use super::*;

    fn updates_until(interval: f64, fps: f64) -> u64 {
        let (dt, interval) = (micros(1.0 / fps).unwrap(), micros(interval).unwrap());
        (1..).find(|n| reached(dt * n, *n, interval)).unwrap()
    }

    #[test]
    fn intervals_are_reached_on_the_exact_update() {
        assert_eq!(updates_until(0.1, 60.0), 6);
        assert_eq!(updates_until(0.1, 30.0), 3);
        assert_eq!(updates_until(0.1, 144.0), 15, "14.4 updates: the 15th");
        assert_eq!(updates_until(1.0, 60.0), 60);
        assert_eq!(updates_until(0.05, 60.0), 3);
        let float_sum: f64 = (0..6).map(|_| 1.0 / 60.0).sum();
        assert!(float_sum < 0.1, "the float sum would wait for a 7th update");
    }

    #[test]
    fn bad_steps_are_refused() {
        for bad in [f64::NAN, f64::INFINITY, -1e-9] {
            assert!(micros(bad).is_err());
        }
        assert_eq!(micros(1e300), Ok(u64::MAX));
    }
}

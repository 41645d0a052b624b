//! Where a voice is in its sound, frame by frame: kira's own transport rules
//! (`kira::sound::transport`, private to kira), so that a voice of the bank walks
//! through a sound exactly as a kira static sound does: forwards or reversed,
//! wrapping around its loop region, and stopping at the end of its frames.

/// A voice's position in its sound's frames (within the slice, if any).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Transport {
    pub(super) position: usize,
    /// Start and (exclusive) end of the loop region, in frames.
    pub(super) loop_region: Option<(usize, usize)>,
    pub(super) reverse: bool,
    pub(super) frames: usize,
    /// `false` once a sound without a loop has played past its last frame.
    pub(super) playing: bool,
}

impl Transport {
    /// One step in the playing direction (kira's `increment_position` and
    /// `decrement_position`).
    pub(super) fn step(&mut self) {
        if !self.playing {
            return;
        }
        if self.reverse {
            if let Some((start, end)) = self.loop_region {
                while self.position <= start {
                    self.position += end - start;
                }
            }
            if self.position == 0 {
                self.playing = false;
            } else {
                self.position -= 1;
            }
        } else {
            self.position += 1;
            if let Some((start, end)) = self.loop_region {
                while self.position >= end {
                    self.position -= end - start;
                }
            }
            if self.position >= self.frames {
                self.playing = false;
            }
        }
    }

    /// The position one step before `position` in the playing direction, if the
    /// sound has one there (a loop wraps back to its end).
    pub(super) fn before(&self, position: usize) -> Option<usize> {
        if self.reverse {
            match self.loop_region {
                Some((start, end)) if position + 1 >= end => Some(start),
                _ => (position + 1 < self.frames).then_some(position + 1),
            }
        } else {
            match self.loop_region {
                Some((start, end)) if position <= start => end.checked_sub(1),
                _ => position.checked_sub(1),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transport(position: usize, loop_region: Option<(usize, usize)>, reverse: bool) -> Transport {
        Transport {
            position,
            loop_region,
            reverse,
            frames: 10,
            playing: true,
        }
    }

    fn walk(mut t: Transport, steps: usize) -> Vec<usize> {
        (0..steps)
            .map(|_| {
                t.step();
                if t.playing { t.position } else { usize::MAX }
            })
            .collect()
    }

    #[test]
    fn forwards_to_the_end() {
        assert_eq!(walk(transport(7, None, false), 3), [8, 9, usize::MAX]);
    }

    #[test]
    fn a_loop_wraps_forwards_and_backwards() {
        assert_eq!(walk(transport(4, Some((2, 6)), false), 4), [5, 2, 3, 4]);
        assert_eq!(walk(transport(3, Some((2, 6)), true), 4), [2, 5, 4, 3]);
    }

    #[test]
    fn reversed_to_the_start() {
        assert_eq!(walk(transport(2, None, true), 3), [1, 0, usize::MAX]);
    }

    #[test]
    fn the_frame_before_follows_the_direction_and_the_loop() {
        assert_eq!(transport(0, None, false).before(0), None);
        assert_eq!(transport(0, None, false).before(5), Some(4));
        assert_eq!(transport(0, Some((2, 6)), false).before(2), Some(5));
        assert_eq!(transport(0, None, true).before(9), None);
        assert_eq!(transport(0, None, true).before(3), Some(4));
        assert_eq!(transport(0, Some((2, 6)), true).before(5), Some(2));
    }
}

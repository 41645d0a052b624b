//! What the level looks like: the map ten times a second (an animated GIF and the
//! last picture as a PNG) and a plot of the voices and levels over time.

use std::error::Error;
use std::fs::File;
use std::path::Path;

use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, Frame, Rgba, RgbaImage};

use crate::level::{HALF, Level, VOICE_CAP};

/// Pixels per metre.
const SCALE: f32 = 2.0;
const SIZE: u32 = (2.0 * HALF * SCALE) as u32;
const PLOT_WIDTH: u32 = 800;
const PLOT_HEIGHT: u32 = 300;

/// One frame's readings for the plot.
struct Reading {
    real: usize,
    virtual_voices: usize,
    gain_reduction_db: f32,
    peak: f32,
}

pub(crate) struct Pictures {
    frames: Vec<RgbaImage>,
    readings: Vec<Reading>,
}

impl Pictures {
    pub(crate) fn new() -> Self {
        Self {
            frames: Vec::new(),
            readings: Vec::new(),
        }
    }

    /// Draws the map: torches (orange) and waterfalls (blue), bright when their
    /// voice is real and dim when it is virtual; enemies, bullets, effects, and
    /// the listener with the 100 m radius beyond which kira's spatial curve is
    /// silent.
    pub(crate) fn snapshot(&mut self, level: &Level) {
        let mut picture = RgbaImage::from_pixel(SIZE, SIZE, Rgba([18, 20, 26, 255]));
        let listener = level.listener;
        ring(&mut picture, listener, 100.0, Rgba([40, 60, 40, 255]));
        for emitter in &level.emitters {
            let real = level.is_real(emitter);
            let colour = match (emitter.waterfall, real) {
                (false, true) => Rgba([255, 170, 40, 255]),
                (false, false) => Rgba([90, 60, 30, 255]),
                (true, true) => Rgba([80, 170, 255, 255]),
                (true, false) => Rgba([30, 50, 100, 255]),
            };
            dot(
                &mut picture,
                emitter.at,
                if real { 2.5 } else { 1.5 },
                colour,
            );
        }
        for (_, enemy) in level.enemies.iter() {
            dot(&mut picture, enemy.at, 1.5, Rgba([220, 40, 40, 255]));
        }
        for (_, bullet) in level.bullets.iter() {
            dot(&mut picture, bullet.at, 0.6, Rgba([255, 255, 255, 255]));
        }
        for item in level.draw.items() {
            let kind = level.effects.definition(item.kind).map(|k| k.name.as_str());
            let (radius, colour) = match kind {
                Some("explosion") => (1.5 + item.frame as f32 * 0.4, Rgba([255, 120, 20, 255])),
                Some("muzzle") => (1.5, Rgba([255, 240, 120, 255])),
                _ => (1.0, Rgba([200, 230, 255, 255])),
            };
            ring(
                &mut picture,
                [item.position.x, item.position.y],
                radius,
                colour,
            );
        }
        dot(&mut picture, listener, 2.5, Rgba([60, 255, 90, 255]));
        self.frames.push(picture);
    }

    pub(crate) fn sample(&mut self, level: &Level) {
        let stats = level.sfx.stats();
        self.readings.push(Reading {
            real: stats.real_voices,
            virtual_voices: stats.virtual_voices,
            gain_reduction_db: level.take_gain_reduction_db(),
            peak: level.last_frame_peak(),
        });
    }

    pub(crate) fn write(&self, out: &Path) -> Result<(), Box<dyn Error>> {
        let mut gif = GifEncoder::new_with_speed(File::create(out.join("level.gif"))?, 20);
        gif.set_repeat(Repeat::Infinite)?;
        for picture in &self.frames {
            gif.encode_frame(Frame::from_parts(
                picture.clone(),
                0,
                0,
                Delay::from_numer_denom_ms(100, 1),
            ))?;
        }
        if let Some(last) = self.frames.last() {
            last.save(out.join("last.png"))?;
        }
        self.plot().save(out.join("plot.png"))?;
        Ok(())
    }

    /// Real voices (green, 0 to the cap), virtual voices (blue, 0 to 300),
    /// limiter gain reduction (red, 0 to 12 dB) and peak (white, 0 to full scale),
    /// one column per frame group.
    fn plot(&self) -> RgbaImage {
        let mut plot = RgbaImage::from_pixel(PLOT_WIDTH, PLOT_HEIGHT, Rgba([12, 12, 16, 255]));
        let n = self.readings.len().max(1);
        let y = |fraction: f32| {
            let fraction = fraction.clamp(0.0, 1.0);
            ((1.0 - fraction) * (PLOT_HEIGHT - 1) as f32) as u32
        };
        // Full scale and the -1 dBFS ceiling.
        for x in 0..PLOT_WIDTH {
            plot.put_pixel(x, y(0.891), Rgba([80, 80, 80, 255]));
        }
        for x in 0..PLOT_WIDTH {
            let from = x as usize * n / PLOT_WIDTH as usize;
            let to = ((x as usize + 1) * n / PLOT_WIDTH as usize)
                .max(from + 1)
                .min(n);
            let Some(slice) = self.readings.get(from..to) else {
                continue;
            };
            let max = |f: &dyn Fn(&Reading) -> f32| slice.iter().map(f).fold(0.0f32, f32::max);
            let lines = [
                (
                    max(&|r| r.real as f32) / VOICE_CAP as f32,
                    Rgba([60, 220, 90, 255]),
                ),
                (
                    max(&|r| r.virtual_voices as f32) / 300.0,
                    Rgba([80, 140, 255, 255]),
                ),
                (
                    max(&|r| r.gain_reduction_db) / 12.0,
                    Rgba([255, 70, 70, 255]),
                ),
                (max(&|r| r.peak), Rgba([240, 240, 240, 255])),
            ];
            for (value, colour) in lines {
                plot.put_pixel(x, y(value), colour);
            }
        }
        plot
    }
}

fn pixel(at: [f32; 2]) -> (f32, f32) {
    ((at[0] + HALF) * SCALE, (at[1] + HALF) * SCALE)
}

fn dot(picture: &mut RgbaImage, at: [f32; 2], radius: f32, colour: Rgba<u8>) {
    let (cx, cy) = pixel(at);
    let r = radius * SCALE;
    for y in (cy - r).floor() as i64..=(cy + r).ceil() as i64 {
        for x in (cx - r).floor() as i64..=(cx + r).ceil() as i64 {
            let inside = (x as f32 - cx).powi(2) + (y as f32 - cy).powi(2) <= r * r;
            if inside && (0..SIZE as i64).contains(&x) && (0..SIZE as i64).contains(&y) {
                picture.put_pixel(x as u32, y as u32, colour);
            }
        }
    }
}

fn ring(picture: &mut RgbaImage, at: [f32; 2], radius: f32, colour: Rgba<u8>) {
    let (cx, cy) = pixel(at);
    let r = radius * SCALE;
    let steps = (r * 7.0).max(12.0) as usize;
    for i in 0..steps {
        let a = i as f32 / steps as f32 * std::f32::consts::TAU;
        let (x, y) = (cx + r * a.cos(), cy + r * a.sin());
        if (0.0..SIZE as f32).contains(&x) && (0.0..SIZE as f32).contains(&y) {
            picture.put_pixel(x as u32, y as u32, colour);
        }
    }
}

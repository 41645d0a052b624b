//! What the level looks like: the map ten times a second (an animated GIF and the
//! last picture as a PNG), each with a legend, the time, the counts and a scale
//! bar, and a plot of the voices and levels over time.

use std::error::Error;
use std::fs::File;
use std::path::Path;

use figures::plotters::style::{Color, RGBColor};
use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, DynamicImage, Frame, Rgb, RgbImage};

use showcase::content::{FPS, HALF, VOICE_CAP};
use showcase::level::Level;

/// Pixels per metre.
const SCALE: f32 = 3.0;
const SIZE: u32 = (2.0 * HALF * SCALE) as u32;
/// The strip under the map: time, counts, legend, scale bar.
const STRIP: u32 = 140;

const TORCH: Rgb<u8> = Rgb([255, 170, 40]);
const TORCH_VIRTUAL: Rgb<u8> = Rgb([90, 60, 30]);
const WATERFALL: Rgb<u8> = Rgb([80, 170, 255]);
const WATERFALL_VIRTUAL: Rgb<u8> = Rgb([30, 50, 100]);
const ENEMY: Rgb<u8> = Rgb([220, 40, 40]);
const BULLET: Rgb<u8> = Rgb([255, 255, 255]);
const EXPLOSION: Rgb<u8> = Rgb([255, 120, 20]);
const LISTENER: Rgb<u8> = Rgb([60, 255, 90]);
const CAR: Rgb<u8> = Rgb([240, 90, 240]);
const ROAD: Rgb<u8> = Rgb([110, 50, 110]);
const RANGE: Rgb<u8> = Rgb([40, 90, 40]);

/// One frame's readings for the plot.
struct Reading {
    real: usize,
    virtual_voices: usize,
    gain_reduction_db: f32,
    peak: f32,
    /// The loudness window's top, in the level's loudness scale.
    window_top: f64,
    /// What the ducks and snapshots set on the footsteps and the ambience, dB.
    footsteps_db: f64,
    ambience_db: f64,
    /// The world bus's and the cave reverb's loudest sample in the frame, dBFS.
    world_db: f64,
    cave_db: f64,
    /// The listener's weight in the cave zone, 0 to 1.
    in_cave: f64,
}

pub(crate) struct Pictures {
    frames: Vec<RgbImage>,
    readings: Vec<Reading>,
}

impl Pictures {
    pub(crate) fn new() -> Self {
        Self {
            frames: Vec::new(),
            readings: Vec::new(),
        }
    }

    /// Draws the map at `frame`: torches (orange) and waterfalls (blue), bright
    /// when their voice is real and dim when it is virtual; enemies, bullets,
    /// effects, the passing car and its road so far, and the listener with the
    /// 100 m radius beyond which kira's spatial curve is silent; under it the
    /// time, the counts, a legend and a scale bar.
    pub(crate) fn snapshot(&mut self, level: &Level, frame: usize) -> Result<(), Box<dyn Error>> {
        let mut picture = RgbImage::from_pixel(SIZE, SIZE + STRIP, Rgb([18, 20, 26]));
        let listener = level.listener;
        ring(&mut picture, listener, 100.0, RANGE);
        // The car's road so far, under everything else.
        for (car, _) in &level.track {
            dot(&mut picture, *car, 0.3, ROAD);
        }
        for emitter in &level.emitters {
            let real = level.is_real(emitter);
            let colour = match (emitter.waterfall, real) {
                (false, true) => TORCH,
                (false, false) => TORCH_VIRTUAL,
                (true, true) => WATERFALL,
                (true, false) => WATERFALL_VIRTUAL,
            };
            dot(
                &mut picture,
                emitter.at,
                if real { 2.5 } else { 1.5 },
                colour,
            );
        }
        for (_, enemy) in level.enemies.iter() {
            dot(&mut picture, enemy.at, 1.5, ENEMY);
        }
        for (_, bullet) in level.bullets.iter() {
            dot(&mut picture, bullet.at, 0.6, BULLET);
        }
        for item in level.draw.items() {
            let kind = level.effects.name(item.kind);
            let (radius, colour) = match kind {
                Some("explosion") => (1.5 + item.frame as f32 * 0.4, EXPLOSION),
                Some("muzzle") => (1.5, Rgb([255, 240, 120])),
                _ => (1.0, Rgb([200, 230, 255])),
            };
            ring(
                &mut picture,
                [item.position.x, item.position.y],
                radius,
                colour,
            );
        }
        if let Some((car, _)) = level.track.last() {
            dot(&mut picture, *car, 2.5, CAR);
        }
        dot(&mut picture, listener, 2.5, LISTENER);
        for x in 0..SIZE {
            picture.put_pixel(x, SIZE, Rgb([70, 70, 80]));
        }
        self.annotate(&mut picture, level, frame)?;
        self.frames.push(picture);
        Ok(())
    }

    /// The labels of one map picture.
    fn annotate(
        &self,
        picture: &mut RgbImage,
        level: &Level,
        frame: usize,
    ) -> Result<(), Box<dyn Error>> {
        let stats = level.sfx.stats();
        let (mut effects_live, mut effects_done) = (0, 0);
        for kind in level.effects.kinds() {
            if let Some(kind) = level.effects.stats(kind) {
                effects_live += kind.pool.live;
                effects_done += kind.finished + kind.stopped;
            }
        }
        let enemies = level.enemies.stats();
        let bullets = level.bullets.stats();
        let white = RGBColor(235, 235, 240);
        let grey = RGBColor(160, 160, 170);
        let [lx, ly] = pixel(listener_label(level.listener));
        let [rx, ry] = pixel(range_label(level.listener));
        figures::on_image(picture, |area| {
            figures::text(
                area,
                "listener",
                (lx as i32, ly as i32),
                13,
                RGBColor(60, 255, 90),
            )?;
            figures::text(
                area,
                "100 m: silent beyond",
                (rx as i32, ry as i32),
                12,
                RGBColor(90, 170, 90),
            )?;
            let y = SIZE as i32 + 6;
            figures::text(
                area,
                &format!("t = {:.1} s", frame as f64 / FPS as f64),
                (8, y),
                15,
                white,
            )?;
            figures::text(
                area,
                &format!(
                    "voices: {} real (cap {VOICE_CAP}), {} virtual",
                    stats.real_voices, stats.virtual_voices
                ),
                (100, y + 1),
                13,
                white,
            )?;
            figures::text(
                area,
                &format!(
                    "pooled, live / returned so far:   enemies {} / {}   bullets {} / {}   effects {} / {}",
                    enemies.live,
                    enemies.releases + enemies.recycles,
                    bullets.live,
                    bullets.releases,
                    effects_live,
                    effects_done
                ),
                (8, y + 22),
                13,
                grey,
            )?;
            let legend: [(&str, Rgb<u8>); 9] = [
                ("torch, real voice", TORCH),
                ("torch, virtual", TORCH_VIRTUAL),
                ("waterfall, real voice", WATERFALL),
                ("waterfall, virtual", WATERFALL_VIRTUAL),
                ("enemy", ENEMY),
                ("bullet", BULLET),
                ("explosion (ring)", EXPLOSION),
                ("listener", LISTENER),
                ("car, doppler (line: its road)", CAR),
            ];
            for (i, (label, colour)) in legend.iter().enumerate() {
                let (col, row) = (i % 3, i / 3);
                let (x, y) = (14 + col as i32 * 190, y + 48 + row as i32 * 18);
                let Rgb([r, g, b]) = *colour;
                area.draw(&figures::plotters::element::Circle::new(
                    (x, y + 7),
                    4,
                    figures::plotters::style::ShapeStyle::from(&RGBColor(r, g, b)).filled(),
                ))?;
                figures::text(area, label, (x + 10, y), 12, white)?;
            }
            // A 20 m scale bar, in the strip.
            let (x0, yb) = (SIZE as i32 - 100, SIZE as i32 + STRIP as i32 - 20);
            let x1 = x0 + (20.0 * SCALE) as i32;
            let bar = figures::plotters::element::PathElement::new(
                [(x0, yb), (x1, yb)],
                white.stroke_width(2),
            );
            area.draw(&bar)?;
            figures::text(area, "20 m", (x0 + 6, yb - 16), 12, white)?;
            Ok(())
        })
    }

    pub(crate) fn sample(&mut self, level: &Level) {
        let stats = level.sfx.stats();
        let mix_db = |group| {
            level
                .sfx
                .mix()
                .level(group)
                .map_or(0.0, |db| f64::from(db.0))
        };
        self.readings.push(Reading {
            real: stats.real_voices,
            virtual_voices: stats.virtual_voices,
            gain_reduction_db: level.take_gain_reduction_db(),
            peak: level.last_frame_peak(),
            window_top: level
                .sfx
                .mix()
                .stats()
                .window_top
                .map_or(0.0, |top| f64::from(top.0)),
            footsteps_db: mix_db(level.sounds.footsteps),
            ambience_db: mix_db(level.sounds.ambience),
            world_db: meter_db(&level.space.world_meter),
            cave_db: meter_db(&level.space.cave_meter),
            in_cave: f64::from(level.space.cave.weight([
                level.listener[0],
                0.0,
                level.listener[1],
            ])),
        });
    }

    pub(crate) fn write(&self, out: &Path) -> Result<(), Box<dyn Error>> {
        let mut gif = GifEncoder::new_with_speed(File::create(out.join("level.gif"))?, 20);
        gif.set_repeat(Repeat::Infinite)?;
        for picture in &self.frames {
            let rgba = DynamicImage::ImageRgb8(picture.clone()).into_rgba8();
            gif.encode_frame(Frame::from_parts(
                rgba,
                0,
                0,
                Delay::from_numer_denom_ms(100, 1),
            ))?;
        }
        if let Some(last) = self.frames.last() {
            figures::save(last, out.join("last.png"))?;
        }
        self.plot(&out.join("plot.png"))
    }

    /// Seven panels over time: voices (real against the cap, virtual), the
    /// mix's peak against the ceiling, the limiter's gain reduction, the
    /// loudness window's top, what the duck and the snapshot set, and the
    /// space (the world bus, the cave's reverb, the pause menu).
    fn plot(&self, path: &Path) -> Result<(), Box<dyn Error>> {
        let seconds = self.readings.len() as f64 / FPS as f64;
        let series = |f: &dyn Fn(&Reading) -> f64| -> Vec<(f64, f64)> {
            self.readings
                .iter()
                .enumerate()
                .map(|(i, r)| (i as f64 / FPS as f64, f(r)))
                .collect()
        };
        let real = series(&|r| r.real as f64);
        let virtual_voices = series(&|r| r.virtual_voices as f64);
        let peak = series(&|r| 20.0 * f64::from(r.peak.max(1e-4)).log10());
        let reduction = series(&|r| f64::from(r.gain_reduction_db));
        let top = series(&|r| r.window_top);
        let footsteps = series(&|r| r.footsteps_db);
        let ambience = series(&|r| r.ambience_db);
        let world = series(&|r| r.world_db);
        let cave = series(&|r| r.cave_db);
        // The listener's weight in the cave, drawn on the same dB axis: 0 at
        // -60 dB, 1 at 0 dB.
        let in_cave = series(&|r| -60.0 + 60.0 * r.in_cave);
        let (open, close) = showcase::content::pause_frames(self.readings.len());
        let pause = [
            (open as f64 / FPS as f64, -62.0),
            (open as f64 / FPS as f64, 2.0),
            (close as f64 / FPS as f64, 2.0),
            (close as f64 / FPS as f64, -62.0),
        ];
        let cap = [(0.0, VOICE_CAP as f64), (seconds, VOICE_CAP as f64)];
        let ceiling = [(0.0, -1.0), (seconds, -1.0)];
        let most_voices = virtual_voices.iter().fold(0.0f64, |m, p| m.max(p.1));
        let most_reduction = reduction.iter().fold(0.0f64, |m, p| m.max(p.1));
        let limiter_title = if most_reduction > 0.0 {
            "The limiter's gain reduction (0 dB: it does nothing)".to_string()
        } else {
            "The limiter's gain reduction: 0 dB throughout (the copies' budgets and the voice cap kept the mix under the ceiling)"
                .to_string()
        };
        figures::png(path, (1000, 1850), |area| {
            let body = figures::titled(
                area,
                &format!("The showcase level, {seconds:.0} s at {FPS} frames a second"),
                "300 looping emitters, waves of enemies dying in storms, a listener walking across the map. Each point is one frame.",
                56,
            )?;
            let panels = body.split_evenly((7, 1));
            figures::LineChart::new(
                "Real voices, mixed by the voice bank: never more than the cap",
                ("time (s)", 0.0..seconds),
                ("real voices", 0.0..(VOICE_CAP as f64 * 1.25)),
            )
            .line(figures::Line::new("real voices", figures::BLUE, &real).width(2))
            .line(figures::Line::new("voice cap (32)", figures::GREEN, &cap).dashed())
            .legend_lower_right()
            .draw(&panels[0])?;
            figures::LineChart::new(
                "Virtual voices: tracked, not mixed; they come back when they are among the most audible",
                ("time (s)", 0.0..seconds),
                ("virtual voices", 0.0..(most_voices * 1.15).max(10.0)),
            )
            .line(figures::Line::new("virtual voices", figures::PURPLE, &virtual_voices).width(2))
            .legend_lower_right()
            .draw(&panels[1])?;
            figures::LineChart::new(
                "The mix's loudest sample per frame, before kira's clamp",
                ("time (s)", 0.0..seconds),
                ("peak (dBFS)", -30.0..1.0),
            )
            .line(figures::Line::new("peak", figures::BLUE, &peak))
            .line(figures::Line::new("ceiling (-1 dBFS)", figures::GREEN, &ceiling).dashed())
            .legend_lower_right()
            .draw(&panels[2])?;
            figures::LineChart::new(
                &limiter_title,
                ("time (s)", 0.0..seconds),
                ("gain reduction (dB)", 0.0..(most_reduction * 1.2).max(3.0)),
            )
            .line(figures::Line::new(
                "gain reduction",
                figures::RED,
                &reduction,
            ))
            .draw(&panels[3])?;
            figures::LineChart::new(
                "The loudness window's top: the loudest sound playing (explosion 100, shot 88), falling back over 1.5 s",
                ("time (s)", 0.0..seconds),
                ("window top (dB, loudness)", 55.0..105.0),
            )
            .line(figures::Line::new("window top", figures::ORANGE, &top).width(2))
            .legend_lower_right()
            .draw(&panels[4])?;
            figures::LineChart::new(
                "Ducks and snapshots: explosions duck the footsteps by 12 dB; the storm snapshot lowers the ambience by 6 dB",
                ("time (s)", 0.0..seconds),
                ("gain set (dB)", -16.0..8.0),
            )
            .line(figures::Line::new("footsteps (duck)", figures::BLUE, &footsteps).width(2))
            .line(figures::Line::new("ambience (snapshot)", figures::GREEN, &ambience).width(2))
            .draw(&panels[5])?;
            figures::LineChart::new(
                "The space: the cave's reverb rises as the listener walks into the cave; the pause menu muffles the world bus",
                ("time (s)", 0.0..seconds),
                ("level (dBFS)", -62.0..40.0),
            )
            .line(figures::Line::new("world bus peak, after its low-pass", figures::BLUE, &world))
            .line(figures::Line::new("cave reverb peak", figures::ORANGE, &cave).width(2))
            .line(
                figures::Line::new("listener in the cave (0 at -60, 1 at 0)", figures::GREEN, &in_cave)
                    .dashed(),
            )
            .line(figures::Line::new("pause menu open", figures::RED, &pause).dashed())
            .draw(&panels[6])?;
            Ok(())
        })
    }
}

/// The passing car's pitch over the run: measured in a render of the car
/// alone along the level's path (see `showcase::car`), against the doppler
/// formula for the same positions.
pub(crate) fn doppler(track: &showcase::car::Track, path: &Path) -> Result<(), Box<dyn Error>> {
    use showcase::car::{ENGINE_HZ, SPEED, pitch};
    let (measured, expected) = pitch(track);
    let seconds = track.len() as f64 / FPS as f64;
    let rest = [(0.0, ENGINE_HZ), (seconds, ENGINE_HZ)];
    let (low, high) = expected
        .iter()
        .chain(&measured)
        .fold((ENGINE_HZ, ENGINE_HZ), |(l, h), p| (l.min(p.1), h.max(p.1)));
    figures::png(path, (1000, 520), |area| {
        let body = figures::titled(
            area,
            "The passing car's pitch, measured in the render against the doppler formula",
            &format!(
                "A {ENGINE_HZ:.0} Hz engine at {SPEED:.0} m/s crossing the walking listener's path half way. Measured: rising zero crossings of the car\nrendered alone along the level's path, per 50 ms. Expected: f = {ENGINE_HZ:.0} Hz x (c + listener's speed towards it) / (c + its speed away), c = 343 m/s;\nthe listener's own wavy walk (up to 27 m/s) bends the curve."
            ),
            92,
        )?;
        figures::LineChart::new(
            "Pitch heard at the listener",
            ("time (s)", 0.0..seconds),
            ("pitch (Hz)", (low - 5.0)..(high + 5.0)),
        )
        .line(figures::Line::new("expected (doppler formula)", figures::GREEN, &expected).width(6))
        .line(figures::Line::new("measured in the render", figures::BLUE, &measured).width(2))
        .line(
            figures::Line::new(
                format!("at rest ({ENGINE_HZ:.0} Hz)"),
                figures::MUTED,
                &rest,
            )
            .dashed(),
        )
        .note(
            (0.15, low - 2.0),
            "the blue tick at 0 s: the first window, before the first update derives a velocity",
            figures::MUTED,
        )
        .draw(&body)?;
        Ok(())
    })
}

/// Where the listener's label goes: beside it, kept on the map.
fn listener_label(at: [f32; 2]) -> [f32; 2] {
    [
        (at[0] + 4.0).min(HALF - 22.0),
        (at[1] - 8.0).max(-HALF + 2.0),
    ]
}

/// Where the range ring's label goes: on the ring, above or below the listener,
/// kept on the map.
fn range_label(at: [f32; 2]) -> [f32; 2] {
    let y = if at[1] - 100.0 > -HALF {
        at[1] - 104.0
    } else {
        at[1] + 96.0
    };
    [
        (at[0] - 25.0).clamp(-HALF + 2.0, HALF - 45.0),
        y.clamp(-HALF + 2.0, HALF - 8.0),
    ]
}

fn pixel(at: [f32; 2]) -> [f32; 2] {
    [(at[0] + HALF) * SCALE, (at[1] + HALF) * SCALE]
}

fn dot(picture: &mut RgbImage, at: [f32; 2], radius: f32, colour: Rgb<u8>) {
    let [cx, cy] = pixel(at);
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

fn ring(picture: &mut RgbImage, at: [f32; 2], radius: f32, colour: Rgb<u8>) {
    let [cx, cy] = pixel(at);
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

/// A meter's loudest sample since it was last read, dBFS (-80 for silence),
/// and a new start.
fn meter_db(meter: &pool_audio::dsp::MeterHandle) -> f64 {
    let peak = meter.peak();
    meter.reset();
    20.0 * f64::from(peak.max(1e-4)).log10()
}

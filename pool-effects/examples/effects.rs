//! A mobile action game's effect scene, headless: four effect kinds with 1000 instances each,
//! waves of enemies dying and spawning effects for six simulated seconds. Each
//! explosion leaves a smoke puff (a chained follow-up), and the camera sees the
//! left three quarters of the world: effects in the right quarter are culled
//! (explosions and smoke pause and catch up, bites pause, sparks end).
//!
//! `cargo run --release -p pool-effects --example effects [-- --out DIR] [--tsv]`
//!
//! Prints per-frame statistics (live effects per kind, spawns, recycles, update
//! time) and writes PNG pictures of the scene at a few moments, drawn from the draw
//! list with procedurally generated sprite frames, into `--out` (default
//! `target/effects-example`). With `--tsv` it prints only the rows
//! `frame<TAB>live<TAB>spawned<TAB>recycled<TAB>update_us`.

use std::error::Error;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;
use std::time::Instant;

use pool_effects::{DrawItem, DrawList, EffectKind, Effects, KindId, Offscreen, Rgba, View};

const WIDTH: u32 = 960;
const HEIGHT: u32 = 540;
const FPS: u32 = 60;
const SECONDS: u32 = 6;
const SNAPSHOTS: [u32; 3] = [45, 150, 290];
/// The camera's right edge: the world's right quarter is off-screen.
const VIEW_RIGHT: f32 = 720.0;

fn main() -> Result<(), Box<dyn Error>> {
    let options = Options::parse()?;
    std::fs::create_dir_all(&options.out)?;
    // Written with `?`, so a closed pipe (`| head`) ends the run instead of panicking.
    let mut out = std::io::stdout().lock();

    // One pool per kind, 1000 of each. Created lazily and prewarmed in
    // steps of 750 over the first frames, so no single frame pays for all 3000.
    let mut effects = Effects::new();
    let mut draw = DrawList::new();
    let explosion = effects.add_kind_lazy(
        EffectKind::new("explosion", 12, Duration::from_secs_f64(1.0 / 30.0))
            .layer(1)
            .pool(1000, 1000)
            .follow_up("smoke")
            .offscreen(Offscreen::CatchUp)
            .cull_radius(40.0),
    )?;
    let bite = effects.add_kind_lazy(
        EffectKind::new("bite", 8, Duration::from_secs_f64(1.0 / 24.0))
            .layer(2)
            .pool(1000, 1000)
            .offscreen(Offscreen::Pause)
            .cull_radius(20.0),
    )?;
    let spark = effects.add_kind_lazy(
        EffectKind::new("hit-spark", 6, Duration::from_secs_f64(1.0 / 60.0))
            .layer(3)
            .pool(1000, 1000)
            .offscreen(Offscreen::End)
            .cull_radius(15.0),
    )?;
    let smoke = effects.add_kind_lazy(
        EffectKind::new("smoke", 8, Duration::from_secs_f64(1.0 / 20.0))
            .layer(0)
            .pool(1000, 1000)
            .offscreen(Offscreen::CatchUp)
            .cull_radius(40.0),
    )?;
    let kinds = [explosion, bite, spark, smoke];
    effects.set_view(View::new([0.0, 0.0], [VIEW_RIGHT, HEIGHT as f32]))?;
    let sheets = SpriteSheets::new(&effects, &kinds);

    let mut rng = Lcg(0x5eed);
    let mut enemies: Vec<[f32; 2]> = (0..600)
        .map(|_| [rng.range(0.0, WIDTH as f32), rng.range(0.0, HEIGHT as f32)])
        .collect();

    if !options.tsv {
        writeln!(
            out,
            "frame | live explosion/bite/spark/smoke | spawned | recycled | update us | prewarm left"
        )?;
        writeln!(out, "---:|---|---:|---:|---:|---:")?;
    }
    let started = Instant::now();
    let mut total_spawned = 0u64;
    let mut slowest_update = 0.0f64;
    for frame in 0..FPS * SECONDS {
        let prewarm_left = effects.prewarm_step(750);
        let recycles_before = recycles(&effects, &kinds);

        // Waves: every 1.5 s a wave of enemies dies over a quarter second, each
        // death an explosion; the survivors bite and get hit all the time.
        let mut spawned = 0u32;
        let in_wave = frame % 90 < 15;
        let deaths = if in_wave { 80 } else { 2 };
        for _ in 0..deaths {
            let at = enemies[rng.below(enemies.len())];
            let boom = effects.spawn(explosion, at)?;
            let mut effect = effects.get_mut(boom).expect("just spawned");
            effect.rotation = rng.range(0.0, std::f32::consts::TAU);
            let size = rng.range(0.8, 1.6);
            effect.scale = [size, size].into();
            spawned += 1;
        }
        for _ in 0..6 {
            let at = enemies[rng.below(enemies.len())];
            effects.spawn(bite, [at[0] + 10.0, at[1] - 6.0])?;
            spawned += 1;
        }
        for _ in 0..12 {
            let at = enemies[rng.below(enemies.len())];
            let hit = effects.spawn(
                spark,
                [
                    at[0] + rng.range(-12.0, 12.0),
                    at[1] + rng.range(-12.0, 12.0),
                ],
            )?;
            effects.get_mut(hit).expect("just spawned").tint = Rgba {
                r: 1.0,
                g: rng.range(0.6, 1.0),
                b: rng.range(0.2, 0.6),
                a: 1.0,
            };
            spawned += 1;
        }
        total_spawned += u64::from(spawned);
        for enemy in &mut enemies {
            enemy[0] = (enemy[0] + rng.range(-2.0, 2.0)).rem_euclid(WIDTH as f32);
            enemy[1] = (enemy[1] + rng.range(-1.0, 1.0)).rem_euclid(HEIGHT as f32);
        }

        let update_started = Instant::now();
        effects.update(1.0 / f64::from(FPS))?;
        let update_us = update_started.elapsed().as_secs_f64() * 1e6;
        slowest_update = slowest_update.max(update_us);

        let live: Vec<usize> = kinds
            .iter()
            .map(|kind| effects.stats(*kind).map_or(0, |s| s.pool.live))
            .collect();
        let recycled = recycles(&effects, &kinds) - recycles_before;
        if options.tsv {
            writeln!(
                out,
                "{frame}\t{}\t{spawned}\t{recycled}\t{update_us:.1}",
                live.iter().sum::<usize>()
            )?;
        } else if frame % 15 == 0 {
            writeln!(
                out,
                "{frame} | {}/{}/{}/{} | {spawned} | {recycled} | {update_us:.1} | {prewarm_left}",
                live[0], live[1], live[2], live[3]
            )?;
        }

        if SNAPSHOTS.contains(&frame) {
            let path = options.out.join(format!("scene-frame-{frame:03}.png"));
            let scene = render(draw.fill(&effects), &sheets, &enemies);
            figures::save(&annotate(scene, frame, &effects, &kinds, &sheets)?, &path)?;
            if !options.tsv {
                writeln!(out, "wrote {}", path.display())?;
            }
        }
    }
    if !options.tsv {
        writeln!(out)?;
        for kind in kinds {
            let stats = effects.stats(kind).expect("defined");
            writeln!(
                out,
                "{:>9}: {} spawned, {} finished, {} recycled, peak {} live, {} created, {} follow-ups, {} culled, {} ended off-screen",
                effects.definition(kind).expect("defined").name,
                stats.spawns,
                stats.finished,
                stats.pool.recycles,
                stats.pool.peak_live,
                stats.pool.creates,
                stats.follow_ups,
                stats.culled,
                stats.ended_offscreen
            )?;
        }
        writeln!(
            out,
            "{} frames, {total_spawned} effects spawned, slowest update {slowest_update:.0} us, {:.2} s in all",
            FPS * SECONDS,
            started.elapsed().as_secs_f64()
        )?;
    }
    Ok(())
}

fn recycles(effects: &Effects, kinds: &[KindId]) -> u64 {
    kinds
        .iter()
        .filter_map(|kind| effects.stats(*kind))
        .map(|stats| stats.pool.recycles)
        .sum()
}

struct Options {
    out: PathBuf,
    tsv: bool,
}

impl Options {
    fn parse() -> Result<Self, Box<dyn Error>> {
        let mut options = Options {
            out: PathBuf::from("target/effects-example"),
            tsv: false,
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--tsv" => options.tsv = true,
                "--out" => options.out = args.next().ok_or("--out needs a folder")?.into(),
                other => {
                    return Err(
                        format!("unknown argument {other:?} (expected --out DIR, --tsv)").into(),
                    );
                }
            }
        }
        Ok(options)
    }
}

/// A small deterministic random generator, so every run draws the same scene.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * (self.next() as f32 / (1u64 << 31) as f32)
    }
    fn below(&mut self, n: usize) -> usize {
        self.next() as usize % n
    }
}

/// Premultiplied RGBA pixels of one sprite frame.
struct Sprite {
    size: u32,
    pixels: Vec<[f32; 4]>,
}

/// Every frame of every kind, generated procedurally.
struct SpriteSheets {
    /// Indexed by kind, then frame.
    frames: Vec<Vec<Sprite>>,
}

impl SpriteSheets {
    fn new(effects: &Effects, kinds: &[KindId; 4]) -> Self {
        let mut frames = Vec::new();
        for (style, kind) in kinds.iter().enumerate() {
            let count = effects.definition(*kind).expect("defined").frame_count;
            frames.push(
                (0..count)
                    .map(|f| sprite(style, f as f32 / count as f32))
                    .collect(),
            );
        }
        Self { frames }
    }
}

/// Style 0: an explosion (a growing fireball, then a fading smoke ring);
/// 1: a bite (two jaws closing); 2: a hit spark (a shrinking four-point star);
/// 3: smoke (a grey puff, growing and thinning).
fn sprite(style: usize, t: f32) -> Sprite {
    let size = [56, 32, 24, 64][style];
    let half = size as f32 / 2.0;
    let mut pixels = vec![[0.0; 4]; (size * size) as usize];
    for y in 0..size {
        for x in 0..size {
            let (dx, dy) = (
                (x as f32 + 0.5 - half) / half,
                (y as f32 + 0.5 - half) / half,
            );
            let r = (dx * dx + dy * dy).sqrt();
            let rgba = match style {
                0 => {
                    let radius = 0.3 + 0.7 * t;
                    let core = (1.0 - r / radius).clamp(0.0, 1.0) * (1.0 - t).powf(0.7);
                    let ring = (1.0 - ((r - radius) / 0.12).abs()).clamp(0.0, 1.0) * (1.0 - t);
                    let a = (core * 1.5 + ring * 0.8).min(1.0);
                    [1.0, 0.35 + 0.6 * core, 0.1 * core + 0.4 * ring, a]
                }
                1 => {
                    let gap = 0.7 * (1.0 - t);
                    let jaw = (dy.abs() - gap).abs() < 0.14 && r < 0.9;
                    let tooth = ((dx * 6.0).rem_euclid(1.0) < 0.5)
                        && (dy.abs() - gap) < 0.0
                        && (dy.abs() - gap) > -0.25
                        && r < 0.9;
                    let a = if jaw || tooth { 1.0 - 0.5 * t } else { 0.0 };
                    [0.95, 0.95, 1.0, a]
                }
                3 => {
                    let radius = 0.45 + 0.5 * t;
                    let puff = (1.0 - r / radius).clamp(0.0, 1.0).powf(0.6);
                    let grey = 0.55 + 0.2 * (1.0 - t);
                    [grey, grey, grey * 1.05, puff * 0.55 * (1.0 - t * 0.8)]
                }
                _ => {
                    let arm = dx.abs().min(dy.abs());
                    let reach = 1.0 - t;
                    let a = if r < reach && arm < 0.12 * (1.0 - r / reach) + 0.02 {
                        1.0
                    } else {
                        0.0
                    };
                    [1.0, 1.0, 0.8, a * (1.0 - 0.6 * t)]
                }
            };
            let a = rgba[3];
            pixels[(y * size + x) as usize] = [rgba[0] * a, rgba[1] * a, rgba[2] * a, a];
        }
    }
    Sprite { size, pixels }
}

/// The strip under a scene picture: its height in pixels.
const STRIP: u32 = 108;

/// The scene with a strip under it: the frame and time, and for each kind its
/// sprite, its layer and its counts (live now, spawned, finished, recycled).
fn annotate(
    scene: image::RgbaImage,
    frame: u32,
    effects: &Effects,
    kinds: &[KindId; 4],
    sheets: &SpriteSheets,
) -> Result<image::RgbImage, Box<dyn Error>> {
    use figures::plotters::style::RGBColor;
    let mut picture = image::RgbImage::from_pixel(WIDTH, HEIGHT + STRIP, image::Rgb([28, 30, 38]));
    image::imageops::replace(
        &mut picture,
        &image::DynamicImage::ImageRgba8(scene).into_rgb8(),
        0,
        0,
    );
    // Each kind's sprite at a third of its animation, on the strip.
    for (i, frames) in sheets.frames.iter().enumerate() {
        let Some(sprite) = frames.get(frames.len() / 3) else {
            continue;
        };
        let (x0, y0) = (8 + i as u32 * 240, HEIGHT + 32);
        let scale = 40.0 / sprite.size as f32;
        for y in 0..40u32 {
            for x in 0..40u32 {
                let (sx, sy) = ((x as f32 / scale) as u32, (y as f32 / scale) as u32);
                let [r, g, b, a] = sprite.pixels
                    [(sy.min(sprite.size - 1) * sprite.size + sx.min(sprite.size - 1)) as usize];
                let under = picture.get_pixel(x0 + x, y0 + y).0;
                let blend = |c: f32, u: u8| {
                    ((c + f32::from(u) / 255.0 * (1.0 - a)).clamp(0.0, 1.0) * 255.0) as u8
                };
                picture.put_pixel(
                    x0 + x,
                    y0 + y,
                    image::Rgb([blend(r, under[0]), blend(g, under[1]), blend(b, under[2])]),
                );
            }
        }
    }
    let white = RGBColor(235, 235, 240);
    let grey = RGBColor(165, 165, 175);
    figures::on_image(&mut picture, |area| {
        let y = HEIGHT as i32 + 6;
        figures::text(
            area,
            &format!(
                "frame {frame} (t = {:.2} s): a wave every 1.5 s, 80 explosions a frame for 0.25 s, each leaving smoke. Green dots: enemies",
                f64::from(frame) / f64::from(FPS)
            ),
            (12, y),
            15,
            white,
        )?;
        let parked: usize = kinds
            .iter()
            .filter_map(|kind| effects.stats(*kind))
            .map(|stats| stats.offscreen)
            .sum();
        let x = VIEW_RIGHT as i32 + 12;
        figures::text(area, "outside the camera's view:", (x, 14), 14, white)?;
        figures::text(
            area,
            &format!("{parked} effects parked here,"),
            (x, 34),
            14,
            white,
        )?;
        figures::text(area, "not drawn, not updated", (x, 54), 14, white)?;
        // A 100-pixel scale bar (sprites are 56, 32 and 24 px across at scale 1).
        let (x0, yb) = (WIDTH as i32 - 130, y + 8);
        area.draw(&figures::plotters::element::PathElement::new(
            [(x0, yb), (x0 + 100, yb)],
            figures::plotters::style::Color::stroke_width(&white, 2),
        ))?;
        figures::text(area, "100 px", (x0 + 30, yb + 4), 12, white)?;
        for (i, kind) in kinds.iter().enumerate() {
            let (Some(definition), Some(stats)) = (effects.definition(*kind), effects.stats(*kind))
            else {
                continue;
            };
            let x = 54 + i as i32 * 240;
            figures::text(
                area,
                &format!(
                    "{}: layer {}, {} x {:.0} ms",
                    definition.name,
                    definition.layer,
                    definition.frame_count,
                    definition.frame_interval.as_secs_f64() * 1000.0
                ),
                (x, y + 26),
                13,
                white,
            )?;
            figures::text(
                area,
                &format!(
                    "{} live ({} off-screen) of {}",
                    stats.pool.live, stats.offscreen, definition.max_objects
                ),
                (x, y + 44),
                12,
                grey,
            )?;
            figures::text(
                area,
                &format!("{} spawned, {} recycled", stats.spawns, stats.pool.recycles),
                (x, y + 60),
                12,
                grey,
            )?;
            let fate = match definition.offscreen {
                Offscreen::CatchUp => {
                    format!("off-screen: catch up, {} ended", stats.ended_offscreen)
                }
                Offscreen::Pause => "off-screen: pause".to_string(),
                Offscreen::End => format!("off-screen: end, {} culled", stats.culled),
                _ => "off-screen: simulate".to_string(),
            };
            figures::text(area, &fate, (x, y + 76), 12, grey)?;
            if stats.follow_ups > 0 {
                figures::text(
                    area,
                    &format!("-> {} smoke follow-ups", stats.follow_ups),
                    (x, y + 92),
                    12,
                    grey,
                )?;
            }
        }
        Ok(())
    })?;
    Ok(picture)
}

/// Draws the scene: a dark ground, the enemies as dim dots, then every effect in
/// draw-list order (layer, then spawn order), blended over what is below it.
fn render(draw_list: &[DrawItem], sheets: &SpriteSheets, enemies: &[[f32; 2]]) -> image::RgbaImage {
    let mut canvas = vec![[0.06f32, 0.07, 0.10]; (WIDTH * HEIGHT) as usize];
    for enemy in enemies {
        let (x, y) = (enemy[0] as u32, enemy[1] as u32);
        for (ex, ey) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            if x + ex < WIDTH && y + ey < HEIGHT {
                canvas[((y + ey) * WIDTH + x + ex) as usize] = [0.35, 0.55, 0.35];
            }
        }
    }
    for item in draw_list {
        assert!(
            item.position.x <= VIEW_RIGHT + 40.0,
            "the draw list holds what is in view"
        );
        let Some(sprite) = sheets
            .frames
            .get(item.kind.index())
            .and_then(|f| f.get(item.frame as usize))
        else {
            continue;
        };
        blit(&mut canvas, sprite, item);
    }
    let bytes = canvas
        .iter()
        .flat_map(|[r, g, b]| {
            [*r, *g, *b]
                .map(|c| (c.clamp(0.0, 1.0) * 255.0) as u8)
                .into_iter()
                .chain([255])
        })
        .collect();
    let mut image =
        image::RgbaImage::from_raw(WIDTH, HEIGHT, bytes).expect("the buffer matches the size");
    // The world outside the camera's view, hatched.
    for y in 0..HEIGHT {
        for x in VIEW_RIGHT as u32..WIDTH {
            let pixel = image.get_pixel_mut(x, y);
            let stripe = (x + y) % 16 < 2;
            for c in 0..3 {
                pixel.0[c] = if stripe { 70 } else { pixel.0[c] / 2 + 10 };
            }
        }
    }
    image
}

/// Draws one sprite centred on the item, rotated, scaled and tinted, sampling the
/// sprite at the inverse-transformed position of each covered pixel.
fn blit(canvas: &mut [[f32; 3]], sprite: &Sprite, item: &DrawItem) {
    let half = sprite.size as f32 / 2.0;
    let reach = half * item.scale.x.abs().max(item.scale.y.abs()) * std::f32::consts::SQRT_2;
    let (sin, cos) = item.rotation.sin_cos();
    let (x0, x1) = (
        (item.position.x - reach).max(0.0) as u32,
        ((item.position.x + reach) as u32).min(WIDTH),
    );
    let (y0, y1) = (
        (item.position.y - reach).max(0.0) as u32,
        ((item.position.y + reach) as u32).min(HEIGHT),
    );
    for y in y0..y1 {
        for x in x0..x1 {
            let (dx, dy) = (
                x as f32 + 0.5 - item.position.x,
                y as f32 + 0.5 - item.position.y,
            );
            let u = (cos * dx + sin * dy) / item.scale.x + half;
            let v = (-sin * dx + cos * dy) / item.scale.y + half;
            if u < 0.0 || v < 0.0 || u >= sprite.size as f32 || v >= sprite.size as f32 {
                continue;
            }
            let [r, g, b, a] = sprite.pixels[(v as u32 * sprite.size + u as u32) as usize];
            let tint = item.tint;
            let a = a * tint.a;
            let pixel = &mut canvas[(y * WIDTH + x) as usize];
            pixel[0] = r * tint.r * tint.a + pixel[0] * (1.0 - a);
            pixel[1] = g * tint.g * tint.a + pixel[1] * (1.0 - a);
            pixel[2] = b * tint.b * tint.a + pixel[2] * (1.0 - a);
        }
    }
}

//! The workspace's pictures: charts with a title, labelled axes with units, a
//! legend and a caption, and labels written on drawn images (a map, a scene).
//!
//! Drawn with [plotters](https://docs.rs/plotters) on a bitmap, in pure Rust: the
//! text uses a font bundled with the workspace (`assets/fonts`, DejaVu Sans cut
//! down to ASCII and a few symbols, 11 KB), so a picture needs no system font or
//! image library and comes out the same on every machine.
//!
//! ```
//! use figures::{Line, LineChart, png, BLUE};
//!
//! let path = std::env::temp_dir().join(format!("figures-doc-{}.png", std::process::id()));
//! let ramp: Vec<(f64, f64)> = (0..10).map(|i| (i as f64, i as f64 * 0.1)).collect();
//! png(&path, (400, 300), |area| {
//!     LineChart::new("A ramp", ("time (s)", 0.0..10.0), ("level", 0.0..1.0))
//!         .line(Line::new("level", BLUE, &ramp))
//!         .draw(area)
//! })?;
//! assert!(std::fs::metadata(&path)?.len() > 1000);
//! # std::fs::remove_file(&path)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::error::Error;
use std::ops::Range;
use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{FontStyle, register_font};

pub use plotters;

/// A drawing area on an RGB bitmap.
pub type Area<'a> = DrawingArea<BitMapBackend<'a>, Shift>;

/// The result of drawing.
pub type Drawn = Result<(), Box<dyn Error>>;

/// The bundled font's family name.
pub const FONT: &str = "sans-serif";

/// Text and axes.
pub const INK: RGBColor = RGBColor(30, 30, 36);
/// A quieter ink, for captions and grid labels.
pub const MUTED: RGBColor = RGBColor(105, 105, 115);
/// Plain kira, a failure, a limit crossed.
pub const RED: RGBColor = RGBColor(200, 50, 45);
/// The pool, the result to look at.
pub const BLUE: RGBColor = RGBColor(35, 85, 170);
/// A second series.
pub const ORANGE: RGBColor = RGBColor(220, 130, 20);
/// A limit that holds (a ceiling, a cap).
pub const GREEN: RGBColor = RGBColor(40, 140, 70);
/// A third series.
pub const PURPLE: RGBColor = RGBColor(130, 70, 160);

static FONT_ONCE: Once = Once::new();

/// Registers the bundled font with plotters (once; every drawing function here
/// calls it).
pub fn init() {
    FONT_ONCE.call_once(|| {
        // The font is bundled and known good: a failure here is a broken build.
        register_font(
            FONT,
            FontStyle::Normal,
            include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf"),
        )
        .map_err(|_| ())
        .expect("the bundled font parses");
    });
}

/// The text style of `size` pixels in `color`.
pub fn font(size: u32, color: RGBColor) -> TextStyle<'static> {
    init();
    (FONT, size).into_font().color(&color)
}

/// Draws a picture of `size` pixels on white with `draw` and saves it as a PNG.
pub fn png(path: impl AsRef<Path>, size: (u32, u32), draw: impl FnOnce(&Area) -> Drawn) -> Drawn {
    let mut image = image::RgbImage::new(size.0, size.1);
    on_image(&mut image, |area| {
        area.fill(&WHITE)?;
        draw(area)
    })?;
    save(&image, path)
}

/// Saves `image` as a PNG, compressed as far as the encoder goes (the pictures
/// are committed to the repository).
pub fn save(image: &image::RgbImage, path: impl AsRef<Path>) -> Drawn {
    use image::ImageEncoder;
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    PngEncoder::new_with_quality(file, CompressionType::Best, FilterType::Adaptive).write_image(
        image.as_raw(),
        image.width(),
        image.height(),
        image::ExtendedColorType::Rgb8,
    )?;
    Ok(())
}

/// Draws on an image already drawn (a map, a scene): labels, a legend, a scale.
pub fn on_image(image: &mut image::RgbImage, draw: impl FnOnce(&Area) -> Drawn) -> Drawn {
    init();
    let size = image.dimensions();
    let area = BitMapBackend::with_buffer(image.as_mut(), size).into_drawing_area();
    draw(&area)?;
    area.present()?;
    Ok(())
}

/// Writes `text` with its top left corner at `at`.
pub fn text(area: &Area, text: &str, at: (i32, i32), size: u32, color: RGBColor) -> Drawn {
    area.draw_text(text, &font(size, color), at)?;
    Ok(())
}

/// Splits `area` into a title strip of `height` pixels with `title` (and a
/// `caption` under it, if any) and the rest, returned.
pub fn titled<'a>(
    area: &Area<'a>,
    title: &str,
    caption: &str,
    height: u32,
) -> Result<Area<'a>, Box<dyn Error>> {
    let (top, rest) = area.split_vertically(height);
    text(&top, title, (12, 8), 20, INK)?;
    for (i, line) in caption.lines().enumerate() {
        text(&top, line, (12, 34 + 17 * i as i32), 14, MUTED)?;
    }
    Ok(rest)
}

/// One series of a [`LineChart`].
#[derive(Debug, Clone)]
pub struct Line<'a> {
    label: String,
    color: RGBColor,
    points: &'a [(f64, f64)],
    dashed: bool,
    width: u32,
}

impl<'a> Line<'a> {
    /// A solid line through `points`, called `label` in the legend.
    pub fn new(label: impl Into<String>, color: RGBColor, points: &'a [(f64, f64)]) -> Self {
        Self {
            label: label.into(),
            color,
            points,
            dashed: false,
            width: 1,
        }
    }

    /// Dashed: a limit or a reference, not a measurement.
    pub fn dashed(mut self) -> Self {
        self.dashed = true;
        self
    }

    /// Drawn `width` pixels wide.
    pub fn width(mut self, width: u32) -> Self {
        self.width = width;
        self
    }
}

/// A chart of lines: a title, both axes labelled with their unit, a legend.
#[derive(Debug, Clone)]
pub struct LineChart<'a> {
    title: String,
    x: (String, Range<f64>),
    y: (String, Range<f64>),
    lines: Vec<Line<'a>>,
    notes: Vec<((f64, f64), String, RGBColor)>,
    legend_at: SeriesLabelPosition,
    legend: bool,
}

impl<'a> LineChart<'a> {
    /// A chart called `title`, `x` and `y` as (label with unit, range).
    pub fn new(title: &str, x: (&str, Range<f64>), y: (&str, Range<f64>)) -> Self {
        Self {
            title: title.into(),
            x: (x.0.into(), x.1),
            y: (y.0.into(), y.1),
            lines: Vec::new(),
            notes: Vec::new(),
            legend_at: SeriesLabelPosition::UpperRight,
            legend: true,
        }
    }

    /// Adds a line.
    pub fn line(mut self, line: Line<'a>) -> Self {
        self.lines.push(line);
        self
    }

    /// Writes `note` at a point of the chart (in the axes' units).
    pub fn note(mut self, at: (f64, f64), note: &str, color: RGBColor) -> Self {
        self.notes.push((at, note.into(), color));
        self
    }

    /// Puts the legend in the lower right corner instead of the upper right.
    pub fn legend_lower_right(mut self) -> Self {
        self.legend_at = SeriesLabelPosition::LowerRight;
        self
    }

    /// Draws no legend (a [`legend_row`] outside the chart says what the lines are).
    pub fn no_legend(mut self) -> Self {
        self.legend = false;
        self
    }

    /// Draws the chart into `area`.
    pub fn draw(self, area: &Area) -> Drawn {
        let mut chart = ChartBuilder::on(area)
            .caption(&self.title, font(17, INK))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(58)
            .build_cartesian_2d(self.x.1.clone(), self.y.1.clone())?;
        chart
            .configure_mesh()
            .x_desc(self.x.0.as_str())
            .y_desc(self.y.0.as_str())
            .axis_desc_style(font(14, INK))
            .label_style(font(12, MUTED))
            .light_line_style(RGBColor(238, 238, 240))
            .bold_line_style(RGBColor(215, 215, 220))
            .draw()?;
        for line in &self.lines {
            let style = line.color.stroke_width(line.width);
            let points = line.points.iter().copied();
            let drawn = if line.dashed {
                chart.draw_series(DashedLineSeries::new(points, 6, 4, style))?
            } else {
                chart.draw_series(LineSeries::new(points, style))?
            };
            let color = line.color;
            if !line.label.is_empty() {
                drawn.label(line.label.as_str()).legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 18, y)], color.stroke_width(2))
                });
            }
        }
        for ((x, y), note, color) in &self.notes {
            chart.draw_series(std::iter::once(Text::new(
                note.clone(),
                (*x, *y),
                font(13, *color),
            )))?;
        }
        if !self.legend {
            return Ok(());
        }
        chart
            .configure_series_labels()
            .position(self.legend_at)
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(200, 200, 205))
            .label_font(font(13, INK))
            .draw()?;
        Ok(())
    }
}

/// A legend in a row, from `at`: for each entry a short line (dashed if asked)
/// in its colour and its label.
pub fn legend_row(area: &Area, at: (i32, i32), entries: &[(&str, RGBColor, bool)]) -> Drawn {
    let (mut x, y) = at;
    for (label, color, dashed) in entries {
        let style = color.stroke_width(2);
        if *dashed {
            area.draw(&PathElement::new([(x, y + 8), (x + 8, y + 8)], style))?;
            area.draw(&PathElement::new([(x + 13, y + 8), (x + 21, y + 8)], style))?;
        } else {
            area.draw(&PathElement::new([(x, y + 8), (x + 21, y + 8)], style))?;
        }
        let style = font(14, INK);
        let width = area.estimate_text_size(label, &style)?.0 as i32;
        area.draw_text(label, &style, (x + 27, y))?;
        x += 27 + width + 24;
    }
    Ok(())
}

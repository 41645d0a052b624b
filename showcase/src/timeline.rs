//! The timeline of a replayed session: one row per voice (voices of a sound
//! share rows, one after another), coloured by state; refusals and steals
//! marked with their reason; the loudness window's top, the duck and the
//! snapshots under it; the output's peak at the bottom.

use std::collections::HashMap;
use std::error::Error;
use std::path::Path;

use figures::plotters::prelude::*;
use pool_audio::mix::TrackId;
use pool_audio::{EndReason, GroupId, PlayError, SoundEffects, VoiceHandle, VoiceState};
use showcase::content::RATE;

/// Colours of the voices' states.
const REAL: RGBColor = figures::BLUE;
const VIRTUAL: RGBColor = RGBColor(200, 196, 222);
const FADING: RGBColor = figures::ORANGE;
const PAUSED: RGBColor = RGBColor(150, 150, 150);

/// One voice over time: its sound, and its runs (from, to, state).
struct Voice {
    sound: String,
    runs: Vec<(f64, f64, VoiceState)>,
}

/// A sound's rows in the picture.
#[derive(Clone, Default)]
struct Lanes {
    name: String,
    first: f64,
    count: usize,
    height: f64,
}

/// What the mix and the output did at one update.
struct MixPoint {
    time: f64,
    window_top: Option<f64>,
    footsteps: f64,
    ambience: f64,
    world: f64,
    peak: f64,
}

pub(crate) struct Timeline {
    groups: (GroupId, GroupId, TrackId),
    voices: Vec<Voice>,
    index: HashMap<VoiceHandle, usize>,
    last: Option<f64>,
    mix: Vec<MixPoint>,
    refusals: Vec<(f64, String, PlayError)>,
    displaced: Vec<(f64, usize, EndReason)>,
    measured: usize,
}

impl Timeline {
    /// A timeline reading the footsteps' duck, the ambience's snapshot and
    /// the world bus's pause menu.
    pub(crate) fn new(footsteps: GroupId, ambience: GroupId, world: TrackId) -> Self {
        Self {
            groups: (footsteps, ambience, world),
            voices: Vec::new(),
            index: HashMap::new(),
            last: None,
            mix: Vec::new(),
            refusals: Vec::new(),
            displaced: Vec::new(),
            measured: 0,
        }
    }

    /// Reads the manager at an update at the game's `time`, and the audio
    /// rendered since the last.
    pub(crate) fn sample(&mut self, sfx: &SoundEffects, audio: &[f32], time: f64) {
        let from = self.last.unwrap_or(time - 1.0 / 60.0);
        for info in sfx.voices() {
            let next = self.voices.len();
            let i = *self.index.entry(info.voice).or_insert(next);
            if i == next {
                let sound = sfx.sound_name(info.sound).unwrap_or("?").to_string();
                self.voices.push(Voice {
                    sound,
                    runs: Vec::new(),
                });
            }
            let runs = &mut self.voices[i].runs;
            match runs.last_mut() {
                Some(run) if run.2 == info.state && run.1 == from => run.1 = time,
                _ => runs.push((from, time, info.state)),
            }
        }
        let peak = (audio[self.measured..].iter()).fold(0.0f32, |m, s| m.max(s.abs()));
        self.measured = audio.len();
        let (footsteps, ambience, world) = self.groups;
        let db =
            |level: Result<pool_audio::kira::Decibels, _>| level.map_or(0.0, |d| f64::from(d.0));
        self.mix.push(MixPoint {
            time,
            window_top: sfx.mix().stats().window_top.map(|t| f64::from(t.0)),
            footsteps: db(sfx.mix().level(footsteps)),
            ambience: db(sfx.mix().level(ambience)),
            world: db(sfx.mix().level(world)),
            peak: 20.0 * f64::from(peak.max(1e-5)).log10(),
        });
        self.last = Some(time);
    }

    /// A play of `sound` refused at `time`.
    pub(crate) fn refused(&mut self, time: f64, sound: &str, refusal: PlayError) {
        self.refusals.push((time, sound.to_string(), refusal));
    }

    /// The voice `voice` lost its place at `time`.
    pub(crate) fn displaced(&mut self, time: f64, voice: VoiceHandle, reason: EndReason) {
        if let Some(&row) = self.index.get(&voice) {
            self.displaced.push((time, row, reason));
        }
    }

    /// Rows for the voices: grouped by sound (the sounds with few voices at
    /// once first, each of their rows three times as high), each voice on
    /// the first row of its sound free when it starts. Returns each voice's
    /// row and height, and the sounds' (name, first row, rows, height).
    fn rows(&self) -> (Vec<(f64, f64)>, Vec<Lanes>) {
        let mut sounds: Vec<(String, Vec<f64>)> = Vec::new();
        let mut placed = Vec::with_capacity(self.voices.len());
        for voice in &self.voices {
            let (start, end) = (voice.runs[0].0, voice.runs.last().map_or(0.0, |r| r.1));
            let s = match sounds.iter().position(|(name, _)| *name == voice.sound) {
                Some(s) => s,
                None => {
                    sounds.push((voice.sound.clone(), Vec::new()));
                    sounds.len() - 1
                }
            };
            let lanes = &mut sounds[s].1;
            let lane = match lanes.iter().position(|free| *free <= start) {
                Some(lane) => lane,
                None => {
                    lanes.push(0.0);
                    lanes.len() - 1
                }
            };
            lanes[lane] = end + 0.05;
            placed.push((s, lane));
        }
        let mut order: Vec<usize> = (0..sounds.len()).collect();
        order.sort_by_key(|&s| sounds[s].1.len());
        let mut lanes = vec![Lanes::default(); sounds.len()];
        let mut row = 0.0;
        for s in order {
            let count = sounds[s].1.len();
            let height = if count <= 16 { 3.0 } else { 1.0 };
            lanes[s] = Lanes {
                name: sounds[s].0.clone(),
                first: row,
                count,
                height,
            };
            row += count as f64 * height + 1.5;
        }
        let rows = (placed.iter())
            .map(|&(s, lane)| {
                (
                    lanes[s].first + lane as f64 * lanes[s].height,
                    lanes[s].height,
                )
            })
            .collect();
        (rows, lanes)
    }

    pub(crate) fn draw(&self, path: &Path) -> Result<(), Box<dyn Error>> {
        let seconds = self.mix.last().map_or(1.0, |p| p.time + 1.0 / 60.0);
        let (rows, sounds) = self.rows();
        let total = (sounds.iter()).fold(0.0f64, |m, s| m.max(s.first + s.count as f64 * s.height));
        let voices_px = (total as u32 * 3 + 170).max(400);
        let height = 120 + voices_px + 3 * 300;
        figures::png(path, (1400, height), |area| {
            let body = figures::titled(
                area,
                &format!(
                    "A replayed session of the showcase level: {seconds:.0} s, {} voices",
                    self.voices.len()
                ),
                "Every voice a row (a sound's voices share its rows, one after another), coloured by its state at each update; refusals above, steals and crowding marked where the voice ended.\nUnder them: the loudness window's top, what the duck and the snapshots set, and the output's peak per frame. Drawn from the capture replayed in a fresh process.",
                70,
            )?;
            let (top, rest) = body.split_vertically(voices_px);
            self.draw_voices(&top, seconds, &rows, &sounds)?;
            let panels = rest.split_evenly((3, 1));
            self.draw_window(&panels[0], seconds)?;
            self.draw_levels(&panels[1], seconds)?;
            self.draw_peak(&panels[2], seconds)
        })
    }

    fn draw_voices(
        &self,
        area: &figures::Area,
        seconds: f64,
        rows: &[(f64, f64)],
        sounds: &[Lanes],
    ) -> Result<(), Box<dyn Error>> {
        let total = (sounds.iter()).fold(0.0f64, |m, s| m.max(s.first + s.count as f64 * s.height));
        let gutter = seconds * 0.1;
        let (h, strip) = (area.dim_in_pixel().1, 56);
        let (area, strip) = area.split_vertically(h - strip);
        let area = &area;
        // Rows go down from the top; four rows above the first for the refusals.
        let mut chart = ChartBuilder::on(area)
            .caption(
                "Voices: one row each, by sound",
                figures::font(17, figures::INK),
            )
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(10)
            .build_cartesian_2d(-gutter..seconds, (total + 1.0)..-6.0)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .x_desc("time (s)")
            .x_label_formatter(&|x| {
                if *x < 0.0 {
                    String::new()
                } else {
                    format!("{x:.0}")
                }
            })
            .axis_desc_style(figures::font(14, figures::INK))
            .label_style(figures::font(12, figures::MUTED))
            .light_line_style(RGBColor(244, 244, 246))
            .bold_line_style(RGBColor(225, 225, 230))
            .draw()?;
        let color = |state| match state {
            VoiceState::Real => REAL,
            VoiceState::Fading => FADING,
            VoiceState::Paused => PAUSED,
            _ => VIRTUAL,
        };
        let bars = (self.voices.iter().zip(rows)).flat_map(|(voice, &(y, height))| {
            (voice.runs.iter()).map(move |&(from, to, state)| {
                let bar = if height > 1.0 { 0.8 * height } else { 1.0 };
                Rectangle::new([(from, y), (to, y + bar)], color(state).filled())
            })
        });
        chart.draw_series(bars)?;
        let label = figures::font(13, figures::INK);
        chart.draw_series(sounds.iter().map(|lanes| {
            let y = lanes.first + (lanes.count as f64 * lanes.height) / 2.0 - 1.0;
            let text = format!("{} ({})", lanes.name, lanes.count);
            Text::new(text, (-gutter * 0.97, y), label.clone())
        }))?;
        chart.draw_series(std::iter::once(Text::new(
            "refused",
            (-gutter * 0.97, -4.0),
            label.clone(),
        )))?;
        chart.draw_series(self.refusals.iter().map(|(time, _, refusal)| {
            let y = -5.0 + refusal_row(refusal);
            Circle::new((*time, y), 2, refusal_color(refusal).filled())
        }))?;
        chart.draw_series(self.displaced.iter().map(|&(time, row, reason)| {
            let color = if reason == EndReason::Stolen {
                figures::RED
            } else {
                figures::GREEN
            };
            let (y, height) = rows[row];
            Cross::new((time, y + 0.4 * height), 3, color.stroke_width(1))
        }))?;
        self.legend(&strip)
    }

    fn legend(&self, area: &figures::Area) -> Result<(), Box<dyn Error>> {
        let y = 8;
        let mut x = 80;
        let style = figures::font(13, figures::INK);
        let mut entry = |text: &str, color: RGBColor, mark: u8| -> Result<(), Box<dyn Error>> {
            match mark {
                0 => area.draw(&Rectangle::new([(x, y), (x + 16, y + 10)], color.filled()))?,
                1 => area.draw(&Circle::new((x + 6, y + 5), 3, color.filled()))?,
                _ => area.draw(&Cross::new((x + 6, y + 5), 4, color.stroke_width(2)))?,
            }
            area.draw_text(text, &style, (x + 20, y - 2))?;
            x += 26 + area.estimate_text_size(text, &style)?.0 as i32 + 14;
            Ok(())
        };
        entry("real", REAL, 0)?;
        entry("virtual", VIRTUAL, 0)?;
        entry("fading out", FADING, 0)?;
        entry("paused", PAUSED, 0)?;
        entry("stolen", figures::RED, 2)?;
        entry("crowded out", figures::GREEN, 2)?;
        for refusal in [
            PlayError::SoundLimit,
            PlayError::Retrigger,
            PlayError::Inaudible,
            PlayError::OutOfWindow,
        ] {
            let name = format!("refused: {}", pool_audio::capture::refusal_name(&refusal));
            entry(&name, refusal_color(&refusal), 1)?;
        }
        entry("refused: other", figures::MUTED, 1)?;
        let counts = self.refusal_counts();
        area.draw_text(&counts, &figures::font(13, figures::MUTED), (80, y + 22))?;
        Ok(())
    }

    fn refusal_counts(&self) -> String {
        let mut counts: Vec<(&'static str, usize)> = Vec::new();
        for (_, _, refusal) in &self.refusals {
            let name = pool_audio::capture::refusal_name(refusal);
            match counts.iter_mut().find(|(n, _)| *n == name) {
                Some(c) => c.1 += 1,
                None => counts.push((name, 1)),
            }
        }
        let text: Vec<String> = counts.iter().map(|(n, c)| format!("{n} {c}")).collect();
        format!(
            "refusals: {}",
            if text.is_empty() {
                "none".into()
            } else {
                text.join(", ")
            }
        )
    }

    fn draw_window(&self, area: &figures::Area, seconds: f64) -> Result<(), Box<dyn Error>> {
        let top: Vec<(f64, f64)> = (self.mix.iter())
            .filter_map(|p| Some((p.time, p.window_top?)))
            .collect();
        figures::LineChart::new(
            "The loudness window's top: the loudest sound of the window's groups, falling back after it",
            ("time (s)", 0.0..seconds),
            ("window top (dB, loudness)", 55.0..105.0),
        )
        .line(figures::Line::new("window top", figures::ORANGE, &top).width(2))
        .legend_lower_right()
        .draw(area)
    }

    fn draw_levels(&self, area: &figures::Area, seconds: f64) -> Result<(), Box<dyn Error>> {
        let series = |f: &dyn Fn(&MixPoint) -> f64| -> Vec<(f64, f64)> {
            self.mix.iter().map(|p| (p.time, f(p))).collect()
        };
        let (footsteps, ambience, world) = (
            series(&|p| p.footsteps),
            series(&|p| p.ambience),
            series(&|p| p.world),
        );
        figures::LineChart::new(
            "Ducks and snapshots: explosions duck the footsteps; the storm lowers the ambience; the pause menu the world bus",
            ("time (s)", 0.0..seconds),
            ("gain set (dB)", -16.0..4.0),
        )
        .line(figures::Line::new("footsteps (duck)", figures::BLUE, &footsteps).width(2))
        .line(figures::Line::new("ambience (storm snapshot)", figures::GREEN, &ambience).width(2))
        .line(figures::Line::new("world bus (pause snapshot)", figures::PURPLE, &world).width(2))
        .legend_lower_right()
        .draw(area)
    }

    fn draw_peak(&self, area: &figures::Area, seconds: f64) -> Result<(), Box<dyn Error>> {
        let peak: Vec<(f64, f64)> = self.mix.iter().map(|p| (p.time, p.peak)).collect();
        let ceiling = [(0.0, -1.0), (seconds, -1.0)];
        figures::LineChart::new(
            &format!("The output: its loudest sample per frame ({RATE} Hz, after the limiter)"),
            ("time (s)", 0.0..seconds),
            ("peak (dBFS)", -40.0..1.0),
        )
        .line(figures::Line::new("peak", figures::BLUE, &peak))
        .line(figures::Line::new("ceiling (-1 dBFS)", figures::GREEN, &ceiling).dashed())
        .legend_lower_right()
        .draw(area)
    }
}

/// The refusals' rows above the voices: four reasons, the rest together.
fn refusal_row(refusal: &PlayError) -> f64 {
    match refusal {
        PlayError::SoundLimit => 0.0,
        PlayError::Retrigger => 1.0,
        PlayError::Inaudible => 2.0,
        PlayError::OutOfWindow => 3.0,
        _ => 4.0,
    }
}

fn refusal_color(refusal: &PlayError) -> RGBColor {
    match refusal {
        PlayError::SoundLimit => figures::RED,
        PlayError::Retrigger => figures::ORANGE,
        PlayError::Inaudible => figures::PURPLE,
        PlayError::OutOfWindow => figures::GREEN,
        _ => figures::MUTED,
    }
}

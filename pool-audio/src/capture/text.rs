//! A capture's file (the format is in `capture.rs`'s docs): written with
//! every value exact (floats in their shortest round-trip form, fades in
//! whole nanoseconds), and read back to the same events.

use std::fmt::{self, Write as _};
use std::io::{self, Write};
use std::time::Duration;

use kira::{Decibels, Easing, StartTime, Tween};

use super::{Capture, Event, ListenerCall, VoiceCall, VoiceNumber, What};
use crate::game::GameParamId;
use crate::handles::{EndReason, SoundId};
use crate::mix::SnapshotId;
use crate::sound::{SwitchId, SwitchState};
use crate::voices::WhyVirtual;
use crate::{Distances, PlayError, PlayParams, TrackId, VoiceState};

/// The first line of a capture file.
const HEADER: &str = "pool-audio capture 1";

/// Why a capture file could not be read: the line and what was wrong
/// there.
///
/// ```
/// use pool_audio::capture::Capture;
///
/// let error = Capture::read("pool-audio capture 1\nevents 1 dropped 0\n0 0 update dt=x\n").unwrap_err();
/// assert_eq!(error.line, 3);
/// assert!(error.to_string().contains("dt"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadError {
    /// The line, from 1.
    pub line: usize,
    /// What was wrong on it.
    pub problem: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "capture line {}: {}", self.line, self.problem)
    }
}

impl std::error::Error for ReadError {}

impl Capture {
    /// Writes it in the capture format (see the [module](crate::capture)).
    ///
    /// # Errors
    /// The writer's.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "{HEADER}")?;
        writeln!(out, "events {} dropped {}", self.events.len(), self.dropped)?;
        let mut line = String::new();
        for event in &self.events {
            line.clear();
            let _ = write!(line, "{} {} ", event.rendered, event.time);
            self.what_text(&mut line, &event.what);
            writeln!(out, "{line}")?;
        }
        Ok(())
    }

    /// Reads a capture written by [`write`](Self::write). Its sounds are
    /// known by name: a [`replay`](Self::replay) finds them in its manager.
    ///
    /// # Errors
    /// [`ReadError`]: the line and what was wrong (an unknown event or field,
    /// a value that does not parse, a fade started on a clock, which a
    /// replay cannot make).
    pub fn read(text: &str) -> Result<Self, ReadError> {
        let mut lines = text.lines().enumerate();
        let fail = |line: usize, problem: &str| ReadError {
            line: line + 1,
            problem: problem.to_string(),
        };
        match lines.next() {
            Some((_, HEADER)) => {}
            _ => return Err(fail(0, &format!("the file does not start with {HEADER:?}"))),
        }
        let (n, counts) = lines.next().ok_or_else(|| fail(1, "no counts line"))?;
        let dropped = match counts.split(' ').collect::<Vec<_>>()[..] {
            ["events", _, "dropped", d] => d.parse().map_err(|_| fail(n, "dropped"))?,
            _ => return Err(fail(n, "expected `events N dropped N`")),
        };
        let mut capture = Self {
            events: Vec::new(),
            dropped,
            names: Vec::new(),
        };
        for (n, line) in lines.filter(|(_, line)| !line.trim().is_empty()) {
            let event = capture.read_event(line).map_err(|p| fail(n, &p))?;
            capture.events.push(event);
        }
        Ok(capture)
    }

    fn what_text(&self, out: &mut String, what: &What) {
        let _ = match what {
            What::Play {
                sound,
                params,
                outcome,
            } => {
                let _ = write!(out, "play {:?}", self.sound_name(*sound));
                params_text(out, params);
                match outcome {
                    Ok((voice, VoiceState::Real)) => write!(out, " -> voice {} real", voice.0),
                    Ok((voice, _)) => write!(out, " -> voice {} virtual", voice.0),
                    Err(refusal) => write!(out, " -> refused {}", refusal_name(refusal)),
                }
            }
            What::Voice { voice, call } => {
                let _ = write!(out, "voice {}", voice.0);
                call_text(out, call);
                Ok(())
            }
            What::Listener(ListenerCall::Position(p)) => write!(out, "listener position={}", V(p)),
            What::Listener(ListenerCall::Orientation(q)) => {
                write!(out, "listener orientation={}", V(q))
            }
            What::Update { dt } => write!(out, "update dt={dt}"),
            What::GameParam { param, value } => {
                write!(out, "game_param {} value={value}", param.index)
            }
            What::Snapshot {
                snapshot,
                intensity,
                tween,
            } => {
                let _ = match intensity {
                    Some(i) => write!(out, "snapshot {} apply={i}", snapshot.index),
                    None => write!(out, "snapshot {} release", snapshot.index),
                };
                tween_text(out, tween);
                Ok(())
            }
            What::BusVolume { bus, volume, tween } => {
                let _ = write!(out, "bus {} volume={}", bus.index, volume.0);
                tween_text(out, tween);
                Ok(())
            }
            What::Switch(s) => write!(out, "switch {} state={}", s.switch.index, s.state),
            What::Reseed(seed) => write!(out, "reseed {seed}"),
            What::Ended { voice, reason } => {
                write!(out, "ended voice {} {}", voice.0, end_name(*reason))
            }
            What::Virtualized { voice, why } => {
                write!(out, "virtual voice {} {}", voice.0, why_name(*why))
            }
            What::Promoted { voice } => write!(out, "real voice {}", voice.0),
            What::Mix {
                window_top,
                ducks,
                snapshots,
            } => {
                let top = window_top.map_or("-".to_string(), |top| top.0.to_string());
                write!(out, "mix top={top} ducks={ducks} snapshots={snapshots}")
            }
        };
    }

    /// The id a read capture gives the sound `name`.
    fn sound_named(&mut self, name: &str) -> SoundId {
        if let Some((id, _)) = self.names.iter().find(|(_, n)| n == name) {
            return *id;
        }
        let id = SoundId {
            index: self.names.len() as u32,
            generation: 0,
            owner: u32::MAX,
        };
        self.names.push((id, name.to_string()));
        id
    }

    fn read_event(&mut self, line: &str) -> Result<Event, String> {
        let mut words = Words::new(line);
        let rendered = words.number("the audio rendered")?;
        let time = words.number("the game's time")?;
        let name = words.word("an event")?;
        let what = match name {
            "play" => self.read_play(&mut words)?,
            "voice" => What::Voice {
                voice: VoiceNumber(words.number("a voice")?),
                call: read_call(&mut words)?,
            },
            "listener" => match words.field()? {
                ("position", v) => What::Listener(ListenerCall::Position(vector(v)?)),
                ("orientation", v) => What::Listener(ListenerCall::Orientation(vector(v)?)),
                (other, _) => return Err(format!("unknown listener field {other:?}")),
            },
            "update" => What::Update {
                dt: words.value("dt")?,
            },
            "game_param" => What::GameParam {
                param: param_id(words.number("a game parameter")?),
                value: words.value("value")?,
            },
            "snapshot" => read_snapshot(&mut words)?,
            "switch" => What::Switch(SwitchState {
                switch: SwitchId {
                    index: words.number("a switch")?,
                    owner: 0,
                },
                state: words.value("state")?,
            }),
            "reseed" => What::Reseed(words.number("a seed")?),
            "bus" => What::BusVolume {
                bus: TrackId {
                    index: words.number("a bus")?,
                    owner: 0,
                },
                volume: Decibels(words.value("volume")?),
                tween: words.tween()?,
            },
            "ended" | "virtual" | "real" => read_decision(name, &mut words)?,
            "mix" => read_mix(&mut words)?,
            other => return Err(format!("unknown event {other:?}")),
        };
        words.end()?;
        Ok(Event {
            rendered,
            time,
            what,
        })
    }

    fn read_play(&mut self, words: &mut Words<'_>) -> Result<What, String> {
        let name = words.quoted()?;
        let sound = self.sound_named(&name);
        let mut params = PlayParams::default();
        loop {
            if words.peek() == Some("->") {
                words.word("->")?;
                break;
            }
            let (key, value) = words.field()?;
            play_field(&mut params, key, value)?;
        }
        let outcome = match (words.word("an outcome")?, words.word("an outcome")?) {
            ("voice", number) => {
                let voice = VoiceNumber(parse(number, "a voice")?);
                let state = match words.word("real or virtual")? {
                    "real" => VoiceState::Real,
                    "virtual" => VoiceState::Virtual,
                    other => return Err(format!("{other:?} is not real or virtual")),
                };
                Ok((voice, state))
            }
            ("refused", reason) => Err(refusal(reason, &params)?),
            (other, _) => return Err(format!("unknown outcome {other:?}")),
        };
        Ok(What::Play {
            sound,
            params,
            outcome,
        })
    }
}

/// The words of a line, after the event's name mostly `key=value` fields.
struct Words<'a> {
    rest: &'a str,
}

impl<'a> Words<'a> {
    fn new(line: &'a str) -> Self {
        Self { rest: line.trim() }
    }

    fn peek(&self) -> Option<&'a str> {
        self.rest.split(' ').next().filter(|w| !w.is_empty())
    }

    fn word(&mut self, what: &str) -> Result<&'a str, String> {
        let word = self.peek().ok_or_else(|| format!("expected {what}"))?;
        self.rest = self.rest[word.len()..].trim_start();
        Ok(word)
    }

    fn number<T: std::str::FromStr>(&mut self, what: &str) -> Result<T, String> {
        parse(self.word(what)?, what)
    }

    fn field(&mut self) -> Result<(&'a str, &'a str), String> {
        let word = self.word("a field")?;
        Ok(word.split_once('=').unwrap_or((word, "")))
    }

    /// The field `key`'s value.
    fn value<T: std::str::FromStr>(&mut self, key: &str) -> Result<T, String> {
        match self.field()? {
            (k, value) if k == key => parse(value, key),
            (other, _) => Err(format!("expected {key}=, found {other:?}")),
        }
    }

    /// A fade's fields, if they come next.
    fn tween(&mut self) -> Result<Tween, String> {
        let mut tween = Tween::default();
        while let Some((key, value)) = self.peek().and_then(|w| w.split_once('=')) {
            match key {
                "fade" => tween.duration = duration(value)?,
                "easing" => tween.easing = easing(value)?,
                "delay" => tween.start_time = start_time(value)?,
                _ => break,
            }
            self.word("a fade")?;
        }
        Ok(tween)
    }

    /// A sound's name, as Rust writes a string.
    fn quoted(&mut self) -> Result<String, String> {
        let text = self.rest;
        let mut chars = text.char_indices();
        if chars.next().map(|(_, c)| c) != Some('"') {
            return Err("expected a sound's name in quotes".into());
        }
        let mut name = String::new();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.rest = text[i + 1..].trim_start();
                    return Ok(name);
                }
                '\\' => name.push(match chars.next().map(|(_, c)| c) {
                    Some('n') => '\n',
                    Some('t') => '\t',
                    Some('r') => '\r',
                    Some('0') => '\0',
                    Some(c @ ('\\' | '"' | '\'')) => c,
                    _ => {
                        return Err("a sound's name has an escape this reader does not know".into());
                    }
                }),
                c => name.push(c),
            }
        }
        Err("a sound's name has no closing quote".into())
    }

    fn end(&self) -> Result<(), String> {
        match self.peek() {
            None => Ok(()),
            Some(word) => Err(format!("unexpected {word:?}")),
        }
    }
}

fn parse<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{text:?} is not a value of {what}"))
}

/// A vector written `x,y,z`.
fn vector<const N: usize>(text: &str) -> Result<[f32; N], String> {
    let mut out = [0.0; N];
    let mut parts = text.split(',');
    for slot in &mut out {
        *slot = parse(parts.next().unwrap_or(""), "a vector")?;
    }
    match parts.next() {
        None => Ok(out),
        Some(_) => Err(format!("{text:?} has more than {N} parts")),
    }
}

/// A vector's text.
struct V<'a, const N: usize>(&'a [f32; N]);

impl<const N: usize> fmt::Display for V<'_, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, x) in self.0.iter().enumerate() {
            let comma = if i == 0 { "" } else { "," };
            write!(f, "{comma}{x}")?;
        }
        Ok(())
    }
}

/// A duration, as seconds with its nanoseconds written out: exact.
fn duration_text(d: Duration) -> String {
    let nanos = format!("{:09}", d.subsec_nanos());
    match nanos.trim_end_matches('0') {
        "" => d.as_secs().to_string(),
        fraction => format!("{}.{fraction}", d.as_secs()),
    }
}

fn duration(text: &str) -> Result<Duration, String> {
    let bad = || format!("{text:?} is not a duration in seconds");
    let (secs, fraction) = text.split_once('.').unwrap_or((text, ""));
    if fraction.len() > 9 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let nanos = format!("{fraction:0<9}")
        .parse::<u32>()
        .map_err(|_| bad())?;
    Ok(Duration::new(secs.parse().map_err(|_| bad())?, nanos))
}

fn easing_text(easing: Easing) -> String {
    match easing {
        Easing::Linear => "linear".into(),
        Easing::InPowi(p) => format!("in_powi:{p}"),
        Easing::OutPowi(p) => format!("out_powi:{p}"),
        Easing::InOutPowi(p) => format!("in_out_powi:{p}"),
        Easing::InPowf(p) => format!("in_powf:{p}"),
        Easing::OutPowf(p) => format!("out_powf:{p}"),
        Easing::InOutPowf(p) => format!("in_out_powf:{p}"),
    }
}

fn easing(text: &str) -> Result<Easing, String> {
    let (name, power) = text.split_once(':').unwrap_or((text, ""));
    Ok(match name {
        "linear" => Easing::Linear,
        "in_powi" => Easing::InPowi(parse(power, "a power")?),
        "out_powi" => Easing::OutPowi(parse(power, "a power")?),
        "in_out_powi" => Easing::InOutPowi(parse(power, "a power")?),
        "in_powf" => Easing::InPowf(parse(power, "a power")?),
        "out_powf" => Easing::OutPowf(parse(power, "a power")?),
        "in_out_powf" => Easing::InOutPowf(parse(power, "a power")?),
        _ => return Err(format!("unknown easing {text:?}")),
    })
}

fn start_time_text(start: StartTime) -> String {
    match start {
        StartTime::Immediate => "0".into(),
        StartTime::Delayed(d) => duration_text(d),
        StartTime::ClockTime(_) => "clock".into(),
    }
}

fn start_time(text: &str) -> Result<StartTime, String> {
    match text {
        "clock" => Err(
            "a start on a clock's time cannot be replayed (the clock is not in the capture)".into(),
        ),
        _ => Ok(StartTime::Delayed(duration(text)?)),
    }
}

/// A fade's fields, those that are not the default's.
fn tween_text(out: &mut String, tween: &Tween) {
    let _ = write!(out, " fade={}", duration_text(tween.duration));
    if tween.easing != Easing::Linear {
        let _ = write!(out, " easing={}", easing_text(tween.easing));
    }
    if tween.start_time != StartTime::Immediate {
        let _ = write!(out, " delay={}", start_time_text(tween.start_time));
    }
}

/// A play's parameters, those that are not the default's.
fn params_text(out: &mut String, p: &PlayParams) {
    let d = PlayParams::default();
    let mut field = |differs: bool, key: &str, value: &dyn fmt::Display| {
        if differs {
            let _ = write!(out, " {key}={value}");
        }
    };
    field(p.volume != d.volume, "volume", &p.volume.0);
    field(p.playback_rate != d.playback_rate, "rate", &p.playback_rate);
    field(p.panning != d.panning, "panning", &p.panning);
    field(
        p.spatial_blend != d.spatial_blend,
        "blend",
        &p.spatial_blend,
    );
    if let Some(at) = p.position {
        field(true, "position", &V(&[at.x, at.y, at.z]));
    }
    if let Some(v) = p.velocity {
        field(true, "velocity", &V(&[v.x, v.y, v.z]));
    }
    field(
        p.obstruction != d.obstruction,
        "obstruction",
        &p.obstruction,
    );
    field(p.occlusion != d.occlusion, "occlusion", &p.occlusion);
    if let Some(owner) = p.owner {
        field(true, "owner", &owner);
    }
    if let Some(recording) = p.recording {
        field(true, "recording", &recording);
    }
    if let Some(s) = p.state {
        field(
            true,
            "switch",
            &format_args!("{}:{}", s.switch.index, s.state),
        );
    }
    if let Some(ds) = p.distances {
        let text = format!("{},{},{}", ds.min, ds.max, easing_text(ds.curve));
        field(true, "distances", &text);
    }
    let start = start_time_text(p.start_time);
    field(p.start_time != d.start_time, "delay", &start);
}

fn play_field(p: &mut PlayParams, key: &str, value: &str) -> Result<(), String> {
    match key {
        "volume" => p.volume = Decibels(parse(value, key)?),
        "rate" => p.playback_rate = parse(value, key)?,
        "panning" => p.panning = parse(value, key)?,
        "blend" => p.spatial_blend = parse(value, key)?,
        "position" => p.position = Some(vector::<3>(value)?.into()),
        "velocity" => p.velocity = Some(vector::<3>(value)?.into()),
        "obstruction" => p.obstruction = parse(value, key)?,
        "occlusion" => p.occlusion = parse(value, key)?,
        "owner" => p.owner = Some(parse(value, key)?),
        "recording" => p.recording = Some(parse(value, key)?),
        "switch" => {
            let (switch, state) = value.split_once(':').unwrap_or((value, ""));
            p.state = Some(SwitchState {
                switch: SwitchId {
                    index: parse(switch, "a switch")?,
                    owner: 0,
                },
                state: parse(state, "a switch's state")?,
            });
        }
        "distances" => {
            let mut parts = value.splitn(3, ',');
            let mut part = || parts.next().unwrap_or("");
            p.distances = Some(Distances {
                min: parse(part(), "a distance")?,
                max: parse(part(), "a distance")?,
                curve: easing(part())?,
            });
        }
        "delay" => p.start_time = start_time(value)?,
        _ => return Err(format!("unknown play field {key:?}")),
    }
    Ok(())
}

fn call_text(out: &mut String, call: &VoiceCall) {
    let (name, tween) = match call {
        VoiceCall::Stop(t) => (" stop".to_string(), Some(t)),
        VoiceCall::Pause(t) => (" pause".into(), Some(t)),
        VoiceCall::Resume(t) => (" resume".into(), Some(t)),
        VoiceCall::Volume(v, t) => (format!(" volume={}", v.0), Some(t)),
        VoiceCall::Rate(r, t) => (format!(" rate={r}"), Some(t)),
        VoiceCall::Panning(p, t) => (format!(" panning={p}"), Some(t)),
        VoiceCall::Position(p) => (format!(" position={}", V(p)), None),
        VoiceCall::Velocity(v) => (format!(" velocity={}", V(v)), None),
        VoiceCall::Obstruction(a) => (format!(" obstruction={a}"), None),
        VoiceCall::Occlusion(a) => (format!(" occlusion={a}"), None),
        VoiceCall::Send(bus, level, t) => (
            format!(" send bus={} level={}", bus.index, level.0),
            Some(t),
        ),
        VoiceCall::GameParam(param, value) => {
            (format!(" game_param {} value={value}", param.index), None)
        }
    };
    out.push_str(&name);
    if let Some(tween) = tween {
        tween_text(out, tween);
    }
}

fn read_call(words: &mut Words<'_>) -> Result<VoiceCall, String> {
    let (key, value) = words.field()?;
    Ok(match key {
        "stop" => VoiceCall::Stop(words.tween()?),
        "pause" => VoiceCall::Pause(words.tween()?),
        "resume" => VoiceCall::Resume(words.tween()?),
        "volume" => VoiceCall::Volume(Decibels(parse(value, key)?), words.tween()?),
        "rate" => VoiceCall::Rate(parse(value, key)?, words.tween()?),
        "panning" => VoiceCall::Panning(parse(value, key)?, words.tween()?),
        "position" => VoiceCall::Position(vector(value)?),
        "velocity" => VoiceCall::Velocity(vector(value)?),
        "obstruction" => VoiceCall::Obstruction(parse(value, key)?),
        "occlusion" => VoiceCall::Occlusion(parse(value, key)?),
        "send" => {
            let bus = TrackId {
                index: words.value("bus")?,
                owner: 0,
            };
            VoiceCall::Send(bus, Decibels(words.value("level")?), words.tween()?)
        }
        "game_param" => VoiceCall::GameParam(
            param_id(words.number("a game parameter")?),
            words.value("value")?,
        ),
        _ => return Err(format!("unknown voice call {key:?}")),
    })
}

fn param_id(index: u16) -> GameParamId {
    GameParamId { index, owner: 0 }
}

fn read_snapshot(words: &mut Words<'_>) -> Result<What, String> {
    let snapshot = SnapshotId {
        index: words.number("a snapshot")?,
        owner: 0,
    };
    let intensity = match words.field()? {
        ("apply", value) => Some(parse(value, "apply")?),
        ("release", "") => None,
        (other, _) => return Err(format!("expected apply= or release, found {other:?}")),
    };
    Ok(What::Snapshot {
        snapshot,
        intensity,
        tween: words.tween()?,
    })
}

/// `ended voice N reason`, `virtual voice N why`, `real voice N`.
fn read_decision(kind: &str, words: &mut Words<'_>) -> Result<What, String> {
    if words.word("voice")? != "voice" {
        return Err(format!("expected `{kind} voice N`"));
    }
    let voice = VoiceNumber(words.number("a voice")?);
    Ok(match kind {
        "ended" => {
            let name = words.word("a reason")?;
            let reason = ENDS.iter().find(|(_, n)| *n == name);
            let reason = reason.ok_or_else(|| format!("unknown end reason {name:?}"))?;
            What::Ended {
                voice,
                reason: reason.0,
            }
        }
        "virtual" => {
            let name = words.word("a reason")?;
            let why = WHYS.iter().find(|(_, n)| *n == name);
            let why = why.ok_or_else(|| format!("unknown reason {name:?}"))?;
            What::Virtualized { voice, why: why.0 }
        }
        _ => What::Promoted { voice },
    })
}

fn read_mix(words: &mut Words<'_>) -> Result<What, String> {
    let window_top = match words.field()? {
        ("top", "-") => None,
        ("top", value) => Some(Decibels(parse(value, "top")?)),
        (other, _) => return Err(format!("expected top=, found {other:?}")),
    };
    Ok(What::Mix {
        window_top,
        ducks: words.value("ducks")?,
        snapshots: words.value("snapshots")?,
    })
}

const ENDS: [(EndReason, &str); 7] = [
    (EndReason::Finished, "finished"),
    (EndReason::Stopped, "stopped"),
    (EndReason::Recycled, "recycled"),
    (EndReason::Stolen, "stolen"),
    (EndReason::Crowded, "crowded"),
    (EndReason::Dropped, "dropped"),
    (EndReason::Removed, "removed"),
];

const WHYS: [(WhyVirtual, &str); 5] = [
    (WhyVirtual::Inaudible, "inaudible"),
    (WhyVirtual::Outranked, "outranked"),
    (WhyVirtual::Crowded, "crowded"),
    (WhyVirtual::NoFreeSlot, "no_free_slot"),
    (WhyVirtual::QueueFull, "queue_full"),
];

const REFUSALS: [(PlayError, &str); 10] = [
    (PlayError::UnknownSound, "unknown_sound"),
    (PlayError::SoundLimit, "sound_limit"),
    (PlayError::OwnerLimit, "owner_limit"),
    (PlayError::VoiceCap, "voice_cap"),
    (PlayError::NoFreeVoice, "no_free_voice"),
    (PlayError::GroupCap, "group_cap"),
    (PlayError::Retrigger, "retrigger"),
    (PlayError::Inaudible, "inaudible"),
    (PlayError::OutOfWindow, "out_of_window"),
    (PlayError::QueueFull, "queue_full"),
];

fn end_name(reason: EndReason) -> &'static str {
    ENDS.iter().find(|(r, _)| *r == reason).map_or("?", |e| e.1)
}

fn why_name(why: WhyVirtual) -> &'static str {
    WHYS.iter().find(|(w, _)| *w == why).map_or("?", |w| w.1)
}

/// A refusal's name in a capture file: the [`PlayError`]'s in snake case
/// (`sound_limit`, `invalid_param`...).
pub fn refusal_name(refusal: &PlayError) -> &'static str {
    match refusal {
        PlayError::InvalidParam(_) => "invalid_param",
        other => (REFUSALS.iter())
            .find(|(r, _)| r == other)
            .map_or("?", |r| r.1),
    }
}

/// The refusal named `name` of a play of `params`.
fn refusal(name: &str, params: &PlayParams) -> Result<PlayError, String> {
    if name == "invalid_param" {
        return match params.validate() {
            Err(error) => Ok(PlayError::InvalidParam(error)),
            Ok(()) => Err("a play refused for a parameter has none out of range".into()),
        };
    }
    (REFUSALS.iter())
        .find(|(_, n)| *n == name)
        .map(|r| r.0)
        .ok_or_else(|| format!("unknown refusal {name:?}"))
}

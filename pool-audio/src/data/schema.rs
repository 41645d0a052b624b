//! The bank file's schema: what a sound designer writes, field by field, with
//! the defaults of the settings the code builds. Levels are decibels (plain
//! numbers), times seconds, distances metres; sounds, groups, buses and
//! tracks are named, and a name is resolved when the bank is added.

use std::fmt;
use std::marker::PhantomData;

use kira::Easing;
use kira::effect::distortion::DistortionKind;
use kira::effect::eq_filter::EqFilterKind;
use kira::effect::filter::FilterMode;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

use crate::cues::Muffle;
use crate::sound::Pick;
use crate::voices::{Stealing, Tie, Virtualization, WhenFull};
use crate::{GroupSettings, SoundSettings};

/// Entries by name, in the file's order (a RON map `{ "name": value }`); a
/// name given twice is refused.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Named<T>(pub(crate) Vec<(String, T)>);

impl<T> Default for Named<T> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<T> Named<T> {
    pub(crate) fn get(&self, name: &str) -> Option<&T> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, t)| t)
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &T)> {
        self.0.iter().map(|(n, t)| (n.as_str(), t))
    }
}

impl<T: Serialize> Serialize for Named<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Named<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Entries<T> {
            type Value = Named<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map from names to entries")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut list: Vec<(String, T)> = Vec::new();
                while let Some(name) = map.next_key::<String>()? {
                    if list.iter().any(|(n, _)| *n == name) {
                        return Err(serde::de::Error::custom(format!("{name:?} is named twice")));
                    }
                    let value = map.next_value()?;
                    list.push((name, value));
                }
                Ok(Named(list))
            }
        }
        deserializer.deserialize_map(Entries(PhantomData))
    }
}

/// A whole bank file.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
#[serde(rename = "Bank")]
pub(crate) struct BankFile {
    pub(crate) buses: Named<BusFile>,
    pub(crate) groups: Named<GroupFile>,
    pub(crate) switches: Named<Vec<String>>,
    pub(crate) game_params: Named<GameParamFile>,
    pub(crate) sounds: Named<SoundFile>,
    pub(crate) ducks: Vec<DuckFile>,
    pub(crate) snapshots: Named<SnapshotFile>,
    pub(crate) zones: Named<ZoneFile>,
    pub(crate) music: MusicFile,
}

/// A bus: its parent (another bus; none for the output), volume and effects.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
#[serde(rename = "Bus")]
pub(crate) struct BusFile {
    pub(crate) parent: Option<String>,
    pub(crate) volume: f32,
    pub(crate) effects: Vec<EffectFile>,
    pub(crate) curves: Vec<CurveFile>,
}

/// One of kira's effects, with its settings; a setting left out is kira's
/// default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(rename = "Effect")]
pub(crate) enum EffectFile {
    /// kira's filter: `mode` `LowPass`, `HighPass`, `BandPass` or `Notch`.
    Filter {
        mode: FilterMode,
        cutoff: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        resonance: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mix: Option<f32>,
        /// Names its main value a parameter of the mix (see `effects.rs`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        param: Option<String>,
    },
    /// kira's EQ band: `gain` dB.
    Eq {
        kind: EqFilterKind,
        frequency: f64,
        gain: f32,
        q: f64,
        /// Names its main value a parameter of the mix (see `effects.rs`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        param: Option<String>,
    },
    /// kira's reverb.
    Reverb {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        feedback: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        damping: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stereo_width: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mix: Option<f32>,
        /// Names its main value a parameter of the mix (see `effects.rs`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        param: Option<String>,
    },
    /// kira's delay: `time` seconds, `feedback` dB.
    Delay {
        time: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        feedback: Option<f32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mix: Option<f32>,
        /// Names its main value a parameter of the mix (see `effects.rs`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        param: Option<String>,
    },
    /// kira's compressor: `threshold` dB, `attack` and `release` seconds,
    /// `makeup_gain` dB.
    Compressor {
        threshold: f64,
        ratio: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attack: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        release: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        makeup_gain: Option<f32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mix: Option<f32>,
        /// Names its main value a parameter of the mix (see `effects.rs`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        param: Option<String>,
    },
    /// kira's distortion: `drive` dB.
    Distortion {
        #[serde(default)]
        kind: DistortionKind,
        drive: f32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mix: Option<f32>,
        /// Names its main value a parameter of the mix (see `effects.rs`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        param: Option<String>,
    },
}

/// A voice group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
#[serde(rename = "Group")]
pub(crate) struct GroupFile {
    pub(crate) max_voices: usize,
    pub(crate) stealing: Stealing,
    pub(crate) protected: bool,
    pub(crate) loudness_window: bool,
    pub(crate) bus: Option<String>,
}

impl Default for GroupFile {
    fn default() -> Self {
        let code = GroupSettings::default();
        Self {
            max_voices: code.max_voices,
            stealing: code.stealing,
            protected: code.protected,
            loudness_window: code.loudness_window,
            bus: None,
        }
    }
}

/// One recording: a file under the loader's root, and its weight in picks.
/// Written as the file alone (weight 1) or `(file: "..", weight: 2.0)`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RecordingFile {
    pub(crate) file: String,
    pub(crate) weight: f64,
    /// Its state of the sound's switch.
    pub(crate) state: Option<String>,
}

impl Serialize for RecordingFile {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.weight == 1.0 && self.state.is_none() {
            return serializer.serialize_str(&self.file);
        }
        let mut weighted = serializer.serialize_struct("Recording", 3)?;
        weighted.serialize_field("file", &self.file)?;
        weighted.serialize_field("weight", &self.weight)?;
        if let Some(state) = &self.state {
            weighted.serialize_field("state", state)?;
        }
        weighted.end()
    }
}

impl<'de> Deserialize<'de> for RecordingFile {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Weighted {
            file: String,
            #[serde(default = "weight_one")]
            weight: f64,
            #[serde(default)]
            state: Option<String>,
        }
        struct Either;
        impl<'de> Visitor<'de> for Either {
            type Value = RecordingFile;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a file name, or (file: \"..\", weight: ..)")
            }
            fn visit_str<E: serde::de::Error>(self, file: &str) -> Result<Self::Value, E> {
                Ok(RecordingFile {
                    file: file.to_string(),
                    weight: 1.0,
                    state: None,
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                let w = Weighted::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(RecordingFile {
                    file: w.file,
                    weight: w.weight,
                    state: w.state,
                })
            }
        }
        deserializer.deserialize_any(Either)
    }
}

fn weight_one() -> f64 {
    1.0
}

/// A sound: its recordings and every setting of [`SoundSettings`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
#[serde(rename = "Sound")]
pub(crate) struct SoundFile {
    pub(crate) recordings: Vec<RecordingFile>,
    pub(crate) looping: bool,
    pub(crate) max_voices: usize,
    pub(crate) first_volume: f32,
    pub(crate) headroom: f32,
    pub(crate) audibility_floor: f32,
    pub(crate) min_retrigger: f64,
    pub(crate) priority: i32,
    pub(crate) when_full: WhenFull,
    pub(crate) virtualization: Virtualization,
    pub(crate) group: Option<String>,
    pub(crate) retrigger_radius: Option<f32>,
    pub(crate) max_voices_per_owner: Option<usize>,
    pub(crate) pick: Pick,
    pub(crate) pitch_semitones: (f64, f64),
    pub(crate) volume_range: (f32, f32),
    pub(crate) distance_priority_offset: i32,
    pub(crate) tie: Tie,
    pub(crate) loudness: Option<f32>,
    pub(crate) doppler_scale: f64,
    pub(crate) obstruction: MuffleFile,
    pub(crate) occlusion: MuffleFile,
    pub(crate) distances: DistancesFile,
    pub(crate) sends: Vec<SendFile>,
    pub(crate) zones: bool,
    pub(crate) switch: Option<String>,
    pub(crate) curves: Vec<CurveFile>,
}

impl Default for SoundFile {
    fn default() -> Self {
        let code = SoundSettings::default();
        Self {
            recordings: Vec::new(),
            looping: false,
            max_voices: code.max_voices,
            first_volume: code.first_volume.0,
            headroom: code.headroom.0,
            audibility_floor: code.audibility_floor.0,
            min_retrigger: code.min_retrigger.as_secs_f64(),
            priority: code.priority,
            when_full: code.when_full,
            virtualization: code.virtualization,
            group: None,
            retrigger_radius: code.retrigger_radius,
            max_voices_per_owner: code.max_voices_per_owner,
            pick: code.pick,
            pitch_semitones: code.pitch_semitones,
            volume_range: (code.volume_range.0.0, code.volume_range.1.0),
            distance_priority_offset: code.distance_priority_offset,
            tie: code.tie,
            loudness: code.loudness.map(|l| l.0),
            doppler_scale: code.doppler_scale,
            obstruction: MuffleFile::from(code.obstruction),
            occlusion: MuffleFile::from(code.occlusion),
            distances: DistancesFile::default(),
            sends: Vec::new(),
            zones: code.zones,
            switch: None,
            curves: Vec::new(),
        }
    }
}

/// What obstruction or occlusion does at full amount.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(rename = "Muffle")]
pub(crate) struct MuffleFile {
    pub(crate) volume: f32,
    pub(crate) cutoff_hz: f64,
    #[serde(default)]
    pub(crate) easing: Easing,
}

impl From<Muffle> for MuffleFile {
    fn from(m: Muffle) -> Self {
        Self {
            volume: m.volume.0,
            cutoff_hz: m.cutoff_hz,
            easing: m.easing,
        }
    }
}

/// How a positioned sound fades with distance.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
#[serde(rename = "Distances")]
pub(crate) struct DistancesFile {
    pub(crate) min: f32,
    pub(crate) max: f32,
    pub(crate) curve: Easing,
}

impl Default for DistancesFile {
    fn default() -> Self {
        let code = crate::spatial::Distances::default();
        Self {
            min: code.min,
            max: code.max,
            curve: code.curve,
        }
    }
}

/// A send into a return bus, at a level, maybe following distance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(rename = "Send")]
pub(crate) struct SendFile {
    pub(crate) bus: String,
    #[serde(default)]
    pub(crate) level: f32,
    #[serde(default)]
    pub(crate) distance: Option<SendCurveFile>,
}

/// A send level from `near` dB at `from` metres to `far` dB at `to`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(rename = "SendCurve")]
pub(crate) struct SendCurveFile {
    pub(crate) from: f32,
    pub(crate) to: f32,
    pub(crate) near: f32,
    pub(crate) far: f32,
}

/// What a duck or a snapshot sets, by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "Target")]
pub(crate) enum TargetFile {
    Group(String),
    Track(String),
    SoundEffects,
    Sends(String),
}

/// A duck: while `source` (a group) sounds, `target` goes down by `amount`
/// dB; `attack` and `release` are linear fades, seconds, and `hold` seconds.
/// A setting left out is [`DuckSettings`](crate::mix::DuckSettings)'s default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(rename = "Duck")]
pub(crate) struct DuckFile {
    pub(crate) source: String,
    pub(crate) target: TargetFile,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) amount: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) attack: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) hold: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) release: Option<f64>,
}

/// A snapshot: volumes by target, and effect parameters by name.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
#[serde(rename = "Snapshot")]
pub(crate) struct SnapshotFile {
    pub(crate) priority: i32,
    pub(crate) mode: crate::mix::SnapshotMode,
    pub(crate) volumes: Vec<(TargetFile, f32)>,
    pub(crate) params: Vec<(String, f64)>,
}

/// A zone the game places: its shape, return bus, level (dB) and fade
/// (metres); a setting left out is [`ZoneSettings`](crate::mix::ZoneSettings)'s
/// default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(rename = "Zone")]
pub(crate) struct ZoneFile {
    pub(crate) shape: crate::mix::ZoneShape,
    pub(crate) bus: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) level: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) fade: Option<f32>,
    #[serde(default)]
    pub(crate) follows_listener: bool,
}

/// Music: tracks to make, and pieces by name.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
#[serde(rename = "Music")]
pub(crate) struct MusicFile {
    pub(crate) tracks: Named<TrackFile>,
    pub(crate) pieces: Named<PieceFile>,
}

/// A music or ambience track.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
#[serde(rename = "Track")]
pub(crate) struct TrackFile {
    pub(crate) volume: f32,
    pub(crate) pause_with_game: bool,
    pub(crate) bus: Option<String>,
}

/// A piece of music: its file, and how it plays (seconds).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(rename = "Piece")]
pub(crate) struct PieceFile {
    pub(crate) file: String,
    #[serde(default)]
    pub(crate) fade: f64,
    #[serde(default)]
    pub(crate) start_at: f64,
    #[serde(default)]
    pub(crate) loop_from: Option<f64>,
}

/// A game parameter: its range, initial value and seek time (seconds).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename = "GameParam", deny_unknown_fields)]
pub(crate) struct GameParamFile {
    pub(crate) range: (f64, f64),
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) initial: Option<f64>,
    #[serde(default)]
    pub(crate) seek: f64,
}

/// A curve from a game parameter (by name) to a sound's volume, pitch,
/// low-pass cutoff or send (to a bus by name).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Curve", deny_unknown_fields)]
pub(crate) struct CurveFile {
    pub(crate) param: String,
    pub(crate) target: CurveTargetFile,
    pub(crate) points: Vec<(f64, f64)>,
    #[serde(default)]
    pub(crate) easing: Easing,
}

/// What a curve sets (see [`CurveTarget`](crate::game::CurveTarget)), a
/// send's bus by name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "CurveTarget")]
pub(crate) enum CurveTargetFile {
    Volume,
    Pitch,
    LowPass,
    Send(String),
    Param(String),
}

impl EffectFile {
    /// The parameter of the mix it names, if any.
    pub(crate) fn param(&self) -> Option<&str> {
        match self {
            Self::Filter { param, .. }
            | Self::Eq { param, .. }
            | Self::Reverb { param, .. }
            | Self::Delay { param, .. }
            | Self::Compressor { param, .. }
            | Self::Distortion { param, .. } => param.as_deref(),
        }
    }
}

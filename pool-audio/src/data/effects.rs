//! A bank's bus effects: kira's effects built from the file's, every number
//! checked, and the value a bank names as a parameter of the mix (`param`)
//! handed back with a setter over the effect's handle.

use std::time::Duration;

use kira::effect::compressor::CompressorBuilder;
use kira::effect::delay::DelayBuilder;
use kira::effect::distortion::DistortionBuilder;
use kira::effect::eq_filter::EqFilterBuilder;
use kira::effect::filter::FilterBuilder;
use kira::effect::reverb::ReverbBuilder;
use kira::{Decibels, Mix, Tween};

use super::schema::EffectFile;
use crate::mix::BusBuilder;

/// The longest delay a bank's delay effect has (kira keeps a buffer of it).
const MAX_DELAY: f64 = 10.0;

/// Checks that `value` is finite and in `range`, naming `field`.
pub(crate) fn check(
    field: &'static str,
    value: f64,
    range: std::ops::RangeInclusive<f64>,
) -> Result<f64, (&'static str, String)> {
    if value.is_finite() && range.contains(&value) {
        Ok(value)
    } else {
        let (low, high) = (range.start(), range.end());
        Err((field, format!("{value} is not in {low}..={high}")))
    }
}

/// A mix (`0..=1`, dry to wet) named `field`.
fn mix(value: Option<f32>) -> Result<Option<Mix>, Bad> {
    value
        .map(|m| check("mix", f64::from(m), 0.0..=1.0).map(|m| Mix(m as f32)))
        .transpose()
}

/// A number's field and what is wrong with it.
pub(crate) type Bad = (&'static str, String);

/// An effect's value the bank names as a parameter of the mix: its name,
/// its value as written, its range, and the setter over the effect's handle.
pub(crate) struct Exposed {
    pub(crate) name: String,
    pub(crate) default: f64,
    pub(crate) range: std::ops::RangeInclusive<f64>,
    pub(crate) set: Box<dyn FnMut(f64, Tween) + Send>,
}

/// Adds `effect` to `bus`, its numbers checked: every one finite and in the
/// range kira's effect is made for. Returns its value named as a parameter
/// (`param`), if the bank names one: a filter's cutoff, an EQ band's gain,
/// the others' mix.
pub(crate) fn add_effect(
    bus: &mut BusBuilder,
    effect: &EffectFile,
) -> Result<Option<Exposed>, Bad> {
    let exposed = |name: &Option<String>, default: f64, range, set| {
        name.clone().map(|name| Exposed {
            name,
            default,
            range,
            set,
        })
    };
    Ok(match effect {
        EffectFile::Filter { cutoff, param, .. } => {
            let mut handle = bus.add_effect(filter(effect)?);
            let cutoff = *cutoff;
            let set = Box::new(move |hz: f64, tween| handle.set_cutoff(hz, tween));
            exposed(param, cutoff, HZ, set)
        }
        EffectFile::Eq {
            kind,
            frequency,
            gain,
            q,
            param,
        } => {
            let frequency = check("frequency", *frequency, HZ)?;
            let gain = decibels("gain", *gain, DB)?;
            let q = check("q", *q, 0.01..=100.0)?;
            let mut handle = bus.add_effect(EqFilterBuilder::new(*kind, frequency, gain, q));
            let set = Box::new(move |db: f64, tween| handle.set_gain(Decibels(db as f32), tween));
            exposed(param, f64::from(gain.0), DB, set)
        }
        EffectFile::Reverb {
            mix: wet, param, ..
        } => {
            let mut handle = bus.add_effect(reverb(effect)?);
            let set = Box::new(move |m: f64, tween| handle.set_mix(Mix(m as f32), tween));
            exposed(param, f64::from(wet.unwrap_or(0.5)), 0.0..=1.0, set)
        }
        EffectFile::Delay {
            mix: wet, param, ..
        } => {
            let mut handle = bus.add_effect(delay(effect)?);
            let set = Box::new(move |m: f64, tween| handle.set_mix(Mix(m as f32), tween));
            exposed(param, f64::from(wet.unwrap_or(0.5)), 0.0..=1.0, set)
        }
        EffectFile::Compressor {
            mix: wet, param, ..
        } => {
            let mut handle = bus.add_effect(compressor(effect)?);
            let set = Box::new(move |m: f64, tween| handle.set_mix(Mix(m as f32), tween));
            exposed(param, f64::from(wet.unwrap_or(1.0)), 0.0..=1.0, set)
        }
        EffectFile::Distortion {
            kind,
            drive,
            mix: wet,
            param,
        } => {
            let drive = decibels("drive", *drive, DB)?;
            let mut distortion = DistortionBuilder::new().kind(*kind).drive(drive);
            if let Some(m) = mix(*wet)? {
                distortion = distortion.mix(m);
            }
            let mut handle = bus.add_effect(distortion);
            let set = Box::new(move |m: f64, tween| handle.set_mix(Mix(m as f32), tween));
            exposed(param, f64::from(wet.unwrap_or(1.0)), 0.0..=1.0, set)
        }
    })
}

/// The frequencies an effect takes, Hz.
const HZ: std::ops::RangeInclusive<f64> = 1.0..=96_000.0;
/// The levels an effect takes, dB.
const DB: std::ops::RangeInclusive<f64> = -120.0..=24.0;

/// `value` dB, checked as [`check`] does.
fn decibels(
    field: &'static str,
    value: f32,
    range: std::ops::RangeInclusive<f64>,
) -> Result<Decibels, Bad> {
    check(field, f64::from(value), range).map(|db| Decibels(db as f32))
}

/// kira's reverb from a [`EffectFile::Reverb`], its numbers checked.
fn reverb(effect: &EffectFile) -> Result<ReverbBuilder, Bad> {
    let EffectFile::Reverb {
        feedback,
        damping,
        stereo_width,
        mix: wet,
        ..
    } = *effect
    else {
        return Err(("", "not a reverb".into()));
    };
    let mut reverb = ReverbBuilder::new();
    if let Some(f) = feedback {
        reverb = reverb.feedback(check("feedback", f, 0.0..=1.0)?);
    }
    if let Some(d) = damping {
        reverb = reverb.damping(check("damping", d, 0.0..=1.0)?);
    }
    if let Some(w) = stereo_width {
        reverb = reverb.stereo_width(check("stereo_width", w, 0.0..=1.0)?);
    }
    if let Some(m) = mix(wet)? {
        reverb = reverb.mix(m);
    }
    Ok(reverb)
}

/// kira's compressor from a [`EffectFile::Compressor`], its numbers checked.
fn compressor(effect: &EffectFile) -> Result<CompressorBuilder, Bad> {
    let EffectFile::Compressor {
        threshold,
        ratio,
        attack,
        release,
        makeup_gain,
        mix: wet,
        ..
    } = *effect
    else {
        return Err(("", "not a compressor".into()));
    };
    let seconds = |field, s| check(field, s, 0.0..=10.0).map(Duration::from_secs_f64);
    let mut compressor = CompressorBuilder::new()
        .threshold(check("threshold", threshold, DB)?)
        .ratio(check("ratio", ratio, 1.0..=100.0)?);
    if let Some(a) = attack {
        compressor = compressor.attack_duration(seconds("attack", a)?);
    }
    if let Some(r) = release {
        compressor = compressor.release_duration(seconds("release", r)?);
    }
    if let Some(g) = makeup_gain {
        compressor = compressor.makeup_gain(decibels("makeup_gain", g, DB)?);
    }
    if let Some(m) = mix(wet)? {
        compressor = compressor.mix(m);
    }
    Ok(compressor)
}

/// kira's filter from a [`EffectFile::Filter`], its numbers checked.
fn filter(effect: &EffectFile) -> Result<FilterBuilder, Bad> {
    let EffectFile::Filter {
        mode,
        cutoff,
        resonance,
        mix: wet,
        ..
    } = *effect
    else {
        return Err(("", "not a filter".into()));
    };
    let mut filter = FilterBuilder::new()
        .mode(mode)
        .cutoff(check("cutoff", cutoff, HZ)?);
    if let Some(r) = resonance {
        filter = filter.resonance(check("resonance", r, 0.0..=1.0)?);
    }
    if let Some(m) = mix(wet)? {
        filter = filter.mix(m);
    }
    Ok(filter)
}

/// kira's delay from a [`EffectFile::Delay`], its numbers checked.
fn delay(effect: &EffectFile) -> Result<DelayBuilder, Bad> {
    let EffectFile::Delay {
        time,
        feedback,
        mix: wet,
        ..
    } = *effect
    else {
        return Err(("", "not a delay".into()));
    };
    let time = check("time", time, 0.001..=MAX_DELAY)?;
    let mut delay = DelayBuilder::new().delay_time(Duration::from_secs_f64(time));
    if let Some(f) = feedback {
        delay = delay.feedback(decibels("feedback", f, -120.0..=0.0)?);
    }
    if let Some(m) = mix(wet)? {
        delay = delay.mix(m);
    }
    Ok(delay)
}

//! Levels: every level a game sets or reads is kira's [`Decibels`](kira::Decibels);
//! inside, the crate works in linear amplitudes (`f64`), converted here.

/// dB to linear amplitude: `10^(dB / 20)`, as `2^(dB * log2(10) / 20)` (one
/// `exp2`, cheaper than a `powf` on a play's path).
pub(crate) fn amplitude(decibels: f64) -> f64 {
    (decibels * (std::f64::consts::LOG2_10 / 20.0)).exp2()
}

/// Linear amplitude to dB (`-inf` for 0).
pub(crate) fn decibels(amplitude: f64) -> f64 {
    20.0 * amplitude.log10()
}

/// A linear amplitude as the volume kira is given: never below kira's silence
/// (-60 dB), because kira fades in decibels and a fade from `-inf` is NaN.
pub(crate) fn kira_volume(amplitude: f64) -> kira::Decibels {
    kira::Decibels(decibels(amplitude).max(f64::from(kira::Decibels::SILENCE.0)) as f32)
}

/// A level as a linear amplitude: 0 for `-inf` dB (and for NaN, which every
/// entry point refuses first).
pub(crate) fn amplitude_of(level: kira::Decibels) -> f64 {
    let a = amplitude(f64::from(level.0));
    if a.is_nan() { 0.0 } else { a }
}

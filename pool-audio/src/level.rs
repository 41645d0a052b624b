//! Levels: decibels relative to full scale and linear amplitudes, the two units
//! of the crate's vocabulary (`volume` is an amplitude, `*_db` is in decibels).

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

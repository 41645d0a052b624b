//! The voice bank's table of the report: its mixing against kira's own 32
//! sounds, and the ratios its goals are set in.

use super::{Measured, print_ratio, print_second_rows};

/// The table, its introduction and its ratios.
pub(crate) fn print_render_table(rows: &[Measured]) {
    println!("Voice bank: one second of 48 kHz stereo audio (no limiter) with 32 real voices");
    println!("in the bank, plain (`bank_render_32`) or positioned (`bank_render_32_positioned`),");
    println!("or 300 positioned voices of which 32 are real (`virtual_render`), beside kira's");
    println!("own 32 static sounds playing the same tone at the same level (`real_render_32`).");
    println!(
        "`bank_render_32_mixed`: four groups, three ducks, two snapshots, the loudness window;"
    );
    println!("`bank_render_32_groups`: the same groups without the mix; `bank_render_32_bused`:");
    println!("the plain voices in a group routed to a bus; `bank_render_32_sends`: each plain");
    println!("voice sending to a bus with no effect. The positioned voices at");
    println!(
        "rate 1.1: `bank_render_32_pitched`; with doppler and a low-pass: `bank_render_32_cues`."
    );
    println!();
    print_second_rows(rows, "real_render_32");
    for (case, baseline, what) in [
        (
            "bank_render_32_bused",
            "bank_render_32",
            "a bus (the bank's out, the tap, the bus track) beside plain voices",
        ),
        (
            "bank_render_32_sends",
            "bank_render_32",
            "a send per voice (the return's effects excluded) beside plain voices",
        ),
        (
            "bank_render_32_mixed",
            "bank_render_32",
            "the mix beside plain voices",
        ),
        (
            "bank_render_32_mixed",
            "bank_render_32_groups",
            "the mix's own cost",
        ),
        (
            "bank_render_32_cues",
            "bank_render_32_positioned",
            "doppler and the low-pass beside positioned voices",
        ),
        (
            "bank_render_32_cues",
            "bank_render_32_pitched",
            "doppler and the low-pass beside pitched positioned voices",
        ),
    ] {
        print_ratio(rows, case, baseline, what);
    }
}

//! The sound banks' table of the report: a bank's load beside the same
//! sounds added in code.

use benches::{BANK_CASES, Measured, Settings};

use super::measure_group;

/// The sound-bank rows: a bank's load beside the same sounds in code.
pub(crate) fn measure_banks(settings: &Settings) -> Vec<Measured> {
    measure_group(&BANK_CASES, 1, "bank_code_200", settings)
}

pub(crate) fn print_bank_table(rows: &[Measured]) {
    println!(
        "Sound banks: a bank of {} sounds (recordings already decoded) read from its",
        benches::BANK_SOUNDS
    );
    println!("text and added to a fresh manager, beside the same sounds added in code; a");
    println!("cycle is one whole load, the manager's creation included. `bank_reload_20`:");
    println!("the bank reloaded with 20 sounds changed (one voice of each playing), an");
    println!("update and a 128-frame block; its allocations are the game thread's.");
    println!();
    println!("| case | ms | vs `bank_code_200` | allocs/cycle |");
    println!("|---|---:|---:|---:|");
    for row in rows {
        println!(
            "| `{}` | {:.2} | {} | {:.0} |",
            row.case,
            row.ns_per_cycle / 1e6,
            row.ratio(2),
            row.allocs_per_cycle
        );
    }
}

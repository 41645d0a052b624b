//! Measures every benchmark case side by side in one process and prints markdown
//! tables of nanoseconds and heap allocations per cycle (per live effect for the
//! effects update).
//!
//! `cargo run --release -p benches --bin report` for the tables;
//! `--tsv` for rows `case<TAB>size<TAB>ns_per_cycle<TAB>allocs_per_cycle<TAB>ratio<TAB>ratio_p10<TAB>ratio_p90`
//! only (the ratio to the case's baseline);
//! `--quick` for a short run (fewer rounds);
//! `--effects` to measure and print the effects table only; `--pool` the object
//! size, recycle and arena tables only; `--peers` the voice bank beside kira and
//! Firewheel on the same scenes (mixing, plays, a storm, start latency, and
//! the scale each mixes in a tenth of a core; `--scale` that table alone);
//! `--entities` the Bevy tables only (the frame against the plain API's, and
//! pooled entities against spawn and despawn); `--audio` the audio, mix ceiling and voice bank tables only
//! (plays, updates, the loudness window's and the mix's costs);
//! `--run CASE SIZE CYCLES` to run one case and nothing else, for a profiler
//! (`valgrind --tool=callgrind` counts its instructions exactly, however loaded the
//! machine is).
//!
//! The cases of one size are measured in interleaved rounds (one short sample of
//! each case per round). A case's time is its median sample; its ratio to slotmap is
//! the median of its per-round ratios (its sample over slotmap's sample of the same
//! round), so a burst of load from another process on this shared machine, which
//! slows every case of a round alike, cancels out of the ratio. Every ratio is
//! printed with its spread, the 10th to 90th percentile of the per-round ratios:
//! `0.39x (0.37-0.41)`. A spread that is wide says the ratio is not known better.

use std::time::Instant;

use benches::{
    ARENA_CONTAINERS, ARENA_OBJECTS, ARENA_OPS, AUDIO_CASES, BEVY_CASES, CASES, EFFECTS_CASES,
    EFFECTS_SPAWN_SIZE, EFFECTS_UPDATE_SIZES, ENTITY_BATCHES, ENTITY_PREFABS, MIX_CASES, Measured,
    OBJECT_BYTES, RECYCLE_CONTAINERS, RENDER_CASES, SIZE_CONTAINERS, SIZES, Settings, measure,
    print_pool_table, recycle_worst_ns, workload,
};

#[path = "report/banks.rs"]
mod banks;
#[path = "report/peers.rs"]
mod peers;
#[path = "report/render.rs"]
mod render;
use banks::{measure_banks, print_bank_table};
use peers::{print_peers, print_scale};
use render::print_render_table;

#[global_allocator]
static GLOBAL: alloc_counter::CountingAllocator = alloc_counter::CountingAllocator;

/// Measures the report's `cases` at `size` in interleaved rounds, with ratios to
/// `baseline` (which must be one of `cases`).
fn measure_group(
    names: &[&'static str],
    size: usize,
    baseline: &str,
    settings: &Settings,
) -> Vec<Measured> {
    let names: Vec<String> = names.iter().map(|name| String::from(*name)).collect();
    measure_named(&names, size, baseline, settings)
}

/// The effects rows: update against the naive update at each size, spawn against
/// the naive spawn and the pool's own acquire cycle (`fifo_recycle`).
fn measure_effects(settings: &Settings) -> Vec<Measured> {
    let mut rows = Vec::new();
    for size in EFFECTS_UPDATE_SIZES {
        rows.extend(measure_group(
            &["effects_update", "naive_effects_update"],
            size,
            "naive_effects_update",
            settings,
        ));
    }
    rows.extend(measure_group(
        &["effects_spawn", "naive_effects_spawn", "fifo_recycle"],
        EFFECTS_SPAWN_SIZE,
        "fifo_recycle",
        settings,
    ));
    // 100,000 live, 10,000 in view, against 10,000 all in view.
    rows.extend(measure_group(
        &["effects_update_culled", "effects_update"],
        EFFECTS_UPDATE_SIZES[0],
        "effects_update",
        settings,
    ));
    rows.extend(measure_group(
        &["effects_chain", "effects_chain_by_hand"],
        64,
        "effects_chain_by_hand",
        settings,
    ));
    rows
}

/// The audio rows: the pool's `play` (free voice, and stealing) against raw kira
/// `play` on a track of the same capacity; `update` with 64 active voices.
fn measure_audio(settings: &Settings) -> Vec<Measured> {
    measure_group(&AUDIO_CASES, 64, "kira_play", settings)
}

fn print_audio_table(rows: &[Measured]) {
    println!("Audio (offline backend, voice cap 64): the game thread's cost of one play, or of");
    println!("one update with 64 active voices. Rendering between batches is not timed.");
    println!();
    println!("| case | ns | vs `kira_play` | allocs/cycle |");
    println!("|---|---:|---:|---:|");
    for row in rows {
        println!(
            "| `{}` | {:.0} | {} | {:.2} |",
            row.case,
            row.ns_per_cycle,
            row.ratio(2),
            row.allocs_per_cycle
        );
    }
    print_ratio(
        rows,
        "audio_update_window",
        "audio_update",
        "the loudness window's cost on an update",
    );
    print_ratio(
        rows,
        "audio_play_curves",
        "audio_play",
        "two game-parameter curves and a switch on a play",
    );
    print_ratio(
        rows,
        "audio_frame_capture",
        "audio_frame",
        "a capture recording a frame of 300 emitters (goal: at most 1.2x)",
    );
    if let Some(row) = rows.iter().find(|row| row.case == "audio_voice_table") {
        println!(
            "`audio_voice_table` (a read of 300 voices, 32 real): {:.1} µs, {:.1} ns per voice.",
            row.ns_per_cycle / 1e3,
            row.ns_per_cycle / 300.0
        );
    }
    if let Some(row) = rows.iter().find(|row| row.case == "audio_update_virtual") {
        println!();
        println!(
            "`audio_update_virtual` (voice cap 32, 1,000 virtual + 32 real looping voices): {:.1} ns per voice.",
            row.ns_per_cycle / benches::AudioUpdateVirtual::VOICES as f64
        );
    }
}

/// The mix-ceiling rows: the limiter over one second of audio beside the render
/// of the ten voices it protects.
fn measure_mix(settings: &Settings) -> Vec<Measured> {
    measure_group(&MIX_CASES, 1, "render_10_voices", settings)
}

fn print_mix_table(rows: &[Measured]) {
    println!("Mix ceiling: one second of 48 kHz stereo audio through the limiter, beside the");
    println!("offline render of the ten voices it protects (no limiter in that render).");
    println!();
    print_second_rows(rows, "render_10_voices");
}

/// Measures cases named at run time (see [`measure_group`]).
fn measure_named(
    names: &[String],
    size: usize,
    baseline: &str,
    settings: &Settings,
) -> Vec<Measured> {
    let cases = names
        .iter()
        .map(|name| {
            let case = workload(name, size).expect("every listed case exists");
            (name.clone(), case)
        })
        .collect();
    measure(cases, size, baseline, settings)
}

/// The cases `{prefix}{container}_{bytes}b` at every object size and count,
/// against `{prefix}{baseline}_{bytes}b` at the same size and count.
fn measure_by_size(
    prefix: &str,
    containers: &[&str],
    baseline: &str,
    settings: &Settings,
) -> Vec<Measured> {
    let mut rows = Vec::new();
    for size in SIZES {
        for bytes in OBJECT_BYTES {
            let names: Vec<String> = containers
                .iter()
                .map(|container| format!("{prefix}{container}_{bytes}b"))
                .collect();
            let baseline = format!("{prefix}{baseline}_{bytes}b");
            rows.extend(measure_named(&names, size, &baseline, settings));
        }
    }
    rows
}

/// The size table: the pool cycle of each container at each object size and count,
/// against slotmap's at the same object size and count.
fn measure_object_sizes(settings: &Settings) -> Vec<Measured> {
    measure_by_size("", &SIZE_CONTAINERS, "slotmap", settings)
}

/// The header of a table with a row per case and object size and `columns`
/// per pool size (`{size}` in a column's name becomes the size).
fn print_size_header(columns: &[&str]) {
    print!("| case | bytes |");
    for size in SIZES {
        for column in columns {
            print!(" {} |", column.replace("{size}", &size.to_string()));
        }
    }
    println!(" allocs/cycle |");
    print!("|---|---:|");
    for _ in SIZES {
        print!("{}", "---:|".repeat(columns.len()));
    }
    println!("---:|");
}

fn print_object_size_table(rows: &[Measured]) {
    println!("The pool cycle (acquire, write the whole object, release the oldest; half the");
    println!("objects live) by object size, against slotmap's insert and remove of the same");
    println!("object, and slab's (no generations). `strict` and `fifo_recycle` are the pool");
    println!("with each built-in policy.");
    println!();
    print_size_header(&["ns/cycle @{size}", "vs slotmap"]);
    for bytes in OBJECT_BYTES {
        for container in SIZE_CONTAINERS {
            let name = format!("{container}_{bytes}b");
            print!("| `{container}` | {bytes} |");
            let mut allocs: f64 = 0.0;
            for size in SIZES {
                if let Some(row) = rows.iter().find(|r| r.case == name && r.size == size) {
                    print!(" {:.1} | {} |", row.ns_per_cycle, row.ratio(2));
                    allocs = allocs.max(row.allocs_per_cycle);
                } else {
                    print!(" | |");
                }
            }
            println!(" {allocs:.2} |");
        }
    }
}

/// The recycle table: the pool's recycling of the oldest against slotmap and
/// slab each with a queue of keys, per object size and count, against
/// slotmap's; and each case's worst cycle.
fn measure_recycle(settings: &Settings) -> (Vec<Measured>, Vec<(String, usize, f64)>) {
    let rows = measure_by_size("recycle_", &RECYCLE_CONTAINERS, "slotmap_deque", settings);
    let runs = if settings.rounds < 61 { 3 } else { 7 };
    let worst = rows
        .iter()
        .map(|row| {
            let ns = recycle_worst_ns(&row.case, row.size, runs).expect("a recycle case");
            (row.case.clone(), row.size, ns)
        })
        .collect();
    (rows, worst)
}

fn print_recycle_table(rows: &[Measured], worst: &[(String, usize, f64)]) {
    println!("Recycling the oldest live object when full, against what a game writes instead:");
    println!("slotmap or slab plus a `VecDeque` of keys (released keys skipped lazily, the");
    println!("queue compacted past twice the capacity; slab's keys carry a stamp). A cycle:");
    println!("acquire and write one object (the oldest live one recycled when full), and");
    println!("release a recent one, on every cycle of `size` cycles (churning below full),");
    println!("then on every 4th of the next `size` (filling). Ratios are to the faster of the");
    println!("two hand-made containers at that size; worst: the slowest single cycle in ns");
    println!("(its fastest over repeated runs, so only a spike of the container's own stays).");
    println!();
    print_size_header(&["ns @{size}", "vs faster", "worst ns"]);
    for bytes in OBJECT_BYTES {
        for container in RECYCLE_CONTAINERS {
            let name = format!("recycle_{container}_{bytes}b");
            print!("| `{container}` | {bytes} |");
            let mut allocs: f64 = 0.0;
            for size in SIZES {
                let find = |case: &str| rows.iter().find(|r| r.case == case && r.size == size);
                let slab = find(&format!("recycle_slab_deque_{bytes}b"));
                let (Some(row), Some(slab)) = (find(&name), slab) else {
                    print!(" | | |");
                    continue;
                };
                // Ratios are to slotmap's queue; the faster is whichever is below 1.
                let faster = slab.vs_baseline.min(1.0);
                let worst_ns = worst
                    .iter()
                    .find(|(case, s, _)| *case == name && *s == size)
                    .map_or(f64::NAN, |w| w.2);
                print!(
                    " {:.1} | {:.2}x | {worst_ns:.0} |",
                    row.ns_per_cycle,
                    row.vs_baseline / faster
                );
                allocs = allocs.max(row.allocs_per_cycle);
            }
            println!(" {allocs:.2} |");
        }
    }
}

/// The arena table: each operation over 10,000 objects, per container.
fn measure_arena(settings: &Settings) -> Vec<Measured> {
    let mut rows = Vec::new();
    for (op, _) in ARENA_OPS {
        let names: Vec<String> = ARENA_CONTAINERS
            .iter()
            .map(|container| format!("{op}_{container}"))
            .collect();
        rows.extend(measure_named(
            &names,
            ARENA_OBJECTS,
            &format!("{op}_slotmap"),
            settings,
        ));
    }
    rows
}

fn print_arena_table(rows: &[Measured]) {
    println!("Arena operations over {ARENA_OBJECTS} objects of 32 bytes, ns per object, against");
    println!("slotmap (ratio in brackets): `insert` fills an emptied container and empties it");
    println!("again (the pool: acquire and write, then `reinitialize`); `remove` inserts and");
    println!("removes each by its key; `get` looks each up in a shuffled order; `iterate`");
    println!("visits every object; `iterate_half` visits 10,000 live among 20,000 slots,");
    println!("every other one emptied.");
    println!();
    print!("| operation |");
    for container in ARENA_CONTAINERS {
        print!(" {container} |");
    }
    println!(" allocs/cycle |");
    print!("|---|");
    for _ in ARENA_CONTAINERS {
        print!("---:|");
    }
    println!("---:|");
    for (op, _) in ARENA_OPS {
        print!("| `{op}` |");
        let mut allocs: f64 = 0.0;
        for container in ARENA_CONTAINERS {
            let name = format!("{op}_{container}");
            if let Some(row) = rows.iter().find(|r| r.case == name) {
                print!(" {:.2} ({:.2}x) |", row.ns_per_cycle, row.vs_baseline);
                allocs = allocs.max(row.allocs_per_cycle);
            } else {
                print!(" |");
            }
        }
        println!(" {allocs:.2} |");
    }
}

/// Two objects at once, mutably: the pool's `get_disjoint_mut` against
/// slotmap's, at each pool size.
fn measure_disjoint(settings: &Settings) -> Vec<Measured> {
    SIZES
        .iter()
        .flat_map(|size| {
            measure_group(
                &["disjoint2", "slotmap_disjoint2"],
                *size,
                "slotmap_disjoint2",
                settings,
            )
        })
        .collect()
}

fn print_disjoint_table(rows: &[Measured]) {
    println!("Two live objects at once, mutably (`get_disjoint_mut([a, b])`, swapping a");
    println!("field), half the pool live, the pair chosen pseudo-randomly each cycle.");
    println!();
    println!("| case | objects | ns/cycle | vs `slotmap_disjoint2` | allocs/cycle |");
    println!("|---|---:|---:|---:|---:|");
    for row in rows {
        println!(
            "| `{}` | {} | {:.2} | {} | {:.2} |",
            row.case,
            row.size,
            row.ns_per_cycle,
            row.ratio(2),
            row.allocs_per_cycle
        );
    }
}

/// The Bevy rows: a game frame through the plugins against the plain API.
fn measure_bevy(settings: &Settings) -> Vec<Measured> {
    measure_group(&BEVY_CASES, 300, "plain_frame", settings)
}

fn print_bevy_table(rows: &[Measured]) {
    println!("Bevy: one game frame (300 moving looping emitters, a listener, 1,000 live");
    println!("effects, both updates, the frame's audio rendered offline) through the");
    println!("bevy_pool plugins (`app.update()`, Bevy's scheduler, time and transform");
    println!("propagation included) and through the plain API.");
    println!();
    println!("| case | µs per frame | vs `plain_frame` | allocs/cycle |");
    println!("|---|---:|---:|---:|");
    for row in rows {
        println!(
            "| `{}` | {:.1} | {} | {:.2} |",
            row.case,
            row.ns_per_cycle / 1e3,
            row.ratio(2),
            row.allocs_per_cycle
        );
    }
    if let [bevy, plain] = rows {
        println!();
        println!(
            "The plugins and Bevy's frame cost {:.1} µs more per frame than the plain calls.",
            (bevy.ns_per_cycle - plain.ns_per_cycle) / 1e3
        );
    }
}

/// The entity rows: each prefab pooled (reused at once, or idle a frame
/// between uses) against spawned and despawned, at each batch size.
fn measure_entities(settings: &Settings) -> Vec<Measured> {
    let mut rows = Vec::new();
    for prefab in ENTITY_PREFABS {
        for batch in ENTITY_BATCHES {
            let names: Vec<String> = ["entity_pool_cycle_", "entity_pool_idle_", "spawn_despawn_"]
                .iter()
                .map(|case| format!("{case}{prefab}"))
                .collect();
            let baseline = format!("spawn_despawn_{prefab}");
            rows.extend(measure_named(&names, batch, &baseline, settings));
        }
    }
    rows
}

fn print_entities_table(rows: &[Measured]) {
    println!("Bevy entities: a frame (a one-system schedule, its commands applied, then a");
    println!("system that moves every enabled bullet) that takes a batch of entities placed");
    println!("by a `Transform` and gives back the last frame's batch. `pool_cycle`: released,");
    println!("then acquired through `EntityPools` (the prefab's components restored), so the");
    println!("pool hands out the entities it was just given; `pool_idle`: acquired, then the");
    println!("last batch released, so each entity spends a frame `Disabled`; `spawn_despawn`:");
    println!("spawned and despawned. Prefabs: `bare` (`Transform` and three small components),");
    println!("`sprite` (the same with a `Sprite` and a strong image handle), `enemy`");
    println!("(`Transform`, two small components, four children). ns per entity; ratios to");
    println!("`spawn_despawn` of the same prefab and batch; allocations per frame.");
    println!();
    println!(
        "| prefab | batch | `pool_cycle` ns | vs spawn | `pool_idle` ns | vs spawn | `spawn_despawn` ns | allocs/frame (cycle, idle, spawn) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---|");
    for prefab in ENTITY_PREFABS {
        for batch in ENTITY_BATCHES {
            let find = |case: &str| {
                let name = format!("{case}{prefab}");
                rows.iter().find(|r| r.case == name && r.size == batch)
            };
            let (Some(cycle), Some(idle), Some(spawn)) = (
                find("entity_pool_cycle_"),
                find("entity_pool_idle_"),
                find("spawn_despawn_"),
            ) else {
                continue;
            };
            println!(
                "| `{prefab}` | {batch} | {:.0} | {} | {:.0} | {} | {:.0} | {:.1}, {:.1}, {:.1} |",
                cycle.ns_per_cycle,
                cycle.ratio(2),
                idle.ns_per_cycle,
                idle.ratio(2),
                spawn.ns_per_cycle,
                cycle.allocs_per_cycle,
                idle.allocs_per_cycle,
                spawn.allocs_per_cycle
            );
        }
    }
}

/// The voice bank's rows: its mixing against kira's own 32 sounds.
fn measure_render(settings: &Settings) -> Vec<Measured> {
    measure_group(&RENDER_CASES, 1, "real_render_32", settings)
}

/// One line: `case` against `baseline`, both from `rows` (one interleaved run).
pub(crate) fn print_ratio(rows: &[Measured], case: &str, baseline: &str, what: &str) {
    let find = |name: &str| rows.iter().find(|row| row.case == name);
    if let (Some(case_row), Some(base)) = (find(case), find(baseline)) {
        println!();
        println!(
            "{what}: `{case}` / `{baseline}` = {:.2}x (same run).",
            case_row.ns_per_cycle / base.ns_per_cycle
        );
    }
}

/// Rows of cases whose cycle is one second of audio, against `baseline`.
pub(crate) fn print_second_rows(rows: &[Measured], baseline: &str) {
    println!("| case | µs per second of audio | vs `{baseline}` | allocs/cycle |");
    println!("|---|---:|---:|---:|");
    for row in rows {
        println!(
            "| `{}` | {:.0} | {} | {:.2} |",
            row.case,
            row.ns_per_cycle / 1e3,
            row.ratio(3),
            row.allocs_per_cycle
        );
    }
}

fn print_latency_table() {
    println!("Start latency: frames from a play to the first sample of its sound in the");
    println!("output, the play issued between two 10 ms blocks of the offline backend, the");
    println!("default limiter (1.5 ms look-ahead, 72 frames) on the track.");
    println!();
    println!("| start | frames | ms at 48 kHz |");
    println!("|---|---:|---:|");
    for (case, frames) in benches::start_latencies() {
        println!("| {case:?} | {frames} | {:.2} |", frames as f64 / 48.0);
    }
}

fn print_effects_table(rows: &[Measured]) {
    println!("Effects: an update advances every live effect once (ns per live effect); a spawn");
    println!("cycle spawns one effect and stops the oldest, half the pool live (ns per spawn);");
    println!("the culled update holds ten times the effects, 90% off-screen and parked (ns per");
    println!("visible effect); a chain cycle ends 16 flashes that each start a smoke puff, by");
    println!("the kind's follow-up or by the game's own spawn (ns per puff).");
    println!();
    println!("| case | live | ns | per | vs | ratio | allocs/cycle |");
    println!("|---|---:|---:|---|---|---:|---:|");
    for row in rows
        .iter()
        .filter(|row| EFFECTS_CASES.contains(&row.case.as_str()))
    {
        let (per, against, live) = match row.case.as_str() {
            "effects_update" | "naive_effects_update" => {
                // `effects_update` is measured twice: against the naive update
                // at each size, and as the culled update's baseline.
                if row.case == "effects_update" && row.vs_baseline == 1.0 {
                    ("live effect", "`effects_update`", row.size)
                } else {
                    ("live effect", "`naive_effects_update`", row.size)
                }
            }
            "effects_update_culled" => ("visible effect", "`effects_update`", row.size * 10),
            "effects_chain" | "effects_chain_by_hand" => {
                ("puff", "`effects_chain_by_hand`", row.size / 2)
            }
            _ => ("spawn", "`fifo_recycle` (pool acquire cycle)", row.size / 2),
        };
        println!(
            "| `{}` | {live} | {:.2} | {per} | {against} | {} | {:.2} |",
            row.case,
            row.ns_per_cycle,
            row.ratio(2),
            row.allocs_per_cycle
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--run") {
        run_one(&args[1..]);
        return;
    }
    let tsv = args.iter().any(|a| a == "--tsv");
    let quick = args.iter().any(|a| a == "--quick");
    let effects_only = args.iter().any(|a| a == "--effects");
    let pool_only = args.iter().any(|a| a == "--pool");
    let peers = args.iter().any(|a| a == "--peers");
    let entities_only = args.iter().any(|a| a == "--entities");
    let audio_only = args.iter().any(|a| a == "--audio");
    let scale_only = args.iter().any(|a| a == "--scale");
    if let Some(unknown) = args.iter().find(|a| {
        !matches!(
            a.as_str(),
            "--tsv"
                | "--quick"
                | "--effects"
                | "--pool"
                | "--peers"
                | "--scale"
                | "--entities"
                | "--audio"
        )
    }) {
        eprintln!(
            "report: unknown argument {unknown:?} (expected --tsv, --quick, --effects, --pool, --peers, --scale, --entities, --audio or --run CASE SIZE CYCLES)"
        );
        std::process::exit(2);
    }
    let settings = if quick {
        Settings::quick()
    } else {
        Settings::default()
    };

    let started = Instant::now();
    if scale_only {
        print_scale(&settings);
        println!();
        println!("Measured in {:.1} s.", started.elapsed().as_secs_f64());
        return;
    }
    if peers {
        print_peers(&settings);
        println!();
        println!("Measured in {:.1} s.", started.elapsed().as_secs_f64());
        return;
    }
    if pool_only {
        print_object_size_table(&measure_object_sizes(&settings));
        println!();
        let (recycle, worst) = measure_recycle(&settings);
        print_recycle_table(&recycle, &worst);
        println!();
        print_arena_table(&measure_arena(&settings));
        println!();
        println!("Measured in {:.1} s.", started.elapsed().as_secs_f64());
        return;
    }
    if entities_only {
        print_bevy_table(&measure_bevy(&settings));
        println!();
        print_entities_table(&measure_entities(&settings));
        println!();
        println!("Measured in {:.1} s.", started.elapsed().as_secs_f64());
        return;
    }
    if audio_only {
        print_audio_table(&measure_audio(&settings));
        println!();
        print_mix_table(&measure_mix(&settings));
        println!();
        print_bank_table(&measure_banks(&settings));
        println!();
        print_render_table(&measure_render(&settings));
        println!();
        println!("Measured in {:.1} s.", started.elapsed().as_secs_f64());
        return;
    }
    if effects_only {
        print_effects_table(&measure_effects(&settings));
        println!();
        println!("Measured in {:.1} s.", started.elapsed().as_secs_f64());
        return;
    }
    let rows: Vec<Measured> = SIZES
        .iter()
        .flat_map(|size| measure_group(&CASES, *size, "slotmap", &settings))
        .collect();
    let effects = measure_effects(&settings);
    let audio = measure_audio(&settings);
    let mix = measure_mix(&settings);
    let banks = measure_banks(&settings);
    let render = measure_render(&settings);
    let bevy = measure_bevy(&settings);
    let entities = measure_entities(&settings);
    let disjoint = measure_disjoint(&settings);
    let object_sizes = measure_object_sizes(&settings);
    let arena = measure_arena(&settings);
    let (recycle, worst) = measure_recycle(&settings);

    if tsv {
        let effects_rows = effects
            .iter()
            .filter(|row| EFFECTS_CASES.contains(&row.case.as_str()));
        for row in rows
            .iter()
            .chain(effects_rows)
            .chain(&audio)
            .chain(&mix)
            .chain(&banks)
            .chain(&render)
            .chain(&bevy)
            .chain(&entities)
            .chain(&disjoint)
            .chain(&object_sizes)
            .chain(&arena)
            .chain(&recycle)
        {
            println!(
                "{}\t{}\t{:.2}\t{:.4}\t{:.4}\t{:.4}\t{:.4}",
                row.case,
                row.size,
                row.ns_per_cycle,
                row.allocs_per_cycle,
                row.vs_baseline,
                row.vs_spread.0,
                row.vs_spread.1
            );
        }
    } else {
        print_pool_table(&rows, &settings);
        println!();
        print_effects_table(&effects);
        println!();
        print_audio_table(&audio);
        println!();
        print_mix_table(&mix);
        println!();
        print_bank_table(&banks);
        println!();
        print_render_table(&render);
        println!();
        print_latency_table();
        println!();
        print_bevy_table(&bevy);
        println!();
        print_entities_table(&entities);
        println!();
        print_disjoint_table(&disjoint);
        println!();
        print_object_size_table(&object_sizes);
        println!();
        print_arena_table(&arena);
        println!();
        print_recycle_table(&recycle, &worst);
        println!();
        println!("Measured in {:.1} s.", started.elapsed().as_secs_f64());
    }
}

/// `--run CASE SIZE CYCLES`: builds one case and runs it, printing nothing else.
fn run_one(args: &[String]) {
    let parsed = match args {
        [case, size, cycles] => size
            .parse::<usize>()
            .ok()
            .zip(cycles.parse::<u64>().ok())
            .map(|sc| (case, sc)),
        _ => None,
    };
    let Some((case, (size, cycles))) = parsed else {
        eprintln!(
            "report: usage: --run CASE SIZE CYCLES (cases: {}, {}, {}, {}, {})",
            CASES.join(", "),
            EFFECTS_CASES.join(", "),
            AUDIO_CASES.join(", "),
            MIX_CASES.join(", "),
            RENDER_CASES.join(", ")
        );
        std::process::exit(2);
    };
    let Some(mut workload) = workload(case, size) else {
        eprintln!(
            "report: unknown case {case:?} (cases: {}, {}, {}, {}, {})",
            CASES.join(", "),
            EFFECTS_CASES.join(", "),
            AUDIO_CASES.join(", "),
            MIX_CASES.join(", "),
            RENDER_CASES.join(", ")
        );
        std::process::exit(2);
    };
    let elapsed = workload.timed_run(cycles);
    // The cycles alone (a case's untimed upkeep, the audio cases' rendering
    // between batches, is left out), for side-by-side runs of two builds.
    println!(
        "{case}\t{size}\t{:.3} ns per cycle",
        elapsed.as_nanos() as f64 / cycles as f64
    );
}

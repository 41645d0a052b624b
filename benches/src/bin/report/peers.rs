//! The peers' tables of the report (`--peers`): the voice bank beside kira and
//! Firewheel (and, in a Bevy frame, bevy_seedling) on the same scenes, and
//! the scale each mixes within a tenth of a core (`--scale` alone).

use benches::{
    BankMemory, PEER_CASES, PEER_VERSIONS, SCALE_BUDGET, SCALE_FEW, SCALE_MANY, SCALE_SCENES,
    STORM_COPIES, STORM_PLAYS, Settings, bank_memory, scale_case_name, voices_within_budget,
};

use super::{measure_group, measure_named, print_second_rows};

/// The Bevy frame through `bevy_pool` and through bevy_seedling.
fn print_bevy_peers(settings: &Settings) {
    let rows = measure_group(
        &["bevy_sound_frame", "seedling_frame"],
        1,
        "bevy_sound_frame",
        settings,
    );
    println!("Bevy 0.19 (`MinimalPlugins`): a frame of 300 moving looping emitters and a moving");
    println!("listener, `app.update()` and the frame's 1/60 s of audio rendered offline.");
    println!("`bevy_sound_frame`: `bevy_pool` (32 real voices, the rest virtual);");
    println!("`seedling_frame`: bevy_seedling 0.8 (a sampler and a `SpatialBasicNode` per");
    println!("emitter: it has no virtual voices), its Firewheel processor called by the bench.");
    println!("Allocations are the game thread's (seedling also works on a control thread).");
    println!();
    let mut pool = benches::BevyFrame::sound_only(true);
    let mut seedling = benches::SeedlingFrame::new();
    let mut seedling_peak = 0.0f32;
    for _ in 0..60 {
        benches::Workload::cycle(&mut pool);
        benches::Workload::cycle(&mut seedling);
        seedling_peak = seedling
            .rendered()
            .iter()
            .fold(seedling_peak, |peak, s| peak.max(s.abs()));
    }
    let facts = [
        (pool.voices().0, pool.recorded_peak()),
        (seedling.assigned(), seedling_peak),
    ];
    println!("| case | µs per frame | vs `bevy_sound_frame` | allocs/frame | real voices | peak |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (row, (voices, peak)) in rows.iter().zip(facts) {
        println!(
            "| `{}` | {:.0} | {} | {:.1} | {voices} | {peak:.3} |",
            row.case,
            row.ns_per_cycle / 1e3,
            row.ratio(2),
            row.allocs_per_cycle
        );
    }
    let (update, render) = seedling.split_micros(200);
    println!();
    println!(
        "Of seedling's frame: `app.update()` {update:.0} µs, the render {render:.0} µs (medians of 200 frames)."
    );
    println!();
    println!("bevy_kira_audio 0.26 (Bevy 0.19) is not in the table: it builds kira's cpal backend");
    println!("whatever its features, and with no audio device its manager is never made, so");
    println!("it plays and renders nothing (one warning), and it has no offline output to use.");
}

/// A peers' scene whose cycle is a second of audio: `about`, then its rows
/// against its last case (Firewheel's).
fn print_peer_seconds(cases: &[&'static str], about: &[&str], settings: &Settings) {
    let baseline = cases[cases.len() - 1];
    let rows = measure_group(cases, 1, baseline, settings);
    for line in about {
        println!("{line}");
    }
    println!();
    print_second_rows(&rows, baseline);
    println!();
}

/// `--peers`: the voice bank beside kira and Firewheel on the same scenes.
pub(crate) fn print_peers(settings: &Settings) {
    let versions: Vec<String> = PEER_VERSIONS
        .iter()
        .map(|(name, version)| format!("{name} {version}"))
        .collect();
    println!("Peers, offline, one binary ({}).", versions.join(", "));
    println!();
    print_peer_seconds(
        &PEER_CASES[..3],
        &[
            "Mixing: 32 looping voices of a 440 Hz sine at rates 0.8 to 1.37, -30 dB each",
            "(the voice bank: no limiter; kira: a static sound each; Firewheel: a sampler",
            "node each, 512-frame blocks), one second of 48 kHz stereo audio.",
        ],
        settings,
    );
    print_peer_seconds(
        &PEER_CASES[6..],
        &[
            "Positioned: 300 looping emitters of a quiet tone on a spiral around a still",
            "listener (2 m to 92 m), each peer's own spatial model, one second of audio. The",
            "bank: 300 positioned plays, the 32 most audible real, the rest virtual; kira: a",
            "spatial sub-track per emitter, all 300 mixed (it chooses none); Firewheel: a",
            "sampler and a `SpatialBasicNode` for each of the 32 nearest (the bench chooses).",
        ],
        settings,
    );
    let plays = measure_group(&PEER_CASES[3..6], 1, "peer_play_firewheel", settings);
    println!("Plays: a frame's 32 plays, each on a free voice, game thread only (Firewheel:");
    println!("a node started from the beginning, with its share of the frame's `update`).");
    println!();
    println!("| case | ns per play | vs `peer_play_firewheel` | allocs/play |");
    println!("|---|---:|---:|---:|");
    for row in &plays {
        println!(
            "| `{}` | {:.0} | {} | {:.2} |",
            row.case,
            row.ns_per_cycle,
            row.ratio(2),
            row.allocs_per_cycle
        );
    }
    println!();
    println!("Storm: {STORM_PLAYS} plays of a full-scale sine in one frame, each at -6 dB;");
    println!(
        "{STORM_COPIES} copies allowed (the bank: the sound's limit, under its copy budget, with"
    );
    println!(
        "the default limiter; Firewheel: {STORM_COPIES} nodes, the oldest restarted; kira: no limit)."
    );
    println!("Peak of the next 100 ms before any clamp.");
    println!();
    println!("| peer | copies | peak | dBFS |");
    println!("|---|---:|---:|---:|");
    for storm in benches::storms() {
        println!(
            "| {} | {} | {:.3} | {:+.1} |",
            storm.peer,
            storm.copies,
            storm.peak,
            20.0 * storm.peak.log10()
        );
    }
    println!();
    print_bevy_peers(settings);
    println!();
    println!("Start latency: frames from a play, issued between two renders, to the first");
    println!("sample of its sound.");
    println!();
    println!("| peer | frames |");
    println!("|---|---:|");
    for (peer, frames) in benches::peer_latencies() {
        let frames = frames.map_or_else(|| String::from("never"), |f| f.to_string());
        println!("| {peer} | {frames} |");
    }
    println!();
    print_scale(settings);
}

/// The scale table: the real voices each peer mixes within a tenth of a core,
/// and the voice bank's memory beside the bytes a frame must read.
pub(crate) fn print_scale(settings: &Settings) {
    let settings = Settings {
        rounds: settings.rounds.min(21),
        sample: settings.sample,
    };
    println!(
        "Scale: real voices mixed within {:.0}% of one core (one second of 48 kHz stereo",
        SCALE_BUDGET * 100.0
    );
    println!("audio in at most 100 ms), each peer's mixing scene (looping voices of a 440 Hz");
    println!(
        "sine, no limiter) measured at {SCALE_FEW} and {SCALE_MANY} voices: the cost of a voice is the slope"
    );
    println!("between the two, the rest the scene's fixed cost. Mono: a sound of one channel,");
    println!("heard in both; pitched: each voice at its own rate, 0.8 to 1.37.");
    println!();
    println!(
        "| sound | rate | peer | µs per voice per second | voices in 10% of a core | vs Firewheel |"
    );
    println!("|---|---|---|---:|---:|---:|");
    for (channels, pitched) in SCALE_SCENES {
        let names: Vec<String> = ["bank", "kira", "firewheel"]
            .iter()
            .map(|peer| scale_case_name(peer, channels, pitched))
            .collect();
        let baseline = names[2].clone();
        let few = measure_named(&names, SCALE_FEW, &baseline, &settings);
        let many = measure_named(&names, SCALE_MANY, &baseline, &settings);
        let scale: Vec<(f64, f64)> = few
            .iter()
            .zip(&many)
            .map(|(few, many)| voices_within_budget(few.ns_per_cycle, many.ns_per_cycle))
            .collect();
        for (peer, (voices, per_voice)) in ["bank", "kira", "firewheel"].iter().zip(&scale) {
            println!(
                "| {} | {} | {peer} | {:.1} | {:.0} | {:.2}x |",
                if channels == 1 { "mono" } else { "stereo" },
                if pitched { "0.8-1.37" } else { "1" },
                per_voice / 1e3,
                voices,
                scale[2].0 / voices,
            );
        }
    }
    println!();
    print_memory(bank_memory());
}

/// The voice bank's memory beside the floor: the bytes a second of sound
/// must hold (4 a sample), and the bytes a voice reads each frame.
fn print_memory(memory: BankMemory) {
    println!("Memory of the voice bank (the counting allocator: what adding a voice to the cap,");
    println!("or ten seconds of 48 kHz sound to the bank, keeps on the heap), beside the floor:");
    println!("the samples themselves, 4 bytes each.");
    println!();
    println!("| what | bytes | floor | vs floor |");
    println!("|---|---:|---:|---:|");
    println!(
        "| a voice of the cap (game side and mixer side) | {:.0} | | |",
        memory.per_voice
    );
    for (what, bytes, channels) in [
        ("a second of mono sound", memory.mono_second, 1.0),
        ("a second of stereo sound", memory.stereo_second, 2.0),
    ] {
        let floor = 48_000.0 * 4.0 * channels;
        println!(
            "| {what} | {bytes:.0} | {floor:.0} | {:.2}x |",
            bytes / floor
        );
    }
    println!();
    println!("The bank stores a mono sound handed over whole (as here) as its one channel, and a");
    println!("stereo one as kira's frames (interleaved): a real voice reads 4 bytes a frame of");
    println!("such a mono sound and 8 of stereo, the floor. A mono sound whose frames the game");
    println!("still holds is shared, not copied, and read at 8 bytes a frame.");
}

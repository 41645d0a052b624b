//! The web game's frames, natively, as the page runs them: once warm, a game
//! frame with its fill allocates nothing (a garbage-collection pause in the
//! browser starts with garbage), and the mix stays under -1 dBFS.

use pool_audio::web::WebSettings;
use pool_web_example::{RUN_FRAMES, WebGame};

#[global_allocator]
static GLOBAL: alloc_counter::CountingAllocator = alloc_counter::CountingAllocator;

#[test]
fn a_minute_of_the_level_allocates_nothing_after_its_first_seconds() {
    let mut game = WebGame::new(WebSettings::default(), None).unwrap();
    let frame = |game: &mut WebGame| {
        // The worklet plays 800 frames a game frame, in 128-frame quanta.
        let clock = game.frames() as u32 * 800 / 128 * 128;
        let consumed = clock.min(game.output().written());
        game.frame(consumed, 0).unwrap().len()
    };
    let warm = 10 * 60;
    for _ in 0..warm {
        frame(&mut game);
    }
    let mut handed = 0;
    let allocations = alloc_counter::allocations_during(|| {
        for _ in warm..RUN_FRAMES {
            handed += frame(&mut game);
        }
    });
    assert_eq!(allocations, 0, "game frames {warm}..{RUN_FRAMES}");
    let seconds = handed as f64 / 2.0 / 48_000.0;
    assert!((seconds - 50.0).abs() < 0.1, "{seconds} s handed over");
    assert!(game.peak_db() < -1.0, "peak {} dBFS", game.peak_db());
}

//! The web game's capture replays offline to what the page was handed.

use pool_audio::web::WebSettings;
use pool_web_example::WebGame;
use showcase::level::Setup;

#[test]
fn the_web_games_capture_replays_to_the_samples_it_handed_over() {
    let mut game = WebGame::new(WebSettings::default(), Some(20_000)).unwrap();
    let mut handed = Vec::new();
    for _ in 0..120 {
        let clock = game.frames() as u32 * 800 / 128 * 128;
        let consumed = clock.min(game.output().written());
        handed.extend_from_slice(game.frame(consumed, 0).unwrap());
    }
    let capture = game.level_mut().sfx.stop_capture().unwrap();
    let mut setup = Setup::new().unwrap();
    let replayed = capture.replay(&mut setup.sfx, &mut setup.manager).unwrap();
    let n = handed.len().min(replayed.len());
    assert!(n > 2 * 48_000 * 19 / 10, "{n} samples to compare");
    let first = handed[..n]
        .iter()
        .zip(&replayed[..n])
        .position(|(a, b)| a != b);
    assert_eq!(first.map(|at| at / 2), None, "{n} samples compared");
}

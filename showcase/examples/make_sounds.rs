//! Writes the showcase level's made sounds (`showcase::content::synthesized`)
//! to `assets/sounds/level/` as 16-bit mono WAV files, the files its sound
//! bank names. Run it again only if the generator changes:
//! `cargo run -p showcase --example make_sounds`.

use std::error::Error;

use showcase::content::{self, ASSETS, RATE};

fn main() -> Result<(), Box<dyn Error>> {
    let folder = format!("{ASSETS}/sounds/level");
    std::fs::create_dir_all(&folder)?;
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: RATE,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    for (name, sound) in content::synthesized(&mut content::rng()) {
        let path = format!("{folder}/{name}.wav");
        let mut file = hound::WavWriter::create(&path, spec)?;
        for frame in sound.frames.iter() {
            let sample = (frame.left * 32_767.0).round().clamp(-32_768.0, 32_767.0);
            file.write_sample(sample as i16)?;
        }
        file.finalize()?;
        println!("{path}: {} frames", sound.frames.len());
    }
    Ok(())
}

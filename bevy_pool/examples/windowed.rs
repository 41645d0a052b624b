//! The plugins in a window: explosions that leave smoke (a chained effect,
//! drawn as sprites from one sprite sheet) with their sounds, two crackling
//! fires as emitters, and the listener on a camera that drifts left and right,
//! so the fires pan as it passes.
//!
//! `cargo run --release -p bevy_pool --features windowed,device --example windowed [-- [--debug-view] [--screenshot PATH]]`
//!
//! With `--debug-view`, the sound's debug view (`SoundDebugPlugin`) over
//! forty torches spread over the map, eight voices at most: each voice a dot
//! (green real, grey virtual) with its audible radius, a bell refused (red),
//! and the voice table in the top left corner.
//!
//! Without `device` it runs silent (the offline output). Needs a screen (X11;
//! `xvfb-run` with Mesa's software Vulkan does); CI only builds it. With
//! `--screenshot PATH` it saves the window after 3 seconds, with a title and
//! every effect labelled, and exits (the README's picture). The world is in metres, seen at 10 pixels a metre; the
//! sprite sheet is drawn by the example itself, so there is no asset to find.

use bevy::asset::RenderAssetUsages;
use bevy::camera::ScalingMode;
use bevy::image::TextureAtlasLayout;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use bevy_pool::{
    Output, PlaySound, Sfx, SoundDebugPlugin, SoundEffectsPlugin, SoundEmitter, SoundListener, Vfx,
    VfxAtlas, VfxAtlases, VfxCamera, VfxPlugin, VfxSpritesPlugin,
};
use pool_audio::kira::Frame;
use pool_audio::kira::sound::static_sound::StaticSoundData;
use pool_audio::{PlayParams, SoundId, SoundSettings};
use pool_effects::{EffectKind, KindId};
use showcase::content::Lcg;
use std::time::Duration;

/// Pixels of a sheet tile.
const TILE: u32 = 64;
/// Tiles: 8 of explosion, 4 of smoke, 4 of fire.
const TILES: u32 = 16;

#[derive(Resource)]
struct Show {
    explosion: SoundId,
    boom: KindId,
    rng: Lcg,
    next: f32,
}

/// Where to save a screenshot, if asked.
#[derive(Resource)]
struct ScreenshotTo(Option<std::path::PathBuf>);

/// The debug view is on (`--debug-view`).
#[derive(Resource)]
struct DebugView(bool);

fn main() {
    let (mut screenshot, mut debug_view) = (None, false);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), screenshot.is_none()) {
            ("--debug-view", _) => debug_view = true,
            ("--screenshot", true) => screenshot = args.next().map(std::path::PathBuf::from),
            _ => {
                eprintln!("usage: windowed [--debug-view] [--screenshot PATH]");
                std::process::exit(2);
            }
        }
    }
    let mut app = App::new();
    if debug_view {
        app.add_plugins(SoundDebugPlugin {
            dot: 1.2,
            table_rows: 14,
            ..Default::default()
        });
    }
    app.insert_resource(ScreenshotTo(screenshot))
        .insert_resource(DebugView(debug_view))
        .add_plugins((
            DefaultPlugins.set(WindowPlugin {
                primary_window: Some(Window {
                    title: "bevy_pool: pooled voices and effects".into(),
                    ..Default::default()
                }),
                ..Default::default()
            }),
            SoundEffectsPlugin {
                settings: pool_audio::SoundEffectsSettings {
                    voice_cap: 8,
                    ..Default::default()
                },
                #[cfg(feature = "device")]
                output: Output::Device,
                #[cfg(not(feature = "device"))]
                output: Output::Headless,
                ..Default::default()
            },
            VfxPlugin,
            VfxSpritesPlugin::default(),
        ))
        .add_systems(Startup, (setup, torches))
        .add_systems(Update, (drift, explode, take_screenshot))
        .run();
}

/// With `--screenshot`: the window at 3 s, saved, then exit.
fn take_screenshot(
    mut commands: Commands,
    time: Res<Time>,
    mut to: ResMut<ScreenshotTo>,
    mut exit: MessageWriter<AppExit>,
    mut taken: Local<Option<f32>>,
) {
    if let Some(at) = *taken {
        // Give the capture a second to reach the disk.
        if time.elapsed_secs() > at + 1.0 {
            exit.write(AppExit::Success);
        }
        return;
    }
    if time.elapsed_secs() < 3.0 {
        return;
    }
    if let Some(path) = to.0.take() {
        commands.spawn(Screenshot::primary_window()).observe(
            move |captured: On<ScreenshotCaptured>,
                  fx: Res<Vfx>,
                  view: Res<DebugView>,
                  camera: Query<&Transform, With<SoundListener>>| {
                let listener_x = camera.iter().next().map_or(0.0, |t| t.translation.x);
                let shot = (&captured.image, view.0);
                if let Err(error) = save_labelled(shot, &fx, listener_x, &path) {
                    eprintln!("could not save {}: {error}", path.display());
                }
            },
        );
        *taken = Some(time.elapsed_secs());
    }
}

/// The screenshot under a title, each effect labelled with its kind and
/// frame, and the listener marked.
fn save_labelled(
    (shot, debug_view): (&Image, bool),
    fx: &Vfx,
    listener_x: f32,
    path: &std::path::Path,
) -> Result<(), Box<dyn std::error::Error>> {
    use figures::plotters::prelude::*;
    const STRIP: u32 = 64;
    let shot = shot.clone().try_into_dynamic()?.to_rgb8();
    let (width, height) = shot.dimensions();
    let mut picture = image::RgbImage::from_pixel(width, height + STRIP, image::Rgb([255; 3]));
    for (x, y, pixel) in shot.enumerate_pixels() {
        picture.put_pixel(x, y + STRIP, image::Rgb(pixel.0));
    }
    // World metres to picture pixels: 10 px a metre, the camera at the centre.
    let to_pixels = |x: f32, y: f32| {
        (
            (width as f32 / 2.0 + (x - listener_x) * 10.0) as i32,
            (STRIP as f32 + height as f32 / 2.0 - y * 10.0) as i32,
        )
    };
    let light = RGBColor(235, 235, 240);
    figures::on_image(&mut picture, |area| {
        let (title, caption) = if debug_view {
            (
                "bevy_pool's windowed example at 3 s with the debug view (--debug-view): every voice where it plays",
                "SoundDebugPlugin: each voice a circle, green real, grey virtual (8 real voices at most), with a real voice's audible radius; a refused emitter red\n\
                 (the second bell: one strict copy). The voice table, top left. Forty torches heard within 30 m, the fires, explosions. 10 pixels a metre.",
            )
        } else {
            (
                "bevy_pool's windowed example at 3 s: pooled effects drawn as sprites",
                "Sprites from one 16-frame sheet. Explosions (8 frames of 50 ms) chain smoke (4 of 250 ms); the fires loop, each with a crackling sound emitter.\n\
                 The camera is the listener and drifts left and right: fires and explosions pan as it passes. 10 pixels a metre.",
            )
        };
        let rest = figures::titled(area, title, caption, STRIP)?;
        let _ = rest;
        let mut draw = pool_effects::DrawList::new();
        for item in draw.fill(fx) {
            let name = fx.name(item.kind).unwrap_or("?");
            let frames = fx.definition(item.kind).map_or(0, |k| k.frame_count);
            let label = match name {
                "fire" => "fire: loop + emitter".to_string(),
                "smoke" => format!("smoke {}/{frames} (follow-up)", item.frame + 1),
                _ => format!("{name} {}/{frames}", item.frame + 1),
            };
            let (x, y) = to_pixels(item.position.x, item.position.y);
            figures::text(area, &label, (x - 40, y + 26), 14, light)?;
        }
        let (x, y) = to_pixels(listener_x, 0.0);
        area.draw(&Cross::new((x, y), 8, light.stroke_width(2)))?;
        figures::text(
            area,
            &format!("listener (camera), x = {listener_x:.0} m"),
            (x + 12, y - 8),
            14,
            light,
        )?;
        Ok(())
    })?;
    figures::save(&picture, path)
}

fn setup(
    mut commands: Commands,
    mut images: ResMut<Assets<Image>>,
    mut layouts: ResMut<Assets<TextureAtlasLayout>>,
    mut atlases: ResMut<VfxAtlases>,
    mut fx: ResMut<Vfx>,
    mut sfx: ResMut<Sfx>,
) {
    let image = images.add(sheet());
    let layout = layouts.add(TextureAtlasLayout::from_grid(
        UVec2::splat(TILE),
        TILES,
        1,
        None,
        None,
    ));
    let kinds = [
        EffectKind::new("explosion", 8, Duration::from_millis(50))
            .layer(1)
            .follow_up("smoke"),
        EffectKind::new("smoke", 4, Duration::from_millis(250)).layer(0),
        EffectKind::new("fire", 4, Duration::from_millis(100))
            .looping()
            .layer(0),
    ];
    let mut ids = Vec::new();
    for (kind, first_index) in kinds.into_iter().zip([0, 8, 12]) {
        let id = fx.add_kind(kind).expect("a valid kind");
        atlases.insert(
            id,
            VfxAtlas {
                image: image.clone(),
                layout: layout.clone(),
                first_index,
            },
        );
        ids.push(id);
    }
    let crackle = sfx
        .add_sound(
            "crackle",
            noise(1.0, 0.3, 1).loop_region(..),
            SoundSettings::default(),
        )
        .expect("a valid sound");
    let explosion = sfx
        .add_sound(
            "explosion",
            noise(0.6, 1.0, 3),
            SoundSettings::default().max_voices(6),
        )
        .expect("a valid sound");
    // Two fires: a looping effect each, and an emitter where it burns.
    for x in [-25.0, 25.0] {
        let fire = fx.spawn(ids[2], [x, -20.0]).expect("room for a fire");
        fx.get_mut(fire).expect("just spawned").scale = [0.15, 0.15].into();
        commands.spawn((
            SoundEmitter::new(crackle),
            Transform::from_xyz(x, -20.0, 0.0),
        ));
    }
    // 10 pixels a metre; the camera is the listener, and effects off its
    // screen do what their kind's `Offscreen` says.
    commands.spawn((
        Camera2d,
        VfxCamera,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::WindowSize,
            scale: 0.1,
            ..OrthographicProjection::default_2d()
        }),
        SoundListener,
    ));
    commands.insert_resource(Show {
        explosion,
        boom: ids[0],
        rng: Lcg(0x5eed),
        next: 0.0,
    });
}

/// With the debug view: forty torches over the map, heard within 30 m,
/// and two bells of one strict copy (the second refused).
fn torches(mut commands: Commands, mut sfx: ResMut<Sfx>, view: Res<DebugView>) {
    if !view.0 {
        return;
    }
    let near = pool_audio::spatial::Distances {
        min: 2.0,
        max: 30.0,
        curve: pool_audio::kira::Easing::Linear,
    };
    let torch = SoundSettings {
        distances: near,
        ..SoundSettings::default().first_volume(-12.0)
    };
    let torch = sfx
        .add_sound("torch", noise(1.0, 0.2, 5).loop_region(..), torch)
        .expect("a valid sound");
    let bell = SoundSettings::default()
        .max_voices(1)
        .when_full(pool_audio::voices::WhenFull::Strict)
        .virtualization(pool_audio::voices::Virtualization::Kill);
    let bell = sfx
        .add_sound("bell", noise(1.0, 0.1, 7).loop_region(..), bell)
        .expect("a valid sound");
    let mut rng = Lcg(0x70c4);
    for _ in 0..40 {
        let at = [rng.range(-100.0, 100.0), rng.range(-30.0, 30.0)];
        commands.spawn((
            SoundEmitter::new(torch),
            Transform::from_xyz(at[0], at[1], 0.0),
        ));
    }
    for x in [12.0, 36.0] {
        commands.spawn((SoundEmitter::new(bell), Transform::from_xyz(x, -8.0, 0.0)));
    }
}

/// The camera, and its ears, drift 30 m left and right.
fn drift(time: Res<Time>, mut camera: Query<&mut Transform, With<SoundListener>>) {
    for mut transform in &mut camera {
        transform.translation.x = 30.0 * (time.elapsed_secs() * 0.3).sin();
    }
}

/// An explosion in view every 0.3 s: its effect (smoke follows on its own)
/// and its sound, from where it is.
fn explode(
    time: Res<Time>,
    mut show: ResMut<Show>,
    mut fx: ResMut<Vfx>,
    mut plays: MessageWriter<PlaySound>,
    camera: Query<&Transform, With<SoundListener>>,
) {
    if time.elapsed_secs() < show.next {
        return;
    }
    show.next = time.elapsed_secs() + 0.3;
    let x = camera.iter().next().map_or(0.0, |t| t.translation.x);
    let at = [x + show.rng.range(-55.0, 55.0), show.rng.range(-20.0, 30.0)];
    if let Ok(boom) = fx.spawn(show.boom, at)
        && let Some(mut effect) = fx.get_mut(boom)
    {
        effect.scale = [0.2, 0.2].into();
    }
    plays.write(PlaySound {
        sound: show.explosion,
        params: PlayParams::default().position([at[0], at[1], 0.0]),
    });
}

/// The sprite sheet: 16 tiles of 64 px, a disc each, sized and coloured by
/// tile (an explosion growing from yellow to red, smoke fading, fire flickering).
fn sheet() -> Image {
    let (width, height) = (TILE * TILES, TILE);
    let mut data = vec![0u8; (width * height * 4) as usize];
    for tile in 0..TILES {
        let (radius, rgba) = match tile {
            0..8 => {
                let t = tile as f32 / 7.0;
                (
                    8.0 + 22.0 * t,
                    [1.0, 0.9 - 0.7 * t, 0.2 * (1.0 - t), 1.0 - 0.5 * t],
                )
            }
            8..12 => {
                let t = (tile - 8) as f32 / 3.0;
                (24.0 + 6.0 * t, [0.5, 0.5, 0.5, 0.6 - 0.45 * t])
            }
            _ => {
                let t = (tile - 12) as f32;
                (18.0 + 4.0 * (t * 2.1).sin(), [1.0, 0.5 + 0.1 * t, 0.1, 0.9])
            }
        };
        for y in 0..TILE {
            for x in 0..TILE {
                let (dx, dy) = (x as f32 - 31.5, y as f32 - 31.5);
                // Soft edge: full inside, fading over the last 4 px.
                let cover = ((radius - (dx * dx + dy * dy).sqrt()) / 4.0).clamp(0.0, 1.0);
                let at = ((y * width + tile * TILE + x) * 4) as usize;
                for (c, value) in rgba.iter().enumerate() {
                    let value = if c == 3 { value * cover } else { *value };
                    data[at + c] = (value * 255.0) as u8;
                }
            }
        }
    }
    Image::new(
        Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    )
}

/// Decaying (one-shot) or steady (loop) low-passed noise.
fn noise(seconds: f32, level: f32, seed: u64) -> StaticSoundData {
    let mut rng = Lcg(seed);
    let count = (seconds * 48_000.0) as usize;
    let mut last = 0.0f32;
    let frames = (0..count)
        .map(|i| {
            last += (rng.range(-1.0, 1.0) - last) * 0.2;
            let decay = if level < 1.0 {
                1.0
            } else {
                1.0 - i as f32 / count as f32
            };
            Frame::from_mono(last * level * decay * decay)
        })
        .collect();
    StaticSoundData {
        sample_rate: 48_000,
        frames,
        settings: Default::default(),
        slice: None,
    }
}

// The web example's page: builds the level, starts the sound on a click, runs
// the game at 60 frames a second, and shows (and hands the driver, as
// `window.poolStats()`) what it measured. Query parameters:
// `mode` (`web`, the default: the level through pool_audio::web; `bevy`: the
// level as a Bevy app through bevy_pool's `Output::Web`; `kira`: the level
// through kira's own web output), `buffering` (ms, default 100), `stall` (ms
// of busy main thread once a second), `capture` (events to capture), `record`
// (seconds of output to keep), `buffer` (kira's frames per buffer node,
// default cpal's 2,048).
import { kira, worklets } from "./instrument.js";
import init, { Game, KiraGame, allocations, bevy_stats, start_bevy } from "./pkg/pool_web_example.js";

const query = new URLSearchParams(location.search);
const number = (name, fallback) => Number(query.get(name) ?? fallback);
const mode = query.get("mode") ?? "web";
const stallMs = number("stall", 0);
const status = document.getElementById("status");
document.getElementById("mode").textContent = {
  web: "pool_audio::web",
  bevy: "a Bevy app, bevy_pool's Output::Web",
  kira: "kira's own web output",
}[mode];

// The web and Bevy levels are made at load, their sound waiting for the
// page's first click or key; kira's makes its AudioContext when it is made,
// so it is made on the click.
const loadStart = performance.now();
await init();
let game = null;
if (mode === "web") {
  game = new Game(number("buffering", 100), number("capture", 0), number("record", 0) * 48_000);
} else if (mode === "bevy") {
  start_bevy(number("buffering", 100));
}
const loadMs = performance.now() - loadStart;

let started = false;
let kiraGame = null;
let clickedAt = 0;
let frames = 0;
// Allocations of the wasm module inside game frames, after the first 10 s
// (the page's status text, outside the frames, allocates; it is not counted).
let frameAllocations = 0;

function step() {
  const before = allocations();
  if (mode === "web") game.frame();
  if (mode === "kira") kiraGame.frame();
  frames += 1;
  if (frames > 600) frameAllocations += allocations() - before;
}

// The game's clock: 60 fixed steps a second, run from animation frames (and
// a timer, where the page is hidden and animation frames stop). Bevy runs
// its own frames, from its schedule runner.
let next = 0;
let nextStall = 0;
function tick() {
  const now = performance.now();
  let steps = 0;
  while (mode !== "bevy" && now >= next && steps < 8) {
    step();
    next += 1000 / 60;
    steps += 1;
  }
  if (now - next > 250) next = now;
  if (stallMs > 0 && now >= nextStall) {
    // A garbage-collection-like pause: the main thread busy, nothing else runs.
    const until = performance.now() + stallMs;
    while (performance.now() < until) {}
    nextStall += 1000;
  }
}
function animate() {
  tick();
  requestAnimationFrame(animate);
}

// The press that starts the sound (a WebPage starts on it too).
let pressedAt = null;
window.addEventListener("pointerdown", () => (pressedAt ??= performance.now()), true);

const start = document.getElementById("start");
start.onclick = () => {
  clickedAt = pressedAt ?? performance.now();
  start.disabled = true;
  if (mode === "kira") {
    kira.active = true;
    kiraGame = new KiraGame(number("buffer", 0));
  }
  started = true;
  next = performance.now();
  nextStall = next + 1000;
  requestAnimationFrame(animate);
  setInterval(tick, 8);
  setInterval(show, 500);
};

// The figures of the worklet's ring (web and Bevy), read from its state.
function worklet() {
  const node = worklets[worklets.length - 1];
  if (!node) return null;
  const ctx = node.context;
  return {
    sampleRate: ctx.sampleRate,
    underruns: node.state[2] >>> 0,
    missingFrames: node.state[3] >>> 0,
    writtenFrames: node.state[0] >>> 0,
    consumedFrames: node.state[1] >>> 0,
    playedFrames: node.state[4] >>> 0,
    contextFrames: Math.round(ctx.currentTime * ctx.sampleRate),
    playedPeakDb: 20 * Math.log10(Math.max(node.peak[0], 1e-9)),
    firstSoundMs: node.firstSoundAt === null ? null : node.firstSoundAt - clickedAt,
    baseLatency: ctx.baseLatency,
  };
}

function stats() {
  const base = { mode, started, loadMs, seconds: (performance.now() - clickedAt) / 1000, stallMs };
  if (!started) return { ...base, ready: true };
  const perFrame = frames > 600 ? frameAllocations / (frames - 600) : null;
  if (mode === "web" || mode === "bevy") {
    const ring = worklet();
    if (ring === null) return { ...base, starting: true };
    if (mode === "web") {
      return {
        ...base,
        ...ring,
        gameFrames: frames,
        allocationsPerFrame: perFrame,
        peakDb: game.peak_db(),
        bufferingFrames: game.buffering_frames(),
        voices: game.voices(),
      };
    }
    const [bevyFrames, , , bevyPerFrame] = bevy_stats();
    return {
      ...base,
      ...ring,
      gameFrames: bevyFrames,
      allocationsPerFrame: bevyPerFrame < 0 ? null : bevyPerFrame,
      peakDb: ring.playedPeakDb,
      bufferingFrames: Math.round((number("buffering", 100) / 1000) * ring.sampleRate),
    };
  }
  const ctx = kira.contexts[kira.contexts.length - 1];
  return {
    ...base,
    gameFrames: frames,
    allocationsPerFrame: perFrame,
    peakDb: kiraGame.peak_db(),
    sampleRate: ctx.sampleRate,
    buffers: kira.buffers,
    bufferFrames: kira.bufferFrames,
    lateBuffers: kira.late,
    scheduledFrames: kira.frames,
    aheadFrames: Math.round((kira.scheduledUntil - ctx.currentTime) * ctx.sampleRate),
    contextFrames: Math.round(ctx.currentTime * ctx.sampleRate),
    firstSoundMs: kira.firstSoundAt === null ? null : kira.firstSoundAt - clickedAt,
    baseLatency: ctx.baseLatency,
  };
}

// Hands the recording and the capture (web mode) to the server (`PUT /results/`).
async function upload(name) {
  const output = game.output();
  const put = (file, body) => fetch(`/results/${name}.${file}`, { method: "PUT", body });
  await put("f32", output.recorded());
  await put("capture.txt", game.capture());
  return { sampleRate: output.ctx.sampleRate, recordedFrames: output.recorded().length / 2 };
}

function show() {
  status.textContent = JSON.stringify(stats(), null, 1);
}

window.poolStats = stats;
window.poolUpload = upload;
start.disabled = false;
status.textContent = `loaded in ${loadMs.toFixed(0)} ms: press start`;
window.poolReady = true;

// The web example's page: builds the level, starts the sound on a click, runs
// the game at 60 frames a second, and shows (and hands the driver, as
// `window.poolStats()`) what it measured. Query parameters, for the driver:
// `buffering` (ms, default the crate's), `stall` (ms of busy main thread once a
// second), `capture` (events to capture), `record` (seconds of output to keep),
// `upload` (a name: PUT the recording and the capture to /results/), and for
// kira's output `buffer` (frames per buffer node, default cpal's 2,048).
import { kira } from "./instrument.js";
import init, { Game, KiraGame, allocations } from "./pkg/pool_web_example.js";
import { PoolAudioOutput } from "./pool-audio/output.js";

const query = new URLSearchParams(location.search);
const number = (name, fallback) => Number(query.get(name) ?? fallback);
const stallMs = number("stall", 0);
const status = document.getElementById("status");

const loadStart = performance.now();
const wasm = await init();
const game = new Game(number("buffering", 100), number("capture", 0));
const loadMs = performance.now() - loadStart;

let mode = null;
let output = null;
let kiraGame = null;
let clickedAt = 0;
let frames = 0;
// Allocations of the wasm module inside game frames, after the first 10 s
// (the page's status text, outside the frames, allocates; it is not counted).
let frameAllocations = 0;

function step() {
  const before = allocations();
  if (mode === "web") {
    const samples = game.frame(output.consumed(), output.underruns());
    if (samples > 0) output.push(game.samples_pointer(), samples);
  } else {
    kiraGame.frame();
  }
  frames += 1;
  if (frames > 600) frameAllocations += allocations() - before;
}

// The game's clock: 60 fixed steps a second, run from animation frames (and
// a timer, where the page is hidden and animation frames stop).
let next = 0;
let nextStall = 0;
function tick() {
  const now = performance.now();
  let steps = 0;
  while (now >= next && steps < 8) {
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

function begin(started) {
  mode = started;
  clickedAt = clickedAt || performance.now();
  next = performance.now();
  nextStall = next + 1000;
  requestAnimationFrame(animate);
  setInterval(tick, 8);
  setInterval(show, 500);
}

document.getElementById("start").onclick = async () => {
  clickedAt = performance.now();
  disable();
  const recordFrames = number("record", 0) * game.sample_rate();
  output = await PoolAudioOutput.start({
    sampleRate: game.sample_rate(),
    ringFrames: game.ring_frames(),
    memory: wasm.memory,
    workletUrl: "./pool-audio/worklet.js",
    recordFrames,
  });
  begin("web");
};

document.getElementById("start-kira").onclick = () => {
  clickedAt = performance.now();
  disable();
  kira.active = true;
  kiraGame = new KiraGame(number("buffer", 0));
  begin("kira");
};

function disable() {
  for (const button of document.querySelectorAll("button")) button.disabled = true;
}

function stats() {
  const base = {
    mode,
    loadMs,
    seconds: (performance.now() - clickedAt) / 1000,
    gameFrames: frames,
    allocationsPerFrame: frames > 600 ? frameAllocations / (frames - 600) : null,
    allocationsAfter10s: frames > 600 ? frameAllocations : null,
    stallMs,
  };
  if (mode === "web") {
    return {
      ...base,
      peakDb: game.peak_db(),
      playedPeakDb: 20 * Math.log10(Math.max(output.peak(), 1e-9)),
      bufferingFrames: game.buffering_frames(),
      sampleRate: output.ctx.sampleRate,
      underruns: output.underruns(),
      missingFrames: output.missingFrames(),
      writtenFrames: output.writtenFrames(),
      playedFrames: output.playedFrames(),
      consumedFrames: output.consumed(),
      contextFrames: Math.round(output.ctx.currentTime * output.ctx.sampleRate),
      firstSoundMs: output.firstSoundAt === null ? null : output.firstSoundAt - clickedAt,
      baseLatency: output.ctx.baseLatency,
      voices: game.voices(),
    };
  }
  if (mode === "kira") {
    const ctx = kira.contexts[kira.contexts.length - 1];
    return {
      ...base,
      peakDb: kiraGame.peak_db(),
      sampleRate: ctx.sampleRate,
      buffers: kira.buffers,
      lateBuffers: kira.late,
      scheduledFrames: kira.frames,
      aheadFrames: Math.round((kira.scheduledUntil - ctx.currentTime) * ctx.sampleRate),
      bufferFrames: kira.bufferFrames,
      contextFrames: Math.round(ctx.currentTime * ctx.sampleRate),
      firstSoundMs: kira.firstSoundAt === null ? null : kira.firstSoundAt - clickedAt,
      baseLatency: ctx.baseLatency,
    };
  }
  return { ...base, ready: true };
}

// Hands the recording and the capture to the server (`PUT /results/`).
async function upload(name) {
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
for (const button of document.querySelectorAll("button")) button.disabled = false;
status.textContent = `loaded in ${loadMs.toFixed(0)} ms: press a start button`;
window.poolReady = true;

// pool_audio::web, the page's half: makes the AudioContext and the worklet's
// node on a user gesture, and copies what the game rendered (`WebOutput::fill`)
// from the wasm memory into the ring. Nothing here allocates per frame: the
// view of the wasm memory is made again only when the memory grows.
//
// The page must be cross-origin isolated (served with the headers
// `Cross-Origin-Opener-Policy: same-origin` and
// `Cross-Origin-Embedder-Policy: require-corp`) for SharedArrayBuffer.
const WRITTEN = 0;
const READ = 1;
const UNDERRUNS = 2;
const MISSING = 3;
const PLAYED = 4;
const FIRST_SOUND = 5;
const RECORDED = 6;

export class PoolAudioOutput {
  // Call from a user gesture (a click or a key): browsers start audio only then.
  // `sampleRate` and `ringFrames` are `WebOutput::sample_rate` and
  // `WebOutput::ring_frames`; `memory` is the wasm module's memory;
  // `workletUrl` serves `worklet.js`; `recordFrames` keeps that many frames of
  // what is played, for a test to read back.
  static async start({ sampleRate, ringFrames, memory, workletUrl, recordFrames = 0 }) {
    if (!crossOriginIsolated) {
      throw new Error("pool_audio::web needs a cross-origin isolated page (COOP and COEP headers)");
    }
    const ctx = new AudioContext({ sampleRate, latencyHint: "interactive" });
    await ctx.audioWorklet.addModule(workletUrl);
    const ring = new SharedArrayBuffer(ringFrames * 2 * 4);
    const state = new SharedArrayBuffer(16 * 4 + 4 * 4);
    const recording = recordFrames > 0 ? new SharedArrayBuffer(recordFrames * 2 * 4) : null;
    const node = new AudioWorkletNode(ctx, "pool-audio-output", {
      numberOfInputs: 0,
      outputChannelCount: [2],
      processorOptions: { ring, state, recording },
    });
    node.connect(ctx.destination);
    const output = new PoolAudioOutput(ctx, node, ring, state, recording, memory);
    await ctx.resume();
    return output;
  }

  constructor(ctx, node, ring, state, recording, memory) {
    this.ctx = ctx;
    this.node = node;
    this.ring = new Float32Array(ring);
    this.mask = (this.ring.length >> 1) - 1;
    this.state = new Int32Array(state, 0, 16);
    this.peakPlayed = new Float32Array(state, 64, 4);
    this.recording = recording ? new Float32Array(recording) : null;
    this.memory = memory;
    this.view = new Float32Array(memory.buffer);
    this.firstSoundAt = null;
    node.port.onmessage = () => {
      this.firstSoundAt = performance.now();
    };
  }

  // Frames the worklet has played from the ring (for `WebOutput::fill`).
  consumed() {
    return Atomics.load(this.state, READ) >>> 0;
  }

  // Frames the game has put in the ring.
  writtenFrames() {
    return Atomics.load(this.state, WRITTEN) >>> 0;
  }

  // Render quanta that found the ring short (for `WebOutput::fill`).
  underruns() {
    return Atomics.load(this.state, UNDERRUNS) >>> 0;
  }

  // Frames played as silence for want of samples.
  missingFrames() {
    return Atomics.load(this.state, MISSING) >>> 0;
  }

  // Frames the worklet has output since it started: the audio clock.
  playedFrames() {
    return Atomics.load(this.state, PLAYED) >>> 0;
  }

  // The frame of the audio clock that first carried sound (null before).
  firstSoundFrame() {
    const at = Atomics.load(this.state, FIRST_SOUND);
    return at === 0 ? null : (at - 1) >>> 0;
  }

  // The largest sample played, linear.
  peak() {
    return this.peakPlayed[0];
  }

  // What was played from the first write, as interleaved stereo (a copy).
  recorded() {
    if (this.recording === null) return new Float32Array(0);
    return this.recording.slice(0, Atomics.load(this.state, RECORDED) * 2);
  }

  // Copies `samples` interleaved stereo samples at byte offset `pointer` of
  // the wasm memory (`WebOutput::fill`'s slice) into the ring.
  push(pointer, samples) {
    if (this.view.buffer !== this.memory.buffer) {
      this.view = new Float32Array(this.memory.buffer);
    }
    const view = this.view;
    const ring = this.ring;
    const mask = this.mask;
    const from = pointer >>> 2;
    const written = this.state[WRITTEN];
    const frames = samples >>> 1;
    for (let i = 0; i < frames; i++) {
      const at = ((written + i) & mask) * 2;
      ring[at] = view[from + i * 2];
      ring[at + 1] = view[from + i * 2 + 1];
    }
    Atomics.store(this.state, WRITTEN, (written + frames) | 0);
  }
}

// For a game that drives the output from Rust (`pool_audio::web::WebPage`):
// starts a `PoolAudioOutput` on the first click, touch or key on the page (a
// user gesture, as browsers require), the worklet loaded from its code as text.
// Until it runs, `running()` is false and nothing is pushed.
export class PoolAudioPage {
  constructor(sampleRate, ringFrames, memory, workletCode, recordFrames = 0) {
    this.output = null;
    this.error = undefined;
    const events = ["pointerdown", "keydown", "touchend"];
    const start = () => {
      for (const event of events) window.removeEventListener(event, start, true);
      const workletUrl = URL.createObjectURL(new Blob([workletCode], { type: "text/javascript" }));
      PoolAudioOutput.start({ sampleRate, ringFrames, memory, workletUrl, recordFrames }).then(
        (output) => {
          this.output = output;
        },
        (error) => {
          this.error = String(error);
        },
      );
    };
    for (const event of events) window.addEventListener(event, start, true);
  }

  running() {
    return this.output !== null;
  }

  // Why the output could not start (undefined while it has not failed).
  failure() {
    return this.error;
  }

  consumed() {
    return this.output === null ? 0 : this.output.consumed();
  }

  underruns() {
    return this.output === null ? 0 : this.output.underruns();
  }

  push(pointer, samples) {
    if (this.output !== null) this.output.push(pointer, samples);
  }
}

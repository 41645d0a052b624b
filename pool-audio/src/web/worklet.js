// pool_audio::web, the browser's audio thread: an AudioWorkletProcessor that
// plays the frames the game rendered ahead, from a ring in a SharedArrayBuffer.
// It allocates nothing in process(). Register it with
// `ctx.audioWorklet.addModule(url)`; `output.js` makes its node.
//
// The state is an Int32Array over a SharedArrayBuffer (slots below) and, after
// its 16 integers, a Float32Array of 4 (the peak played). The ring holds
// `ringFrames` interleaved stereo frames (a power of two). Counters wrap at
// 2^32 and are compared with `>>> 0`.
const WRITTEN = 0; // frames the game has put in the ring (written by the page)
const READ = 1; // frames played from the ring (written here)
const UNDERRUNS = 2; // render quanta that found the ring short, after the first write
const MISSING = 3; // frames played as silence for want of samples, after the first write
const PLAYED = 4; // frames this processor has output: the audio clock
const FIRST_SOUND = 5; // PLAYED + 1 at the first sample that was not zero (0: none yet)
const RECORDED = 6; // frames copied into the recording, if one was asked for

class PoolAudioOutput extends AudioWorkletProcessor {
  constructor(options) {
    super();
    const { ring, state, recording } = options.processorOptions;
    this.ring = new Float32Array(ring);
    this.mask = (this.ring.length >> 1) - 1;
    this.state = new Int32Array(state, 0, 16);
    this.peak = new Float32Array(state, 64, 4);
    this.recording = recording ? new Float32Array(recording) : null;
  }

  process(_inputs, outputs) {
    const out = outputs[0];
    const left = out[0];
    const right = out.length > 1 ? out[1] : out[0];
    const n = left.length;
    const state = this.state;
    const written = Atomics.load(state, WRITTEN);
    const read = state[READ];
    const available = (written - read) >>> 0;
    const frames = available < n ? available : n;
    const ring = this.ring;
    const mask = this.mask;
    let peak = this.peak[0];
    for (let i = 0; i < frames; i++) {
      const at = ((read + i) & mask) * 2;
      const l = ring[at];
      const r = ring[at + 1];
      left[i] = l;
      right[i] = r;
      const m = Math.max(Math.abs(l), Math.abs(r));
      if (m > peak) peak = m;
    }
    for (let i = frames; i < n; i++) {
      left[i] = 0;
      right[i] = 0;
    }
    this.peak[0] = peak;
    const played = state[PLAYED];
    if (state[FIRST_SOUND] === 0 && peak > 0) {
      state[FIRST_SOUND] = (played + 1) | 0;
      this.port.postMessage("first sound");
    }
    if (frames < n && written !== 0) {
      Atomics.add(state, UNDERRUNS, 1);
      Atomics.add(state, MISSING, n - frames);
    }
    this.record(left, right, n, written !== 0);
    Atomics.store(state, READ, (read + frames) | 0);
    Atomics.store(state, PLAYED, (played + n) | 0);
    return true;
  }

  // Keeps what was played, from the first write, while the recording has room.
  record(left, right, n, started) {
    const recording = this.recording;
    if (recording === null || !started) return;
    const state = this.state;
    const at = state[RECORDED];
    const frames = Math.min(n, (recording.length >> 1) - at);
    for (let i = 0; i < frames; i++) {
      recording[(at + i) * 2] = left[i];
      recording[(at + i) * 2 + 1] = right[i];
    }
    state[RECORDED] = at + frames;
  }
}

registerProcessor("pool-audio-output", PoolAudioOutput);

// Watches the page's audio for the figures, without changing it. Imported
// before the wasm module's glue, which keeps the AudioContext it finds when it
// loads.
//
// kira's own web output (cpal's) schedules a buffer node per 2,048 frames; one
// scheduled to begin before the context's clock is a gap heard. pool_audio::web's
// worklet node keeps its counts in a SharedArrayBuffer, read here.
export const kira = {
  active: false,
  contexts: [],
  buffers: 0,
  bufferFrames: 0,
  frames: 0,
  late: 0,
  scheduledUntil: 0,
  firstSoundAt: null,
};

const NativeContext = window.AudioContext;
window.AudioContext = class extends NativeContext {
  constructor(options) {
    super(options);
    kira.contexts.push(this);
  }
};

const nativeStart = AudioBufferSourceNode.prototype.start;
AudioBufferSourceNode.prototype.start = function (when = 0, ...rest) {
  if (kira.active) {
    kira.buffers += 1;
    kira.frames += this.buffer.length;
    kira.bufferFrames = this.buffer.length;
    kira.scheduledUntil = Math.max(when, this.context.currentTime) + this.buffer.duration;
    if (when < this.context.currentTime) kira.late += 1;
    if (kira.firstSoundAt === null && this.buffer.getChannelData(0).some((s) => s !== 0)) {
      kira.firstSoundAt = performance.now();
    }
  }
  return nativeStart.call(this, when, ...rest);
};

// Every pool_audio::web worklet node made, with views of its state.
export const worklets = [];
const NativeWorkletNode = window.AudioWorkletNode;
window.AudioWorkletNode = class extends NativeWorkletNode {
  constructor(ctx, name, options) {
    super(ctx, name, options);
    if (name === "pool-audio-output") {
      const state = options.processorOptions.state;
      const watched = {
        context: ctx,
        state: new Int32Array(state, 0, 16),
        peak: new Float32Array(state, 64, 4),
        firstSoundAt: null,
      };
      this.port.addEventListener("message", () => (watched.firstSoundAt ??= performance.now()));
      worklets.push(watched);
    }
  }
};

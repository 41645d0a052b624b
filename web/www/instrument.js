// Counts what kira's own web output (cpal's) does, for the figures beside
// pool_audio::web's: it schedules a buffer node per 2,048 frames, and one
// scheduled to begin before the context's clock is a gap heard. Imported before
// the wasm module's glue, which keeps the AudioContext it finds when it loads.
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

// The beeper's samples played as they come: a buffer kept between a tenth and a third of a second,
// so that the server's frame clock and the sound card's sample clock never drift apart.
"use strict";

class Beeper extends AudioWorkletProcessor {
  constructor() {
    super();
    this.queue = [];
    this.offset = 0;  // into the first chunk
    this.buffered = 0;
    this.started = false;
    this.port.onmessage = event => {
      this.queue.push(event.data);
      this.buffered += event.data.length;
      while (this.buffered > sampleRate / 3 && this.queue.length > 1) {
        this.buffered -= this.queue.shift().length - this.offset;
        this.offset = 0;
      }
    };
  }

  process(inputs, outputs) {
    const out = outputs[0][0];
    out.fill(0);
    if (!this.started && this.buffered < sampleRate / 10) return true;
    this.started = true;
    for (let at = 0; at < out.length && this.queue.length;) {
      const chunk = this.queue[0], length = Math.min(out.length - at, chunk.length - this.offset);
      for (let i = 0; i < length; i++) out[at + i] = chunk[this.offset + i] / 32768;
      at += length;
      this.offset += length;
      this.buffered -= length;
      if (this.offset === chunk.length) { this.queue.shift(); this.offset = 0; }
    }
    if (!this.queue.length) this.started = false;  // run dry: wait for a tenth of a second again
    return true;
  }
}

registerProcessor("zxcards-beeper", Beeper);

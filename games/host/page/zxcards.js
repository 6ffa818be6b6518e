// The terminal of a served Spectrum: its picture on the canvas, its beeper from the speaker's
// edges, and the keys held sent back. The messages are those of spectrum/wire.py.
"use strict";

(() => {
  const config = JSON.parse(document.getElementById("config").textContent);
  const T_STATES_PER_SECOND = 3500000, FRAME_T_STATES = 69888, SCREEN_BYTES = 6912, ATTRIBUTES = 6144;
  const HEADER_BYTES = 11, RUN_BYTES = 4, STEP_BYTES = 5, FRAME = 1, AWAITING_KEY = 1, FLASH_PHASE = 2;
  const BORDER_RUNS = 8, BORDER_RUN_BYTES = 3, BORDER_CELL_PIXELS = 8;  // the ULA takes the border every 8 pixels
  const LEVEL = 8192;  // a quarter of full scale, as the WAV's
  const SOUND_LATENCY = 2;  // frames: a frame's speaker edges may come with the frame after it
  const NOTE_MILLISECONDS = 3000;

  const canvas = document.getElementById("screen");
  const context = canvas.getContext("2d");
  const picture = context.createImageData(config.width, config.height);
  const statusLine = document.getElementById("status");
  const notice = document.getElementById("notice");
  const noticeText = document.getElementById("notice-text");
  const pictureBox = document.getElementById("picture");
  const again = document.getElementById("again");
  const screen = new Uint8Array(SCREEN_BYTES);

  // What tests and the curious may read: the machine as the page knows it.
  const terminal = window.zxcards = {
    frame: -1, awaitingKey: false, border: 7, borderCells: null, flashPhase: false, status: "", ended: null,
    open: false,
    recording: location.hash === "#record", recorded: [],  // int16 samples at `sound.rate`, from frame 0
    sound: null, framesReceived: 0,
    targets: null, picked: [],  // what the program's cells mean now, and what is picked (outlined)
    screen,  // SCREEN$ as the page has it
  };

  // Why the session ended (or never began), over the picture where the player looks, with the
  // ways back: Play again (the page loaded afresh: a new Spectrum) and the menu.
  function say(text, status) {
    noticeText.textContent = text;
    notice.hidden = false;
    pictureBox.classList.add("ended");
    statusLine.textContent = status;
    again.focus();
  }
  again.addEventListener("click", () => location.reload());
  if (location.pathname === "/") document.getElementById("to-menu").hidden = true;  // this is the menu

  // The picture as large as the window allows with what is under it: their height in --below.
  const main = document.querySelector("main");
  function fit() {
    let below = 0;
    for (const child of main.children) {
      if (child === pictureBox) continue;
      const height = child.getBoundingClientRect().height;
      if (height) below += height + parseFloat(getComputedStyle(main).rowGap || "0");
    }
    document.documentElement.style.setProperty("--below", `${Math.ceil(below)}px`);
  }
  const watcher = new ResizeObserver(fit);
  for (const child of main.children) if (child !== pictureBox) watcher.observe(child);
  fit();

  // --- the picture ----------------------------------------------------------------------------

  function draw() {
    const pixels = picture.data, palette = config.palette, width = config.width;
    const columns = width / BORDER_CELL_PIXELS, cells = terminal.borderCells;
    for (let y = 0, at = 0; y < config.height; y++) {  // a colour a cell while the border changes in a frame
      for (let column = 0; column < columns; column++) {  // the ULA never makes the border BRIGHT
        const [red, green, blue] = palette[(cells ? cells[y * columns + column] : terminal.border) & 7];
        for (let pixel = 0; pixel < BORDER_CELL_PIXELS; pixel++, at += 4) {
          pixels[at] = red; pixels[at + 1] = green; pixels[at + 2] = blue; pixels[at + 3] = 255;
        }
      }
    }
    for (let y = 0; y < 192; y++) {
      const line = ((y & 0xC0) << 5) | ((y & 0x07) << 8) | ((y & 0x38) << 2);
      const attributes = ATTRIBUTES + (y >> 3) * 32;
      let at = ((config.top + y) * width + config.left) * 4;
      for (let column = 0; column < 32; column++) {
        const attribute = screen[attributes + column], bits = screen[line + column];
        const bright = attribute & 0x40 ? 8 : 0;
        let ink = palette[(attribute & 7) | bright], paper = palette[((attribute >> 3) & 7) | bright];
        if (attribute & 0x80 && terminal.flashPhase) [ink, paper] = [paper, ink];
        for (let bit = 0x80; bit; bit >>= 1) {
          const colour = bits & bit ? ink : paper;
          pixels[at] = colour[0]; pixels[at + 1] = colour[1]; pixels[at + 2] = colour[2];
          at += 4;
        }
      }
    }
    context.putImageData(picture, 0, 0);
  }

  // --- the sound ------------------------------------------------------------------------------

  // Speaker steps (T-state, level from then on) into samples at `rate`, each the mean level over
  // its own 1/rate s, as spectrum/sound.py's stepped_samples renders them.
  class SoundTrack {
    constructor(rate, fromFrame) {
      this.rate = rate;
      this.steps = [];
      this.level = 0;
      this.playedTo = fromFrame;  // the first frame not yet rendered
    }

    add(tState, level) {
      let at = this.steps.length;
      while (at > 0 && this.steps[at - 1][0] > tState) at--;
      this.steps.splice(at, 0, [tState, level]);
    }

    frameStart(frame) {
      return Math.floor(frame * FRAME_T_STATES * this.rate / T_STATES_PER_SECOND);
    }

    // The samples of the frames from the last rendered to `end` (not included).
    render(end) {
      if (end <= this.playedTo) return null;
      const first = this.frameStart(this.playedTo), count = this.frameStart(end) - first;
      this.playedTo = end;
      const perSample = T_STATES_PER_SECOND / this.rate, start = first * perSample;
      const endT = (first + count) * perSample;
      let taken = 0;
      while (taken < this.steps.length && this.steps[taken][0] < endT) taken++;
      const steps = this.steps.splice(0, taken);
      const samples = new Int16Array(count);
      if (!this.level && !steps.length) return samples;
      let level = this.level, next = 0;
      for (let sample = 0; sample < count; sample++) {
        let from = start + sample * perSample, area = 0;
        const to = start + (sample + 1) * perSample;
        while (next < steps.length && Math.max(steps[next][0], start) < to) {
          const at = Math.max(steps[next][0], start);
          area += level * (at - from);
          from = at;
          level = steps[next][1];
          next++;
        }
        area += level * (to - from);
        samples[sample] = Math.round(area / perSample * LEVEL);
      }
      this.level = level;
      return samples;
    }
  }

  let track = null, output = null;  // output: where the samples are heard, once sound is on

  function hear(samples) {
    if (terminal.recording) terminal.recorded.push(samples);
    if (output) output.push(samples);
  }

  // Sound switched on: an AudioWorklet in a secure context, a ScriptProcessor elsewhere; both play
  // from a buffer kept between a tenth and a third of a second, so that the two clocks (the
  // server's frames, the sound card's samples) never drift apart.
  async function soundOn() {
    const audio = new AudioContext();
    await audio.resume();
    if (window.isSecureContext && audio.audioWorklet) {
      await audio.audioWorklet.addModule("/zxcards-sound.js");
      const node = new AudioWorkletNode(audio, "zxcards-beeper", {outputChannelCount: [1]});
      node.connect(audio.destination);
      output = {audio, push: samples => node.port.postMessage(samples, [samples.buffer])};
    } else {
      const queue = [];
      let buffered = 0, started = false, offset = 0;
      const node = audio.createScriptProcessor(2048, 0, 1);
      node.onaudioprocess = event => {
        const out = event.outputBuffer.getChannelData(0);
        out.fill(0);
        if (!started && buffered < audio.sampleRate / 10) return;
        started = true;
        for (let at = 0; at < out.length && queue.length;) {
          const chunk = queue[0], length = Math.min(out.length - at, chunk.length - offset);
          for (let i = 0; i < length; i++) out[at + i] = chunk[offset + i] / 32768;
          at += length; offset += length; buffered -= length;
          if (offset === chunk.length) { queue.shift(); offset = 0; }
        }
        if (!queue.length) started = false;
      };
      node.connect(audio.destination);
      output = {audio, push: samples => {
        queue.push(samples);
        buffered += samples.length;
        while (buffered > audio.sampleRate / 3 && queue.length > 1) { buffered -= queue.shift().length - offset; offset = 0; }
      }};
    }
    track = new SoundTrack(audio.sampleRate, Math.max(0, terminal.frame - SOUND_LATENCY + 1));
  }

  const soundButton = document.getElementById("sound");
  soundButton.addEventListener("click", async () => {
    if (output) {
      await output.audio.close();
      output = null;
      track = new SoundTrack(44100, Math.max(0, terminal.frame - SOUND_LATENCY + 1));
      soundButton.textContent = "Click for sound";
      soundButton.setAttribute("aria-pressed", "false");
      return;
    }
    try {
      await soundOn();
      soundButton.textContent = "Sound on";
      soundButton.setAttribute("aria-pressed", "true");
    } catch (error) {
      soundButton.textContent = "No sound here";
      soundButton.disabled = true;
    }
  });

  // --- the messages ---------------------------------------------------------------------------

  function borderCells(view, at) {
    // the border's colour in each cell of 8 pixels, line by line, from its runs: (first cell, colour)
    const cells = new Uint8Array(config.height * config.width / BORDER_CELL_PIXELS);
    for (let run = 0, count = view.getUint16(at, true); run < count; run++) {
      const place = at + 2 + run * BORDER_RUN_BYTES;
      cells.fill(view.getUint8(place + 2) & 7, view.getUint16(place, true));
    }
    return cells;
  }

  function receiveFrame(buffer) {
    const view = new DataView(buffer);
    if (view.getUint8(0) !== FRAME) return;
    const frame = view.getUint32(1, true), flags = view.getUint8(5);
    const runs = view.getUint16(7, true), steps = view.getUint16(9, true);
    let at = HEADER_BYTES;
    for (let run = 0; run < runs; run++) {
      const offset = view.getUint16(at, true), length = view.getUint16(at + 2, true);
      screen.set(new Uint8Array(buffer, at + RUN_BYTES, length), offset);
      at += RUN_BYTES + length;
    }
    if (!track) track = new SoundTrack(44100, Math.max(0, frame - SOUND_LATENCY));  // from frame 0: its steps come with frame 1
    for (let step = 0; step < steps; step++) {
      track.add(frame * FRAME_T_STATES + view.getInt32(at, true), view.getInt8(at + 4));
      at += STEP_BYTES;
    }
    terminal.borderCells = flags & BORDER_RUNS ? borderCells(view, at) : null;
    terminal.frame = frame;
    terminal.border = view.getUint8(6);
    terminal.awaitingKey = Boolean(flags & AWAITING_KEY);
    terminal.flashPhase = Boolean(flags & FLASH_PHASE);
    terminal.framesReceived++;
    draw();
    const samples = track.render(frame - SOUND_LATENCY + 1);
    if (samples) hear(samples);
  }

  function receiveText(text) {
    const message = JSON.parse(text);
    if ("status" in message) {
      terminal.status = message.status;
      if (!noteUntil) statusLine.textContent = message.status;
    }
    if ("error" in message) console.warn("zxcards refused a message:", message.error);
    if ("said" in message) window.dispatchEvent(new CustomEvent("zxcards-said", {detail: message.said}));  // zxcards-talk.js
    if ("targets" in message) takeTargets(message.targets, message.picked || []);
    if ("end" in message) {
      terminal.ended = message.end;
      terminal.status = "";
      say(message.end, "Ended");
    }
  }

  if (!("WebSocket" in window)) {
    say("This browser has no WebSocket, which zxcards needs: it can't play here.", "");
    return;
  }

  // The browser's own secret: the accounts it makes on this server are kept under its hash.
  let secret = localStorage.getItem("zxcards-secret");
  if (!/^[0-9a-f]{32}$/.test(secret || "")) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    secret = Array.from(bytes, byte => byte.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("zxcards-secret", secret);
  }
  document.cookie = `zxcards-secret=${secret}; path=/; SameSite=Strict`;

  const address = new URL(location.href);
  address.protocol = address.protocol === "https:" ? "wss:" : "ws:";
  address.hash = "";
  const socket = new WebSocket(address);
  socket.binaryType = "arraybuffer";
  window.zxcardsTalk = message => {  // a word to the table (zxcards-talk.js): its messages only
    if (socket.readyState === WebSocket.OPEN && ["say", "mute", "unmute"].includes(Object.keys(message)[0])) {
      socket.send(JSON.stringify(message));
    }
  };
  socket.onopen = () => { terminal.open = true; statusLine.textContent = terminal.status; };
  socket.onmessage = event => {
    if (typeof event.data === "string") receiveText(event.data);
    else receiveFrame(event.data);
  };
  socket.onclose = event => {
    const wasOpen = terminal.open;
    terminal.open = false;
    if (terminal.ended) return;
    if (!wasOpen) say("No WebSocket connection to zxcards could be made: the server may be down or full, "
                      + "or something between here and it does not let WebSockets through.", "Not connected");
    else say(`The connection to zxcards was closed${event.reason ? ": " + event.reason : ""}.`, "Not connected");
  };

  // --- pointing: taps and clicks on the program's targets (spectrum/pointing.py) ---------------

  // The server types what a tap means; the page outlines the target under the pointer (and those
  // picked) on a canvas over the picture, and shows the choices beside it as buttons.
  const outline = document.getElementById("outline");
  const outlineContext = outline.getContext("2d");
  const choices = document.getElementById("choices");
  const frameBox = document.getElementById("frame");
  const coarse = window.matchMedia("(pointer: coarse)").matches;
  let hovered = null, pressedAt = null, lettersBefore = null;

  function targetAt(cell) {
    if (!cell || !terminal.targets) return null;
    return terminal.targets.targets.find(target => "row" in target && target.row <= cell[0]
      && cell[0] < target.row + target.rows && target.col <= cell[1] && cell[1] < target.col + target.cols) || null;
  }

  function drawOutlines() {
    const scale = outline.width / config.width, cell = 8 * scale;
    outlineContext.clearRect(0, 0, outline.width, outline.height);
    const boxes = [];
    for (const name of terminal.picked) {
      const target = terminal.targets && terminal.targets.targets.find(one => one.name === name);
      if (target && "row" in target) boxes.push([target, "#ffa000"]);
    }
    const under = targetAt(hovered);
    if (under && under.rows < 24) boxes.push([under, "#ffffff"]);
    outlineContext.lineWidth = 2 * scale;
    for (const [target, colour] of boxes) {
      outlineContext.strokeStyle = colour;
      outlineContext.strokeRect((config.left + 8 * target.col) * scale - scale, (config.top + 8 * target.row) * scale - scale,
                                target.cols * cell + 2 * scale, target.rows * cell + 2 * scale);
    }
  }

  function takeTargets(targets, picked) {
    terminal.targets = targets;
    terminal.picked = picked;
    const offScreen = targets.targets.filter(target => !("row" in target));
    choices.replaceChildren(...offScreen.map(target => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = target.name;
      button.addEventListener("click", () => send({tap: target.name}));
      return button;
    }));
    choices.hidden = !offScreen.length;
    if (coarse && targets.letters !== lettersBefore) showKeyboard(targets.letters);  // a name to type: the keys
    lettersBefore = targets.letters;
    drawOutlines();
  }

  function send(message) {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function cellOf(event) {
    const box = canvas.getBoundingClientRect();
    const x = (event.clientX - box.left) * config.width / box.width - config.left;
    const y = (event.clientY - box.top) * config.height / box.height - config.top;
    if (x < 0 || y < 0 || x >= 256 || y >= 192) return null;
    return [Math.floor(y / 8), Math.floor(x / 8)];
  }

  frameBox.addEventListener("pointerdown", event => {
    if (event.button !== 0) return;
    event.preventDefault();
    frameBox.setPointerCapture(event.pointerId);
    pressedAt = cellOf(event);
    hovered = pressedAt;
    drawOutlines();
  });
  frameBox.addEventListener("pointermove", event => {
    if (event.pointerType !== "mouse" && !pressedAt) return;
    const cell = cellOf(event);
    if (String(cell) !== String(hovered)) { hovered = cell; drawOutlines(); }
  });
  frameBox.addEventListener("pointerup", event => {
    const start = pressedAt, end = cellOf(event);
    pressedAt = null;
    if (event.pointerType !== "mouse") hovered = null;
    drawOutlines();
    if (!start || !end) return;
    if (String(start) === String(end) || !targetAt(end)) send({tap: start});
    else send({drag: [start, end]});
  });
  frameBox.addEventListener("pointercancel", () => { pressedAt = null; hovered = null; drawOutlines(); });
  frameBox.addEventListener("pointerleave", event => {
    if (event.pointerType === "mouse" && !pressedAt) { hovered = null; drawOutlines(); }
  });
  frameBox.addEventListener("contextmenu", event => event.preventDefault());  // a long press is no menu

  // --- the keys: the window's map -------------------------------------------------------------

  const NAMED = {
    Enter: ["ENTER"], " ": ["SPACE"], Backspace: ["CAPS", "0"], ArrowLeft: ["CAPS", "5"], ArrowDown: ["CAPS", "6"],
    ArrowUp: ["CAPS", "7"], ArrowRight: ["CAPS", "8"], Shift: ["CAPS"], Control: ["SYMBOL"], Alt: ["SYMBOL"],
    AltGraph: ["SYMBOL"],
  };
  const heldByKeyboard = new Map();  // event.code -> {keys, typesSymbol}
  const heldByTouch = new Set();
  let sent = "[]", noteUntil = 0;

  function spectrumKeys(event) {
    if (event.key in NAMED) return {keys: NAMED[event.key], typesSymbol: false};
    if (event.key.length === 1 && !/^[a-z0-9]$/i.test(event.key) && config.typed[event.key]) {
      return {keys: config.typed[event.key], typesSymbol: true};  // '"' is SYMBOL+p: the host's Shift is not CAPS then
    }
    const named = /^(?:Key([A-Z])|Digit([0-9])|Numpad([0-9]))$/.exec(event.code);
    if (named) return {keys: [(named[1] || named[2] || named[3]).toLowerCase()], typesSymbol: false};
    return null;
  }

  function sendHeld() {
    const keys = new Set(heldByTouch);
    const typing = [...heldByKeyboard.values()].some(held => held.typesSymbol);
    for (const [code, held] of heldByKeyboard) {
      if (typing && code.startsWith("Shift")) continue;
      held.keys.forEach(key => keys.add(key));
    }
    const now = JSON.stringify([...keys].sort());
    if (now !== sent && socket.readyState === WebSocket.OPEN) {
      socket.send(`{"held": ${now}}`);
      sent = now;
    }
  }

  function note(text) {
    statusLine.textContent = text;
    noteUntil = Date.now() + NOTE_MILLISECONDS;
    setTimeout(() => {
      if (Date.now() >= noteUntil && !notice.hidden) noteUntil = 0;
      else if (Date.now() >= noteUntil) { noteUntil = 0; statusLine.textContent = terminal.status; }
    }, NOTE_MILLISECONDS);
  }

  function leave() {
    if (socket.readyState === WebSocket.OPEN) socket.send('{"leave": true}');
  }

  const typedIntoThePage = event => event.target.closest && event.target.closest("input, select, textarea, #notice");
  window.addEventListener("keydown", event => {
    if (typedIntoThePage(event)) return;  // a name typed into the form under the menu, not the Spectrum's
    if (event.key === "Escape") { event.preventDefault(); leave(); return; }
    const keys = spectrumKeys(event);
    if (keys) {
      event.preventDefault();
      if (!event.repeat) { heldByKeyboard.set(event.code, keys); sendHeld(); }
    } else if (event.key.length === 1 && event.key.trim() && !event.ctrlKey && !event.metaKey) {
      note(`No Spectrum key types ${event.key}: it was not typed`);
    }
  });
  window.addEventListener("keyup", event => {
    if (typedIntoThePage(event)) return;
    if (heldByKeyboard.delete(event.code)) { event.preventDefault(); sendHeld(); }
  });
  function letGo() {  // keys let go of in another window never send their keyup here
    heldByKeyboard.clear();
    heldByTouch.clear();
    document.querySelectorAll("#keyboard .down").forEach(button => button.classList.remove("down"));
    sendHeld();
  }
  window.addEventListener("blur", letGo);
  // A name the form refuses says why, in the browser's own words' place: the field's title.
  for (const input of document.querySelectorAll("#friends input[pattern]")) {
    const check = () => {
      input.setCustomValidity("");
      if (input.validity.patternMismatch) input.setCustomValidity(input.title);
    };
    input.addEventListener("input", check);
    check();
  }
  const shareLink = document.getElementById("share-link");
  if (shareLink) shareLink.textContent = shareLink.href;  // the whole address, to send to friends
  document.addEventListener("visibilitychange", () => { if (document.hidden) letGo(); });

  // --- keys on the screen, for touch ------------------------------------------------------------

  const keyboard = document.getElementById("keyboard");
  const ROWS = [
    "1 2 3 4 5 6 7 8 9 0", "q w e r t y u i o p", "a s d f g h j k l ENTER", "CAPS z x c v b n m SYMBOL SPACE",
  ];
  const EXTRAS = [["DELETE", ["CAPS", "0"]], ["←", ["CAPS", "5"]], ["↓", ["CAPS", "6"]], ["↑", ["CAPS", "7"]],
                  ["→", ["CAPS", "8"]], ["BREAK", ["CAPS", "SPACE"]], ["Esc", null]];
  const locked = new Set();  // CAPS and SYMBOL tapped: held with the next key

  function keyButton(label, keys, wide) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label === "SYMBOL" ? "SYM" : label;
    if (wide) button.classList.add("wide");
    button.addEventListener("pointerdown", event => {
      event.preventDefault();
      if (keys === null) { leave(); return; }
      if (keys.length === 1 && (keys[0] === "CAPS" || keys[0] === "SYMBOL")) {
        locked.has(keys[0]) ? locked.delete(keys[0]) : locked.add(keys[0]);
        button.classList.toggle("locked", locked.has(keys[0]));
        return;
      }
      button.setPointerCapture(event.pointerId);
      button.classList.add("down");
      button.pressed = [...keys, ...locked];
      button.pressed.forEach(key => heldByTouch.add(key));
      sendHeld();
    });
    const release = () => {
      if (!button.pressed) return;
      button.pressed.forEach(key => heldByTouch.delete(key));
      button.pressed = null;
      button.classList.remove("down");
      locked.clear();
      keyboard.querySelectorAll(".locked").forEach(other => other.classList.remove("locked"));
      sendHeld();
    };
    button.addEventListener("pointerup", release);
    button.addEventListener("pointercancel", release);
    return button;
  }

  for (const row of ROWS) for (const key of row.split(" ")) keyboard.append(keyButton(key, [key], false));
  EXTRAS.forEach(([label, keys], index) => keyboard.append(keyButton(label, keys, index === 0 || index >= 5)));
  const touchButton = document.getElementById("touch");
  function showKeyboard(shown) {
    keyboard.hidden = !shown;
    touchButton.setAttribute("aria-pressed", String(shown));
  }
  touchButton.addEventListener("click", () => showKeyboard(keyboard.hidden));
  document.getElementById("esc").addEventListener("click", leave);  // no Escape key on a phone
  showKeyboard(false);  // until a prompt wants letters (the targets say so), or the Keys button is pressed
})();

// A word to the table (games/host/talk.py): the lines heard, shown as text only (textContent, never
// markup), a line to say, quick phrases for touch, and muting a speaker (click their name).
"use strict";
(() => {
  const heard = document.getElementById("talk-heard");
  const form = document.getElementById("talk-say");
  const mutedList = document.getElementById("talk-muted");
  if (!heard || !form) return;
  const SHOWN = 6;  // lines on show, the latest last
  const say = message => { if (window.zxcardsTalk) window.zxcardsTalk(message); };

  function show(who, text, kind) {
    const item = document.createElement("li");
    if (kind) item.className = kind;
    if (who) {
      const name = document.createElement("button");
      name.type = "button";
      name.className = "who";
      name.textContent = who;
      name.title = `Mute ${who}`;
      name.addEventListener("click", () => say({mute: who}));
      item.append(name, " ");
    }
    item.append(document.createTextNode(text));
    heard.append(item);
    while (heard.children.length > SHOWN) heard.firstElementChild.remove();
  }

  window.addEventListener("zxcards-said", event => {
    const said = event.detail || {};
    if (typeof said.refused === "string") show("", said.refused, "refused");
    else if (Array.isArray(said.muted)) {
      mutedList.replaceChildren(...said.muted.map(name => {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = `unmute ${name}`;
        button.addEventListener("click", () => say({unmute: name}));
        return button;
      }));
    } else if (typeof said.who === "string" && typeof said.text === "string") show(said.who, said.text, "");
  });
  form.addEventListener("submit", event => {
    event.preventDefault();
    const line = form.elements.line;
    if (line.value.trim()) say({say: line.value});
    line.value = "";
  });
  for (const phrase of document.querySelectorAll("#talk-phrases .phrase")) {
    phrase.addEventListener("click", () => say({say: phrase.textContent}));
  }
})();

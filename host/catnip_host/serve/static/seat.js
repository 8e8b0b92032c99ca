// catnip serve: one phone seat's screen and buttons. The screen is the
// seat's station screen as the table drew it (8 rows; the lit spans shown
// inverse), from this seat's own event stream; a tap posts the button with
// this page's CSRF token. Every text goes in with textContent.
"use strict";

const $ = (id) => document.getElementById(id);
const csrf = document.querySelector('meta[name="csrf"]').content;
let stream = null;

function draw(view) {
  const screen = $("screen");
  const lines = [];
  view.rows.forEach((row, r) => {
    const line = document.createElement("span");
    line.className = "row";
    const spans = view.lit.filter((s) => s[0] === r).sort((a, b) => a[1] - b[1]);
    let at = 0;
    const text = row.padEnd(16, " ");
    for (const [, col, len] of spans) {
      if (col > at) line.append(text.slice(at, col));
      const lit = document.createElement("span");
      lit.className = "lit";
      lit.textContent = text.slice(Math.max(col, at), col + len);
      line.append(lit);
      at = Math.max(at, col + len);
    }
    line.append(text.slice(at));
    lines.push(line);
  });
  screen.replaceChildren(...lines);
  const link = $("link");
  link.textContent = view.table ? (view.rows.length ? "Your hand" : "Waiting for the table")
    : "The table is unplugged: your hand is back when it is";
  link.className = "link " + (view.table ? "up" : "down");
  $("why").textContent = view.why || "";
}

async function press(button, hold) {
  const answer = await fetch("/seat/press", { method: "POST", credentials: "same-origin",
    headers: { "content-type": "application/json", "x-catnip-csrf": csrf },
    body: JSON.stringify({ button, hold }) }).catch(() => null);
  if (!answer) {
    $("why").textContent = "The laptop cannot be reached: the tap was not sent";
  } else if (!answer.ok) {
    const body = await answer.json().catch(() => ({}));
    $("why").textContent = body.why || "Refused (" + answer.status + ")";
  }
}

function watch() {
  if (stream) return;
  stream = new EventSource("/seat/events");
  stream.onmessage = (e) => draw(JSON.parse(e.data));
  stream.addEventListener("released", () => {
    stream.close();
    location.assign("/seat");  // says this browser holds no seat now
  });
  stream.onerror = () => {
    const link = $("link");
    link.textContent = "The laptop cannot be reached: trying again";
    link.className = "link down";
  };
}

// A phone put away stops watching: the table shows the seat "away".
document.addEventListener("visibilitychange", () => {
  if (document.hidden && stream) { stream.close(); stream = null; } else if (!document.hidden) watch();
});
document.querySelectorAll("button[data-button]").forEach((b) => b.addEventListener("click",
  () => press(b.dataset.button, b.dataset.hold === "1")));
watch();

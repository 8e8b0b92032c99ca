// catnip serve: taking a phone seat. The join link's secret is in the
// fragment (after #), which the browser never sends to a server; this page
// posts it once, and the server binds the seat to this browser's cookie.
// Or the code the laptop shows, typed. Then on to the seat's own page.
"use strict";

const $ = (id) => document.getElementById(id);

async function join(secret) {
  $("why").textContent = "";
  let answer;
  try {
    answer = await fetch("/join", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ secret }), credentials: "same-origin" });
  } catch (e) {
    $("why").textContent = "The laptop cannot be reached: is this phone on its network?";
    return;
  }
  const body = await answer.json().catch(() => ({}));
  if (answer.ok && body.go) {
    history.replaceState(null, "", "/join");  // the spent secret leaves the address bar
    location.assign(body.go);
  } else {
    $("why").textContent = body.why || "Refused (" + answer.status + ")";
  }
}

function start() {
  const fragment = location.hash.slice(1);
  const dot = fragment.indexOf(".");
  if (dot > 0) {
    const seat = Number(fragment.slice(0, dot));
    $("who").textContent = "P" + (seat + 1);
    $("take").hidden = false;
    $("take-seat").addEventListener("click", () => join(fragment.slice(dot + 1)));
  }
  $("send-code").addEventListener("click", () => join($("code").value));
  $("code").addEventListener("keydown", (e) => { if (e.key === "Enter") join($("code").value); });
}

start();

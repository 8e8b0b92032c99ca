// catnip serve: the host's page of phone seats. On the laptop, or on a
// screen that typed the host code: releasing a seat posts it with this
// page's CSRF token, then shows the seat's new code. The laptop's page also
// signs the other screens out. A screen not let in yet types the code here.
"use strict";

const csrf = document.querySelector('meta[name="csrf"]');

function posting(body) {
  const headers = { "content-type": "application/json" };
  if (csrf) headers["x-catnip-csrf"] = csrf.content;
  return { method: "POST", credentials: "same-origin", headers, body: JSON.stringify(body) };
}

// What went wrong with a post (its answer pending), or null when it was done.
async function refused(pending) {
  try {
    const answer = await pending;
    const said = await answer.json().catch(() => ({}));
    return answer.ok ? null : (said.why || "Refused (" + answer.status + ")");
  } catch (e) {
    return "The laptop cannot be reached: is this screen on its network?";
  }
}

document.querySelectorAll("button[data-seat]").forEach((b) => b.addEventListener("click", async () => {
  const why = await refused(fetch("/host/release", posting({ seat: Number(b.dataset.seat) })));
  if (why === null) location.reload();
  else b.textContent = why;
}));

const out = document.getElementById("sign-out");
if (out) out.addEventListener("click", async () => {
  const why = await refused(fetch("/host/out", posting({})));
  if (why === null) location.reload();
  else out.textContent = why;
});

const code = document.getElementById("code");
async function sendCode() {
  const why = await refused(fetch("/host/join", posting({ code: code.value })));
  if (why === null) location.assign("/host");
  else document.getElementById("why").textContent = why;
}
if (code) {
  document.getElementById("send-code").addEventListener("click", sendCode);
  code.addEventListener("keydown", (e) => { if (e.key === "Enter") sendCode(); });
}

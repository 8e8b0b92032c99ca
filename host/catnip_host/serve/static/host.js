// catnip serve: the host's page of phone seats (this computer only):
// releasing a seat posts it with this page's CSRF token, then shows the
// seat's new code.
"use strict";

const csrf = document.querySelector('meta[name="csrf"]');
document.querySelectorAll("button[data-seat]").forEach((b) => b.addEventListener("click", async () => {
  const answer = await fetch("/host/release", { method: "POST", credentials: "same-origin",
    headers: { "content-type": "application/json", "x-catnip-csrf": csrf.content },
    body: JSON.stringify({ seat: Number(b.dataset.seat) }) });
  if (answer.ok) location.reload();
  else b.textContent = ((await answer.json().catch(() => ({}))).why || "Refused");
}));

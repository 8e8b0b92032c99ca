// catnip serve: a finished game move by move, drawn by live.js's render()
// from the moves the server embedded (its verified record, replayed).
"use strict";

function replay() {
  const data = JSON.parse(document.getElementById("moves").textContent);
  const game = document.getElementById("game");
  const title = document.createElement("p");  // the page keeps its own heading
  const moves = document.getElementById("move");
  const label = document.getElementById("at");
  moves.max = String(data.moves.length);
  const show = (k) => {
    k = Math.max(0, Math.min(data.moves.length, k));
    moves.value = String(k);
    const m = k ? data.moves[k - 1] : null;
    const state = {
      heard: true, game: data.game, title: data.title, moves: k,
      public: m ? m.public : data.start, players: data.players,
      standings: k === data.moves.length ? data.standings : null,
      feed: m ? m.said.map((said) => ({ n: k, ...said })) : [], notice: null, high_scores: [],
    };
    render(state, game, null, title);
    label.textContent = m ? "Move " + k + " of " + data.moves.length + ": " + seat(m.player) +
      " " + m.action.join(" ") + (m.said.length ? ": " + m.said.map((s) => s.text).join("; ") : "")
      : "Before the first move";
  };
  moves.addEventListener("input", () => show(Number(moves.value)));
  document.getElementById("back").addEventListener("click", () => show(Number(moves.value) - 1));
  document.getElementById("next").addEventListener("click", () => show(Number(moves.value) + 1));
  document.addEventListener("keydown", (e) => {
    const k = Number(moves.value);
    const to = { ArrowLeft: k - 1, ArrowRight: k + 1, Home: 0, End: data.moves.length }[e.key];
    if (to !== undefined && e.target !== moves) { show(to); e.preventDefault(); }
  });
  show(0);
}

replay();

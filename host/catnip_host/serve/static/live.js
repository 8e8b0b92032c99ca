// catnip serve: the table's public state, drawn from the server's event
// stream. Every text goes in with textContent: nothing from the wire is
// ever read as HTML. Icons are inline SVG, so no emoji font is needed.
// What a player needs at a glance (whose turn, the standings, the open
// offers) carries the class "need": the page is laid out to keep those on
// the screen, from a phone to a TV (tests/test_serve_fit.py measures it).
"use strict";

const GEMS = ["red", "yellow", "blue", "rocks"];

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function add(parent, ...children) {
  for (const c of children) if (c) parent.appendChild(c);
  return parent;
}

const plural = (n, word) => n + " " + word + (n === 1 ? "" : "s");

// ---- icons -------------------------------------------------------------------------

// The SVG namespace, as the HTML parser gives it to an <svg> element (the
// page names no address, not even a namespace's).
const SVG = new DOMParser().parseFromString("<svg></svg>", "text/html")
  .querySelector("svg").namespaceURI;
const SHAPES = {  // on a 24 x 24 grid
  paw: [["ellipse", { cx: 12, cy: 16, rx: 5.5, ry: 4.5 }], ["circle", { cx: 5, cy: 10, r: 2.3 }],
    ["circle", { cx: 9.5, cy: 5.5, r: 2.3 }], ["circle", { cx: 14.5, cy: 5.5, r: 2.3 }],
    ["circle", { cx: 19, cy: 10, r: 2.3 }]],
  gem: [["polygon", { points: "12,2 21,10 12,22 3,10" }]],
  rock: [["circle", { cx: 12, cy: 13, r: 8 }]],
  check: [["polyline", { points: "4,13 10,19 20,5", fill: "none", "stroke-width": 3.5 }]],
};

function icon(shape, cls, label) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "icon " + (cls || shape));
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  for (const [tag, attrs] of SHAPES[shape]) {
    const part = document.createElementNS(SVG, tag);
    for (const k in attrs) part.setAttribute(k, String(attrs[k]));
    svg.appendChild(part);
  }
  return svg;
}

function table(head, rows, turn = () => false) {
  const t = el("table");
  const hr = el("tr");
  head.forEach((h) => add(hr, el("th", typeof h === "object" ? h.cls : "", h.text ?? h)));
  const body = el("tbody");
  add(t, add(el("thead"), hr), body);
  rows.forEach((cells, i) => {
    const tr = el("tr", turn(i) ? "turn" : "");
    body.appendChild(tr);
    cells.forEach((c, k) => {
      const td = el("td", typeof head[k] === "object" ? head[k].cls : "");
      if (c instanceof Node) td.appendChild(c); else td.textContent = String(c);
      tr.appendChild(td);
    });
  });
  return t;
}

const need = (e) => { e.classList.add("need"); return e; };

// Gems as coloured marks and their counts: "2 red" would not fit a phone's row.
function gems(counts) {
  const span = el("span", "gems");
  counts.forEach((n, i) => {
    if (n) add(span, add(el("span", "gem"), icon(i < 3 ? "gem" : "rock", "gem-" + GEMS[i], GEMS[i]),
      document.createTextNode(String(n))));
  });
  if (!span.childNodes.length) span.textContent = "–";
  return span;
}

function paws(n) {
  const span = el("span", "paws");
  for (let k = 0; k < Math.min(n, 9); k++) add(span, icon("paw", "", "pawprint"));
  return add(span, el("span", "count", n));
}

// ---- the feed, in the laptop's words (catnip_host/words.py) -------------------

let players = [];  // each seat's label (P1 or its name), from the newest state
const seat = (p) => players[p] || "?";
const seats = (ps) => ps.map(seat).join(", ");
const sayItem = (item) => (item.n ? "Move " + item.n + ": " : "") + item.text;

// ---- each title ----------------------------------------------------------------

function heistTurn(v) {
  if (v.phase === "gems") return seat(v.start) + " enters the gems drawn";
  if (v.phase === "play") return "Waiting for " + seats(v.to_act || []) + " to play";
  if (v.phase === "reveal") return seat(v.turn) + " reveals next";
  return "";
}

function heist(v, out) {
  add(out, need(el("p", "big", heistTurn(v))),
    el("p", "", "Round " + v.round + " of " + v.rounds + " · safe card " + v.safe_card + " · " +
      plural(v.safe_cards_left, "safe card") + " left · " + plural(v.cards_per_round, "card") +
      " each"),
    add(el("p", "pair"), add(el("span"), el("span", "dim", "Safe "), gems(v.safe)),
      add(el("span"), el("span", "dim", "Bag "), gems(v.bag))));
  const shown = (p) => (v.table || []).filter(([q]) => q === p).map(([, card]) => card).join(" ");
  const rows = v.seats.map((s, p) => [seat(p), s.committed ? icon("check", "", "played") : "",
    s.hand, shown(p), gems(s.loot)]);
  const acting = (p) => (v.phase === "play" ? (v.to_act || []).includes(p) : v.turn === p);
  add(out, need(table(["", { text: "played", cls: "c" }, { text: "cards", cls: "n" },
    { text: "shown", cls: "n" }, "holds"], rows, acting)));
}

// The tray's word on the attempt in play, as the player's station shows it.
function trayWords(t) {
  const v = t.value, sure = ", " + t.conf + "% sure";
  if (t.proposes === "place") return "The tray saw " + plural(v, "cat") + " placed" + sure;
  if (t.proposes === "collapse") {
    return t.conf ? "The tray saw " + plural(v, "cat") + " fall" + sure :
      "The tray asks how many fell" + (v ? " (" + v + " or more?)" : "");
  }
  if (t.proposes === "cats") return "The tray asks how many cats are on it (" + v + "?)";
  return "The tray has nothing to propose yet";
}

// [r, x, y]: thousandths of the way to the edge of the support, x to the
// right, y to the back.
function leanWords([r, x, y]) {
  if (r < 50) return "centred";
  const side = 3 * x > r ? "right" : 3 * x < -r ? "left" : "";
  const end = 3 * y > r ? "back" : 3 * y < -r ? "front" : "";
  return Math.floor(r / 10) + "% to the " + [side, end].filter(Boolean).join("-") +
    (r > 1000 ? " (past the edge)" : "");
}

// The support seen from above (its edge is the square between the cells),
// the tower's weight a dot: green near the middle, then yellow, then red.
function gauge(lean) {
  const [r, x, y] = lean, clamp = (n) => Math.max(-1150, Math.min(1150, n));
  const level = r < 500 ? "calm" : r < 800 ? "wary" : "tipping";
  const g = el("div", "gauge " + level);
  g.setAttribute("role", "img");
  g.setAttribute("aria-label", "Lean " + leanWords(lean));
  const dot = el("div", "dot");
  dot.dataset.x = clamp(x);
  dot.dataset.y = clamp(y);
  dot.style.left = (50 + clamp(x) / 24) + "%";  // the gauge spans -1200 to 1200
  dot.style.top = (50 - clamp(y) / 24) + "%";
  return add(g, el("div", "edge"), el("div", "ring"), dot);
}

function tray(t, out) {
  if (!t) return;
  add(out, el("h2", "", "The tray"));
  add(out, el("p", "big tray-says", trayWords(t)));
  if (t.lean) add(out, add(el("div", "lean"), gauge(t.lean), el("p", "big", "Lean " + leanWords(t.lean))));
  if (t.fault) add(out, el("p", "notice", "Tray: " + t.fault));
}

function stack(v, out, state) {
  // The tower, its turn and the scores; the tray beside them where the
  // screen is wide (a TV), under them on a phone.
  const tower = el("div"), side = el("div");
  add(out, add(el("div", "beside"), tower, side));
  add(tower, add(el("p", "tower"), el("span", "huge", v.tower), el("span", "dim", " cats high")),
    el("p", "", plural(v.tower_black, "black cat") + " in it · " + v.fallen + " fallen · " +
      v.bag_left + " in the bag"));
  if (v.turn !== null) {
    add(tower, need(el("p", "big", seat(v.turn) + " to " + v.step + (v.hand ? " (" + v.hand + " cat)" : ""))));
  }
  if ("team" in v) {
    add(tower, need(el("p", "big", "The Clowder's score: " + v.team)));
    colonnade(v, state.high_scores || [], out);
  } else {
    add(tower, need(table(["", { text: "points", cls: "n" }],
      v.scores.map((s, p) => [seat(p), s]), (p) => p === v.turn)));
  }
  tray(state.tray, side);
  if (!side.childNodes.length) side.remove();
}

function colonnade(v, best, out) {
  add(out, el("h2", "", "Colonnade of Competent Clowders"));
  if (!best.length) {
    add(out, el("p", "dim", "No Clowder game stored yet"));
    return;
  }
  add(out, table([{ text: "rank", cls: "n" }, "clowder", { text: "score", cls: "n" }],
    best.map(([rank, names, score]) => [rank, names.join(", "), score])));
  const beats = best.filter(([, , score]) => v.team > score).length;
  add(out, el("p", "", beats ? "Now above " + plural(beats, "stored score") :
    "Not on the table yet: " + best[best.length - 1][2] + " is the lowest kept"));
}

// The feed's lines since the last round ended: this round's swaps.
function thisRound(feed, kind) {
  let from = 0;
  feed.forEach((item, i) => { if (item.kind === "round over") from = i + 1; });
  return feed.slice(from).filter((item) => item.kind === kind);
}

function purrfect(v, out, state) {
  const offers = v.offers || [];
  add(out, need(el("p", "big", "Round " + v.round + (v.offers ? ": offer, swap or declare" :
    ": the cards are on the table (scorekeeper)"))));
  const open = (p) => offers.filter((o) => o.player === p).map((o) => o.meow).join(" · ");
  const head = ["", { text: "pawprints (5 win)", cls: "c" }].concat(v.offers ? ["open offers"] : []);
  add(out, need(table(head, v.pawprints.map((n, p) => [seat(p), paws(n)].concat(
    v.offers ? [open(p)] : [])))));
  if (v.offers && !offers.length) add(out, need(el("p", "dim", "No open offers")));
  add(out, el("p", "meows", v.meows.map((m, k) => plural(k + 1, "card") + ": " + m[0]).join(" · ")));
  const swaps = thisRound(state.feed, "swap").slice(-3).reverse();
  if (swaps.length) {
    add(out, el("h2", "", "Swaps this round"));
    add(out, add(el("ul", "plain swaps"), ...swaps.map((i) => el("li", "", i.text))));
  }
}

// The end: the winner and the standings in place of the game in play.
function standings(said, out) {
  add(out, need(el("p", "big", "Game over: " + said.end)));
  add(out, el("h2", "", "Standings"));
  if (said.head.length) {
    add(out, need(table(said.head.map((h, k) => (k === 0 || k === 2 ? { text: h, cls: "n" } : h)),
      said.rows, (i) => said.rows[i][0] === "1")));
  }
}

const DRAW = { heist, stack, purrfect };

// ---- the page --------------------------------------------------------------------

// Each part is drawn whole into a detached fragment, then the page's nodes
// are brought to it in place: only a text or an attribute that differs is
// written, so a move costs the browser the layout and paint of what it
// changed, not of the whole page.
function same(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName;
}

// Styles go through the style object: the content security policy refuses
// a style attribute written as text.
function attributes(into, from) {
  for (const a of Array.from(into.attributes)) {
    if (a.name !== "style" && !from.hasAttribute(a.name)) into.removeAttribute(a.name);
  }
  for (const a of Array.from(from.attributes)) {
    if (a.name !== "style" && into.getAttribute(a.name) !== a.value) {
      into.setAttribute(a.name, a.value);
    }
  }
  if (!from.hasAttribute("style") && !into.hasAttribute("style")) return;  // most nodes
  const want = from.style, have = into.style;
  for (const name of Array.from(have)) {
    if (!want.getPropertyValue(name)) have.removeProperty(name);
  }
  for (const name of Array.from(want)) {
    const value = want.getPropertyValue(name);
    if (have.getPropertyValue(name) !== value) have.setProperty(name, value);
  }
}

function morph(into, from) {
  const next = Array.from(from.childNodes);
  next.forEach((n, i) => {
    let old = into.childNodes[i];
    if (old && !same(old, n)) old = null;
    if (!old) {
      into.insertBefore(n, into.childNodes[i] || null);
      return;
    }
    if (n.nodeType === 1) {
      attributes(old, n);
      morph(old, n);
    } else if (old.nodeValue !== n.nodeValue) {
      old.nodeValue = n.nodeValue;
    }
  });
  while (into.childNodes.length > next.length) into.removeChild(into.lastChild);
}

const setText = (e, text) => { if (e.textContent !== text) e.textContent = text; };

// What each part of the page is drawn from: a part is drawn again only when
// its key changes (a move's events and its new state come as two messages).
const gameKey = (state) => JSON.stringify([state.heard, state.game, state.public, state.players,
  state.standings, state.notice, state.high_scores, state.tray, state.game === "purrfect" ? state.feed : null]);
const feedKey = (state) => JSON.stringify(state.feed);

function drawGame(state, game) {
  const out = document.createDocumentFragment();
  players = state.players || [];
  if (!state.heard) {
    add(out, el("p", "big", "Waiting for the table."));
  } else if (!state.game) {
    add(out, el("p", "big", "No game in play: choose one on any station."));
  } else if (state.standings) {
    standings(state.standings, out);
  } else {
    (DRAW[state.game] || ((v, o) => add(o, el("pre", "", JSON.stringify(v, null, 1)))))(
      state.public, out, state);
  }
  if (state.notice) add(out, el("p", "notice", state.notice));
  morph(game, out);
}

// The feed's lines keep their place as newer ones come: each is keyed by
// its position in the whole evening's feed (the state says how many lines
// were ever told). Only the new lines are made (a move adds one or a few, at
// the top), and only a line that is no longer said is taken away.
function drawFeed(state, feed) {
  const first = (state.told || state.feed.length) - state.feed.length;
  const keep = new Set(state.feed.map((_, i) => String(first + i)));
  const shown = new Map();
  for (const li of Array.from(feed.childNodes)) {
    const k = li.nodeType === 1 && li.getAttribute("data-k");
    if (k && keep.has(k) && !shown.has(k)) shown.set(k, li); else li.remove();
  }
  let above = null;  // the line drawn just before, one older
  state.feed.forEach((item, i) => {
    const k = String(first + i), text = sayItem(item);
    let li = shown.get(k);
    if (li) {
      setText(li, text);
    } else {
      li = el("li", "", text);
      li.setAttribute("data-k", k);
    }
    if (above ? li.nextSibling !== above : li !== feed.lastChild) feed.insertBefore(li, above);
    above = li;
  });
}

function drawTitle(state, title) {
  setText(title, !state.game ? "catnip" :
    state.title + (state.moves ? ", move " + state.moves : ""));
}

function render(state, game, feed, title) {
  drawTitle(state, title);
  drawGame(state, game);
  if (feed) drawFeed(state, feed);
}

function showLink(link, up, text) {
  const cls = "link " + (up ? "up" : "down");
  if (link.className !== cls) link.className = cls;
  setText(link, text);
}

// In a player's words: whether the table is heard, never the port's name.
function linkText(state) {
  if (state.connected) return "Connected to the table";
  if (!state.heard) return "Waiting for the table";
  return "The table is unplugged: this is the last state heard";
}

function follow() {
  const game = document.getElementById("game");
  const feed = document.getElementById("feed");
  const title = document.getElementById("title");
  const link = document.getElementById("link");
  window.catnipShown = [];  // [state number, heard, drawn] in ms since the epoch: what `make bench` reads
  const drawn = {};
  const source = new EventSource("/events");
  source.onmessage = (m) => {
    const heard = Date.now();
    const state = JSON.parse(m.data);
    drawTitle(state, title);
    const keys = { game: gameKey(state), feed: feedKey(state) };
    if (keys.game !== drawn.game) drawGame(state, game);
    if (keys.feed !== drawn.feed) drawFeed(state, feed);
    Object.assign(drawn, keys);
    showLink(link, state.connected, linkText(state));
    const shown = window.catnipShown;
    shown.push([Number(m.lastEventId), heard, Date.now()]);
    if (shown.length > 1000) shown.splice(0, 500);
  };
  source.onerror = () => showLink(link, false,
    "The laptop is not answering: trying again");
}

if (document.getElementById("feed")) follow();

// The board page: collect an expert's moves, or explore the generator's
// bitboards (Play mode is in play.js, Review in review.js). All chess logic is on the server;
// this file draws and asks.
"use strict";

const GLYPH = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F\uFE0E" };
// White pieces: the outline glyph drawn over the filled one, filled white.
const OUTLINE = { k: "\u2654", q: "\u2655", r: "\u2656", b: "\u2657", n: "\u2658", p: "\u2659\uFE0E" };
function glyph(piece) {
  const kind = piece.toLowerCase();
  return piece === kind ? GLYPH[kind] : OUTLINE[kind];
}
const NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };
const $ = (id) => document.getElementById(id);
// What other modes' scripts add: per mode, the id of the list its claims
// are shown in (`claims`) and what to do on entering it (`enter`).
const modeHooks = {};

const state = {
  pos: null,        // the /api/position reply
  mode: "collect",
  flipped: false,
  claims: [],       // UCI strings in the order entered
  selected: null,   // square index picked by a click
  overlay: "none",
  targetsOf: null,  // square whose legal targets are shown
  timer: null,      // { end, handle }
  casesFile: null,
  finished: null,   // the last /api/compare reply
};

function pieceName(square) {
  const piece = state.pos.board[sqIndex(square)];
  return piece ? NAMES[piece.toLowerCase()] : "piece";
}
function sqName(i) { return "abcdefgh"[i % 8] + (Math.floor(i / 8) + 1); }
function sqIndex(name) { return "abcdefgh".indexOf(name[0]) + 8 * (Number(name[1]) - 1); }
function bits(hex) { return BigInt(hex); }
function has(bb, i) { return ((bb >> BigInt(i)) & 1n) === 1n; }

async function api(path, options) {
  let res;
  try {
    res = await fetch(path, options);
  } catch (e) {
    // No reply at all: the server is down or the network is.
    setOnline(false);
    throw new Error("the server is unreachable");
  }
  setOnline(true);
  const body = await res.json();
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}

// Whether the server answers. A request without a reply, or an event
// stream that lost its server, shows the notice; the page then asks every
// few seconds until the server answers again. Modes hear of each change
// through their `online` hook (Play stops its clocks while offline).
const link = { online: true, probe: null, started: false };

function setOnline(online) {
  if (link.online === online) return;
  link.online = online;
  // The server was down when the page opened: start it afresh.
  if (online && !link.started) {
    window.location.reload();
    return;
  }
  $("offline").hidden = online;
  clearInterval(link.probe);
  link.probe = online ? null : setInterval(probe, 3000);
  for (const hook of Object.values(modeHooks)) if (hook.online) hook.online(online);
}

async function probe() {
  try {
    const res = await fetch("/api/config");
    if (res.ok) setOnline(true);
  } catch (e) {
    // Still unreachable: the next probe asks again.
  }
}

function showError(text) { $("error").textContent = text || ""; }

// ---- position ----------------------------------------------------------

async function loadFen(fen) {
  try {
    const pos = await api("/api/position?fen=" + encodeURIComponent(fen.trim()));
    setPosition(pos);
    showError("");
  } catch (e) {
    // The old position stays; the message is the server's typed FEN error.
    showError("Bad FEN: " + e.message);
  }
}

function setPosition(pos) {
  state.pos = pos;
  state.claims = [];
  state.selected = null;
  state.targetsOf = null;
  state.finished = null;
  state.flipped = pos.side === "b";
  stopTimer();
  $("fen").value = pos.fen;
  $("results").hidden = true;
  $("save-status").textContent = "";
  $("divide-out").textContent = "";
  $("divide-out").hidden = true;
  const url = new URL(window.location.href);
  url.searchParams.set("fen", pos.fen);
  history.replaceState(null, "", url);
  render();
}

function statusLine(pos) {
  const side = pos.side === "w" ? "White" : "Black";
  const castling = pos.castling === "-" ? "no castling rights" : `castling ${pos.castling}`;
  const parts = [`<b>${side} to move</b>`, castling,
    `en passant ${pos.en_passant || "\u2013"}`];
  if (pos.chess960) parts.push("Chess960");
  let text = parts.join(" \u00b7 ");
  if (pos.status === "check") text += ' \u00b7 <span class="check">check</span>';
  if (pos.status === "checkmate") text += ' \u00b7 <span class="check">checkmate</span>';
  if (pos.status === "stalemate") text += " \u00b7 stalemate";
  return text;
}

// ---- board --------------------------------------------------------------

function squareOrder() {
  const order = [];
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const rank = state.flipped ? row : 7 - row;
      const file = state.flipped ? 7 - col : col;
      order.push(rank * 8 + file);
    }
  }
  return order;
}

function overlaySets() {
  const pos = state.pos;
  if (state.mode === "play") return playOverlay();
  if (state.mode !== "explore" || state.overlay === "none") return null;
  const b = pos.bitboards;
  switch (state.overlay) {
    case "pins":
      return { title: "Pinned pieces (blue frame) and pin rays (orange): a pinned piece may only move along its ray",
        sets: [["pinned", bits(b.pinned)], ["pin rays", bits(b.pin_rays)]],
        note: pos.pins.length ? pos.pins.map((p) => `the ${pieceName(p.pinned)} on ${p.pinned} is pinned by the ${pieceName(p.pinner)} on ${p.pinner}`).join("; ")
          : "no piece of the side to move is pinned" };
    case "targets": {
      if (state.targetsOf === null) {
        return { title: "Click a piece of the side to move", sets: [["targets", 0n]], note: "" };
      }
      const name = sqName(state.targetsOf);
      const hex = pos.targets[name] || "0x0000000000000000";
      return { title: `Legal targets of the piece on ${name}`, sets: [["targets", bits(hex)]],
        note: hex === "0x0000000000000000" ? "no legal move" : "" };
    }
    case "check_mask":
      return { title: "Check mask: where a piece other than the king may move",
        sets: [["check mask", bits(b.check_mask)]],
        note: pos.status === "check" || pos.status === "checkmate"
          ? "block the line or capture the checker (empty in double check)"
          : "not in check: every square (all 64 bits set)" };
    default: {
      const label = document.querySelector(`input[value="${state.overlay}"]`).parentElement.textContent.trim();
      return { title: label, sets: [[label, bits(b[state.overlay])]], note: "" };
    }
  }
}

function render() {
  const pos = state.pos;
  if (!pos) return;
  document.body.classList.toggle("explore", state.mode === "explore");
  $("status").innerHTML = statusLine(pos);
  const overlay = overlaySets();
  const board = $("board");
  board.textContent = "";
  const checked = pos.status === "check" || pos.status === "checkmate";
  const king = pos.side === "w" ? "K" : "k";
  for (const i of squareOrder()) {
    const div = document.createElement("div");
    const light = (Math.floor(i / 8) + i) % 2 === 1;
    div.className = "sq " + (light ? "light" : "dark");
    div.dataset.sq = sqName(i);
    const piece = pos.board[i];
    if (piece) {
      const span = document.createElement("span");
      const white = piece === piece.toUpperCase();
      span.className = "piece " + (white ? "w" : "b");
      span.textContent = GLYPH[piece.toLowerCase()];
      if (white) span.dataset.outline = OUTLINE[piece.toLowerCase()];
      span.title = (white ? "white " : "black ") + NAMES[piece.toLowerCase()];
      div.appendChild(span);
      if (checked && piece === king) div.classList.add("checked");
    }
    if (pos.en_passant === sqName(i)) div.classList.add("ep");
    const bit = document.createElement("span");
    bit.className = "bit";
    bit.textContent = i;
    div.appendChild(bit);
    if (overlay) {
      const two = overlay.sets.length > 1;
      if (has(overlay.sets[0][1], i)) div.classList.add(two ? "frame" : "on");
      if (two && has(overlay.sets[1][1], i)) div.classList.add("on2");
    }
    const clicked = state.mode === "explore" && state.overlay === "targets" && state.targetsOf === i;
    if (state.selected === i || clicked) div.classList.add("selected");
    board.appendChild(div);
  }
  const files = state.flipped ? "hgfedcba" : "abcdefgh";
  $("files").innerHTML = [...files].map((f) => `<span>${f}</span>`).join("");
  $("ranks").innerHTML = [...(state.flipped ? "12345678" : "87654321")].map((r) => `<span>${r}</span>`).join("");
  renderClaims();
  renderBitboard(overlay);
  if (state.mode === "play") playDecorate(overlay);
  if (state.mode === "review") reviewDecorate();
  $("save").disabled = !state.casesFile;
  $("save").title = state.casesFile ? "append this case to " + state.casesFile
    : "start with engine gui --cases FILE to save cases";
}

function renderBitboard(overlay) {
  const values = $("bb-values");
  const grid = $("bb-grid");
  values.textContent = "";
  grid.textContent = "";
  if (!overlay) {
    $("bb-title").textContent = "Choose an overlay to see its bitboard.";
    return;
  }
  $("bb-title").textContent = overlay.title;
  overlay.sets.forEach(([name, bb], k) => {
    const line = document.createElement("div");
    line.className = "bb-line";
    const swatch = overlay.sets.length > 1 && k === 0 ? "frame" : k ? "on2" : "on";
    line.innerHTML = `<span class="swatch ${swatch}"></span>${name}: `;
    const code = document.createElement("code");
    code.className = "hex";
    code.dataset.name = name;
    code.textContent = "0x" + bb.toString(16).padStart(16, "0");
    line.appendChild(code);
    values.appendChild(line);
  });
  if (overlay.note) {
    const note = document.createElement("div");
    note.className = "help";
    note.textContent = overlay.note;
    values.appendChild(note);
  }
  for (const [name, bb] of overlay.sets) {
    const block = document.createElement("div");
    block.className = "bb-grid";
    block.setAttribute("aria-label", name + " as 8 by 8 bits");
    block.insertAdjacentHTML("beforeend", `<span class="grid-title">${name}</span>`);
    for (let rank = 7; rank >= 0; rank--) {
      block.insertAdjacentHTML("beforeend", `<span class="label">${rank + 1}</span>`);
      for (let file = 0; file < 8; file++) {
        const on = has(bb, rank * 8 + file);
        block.insertAdjacentHTML("beforeend", `<span class="${on ? "one" : ""}">${on ? 1 : 0}</span>`);
      }
    }
    block.insertAdjacentHTML("beforeend", '<span></span>' + [..."abcdefgh"].map((f) => `<span class="label">${f}</span>`).join(""));
    grid.appendChild(block);
  }
}

// ---- input: drag or click ----------------------------------------------

let drag = null;

function squareAt(x, y) {
  const el = document.elementFromPoint(x, y);
  const sq = el && el.closest(".sq");
  return sq ? sqIndex(sq.dataset.sq) : null;
}

function onPointerDown(ev) {
  const sq = ev.target.closest(".sq");
  if (!sq || ev.button !== 0) return;
  const i = sqIndex(sq.dataset.sq);
  ev.preventDefault();
  if (state.mode === "explore") {
    if (state.pos.board[i]) {
      state.targetsOf = i;
      state.overlay = "targets";
      document.querySelector('input[value="targets"]').checked = true;
      render();
    }
    return;
  }
  if (state.mode === "review") return;
  if (state.mode === "play" && !playMayMove()) return;
  if (state.selected !== null && state.selected !== i && !(state.mode === "play" && playOwn(i))) {
    const from = state.selected;
    state.selected = null;
    claim(from, i);
    return;
  }
  if (!state.pos.board[i] || (state.mode === "play" && !playOwn(i))) return;
  const ghost = document.createElement("span");
  ghost.id = "ghost";
  const piece = sq.querySelector(".piece");
  ghost.className = piece.className;
  ghost.textContent = piece.textContent;
  if (piece.dataset.outline) ghost.dataset.outline = piece.dataset.outline;
  ghost.style.left = ev.clientX + "px";
  ghost.style.top = ev.clientY + "px";
  document.body.appendChild(ghost);
  piece.style.opacity = "0.3";
  drag = { from: i, ghost, piece };
}

function onPointerMove(ev) {
  if (!drag) return;
  drag.ghost.style.left = ev.clientX + "px";
  drag.ghost.style.top = ev.clientY + "px";
}

function onPointerUp(ev) {
  if (!drag) return;
  const { from, ghost, piece } = drag;
  drag = null;
  ghost.remove();
  piece.style.opacity = "";
  const to = squareAt(ev.clientX, ev.clientY);
  if (to === null) return;
  if (to === from) {
    // A click: pick the piece, the next click names the target.
    state.selected = state.selected === from ? null : from;
    render();
    return;
  }
  claim(from, to);
}

function claim(from, to) {
  const play = state.mode === "play";
  if (!play && state.timer && Date.now() > state.timer.end) return;
  const piece = state.pos.board[from];
  if (!piece) return;
  const text = sqName(from) + sqName(to);
  const submit = play ? playMove : (move) => addClaim(move, to);
  const lastRank = piece === "P" ? to >= 56 : piece === "p" ? to < 8 : false;
  if (lastRank) {
    choosePromotion(piece === "P", (letter) => submit(text + letter));
  } else {
    submit(text);
  }
}

function addClaim(text, to) {
  if (state.claims.includes(text)) {
    showError(`${text} is already in your list`);
    render();
    return;
  }
  showError("");
  state.claims.push(text);
  state.finished = null;
  $("results").hidden = true;
  render();
  const sq = document.querySelector(`.sq[data-sq="${sqName(to)}"]`);
  if (sq) sq.classList.add("flash");
}

function choosePromotion(white, done) {
  const box = $("promo-choices");
  box.textContent = "";
  for (const letter of ["q", "r", "b", "n"]) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.piece = letter;
    b.title = NAMES[letter];
    b.innerHTML = `<span class="piece ${white ? "w" : "b"}"${white ? ` data-outline="${OUTLINE[letter]}"` : ""}>${GLYPH[letter]}</span>`;
    b.addEventListener("click", () => { $("promo").hidden = true; done(letter); });
    box.appendChild(b);
  }
  $("promo").hidden = false;
}

function describe(text) {
  const from = sqIndex(text.slice(0, 2));
  const to = sqIndex(text.slice(2, 4));
  const piece = state.pos && state.pos.board[from];
  // Moves are UCI text (squares and a promotion letter), safe as HTML.
  const safe = /^[a-h][1-8][a-h][1-8][nbrq]?$/.test(text) ? text : "?";
  // A legal move is shown in SAN with its UCI text beside it; SAN is made
  // of letters, digits and "x=+#-", so a checked one is safe as HTML too.
  const san = state.pos && state.pos.san && state.pos.san[text];
  if (san && /^[A-Za-z0-9x=+#-]+$/.test(san)) {
    const g = piece ? `<span class="g">${glyph(piece)}</span>` : "";
    return `${g}${san} <small class="uci">${safe}</small>`;
  }
  let label = piece ? `<span class="g">${glyph(piece)}</span>${safe}` : safe;
  const own = state.pos && state.pos.board[to];
  const castle = piece && piece.toLowerCase() === "k"
    && (Math.abs(from - to) === 2 && Math.floor(from / 8) === Math.floor(to / 8)
      || (own && own.toLowerCase() === "r" && (own === own.toUpperCase()) === (piece === "K")));
  if (castle) label += to > from ? " (O-O)" : " (O-O-O)";
  return label;
}

function renderClaims() {
  const list = $((modeHooks[state.mode] && modeHooks[state.mode].claims) || "claims");
  list.textContent = "";
  state.claims.forEach((c, k) => {
    const li = document.createElement("li");
    li.innerHTML = describe(c);
    li.dataset.move = c;
    if (k === state.claims.length - 1) li.className = "new";
    list.appendChild(li);
  });
  for (const count of document.querySelectorAll(".claim-count")) count.textContent = state.claims.length;
}

// ---- finish, save, timer -----------------------------------------------

async function finish() {
  const pos = state.pos;
  const query = `/api/compare?fen=${encodeURIComponent(pos.fen)}&moves=${state.claims.join(",")}`
    + (pos.chess960 ? "&chess960=1" : "");
  try {
    const r = await api(query);
    state.finished = r;
    stopTimer();
    showResults(r);
  } catch (e) {
    showError(e.message);
  }
}

function fillList(id, items) {
  const ul = $(id);
  ul.textContent = "";
  for (const item of items) {
    const li = document.createElement("li");
    if (typeof item === "string") {
      li.innerHTML = describe(item);
      li.dataset.move = item;
    } else {
      li.dataset.move = item.move;
      li.innerHTML = `<b></b>: <span class="reason"></span>`;
      li.querySelector("b").innerHTML = describe(item.move);
      li.querySelector(".reason").textContent = item.reason;
    }
    ul.appendChild(li);
  }
  $(id + "-count").textContent = items.length;
}

function showResults(r) {
  fillList("found", r.found);
  fillList("missed", r.missed);
  fillList("wrong", r.wrong);
  const legal = r.found.length + r.missed.length;
  const score = r.found.length - r.wrong.length;
  let text = `Found ${r.found.length} of ${legal} legal moves, ${r.wrong.length} wrong: score ${score}`;
  if (state.timerUsed) text += ` in a ${state.timerUsed} s challenge`;
  state.timerUsed = null;
  if (r.missed.length === 0 && r.wrong.length === 0) text += " \u2014 perfect!";
  $("score").textContent = text;
  $("results").hidden = false;
  const li = document.createElement("li");
  li.textContent = `${r.found.length} of ${legal} found, ${r.wrong.length} wrong \u2014 ${state.pos.fen}`;
  $("log").prepend(li);
}

async function save() {
  const status = $("save-status");
  status.className = "";
  try {
    const r = await api("/api/cases", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ fen: state.pos.fen, moves: state.claims, chess960: state.pos.chess960 }),
    });
    status.textContent = `Saved to ${r.file}: ${r.line}`;
  } catch (e) {
    status.className = "error";
    status.textContent = "Not saved: " + e.message;
  }
}

function stopTimer() {
  if (state.timer) clearInterval(state.timer.handle);
  state.timer = null;
  $("timer").textContent = "";
}

function startTimer() {
  const seconds = Math.max(10, Math.min(3600, Number($("seconds").value) || 60));
  state.claims = [];
  state.finished = null;
  $("results").hidden = true;
  stopTimer();
  const start = Date.now();
  state.timer = { end: start + seconds * 1000, handle: 0 };
  state.timerUsed = null;
  const tick = () => {
    const left = Math.max(0, Math.ceil((state.timer.end - Date.now()) / 1000));
    $("timer").textContent = `${left} s left`;
    if (left === 0 && state.timer.handle) {
      clearInterval(state.timer.handle);
      state.timer.handle = 0;
      state.timerUsed = seconds;
      finish();
    }
  };
  state.timer.handle = setInterval(tick, 250);
  tick();
  render();
}

async function divide() {
  const pos = state.pos;
  try {
    const r = await api(`/api/divide?fen=${encodeURIComponent(pos.fen)}&depth=${$("depth").value}`
      + (pos.chess960 ? "&chess960=1" : ""));
    $("divide-out").hidden = false;
    $("divide-out").textContent = r.moves.map(([m, n]) => `${m}: ${n}`).join("\n")
      + `\n\nNodes searched: ${r.nodes}`;
  } catch (e) {
    showError(e.message);
  }
}

// ---- bundled positions, modes, start -------------------------------------

// Pointing at a move in a list marks its two squares on the board.
function highlightMove(ev) {
  const li = ev.target.closest && ev.target.closest("li[data-move]");
  for (const sq of document.querySelectorAll(".sq.hl")) sq.classList.remove("hl");
  if (!li || ev.type === "mouseout") return;
  const move = li.dataset.move;
  for (const name of [move.slice(0, 2), move.slice(2, 4)]) {
    const sq = document.querySelector(`.sq[data-sq="${name}"]`);
    if (sq) sq.classList.add("hl");
  }
}

async function loadSuites() {
  const r = await api("/api/suites");
  const suite = $("suite");
  suite.innerHTML = '<option value="">Bundled positions\u2026</option>';
  r.suites.forEach((s, k) => suite.insertAdjacentHTML("beforeend", `<option value="${k}">${s.name} (${s.positions.length})</option>`));
  suite.addEventListener("change", () => {
    const s = r.suites[suite.value];
    const pick = $("suite-pos");
    pick.innerHTML = "";
    pick.hidden = !s;
    if (!s) return;
    s.positions.forEach((fen, k) => {
      const o = document.createElement("option");
      o.value = fen;
      o.textContent = `${k + 1}. ${fen}`;
      pick.appendChild(o);
    });
    loadFen(s.positions[0]);
  });
  $("suite-pos").addEventListener("change", () => loadFen($("suite-pos").value));
}

// Modes that draw their own game on the board.
const GAME_MODES = ["play", "review"];

function setMode(mode) {
  const leftPlay = GAME_MODES.includes(state.mode) && !GAME_MODES.includes(mode);
  state.mode = mode;
  state.selected = null;
  for (const panel of document.querySelectorAll("main > .panel")) panel.hidden = panel.id !== mode + "-panel";
  for (const button of document.querySelectorAll("#modes .mode")) button.classList.toggle("active", button.id === "mode-" + mode);
  document.body.dataset.mode = mode;
  $("position-panel").hidden = GAME_MODES.includes(mode);
  if (modeHooks[mode] && modeHooks[mode].enter) modeHooks[mode].enter();
  // Play and Review drew their own game on the board; the other modes go back to the FEN box's.
  if (leftPlay) loadFen($("fen").value);
  else render();
}

async function start() {
  $("board").addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  $("load-fen").addEventListener("click", () => loadFen($("fen").value));
  $("fen").addEventListener("keydown", (e) => { if (e.key === "Enter") loadFen($("fen").value); });
  $("random").addEventListener("click", async () => {
    try { setPosition(await api("/api/random?plies=" + (8 + Math.floor(Math.random() * 40)))); showError(""); } catch (e) { showError(e.message); }
  });
  $("flip").addEventListener("click", () => { state.flipped = !state.flipped; render(); });
  for (const button of document.querySelectorAll("#modes .mode")) {
    button.addEventListener("click", () => setMode(button.id.slice("mode-".length)));
  }
  $("undo").addEventListener("click", () => { state.claims.pop(); render(); });
  $("clear").addEventListener("click", () => { state.claims = []; $("results").hidden = true; render(); });
  $("finish").addEventListener("click", finish);
  for (const id of ["claims", "results"]) {
    $(id).addEventListener("mouseover", highlightMove);
    $(id).addEventListener("mouseout", highlightMove);
  }
  $("save").addEventListener("click", save);
  $("start-timer").addEventListener("click", startTimer);
  $("divide").addEventListener("click", divide);
  $("promo-cancel").addEventListener("click", () => { $("promo").hidden = true; });
  for (const input of document.querySelectorAll('input[name="overlay"]')) {
    input.addEventListener("change", () => { state.overlay = input.value; render(); });
  }
  const config = await api("/api/config");
  state.casesFile = config.cases_file;
  const params = new URLSearchParams(window.location.search);
  await loadFen(config.start_fen);
  const mode = params.get("mode");
  if (mode && /^[a-z]+$/.test(mode) && $("mode-" + mode)) setMode(mode);
  if (params.get("fen")) await loadFen(params.get("fen"));
  await loadSuites();
  if (params.get("mode") === "play") setMode("play");
  link.started = true;
}

// After every script: other modes register their hooks first.
document.addEventListener("DOMContentLoaded", () => start().catch((e) => showError(e.message)));

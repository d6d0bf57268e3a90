// Play mode: a game against the engine. The server keeps the game, the
// clock and the rules (legal moves, SAN, how a game ends); this file shows
// them, sends the person's moves, and listens for the server's pushed
// events (the engine's move, its clock starting, the end of the game).
"use strict";

const play = {
  game: null,       // the last /api/play/state reply
  fetched: 0,       // performance.now() when it arrived (for the clocks)
  seq: 0,           // only the latest request's reply is shown
  view: null,       // ply shown while looking back (null: the game)
  flip: false,      // the person turned the board round
  overlay: "none",
  source: null,     // the EventSource of this browser's game
  tick: 0,          // timer redrawing the clocks
  stopped: null,    // performance.now() when the server stopped answering
  formFor: null,    // the game whose settings the setup form shows
  starting: false,  // this page asked for a new game (its form is set)
};

const SIDE = { white: "White", black: "Black" };

function playLive() { return play.game && play.game.game !== null; }

// Whether the person may move a piece now.
function playMayMove() {
  const g = play.game;
  return playLive() && play.view === null && !g.end && !g.thinking
    && g.position.side === g.person[0];
}

// Whether square `i` holds one of the person's pieces.
function playOwn(i) {
  const piece = state.pos.board[i];
  if (!piece || !playLive()) return false;
  return (piece === piece.toUpperCase()) === (play.game.person === "white");
}

async function playRequest(path, body) {
  const seq = ++play.seq;
  const options = body === undefined ? undefined : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  try {
    const reply = await api(path, options);
    if (seq === play.seq) playShow(reply);
    // A first game brings a new session cookie: listen under it.
    if (path === "/api/play/new" || (playLive() && !play.source)) playListen();
    showError("");
  } catch (e) {
    if (path === "/api/play/new") play.starting = false;
    showError(e.message);
    render();
  }
}

modeHooks.play = { enter: () => playEnter(), online: playOnline };

// While the server does not answer, the clocks shown stand still; when it
// answers again, the game's state is asked for afresh.
function playOnline(online) {
  play.stopped = online ? null : performance.now();
  if (online && playLive() && state.mode === "play") playRequest("/api/play/state");
  else if (state.mode === "play") renderClocks();
}

function playEnter() {
  state.selected = null;
  playRequest("/api/play/state");
}

// The server pushes the game's state (every event carries all of it).
function playListen() {
  if (play.source) play.source.close();
  const source = new EventSource("/api/play/events");
  play.source = source;
  source.onopen = () => setOnline(true);
  source.onerror = () => {
    if (source.readyState === EventSource.CONNECTING) {
      // The connection is lost; the browser tries again on its own.
      setOnline(false);
      return;
    }
    // Refused (no game on this server, or too many streams): ask for the
    // state a little later, which listens again if there is a game.
    source.close();
    if (play.source === source) play.source = null;
    setTimeout(() => { if (!play.source) playRequest("/api/play/state"); }, 5000);
  };
  for (const name of ["state", "game", "move", "clock", "end"]) {
    play.source.addEventListener(name, (ev) => {
      const reply = JSON.parse(ev.data);
      if (!reply || reply.game === null) return;
      // In another mode the board is that mode's: keep the game for later
      // (entering Play asks for it again anyway).
      if (state.mode !== "play") {
        play.game = reply;
        return;
      }
      playShow(reply);
    });
  }
}

function playMove(uci) { playRequest("/api/play/move", { move: uci }); }

function playNew(ev) {
  ev.preventDefault();
  const body = {
    color: $("play-color").value,
    strength: $("play-strength").value,
    base: Number($("play-base").value) * 60,
    inc: Number($("play-inc").value),
  };
  if ($("play-from").value === "fen") body.fen = $("play-fen").value.trim();
  if ($("play-from").value === "960") body.chess960 = Number($("play-960").value);
  play.flip = false;
  play.starting = true;
  playRequest("/api/play/new", body);
}

function playShow(reply) {
  // A reply and a pushed event can cross: never go back to an older state.
  // `version` orders one server start's states; a state from another start
  // (the server restarted) is the newer one, whatever its version.
  const shown = play.game;
  if (shown && shown.game === reply.game && shown.server === reply.server
      && reply.version < shown.version) return;
  if (reply.game !== null) playForm(reply);
  // Looking back stays on its position while the game goes on.
  const same = play.game && play.game.game === reply.game;
  const looking = same && play.view !== null && play.view < reply.moves.length;
  play.game = reply;
  play.fetched = performance.now();
  if (!looking) play.view = null;
  $("play-game").hidden = !playLive();
  if (!playLive()) {
    render();
    return;
  }
  if (!looking) {
    state.pos = reply.position;
    state.selected = null;
  }
  render();
  renderPlayMoves();
  renderClocks();
}

// The setup form shows the running game's settings (after a reload, or a
// game started in another tab); a game started here keeps the form as set.
function playForm(g) {
  if (play.formFor === g.game) return;
  play.formFor = g.game;
  if (play.starting) {
    play.starting = false;
    return;
  }
  $("play-color").value = g.person;
  const strength = $("play-strength");
  if (![...strength.options].some((o) => o.value === g.strength)) {
    const option = document.createElement("option");
    option.value = g.strength;
    option.textContent = g.strength_label;
    strength.appendChild(option);
  }
  strength.value = g.strength;
  $("play-base").value = g.clock ? g.clock.base_ms / 60000 : 0;
  if (g.clock) $("play-inc").value = g.clock.inc_ms / 1000;
  const standard = g.start_fen === "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  $("play-from").value = standard ? "start" : "fen";
  if (!standard) $("play-fen").value = g.start_fen;
  $("play-fen").hidden = standard;
  $("play-960-box").hidden = true;
}

// The person's colour at the bottom, unless they flipped the board.
function playFlipped() { return (play.game.person === "black") !== play.flip; }

function playDecorate(overlay) {
  if (!playLive()) return;
  state.flipped = playFlipped();
  const g = play.game;
  const ply = play.view === null ? g.moves.length : play.view;
  const last = ply > 0 ? g.moves[ply - 1].uci : null;
  if (last) {
    for (const name of [last.slice(0, 2), last.slice(2, 4)]) {
      const sq = document.querySelector(`.sq[data-sq="${name}"]`);
      if (sq) sq.classList.add("last");
    }
  }
  $("play-overlay-note").textContent = overlay ? overlay.title + (overlay.note ? ": " + overlay.note : "") : "";
  $("play-status").innerHTML = playStatus();
  if (g.end && play.view === null) $("status").insertAdjacentHTML("beforeend", ` \u00b7 <b>game over: ${g.end.result}</b>`);
  $("play-undo").disabled = !!g.end && (g.end.reason === "time" || g.end.reason === "resignation");
  $("play-resign").disabled = !!g.end;
  $("play-review-game").hidden = !g.end;
  $("play-review").hidden = play.view === null;
}

function playStatus() {
  const g = play.game;
  const you = `You play ${SIDE[g.person]} against Pinmask (${g.strength_label})`;
  let now;
  if (g.end) {
    const winner = g.end.winner ? `${SIDE[g.end.winner]} wins` : "Draw";
    now = g.end.reason === "time" && !g.end.winner
      ? "<b>Draw (1/2-1/2): a flag fell, but the other side has only its king.</b>"
      : `<b>${winner} (${g.end.result}) by ${g.end.reason}.</b>`;
  } else if (g.waiting) {
    now = "<b>The engine waits for a free worker (its clock is stopped)\u2026</b>";
  } else if (g.thinking) {
    now = "<b>The engine is thinking\u2026</b>";
  } else {
    now = "<b>Your move.</b>";
  }
  if (g.engine) {
    const score = g.engine.mate !== undefined ? `mate ${g.engine.mate}` : `${g.engine.cp >= 0 ? "+" : ""}${(g.engine.cp / 100).toFixed(2)}`;
    now += ` <span class="help">Engine: depth ${g.engine.depth}, score ${score} (its view)</span>`;
  }
  if (g.engine_error) now += ` <span class="check">${g.engine_error}</span>`;
  return `${you}. ${now}`;
}

// The move list: numbered rows, each SAN clickable to look back.
function renderPlayMoves() {
  const g = play.game;
  const list = $("play-moves");
  list.textContent = "";
  let [number, side] = g.first_move;
  let row = null;
  g.moves.forEach((m, k) => {
    if (!row || side === "white") {
      row = document.createElement("li");
      row.value = number;
      if (side === "black") row.insertAdjacentHTML("beforeend", '<span class="san">\u2026</span>');
      list.appendChild(row);
    }
    const span = document.createElement("span");
    span.className = "san move";
    span.dataset.ply = k + 1;
    span.textContent = m.san;
    if ((play.view === null ? g.moves.length : play.view) === k + 1) span.classList.add("current");
    row.appendChild(span);
    if (side === "black") number += 1;
    side = side === "white" ? "black" : "white";
  });
  if (g.end) {
    const li = document.createElement("li");
    li.className = "result";
    li.textContent = g.end.result;
    list.appendChild(li);
  }
}

async function playView(ply) {
  const g = play.game;
  if (ply === g.moves.length) {
    playBack();
    return;
  }
  const fen = ply === 0 ? g.start_fen : g.moves[ply - 1].fen;
  try {
    const pos = await api("/api/position?fen=" + encodeURIComponent(fen) + (g.chess960 ? "&chess960=1" : ""));
    play.view = ply;
    state.pos = pos;
    state.selected = null;
    render();
    renderPlayMoves();
  } catch (e) {
    showError(e.message);
  }
}

function playBack() {
  play.view = null;
  state.pos = play.game.position;
  render();
  renderPlayMoves();
}

function clockText(ms) {
  const s = ms / 1000;
  if (s < 10) return s.toFixed(1);
  const whole = Math.floor(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

function renderClocks() {
  const g = play.game;
  if (!playLive()) return;
  const bottom = playFlipped() ? "black" : "white";
  const top = bottom === "white" ? "black" : "white";
  let expired = false;
  for (const [id, side] of [["clock-top", top], ["clock-bottom", bottom]]) {
    const box = $(id);
    const who = side === g.person ? "You" : "Pinmask";
    box.querySelector(".who").textContent = `${SIDE[side]} \u00b7 ${who}`;
    box.dataset.side = side;
    if (!g.clock) {
      box.querySelector(".time").textContent = "no clock";
      box.classList.remove("running", "low");
      continue;
    }
    let ms = g.clock[side + "_ms"];
    const running = g.clock.running === side;
    const now = play.stopped === null ? performance.now() : Math.max(play.stopped, play.fetched);
    if (running) ms = Math.max(0, ms - (now - play.fetched));
    expired = expired || (running && ms === 0);
    box.querySelector(".time").textContent = clockText(ms);
    box.classList.toggle("running", running && play.stopped === null);
    box.classList.toggle("low", ms < 10000);
  }
  // The server decides a flag fall; ask it once the shown time is out.
  if (expired && !g.end && !g.thinking && link.online) {
    g.thinking = true;
    playRequest("/api/play/state");
  }
}

function playOverlay() {
  const pos = state.pos;
  if (!playLive() || play.overlay === "none") return null;
  const b = pos.bitboards;
  const us = pos.side === "w" ? "white" : "black";
  const them = us === "white" ? "black" : "white";
  switch (play.overlay) {
    case "pins":
      return { title: "Pinned pieces (blue frame) and pin rays (orange)",
        sets: [["pinned", bits(b.pinned)], ["pin rays", bits(b.pin_rays)]],
        note: pos.pins.length ? pos.pins.map((p) => `the ${pieceName(p.pinned)} on ${p.pinned} is pinned by the ${pieceName(p.pinner)} on ${p.pinner}`).join("; ")
          : `no ${SIDE[us]} piece is pinned` };
    case "checkers":
      return { title: `Pieces giving check to ${SIDE[us]}`, sets: [["checkers", bits(b.checkers)]],
        note: pos.status === "check" || pos.status === "checkmate" ? "" : "not in check" };
    case "check_mask":
      return { title: "Check mask: where a piece other than the king may move",
        sets: [["check mask", bits(b.check_mask)]],
        note: pos.status === "check" || pos.status === "checkmate"
          ? "block the line or capture the checker" : "not in check: every square" };
    case "attacked_by_them":
      return { title: `Squares ${SIDE[them]} attacks (the ${SIDE[us]} king may not go there)`,
        sets: [["attacked", bits(b["attacked_by_" + them])]], note: "" };
    default:
      return { title: `Squares ${SIDE[us]} attacks`, sets: [["attacked", bits(b["attacked_by_" + us])]], note: "" };
  }
}

function playSetup() {
  $("play-setup").addEventListener("submit", playNew);
  $("play-from").addEventListener("change", () => {
    $("play-fen").hidden = $("play-from").value !== "fen";
    $("play-960-box").hidden = $("play-from").value !== "960";
    if ($("play-from").value === "960") $("play-960").value = Math.floor(Math.random() * 960);
    if (!$("play-fen").value) $("play-fen").value = $("fen").value;
  });
  $("play-undo").addEventListener("click", () => playRequest("/api/play/undo", {}));
  $("play-resign").addEventListener("click", () => {
    if (window.confirm("Resign this game?")) playRequest("/api/play/resign", {});
  });
  $("play-flip").addEventListener("click", () => {
    play.flip = !play.flip;
    render();
    renderClocks();
  });
  $("play-live").addEventListener("click", playBack);
  $("play-moves").addEventListener("click", (ev) => {
    const span = ev.target.closest(".move");
    if (span) playView(Number(span.dataset.ply));
  });
  $("play-overlay").addEventListener("change", () => {
    play.overlay = $("play-overlay").value;
    render();
  });
  // Left and right arrows step back and forward through the game.
  document.addEventListener("keydown", (ev) => {
    if (state.mode !== "play" || !playLive() || ev.target.closest("input, select, textarea")) return;
    const last = play.game.moves.length;
    const at = play.view === null ? last : play.view;
    const to = ev.key === "ArrowLeft" ? at - 1 : ev.key === "ArrowRight" ? at + 1 : null;
    if (to === null || to < 0 || to > last) return;
    ev.preventDefault();
    playView(to);
  });
  play.tick = setInterval(() => { if (state.mode === "play") renderClocks(); }, 100);
}

playSetup();

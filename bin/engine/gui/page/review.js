// Review mode: a game reviewed by the engine. The server reads the PGN,
// searches every position on the engine pool and pushes the review as it
// grows (each event carries all of it); this file draws the evaluation
// graph (an SVG of White's winning chances), the move list with the
// verdicts, and the position picked, with the better move as an arrow.
"use strict";

const review = {
  data: null,     // the last review state from the server
  source: null,   // its EventSource
  ply: 0,         // the position shown: 0 is the start, n follows move n
  fens: [],       // the FEN of each position
};

const GRAPH = { w: 600, h: 170, pad: 8 };  // pad: room for a mark at the edge
const SVG_NS = "http://www.w3.org/2000/svg";
const VERDICT_CLASS = { Blunder: "blunder", Mistake: "mistake", Inaccuracy: "inaccuracy" };

modeHooks.review = { enter: () => reviewEnter() };

function reviewEnter() {
  state.selected = null;
  if (review.data) reviewShowPly(review.ply);
}

async function reviewStart(pgn) {
  const depth = Number($("review-depth").value);
  try {
    const reply = await api("/api/review", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ pgn, depth }),
    });
    showError("");
    reviewListen(reply.id);
    reviewUpdate(reply);
    reviewShowPly(0);
  } catch (e) {
    showError(e.message);
  }
}

// Reviews the Play game of this browser (the session cookie names it).
async function reviewPlayGame() {
  try {
    const res = await fetch("/api/play/pgn");
    if (!res.ok) throw new Error((await res.json()).error || res.statusText);
    const pgn = await res.text();
    $("review-text").value = pgn;
    if (state.mode !== "review") setMode("review");
    await reviewStart(pgn);
  } catch (e) {
    showError(e.message);
  }
}

function reviewListen(id) {
  if (review.source) review.source.close();
  review.source = new EventSource("/api/review/events?id=" + encodeURIComponent(id));
  review.source.addEventListener("review", (ev) => {
    const data = JSON.parse(ev.data);
    if (review.data && data.id !== review.data.id) return;
    reviewUpdate(data);
    if (data.status !== "queued" && data.status !== "running") review.source.close();
  });
}

function reviewUpdate(data) {
  const fresh = !review.data || review.data.id !== data.id;
  review.data = data;
  if (fresh) review.ply = 0;
  review.fens = [data.start_fen, ...data.moves.map((m) => m.fen)];
  $("review-view").hidden = false;
  const running = data.status === "queued" || data.status === "running";
  $("review-stop").hidden = !running;
  const link = $("review-download");
  link.hidden = data.status !== "done";
  link.href = "/api/review/pgn?id=" + encodeURIComponent(data.id);
  $("review-status").innerHTML = reviewStatus(data);
  drawGraph();
  renderReviewMoves();
  reviewDetail();
  if (state.mode === "review") render();
}

function reviewStatus(d) {
  const t = d.tags || {};
  const who = `${t.White || "?"} \u2013 ${t.Black || "?"}${t.Result ? " " + t.Result : ""}`;
  const of = `${d.evals.length} of ${d.moves.length + 1} positions`;
  switch (d.status) {
    case "queued": return `${who}. <b>Waiting for a free engine worker\u2026</b>`;
    case "running": return `${who}. <b>Reviewing at depth ${d.depth}: ${of}\u2026</b>`;
    case "stopped": return `${who}. <b>Stopped</b> after ${of}.`;
    case "failed": return `${who}. <b>The review failed</b> (see the server's log).`;
    default: {
      const s = d.summary;
      const line = (name, p) => `${name}: ${p.inaccuracies} ?!, ${p.mistakes} ?, ${p.blunders} ??, accuracy ${Math.round(p.accuracy)}%`;
      return `${who}. <b>Done</b> (depth ${d.depth}). ${line("White", s.white)}; ${line("Black", s.black)}.`;
    }
  }
}

function verdictOf(ply) {
  const v = review.data && review.data.verdicts[ply - 1];
  return v && VERDICT_CLASS[v.verdict] ? v : null;
}

// The graph: x is the ply, y White's winning chances (top: White wins).
function graphPoint(ply, white) {
  const n = Math.max(1, review.data.moves.length);
  const x = GRAPH.pad + (ply / n) * (GRAPH.w - 2 * GRAPH.pad);
  const y = GRAPH.pad + (1 - white) * (GRAPH.h - 2 * GRAPH.pad);
  return [x, y];
}

function svg(name, attrs) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

function drawGraph() {
  const g = $("review-graph");
  g.textContent = "";
  const d = review.data;
  const mid = GRAPH.h / 2;
  g.appendChild(svg("rect", { x: 0, y: 0, width: GRAPH.w, height: GRAPH.h, fill: "#3b3a36" }));
  if (d.evals.length) {
    const pts = d.evals.map((e, ply) => graphPoint(ply, e.white));
    const last = pts[pts.length - 1];
    const area = [[pts[0][0], GRAPH.h], ...pts, [last[0], GRAPH.h]];
    g.appendChild(svg("polygon", { points: area.map((p) => p.join(",")).join(" "), fill: "#f4f2ee" }));
    g.appendChild(svg("polyline", { points: pts.map((p) => p.join(",")).join(" "), fill: "none", stroke: "#2a7ad8", "stroke-width": 2 }));
  }
  g.appendChild(svg("line", { x1: 0, y1: mid, x2: GRAPH.w, y2: mid, stroke: "#999", "stroke-dasharray": "4 3" }));
  const [cx] = graphPoint(review.ply, 0.5);
  g.appendChild(svg("line", { id: "review-cursor", x1: cx, y1: 0, x2: cx, y2: GRAPH.h, stroke: "#d2a000", "stroke-width": 2 }));
  d.evals.forEach((e, ply) => {
    const v = ply > 0 ? verdictOf(ply) : null;
    if (!v) return;
    const [x, y] = graphPoint(ply, e.white);
    const dot = svg("circle", { cx: x, cy: y, r: 6, class: "mark " + VERDICT_CLASS[v.verdict] });
    dot.dataset.ply = ply;
    const title = svg("title", {});
    title.textContent = `${moveLabel(ply)}${v.glyph} ${v.verdict}`;
    dot.appendChild(title);
    g.appendChild(dot);
  });
}

function moveLabel(ply) {
  const m = review.data.moves[ply - 1];
  const fen = review.data.start_fen.split(" ");
  const first = Number(fen[5] || 1) * 2 + (fen[1] === "b" ? 1 : 0);
  const half = first + ply - 1;
  const number = Math.floor(half / 2);
  return `${number}${m.side === "white" ? "." : "..."} ${m.san}`;
}

function renderReviewMoves() {
  const d = review.data;
  const list = $("review-moves");
  list.textContent = "";
  let row = null;
  d.moves.forEach((m, k) => {
    const ply = k + 1;
    if (!row || m.side === "white") {
      row = document.createElement("li");
      row.value = Number(moveLabel(ply).split(".")[0]);
      if (m.side === "black") row.insertAdjacentHTML("beforeend", '<span class="san">\u2026</span>');
      list.appendChild(row);
    }
    const span = document.createElement("span");
    span.className = "san move";
    span.dataset.ply = ply;
    span.textContent = m.san;
    const v = verdictOf(ply);
    if (v) {
      span.classList.add(VERDICT_CLASS[v.verdict]);
      const glyph = document.createElement("span");
      glyph.className = "glyph";
      glyph.textContent = v.glyph;
      span.appendChild(glyph);
      span.title = v.verdict;
    }
    if (ply === review.ply) span.classList.add("current");
    row.appendChild(span);
  });
}

function reviewDetail() {
  const d = review.data;
  const ply = review.ply;
  const e = d.evals[ply];
  const parts = [];
  if (ply === 0) parts.push("The start position.");
  else parts.push(`<b>${moveLabel(ply)}${verdictOf(ply) ? verdictOf(ply).glyph : ""}</b>`);
  const v = verdictOf(ply);
  const before = d.evals[ply - 1];
  if (v) {
    const best = before && before.best ? ` <b>${before.best.san}</b> was best (the arrow).` : "";
    parts.push(`${v.verdict}: the mover's winning chances fell by ${Math.round(v.drop * 100)} points.${best}`);
  }
  parts.push(e ? `Evaluation ${e.eval} (White's chances ${Math.round(e.white * 100)}%).` : "Not evaluated yet.");
  $("review-detail").innerHTML = parts.join(" ");
}

async function reviewShowPly(ply) {
  const d = review.data;
  if (!d || ply < 0 || ply > d.moves.length) return;
  try {
    const pos = await api("/api/position?fen=" + encodeURIComponent(review.fens[ply]) + (d.chess960 ? "&chess960=1" : ""));
    review.ply = ply;
    if (state.mode !== "review") return;
    state.pos = pos;
    state.selected = null;
    render();
    renderReviewMoves();
    drawGraph();
    reviewDetail();
    showError("");
  } catch (e) {
    showError(e.message);
  }
}

// Called by render(): the last move framed, the better move as an arrow.
function reviewDecorate() {
  const d = review.data;
  const board = $("board");
  if (!d) return;
  const ply = review.ply;
  if (ply > 0) {
    const uci = d.moves[ply - 1].uci;
    for (const name of [uci.slice(0, 2), uci.slice(2, 4)]) {
      const sq = document.querySelector(`.sq[data-sq="${name}"]`);
      if (sq) sq.classList.add("last");
    }
  }
  const before = ply > 0 ? d.evals[ply - 1] : null;
  if (!verdictOf(ply) || !before || !before.best) return;
  const best = before.best.uci;
  const layer = svg("svg", { id: "arrows", viewBox: "0 0 512 512" });
  const centre = (name) => {
    const file = name.charCodeAt(0) - 97;
    const rank = Number(name[1]) - 1;
    const col = state.flipped ? 7 - file : file;
    const row = state.flipped ? rank : 7 - rank;
    return [col * 64 + 32, row * 64 + 32];
  };
  const [x1, y1] = centre(best.slice(0, 2));
  const [x2, y2] = centre(best.slice(2, 4));
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  // Stop the shaft short of the head, the head's tip at the centre.
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  const head = 22;
  const [bx, by] = [x2 - ux * head, y2 - uy * head];
  const colour = "rgba(30, 150, 60, 0.8)";
  layer.appendChild(svg("line", { x1, y1, x2: bx, y2: by, stroke: colour, "stroke-width": 12, "stroke-linecap": "round" }));
  const [px, py] = [-uy * 14, ux * 14];
  layer.appendChild(svg("polygon", {
    points: `${x2},${y2} ${bx + px},${by + py} ${bx - px},${by - py}`, fill: colour,
  }));
  layer.dataset.move = best;
  board.appendChild(layer);
}

// A click on the graph picks the nearest position.
function graphClick(ev) {
  const d = review.data;
  if (!d) return;
  const dot = ev.target.closest("circle.mark");
  if (dot) {
    reviewShowPly(Number(dot.dataset.ply));
    return;
  }
  const box = $("review-graph").getBoundingClientRect();
  const x = ((ev.clientX - box.left) / box.width) * GRAPH.w;
  const n = Math.max(1, d.moves.length);
  const ply = Math.round(((x - GRAPH.pad) / (GRAPH.w - 2 * GRAPH.pad)) * n);
  reviewShowPly(Math.min(d.moves.length, Math.max(0, ply)));
}

function reviewSetup() {
  $("review-setup").addEventListener("submit", (ev) => {
    ev.preventDefault();
    reviewStart($("review-text").value);
  });
  $("review-file").addEventListener("change", async () => {
    const file = $("review-file").files[0];
    if (file) $("review-text").value = await file.text();
  });
  $("review-play").addEventListener("click", reviewPlayGame);
  $("play-review-game").addEventListener("click", reviewPlayGame);
  $("review-stop").addEventListener("click", async () => {
    if (!review.data) return;
    try {
      reviewUpdate(await api("/api/review/stop", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ id: review.data.id }),
      }));
    } catch (e) {
      showError(e.message);
    }
  });
  $("review-graph").addEventListener("click", graphClick);
  $("review-moves").addEventListener("click", (ev) => {
    const span = ev.target.closest(".move");
    if (span) reviewShowPly(Number(span.dataset.ply));
  });
  document.addEventListener("keydown", (ev) => {
    if (state.mode !== "review" || !review.data || ev.target.closest("input, select, textarea")) return;
    const to = ev.key === "ArrowLeft" ? review.ply - 1 : ev.key === "ArrowRight" ? review.ply + 1 : null;
    if (to === null) return;
    ev.preventDefault();
    reviewShowPly(to);
  });
}

reviewSetup();

// The crowd mode: join under a name, do the positions served, watch the
// leaderboard; and the organiser's tools. Everything from the network is
// shown with textContent, never as HTML.
"use strict";

const crowd = { me: null, task: null, k: 2, source: null, idle: null };

// What the page says when the server has no position for this expert
// (`why` from /api/crowd/next).
const NO_TASK = {
  empty: "No positions are loaded yet. The organiser adds them (Organiser, below: "
    + "Add suite or Add positions, with the token printed when the server started); "
    + "the first one appears here as soon as they do.",
  done: "You have done every open position: thank you! The others are still at "
    + "work on them; press Next position later for any the organiser adds.",
  settled: "Every position is settled (confirmed, flagged or closed): thank you! "
    + "New ones appear here when the organiser adds them.",
};

modeHooks.crowd = {
  claims: "crowd-claims",
  enter() {
    // Back in this mode: the board shows the task again.
    if (crowd.task && (!state.pos || state.pos.fen !== crowd.task.position.fen)) setPosition(crowd.task.position);
    refreshBoard();
    // The server pushes the leaderboard after every change.
    if (!crowd.source) {
      const source = new EventSource("/api/crowd/events");
      crowd.source = source;
      source.onopen = () => setOnline(true);
      source.onerror = () => {
        if (source.readyState === EventSource.CONNECTING) {
          setOnline(false);
          return;
        }
        // Refused (too many streams): listen again on the next visit.
        source.close();
        if (crowd.source === source) crowd.source = null;
      };
      crowd.source.addEventListener("leaderboard", (ev) => {
        const board = JSON.parse(ev.data);
        if (board) showBoard(board);
      });
    }
  },
};

// JSON (or text) from the crowd API; the expert's cookie goes along, the
// organiser's token as a bearer header.
async function crowdApi(path, { body, token } = {}) {
  const options = { method: body === undefined ? "GET" : "POST", headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  if (token) options.headers.Authorization = "Bearer " + token;
  let res;
  try {
    res = await fetch(path, options);
  } catch (e) {
    setOnline(false);
    throw new Error("the server is unreachable");
  }
  setOnline(true);
  const json = (res.headers.get("Content-Type") || "").startsWith("application/json");
  const data = json ? await res.json() : await res.text();
  if (!res.ok) throw new Error((json && data.error) || res.statusText);
  return data;
}

function cell(row, text) {
  const td = document.createElement("td");
  td.textContent = text;
  row.appendChild(td);
  return td;
}

function showMe() {
  $("crowd-join").hidden = !!crowd.me;
  $("crowd-work").hidden = !crowd.me;
  $("crowd-me").textContent = crowd.me ? crowd.me.name : "";
}

async function crowdJoin() {
  try {
    const r = await crowdApi("/api/crowd/join", { body: { name: $("crowd-name").value } });
    crowd.me = { id: r.id, name: r.name };
    showMe();
    showError("");
    await crowdNext();
  } catch (e) {
    showError("Not joined: " + e.message);
  }
}

async function crowdNext() {
  try {
    const r = await crowdApi("/api/crowd/next", { body: {} });
    crowd.task = r.task;
    $("crowd-result").textContent = "";
    crowd.idle = r.task ? null : r.why;
    if (!r.task) {
      $("crowd-task").textContent = NO_TASK[r.why] || "No position for you now.";
      $("crowd-submit").disabled = true;
      return;
    }
    setPosition(r.task.position);
    $("crowd-task").textContent = `Position ${r.task.id}: enter every legal move`;
    $("crowd-submit").disabled = false;
  } catch (e) {
    showError(e.message);
  }
}

async function crowdSubmit() {
  if (!crowd.task) return;
  try {
    const r = await crowdApi("/api/crowd/submit", { body: { task: crowd.task.id, moves: state.claims } });
    const s = r.score;
    $("crowd-result").textContent = `Position ${r.task}: ${s.found} found, ${s.missed} missed, ${s.wrong} wrong `
      + `(${s.points} ${Math.abs(s.points) === 1 ? "point" : "points"}). The position is now ${r.status}.`;
    $("crowd-submit").disabled = true;
    $("crowd-task").textContent = "Submitted. Press Next position.";
    crowd.task = null;
    await refreshBoard();
  } catch (e) {
    showError(e.message);
  }
}

async function refreshBoard() {
  try {
    showBoard(await crowdApi("/api/crowd/leaderboard"));
  } catch (e) {
    showError(e.message);
  }
}

function showBoard(r) {
  {
    crowd.k = r.agree;
    $("crowd-k").textContent = r.agree;
    const t = r.tasks;
    // Waiting for positions and the organiser has opened some: serve one.
    if (crowd.me && !crowd.task && t.open > 0 && (crowd.idle === "empty" || crowd.idle === "settled")) {
      crowd.idle = null;
      crowdNext();
    }
    $("crowd-counts").textContent = `Positions: ${t.open} open, ${t.confirmed} confirmed, ${t.flagged} flagged, ${t.closed} closed.`;
    const body = $("crowd-board").querySelector("tbody");
    body.textContent = "";
    for (const e of r.experts) {
      const row = document.createElement("tr");
      for (const v of [e.rank, e.name, e.points, e.tasks, e.found, e.missed, e.wrong, e.seconds.toFixed(1) + " s"]) cell(row, v);
      if (crowd.me && e.name === crowd.me.name) row.className = "me";
      body.appendChild(row);
    }
  }
}

// ---- organiser ----------------------------------------------------------

function orgToken() { return $("org-token").value.trim(); }

function orgStatus(text, error) {
  $("org-status").textContent = text;
  $("org-status").className = error ? "error" : "";
}

async function orgLoad(body) {
  try {
    const r = await crowdApi("/api/crowd/tasks", { body, token: orgToken() });
    orgStatus(`Added ${r.added} of ${r.given} positions (the rest were there already).`);
    await refreshBoard();
  } catch (e) {
    orgStatus("Not added: " + e.message, true);
  }
}

async function orgTasks() {
  try {
    const r = await crowdApi("/api/crowd/tasks", { token: orgToken() });
    const body = $("org-tasks").querySelector("tbody");
    body.textContent = "";
    for (const t of r.tasks) {
      const row = document.createElement("tr");
      row.className = t.status;
      for (const v of [t.id, t.status, t.submissions, t.agreeing]) cell(row, v);
      const what = cell(row, t.fen);
      for (const d of t.differences || []) {
        const line = document.createElement("div");
        line.className = "difference";
        line.textContent = `${d.move} (${d.crowd ? "crowd only" : "generator only"}): ${d.reason}`;
        what.appendChild(line);
      }
      const actions = cell(row, "");
      if (t.status === "open") {
        const close = document.createElement("button");
        close.type = "button";
        close.textContent = "Close";
        close.addEventListener("click", async () => {
          try {
            await crowdApi("/api/crowd/close", { body: { task: t.id }, token: orgToken() });
            await orgTasks();
          } catch (e) {
            orgStatus(e.message, true);
          }
        });
        actions.appendChild(close);
      }
      body.appendChild(row);
    }
    $("org-tasks").hidden = false;
    orgStatus(`${r.tasks.length} positions; agreement needs ${r.agree} experts.`);
  } catch (e) {
    orgStatus(e.message, true);
  }
}

async function orgExport() {
  try {
    const text = await crowdApi("/api/crowd/export", { token: orgToken() });
    $("org-export-out").textContent = text || "(nothing agreed yet)";
    $("org-export-out").hidden = false;
  } catch (e) {
    orgStatus(e.message, true);
  }
}

async function crowdStart() {
  $("crowd-join-button").addEventListener("click", crowdJoin);
  $("crowd-name").addEventListener("keydown", (e) => { if (e.key === "Enter") crowdJoin(); });
  $("crowd-next").addEventListener("click", crowdNext);
  $("crowd-submit").addEventListener("click", crowdSubmit);
  $("crowd-undo").addEventListener("click", () => { state.claims.pop(); render(); });
  $("crowd-clear").addEventListener("click", () => { state.claims = []; render(); });
  $("crowd-refresh").addEventListener("click", refreshBoard);
  $("org-load-suite").addEventListener("click", () => orgLoad({ suite: $("org-suite").value }));
  $("org-load-epd").addEventListener("click", () => orgLoad({ epd: $("org-epd").value }));
  $("org-file").addEventListener("change", async () => {
    const file = $("org-file").files[0];
    if (file) $("org-epd").value = await file.text();
  });
  $("org-tasks-button").addEventListener("click", orgTasks);
  $("org-export").addEventListener("click", orgExport);
  try {
    const r = await crowdApi("/api/crowd/me");
    crowd.me = r.expert;
    crowd.k = r.agree;
  } catch (e) {
    // A cookie from another database (or a forged one): join again.
    crowd.me = null;
    showError(e.message);
  }
  showMe();
}

document.addEventListener("DOMContentLoaded", () => crowdStart().catch((e) => showError(e.message)));

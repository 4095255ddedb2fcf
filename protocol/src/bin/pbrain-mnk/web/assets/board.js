// mnk's web board. The page holds the game (size, rule, moves, seats); the server checks
// positions, searches them and referees seated engines (see protocol/src/web/routes.rs).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

const state = {
  size: "15", width: 15, height: 15, rule: "freestyle",
  moves: [],          // pos notation, black first
  redo: [],           // moves taken back, next first
  seats: ["human", "mnk"],
  paused: false,
  editing: false,
  thinking: false,
  thinkId: 0,         // the number of the latest request for a move; older answers are dropped
  toMove: "black", result: "ongoing", forbidden: [], five: [],
  forfeit: null,      // { loser, reason }
  analysis: null,     // { asked, ply, toMove, lines, depth, nodes, time_ms, engine }
  names: [null, null],
  fileText: null,     // the game file loaded last (to pick another of its games)
};

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

// Pos notation <-> coordinates: "h8" is column 7, row 7 (rows from 1 at the top).
const toXY = (pos) => [pos.charCodeAt(0) - 97, parseInt(pos.slice(1), 10) - 1];
const toPos = (x, y) => String.fromCharCode(97 + x) + (y + 1);

function position() {
  return { size: state.size, rule: state.rule, moves: state.moves.join(" ") };
}

// A line under the panel: an error, or information when `info`.
function message(text, info = false) {
  $("message").textContent = text || "";
  $("message").classList.toggle("info", info);
}

// ---------------------------------------------------------------- drawing

function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

function cellSize() {
  const room = Math.min(window.innerHeight - 60, window.innerWidth - 360, 760);
  return Math.max(18, Math.floor(Math.max(room, 300) / (Math.max(state.width, state.height) + 1)));
}

// The analysis, if it is of this very position or of the one before it (the engine's other
// candidates beside the move it just played); none after a take-back or a new game.
function shownAnalysis() {
  const a = state.analysis;
  const n = state.moves.length;
  if (!a || (a.ply !== n && a.ply !== n - 1)) return null;
  return state.moves.slice(0, a.ply).join(" ") === a.asked ? a : null;
}

function draw() {
  const board = $("board");
  const c = cellSize();
  const w = (state.width + 1) * c, h = (state.height + 1) * c;
  board.setAttribute("width", w);
  board.setAttribute("height", h);
  board.setAttribute("viewBox", `0 0 ${w} ${h}`);
  board.replaceChildren();
  // Row 1 at the top (mnk's and Gomocup's view), or at the bottom as renju books draw it:
  // the cells keep their names either way; only the picture turns over.
  const flip = $("row1-bottom").checked;
  const at = (x, y) => [(x + 1) * c, ((flip ? state.height - 1 - y : y) + 1) * c];
  for (let x = 0; x < state.width; x++) {
    svg("line", { class: "grid", x1: at(x, 0)[0], y1: at(x, 0)[1], x2: at(x, state.height - 1)[0], y2: at(x, state.height - 1)[1] }, board);
    svg("text", { class: "label", x: at(x, 0)[0], y: c * 0.4 }, board).textContent = String.fromCharCode(97 + x);
  }
  for (let y = 0; y < state.height; y++) {
    svg("line", { class: "grid", x1: at(0, y)[0], y1: at(0, y)[1], x2: at(state.width - 1, y)[0], y2: at(state.width - 1, y)[1] }, board);
    svg("text", { class: "label", x: c * 0.4, y: at(0, y)[1] }, board).textContent = y + 1;
  }
  // Star points: the centre of an odd board, and the fourth lines' crossings on large ones.
  const stars = [];
  if (state.width % 2 === 1 && state.height % 2 === 1) stars.push([(state.width - 1) / 2, (state.height - 1) / 2]);
  if (state.width >= 13 && state.height >= 13) {
    for (const x of [3, state.width - 4]) for (const y of [3, state.height - 4]) stars.push([x, y]);
  }
  for (const [x, y] of stars) svg("circle", { class: "star", cx: at(x, y)[0], cy: at(x, y)[1], r: Math.max(2, c * 0.09) }, board);
  const taken = new Map(state.moves.map((m, i) => [m, i]));
  // The analysis of this very position: its candidate moves lettered A, B, … (letters, so
  // they never read as move numbers); of the position the engine just answered: only the
  // line it expects after its move (its other candidates were for the side that has moved,
  // and stay in the panel).
  const a = shownAnalysis();
  const showPv = a && $("show-pv").checked && a.lines.length;
  if (a) {
    // A candidate on a cell of the line drawn moves to the cell's corner, as a small badge.
    const pvCells = new Set(showPv ? a.lines[0].pv.slice(1, 10) : []);
    if (a.ply === state.moves.length) {
      a.lines.forEach((line, i) => {
        if (taken.has(line.move)) return;
        let [x, y] = at(...toXY(line.move));
        const badge = pvCells.has(line.move);
        if (badge) [x, y] = [x + c * 0.32, y - c * 0.32];
        const g = svg("g", { class: `${i === 0 ? "best first" : "best"}${badge ? " badge" : ""}`, "data-cell": line.move }, board);
        svg("circle", { cx: x, cy: y, r: c * (badge ? 0.2 : 0.3) }, g);
        svg("text", { x, y }, g).textContent = String.fromCharCode(65 + i);
      });
    }
    if (showPv) {
      // The line's later moves as faint stones numbered from the analysed position (its
      // first move is the "A" mark, or the stone just played), ten at most.
      const pv = a.lines[0].pv;
      for (let i = 1; i < Math.min(pv.length, 10); i++) {
        if (taken.has(pv[i])) break;
        const colour = (a.ply + i) % 2 === 0 ? "black" : "white";
        const [x, y] = at(...toXY(pv[i]));
        const g = svg("g", { class: "pv" }, board);
        svg("circle", { class: `ghost ${colour}`, cx: x, cy: y, r: c * 0.44 }, g);
        svg("text", { class: `num on-${colour}`, x, y }, g).textContent = i + 1;
      }
      // Badges above the faint stones.
      for (const badge of board.querySelectorAll("g.badge")) board.appendChild(badge);
    }
  }
  state.moves.forEach((m, i) => {
    const [x, y] = at(...toXY(m));
    const colour = i % 2 === 0 ? "black" : "white";
    svg("circle", { class: `stone ${colour}`, cx: x, cy: y, r: c * 0.45, "data-cell": m }, board);
    if ($("show-numbers").checked) {
      svg("text", { class: `num on-${colour}`, x, y }, board).textContent = i + 1;
    } else if (i === state.moves.length - 1) {
      svg("circle", { class: "last", cx: x, cy: y, r: c * 0.12 }, board);
    }
  });
  // The winning five, ringed.
  for (const f of state.five) {
    const [x, y] = at(...toXY(f));
    svg("circle", { class: "five", cx: x, cy: y, r: c * 0.47, "data-cell": f }, board);
  }
  for (const f of state.forbidden) {
    const [x, y] = at(...toXY(f));
    const d = c * 0.22;
    const g = svg("g", { class: "forbidden", "data-cell": f }, board);
    svg("line", { x1: x - d, y1: y - d, x2: x + d, y2: y + d }, g);
    svg("line", { x1: x - d, y1: y + d, x2: x + d, y2: y - d }, g);
  }
  // Click targets on top of everything.
  for (let x = 0; x < state.width; x++) {
    for (let y = 0; y < state.height; y++) {
      const [cx, cy] = at(x, y);
      const pos = toPos(x, y);
      const pt = svg("rect", { class: "pt", x: cx - c / 2, y: cy - c / 2, width: c, height: c, "data-cell": pos }, board);
      pt.addEventListener("click", () => clicked(pos));
    }
  }
  drawPanel();
}

function drawPanel() {
  const seat = (i) => state.seats[i] === "human" ? "you" : state.seats[i];
  const side = state.toMove === "black" ? 0 : 1;
  let status;
  if (state.forfeit) {
    status = `${state.forfeit.loser} forfeits (${state.forfeit.reason}): ${state.forfeit.loser === "black" ? "white" : "black"} wins`;
  } else if (state.result === "draw") {
    status = "draw: the board is full";
  } else if (state.result !== "ongoing") {
    status = `${state.result} (${seat(state.result === "black" ? 0 : 1)}) wins with five`;
  } else if (state.thinking) {
    status = `${state.toMove}: ${seat(side)} is thinking…`;
  } else {
    status = `${state.toMove} to move (${seat(side)})${state.paused ? " — paused" : ""}${state.editing ? " — editing" : ""}`;
  }
  $("status").textContent = status;
  $("pause").textContent = state.paused ? "Resume" : "Pause";
  $("movelist").textContent = state.moves.map((m, i) => `${i + 1}.${m}`).join(" ");
  const a = shownAnalysis();
  if (a && a.lines.length) {
    const best = a.lines[0];
    const blackChance = a.toMove === "black" ? best.win_chance : 1 - best.win_chance;
    $("winbar-black").style.width = `${(blackChance * 100).toFixed(1)}%`;
    $("eval").textContent = `${a.engine}: depth ${a.depth}, score ${best.score_text} for ${a.toMove} ` +
      `(black ${(blackChance * 100).toFixed(0)}%), ${a.nodes} nodes, ${a.time_ms} ms`;
    $("lines").replaceChildren(...a.lines.map((line) => {
      const li = document.createElement("li");
      li.textContent = `${line.move} ${line.score_text} d${line.depth}: ${line.pv.join(" ")}`;
      return li;
    }));
  } else if (a) {
    $("eval").textContent = `${a.engine}: ${a.time_ms} ms`;
    $("lines").replaceChildren();
  } else {
    $("winbar-black").style.width = "50%";
    $("eval").textContent = "—";
    $("lines").replaceChildren();
  }
  $("move-now").disabled = !state.thinking;
  $("stop").disabled = !state.thinking;
  for (const id of ["undo", "prev", "first", "analyze"]) $(id).disabled = state.thinking || (id !== "analyze" && !state.moves.length);
  for (const id of ["redo", "next", "last"]) $(id).disabled = state.thinking || !state.redo.length;
}

// ---------------------------------------------------------------- the game

function gameOver() { return state.result !== "ongoing" || state.forfeit !== null; }

// Asks the server about the current moves; draws; lets an engine move if one is due.
async function refresh() {
  try {
    const p = await api("/api/position", position());
    Object.assign(state, { toMove: p.to_move, result: p.result, forbidden: p.forbidden, five: p.five, width: p.width, height: p.height });
  } catch (e) {
    message(e.message);
  }
  draw();
  engineTurn();
}

function engineTurn() {
  const seat = state.seats[state.toMove === "black" ? 0 : 1];
  if (seat === "human" || state.paused || state.editing || state.thinking || gameOver()) return;
  think(seat, true);
}

// A whole number from the input `id`, kept within its bounds (the input shows the value used).
function bounded(id, fallback) {
  const input = $(id);
  const value = parseInt(input.value, 10);
  const kept = Math.min(Math.max(Number.isNaN(value) ? fallback : value, Number(input.min)), Number(input.max));
  if (String(kept) !== input.value) input.value = kept;
  return kept;
}

function thinkArgs(seat) {
  return {
    ...position(), seat,
    level: parseInt($("level").value, 10),
    time_ms: bounded("time", 1000),
    nbest: bounded("nbest", 1),
  };
}

// Drops the answer of the move asked for, if any, and stops mnk's search for it.
function cancelThink() {
  if (!state.thinking) return;
  state.thinkId++;
  state.thinking = false;
  api("/api/stop", {}).catch(() => {});
}

// Asks `seat` for a move; plays it when `play`, else only shows mnk's lines.
async function think(seat, play) {
  const asked = state.moves.join(" ");
  const ply = state.moves.length;
  const toMove = state.toMove;
  const id = ++state.thinkId;
  const current = () => id === state.thinkId && state.moves.join(" ") === asked;
  state.thinking = true;
  drawPanel();
  // While mnk thinks, show each iteration it completes.
  const poll = seat !== "mnk" ? null : setInterval(async () => {
    try {
      const { progress: p } = await api("/api/progress");
      if (!current() || !state.thinking || !p || p.done || p.moves !== asked || !p.pv.length) return;
      state.analysis = {
        asked, ply, toMove, engine: "mnk, thinking", depth: p.depth, nodes: p.nodes, time_ms: p.time_ms,
        lines: [{ move: p.pv[0], pv: p.pv, score_text: p.score_text, win_chance: p.win_chance, depth: p.depth }],
      };
      draw();
    } catch (e) {
      // The answer to the move itself reports any error.
    }
  }, 250);
  try {
    const reply = await api("/api/think", thinkArgs(seat)).finally(() => clearInterval(poll));
    if (!current()) return;  // cancelled, or the position changed meanwhile
    state.thinking = false;
    if (reply.analysis) state.analysis = { ...reply.analysis, asked, ply, toMove, engine: reply.engine };
    else state.analysis = { asked, ply, toMove, lines: [], engine: reply.engine, time_ms: reply.time_ms };
    if (!play) { draw(); return; }
    if (reply.forfeit) {
      state.forfeit = { loser: toMove, reason: reply.forfeit };
      draw();
      return;
    }
    state.moves.push(reply.move);
    state.redo = [];
    message("");
    await refresh();
  } catch (e) {
    if (!current()) return;
    state.thinking = false;
    message(e.message);
    draw();
  }
}

async function clicked(pos) {
  if (state.thinking || gameOver()) return;
  const seat = state.seats[state.toMove === "black" ? 0 : 1];
  if (seat !== "human" && !state.editing && !state.paused) return;
  try {
    await api("/api/position", { ...position(), moves: [...state.moves, pos].join(" ") });
  } catch (e) {
    message(e.message);
    return;
  }
  message("");
  state.moves.push(pos);
  state.redo = [];
  await refresh();
}

function back(count) {
  message("");
  for (let i = 0; i < count && state.moves.length; i++) state.redo.unshift(state.moves.pop());
  state.forfeit = null;
}

function forward(count) {
  message("");
  for (let i = 0; i < count && state.redo.length; i++) state.moves.push(state.redo.shift());
}

// ---------------------------------------------------------------- controls

// A fresh game on the board and rule chosen, the engines free to move (a pause from a loaded
// game or a Stop ends with it).
function newGame() {
  cancelThink();
  state.paused = false;
  state.moves = [];
  state.redo = [];
  state.forfeit = null;
  state.analysis = null;
  message("");
  refresh();
}

async function setBoard() {
  const size = $("size").value.trim();
  const rule = $("rule").value;
  try {
    const p = await api("/api/position", { size, rule, moves: "" });
    Object.assign(state, { size, rule, width: p.width, height: p.height });
    newGame();
  } catch (e) {
    message(e.message);
    $("size").value = state.size;
    $("rule").value = state.rule;
  }
}

async function save(format) {
  try {
    const names = state.seats.map((s) => (s === "human" ? "human" : s));
    const reply = await api("/api/save", { ...position(), format, names });
    $("filetext").value = reply.text;
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([reply.text], { type: "text/plain" }));
    link.download = reply.filename;
    link.click();
    URL.revokeObjectURL(link.href);
  } catch (e) {
    message(e.message);
  }
}

// Loads game `game` (from 1) of the file `text`; a file of several games shows a picker.
async function load(text, game = 1) {
  try {
    cancelThink();
    const reply = await api("/api/load", { text, rule: $("rule").value, game });
    state.fileText = text;
    $("game").value = reply.game;
    $("game").max = reply.games;
    $("games").textContent = reply.games;
    $("game-pick").hidden = reply.games < 2;
    const p = reply.position;
    Object.assign(state, { size: p.size, rule: p.rule, width: p.width, height: p.height, moves: p.moves, redo: [], forfeit: null, analysis: null, paused: true });
    $("size").value = p.size;
    $("rule").value = p.rule;
    const which = reply.games > 1 ? `game ${reply.game} of ${reply.games}: ` : "";
    message(`loaded ${which}${p.moves.length} moves — paused; step through them or resume`, true);
    refresh();
  } catch (e) {
    message(e.message);
  }
}

function takeBack() {
  // Back to the human's previous turn: their move and every reply since.
  const human = state.seats.map((s) => s === "human");
  if (!human[0] && !human[1]) { back(1); return; }
  do {
    back(1);
  } while (state.moves.length && !human[state.moves.length % 2]);
}

async function start() {
  const config = await api("/api/config");
  $("version").textContent = config.version;
  $("rule").replaceChildren(...config.rules.map((r) => new Option(r, r)));
  for (const n of [3, ...Array.from({ length: 18 }, (_, i) => i + 5)]) $("sizes").appendChild(new Option(String(n)));
  for (const [i, select] of [$("seat-black"), $("seat-white")].entries()) {
    select.replaceChildren(new Option("human", "human"), ...config.engines.map((e) => new Option(e, e)));
    select.value = state.seats[i];
    select.addEventListener("change", () => { state.seats[i] = select.value; state.forfeit = null; refresh(); });
  }
  $("nbest").max = config.max_nbest;
  $("time").max = config.max_time_ms;
  $("size").addEventListener("change", setBoard);
  $("rule").addEventListener("change", setBoard);
  $("level").addEventListener("input", () => { $("level-out").textContent = $("level").value; });
  $("new").addEventListener("click", newGame);
  $("swap").addEventListener("click", () => {
    state.seats.reverse();
    $("seat-black").value = state.seats[0];
    $("seat-white").value = state.seats[1];
    refresh();
  });
  $("pause").addEventListener("click", () => { state.paused = !state.paused; refresh(); });
  $("analyze").addEventListener("click", () => { if (!gameOver()) think("mnk", false); });
  // Move now: mnk answers its best move so far, played as usual. Stop: the answer is dropped
  // and the game paused, so no engine starts again until Resume.
  $("move-now").addEventListener("click", () => { api("/api/stop", {}).catch((e) => message(e.message)); });
  $("stop").addEventListener("click", () => {
    cancelThink();
    state.paused = true;
    message("stopped — paused; Resume lets the engines move again", true);
    refresh();
  });
  $("undo").addEventListener("click", () => { takeBack(); refresh(); });
  $("redo").addEventListener("click", () => { forward(1); refresh(); });
  $("prev").addEventListener("click", () => { state.paused = true; back(1); refresh(); });
  $("next").addEventListener("click", () => { state.paused = true; forward(1); refresh(); });
  $("first").addEventListener("click", () => { state.paused = true; back(state.moves.length); refresh(); });
  $("last").addEventListener("click", () => { state.paused = true; forward(state.redo.length); refresh(); });
  $("edit").addEventListener("change", () => { state.editing = $("edit").checked; refresh(); });
  for (const id of ["show-pv", "show-numbers"]) $(id).addEventListener("change", draw);
  // The board's orientation is the person's choice, kept for their next visit.
  $("row1-bottom").checked = localStorage.getItem("mnk-row1-bottom") === "yes";
  $("row1-bottom").addEventListener("change", () => {
    localStorage.setItem("mnk-row1-bottom", $("row1-bottom").checked ? "yes" : "no");
    draw();
  });
  $("load").addEventListener("click", () => load($("filetext").value));
  $("game").addEventListener("change", () => {
    if (state.fileText) load(state.fileText, parseInt($("game").value, 10) || 1);
  });
  $("file").addEventListener("change", async () => {
    const file = $("file").files[0];
    if (file) load(await file.text());
  });
  $("save-sgf").addEventListener("click", () => save("sgf"));
  $("save-psq").addEventListener("click", () => save("psq"));
  window.addEventListener("resize", draw);
  refresh();
}

start().catch((e) => message(`cannot reach the server: ${e.message}`));

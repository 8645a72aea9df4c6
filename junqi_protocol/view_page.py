"""The Junqi view's page: one HTML file with its style and script inside (no network, no fonts to fetch).

:func:`junqi_protocol.view.page` puts the games in place of ``"__JUNQI_DATA__"``: a replay page carries
them all; the live page starts empty and takes its messages from ``/events``. Positions come from the
Python side (the referee's rules); this script draws them, steps through them, and hides from a seat's
view the kinds that seat was not shown.
"""

from typing import Final

PAGE: Final = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
  body { font: 14px/1.35 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; background: #f4f1ea; color: #222; }
  header { padding: 8px 14px; background: #3b3a36; color: #f4f1ea; display: flex; gap: 14px; align-items: center; flex-wrap: wrap; }
  header h1 { font-size: 16px; margin: 0; font-weight: 600; }
  header select { font: inherit; }
  #live { font-size: 12px; padding: 2px 8px; border-radius: 10px; background: #777; }
  #live.on { background: #2a8a3a; }
  main { display: flex; gap: 14px; padding: 12px; align-items: flex-start; flex-wrap: wrap; }
  #boardbox { background: #e9dcb8; border: 1px solid #b9a77a; border-radius: 6px; padding: 4px; }
  svg { display: block; }
  .road { stroke: #8d7b55; stroke-width: 1.5; }
  .rail { stroke: #3b3a36; stroke-width: 4.5; fill: none; }
  .railtie { stroke: #e9dcb8; stroke-width: 1.6; stroke-dasharray: 4 6; fill: none; }
  .pt-s { fill: #3b3a36; }
  .pt-r { fill: #e9dcb8; stroke: #8d7b55; stroke-width: 1.5; }
  .pt-c { fill: #f6efd9; stroke: #8d7b55; stroke-width: 1.6; }
  .pt-h { fill: #f6efd9; stroke: #8d7b55; stroke-width: 1.6; }
  .piece rect { stroke-width: 2; }
  .piece text { font-size: 11px; font-weight: 600; text-anchor: middle; dominant-baseline: central; pointer-events: none; }
  .piece.back text { fill: #fff; }
  .lastmove { stroke-width: 3.5; fill: none; opacity: .85; }
  .mark { fill: none; stroke-width: 3; }
  aside { flex: 1; min-width: 300px; max-width: 520px; display: flex; flex-direction: column; gap: 10px; }
  .box { background: #fff; border: 1px solid #d8d0bd; border-radius: 6px; padding: 8px 10px; }
  .controls button { font: inherit; min-width: 36px; padding: 3px 6px; }
  .controls input[type=range] { width: 100%; margin: 8px 0 2px; }
  #views button { font: inherit; padding: 2px 9px; margin: 2px 2px 2px 0; border: 1px solid #aaa; background: #f7f7f7; border-radius: 4px; }
  #views button.on { background: #3b3a36; color: #fff; border-color: #3b3a36; }
  #players div { display: flex; gap: 6px; align-items: center; }
  #players .sw { width: 12px; height: 12px; border-radius: 3px; display: inline-block; }
  #players .out { text-decoration: line-through; color: #888; }
  #players .turn { font-weight: 700; }
  #result { font-weight: 600; }
  #now { min-height: 2.6em; }
  .ev { display: inline-block; padding: 0 5px; margin: 1px 2px; border-radius: 3px; background: #eee; font-size: 12px; }
  .ev.EAT { background: #d7efd5; } .ev.KILLED { background: #f6d3d0; } .ev.BOMB { background: #fbe1bf; }
  .ev.flag, .ev.out, .ev.gameover { background: #3b3a36; color: #fff; } .ev.marshal { background: #e0d6f5; }
  #log { max-height: 330px; overflow-y: auto; font: 12px/1.5 ui-monospace, "DejaVu Sans Mono", monospace; padding: 0; margin: 0; list-style: none; }
  #log li { padding: 0 4px; cursor: pointer; white-space: nowrap; }
  #log li.cur { background: #ffe9a8; }
  #log li:hover { background: #f1ecdf; }
  .hint { color: #777; font-size: 12px; }
  .target { fill: rgba(40, 160, 60, .35); stroke: #1f8a3a; stroke-width: 2; cursor: pointer; }
  .piece.mine-to-move { cursor: pointer; }
  .piece.selected rect { stroke-width: 4; }
  #playmsg { font-weight: 600; margin-bottom: 4px; }
</style>
</head>
<body>
<header>
  <h1 id="title">__TITLE__</h1>
  <label>game <select id="gamesel"></select></label>
  <span id="rules" class="hint" style="color:#cfc8b5"></span>
  <span id="live" hidden>offline</span>
</header>
<main>
  <div id="boardbox"><svg id="board" xmlns="http://www.w3.org/2000/svg"><g id="lines"></g><g id="points"></g><g id="marks"></g><g id="pieces"></g><g id="targets"></g></svg></div>
  <aside>
    <div class="box controls">
      <button id="first" title="first (Home)">|&#x25C0;</button>
      <button id="prev" title="back (&#x2190;)">&#x25C0;</button>
      <button id="next" title="forward (&#x2192;)">&#x25B6;</button>
      <button id="last" title="last (End)">&#x25B6;|</button>
      <span id="plylabel" style="margin-left:8px"></span>
      <input id="slider" type="range" min="0" max="0" value="0" aria-label="ply">
      <div id="now"></div>
      <div id="result"></div>
    </div>
    <div class="box" id="playbox" hidden>
      <div id="playmsg"></div>
      <div id="setupctl" hidden><button id="another">another lineup</button> <button id="ready">ready</button>
        <div><input id="lineuptext" size="32" spellcheck="false" aria-label="lineup letters"> <button id="uselineup">use</button></div>
        <div class="hint">Click two of your pieces to swap them: swaps reach any lineup. Or type one: 25 letters,
          front row first, left to right, camps skipped (a Mar, b Gen, c Div, d Bri, e Reg, f Bat, g Com, h Pla,
          i Eng, j Mine, k Bomb, l Flag). The rules check it when you are ready: the flag in a headquarters,
          mines in the last two rows, no bomb in the front row, each kind as many times as the army has it.</div></div>
      <div id="movectl" hidden>click a piece, then where it goes; or type a move:
        <input id="movetext" size="9" placeholder="S30-S20"> <button id="sendmove">play</button> <button id="passbtn">pass</button>
        <span id="clock" class="hint"></span></div>
      <div id="refusal" style="color:#b02a20"></div>
    </div>
    <div class="box" id="viewbox"><div id="views"></div>
      <label class="hint"><input type="checkbox" id="chinese"> Chinese names</label>
      <label class="hint" id="guessbox"><input type="checkbox" id="guess" checked> in a seat's view, what it could
        infer of the hidden pieces (sanqi's inference from what that seat was told: the likeliest kind when 20 % sure or more,
        ? below 90 %; hover a piece for more)</label>
      <div class="hint" id="keyhint">Keys: &#x2190; &#x2192; step, PgUp/PgDn 10, Home/End, O open view, S E N W a seat's view.</div></div>
    <div class="box" id="players"></div>
    <div class="box"><ol id="log"></ol></div>
  </aside>
</main>
<script>
"use strict";
const DATA = "__JUNQI_DATA__";
const COLORS = { S: "#c8372d", E: "#2866b8", N: "#d9860b", W: "#2a8a5a" };
const TINTS = { S: "#fbe3e0", E: "#dfe9f7", N: "#fcecd0", W: "#dcf0e4" };
const SHORT = ["Mar", "Gen", "Div", "Bri", "Reg", "Bat", "Com", "Pla", "Eng", "Mine", "Bomb", "Flag"];
const CHINESE = ["司令", "军长", "师长", "旅长", "团长", "营长", "连长", "排长", "工兵", "地雷", "炸弹", "军旗"];
const ENGLISH = ["marshal", "general", "division", "brigade", "regiment", "battalion", "company", "platoon",
                 "engineer", "mine", "bomb", "flag"];
const LETTERS = "abcdefghijkl";
const U = 46, PAD = 26;
const st = { games: [], byNumber: {}, gi: -1, fi: 0, view: "open", follow: true };
window.junqiView = st;
const $ = (id) => document.getElementById(id);
const NS = "http://www.w3.org/2000/svg";
function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
const X = (b, p) => PAD + U * b.xy[p][0];
const Y = (b, p) => PAD + U * b.xy[p][1];

function addGame(g) {
  g.frames = g.frames || [];
  g.lineup_errors = g.lineup_errors || {};
  st.byNumber[g.game] = st.games.length;
  st.games.push(g);
  const o = document.createElement("option");
  o.value = st.games.length - 1;
  o.textContent = g.game + ": " + Object.entries(g.players).map(([s, n]) => s + " " + n).join(", ");
  $("gamesel").appendChild(o);
}

function drawBoard(b) {
  const w = Math.max(...b.xy.map((q) => q[0])), h = Math.max(...b.xy.map((q) => q[1]));
  const svg = $("board");
  svg.setAttribute("width", 2 * PAD + U * w);
  svg.setAttribute("height", 2 * PAD + U * h);
  for (const id of ["lines", "points", "marks", "pieces"]) $(id).replaceChildren();
  const lines = $("lines");
  for (const [a, c] of b.roads) el("line", { x1: X(b, a), y1: Y(b, a), x2: X(b, c), y2: Y(b, c), class: "road" }, lines);
  for (const [a, c] of b.rails) {
    let d = `M${X(b, a)},${Y(b, a)} L${X(b, c)},${Y(b, c)}`;
    const dx = b.xy[c][0] - b.xy[a][0], dy = b.xy[c][1] - b.xy[a][1];
    if (dx !== 0 && dy !== 0) {  // a corner arc between two seats: bend it away from the centre
      const cx = Math.abs(b.xy[a][0] - 8) > Math.abs(b.xy[c][0] - 8) ? b.xy[a][0] : b.xy[c][0];
      const cy = Math.abs(b.xy[a][1] - 8) > Math.abs(b.xy[c][1] - 8) ? b.xy[a][1] : b.xy[c][1];
      d = `M${X(b, a)},${Y(b, a)} Q${PAD + U * cx},${PAD + U * cy} ${X(b, c)},${Y(b, c)}`;
    }
    el("path", { d, class: "rail" }, lines);
    el("path", { d, class: "railtie" }, lines);
  }
  const pts = $("points");
  b.names.forEach((name, p) => {
    const k = b.kinds[p], x = X(b, p), y = Y(b, p);
    let e;
    if (k === "c") e = el("circle", { cx: x, cy: y, r: 17, class: "pt-c" }, pts);
    else if (k === "h") e = el("rect", { x: x - 22, y: y - 15, width: 44, height: 30, rx: 12, class: "pt-h" }, pts);
    else if (k === "s") e = el("circle", { cx: x, cy: y, r: 4, class: "pt-s" }, pts);
    else e = el("rect", { x: x - 4, y: y - 4, width: 8, height: 8, class: "pt-r" }, pts);
    const t = el("title", {}, e);
    t.textContent = name + ({ c: " camp", h: " headquarters", s: " railway station", r: " road" })[k];
  });
}

function label(kind) {
  return $("chinese").checked ? CHINESE[kind] : SHORT[kind];
}

function drawFrame() {
  const g = st.games[st.gi];
  if (!g) return;
  const b = g.board, f = g.frames[st.fi];
  const pieces = $("pieces"), marks = $("marks");
  pieces.replaceChildren();
  marks.replaceChildren();
  if (!f) return;
  const sees = st.view === "open" ? null : g.see[st.view];
  const known = new Set(f.known);
  // A replay page holds each seat's guesses per step (g.guesses); a live frame carries its own (f.guesses).
  const mine = f.guesses ? f.guesses[st.view] : g.guesses && g.guesses[st.view] ? g.guesses[st.view][st.fi] : null;
  const guesses = sees !== null && $("guess").checked && mine ? mine : null;
  $("guessbox").hidden = !(f.guesses && Object.keys(f.guesses).length) && !(g.guesses && Object.keys(g.guesses).length);
  for (let p = 0; p < b.names.length; p++) {
    const seat = f.cells[2 * p];
    if (seat === ".") continue;
    const kind = LETTERS.indexOf(f.cells[2 * p + 1]);
    const shown = kind >= 0 && (sees === null || sees.includes(seat) || known.has(p));
    const x = X(b, p), y = Y(b, p);
    const gp = el("g", { class: "piece" + (shown ? "" : " back"), "data-point": b.names[p], "data-seat": seat,
                          "data-kind": shown ? LETTERS[kind] : "?" }, pieces);
    el("rect", { x: x - 20, y: y - 12, width: 40, height: 24, rx: 4, fill: shown ? TINTS[seat] : COLORS[seat],
                 stroke: COLORS[seat] }, gp);
    const t = el("text", { x, y: y + 1, fill: COLORS[seat] }, gp);
    t.textContent = shown ? label(kind) : "";
    let about = shown ? " " + CHINESE[kind] + " " + ENGLISH[kind] + " (" + LETTERS[kind] + ")" : " hidden piece";
    if (!shown && guesses && guesses[2 * p] !== ".") {
      const gk = LETTERS.indexOf(guesses[2 * p]), sure = Number(guesses[2 * p + 1]);
      gp.dataset.guess = guesses[2 * p];
      t.textContent = sure >= 2 ? label(gk) + (sure >= 9 ? "" : "?") : "";  // below 20 %: only in the tooltip
      t.setAttribute("opacity", sure >= 9 ? 1 : sure >= 5 ? 0.85 : 0.6);
      about += ": likeliest " + ENGLISH[gk] + " (" + (sure >= 9 ? "90 % or more" : sure * 10 + "-" + (sure * 10 + 9) + " %") + ")";
    }
    el("title", {}, gp).textContent = b.names[p] + ": " + seat + about;
  }
  drawTargets(g, f);
  if (f.move) {
    const [a, c] = f.move;
    const res = (f.events[0] || "").split(" ")[3] || "MOVE";
    const color = { MOVE: "#555", EAT: "#1f8a3a", KILLED: "#c8372d", BOMB: "#e07b00" }[res] || "#555";
    el("rect", { x: X(b, a) - 22, y: Y(b, a) - 14, width: 44, height: 28, rx: 5, stroke: color, class: "mark",
                 "stroke-dasharray": "4 3" }, marks);
    el("rect", { x: X(b, c) - 23, y: Y(b, c) - 15, width: 46, height: 30, rx: 5, stroke: color, class: "mark" }, marks);
    el("line", { x1: X(b, a), y1: Y(b, a), x2: X(b, c), y2: Y(b, c), stroke: color, class: "lastmove" }, marks);
  }
  // Text beside the board.
  const n = g.frames.length - 1;
  $("slider").max = n;
  $("slider").value = st.fi;
  $("plylabel").textContent = `step ${st.fi} of ${n}` + (f.ply !== undefined ? ` \u00b7 ply ${f.ply}` : "");
  $("now").replaceChildren(...describe(f));
  const end = g.end;
  $("result").textContent = end ? (st.fi === n ? "Result: " : "Final result: ") + resultText(end) :
    (f.turn ? f.turn + " to move" : "");
  $("rules").textContent = g.variant + " \u00b7 " + g.rules;
  const pl = $("players");
  pl.replaceChildren();
  for (const s of b.letters) {
    const d = document.createElement("div");
    const sw = document.createElement("span");
    sw.className = "sw";
    sw.style.background = COLORS[s];
    const nm = document.createElement("span");
    nm.textContent = s + ": " + g.players[s] + (g.lineup_errors[s] ? " (no lineup: " + g.lineup_errors[s] + ")" : "");
    if (!f.alive.includes(s)) nm.className = "out";
    else if (f.turn === s) nm.className = "turn";
    d.append(sw, nm);
    pl.appendChild(d);
  }
  const log = $("log");
  for (const li of log.querySelectorAll("li.cur")) li.classList.remove("cur");
  const cur = log.children[st.fi];
  if (cur) { cur.classList.add("cur"); cur.scrollIntoView({ block: "nearest" }); }
  for (const btn of $("views").children) btn.classList.toggle("on", btn.dataset.view === st.view);
  document.body.dataset.game = g.game;
  document.body.dataset.step = st.fi;
  document.body.dataset.steps = n;
}

function resultText(end) {
  const who = end.result === "draw" ? "draw" : end.result === "none" ? "not finished" : end.result + " wins";
  return `${who} (${end.reason || "?"}) after ${end.plies} plies`;
}

function evSpan(text) {
  const s = document.createElement("span");
  const w = text.split(" ");
  s.className = "ev " + (w[0] === "move" ? w[3] : w[0]);
  s.textContent = text;
  return s;
}

function describe(f) {
  const out = [];
  if (f.action === "start") out.push(document.createTextNode("Lineups placed. "));
  else if (f.action === "timeout") out.push(document.createTextNode(f.seat + " timed out. "));
  else if (f.action === "out") out.push(document.createTextNode(f.seat + " is out. "));
  for (const e of f.events) out.push(evSpan(e));
  if (f.note) { const s = document.createElement("div"); s.className = "hint"; s.textContent = f.note; out.push(s); }
  return out;
}

function logLine(f, i) {
  const li = document.createElement("li");
  li.dataset.f = i;
  const head = f.action === "start" ? "start" : String(f.ply).padStart(3) + (f.action === "move" || f.action === "pass" ? "" : ` ${f.seat} ${f.action}:`);
  li.textContent = head + " " + (f.events.length ? f.events.join("; ") : "(no events)");
  li.title = li.textContent;
  return li;
}

function fillLog() {
  const g = st.games[st.gi];
  $("log").replaceChildren(...g.frames.map(logLine));
}

function selectGame(i, toEnd) {
  st.gi = i;
  const g = st.games[i];
  $("gamesel").value = i;
  const views = $("views");
  views.replaceChildren();
  for (const v of ["open", ...g.board.letters]) {
    const btn = document.createElement("button");
    btn.dataset.view = v;
    btn.textContent = v === "open" ? "open view" : v + " sees";
    btn.title = v === "open" ? "every piece shown" : "what " + v + " was shown: its own pieces" +
      (g.see[v].length > 1 ? " and " + g.see[v].replace(v, "").split("").join(", ") + "'s" : "") + "; others as backs, announced flags shown";
    btn.onclick = () => { st.view = v; drawFrame(); };
    views.appendChild(btn);
  }
  if (!g.board.letters.includes(st.view)) st.view = "open";
  if (PLAY && st.playSeat) st.view = st.playSeat;
  drawBoard(g.board);
  fillLog();
  st.fi = toEnd ? Math.max(0, g.frames.length - 1) : 0;
  drawFrame();
}

function go(i) {
  const g = st.games[st.gi];
  if (!g) return;
  st.fi = Math.max(0, Math.min(g.frames.length - 1, i));
  st.follow = st.fi === g.frames.length - 1;
  drawFrame();
}

$("first").onclick = () => go(0);
$("prev").onclick = () => go(st.fi - 1);
$("next").onclick = () => go(st.fi + 1);
$("last").onclick = () => go(1e9);
$("slider").oninput = (e) => go(Number(e.target.value));
$("gamesel").onchange = (e) => selectGame(Number(e.target.value), false);
$("chinese").onchange = () => drawFrame();
$("guess").onchange = () => drawFrame();
$("log").onclick = (e) => { const li = e.target.closest("li"); if (li) go(Number(li.dataset.f)); };
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" && e.target.type === "range" && e.key.startsWith("Arrow")) return;
  if (e.target.tagName === "SELECT" || (e.target.tagName === "INPUT" && e.target.type === "text")) return;
  const k = e.key;
  if (k === "ArrowRight") go(st.fi + 1);
  else if (k === "ArrowLeft") go(st.fi - 1);
  else if (k === "PageDown") go(st.fi + 10);
  else if (k === "PageUp") go(st.fi - 10);
  else if (k === "Home") go(0);
  else if (k === "End") go(1e9);
  else if (PLAY) return;
  else if (k === "o" || k === "O") { st.view = "open"; drawFrame(); }
  else if (st.gi >= 0 && st.games[st.gi].board.letters.includes(k.toUpperCase()) && k.length === 1) { st.view = k.toUpperCase(); drawFrame(); }
  else return;
  e.preventDefault();
});

function onMessage(m) {
  if (m.kind === "game") {
    m.frames = []; m.end = null; m.lineup_errors = {};
    const atEnd = st.gi < 0 || st.follow;
    addGame(m);
    if (atEnd) { st.follow = true; selectGame(st.games.length - 1, true); }
    return;
  }
  const gi = st.byNumber[m.game];
  if (gi === undefined) return;
  const g = st.games[gi];
  if (m.kind === "frame") {
    g.frames.push(m);
    if (gi === st.gi) {
      $("log").appendChild(logLine(m, g.frames.length - 1));
      if (st.follow) st.fi = g.frames.length - 1;
      drawFrame();
    }
  } else if (m.kind === "end") {
    g.end = m;
    if (gi === st.gi) drawFrame();
  } else if (m.kind === "lineup" && m.error) {
    g.lineup_errors[m.seat] = m.error;
  }
}

// A seat played by a person (the live page opened with ?play=KEY).
const PLAY = DATA.live ? new URLSearchParams(location.search).get("play") : null;
let deadline = 0;

function post(path, body) {
  $("refusal").textContent = "";
  return window.fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                              body: JSON.stringify(Object.assign({ play: PLAY }, body)) })
    .then((r) => r.text().then((t) => { if (!r.ok) $("refusal").textContent = t; return r.ok; }));
}

function drawTargets(g, f) {
  const layer = $("targets");
  layer.replaceChildren();
  if (!st.ask || st.fi !== g.frames.length - 1) return;
  const b = g.board;
  const from = new Set(st.ask.moves.map((m) => m[0]));
  for (const gp of $("pieces").children) {
    const p = b.names.indexOf(gp.dataset.point);
    if (!from.has(p)) continue;
    gp.classList.add("mine-to-move");
    if (p === st.selected) gp.classList.add("selected");
    gp.onclick = () => { st.selected = st.selected === p ? -1 : p; drawFrame(); };
  }
  for (const [a, c] of st.ask.moves) {
    if (a !== st.selected) continue;
    const t = el("circle", { cx: X(b, c), cy: Y(b, c), r: 11, class: "target", "data-point": b.names[c] }, layer);
    t.onclick = () => sendMove(b.names[a] + "-" + b.names[c]);
  }
}

function sendMove(move) {
  if (!st.ask) { $("refusal").textContent = "it is not your turn"; return; }
  post("move", { id: st.ask.id, move });
}

function drawSetup() {
  const su = st.setup, b = su.board;
  $("lineuptext").value = su.lineup;
  $("pieces").replaceChildren();
  $("marks").replaceChildren();
  $("targets").replaceChildren();
  su.points.forEach((p, i) => {
    const kind = LETTERS.indexOf(su.lineup[i]), seat = su.seat, x = X(b, p), y = Y(b, p);
    const gp = el("g", { class: "piece mine-to-move" + (su.sel === i ? " selected" : ""), "data-point": b.names[p],
                          "data-seat": seat, "data-kind": su.lineup[i] }, $("pieces"));
    el("rect", { x: x - 20, y: y - 12, width: 40, height: 24, rx: 4, fill: TINTS[seat], stroke: COLORS[seat] }, gp);
    el("text", { x, y: y + 1, fill: COLORS[seat] }, gp).textContent = label(kind);
    gp.onclick = () => {
      if (su.dealt) return;
      if (su.sel < 0) { su.sel = i; }
      else { const l = su.lineup.split(""); [l[su.sel], l[i]] = [l[i], l[su.sel]]; su.lineup = l.join(""); su.sel = -1; }
      drawSetup();
    };
  });
}

function onPlayMessage(m) {
  if (m.kind === "setup") {
    st.setup = { seat: m.seat, board: m.board, points: m.points, proposals: m.proposals, pi: 0, lineup: m.proposals[0],
                 sel: -1, dealt: m.dealt };
    st.playSeat = m.seat;
    st.ask = null;
    drawBoard(m.board);
    drawSetup();
    $("playmsg").textContent = "You are " + m.seat + ". " + (m.dealt ? "Your lineup was dealt: press ready." : "Arrange your lineup.");
    $("setupctl").hidden = false;
    $("another").hidden = m.dealt;
    $("lineuptext").disabled = $("uselineup").disabled = m.dealt;
    $("movectl").hidden = true;
    return true;
  }
  if (m.kind === "ask") {
    st.ask = m;
    st.playSeat = st.view = m.seat;
    st.selected = -1;
    deadline = Date.now() + Math.min(m.movetime, m.time);
    $("playmsg").textContent = "Your move, " + m.seat + (m.moves.length ? "." : ": you have no legal move, pass.");
    $("movectl").hidden = false;
    if (st.gi >= 0) { st.follow = true; go(1e9); }
    return true;
  }
  if (m.kind === "game") { st.setup = null; $("setupctl").hidden = true; $("playmsg").textContent = "You are " + st.playSeat + "."; }
  if (m.kind === "frame") {
    if (m.you) { st.playSeat = m.you; st.view = m.you; }  // the server masks by the seat it seated
    st.ask = null; st.selected = -1; $("movectl").hidden = true; $("playmsg").textContent = "You are " + st.playSeat + ".";
  }
  return false;
}

if (PLAY) {
  $("playbox").hidden = false;
  // The person sees through its seat only (the server masks the rest): no view buttons, and the
  // inference is there to be asked for, not shown unasked.
  $("views").hidden = true;
  $("keyhint").hidden = true;
  $("guess").checked = false;
  $("another").onclick = () => { const su = st.setup; su.pi = (su.pi + 1) % su.proposals.length; su.lineup = su.proposals[su.pi]; su.sel = -1; drawSetup(); };
  const typed = () => {  // a lineup typed by hand: drawn if it has the shape of one; the rules judge it on "ready"
    const su = st.setup, t = $("lineuptext").value.trim().toLowerCase();
    const text = t.length === 30 ? t.replace(/\./g, "") : t;
    if (!su || su.dealt) return;
    if (!/^[a-l]{25}$/.test(text)) { $("refusal").textContent = "a lineup is 25 letters a-l (or 30 with '.' in the camps)"; return; }
    $("refusal").textContent = "";
    su.lineup = text; su.sel = -1; drawSetup();
  };
  $("uselineup").onclick = typed;
  $("lineuptext").onkeydown = (e) => { if (e.key === "Enter") typed(); };
  $("ready").onclick = () => post("lineup", { lineup: st.setup.lineup }).then((ok) => {
    if (ok) { $("setupctl").hidden = true; $("playmsg").textContent = "Lineup taken; waiting for the others."; } });
  $("sendmove").onclick = () => sendMove($("movetext").value.trim().toUpperCase());
  $("movetext").onkeydown = (e) => { if (e.key === "Enter") sendMove($("movetext").value.trim().toUpperCase()); };
  $("passbtn").onclick = () => sendMove("pass");
  setInterval(() => { $("clock").textContent = st.ask ? Math.max(0, Math.ceil((deadline - Date.now()) / 1000)) + " s left" : ""; }, 250);
}

if (DATA.live) {
  const badge = $("live");
  badge.hidden = false;
  const es = new EventSource(PLAY ? "events?play=" + encodeURIComponent(PLAY) : "events");
  es.onopen = () => { badge.textContent = "live"; badge.className = "on"; };
  es.onerror = () => { badge.textContent = "reconnecting"; badge.className = ""; };
  es.addEventListener("bye", () => { es.close(); badge.textContent = "the referee has finished"; badge.className = ""; });
  es.onmessage = (e) => { const m = JSON.parse(e.data); if (!(PLAY && onPlayMessage(m))) onMessage(m); };
} else {
  for (const g of DATA.games) addGame(g);
  if (st.games.length) selectGame(0, false);
}
</script>
</body>
</html>
"""

// The hexmeros board page. It computes no rule: the board comes from the server as SVG (drawn
// from the same scene as the bot's pictures), a piece's targets are asked of the server, and
// every action is sent to the server, which checks it as it checks a Discord button. The link's
// token is read from the address's fragment (#t=…), which browsers never send, then taken out
// of the address (kept for the tab: `takeToken`), and sent in the Authorization header.
// Launched by Discord as an Activity (its address then has `frame_id`), the page signs in
// through Discord instead: see `signInThroughDiscord`.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const launch = new URLSearchParams(location.search);
// The link's token leaves the address bar at once (a copied address, a screenshot or a shared
// screen does not carry it) and is kept for this tab only, so a reload finds it again.
const KEPT = "hexmeros-board-token";
let token = takeToken();
// Inside Discord every request goes through Discord's proxy, under `/.proxy/` (the server
// answers there as at its root).
const base = launch.has("frame_id") ? "/.proxy" : "";
const $ = (id) => document.getElementById(id);

const state = {
  board: null, // the last answer of /api/board
  cells: new Map(), // "q,r" -> name
  byName: new Map(), // lower-case name -> [q, r]
  chosen: null, // the piece whose targets are shown: { origin, targets }
  view: null, // the SVG's viewBox: [x, y, w, h]
  full: null, // the whole board's viewBox
  busy: false,
  step: null, // the move the board shows when looking back through the story; null: now
};

function takeToken() {
  const linked = new URLSearchParams(location.hash.slice(1)).get("t");
  if (linked) {
    try {
      sessionStorage.setItem(KEPT, linked);
    } catch (_) {
      // No storage (a private window's rules): a reload then needs the link again.
    }
    history.replaceState(null, "", location.pathname + location.search);
    return linked;
  }
  try {
    return sessionStorage.getItem(KEPT) || "";
  } catch (_) {
    return "";
  }
}

// A token the server refused (forged, expired, or its player gone) is forgotten.
function forgetToken() {
  try {
    sessionStorage.removeItem(KEPT);
  } catch (_) {
    // Nothing was kept.
  }
}

async function api(path, body) {
  const init = { headers: { Authorization: "Bearer " + token }, cache: "no-store" };
  if (body !== undefined) {
    init.method = "POST";
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(base + path, init);
  let data = null;
  try {
    data = await res.json();
  } catch (_) {
    data = null;
  }
  if (!res.ok) {
    if (res.status === 401 && !launch.has("frame_id")) forgetToken();
    const err = new Error((data && data.error) || "the server answered " + res.status);
    err.status = res.status;
    err.retry = data && data.retry_after;
    throw err;
  }
  return data;
}

function say(text, error) {
  const m = $("message");
  m.textContent = text || "";
  m.classList.toggle("error", !!error);
}

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function svgEl(tag, attrs) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  return e;
}

// ---- drawing --------------------------------------------------------------------------------

// The server's SVG on the page, with a layer for the page's own highlights over it.
// The board's SVG, with `alt` (the board in words) as its title for screen readers.
function putSvg(text, alt) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = document.importNode(doc.documentElement, true);
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  svg.setAttribute("role", "img");
  const title = svgEl("title", { id: "board-alt" });
  title.textContent = alt || "";
  svg.insertBefore(title, svg.firstChild);
  svg.setAttribute("aria-labelledby", "board-alt");
  svg.appendChild(svgEl("g", { id: "highlights" }));
  $("board").replaceChildren(svg);
  return svg;
}

function showBoard(b) {
  const keep = state.board && state.view && state.board.game === b.game;
  state.board = b;
  state.chosen = null;
  state.cells.clear();
  state.byName.clear();
  for (const [q, r, name] of b.cells) {
    state.cells.set(q + "," + r, name);
    state.byName.set(name.toLowerCase(), [q, r]);
  }
  const svg = putSvg(b.svg, b.alt);
  state.full = svg.getAttribute("viewBox").split(/[ ,]+/).map(Number);
  if (!keep) state.view = state.full.slice();
  applyView();
  $("title").textContent = b.title;
  $("who").textContent = b.over
    ? "The game is over" + (b.you ? " (you played " + b.you.label + ")" : "")
    : !b.you
      ? "Watching"
      : b.you.mover ? "You play " + b.you.label + ": your turn" : "You play " + b.you.label;
  $("status").replaceChildren(...b.status.map((s) => el("li", {}, s)));
  const story = b.story.map((line) => el("li", {}, line));
  if (story.length) story[story.length - 1].classList.add("last");
  $("story").replaceChildren(...story);
  $("story").scrollTop = $("story").scrollHeight;
  showActions();
  state.step = null;
  showSteps();
  // What the game expects of this viewer, as the host tells every front end; a player's
  // losses since their last turn come first.
  if (b.you && !b.staged) {
    say((b.losses.length ? "Since your last turn: " + b.losses.join("; ") + ". " : "") + b.expects);
  } else if (!b.you) {
    say(b.holder ? b.holder + " holds the Token" : "");
  }
}

function showActions() {
  const b = state.board;
  const box = $("actions");
  box.replaceChildren();
  $("choices").replaceChildren();
  if (!b.you || !b.you.mover) return;
  if (b.staged) {
    say(b.expects + " Nothing is final until you pass.");
    box.append(button("Pass", "primary", () => act({ do: "pass" })));
    for (const s of b.declarable) {
      box.append(button("Pass + Check on " + s.label, "check", () => act({ do: "check_pass", seat: s.seat })));
    }
    box.append(button("Take back", "", () => act({ do: "take_back" })));
    return;
  }
  // Pieces that stand on no cell (a placement from the reserve, a word move) are buttons.
  for (const p of b.pieces.filter((p) => !p.cell)) {
    box.append(button(p.label, "", () => choose(p.origin)));
  }
}

function button(label, cls, onclick) {
  const b = el("button", { type: "button", class: cls }, label);
  b.addEventListener("click", onclick);
  return b;
}

function cellGroup(q, r) {
  return $("board").querySelector('g.cell[data-q="' + q + '"][data-r="' + r + '"]');
}

function centre(q, r) {
  const g = cellGroup(q, r);
  return g ? [Number(g.dataset.x), Number(g.dataset.y)] : null;
}

function radius() {
  // Half the distance between two neighbouring centres is near enough a cell's inner radius.
  const svg = $("board").querySelector("svg");
  return Number(svg.dataset.radius || 12);
}

function highlight() {
  const layer = $("board").querySelector("#highlights");
  if (!layer) return;
  layer.replaceChildren();
  const c = state.chosen;
  if (!c) return;
  const rr = radius();
  if (c.from) {
    const at = centre(c.from[0], c.from[1]);
    if (at) layer.append(svgEl("circle", { cx: at[0], cy: at[1], r: rr * 0.85, class: "hl-from" }));
  }
  for (const t of c.targets) {
    if (!t.hex) continue;
    const at = centre(t.hex[0], t.hex[1]);
    if (!at) continue;
    // A capture of an enemy and a ram of your own piece are told apart by colour and by shape.
    if (t.mark === "ram") {
      const d = rr * 0.75;
      layer.append(svgEl("rect", { x: at[0] - d, y: at[1] - d, width: 2 * d, height: 2 * d, class: "hl-ram" }));
    } else if (t.takes.length) {
      layer.append(svgEl("circle", { cx: at[0], cy: at[1], r: rr * 0.8, class: "hl-capture" }));
    }
    layer.append(svgEl("circle", { cx: at[0], cy: at[1], r: rr * 0.42, class: "hl-target" }));
    const n = svgEl("text", { x: at[0], y: at[1], class: "hl-num", "font-size": rr * 0.5 });
    n.textContent = String(t.number);
    layer.append(n);
    if (t.checks.length) {
      layer.append(svgEl("circle", { cx: at[0] + rr * 0.55, cy: at[1] - rr * 0.55, r: rr * 0.32, class: "hl-check" }));
      const k = svgEl("text", { x: at[0] + rr * 0.55, y: at[1] - rr * 0.55, class: "hl-num", "font-size": rr * 0.42 });
      k.textContent = "+";
      layer.append(k);
    }
  }
}

// ---- playing --------------------------------------------------------------------------------

async function choose(origin) {
  // The tap's round trip, for the benchmark (performance entries cost nothing else).
  performance.mark("tap");
  try {
    const targets = await api("/api/targets?origin=" + encodeURIComponent(origin));
    const piece = state.board.pieces.find((p) => p.origin === origin);
    const from = piece && piece.cell ? state.byName.get(piece.cell.toLowerCase()) : null;
    state.chosen = { origin, targets, from };
    highlight();
    performance.measure("tap-targets", "tap");
    const word = targets.filter((t) => !t.hex);
    $("choices").replaceChildren(...word.map((t) => button(t.label, "", () => pick(t))));
    // What a target does beyond moving, in the words of the Discord buttons and the preview.
    const telling = targets.filter((t) => t.does.length).map((t) => t.label);
    say((piece ? piece.label : origin) + ": tap where it goes" + (telling.length ? ". " + telling.join("; ") : ""));
  } catch (e) {
    say(e.message, true);
  }
}

function pick(target) {
  if (target.moves.length === 1) {
    act({ do: "stage", text: target.moves[0] });
    return;
  }
  // Several moves end here (a promotion): the player chooses.
  say(target.cell + ": choose");
  $("choices").replaceChildren(...target.moves.map((m) => button(m, "", () => act({ do: "stage", text: m }))));
}

async function act(action) {
  if (state.busy) return;
  state.busy = true;
  try {
    const done = await api("/api/act", Object.assign({ version: state.board.version }, action));
    await load();
    // A move staged is told by the board's own headline (what it does, what may follow);
    // anything else the host said of the action is shown as it said it.
    if (done.said && done.said.length && !state.board.staged) say(done.said.join(" "));
  } catch (e) {
    say(e.message, true);
    if (e.status === 409) await load();
  } finally {
    state.busy = false;
  }
}

function tapped(q, r) {
  const b = state.board;
  if (!b) return;
  if (state.step !== null) return say("You are looking back through the game: press Now to play.");
  if (!b.you) return say("You are watching: this link shows the board but cannot move.");
  if (!b.you.mover) return say("It is " + (b.holder || "nobody") + "'s turn.");
  if (b.staged) return say("Pass, or take the staged move back first.");
  const name = state.cells.get(q + "," + r);
  const c = state.chosen;
  if (c) {
    const t = c.targets.find((t) => t.hex && t.hex[0] === q && t.hex[1] === r);
    if (t) return pick(t);
  }
  const piece = name && b.pieces.find((p) => p.cell && p.cell.toLowerCase() === name.toLowerCase());
  if (piece) return choose(piece.origin);
  state.chosen = null;
  highlight();
  $("choices").replaceChildren();
  // One of the player's own pieces that cannot move: why, as the host says it.
  const stuck = name && b.stuck.find((s) => s.cell.toLowerCase() === name.toLowerCase());
  say(stuck ? stuck.why : b.expects);
}

// ---- looking back, move by move -------------------------------------------------------------

function showSteps() {
  const n = state.board ? state.board.story.length : 0;
  const at = state.step === null ? n : state.step;
  $("step-back").disabled = at <= 0;
  $("step-next").disabled = state.step === null;
  $("step-now").disabled = state.step === null;
  $("step-label").textContent = state.step === null ? "" : at === 0 ? "the start" : "after move " + at + " of " + n;
  const items = $("story").children;
  for (let i = 0; i < items.length; i++) items[i].classList.toggle("shown", state.step !== null && i === at - 1);
}

async function stepTo(at) {
  const n = state.board.story.length;
  if (at >= n) {
    await load();
    return;
  }
  try {
    const s = await api("/api/replay?at=" + Math.max(0, at));
    const line = state.board.story[s.at - 1];
    putSvg(
      s.svg,
      "The board after move " + s.at + " of " + s.of + (line ? ": " + line : "") + ".",
    );
    applyView();
    state.step = s.at;
    state.chosen = null;
    $("actions").replaceChildren();
    $("choices").replaceChildren();
    say(s.at === 0 ? "The start of the game" : "After move " + s.at + " of " + s.of);
    showSteps();
  } catch (e) {
    say(e.message, true);
  }
}

function setupSteps() {
  const n = () => state.board.story.length;
  $("step-back").addEventListener("click", () => stepTo((state.step === null ? n() : state.step) - 1));
  $("step-next").addEventListener("click", () => stepTo((state.step === null ? n() : state.step) + 1));
  $("step-now").addEventListener("click", () => load());
}

// ---- zoom and pan ---------------------------------------------------------------------------

function applyView() {
  const svg = $("board").querySelector("svg");
  if (svg && state.view) svg.setAttribute("viewBox", state.view.join(" "));
}

function zoom(factor, cx, cy) {
  const [x, y, w, h] = state.view;
  const full = state.full;
  const nw = Math.min(full[2] * 1.2, Math.max(full[2] / 12, w * factor));
  const k = nw / w;
  const px = cx === undefined ? x + w / 2 : cx;
  const py = cy === undefined ? y + h / 2 : cy;
  state.view = [px - (px - x) * k, py - (py - y) * k, w * k, h * k];
  applyView();
}

function toBoard(svg, clientX, clientY) {
  const m = svg.getScreenCTM();
  if (!m) return [0, 0];
  const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
  return [p.x, p.y];
}

function setupGestures() {
  const host = $("board");
  const pointers = new Map();
  let moved = 0;
  let pinch = null;
  host.addEventListener("pointerdown", (e) => {
    host.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    moved = pointers.size > 1 ? 99 : 0;
    pinch = null;
  });
  host.addEventListener("pointermove", (e) => {
    const last = pointers.get(e.pointerId);
    const svg = host.querySelector("svg");
    if (!last || !svg) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pointers.size === 1) {
      const [ax, ay] = toBoard(svg, last[0], last[1]);
      const [bx, by] = toBoard(svg, e.clientX, e.clientY);
      moved += Math.abs(e.clientX - last[0]) + Math.abs(e.clientY - last[1]);
      if (moved > 8) {
        state.view[0] -= bx - ax;
        state.view[1] -= by - ay;
        applyView();
      }
    } else if (pointers.size === 2) {
      const [p, q] = [...pointers.values()];
      const d = Math.hypot(p[0] - q[0], p[1] - q[1]);
      const [mx, my] = toBoard(svg, (p[0] + q[0]) / 2, (p[1] + q[1]) / 2);
      if (pinch) zoom(pinch / d, mx, my);
      pinch = d;
    }
  });
  const up = (e) => {
    const was = pointers.get(e.pointerId);
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (!was || moved > 8 || e.type === "pointercancel") return;
    const hit = document.elementFromPoint(e.clientX, e.clientY);
    const g = hit && hit.closest ? hit.closest("g.cell") : null;
    if (g) tapped(Number(g.dataset.q), Number(g.dataset.r));
  };
  host.addEventListener("pointerup", up);
  host.addEventListener("pointercancel", up);
  host.addEventListener("wheel", (e) => {
    e.preventDefault();
    const svg = host.querySelector("svg");
    if (!svg) return;
    const [x, y] = toBoard(svg, e.clientX, e.clientY);
    zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, x, y);
  }, { passive: false });
  $("zoom-in").addEventListener("click", () => zoom(1 / 1.4));
  $("zoom-out").addEventListener("click", () => zoom(1.4));
  $("zoom-fit").addEventListener("click", () => {
    state.view = state.full.slice();
    applyView();
  });
}

// ---- loading and live updates ---------------------------------------------------------------

async function load() {
  let b;
  try {
    b = await api("/api/board");
  } catch (e) {
    // The board is busy drawing, or this viewer asked for many pictures: ask again after the
    // wait the server gave, so the board does not stay behind until the next move.
    if (e.status === 503 || e.status === 429) setTimeout(() => load().catch(() => {}), (e.retry || 2) * 1000);
    throw e;
  }
  showBoard(b);
  document.body.dataset.version = String(b.version);
}

// Server-sent events read with fetch, so the token goes in a header as everywhere else.
async function follow() {
  for (;;) {
    try {
      const res = await fetch(base + "/api/live", { headers: { Authorization: "Bearer " + token }, cache: "no-store" });
      if (!res.ok || !res.body) throw new Error("live " + res.status);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let i;
        while ((i = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const data = block.split("\n").find((l) => l.startsWith("data:"));
          const v = data ? Number(data.slice(5).trim()) : NaN;
          if (state.board && v > state.board.version && !state.busy) await load();
        }
      }
    } catch (_) {
      // Reconnect after a pause (a restart, a network change).
    }
    await new Promise((r) => setTimeout(r, 3000));
  }
}

// Inside Discord: the Embedded App SDK's handshake with the Discord client, an OAuth2 code for
// this user (asked of Discord, which asks the user the first time), exchanged by our server for
// Discord's access token and a board token of our own (a player's if they sit in the game the
// launch names, else a spectator's), then the SDK's authenticate. The client secret stays on the
// server; the tokens stay in this page's memory.
async function signInThroughDiscord() {
  say("Signing in through Discord…");
  const { DiscordSDK } = await import(base + "/assets/discord-sdk.js");
  const setup = await api("/api/activity");
  const sdk = new DiscordSDK(setup.client_id, { disableConsoleLogOverride: true });
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: setup.client_id,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify", "guilds"],
  });
  const signed = await api("/api/token", {
    code,
    channel_id: sdk.channelId || null,
    custom_id: sdk.customId || null,
  });
  await sdk.commands.authenticate({ access_token: signed.access_token });
  token = signed.token;
  document.body.dataset.activity = signed.plays ? "player" : "spectator";
}

async function main() {
  setupGestures();
  setupSteps();
  if (!token && launch.has("frame_id")) {
    try {
      await signInThroughDiscord();
    } catch (e) {
      say("Discord did not sign you in: " + (e.message || e), true);
      return;
    }
  }
  if (!token) {
    say("This board needs a link from the game's thread (Open the board, or My board).", true);
    return;
  }
  try {
    await load();
  } catch (e) {
    say(e.message, true);
    return;
  }
  // The first board on screen, from the navigation's start (the benchmark reads it).
  performance.mark("board-shown");
  follow();
}

main();

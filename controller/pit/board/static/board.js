// The pit board: every table's tile at "/", one table's page at "/table/<id>".
// It draws what the server's event stream says (a snapshot, then patches) and nothing else.
// Every value a table published is untrusted: it reaches the page only as text (textContent),
// never as markup, and the page's Content-Security-Policy runs no inline script.
"use strict";

(function () {
  const main = document.getElementById("main");
  const heading = document.getElementById("heading");
  const connection = document.getElementById("connection");
  const announcer = document.getElementById("announce");
  const match = /^\/table\/([A-Za-z0-9_-]{1,64})$/.exec(location.pathname);
  const pageTable = match ? match[1] : null;

  const tiles = new Map();      // table id -> tile JSON (the board)
  let detail = null;            // the table's page JSON (a table's page)
  let gone = false;             // the table's page: it was taken off the floor while watched
  const announced = new Set();  // "table:seq" of alarms already said aloud
  let first = true;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = String(v);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function time(ts) {
    return typeof ts === "number" ? new Date(ts * 1000).toLocaleTimeString([], {hour12: false}) : "";
  }

  const SEVERITY = {critical: "CRITICAL", fault: "FAULT", warning: "WARNING"};

  function alarmItem(table, a) {
    const cls = "alarm " + (SEVERITY[a.severity] ? a.severity : "warning") + (a.cleared ? " cleared" : "");
    return el("li", {class: cls, "data-key": `alarm:${table}:${a.seq}`, "data-code": a.code},
      el("span", {class: "sev", text: (SEVERITY[a.severity] || "ALARM") + (a.cleared ? " (cleared)" : "")}),
      " ", el("span", {class: "code", text: a.code}), ": ", el("span", {class: "message", text: a.message}),
      a.action ? el("span", {class: "action", text: "Action: " + a.action}) : null,
      a.cleared ? el("span", {class: "cleared-why", text: " — " + a.cleared}) : null);
  }

  function tileNode(t) {
    const id = t.table;
    const alarms = t.alarms || [];
    const worst = alarms.some(a => a.severity === "critical") ? "critical"
      : alarms.some(a => a.severity === "fault") ? "fault" : alarms.length ? "warning" : null;
    const classes = ["tile"];
    if (t.online === false) classes.push("offline");
    if (worst) classes.push("has-alarm", "has-" + worst);
    const nameId = `tile-${id}-name`;
    const state = t.online === false ? "OFFLINE" + (t.reason ? ": " + t.reason : "") : (t.state || "—");
    const summary = [`Table ${id}`, t.title || t.game || "", state,
      alarms.length ? `${alarms.length} alarm${alarms.length > 1 ? "s" : ""}` : "no alarms"].join(", ");
    const article = el("article", {class: classes.join(" "), tabindex: pageTable ? null : "0", "data-key": `tile:${id}`,
                                   "data-table": id, "aria-labelledby": nameId, "aria-describedby": `tile-${id}-sum`},
      el("h2", {id: nameId},
        pageTable ? el("span", {text: id}) : el("a", {href: `/table/${encodeURIComponent(id)}`, tabindex: "-1", text: id}),
        el("span", {class: "badge " + (t.online === false ? "offline" : "online"),
                    text: t.online === false ? "OFFLINE" : t.online ? "ONLINE" : "?"})),
      el("p", {class: "game", text: t.title || t.game || "game not known yet"}),
      el("p", {id: `tile-${id}-sum`, class: "announce", text: summary}),
      alarms.length ? el("ul", {class: "alarms", "aria-label": "Open alarms"}, ...alarms.map(a => alarmItem(id, a))) : null,
      el("p", {class: "line state"}, el("span", {class: "label", text: "State "}), state,
        t.round != null ? el("span", {class: "label", text: "  ·  Round "}) : null, t.round != null ? t.round : null,
        t.player_dealer != null ? el("span", {class: "label", text: "  ·  Player-dealer seat "}) : null,
        t.player_dealer != null ? t.player_dealer : null),
      el("p", {class: "line prompt", "data-prompt": ""}, el("span", {class: "label", text: "Next: "}), t.prompt || "—"),
      (t.cleared || []).length ? el("ul", {class: "recent", "aria-label": "Alarms cleared lately"},
        ...t.cleared.map(a => el("li", {title: a.message, text: `Cleared ${a.severity} ${a.code}: ${a.cleared}`}))) : null,
      el("ol", {class: "results", "aria-label": "Last results, newest first"},
        ...(t.results || []).map(r => el("li", {"data-key": `result:${id}:${r.seq}`, title: r.summary},
          r.round != null ? `#${r.round} ` : "", r.summary))),
      el("div", {class: "foot"},
        el("span", {class: "health " + (t.health || "unknown"), text: health(t)}),
        el("span", {class: "pace", text: t.hands_per_hour != null ? `${t.hands_per_hour} hands/h` : "— hands/h"})));
    if (!pageTable) {
      article.addEventListener("click", e => { if (!e.target.closest("a")) location.href = `/table/${encodeURIComponent(id)}`; });
      article.addEventListener("keydown", e => {
        if (e.key === "Enter") location.href = `/table/${encodeURIComponent(id)}`;
      });
    }
    return article;
  }

  function health(t) {
    const devices = Object.entries(t.devices || {});
    if (!devices.length) return "Devices: not known";
    const unwell = devices.filter(([, s]) => s !== "online");
    return unwell.length ? "Devices: " + unwell.map(([d, s]) => `${d} ${s}`).join(", ") : "Devices OK";
  }

  function announce(table, alarms) {
    const fresh = (alarms || []).filter(a => !announced.has(`${table}:${a.seq}`));
    for (const a of fresh) announced.add(`${table}:${a.seq}`);
    if (first || !fresh.length) return;
    const a = fresh[fresh.length - 1];
    announcer.textContent = `Table ${table}: ${SEVERITY[a.severity] || "ALARM"} ${a.code}: ${a.message}` +
      (a.action ? `. Action: ${a.action}` : "");
  }

  // -- the board ---------------------------------------------------------------------------
  function drawBoard() {
    const list = el("ul", {class: "tiles", id: "tiles", "aria-label": "Tables"});
    for (const id of [...tiles.keys()].sort()) list.append(el("li", {id: `li-${id}`}, tileNode(tiles.get(id))));
    main.replaceChildren(tiles.size ? list : el("p", {class: "empty", text: "No table has been heard from yet."}));
  }

  function removeTile(id) {     // its retained status was cleared: the table left the floor
    tiles.delete(id);
    drawBoard();
  }

  function updateTile(t) {
    tiles.set(t.table, t);
    announce(t.table, t.alarms);
    const li = document.getElementById(`li-${t.table}`);
    if (!li) return drawBoard();
    const focused = li.contains(document.activeElement);
    li.replaceChildren(tileNode(t));
    if (focused) li.querySelector("article").focus();
  }

  // -- a table's page ------------------------------------------------------------------------
  function drawPage() {
    document.title = `Pit board: ${pageTable}`;
    heading.textContent = `Table ${pageTable}`;
    if (!detail) {
      main.replaceChildren(el("p", {class: "empty", text: gone ? `Table ${pageTable} has left the floor.`
                                                             : `Table ${pageTable} has not been heard from yet.`}));
      return;
    }
    const left = el("div", {}, tileNode(detail));
    const right = el("div", {},
      detail.scoreboard ? scoreboard(detail.scoreboard) : null,
      el("section", {"aria-labelledby": "h-history"}, el("h2", {id: "h-history", text: "Rounds"}), history(detail.history || [])),
      el("section", {"aria-labelledby": "h-log"}, el("h2", {id: "h-log", text: "Alarm log"}),
        (detail.alarm_log || []).length
          ? el("ul", {class: "log alarms"}, ...detail.alarm_log.map(a => alarmItem(detail.table, a)))
          : el("p", {text: "No alarms."})));
    main.replaceChildren(el("div", {class: "page"}, left, right));
  }

  const SHOE = 200;   // controller/pit/board/picture.py SHOE: the results of a shoe the roads are drawn from
  const MARK_NAMES = {B: "banker", P: "player", T: "tie", red: "red", blue: "blue"};

  function scoreboard(board) {
    const c = board.counts || {};
    return el("section", {"aria-labelledby": "h-roads", id: "scoreboard"},
      el("h2", {id: "h-roads", text: "Scoreboard (this shoe)"}),
      el("p", {class: "counts", text: `Banker ${c.banker || 0} · Player ${c.player || 0} · Tie ${c.tie || 0}` +
        (board.earlier ? ` (the last ${SHOE} results; ${board.earlier} earlier ones of this shoe not drawn)` : "")}),
      el("div", {class: "roads"}, ...(board.grids || []).map(road)));
  }

  function road(grid) {
    const at = new Map(grid.cells.map(c => [`${c.col},${c.row}`, c]));
    const cols = Math.max(grid.cols, 12);
    const body = el("tbody");
    for (let r = 0; r < grid.rows; r++) {
      const tr = el("tr");
      for (let c = 0; c < cols; c++) {
        const cell = at.get(`${c},${r}`);
        if (!cell) { tr.append(el("td", {"aria-label": "empty"})); continue; }
        const words = [MARK_NAMES[cell.mark] || cell.mark];
        if (cell.ties) words.push(`${cell.ties} tie${cell.ties > 1 ? "s" : ""}`);
        if (cell.banker_pair) words.push("banker pair");
        if (cell.player_pair) words.push("player pair");
        const short = cell.mark === "red" || cell.mark === "blue" ? "" : cell.mark;
        tr.append(el("td", {"data-col": c, "data-row": r, "data-mark": cell.mark, "data-ties": cell.ties || null,
                            class: cell.ties ? "tied" : null, "aria-label": words.join(", ")},
          el("span", {class: "mark", text: short}),
          cell.ties > 1 ? el("span", {class: "ties", text: cell.ties}) : null,
          cell.banker_pair ? el("span", {class: "pair-b"}) : null,
          cell.player_pair ? el("span", {class: "pair-p"}) : null));
      }
      body.append(tr);
    }
    return el("figure", {class: "road " + grid.name, id: `road-${grid.name}`},
      el("figcaption", {text: grid.title + (grid.pending_ties ? ` (${grid.pending_ties} ties before the first win)` : "")}),
      el("table", {"aria-label": grid.title}, body));
  }

  function history(rounds) {
    if (!rounds.length) return el("p", {text: "No round yet."});
    const rows = rounds.map(h => el("tr", {"data-key": `round:${h.round}`},
      el("td", {text: h.round}), el("td", {text: time(h.ts)}),
      h.void ? el("td", {class: "void", text: `VOID (${h.void.by || "?"}): ${h.void.reason || ""}`})
             : el("td", {text: h.summary || ""}),
      el("td", {text: (h.alarms || []).join(", ")})));
    return el("table", {class: "history"},
      el("caption", {class: "announce", text: "Rounds, newest first"}),
      el("thead", {}, el("tr", {}, ...["Round", "Time", "Result", "Alarms"].map(h => el("th", {scope: "col", text: h})))),
      el("tbody", {}, ...rows));
  }

  function patchPage(p) {
    if (!p.tile) { detail = null; gone = true; return drawPage(); }
    gone = false;
    if (!detail) { detail = Object.assign({history: [], alarm_log: [], scoreboard: null}, p.tile); }
    const keep = {history: detail.history, alarm_log: detail.alarm_log, scoreboard: detail.scoreboard};
    detail = Object.assign(keep, p.tile);
    if (p.history) {
      const byRound = new Map(detail.history.map(h => [h.round, h]));
      for (const h of p.history) byRound.set(h.round, h);
      detail.history = [...byRound.values()].sort((a, b) => b.round - a.round).slice(0, 200);
    }
    if (p.alarm_log) detail.alarm_log = p.alarm_log;
    if (p.scoreboard !== undefined) detail.scoreboard = p.scoreboard;
    announce(pageTable, detail.alarms);
    drawPage();
  }

  // -- the stream ----------------------------------------------------------------------------
  function live(why) {
    connection.textContent = why ? `Live: redrawn, ${why}` : "Live";
    connection.classList.remove("lost");
  }

  function connect() {
    const source = new EventSource(pageTable ? `/events?table=${encodeURIComponent(pageTable)}` : "/events");
    // A reconnect the server lets go on where it was (its Last-Event-ID) gets no snapshot: open is live.
    source.onopen = () => live(null);
    source.addEventListener("snapshot", e => {
      const snap = JSON.parse(e.data);
      first = true;
      if (pageTable) {
        detail = snap.table;
        if (detail) announce(pageTable, detail.alarms);
        drawPage();
      } else {
        tiles.clear();
        for (const t of snap.tables) { tiles.set(t.table, t); announce(t.table, t.alarms); }
        drawBoard();
      }
      first = false;
      live(snap.resync);     // after a reconnect that could not go on: why this screen was redrawn
    });
    source.addEventListener("patch", e => {
      const p = JSON.parse(e.data);
      if (pageTable) { if (p.table === pageTable) patchPage(p); } else if (p.tile) updateTile(p.tile); else removeTile(p.table);
    });
    source.onerror = () => {
      connection.textContent = "Connection lost: reconnecting…";
      connection.classList.add("lost");
      if (source.readyState !== EventSource.CLOSED) return;   // the browser retries by itself
      // Refused (a login that expired, a server that restarted, a board at its connection cap):
      // ask why, then log in or retry when it says.
      fetch("/api/tables", {credentials: "same-origin"}).then(r => {
        if (r.status === 401) location.href = "/login?next=" + encodeURIComponent(location.pathname);
        else setTimeout(connect, 1000 * Math.min(60, Math.max(2, +r.headers.get("Retry-After") || 2)));
      }, () => setTimeout(connect, 2000));
    };
  }

  connect();
})();

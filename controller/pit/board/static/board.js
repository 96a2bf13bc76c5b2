// The pit board: the floor at "/" (every table as a compact cell, or ?view=tiles as detailed tiles),
// one table's page at "/table/<id>", and disputes from the archive: a table's rounds of any date at
// "/rounds/<id>", one round at "/round/<id>/<n>".
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
  const roundsMatch = /^\/rounds\/([A-Za-z0-9_-]{1,64})$/.exec(location.pathname);
  const roundMatch = /^\/round\/([A-Za-z0-9_-]{1,64})\/([1-9][0-9]{0,9})$/.exec(location.pathname);
  const params = new URLSearchParams(location.search);

  const tiles = new Map();      // table id -> tile JSON (the floor)
  let pit = [];                 // every pit service's health (controller/pit/board/picture.py Picture.pits)
  let detail = null;            // the table's page JSON (a table's page)
  let gone = false;             // the table's page: it was taken off the floor while watched
  const announced = new Set();  // "table:seq" of alarms already said aloud
  let first = true;
  // Who is logged in, what they may do, and the session's CSRF token (GET /api/me).
  let me = {user: null, role: "viewer", csrf: null, login: false, may: {}};

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

  // How long ago, in a few characters: "40 s", "12 min", "3 h 05", "4 d".
  function age(since) {
    if (typeof since !== "number") return "";
    const s = Math.max(0, Math.floor(Date.now() / 1000 - since));
    if (s < 90) return `${s} s`;
    if (s < 5400) return `${Math.round(s / 60)} min`;
    if (s >= 2 * 86400) return `${Math.floor(s / 86400)} d`;
    const h = Math.floor(s / 3600);
    return `${h} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}`;
  }

  // A moment with its date and its offset, so it reads the same anywhere: "2026-11-20 14:00:10 UTC+01:00".
  function stamp(ts) {
    if (typeof ts !== "number") return "";
    const d = new Date(ts * 1000);
    const two = n => String(n).padStart(2, "0");
    const off = -d.getTimezoneOffset();
    return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ` +
      `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())} ` +
      `UTC${off < 0 ? "-" : "+"}${two(Math.floor(Math.abs(off) / 60))}:${two(Math.abs(off) % 60)}`;
  }

  function ageNode(since, prefix) {
    return typeof since === "number" ? el("span", {class: "age", "data-since": since, "data-prefix": prefix || "",
                                                   text: (prefix || "") + age(since)}) : null;
  }

  // Ages tick where they are drawn: only the text of each age changes, nothing is redrawn.
  setInterval(() => {
    for (const node of document.querySelectorAll(".age[data-since]")) {
      node.textContent = node.dataset.prefix + age(+node.dataset.since);
    }
  }, 1000);

  const SEVERITY = {critical: "CRITICAL", fault: "FAULT", warning: "WARNING"};
  const LEVEL_WORD = {critical: "CRITICAL", fault: "FAULT", offline: "OFFLINE", warning: "WARNING",
                      unknown: "NOT HEARD", ok: "OK"};
  // controller/pit/board/picture.py LEVELS and floor_order: the same order as `tablectl watch`.
  const LEVELS = {critical: 5, fault: 4, offline: 3, warning: 2, unknown: 1, ok: 0};

  function floorKey(t) {
    const problems = (t.condition && t.condition.problems) || [];
    const since = problems.filter(p => typeof p.since === "number").map(p => p.since);
    return [-(LEVELS[t.condition ? t.condition.level : "unknown"] || 0), since.length ? Math.min(...since) : Infinity,
            t.area == null ? 1 : 0, t.area || "", t.table];
  }

  function compareKeys(a, b) {
    for (let i = 0; i < a.length; i++) {
      if (a[i] < b[i]) return -1;
      if (a[i] > b[i]) return 1;
    }
    return 0;
  }

  function floorOrder(list) {
    return list.map(t => [floorKey(t), t]).sort((x, y) => compareKeys(x[0], y[0])).map(x => x[1]);
  }

  function ackLine(ack) {
    if (!ack) return null;
    return el("span", {class: "ack", "data-ack": ack.id},
      `Acknowledged by ${ack.by}`, ageNode(ack.ts, " "), " ago",
      ack.assignee ? `, assigned to ${ack.assignee}` : "", ack.note ? ": " : "",
      ack.note ? el("q", {class: "note", text: ack.note}) : null);
  }

  function alarmItem(table, a, actions) {
    const cls = "alarm " + (SEVERITY[a.severity] ? a.severity : "warning") + (a.cleared ? " cleared" : "") +
      (a.ack ? " acked" : "");
    return el("li", {class: cls, "data-key": `alarm:${table}:${a.seq}`, "data-code": a.code,
                     "data-acked": a.ack ? a.ack.id : null},
      el("span", {class: "sev", text: (SEVERITY[a.severity] || "ALARM") + (a.cleared ? " (cleared)" : "")}),
      " ", el("span", {class: "code", text: a.code}), ": ", el("span", {class: "message", text: a.message}),
      a.cleared ? null : ageNode(a.ts, " · "),
      a.action ? el("span", {class: "action", text: "Action: " + a.action}) : null,
      a.cleared ? el("span", {class: "cleared-why", text: " — " + a.cleared}) : null,
      ackLine(a.ack), actions ? ackButton(table, a) : null);
  }

  function stateWord(t) {
    return t.online === false ? "OFFLINE" : (t.state || "—");
  }

  function gapWords(g) {
    if (!g) return "";
    const parts = [];
    if (g.open) parts.push(`${g.open[1]} seq${g.open[1] === 1 ? "" : "s"} missing (asked for)`);
    if (g.unfillable) parts.push(`${g.unfillable[1]} seq${g.unfillable[1] === 1 ? "" : "s"} lost for good`);
    return parts.join(", ");
  }

  function shortGaps(g) {
    return [g.open ? `gap: ${g.open[1]} seqs missing` : "", g.unfillable ? `lost: ${g.unfillable[1]} seqs` : ""]
      .filter(Boolean).join(" · ");
  }

  function openTable(id) { location.href = `/table/${encodeURIComponent(id)}`; }

  function clickable(node, id) {
    node.addEventListener("click", e => { if (!e.target.closest("a, button, dialog, form")) openTable(id); });
    node.addEventListener("keydown", e => { if (e.key === "Enter" && e.target === node) openTable(id); });
  }


  // -- what a supervisor may do: acknowledge an alarm, void or resume a round --------------------
  // Each asks first (a dialog saying exactly what will be done), then POSTs with the session's CSRF
  // token; the board's answer (or the table's refusal) is shown in the dialog. An acknowledgement
  // reaches this page as it reaches every board: through the stream, not from this answer.
  function post(path, fields) {
    return fetch(path, {method: "POST", credentials: "same-origin",
                        headers: {"X-CSRF-Token": me.csrf || "", "Content-Type": "application/x-www-form-urlencoded"},
                        body: new URLSearchParams(fields).toString()})
      .then(r => r.json().then(body => ({ok: r.ok, status: r.status, body}), () => ({ok: false, status: r.status,
                                                                                      body: {error: r.statusText}})));
  }

  function ask(title, lines, fields, confirmWord, send) {
    const dialog = el("dialog", {class: "confirm", id: "confirm", "aria-labelledby": "confirm-title"});
    const said = el("p", {class: "said", role: "status", id: "confirm-said"});
    const go = el("button", {type: "submit", class: "danger", id: "confirm-go", text: confirmWord});
    const form = el("form", {method: "dialog"},
      el("h2", {id: "confirm-title", text: title}), ...lines.map(l => el("p", {text: l})), ...fields, said,
      el("p", {class: "buttons"}, go, " ", el("button", {type: "button", id: "confirm-cancel", text: "Cancel"})));
    form.querySelector("#confirm-cancel").addEventListener("click", () => dialog.close());
    form.addEventListener("submit", e => {
      e.preventDefault();
      go.disabled = true;
      said.textContent = "Sending…";
      send(form).then(({ok, body}) => {
        said.textContent = ok ? "Done." : (body.error || "refused");
        said.className = "said " + (ok ? "done" : "refused");
        if (ok) setTimeout(() => dialog.close(), 800); else go.disabled = false;
      }, () => { said.textContent = "The board did not answer: nothing is known to have been done."; go.disabled = false; });
    });
    dialog.append(form);
    dialog.addEventListener("close", () => dialog.remove());
    document.body.append(dialog);
    dialog.showModal();
  }

  function field(label, id, input) {
    return el("p", {}, el("label", {for: id, text: label}), " ", input);
  }

  function ackButton(table, a) {
    if (!me.may.acknowledge || a.cleared) return null;
    const button = el("button", {type: "button", class: "act ack-button", "data-action": "ack", "data-seq": a.seq,
                                 text: a.ack ? "Acknowledge again" : "Acknowledge"});
    button.addEventListener("click", e => {
      e.stopPropagation();
      const note = el("textarea", {id: "ack-note", name: "note", maxlength: "500", rows: "3"});
      const assignee = el("input", {id: "ack-assignee", name: "assignee", maxlength: "32", autocomplete: "off",
                                    pattern: "[a-z][a-z0-9_.\\-]{0,31}", spellcheck: "false"});
      ask(`Acknowledge ${SEVERITY[a.severity] || "ALARM"} ${a.code} at table ${table}?`,
          [a.message, a.ack ? `Acknowledged already by ${a.ack.by}: yours replaces it.` : "It stays open until the table goes on.",
           `As ${me.user}.`],
          [field("Note (optional)", "ack-note", note), field("Assign to (optional, a user's name)", "ack-assignee", assignee)],
          "Acknowledge",
          () => post("/api/ack", {table, seq: a.seq, note: note.value, assignee: assignee.value,
                                  replaces: a.ack ? a.ack.id : ""}));
    });
    return button;
  }

  function roundButtons(t) {
    const inRound = ["betting", "dealing", "fault"].includes(t.state);
    if (!pageTable || t.online !== true || t.round == null || !inRound) return null;
    const out = [];
    if (me.may.void) {
      const b = el("button", {type: "button", class: "act danger", "data-action": "void", text: `Void round ${t.round}`});
      b.addEventListener("click", () => {
        const reason = el("input", {id: "void-reason", name: "reason", maxlength: "200", required: true});
        ask(`Void round ${t.round} of table ${t.table}?`,
            ["The table voids the round it is dealing, if it is still this one; the void is recorded as yours, " +
             `pit:${me.user}.`],
            [field("Reason", "void-reason", reason)], `Void round ${t.round}`,
            () => post("/api/void", {table: t.table, round: t.round, reason: reason.value}));
      });
      out.push(b);
    }
    if (me.may.resume && t.state === "fault") {
      const b = el("button", {type: "button", class: "act", "data-action": "resume", text: `Resume round ${t.round}`});
      b.addEventListener("click", () => ask(`Resume round ${t.round} of table ${t.table}?`,
        ["The table leaves its fault and deals on (a card it could not place is burned); recorded as yours, " +
         `pit:${me.user}.`], [], `Resume round ${t.round}`,
        () => post("/api/resume", {table: t.table, round: t.round})));
      out.push(b);
    }
    return out.length ? el("p", {class: "actions"}, ...out) : null;
  }

  function userBar() {
    const bar = document.getElementById("who") || el("p", {id: "who", class: "who"});
    if (!me.login) { bar.replaceChildren(); return; }
    const form = el("form", {method: "post", action: "/logout", class: "logout"},
      el("input", {type: "hidden", name: "csrf", value: me.csrf || ""}), el("button", {type: "submit", text: "Log out"}));
    bar.replaceChildren(el("span", {text: me.user ? `${me.user} (${me.role})` : `shared login (${me.role})`}), " ", form);
    if (!bar.isConnected) connection.after(bar);
  }

  // -- a detailed tile (a table's page, and the floor's ?view=tiles) ------------------------------
  function tileNode(t) {
    const id = t.table;
    const alarms = t.alarms || [];
    const level = t.condition ? t.condition.level : "unknown";
    const classes = ["tile", "level-" + level];
    if (t.online === false) classes.push("offline");
    const worst = alarms.some(a => a.severity === "critical") ? "critical"
      : alarms.some(a => a.severity === "fault") ? "fault" : alarms.length ? "warning" : null;
    if (worst) classes.push("has-alarm", "has-" + worst);
    const nameId = `tile-${id}-name`;
    const state = t.online === false ? "OFFLINE" + (t.reason ? ": " + t.reason : "") : (t.state || "—");
    const summary = [`Table ${id}`, t.title || t.game || "", state,
      alarms.length ? `${alarms.length} alarm${alarms.length > 1 ? "s" : ""}` : "no alarms"].join(", ");
    const problems = ((t.condition && t.condition.problems) || []).filter(p => !p.seq || !alarms.some(a => a.seq === p.seq));
    const article = el("article", {class: classes.join(" "), tabindex: pageTable ? null : "0", "data-key": `tile:${id}`,
                                   "data-table": id, "aria-labelledby": nameId, "aria-describedby": `tile-${id}-sum`},
      el("h2", {id: nameId},
        pageTable ? el("span", {text: id}) : el("a", {href: `/table/${encodeURIComponent(id)}`, tabindex: "-1", text: id}),
        el("span", {class: "badge " + (t.online === false ? "offline" : "online"),
                    text: t.online === false ? "OFFLINE" : t.online ? "ONLINE" : "?"})),
      el("p", {class: "game", text: (t.title || t.game || "game not known yet") + (t.area ? ` · ${t.area}` : "")}),
      el("p", {id: `tile-${id}-sum`, class: "announce", text: summary}),
      problems.length ? el("ul", {class: "problems", "aria-label": "What is wrong"},
        ...problems.map(p => el("li", {class: "problem " + p.level},
          el("span", {class: "sev", text: LEVEL_WORD[p.level] || p.level.toUpperCase()}), " ", p.what,
          ageNode(p.since, " · ")))) : null,
      alarms.length ? el("ul", {class: "alarms", "aria-label": "Open alarms"},
        ...alarms.map(a => alarmItem(id, a, !!pageTable))) : null,
      el("p", {class: "line state"}, el("span", {class: "label", text: "State "}), state,
        t.round != null ? el("span", {class: "label", text: "  ·  Round "}) : null, t.round != null ? t.round : null,
        t.player_dealer != null ? el("span", {class: "label", text: "  ·  Player-dealer seat "}) : null,
        t.player_dealer != null ? t.player_dealer : null),
      el("p", {class: "line prompt", "data-prompt": ""}, el("span", {class: "label", text: "Next: "}), t.prompt || "—"),
      roundButtons(t),
      t.gaps ? el("p", {class: "line gaps", text: "Archive: " + gapWords(t.gaps)}) : null,
      t.collected ? collectedLine(t.collected) : null,
      t.integrity && t.integrity.length ? el("p", {class: "line integrity-flag", "data-flags": t.integrity.join(" "),
        text: `Integrity flagged: ${t.integrity.join(", ")} (see the figures)`}) : null,
      (t.cleared || []).length ? el("ul", {class: "recent", "aria-label": "Alarms cleared lately"},
        ...t.cleared.map(a => el("li", {title: a.message, text: `Cleared ${a.severity} ${a.code}: ${a.cleared}`}))) : null,
      el("ol", {class: "results", "aria-label": "Last results, newest first"},
        ...(t.results || []).map(r => el("li", {"data-key": `result:${id}:${r.seq}`, title: r.summary},
          r.round != null ? `#${r.round} ` : "", r.summary))),
      el("div", {class: "foot"},
        el("span", {class: "health " + (t.health || "unknown"), text: health(t)}),
        el("span", {class: "pace", text: t.hands_per_hour != null ? `${t.hands_per_hour} hands/h` : "— hands/h"})));
    if (!pageTable) clickable(article, id);
    return article;
  }

  function money(cents) { return `${Math.floor(cents / 100).toLocaleString("en-US")}.${String(cents % 100).padStart(2, "0")}`; }

  // What a poker-room table collected this shift (controller/pit/board/collected.py: the report's rules).
  function collectedLine(c) {
    const now = Date.now() / 1000 < c.end;
    return el("p", {class: "line collected", "data-collected": c.total},
      el("span", {class: "label", text: now ? `Collected this ${c.shift} shift: ` : `Collected, ${c.shift} shift of ${c.day}: `}),
      `fees ${money(c.fees)} · time ${money(c.time)} · jackpot ${money(c.jackpot)} = ${money(c.total)}`,
      c.partial_since ? el("span", {class: "partial", text: ` (since ${time(c.partial_since)}, when this board began ` +
                                                           "hearing the table: the report has the whole shift)"}) : null);
  }

  function health(t) {
    const devices = Object.entries(t.devices || {});
    if (!devices.length) return "Devices: not known";
    const unwell = devices.filter(([, s]) => s !== "online").map(([d, s]) => `${d} ${s}`);
    for (const [d, code] of Object.entries(t.device_faults || {})) unwell.push(`${d} reported ${code}`);
    return unwell.length ? "Devices: " + unwell.join(", ") : "Devices OK";
  }

  // -- a compact cell of the floor: readable from a step back, 48 and more on one screen ----------
  function shortTitle(t) { return (t.title || t.game || "game not known").split(" (")[0]; }

  // What the cell's last line says of the worst problem, without repeating its level word.
  function problemWords(p) { return p.what.replace(/^(offline|in fault)(: )?/, "") || p.what; }

  // The prompt in a few words: in fault, only what is to be done (the fault itself is the alarm line).
  function nextWords(t) {
    if (t.online === false) return typeof t.last_ts === "number" ? "last heard " + time(t.last_ts) : "—";
    const text = t.prompt || "—";
    const on = text.indexOf("To go on, ");
    if (t.expect !== "fault" || on < 0) return text;
    const todo = text.slice(on + "To go on, ".length);
    return todo.charAt(0).toUpperCase() + todo.slice(1);
  }

  // A tiny mark when a table's integrity monitors flagged something since their counts began (the
  // alarm itself is a warning like any other): the words say which, on hover and to a screen reader.
  function integrityMark(t) {
    if (!t.integrity || !t.integrity.length) return null;
    const words = `integrity flagged: ${t.integrity.join(", ")}`;
    return el("span", {class: "integrity-flag", title: words, "aria-label": words, "data-flags": t.integrity.join(" "),
                       text: " ⚑"});
  }

  function cellNode(t) {
    const id = t.table;
    const cond = t.condition || {level: "unknown", problems: []};
    const worst = cond.problems[0];
    const unacked = cond.problems.some(p => p.level === "critical" && !p.ack);
    const cls = ["cell", "level-" + cond.level];
    if (unacked) cls.push("unacked-critical");
    const nameId = `cell-${id}-name`;
    const more = cond.problems.length - 1;
    const words = [`Table ${id}`, shortTitle(t), stateWord(t)];
    if (worst) words.push(`${LEVEL_WORD[worst.level] || worst.level}: ${worst.what}`);
    const article = el("article", {class: cls.join(" "), tabindex: "0", "data-key": `tile:${id}`, "data-table": id,
                                   "data-level": cond.level, "aria-labelledby": nameId,
                                   "aria-describedby": `cell-${id}-sum`, title: t.prompt || ""},
      el("p", {id: `cell-${id}-sum`, class: "announce", text: words.join(", ")}),
      el("h2", {id: nameId},
        el("a", {href: `/table/${encodeURIComponent(id)}`, tabindex: "-1", text: id}),
        el("span", {class: "state state-" + (t.online === false ? "offline" : (t.state || "none")), text: stateWord(t)})),
      el("p", {class: "meta"},
        el("span", {class: "round", text: t.round != null ? `#${t.round}` : "#—"}),
        el("span", {class: "pace", text: t.hands_per_hour != null ? ` · ${Math.round(t.hands_per_hour)}/h` : " · —/h"}),
        t.area ? el("span", {class: "area", text: ` · ${t.area}`}) : null,
        el("span", {class: "game", text: ` · ${shortTitle(t)}`}),
        integrityMark(t)),
      el("p", {class: "next", "data-prompt": ""}, nextWords(t)),
      worst ? el("p", {class: "worst " + worst.level + (worst.ack ? " acked" : ""),
                       "data-key": worst.seq ? `alarm:${id}:${worst.seq}` : `problem:${id}:${worst.code || worst.level}`},
        el("span", {class: "what"},
          // the level in words as well as in colour, unless the state's badge just said it
          (worst.level === "fault" && t.state === "fault") || worst.level === "offline" ? null
            : el("span", {class: "sev", text: (LEVEL_WORD[worst.level] || worst.level) + " "}),
          problemWords(worst)),
        el("span", {class: "when"},
          worst.ack ? el("span", {class: "ack", text: `ack ${worst.ack.by} `}) : null,
          more > 0 ? el("span", {class: "more", text: `+${more} `}) : null,
          ageNode(worst.since)))
        : (t.gaps ? el("p", {class: "worst gaps", text: shortGaps(t.gaps)}) : null));
    clickable(article, id);
    return article;
  }

  function announce(table, alarms) {
    const fresh = (alarms || []).filter(a => !announced.has(`${table}:${a.seq}`));
    for (const a of fresh) announced.add(`${table}:${a.seq}`);
    if (first || !fresh.length) return;
    const a = fresh[fresh.length - 1];
    announcer.textContent = `Table ${table}: ${SEVERITY[a.severity] || "ALARM"} ${a.code}: ${a.message}` +
      (a.action ? `. Action: ${a.action}` : "");
  }

  // -- the floor -----------------------------------------------------------------------------------
  const view = params.get("view") === "tiles" ? "tiles" : "floor";
  const filter = {game: params.get("game") || "", area: params.get("area") || ""};
  const items = new Map();      // table id -> its <li> on the floor
  let list = null, summaryBar = null, pitBar = null, gameSelect = null, areaSelect = null;

  function shown(t) {
    return (!filter.game || t.game === filter.game) && (!filter.area || (t.area || "") === filter.area);
  }

  function draw(t) { return view === "tiles" ? tileNode(t) : cellNode(t); }

  function drawFloor() {
    items.clear();
    list = el("ul", {class: view === "tiles" ? "tiles" : "floor", id: "tiles", "aria-label": "Tables"});
    summaryBar = el("p", {class: "summary", id: "summary", role: "status"});
    pitBar = el("p", {class: "pit", id: "pit-health"});
    gameSelect = el("select", {id: "filter-game", "aria-label": "Game"});
    areaSelect = el("select", {id: "filter-area", "aria-label": "Area"});
    gameSelect.addEventListener("change", () => setFilter("game", gameSelect.value));
    areaSelect.addEventListener("change", () => setFilter("area", areaSelect.value));
    const other = new URLSearchParams(location.search);
    if (view === "tiles") other.delete("view"); else other.set("view", "tiles");
    const bar = el("div", {class: "bar"}, summaryBar, pitBar);
    const filters = el("form", {class: "filters", id: "filters", role: "search", "aria-label": "Filter the floor"},
      el("label", {for: "filter-game", text: "Game "}), gameSelect,
      el("label", {for: "filter-area", text: " Area "}), areaSelect, " ",
      el("a", {href: "/?" + other.toString(), id: "switch-view", text: view === "tiles" ? "Compact floor" : "Detailed tiles"}));
    const old = document.getElementById("filters");
    if (old) old.replaceWith(filters); else connection.before(filters);
    for (const t of tiles.values()) items.set(t.table, el("li", {id: `li-${t.table}`}, draw(t)));
    main.replaceChildren(bar, tiles.size ? list : el("p", {class: "empty", text: "No table has been heard from yet."}));
    arrange();
  }

  function setFilter(key, value) {
    filter[key] = value;
    const q = new URLSearchParams(location.search);
    if (value) q.set(key, value); else q.delete(key);
    history.replaceState(null, "", location.pathname + (q.toString() ? "?" + q.toString() : ""));
    arrange();
  }

  function options(select, values, chosen, all) {
    const want = [["", all], ...values];
    if (chosen && !values.some(([v]) => v === chosen)) want.push([chosen, chosen + " (no table now)"]);
    const have = [...select.options].map(o => o.value + "\u0000" + o.textContent).join("\u0001");
    if (have !== want.map(([v, label]) => v + "\u0000" + label).join("\u0001")) {
      select.replaceChildren(...want.map(([v, label]) => el("option", {value: v, text: label})));
    }
    select.value = chosen;
  }

  // Order, filters, the summary: after every change (a few hundred cells at most: cheap).
  function arrange() {
    if (!list) return;
    const all = [...tiles.values()];
    const games = new Map(all.filter(t => t.game).map(t => [t.game, shortTitle(t)]));
    options(gameSelect, [...games].sort((a, b) => a[1] < b[1] ? -1 : 1), filter.game, "All games");
    const areas = [...new Set(all.map(t => t.area || ""))].sort().map(a => [a, a || "No area"]);
    options(areaSelect, areas, filter.area, "All areas");
    const ordered = floorOrder(all);
    const want = ordered.map(t => items.get(t.table)).filter(Boolean);
    const have = [...list.children];
    if (want.length !== have.length || want.some((li, i) => li !== have[i])) {
      const focused = document.activeElement;
      list.replaceChildren(...want);
      if (focused && list.contains(focused)) focused.focus();
    }
    for (const t of ordered) { const li = items.get(t.table); if (li) li.hidden = !shown(t); }
    if (!list.isConnected && tiles.size) drawFloor();
    summarize(ordered.filter(shown), all.length);
  }

  function summarize(visible, total) {
    const count = f => visible.filter(f).length;
    const open = count(t => t.online !== false && t.state && t.state !== "closed");
    const fault = count(t => t.online !== false && (t.state === "fault" ||
                                                    ["critical", "fault"].includes(t.condition && t.condition.level)));
    const offline = count(t => t.online === false);
    const alarms = visible.reduce((n, t) => n + (t.alarms || []).length, 0);
    const unacked = visible.reduce((n, t) => n + (t.alarms || []).filter(a => !a.ack).length, 0);
    const part = (n, word, cls) => el("span", {class: "count " + (n && cls ? cls : ""), "data-count": word}, el("b", {text: n}), " " + word);
    summaryBar.replaceChildren(
      part(visible.length, visible.length === total ? "tables" : `of ${total} tables`), " ",
      part(open, "open"), " ", part(fault, "in fault", "bad"), " ", part(offline, "offline", "bad"), " ",
      part(alarms, "open alarms", "bad"), unacked ? el("span", {class: "count bad", text: ` (${unacked} unacknowledged)`}) : "");
    drawPit();
  }

  // The pit's own health (issue 21.4): each pit service's database and broker, events waiting for
  // the archive and for how long, events refused, and each table's gaps. Only what they said.
  function drawPit() {
    if (!pitBar) return;
    const parts = [];
    const say = (text, bad) => parts.push(el("span", {class: "pit-part" + (bad ? " bad" : ""), text}));
    if (!pit.length) say("no pit service's status heard yet", true);
    for (const p of pit) {
      if (!p.online) { say(`${p.id} OFFLINE`, true); continue; }
      if (p.broker === "disconnected") say(`${p.id}: BROKER AWAY`, true);
      if (p.db === "down") say(`${p.id}: DATABASE DOWN`, true);
    }
    const archiving = pit.filter(p => p.online && p.archive);
    if (pit.length && !archiving.length) say("no archiving pit service online", true);
    const held = archiving.reduce((n, p) => n + (p.held || 0), 0);
    const since = archiving.map(p => p.held_since).filter(s => typeof s === "number");
    const lag = Math.max(0, ...archiving.map(p => p.commit_lag || 0));
    if (archiving.length) {
      const waiting = since.length ? el("span", {class: "pit-part bad"}, `${held} events waiting for the archive, oldest `,
                                         ageNode(Math.min(...since))) : null;
      if (waiting) parts.push(waiting); else say(`archive lag ${lag < 1 ? Math.round(lag * 1000) + " ms" : lag.toFixed(1) + " s"}`, lag >= 5);
    }
    const refused = pit.reduce((n, p) => n + (p.rejected || 0), 0);
    say(`${refused} event${refused === 1 ? "" : "s"} refused`, refused > 0);
    const gapped = [...tiles.values()].filter(t => t.gaps);
    if (gapped.length) {
      say("gaps: " + gapped.slice(0, 6).map(t => `${t.table} ${gapWords(t.gaps)}`).join("; ") +
          (gapped.length > 6 ? `; ${gapped.length - 6} more tables` : ""), true);
    } else if (archiving.length) {
      say("no gaps", false);
    }
    // Last: the broker's settings that lose events (issue 21.2) are the site's to fix, not news.
    const risks = [...new Set(archiving.flatMap(p => p.broker_risks || []))];
    if (risks.length) {
      say("broker settings that lose events: " +
          [...new Set(risks.map(r => (r.split(": ")[1] || "").split(" ")[0]))].join(", "), true);
    }
    pitBar.replaceChildren(el("span", {class: "label", text: "Pit: "}), ...parts.flatMap((p, i) => i ? [" · ", p] : [p]));
    pitBar.title = [pitBar.textContent, ...risks].join("\n");   // whole, where the line is cut
  }

  function removeTile(id) {     // its retained status was cleared: the table left the floor
    tiles.delete(id);
    items.delete(id);
    const li = document.getElementById(`li-${id}`);
    if (li) li.remove();
    if (!tiles.size) drawFloor(); else arrange();
  }

  function updateTile(t) {
    tiles.set(t.table, t);
    announce(t.table, t.alarms);
    let li = items.get(t.table);
    if (!li) {
      li = el("li", {id: `li-${t.table}`});
      items.set(t.table, li);
      if (!list || !list.isConnected) { drawFloor(); return; }
    }
    const focused = li.contains(document.activeElement);
    li.replaceChildren(draw(t));
    if (focused) li.querySelector("article").focus();
    arrange();
  }

  // -- a table's page ------------------------------------------------------------------------
  function drawPage() {
    document.title = `Pit board: ${pageTable}`;
    heading.textContent = `Table ${pageTable}`;
    if (!detail) {
      main.replaceChildren(el("p", {class: "empty", text: gone ? `Table ${pageTable} has left the floor.`
                                                             : `Table ${pageTable} has not been heard from yet.`}),
                           finder(pageTable));
      return;
    }
    const left = el("div", {}, tileNode(detail));
    const right = el("div", {},
      integrity(detail.figures || {}),
      detail.scoreboard ? scoreboard(detail.scoreboard) : null,
      el("section", {"aria-labelledby": "h-history"}, el("h2", {id: "h-history", text: "Rounds"}),
        finder(pageTable), historyTable(detail.history || [])),
      el("section", {"aria-labelledby": "h-log"}, el("h2", {id: "h-log", text: "Alarm log"}),
        (detail.alarm_log || []).length
          ? el("ul", {class: "log alarms"}, ...detail.alarm_log.map(a => alarmItem(detail.table, a)))
          : el("p", {text: "No alarms."})));
    main.replaceChildren(el("div", {class: "page"}, left, right));
  }

  // -- integrity figures (controller/pit/board/figures.py; docs/pit-board.md, "Integrity") ----------
  // A p-value as a surveillance officer reads it: plain decimals (0.412, 0.00038), and below one in
  // a million only that (how far below changes nothing one does).
  function pValue(p) {
    if (typeof p !== "number") return "—";
    if (p >= 0.001) return p.toFixed(3);
    return p >= 1e-6 ? String(Number(p.toPrecision(2))) : "< 0.000001";
  }
  function pIs(p) { const v = pValue(p); return v.startsWith("<") ? `p ${v}` : `p = ${v}`; }
  // When counts began: the date too (they run for days), to the minute.
  function began(ts) { return typeof ts === "number" ? stamp(ts).replace(/:\d\d UTC/, " UTC") : "—"; }
  function num(x, digits) { return typeof x === "number" ? (digits != null ? x.toFixed(digits) : String(x)) : "—"; }
  function flagCell(flagged) {
    return el("td", {class: flagged ? "flag flagged" : "flag", text: flagged ? "FLAGGED" : ""});
  }
  // How far a class's count is from its expected count, in standard units ((count - expected) /
  // sqrt(expected)): within a pooled cell the test cannot say which class was off; this can.
  function off(c) {
    if (typeof c.count !== "number" || typeof c.expected !== "number" || c.expected <= 0) return "—";
    const z = (c.count - c.expected) / Math.sqrt(c.expected);
    return (z > 0 ? "+" : z < 0 ? "-" : "") + Math.abs(z).toFixed(1);
  }
  function headRow(names) { return el("thead", {}, el("tr", {}, ...names.map(h => el("th", {scope: "col", text: h})))); }

  function integrity(figures) {
    const dice = figures.dice, outcomes = figures.integrity;
    const parts = [el("h2", {id: "h-integrity", text: "Integrity"})];
    if (!dice && !outcomes) {
      parts.push(el("p", {class: "dim", text: "This table publishes no integrity figures (no dice cup, no counted wager)."}));
    }
    if (dice) parts.push(diceFigures(dice));
    if (outcomes && outcomes.wagers.length) parts.push(outcomeFigures(outcomes));
    if (outcomes && outcomes.shuffle) parts.push(shuffleFigures(outcomes.shuffle));
    return el("section", {"aria-labelledby": "h-integrity", id: "integrity", class: "integrity"}, ...parts);
  }

  function diceFigures(d) {
    return el("div", {id: "integrity-dice"}, el("h3", {text: "Dice"}),
      el("p", {class: "rule", text: `A die is tested once it has ${num(d.min_shakes)} throws; flagged below p = ${num(d.p_bias)}.`}),
      ...d.cups.map(c => el("table", {class: "figures", "data-cup": c.cup},
        el("caption", {text: `Cup ${c.cup}` + (c.serial ? ` (serial ${c.serial})` : "") +
          ` · ${num(c.shakes)} throws since ${began(c.since)}`}),
        headRow(["Die", "Throws", "χ²", "p", "Face most off", ""]),
        el("tbody", {}, ...c.dice.map(x => el("tr", {class: x.flagged ? "flagged" : null, "data-die": x.die},
          el("td", {text: x.die}), el("td", {text: num(x.shakes)}), el("td", {text: num(x.chi_square, 2)}),
          el("td", {text: pValue(x.p_value)}),
          el("td", {text: x.most_off ? `${x.most_off.face}: ${num(x.most_off.count)} vs ${num(x.most_off.expected, 1)}` : "—"}),
          flagCell(x.flagged)))))));
  }

  function outcomeFigures(o) {
    const rows = o.wagers.map(w => el("tr", {class: w.flagged.length ? "flagged" : null, "data-wager": w.wager},
      el("th", {scope: "row", text: w.wager}), el("td", {text: num(w.rounds)}), el("td", {text: began(w.since)}),
      el("td", {text: w.df ? `${num(w.chi_square, 2)} (${w.df} df)` : "no test yet"}),
      el("td", {text: w.df ? pValue(w.p_value) : "—"}),
      el("td", {class: w.flagged.length ? "flag flagged" : "flag", text: w.flagged.length ? "FLAGGED: " + w.flagged.join(", ") : ""})));
    return el("div", {id: "integrity-outcomes"}, el("h3", {text: "Outcomes"}),
      el("p", {class: "rule", text: `Each wager's outcomes against the exact odds of this table's game and options; ` +
        `tested after ${num(o.min_rounds)} rounds, flagged below p = ${num(o.p_bias)}; a class rarer than ` +
        `${num(o.rare_below)} has its own exact tail.`}),
      el("table", {class: "figures"}, headRow(["Wager", "Rounds", "Since", "χ²", "p", "Flagged classes"]),
        el("tbody", {}, ...rows)),
      ...o.wagers.map(w => el("details", {class: "classes", "data-wager": w.wager, open: w.flagged.length ? true : null},
        el("summary", {text: `Classes of ${w.wager}: count against expected`}),
        w.pooled.length ? el("p", {class: "rule", text: `Tested as one cell (each expected too few times alone): ` +
          w.pooled.join(", ") + "."}) : null,
        el("table", {class: "figures"}, headRow(["Class", "Count", "Expected", "Off (sd)", "Probability", "Rare-class p", ""]),
          el("tbody", {}, ...w.classes.map(c => {
            // a flagged cell is a class, or the pooled classes named together: the test cannot tell
            // which of those was off, the counts against expected can
            const cell = w.flagged.find(f => f === c.name || f.split(" + ").includes(c.name));
            const inPool = cell !== undefined && cell !== c.name;
            return el("tr", {class: cell !== undefined ? "flagged" : null, "data-class": c.name},
              el("th", {scope: "row", text: c.name + (w.pooled.includes(c.name) ? " (pooled)" : "")}),
              el("td", {text: num(c.count)}), el("td", {text: num(c.expected, 1)}), el("td", {text: off(c)}),
              el("td", {text: typeof c.probability === "number" ? c.probability.toPrecision(3) : "—"}),
              el("td", {text: c.p != null ? pValue(c.p) : ""}),
              el("td", {class: cell !== undefined ? "flag flagged" : "flag",
                        text: cell === undefined ? "" : inPool ? "in the FLAGGED pooled cell" : "FLAGGED"}));
          }))))));
  }

  function shuffleFigures(s) {
    const r = s.run;
    const last = s.shoes.length ? s.shoes[s.shoes.length - 1] : null;
    return el("div", {id: "integrity-shuffle"}, el("h3", {text: "Shuffle"}),
      el("p", {class: "rule", text: `Pairs of cards dealt within ${num(s.window)} of each other that stayed so after the ` +
        `shuffle, against a random shuffle; flagged below p = ${num(s.p_suspect)}.`}),
      el("p", {class: "run" + (r.flagged ? " flagged" : ""), text: `Since ${began(r.since)}: ${num(r.shoes)} deals compared, ` +
        `${num(r.observed)} pairs kept against ${num(r.expected, 1)} expected, ` +
        (r.tested ? pIs(r.p_value) : "not tested yet (too few)") + (r.flagged ? " · FLAGGED" : "")}),
      last ? el("p", {class: "last", text: `Last shoe (#${last.shoe}): ${num(last.observed)} against ${num(last.expected, 1)}, ` +
        `z = ${num(last.z, 2)}, ` + (last.tested ? pIs(last.p_value) : "not tested alone (too short)")}) : null,
      s.shoes.length ? el("table", {class: "figures"}, headRow(["Shoe", "Rounds", "Public / dealt", "Kept", "Expected", "z", "p", ""]),
        el("tbody", {}, ...s.shoes.slice().reverse().map(x => el("tr", {class: x.flagged ? "flagged" : null, "data-shoe": x.shoe},
          el("td", {text: x.shoe}), el("td", {text: x.rounds.map(n => n == null ? "?" : n).join("–")}),
          el("td", {text: `${num(x.public)} / ${num(x.dealt)}`}), el("td", {text: num(x.observed)}),
          el("td", {text: num(x.expected, 1)}), el("td", {text: num(x.z, 2)}),
          el("td", {text: x.tested ? pValue(x.p_value) : "—"}), flagCell(x.flagged)))))
        : el("p", {text: "No shoe compared yet."}));
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

  function historyTable(rounds) {
    if (!rounds.length) return el("p", {text: "No round yet."});
    const rows = rounds.map(h => el("tr", {"data-key": `round:${h.round}`},
      el("td", {}, el("a", {href: `/round/${encodeURIComponent(pageTable)}/${h.round}`, text: h.round})),
      el("td", {text: time(h.ts)}),
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
    if (!detail) { detail = Object.assign({history: [], alarm_log: [], scoreboard: null, figures: {}}, p.tile); }
    const keep = {history: detail.history, alarm_log: detail.alarm_log, scoreboard: detail.scoreboard,
                  figures: detail.figures};
    detail = Object.assign(keep, p.tile);
    if (p.history) {
      const byRound = new Map(detail.history.map(h => [h.round, h]));
      for (const h of p.history) byRound.set(h.round, h);
      detail.history = [...byRound.values()].sort((a, b) => b.round - a.round).slice(0, 200);
    }
    if (p.alarm_log) detail.alarm_log = p.alarm_log;
    if (p.scoreboard !== undefined) detail.scoreboard = p.scoreboard;
    if (p.figures !== undefined) detail.figures = p.figures;
    announce(pageTable, detail.alarms);
    drawPage();
  }


  // -- disputes: a table's rounds of any date, one round with every event, from the archive ------
  function getJson(path) {
    return fetch(path, {credentials: "same-origin"}).then(r => {
      if (r.status === 401) { location.href = "/login?next=" + encodeURIComponent(location.pathname); return null; }
      return r.json().then(body => ({ok: r.ok, status: r.status, body}));
    });
  }

  // Find a round by its number, or by a date and time (this browser's zone, sent with its offset).
  function finder(table) {
    const number = el("input", {id: "find-round", type: "number", min: "1", step: "1", inputmode: "numeric"});
    const when = el("input", {id: "find-at", type: "datetime-local", step: "1"});
    const said = el("span", {class: "found", id: "find-said", role: "status"});
    const form = el("form", {class: "finder", role: "search", "aria-label": `Find a round of table ${table}`},
      el("label", {for: "find-round", text: "Round "}), number, el("label", {for: "find-at", text: " or at "}), when, " ",
      el("button", {type: "submit", text: "Find"}), " ",
      el("a", {href: `/rounds/${encodeURIComponent(table)}`, text: "All rounds in the archive"}), " ", said);
    form.addEventListener("submit", e => {
      e.preventDefault();
      if (number.value) { location.href = `/round/${encodeURIComponent(table)}/${+number.value}`; return; }
      if (!when.value) { said.textContent = "Give a round number, or a date and time."; return; }
      const at = new Date(when.value);
      said.textContent = "Looking…";
      getJson(`/api/archive/${encodeURIComponent(table)}/at?t=${encodeURIComponent(at.toISOString())}`).then(r => {
        if (!r) return;
        if (!r.ok) said.textContent = r.body.error || "refused";
        else if (r.body.round == null) said.textContent = `No round of table ${table} had begun by ${stamp(at / 1000)}.`;
        else location.href = `/round/${encodeURIComponent(table)}/${r.body.round}`;
      }, () => { said.textContent = "The board did not answer."; });
    });
    return form;
  }

  function outcomeWords(o) {
    if (o.outcome === "result") return "Result: " + o.summary;
    if (o.outcome === "void") return `Voided by ${o.by}: ${o.reason}`;
    return "No result and no void in the archive";
  }

  // An event's data in words where the kind is a common one, else its JSON: always as text.
  function eventWords(env) {
    const d = env.data || {};
    switch (env.kind) {
      case "card": return `${d.card || "a face-down card"} → ${d.hand}${d.position != null ? " " + d.position : ""}`;
      case "prompt": return `${d.expect}: ${d.text || ""}`;
      case "button": return `${d.button}${d.seat != null ? " (seat " + d.seat + ")" : ""}: ` +
        (d.accepted ? "accepted" : `refused (${d.reason || ""})`);
      case "alarm": return `${String(d.severity).toUpperCase()} ${d.code}: ${d.message}` + (d.action ? ` — ${d.action}` : "");
      case "void": return `voided by ${d.by}: ${d.reason}`;
      case "resume": return `resumed by ${d.by}` + ((d.burned || []).length ? `, burned ${d.burned.join(" ")}` : "");
      case "transition": return `${d.from} → ${d.to}`;
      case "round_start": return `round ${d.round}` + (d.player_dealer != null ? `, player-dealer seat ${d.player_dealer}` : "") +
        (d.last_of_shoe ? ", the last of the shoe" : "");
      default: return JSON.stringify(d);
    }
  }

  function drawRound(table, number) {
    document.title = `Pit board: ${table} round ${number}`;
    heading.textContent = `Table ${table}, round ${number}`;
    connection.textContent = "From the archive";
    main.replaceChildren(el("p", {class: "empty", text: "Reading the archive…"}));
    const base = `/api/archive/${encodeURIComponent(table)}/round/${number}`;
    getJson(base).then(r => {
      if (!r) return;
      const nav = el("p", {class: "links"},
        el("a", {href: base + "?download=1", id: "export-json", download: `${table}-round-${number}.json`, text: "Export JSON"}), " · ",
        el("a", {href: `/print/${encodeURIComponent(table)}/${number}`, id: "printable", text: "Printable page"}), " · ",
        number > 1 ? el("a", {href: `/round/${encodeURIComponent(table)}/${number - 1}`, text: "Previous round"}) : "",
        number > 1 ? " · " : "",
        el("a", {href: `/round/${encodeURIComponent(table)}/${number + 1}`, text: "Next round"}), " · ",
        el("a", {href: `/rounds/${encodeURIComponent(table)}`, text: "All rounds"}), " · ",
        el("a", {href: `/table/${encodeURIComponent(table)}`, text: "The table now"}));
      if (!r.ok) { main.replaceChildren(el("p", {class: "empty", id: "round-error", text: r.body.error || "refused"}), nav,
                                        finder(table)); return; }
      const round = r.body;
      const rows = [];
      let last = null;
      const gapFor = (a, b) => (round.gaps || []).find(g => g.first_seq <= b && g.last_seq >= a);
      for (const env of round.events) {
        if (last !== null && env.seq > last + 1) rows.push(missingRow(last + 1, env.seq - 1, gapFor(last + 1, env.seq - 1)));
        rows.push(el("tr", {"data-seq": env.seq, class: "event ev-" + env.kind},
          el("td", {text: env.seq}), el("td", {class: "when", text: stamp(env.ts)}), el("td", {text: env.kind}),
          el("td", {class: "what", text: eventWords(env)})));
        last = env.seq;
      }
      main.replaceChildren(el("section", {class: "round", "aria-labelledby": "heading"},
        el("p", {class: "outcome " + round.outcome, id: "outcome", text: outcomeWords(round)}),
        el("p", {text: `${round.game || "game not known"}; from ${stamp(round.first_ts)} to ${stamp(round.last_ts)}; ` +
                       `${round.events.length} events, seqs ${round.events[0].seq}–${round.events[round.events.length - 1].seq}` +
                       (round.missing.length ? `; ${round.missing.length} run${round.missing.length > 1 ? "s" : ""} of seqs missing` : "; nothing missing")}),
        nav,
        el("table", {class: "history events", id: "round-events"},
          el("caption", {class: "announce", text: "Every event of the round, in order"}),
          el("thead", {}, el("tr", {}, ...["Seq", "Time", "Event", "What"].map(h => el("th", {scope: "col", text: h})))),
          el("tbody", {}, ...rows)),
        finder(table)));
    }, () => main.replaceChildren(el("p", {class: "empty", text: "The board did not answer."})));
  }

  function missingRow(a, b, gap) {
    const why = gap ? ` (${gap.status}${gap.reason ? ": " + gap.reason : ""})` : "";
    return el("tr", {class: "missing", "data-missing": `${a}-${b}`},
      el("td", {text: a === b ? a : `${a}–${b}`}), el("td", {}), el("td", {text: "gap"}),
      el("td", {text: `not in the archive${why}`}));
  }

  function drawRounds(table) {
    document.title = `Pit board: ${table}, rounds`;
    heading.textContent = `Table ${table}: rounds in the archive`;
    connection.textContent = "From the archive";
    const before = params.get("before");
    main.replaceChildren(finder(table), el("p", {class: "empty", text: "Reading the archive…"}));
    getJson(`/api/archive/${encodeURIComponent(table)}/rounds` + (before ? `?before=${encodeURIComponent(before)}` : ""))
      .then(r => {
        if (!r) return;
        if (!r.ok) { main.replaceChildren(finder(table), el("p", {class: "empty", text: r.body.error || "refused"})); return; }
        const page = r.body;
        const rows = page.rounds.map(h => h.missing
          ? el("tr", {class: "missing", "data-missing": h.missing.join("-")},
              el("td", {text: h.missing[0] === h.missing[1] ? h.missing[0] : `${h.missing[0]}–${h.missing[1]}`}),
              el("td", {}), el("td", {text: "not in the archive (never dealt, or lost)"}), el("td", {}))
          : el("tr", {"data-round": h.round},
              el("td", {}, el("a", {href: `/round/${encodeURIComponent(table)}/${h.round}`, text: h.round})),
              el("td", {class: "when", text: stamp(h.started)}),
              h.void ? el("td", {class: "void", text: `VOID (${h.void.by || "?"}): ${h.void.reason || ""}`})
                     : el("td", {text: h.summary || "no result"}),
              el("td", {text: (h.alarms || []).join(", ")})));
        main.replaceChildren(finder(table),
          page.rounds.length ? el("table", {class: "history", id: "archive-rounds"},
            el("thead", {}, el("tr", {}, ...["Round", "Began", "Outcome", "Alarms"].map(h => el("th", {scope: "col", text: h})))),
            el("tbody", {}, ...rows)) : el("p", {class: "empty", text: `No round of table ${table} in the archive.`}),
          (page.gaps || []).length ? el("ul", {class: "gaps", "aria-label": "Gaps in the archive"},
            ...page.gaps.map(g => el("li", {text: `seqs ${g.first_seq}–${g.last_seq}: ${g.status}` +
                                                  (g.reason ? `: ${g.reason}` : "")}))) : null,
          el("p", {class: "links"},
            before ? el("a", {href: `/rounds/${encodeURIComponent(table)}`, text: "Newest rounds"}) : null,
            before && page.older ? " · " : null,
            page.older ? el("a", {href: `/rounds/${encodeURIComponent(table)}?before=${page.older}`, id: "older",
                                  text: "Older rounds"}) : null));
      }, () => main.replaceChildren(el("p", {class: "empty", text: "The board did not answer."})));
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
        pit = snap.pit || [];
        for (const t of snap.tables) { tiles.set(t.table, t); announce(t.table, t.alarms); }
        drawFloor();
      }
      first = false;
      live(snap.resync);     // after a reconnect that could not go on: why this screen was redrawn
    });
    source.addEventListener("patch", e => {
      const p = JSON.parse(e.data);
      if (pageTable) { if (p.table === pageTable) patchPage(p); return; }
      if (p.pit) { pit = p.pit; drawPit(); } else if (p.tile) updateTile(p.tile); else removeTile(p.table);
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

  // Who this is first (the buttons a page offers depend on it), then the stream.
  fetch("/api/me", {credentials: "same-origin"}).then(r => r.ok ? r.json() : null).then(who => {
    if (who) me = who;
  }, () => null).then(() => {
    userBar();
    if (roundMatch) drawRound(roundMatch[1], +roundMatch[2]);
    else if (roundsMatch) drawRounds(roundsMatch[1]);
    else connect();
  });
})();

// mongoload's live dashboard: reads /api/run, then follows /api/events
// (Server-Sent Events, replayed from the start on connect) and draws uPlot
// charts. docs/dashboard.md describes the API. State for tests and tools is
// in window.mongoloadDashboard and in <body data-points data-state>.
"use strict";
(function () {
  const palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"];
  const st = {
    info: null, context: null, run: null, ops: [], intervals: [], server: [], steps: [], sweep: null,
    progress: {}, result: null, finished: false, points: 0, charts: 0, errors: []
  };
  window.mongoloadDashboard = st;
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
    }
    for (const k of kids) if (k != null) e.append(k);
    return e;
  };
  const num = (v, d) => (v == null || !isFinite(v)) ? "-" : Number(v).toLocaleString("en-US", { minimumFractionDigits: d || 0, maximumFractionDigits: d || 0 });
  const ms = (v) => num(v, 3);
  const pct = (v) => v == null ? "-" : num(100 * v, 0) + "%";
  const mb = (b) => {
    if (b == null) return "-";
    if (b >= 1073741824) return num(b / 1073741824, 1) + " GB";
    if (b >= 1048576) return num(b / 1048576, 1) + " MB";
    return num(b / 1024, 0) + " KB";
  };

  // ---- charts -------------------------------------------------------------
  const charts = {};
  st.chartPoints = (id) => (charts[id] ? charts[id].data[0].length : 0); // for tests: the points a chart draws
  function width(id) { return Math.max(300, $(id).clientWidth - 20); }
  function makeChart(id, series, axes, scales) {
    const host = $(id);
    const empty = host.querySelector(".empty");
    if (empty) empty.remove();
    const opts = {
      width: width(id), height: 230, legend: { live: true },
      scales: Object.assign({ x: { time: true } }, scales || {}),
      series: [{}].concat(series),
      axes: [{}].concat(axes),
      cursor: { drag: { x: true, y: false } }
    };
    const data = [[]].concat(series.map(() => []));
    const u = new uPlot(opts, data, host);
    charts[id] = { u, data };
    st.charts = Object.keys(charts).length;
    document.body.dataset.charts = st.charts;
    return charts[id];
  }
  function line(label, color, extra) { return Object.assign({ label, stroke: color, width: 1.6, points: { show: false } }, extra || {}); }
  function axis(label, side, scale) { const a = { label, size: 60 }; if (side) { a.side = 1; a.grid = { show: false }; } if (scale) a.scale = scale; return a; }
  // push adds a row in x order: intervals and server samples arrive by
  // different paths, so their times may interleave.
  function push(c, row) {
    const xs = c.data[0];
    let at = xs.length;
    while (at > 0 && xs[at - 1] > row[0]) at--;
    for (let i = 0; i < c.data.length; i++) c.data[i].splice(at, 0, row[i] === undefined ? null : row[i]);
  }

  let dirty = false;
  function redraw() {
    if (dirty) return;
    dirty = true;
    requestAnimationFrame(() => {
      dirty = false;
      for (const c of Object.values(charts)) c.u.setData(c.data);
    });
  }
  window.addEventListener("resize", () => { for (const [id, c] of Object.entries(charts)) c.u.setSize({ width: width(id), height: 230 }); });

  function ensureCharts() {
    if (charts["c-throughput"] || !window.uPlot) return;
    const tops = st.ops.filter((o) => !o.parent);
    makeChart("c-throughput", [line("total", "#111", { width: 2.2 })].concat(tops.map((o, i) => line(o.name, palette[i % palette.length]))), [axis("ops/s")]);
    makeChart("c-latency", [line("p50", "#2ca02c"), line("p95", "#ff7f0e"), line("p99", "#d62728"), line("max", "#7f7f7f", { dash: [4, 4] })], [axis("ms (log)")], { y: { distr: 3 } });
    makeChart("c-errors", [line("errors/s", "#b3261e"), line("dropped/s", "#9467bd"), line("late/s", "#8c564b"), line("in flight", "#1f77b4", { scale: "y2" }), line("active", "#17becf", { scale: "y2", dash: [4, 4] })],
      [axis("per second"), axis("operations / workers", true, "y2")]);
    makeChart("c-cpu", [line("client", "#1f77b4"), line("server", "#d62728")], [axis("% of cores")], { y: { range: [0, 100] } });
    makeChart("c-server", [line("server ops/s", "#116149"), line("connections", "#9467bd", { scale: "y2" })], [axis("ops/s"), axis("connections", true, "y2")]);
    makeChart("c-cache", [line("cache used", "#1f77b4"), line("dirty", "#ff7f0e"), line("net in MB/s", "#2ca02c", { scale: "y2" }), line("net out MB/s", "#d62728", { scale: "y2", dash: [4, 4] })],
      [axis("MB"), axis("MB/s", true, "y2")]);
    const sel = $("latency-op");
    for (const o of st.ops) sel.append(el("option", { value: o.name, text: o.name }));
    sel.addEventListener("change", rebuildLatency);
    for (const s of st.intervals) addInterval(s, true);
    for (const s of st.server) addServer(s, true);
    redraw();
  }

  // A gap (null row) where a new measured phase begins, so sweep steps and
  // battery runs are not joined across their cooldowns.
  function gap(at) {
    const x = at / 1000;
    for (const id of ["c-throughput", "c-latency", "c-errors", "c-cpu", "c-server", "c-cache"]) {
      const c = charts[id];
      if (c) push(c, [x]);
    }
  }

  function note(id, text) {
    const host = $(id);
    let n = host.querySelector(".note");
    if (!n) { n = el("div", { class: "note" }); host.append(n); }
    n.textContent = text;
  }

  function latencyRow(s) {
    const op = $("latency-op").value;
    const src = op ? (s.ops.find((o) => o.name === op) || {}) : s.total;
    const pos = (v) => (v > 0 ? v : null);
    return [s.at / 1000, pos(src.p50), pos(src.p95), pos(src.p99), pos(src.max)];
  }
  function rebuildLatency() {
    const c = charts["c-latency"];
    if (!c) return;
    for (const a of c.data) a.length = 0;
    let step = 0;
    for (const s of st.intervals) {
      if (s.partial) continue;
      if (s.step !== step) { push(c, [s.at / 1000 - 0.001]); step = s.step; }
      push(c, latencyRow(s));
    }
    redraw();
  }

  // A phase's last interval (or telemetry sample) cut short is marked
  // partial by the server (results.Partial): its rates would be noise, a
  // false dip or spike at the end of the charts.
  let lastStep = 0, lastServerStep = 0;
  function addInterval(s, replay) {
    if (!charts["c-throughput"] || s.partial) return;
    if (s.step !== lastStep) { if (lastStep) gap(s.at - 1); lastStep = s.step; }
    const x = s.at / 1000, dt = s.dt || 1;
    const tops = st.ops.filter((o) => !o.parent);
    push(charts["c-throughput"], [x, s.total.rate].concat(tops.map((o) => { const r = s.ops.find((q) => q.name === o.name); return r ? r.rate : null; })));
    push(charts["c-latency"], latencyRow(s));
    const l = s.load || {};
    push(charts["c-errors"], [x, s.total.errors / dt, (l.dropped || 0) / dt, (l.late || 0) / dt, l.inFlight == null ? null : l.inFlight, l.active == null ? null : l.active]);
    const c = charts["c-cpu"];
    push(c, [x, s.client ? 100 * s.client.utilization : null, null]);
    if (!replay) redraw();
  }

  function serverCPU(s) {
    const cores = st.context && st.context.host && st.context.host.cores;
    if (!s.cpu || s.cpu.userSeconds == null || !cores || !s.dt) return null;
    return 100 * (s.cpu.userSeconds + (s.cpu.systemSeconds || 0)) / s.dt / cores;
  }
  function addServer(s, replay) {
    if (!charts["c-server"] || s.partial) return;
    if (s.step !== lastServerStep) { lastServerStep = s.step; }
    const x = s.at / 1000;
    let ops = null;
    if (s.opcounters) { ops = 0; for (const v of Object.values(s.opcounters)) ops += v || 0; ops /= s.dt; }
    const conn = s.connections && s.connections.current;
    push(charts["c-server"], [x, ops, conn == null ? null : conn]);
    const ca = s.cache || {}, n = s.network || {};
    push(charts["c-cache"], [x, ca.bytesInUse == null ? null : ca.bytesInUse / 1048576, ca.dirtyBytes == null ? null : ca.dirtyBytes / 1048576,
      n.bytesIn == null ? null : n.bytesIn / 1e6 / s.dt, n.bytesOut == null ? null : n.bytesOut / 1e6 / s.dt]);
    const cpu = serverCPU(s);
    if (cpu != null) push(charts["c-cpu"], [x, null, cpu]);
    else note("c-cpu", s.cpu ? "server CPU: reported, but hostInfo gave no core count" : "server CPU: not reported by this server (serverStatus.extra_info has no user/system time)");
    if (!replay) redraw();
  }

  // ---- panels -------------------------------------------------------------
  function setState(state, text) {
    const b = $("state");
    b.textContent = text || state;
    b.className = "badge" + (state === "finished" ? " finished" : "");
    document.body.dataset.state = state;
  }
  function describeLoad(l) {
    if (!l) return "";
    if (l.type === "open") return "open loop at " + num(l.rate) + " ops/s" + (l.concurrency ? ", at most " + num(l.concurrency) + " in flight" : "");
    if (l.type === "sessions") return num(l.sessions) + " sessions" + (l.thinkTime ? ", think time " + l.thinkTime : "");
    return "closed loop, " + num(l.concurrency) + " workers" + (l.stages ? ", stages " + l.stages : "");
  }
  function fact(label, value) { return el("span", {}, label + " ", el("b", { text: value })); }
  function renderFacts() {
    const f = $("facts");
    f.textContent = "";
    const i = st.info || {};
    if (i.workload) $("workload").textContent = i.command + " " + i.workload.name + (i.label ? " (" + i.label + ")" : "");
    if (st.run) {
      f.append(fact("load", describeLoad(st.run.load)));
      if (st.run.load && st.run.load.type === "open") f.append(fact("target", num(st.run.load.rate) + " ops/s"));
      if (st.sweep) f.append(fact("step", st.run.step + " of " + st.sweep.levels.length));
      f.append(fact("interval", st.run.intervalSeconds + " s"));
    }
    const last = st.intervals[st.intervals.length - 1];
    const full = st.intervals.findLast((s) => !s.partial); // not a false dip at the end
    if (full) f.append(fact("now", num(full.total.rate) + " ops/s, p99 " + ms(full.total.p99) + " ms, " + num(full.total.errors) + " errors"));
    if (last) f.append(fact("elapsed", num(last.t, 0) + " s"));
  }
  function renderContext() {
    const c = st.context, box = $("context");
    box.textContent = "";
    if (!c) return;
    const parts = [];
    parts.push(fact("server", (c.version || "version ?") + (c.featureCompatibilityVersion ? " (FCV " + c.featureCompatibilityVersion + ")" : "")));
    if (c.topology) {
      let t = c.topology.kind;
      if (c.topology.setName) t += " " + c.topology.setName;
      if (c.topology.members) t += ": " + c.topology.members.map((m) => m.name + " " + m.state).join(", ");
      if (c.topology.shards) t += ": " + c.topology.shards.length + " shards";
      if (c.topology.mongos) t += ", " + c.topology.mongos.length + " mongos";
      parts.push(fact("topology", t));
    }
    if (c.storageEngine) parts.push(fact("storage", c.storageEngine + (c.cacheBytes ? ", cache " + mb(c.cacheBytes) : "") + (c.blockCompressor ? ", " + c.blockCompressor : "")));
    if (c.host) parts.push(fact("host", (c.host.cores ? c.host.cores + " cores" : "? cores") + ", " + (c.host.memoryMB ? num(c.host.memoryMB / 1024, 1) + " GB" : "? GB")));
    for (const p of parts) box.append(p);
    if (c.absent && c.absent.length) box.append(el("span", { class: "warn", text: "not reported: " + c.absent.join(", ") }));
  }
  function renderSweep() {
    if (!st.sweep) return;
    $("sweep").hidden = false;
    const body = $("steps").tBodies[0];
    body.textContent = "";
    st.sweep.levels.forEach((lv, i) => {
      const done = st.steps.find((s) => s.index === i + 1);
      const running = !done && st.run && st.run.step === i + 1 && !st.finished;
      const param = st.sweep.parameter;
      const what = param === "rate" ? num(lv) + " ops/s" : num(lv) + " " + (param === "sessions" ? "sessions" : "workers");
      body.append(el("tr", {},
        el("td", { text: String(i + 1) }), el("td", { class: "l", text: what }),
        el("td", { text: done ? (done.complete ? "done" : "cut short") : running ? "running" : "pending" }),
        el("td", { text: done ? num(done.throughput, 1) : "" }), el("td", { text: done ? ms(done.p99) : "" }),
        el("td", { text: done ? num(done.errors) : "" }), el("td", { text: done && done.clientCPU ? pct(done.clientCPU) : "" })));
    });
  }
  function renderProgress() {
    const names = Object.keys(st.progress);
    if (!names.length) return;
    $("progress").hidden = false;
    const box = $("bars");
    box.textContent = "";
    for (const n of names) {
      const p = st.progress[n];
      box.append(el("div", { text: n + ": " + num(p.done) + " of " + num(p.total) + " documents (" + num(100 * p.fraction, 1) + "%), " +
        num(p.rate) + " docs/s, " + num(p.mbps, 1) + " MB/s" + (p.final ? ", done" : p.etaSeconds ? ", ETA " + num(p.etaSeconds) + " s" : "") }));
      const bar = el("div", { class: "bar" }, el("div", {}));
      bar.firstChild.style.width = (100 * p.fraction).toFixed(1) + "%";
      box.append(bar);
    }
  }
  function table(head, rows, classes) {
    const t = el("table");
    const hr = el("tr");
    head.forEach((h, i) => hr.append(el("th", { class: (classes && classes[i]) || "", text: h })));
    t.append(el("thead", {}, hr));
    const b = el("tbody");
    for (const r of rows) {
      const tr = el("tr", r.flag ? { class: "flag" } : {});
      r.cells.forEach((c, i) => tr.append(el("td", { class: (classes && classes[i]) || "", text: c })));
      b.append(tr);
    }
    t.append(b);
    return t;
  }
  function renderResult() {
    const r = st.result;
    if (!r) return;
    $("final").hidden = false;
    const box = $("final-body");
    box.textContent = "";
    box.append(el("p", { text: (r.outcome || "") + (r.reason ? ": " + r.reason : "") + " — " + describeLoad(r.load) + ", measured " + num(r.durationSeconds, 1) + " s" }));
    const lat = (l) => [ms(l.avg), ms(l.p50), ms(l.p95), ms(l.p99), ms(l.p999), ms(l.max)];
    const rows = (r.operations || []).map((o) => ({ cells: [o.name, num(o.count), num(o.throughput, 1)].concat(lat(o.latency)).concat([num(o.errors)]) }));
    rows.push({ cells: ["TOTAL", num(r.totals.operations), num(r.totals.throughput, 1)].concat(lat(r.totals.latency)).concat([num(r.totals.errors)]) });
    box.append(table(["operation", "count", "ops/s", "avg", "p50", "p95", "p99", "p99.9", "max", "errors"], rows, ["l"]));
    if (r.slow) {
      box.append(el("h4", { text: "Slow operations (≥ " + num(r.slow.thresholdMs, 0) + " ms) by shape: " + num(r.slow.operations) }));
      const srows = (r.slow.shapes || []).map((s) => {
        const e = s.explain;
        return { flag: e && e.collScan, cells: [s.namespace || "", s.type || "", s.shape, num(s.count), ms(s.latency.p50), ms(s.latency.p99), ms(s.latency.max),
          e ? (e.error ? "explain failed: " + e.error : e.plan + (e.index ? " [" + e.index + "]" : "") + (e.collScan ? " — scans the collection" : "")) : "",
          !e || e.error ? "" : e.docsPerReturned != null ? num(e.docsPerReturned, 1) : num(e.docsExamined) + "/0"] };
      });
      if (r.slow.other) srows.push({ cells: ["", "", r.slow.other.shape, num(r.slow.other.count), ms(r.slow.other.latency.p50), ms(r.slow.other.latency.p99), ms(r.slow.other.latency.max), "", ""] });
      box.append(table(["collection", "type", "shape", "count", "p50", "p99", "max", "plan", "docs/returned"], srows, ["l", "l", "shape", "", "", "", "", "l", ""]));
    }
    if (r.collections && r.collections.length) {
      box.append(el("h4", { text: "Collections, before → after" }));
      const n = (s, f) => (s && s[f] != null ? s[f] : null);
      box.append(table(["collection", "documents", "data", "storage", "indexes", "avg doc"], r.collections.map((c) => ({
        cells: [c.namespace, num(n(c.before, "count")) + " → " + num(n(c.after, "count")), mb(n(c.before, "dataSize")) + " → " + mb(n(c.after, "dataSize")),
          mb(n(c.before, "storageSize")) + " → " + mb(n(c.after, "storageSize")), mb(n(c.before, "totalIndexSize")) + " → " + mb(n(c.after, "totalIndexSize")),
          num(n(c.after, "avgObjSize")) + " B"]
      })), ["l"]));
    }
    if (r.notes && r.notes.length) {
      box.append(el("h4", { text: "Notes" }));
      const ul = el("ul", { class: "notes" });
      for (const n of r.notes) ul.append(el("li", { text: n }));
      box.append(ul);
    }
  }
  function renderLinks(links) {
    const box = $("links");
    box.textContent = "";
    if (!links) return;
    if (links.report) box.append(el("a", { href: links.report, download: "", text: "download the HTML report" }));
    if (links.results) box.append(el("a", { href: links.results, download: "", text: "download the JSON results" }));
    $("final").hidden = false;
  }

  // ---- events -------------------------------------------------------------
  function count() { st.points = st.intervals.length + st.server.length; document.body.dataset.points = st.points; }
  const on = {
    context(c) { st.context = c; renderContext(); },
    sweep(s) { st.sweep = s; renderSweep(); },
    run(r) {
      st.run = r;
      if (!st.ops.length) st.ops = r.ops || [];
      ensureCharts();
      setState("running", st.sweep ? "step " + r.step + " of " + st.sweep.levels.length : "running");
      renderFacts(); renderSweep();
    },
    interval(s) { st.intervals.push(s); count(); addInterval(s); renderFacts(); },
    server(s) { st.server.push(s); count(); addServer(s); },
    step(s) { st.steps.push(s); renderSweep(); },
    progress(p) { st.progress[p.collection] = p; setState("running", "loading"); renderProgress(); },
    result(r) { st.result = r.result; renderResult(); },
    done(d) {
      st.finished = true;
      setState("finished", d.error ? "finished: " + d.error : "finished");
      renderLinks(d.links); renderSweep();
    }
  };
  function connect() {
    const es = new EventSource("/api/events");
    for (const [name, fn] of Object.entries(on)) {
      es.addEventListener(name, (ev) => {
        try { fn(JSON.parse(ev.data)); } catch (e) { st.errors.push(name + ": " + e); document.body.dataset.scriptError = String(e); }
      });
    }
    es.onerror = () => { if (st.finished) es.close(); else setState(document.body.dataset.state || "waiting", "reconnecting…"); };
    es.onopen = () => { if (!st.finished && st.run) setState("running"); };
  }
  fetch("/api/run").then((r) => r.json()).then((info) => {
    st.info = info;
    if (info.context) { st.context = info.context; renderContext(); }
    setState(info.state === "finished" ? "finished" : info.state, info.state);
    renderFacts();
  }).catch((e) => st.errors.push("api/run: " + e)).finally(connect);
  for (const id of Object.keys({ "c-throughput": 1, "c-latency": 1, "c-errors": 1, "c-cpu": 1, "c-server": 1, "c-cache": 1 })) {
    $(id).append(el("div", { class: "empty", text: "waiting for the measured phase…" }));
  }
})();

// charts.js draws the report's charts with uPlot from the data the Go
// side prepared (internal/report/html/model.go): no computation here
// beyond layout. When done it sets data-charts-rendered on <body>, which
// the browser test reads.
(function () {
  "use strict";
  var charts = JSON.parse(document.getElementById("report-data").textContent);
  var ratio = window.devicePixelRatio || 1;
  var drawn = 0;

  function rgba(hex, a) {
    var n = parseInt(hex.slice(1), 16);
    return "rgba(" + ((n >> 16) & 255) + "," + ((n >> 8) & 255) + "," + (n & 255) + "," + a + ")";
  }

  function fmt(v) {
    if (v == null || isNaN(v)) return "-";
    var a = Math.abs(v);
    if (a >= 1000) return Math.round(v).toLocaleString("en-US");
    if (a >= 100) return v.toFixed(0);
    if (a >= 10) return v.toFixed(1);
    return v.toFixed(2);
  }

  // background draws the verdict bands and the step marks behind the plot.
  function background(c) {
    return function (u) {
      var ctx = u.ctx, top = u.bbox.top, h = u.bbox.height;
      var left = u.bbox.left, right = u.bbox.left + u.bbox.width;
      ctx.save();
      (c.bands || []).forEach(function (b) {
        var l = Math.max(u.valToPos(b.from, "x", true), left);
        var r = Math.min(u.valToPos(b.to, "x", true), right);
        if (r <= l) return;
        ctx.fillStyle = rgba(b.color, 0.32);
        ctx.fillRect(l, top, r - l, h);
      });
      (c.marks || []).forEach(function (m) {
        var x = u.valToPos(m.x, "x", true);
        if (x < left || x > right) return;
        ctx.strokeStyle = "rgba(0,0,0,0.35)";
        ctx.setLineDash([4 * ratio, 4 * ratio]);
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, top + h);
        ctx.stroke();
        ctx.fillStyle = "rgba(0,0,0,0.6)";
        ctx.font = 10 * ratio + "px sans-serif";
        ctx.fillText(m.label, x + 3 * ratio, top + 12 * ratio);
      });
      ctx.restore();
    };
  }

  // labels writes each band's verdict over the plot, on a light box so
  // grid lines and series do not cross it: across the top of its band, or
  // down it when the band is too narrow.
  function labels(c) {
    return function (u) {
      var ctx = u.ctx, top = u.bbox.top;
      var left = u.bbox.left, right = u.bbox.left + u.bbox.width;
      ctx.save();
      ctx.font = "600 " + 11 * ratio + "px sans-serif";
      ctx.textBaseline = "top";
      (c.bands || []).forEach(function (b) {
        var l = Math.max(u.valToPos(b.from, "x", true), left);
        var r = Math.min(u.valToPos(b.to, "x", true), right);
        var w = ctx.measureText(b.label).width, pad = 3 * ratio, lh = 14 * ratio;
        ctx.save();
        if (w + 8 * ratio <= r - l) {
          ctx.translate((l + r - w) / 2, top + 4 * ratio);
        } else {
          ctx.translate((l + r) / 2 + lh / 2, top + 4 * ratio);
          ctx.rotate(Math.PI / 2);
        }
        ctx.fillStyle = "rgba(255,255,255,0.8)";
        ctx.fillRect(-pad, -pad / 2, w + 2 * pad, lh);
        ctx.fillStyle = "rgba(0,0,0,0.75)";
        ctx.fillText(b.label, 0, 0);
        ctx.restore();
      });
      ctx.restore();
    };
  }

  function fromZero(u, min, max) {
    if (max == null || max <= 0) return [0, 1];
    return [0, max * 1.08];
  }

  function options(c, width) {
    var categorical = c.kind === "steps" || c.kind === "bars";
    var n = (c.xTicks || []).length;
    var xAxis = { label: c.xLabel, grid: { stroke: "#eee" } };
    var scales = { x: { time: false }, y: { range: fromZero }, y2: { range: fromZero } };
    if (categorical) {
      scales.x.range = function () { return [-0.5, n - 0.5]; };
      xAxis.splits = function () { var s = []; for (var i = 0; i < n; i++) s.push(i); return s; };
      xAxis.values = function (u, splits) { return splits.map(function (i) { return c.xTicks[Math.round(i)] || ""; }); };
      xAxis.grid = { show: false };
    }
    var axes = [xAxis, { label: c.yLabel, scale: "y", size: 64, values: function (u, v) { return v.map(fmt); }, grid: { stroke: "#eee" } }];
    if (c.y2Label) {
      axes.push({ label: c.y2Label, scale: "y2", side: 1, size: 64, values: function (u, v) { return v.map(fmt); }, grid: { show: false } });
    }
    var series = [{ label: c.xLabel || "", value: function (u, v) { return categorical ? (c.xTicks[Math.round(v)] || "") : fmt(v); } }];
    c.series.forEach(function (s) {
      var o = { label: s.label, stroke: s.color, width: 2, scale: s.axis ? "y2" : "y", value: function (u, v) { return fmt(v); } };
      if (s.dash) o.dash = [6, 4];
      if (s.points) {
        o.points = { show: true, size: 9, fill: s.color };
        o.paths = function () { return null; };
      }
      if (c.kind === "steps") {
        o.points = { show: true, size: 8, fill: s.color };
        o.spanGaps = true;
      }
      if (c.kind === "bars") {
        o.fill = s.color;
        o.width = 0;
        o.paths = uPlot.paths.bars({ size: [0.92, 90], align: 0 });
        o.points = { show: false };
      }
      series.push(o);
    });
    return {
      title: c.title,
      width: width,
      height: c.id === "sweep" || c.id === "timeline" ? 380 : 280,
      scales: scales,
      axes: axes,
      series: series,
      cursor: { points: { show: c.kind !== "bars" } },
      hooks: { drawClear: [background(c)], draw: [labels(c)] },
    };
  }

  charts.forEach(function (c) {
    var el = document.getElementById("chart-" + c.id);
    if (!el) return;
    var width = Math.max(320, Math.floor(el.getBoundingClientRect().width) || 600);
    var data = [c.x].concat(c.series.map(function (s) { return s.values; }));
    new uPlot(options(c, width), data, el);
    drawn++;
  });
  document.body.setAttribute("data-charts-rendered", String(drawn));
  document.body.setAttribute("data-charts-expected", String(charts.length));
})();

package main

// timelineTemplate is the page `gosct view` writes: plain HTML, CSS and
// JavaScript, no external resource, so that it opens from file:// on a
// machine without network. The trace's data replaces /*TRACE*/null.
//
// The DOM is part of the contract (cmd/gosct/view_test.go reads it in
// headless Chromium): a div.lane[data-g] per goroutine, a div.step[data-i]
// per step inside its lane, a div.gap per blocked wait, #bug at the bug.
const timelineTemplate = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>gosct</title>
<style>
body { font: 13px/1.35 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1d2330; background: #fff; }
header { padding: 12px 16px 8px; border-bottom: 1px solid #d8dce3; }
header h1 { font-size: 16px; margin: 0 0 4px; }
header .bugline { color: #b3261e; font-weight: 600; margin: 2px 0; white-space: pre-wrap; }
header .meta { color: #5a6272; }
#legend span { display: inline-block; margin-right: 12px; }
#legend i { display: inline-block; width: 12px; height: 12px; vertical-align: -2px; margin-right: 4px; border-radius: 2px; }
#scroller { overflow-x: auto; position: relative; border-bottom: 1px solid #d8dce3; }
#timeline { position: relative; }
.axis, .lane { display: flex; width: max-content; min-width: 100%; }
.label { position: sticky; left: 0; z-index: 3; flex: 0 0 190px; background: #f5f6f8; border-right: 1px solid #d8dce3; padding: 4px 8px; box-sizing: border-box; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; cursor: pointer; }
.label b { display: block; }
.label small { color: #5a6272; }
.axis .label { cursor: default; }
.track { position: relative; flex: none; }
.axis .track { height: 20px; }
.tick { position: absolute; top: 3px; font-size: 11px; color: #7a8191; }
.lane { border-bottom: 1px solid #eceef2; }
.lane .track { height: 48px; }
.life { position: absolute; top: 23px; height: 2px; background: #c9ced8; }
.step { position: absolute; top: 4px; height: 40px; box-sizing: border-box; border-radius: 4px; padding: 2px 5px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; cursor: pointer; border: 1px solid rgba(0,0,0,.15); font-size: 12px; z-index: 1; }
.step .pos { display: block; font-size: 11px; opacity: .75; }
.step.sel { outline: 2px solid #1d2330; }
.k-sync { background: #ffe3b8; }
.k-chan { background: #cfe4ff; }
.k-life { background: #e4e7ec; }
.k-mem { background: #eef7e6; }
.k-other { background: #f0e6ff; }
.step.blocks { border: 2px solid #b3261e; }
.gap { position: absolute; top: 12px; height: 24px; box-sizing: border-box; border: 1px dashed #b3261e; border-radius: 3px; background: repeating-linear-gradient(45deg, rgba(179,38,30,.10) 0 6px, rgba(179,38,30,.02) 6px 12px); color: #b3261e; font-size: 11px; padding: 4px 6px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
#bug { position: absolute; top: 0; bottom: 0; width: 3px; background: #b3261e; z-index: 2; }
#bug span { position: absolute; top: 2px; left: 6px; background: #b3261e; color: #fff; font-weight: 600; font-size: 11px; padding: 1px 5px; border-radius: 3px; white-space: nowrap; }
.bugmark { position: absolute; top: 13px; width: 22px; height: 22px; border-radius: 11px; background: #b3261e; color: #fff; text-align: center; font-weight: 700; line-height: 22px; z-index: 2; }
#details { padding: 10px 16px; }
#details h2 { font-size: 14px; margin: 0 0 6px; }
#details pre { background: #f5f6f8; padding: 8px; margin: 0; overflow: auto; max-height: 200px; }
</style>
</head>
<body>
<header>
<h1 id="title"></h1>
<div class="bugline" id="bugline"></div>
<div class="meta" id="meta"></div>
<div class="meta" id="legend"><span><i class="k-sync"></i>locks, WaitGroup, Once, Cond</span><span><i class="k-chan"></i>channels, select</span><span><i class="k-life"></i>go, start, exit</span><span><i class="k-mem"></i>memory</span><span><i class="k-other"></i>other</span><span style="color:#b3261e">▨ blocked</span></div>
</header>
<div id="scroller"><div id="timeline"></div></div>
<div id="details"><h2>Click a step for the goroutine's stack at that step, a lane's name for where it was at the bug.</h2></div>
<script id="trace" type="application/json">/*TRACE*/null</script>
<script>
"use strict";
(function () {
  var T = JSON.parse(document.getElementById("trace").textContent);
  var W = 128; // pixels per step
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function kind(op) {
    if (/^(go|start|exit|panic|timer)/.test(op)) return "k-life";
    if (/^(chan|select)/.test(op)) return "k-chan";
    if (/(mutex|waitgroup|once|cond|lock)/.test(op)) return "k-sync";
    if (/^(read|write|atomic)/.test(op)) return "k-mem";
    return "k-other";
  }
  function text(s) {
    var t = s.op;
    if (s.obj) t += " #" + s.obj;
    if (s.child) t += " → G" + s.child;
    return t;
  }
  var steps = T.steps || [], gs = T.goroutines || [];
  document.getElementById("title").textContent = T.test + " — " + T["package"];
  if (T.bug) document.getElementById("bugline").textContent = T.bug.kind + ": " + T.bug.message;
  document.getElementById("meta").textContent = steps.length + " steps" + (T.size ? "; schedule: " + T.size : "") + " — " + T.title;
  var n = 0;
  gs.forEach(function (g) { n = Math.max(n, g.id + 1); });
  steps.forEach(function (s) { n = Math.max(n, s.g + 1, (s.child || 0) + 1); });
  var hasClock = steps.some(function (s) { return s.g < 0; });
  var width = (steps.length + 1) * W + 40;
  var tl = document.getElementById("timeline");
  var axis = el("div", "axis");
  axis.appendChild(el("div", "label", "decision"));
  var at = el("div", "track");
  at.style.width = width + "px";
  var last = -1;
  steps.forEach(function (s, i) {
    if (s.decision === last) return;
    last = s.decision;
    var t = el("span", "tick", String(s.decision));
    t.style.left = (i * W + 4) + "px";
    at.appendChild(t);
  });
  axis.appendChild(at);
  tl.appendChild(axis);
  var byG = {}, info = {};
  gs.forEach(function (g) { info[g.id] = g; });
  var bugGs = {};
  if (T.bug && T.bug.goroutines) T.bug.goroutines.forEach(function (g) { bugGs[g.id] = g; });
  var details = document.getElementById("details");
  function show(title, lines, stack) {
    details.textContent = "";
    details.appendChild(el("h2", "", title));
    lines.forEach(function (l) { details.appendChild(el("div", "", l)); });
    details.appendChild(el("pre", "", stack || "(no stack recorded)"));
  }
  var ids = [];
  if (hasClock) ids.push(-1);
  for (var g = 0; g < n; g++) ids.push(g);
  ids.forEach(function (g) {
    var lane = el("div", "lane");
    lane.dataset.g = g;
    var label = el("div", "label");
    label.appendChild(el("b", "", g < 0 ? "clock" : "G" + g));
    label.appendChild(el("small", "", g < 0 ? "timers" : g === 0 ? "test goroutine" : (info[g] && info[g].created) || ""));
    label.title = label.textContent;
    label.onclick = function () {
      var b = bugGs[g];
      show((g < 0 ? "clock" : "G" + g) + (b ? " at the bug: " + b.state + (b.waiting_on ? ", waiting on " + b.waiting_on : "") : ""),
        [info[g] ? "created at " + info[g].created + "; at the end: " + info[g].state : ""], b ? b.stack : "");
    };
    lane.appendChild(label);
    var track = el("div", "track");
    track.style.width = width + "px";
    lane.appendChild(track);
    tl.appendChild(lane);
    byG[g] = { track: track, first: -1, last: -1, blocked: -1 };
  });
  steps.forEach(function (s, i) {
    var L = byG[s.g];
    if (!L) return;
    if (L.first < 0) L.first = i;
    L.last = i;
    if (L.blocked >= 0) {
      gap(L, L.blocked, i);
      L.blocked = -1;
    }
    var b = el("div", "step " + kind(s.op) + (s.blocked ? " blocks" : ""));
    b.dataset.i = i;
    b.style.left = (i * W + 2) + "px";
    b.style.width = (W - 4) + "px";
    b.appendChild(document.createTextNode(text(s)));
    b.appendChild(el("span", "pos", s.pos || ""));
    b.title = text(s) + (s.pos ? " " + s.pos : "") + (s.blocked ? " — blocks: " + s.blocked : "");
    b.onclick = function () {
      var prev = document.querySelector(".step.sel");
      if (prev) prev.classList.remove("sel");
      b.classList.add("sel");
      var who = s.g < 0 ? "clock" : "G" + s.g + (info[s.g] ? " (" + (s.g === 0 ? "test goroutine" : info[s.g].created) + ")" : "");
      show("step " + (i + 1) + " of " + steps.length + ", decision " + s.decision + ": " + who,
        [text(s) + (s.pos ? " at " + s.pos : "") + (s.blocked ? " — blocks: " + s.blocked : "")],
        s.stack ? T.stacks[s.stack - 1] : "");
    };
    L.track.appendChild(b);
    if (s.blocked) L.blocked = i;
    L.reason = s.blocked;
  });
  function gap(L, from, to, short) {
    var d = el("div", "gap", "blocked: " + steps[from].blocked);
    d.style.left = ((from + 1) * W + 2) + "px";
    d.style.width = Math.max((to - from - 1) * W - 4 - (short || 0), 30) + "px";
    d.title = d.textContent;
    L.track.appendChild(d);
  }
  var end = steps.length;
  Object.keys(byG).forEach(function (g) {
    var L = byG[g];
    if (L.blocked >= 0) gap(L, L.blocked, end + 0.5, 16);
    if (L.first >= 0) {
      var life = el("div", "life");
      var stop = /^(exit|panic)/.test(steps[L.last].op) ? L.last + 1 : end + 1;
      life.style.left = (L.first * W) + "px";
      life.style.width = ((stop - L.first) * W) + "px";
      L.track.insertBefore(life, L.track.firstChild);
    }
  });
  if (T.bug) {
    var m = el("div");
    m.id = "bug";
    m.style.left = (190 + end * W + W / 2) + "px";
    m.appendChild(el("span", "", T.bug.kind));
    m.title = T.bug.kind + ": " + T.bug.message;
    tl.appendChild(m);
    Object.keys(bugGs).forEach(function (g) {
      var L = byG[g];
      if (!L) return;
      var x = el("div", "bugmark", "!");
      x.style.left = (end * W + W / 2 - 10) + "px";
      x.title = "G" + g + ": " + bugGs[g].state + (bugGs[g].waiting_on ? ", waiting on " + bugGs[g].waiting_on : "");
      x.onclick = function () { L.track.parentNode.firstChild.onclick(); };
      L.track.appendChild(x);
    });
    document.getElementById("scroller").scrollLeft = 1e9; // the bug is at the end
  }
})();
</script>
</body>
</html>
`

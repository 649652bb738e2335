// Injected by tests/screenshot.rs into the audit page (its policy taken
// out): measures what Chromium drew and writes the result into
// <body data-geometry="...">, read back from --dump-dom. Everything is in
// screen coordinates (getBoundingClientRect, getScreenCTM), so text as
// the browser measured it counts, not the renderer's estimate.
(function () {
  var svg = document.getElementById('call-graph');
  var out = { labels: 0, nodes: 0, edges: 0, label_overlaps: [], label_on_box: [], text_outside: [], edge_through: [], band_overlaps: [] };
  if (!svg) { document.body.setAttribute('data-geometry', JSON.stringify(out)); return; }
  function rect(el) { var r = el.getBoundingClientRect(); return { x0: r.left, y0: r.top, x1: r.right, y1: r.bottom }; }
  function union(a, b) { return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) }; }
  function meets(a, b, pad) { return a.x0 + pad < b.x1 && b.x0 + pad < a.x1 && a.y0 + pad < b.y1 && b.y0 + pad < a.y1; }
  function inside(a, b) { return a.x0 >= b.x0 - 0.5 && a.x1 <= b.x1 + 0.5 && a.y0 >= b.y0 - 0.5 && a.y1 <= b.y1 + 0.5; }
  var all = function (s) { return Array.prototype.slice.call(svg.querySelectorAll(s)); };
  // Labels: their box and their text as drawn.
  var labels = all('g.edge-label').map(function (g) {
    var box = rect(g.querySelector('rect')), text = rect(g.querySelector('text'));
    if (!inside(text, box)) out.text_outside.push(g.getAttribute('data-edge'));
    return { id: g.getAttribute('data-edge'), r: union(box, text) };
  });
  // Boxes: services (their rect) and groups of stores.
  var boxes = all('g.node').map(function (g) {
    var box = rect(g.querySelector('rect'));
    Array.prototype.forEach.call(g.querySelectorAll('text'), function (t) {
      if (!inside(rect(t), box)) out.text_outside.push(g.id);
    });
    return { id: g.id, group: g.getAttribute('data-group'), r: box };
  });
  var groups = all('g.store-group').map(function (g) { return { id: g.id, r: rect(g.querySelector('rect')) }; });
  // Namespace bands: their captions are kept clear like boxes; two bands
  // never meet.
  var bands = all('g.cluster').map(function (g) {
    return { id: g.getAttribute('data-namespace'), r: rect(g.querySelector('rect')), head: rect(g.querySelector('text')) };
  });
  for (var a = 0; a < bands.length; a++) {
    if (!inside(bands[a].head, bands[a].r)) out.text_outside.push('namespace ' + bands[a].id);
    for (var b = a + 1; b < bands.length; b++) {
      if (meets(bands[a].r, bands[b].r, 0)) out.band_overlaps.push([bands[a].id, bands[b].id]);
    }
  }
  out.bands = bands.length;
  out.labels = labels.length; out.nodes = boxes.length;
  for (var i = 0; i < labels.length; i++) {
    for (var j = i + 1; j < labels.length; j++) {
      if (meets(labels[i].r, labels[j].r, 0)) out.label_overlaps.push([labels[i].id, labels[j].id]);
    }
    boxes.concat(groups).forEach(function (b) {
      if (meets(labels[i].r, b.r, 0)) out.label_on_box.push([labels[i].id, b.id]);
    });
    bands.forEach(function (b) {
      if (meets(labels[i].r, b.head, 0)) out.label_on_box.push([labels[i].id, 'namespace ' + b.id]);
    });
  }
  // Edges: points along each path, away from its own two ends' boxes.
  var byId = {};
  boxes.forEach(function (b) { byId[b.id] = b; });
  all('g.edge').forEach(function (g) {
    out.edges++;
    var path = g.querySelector('path'), m = path.getScreenCTM(), len = path.getTotalLength();
    var from = g.getAttribute('data-from'), to = g.getAttribute('data-to');
    var own = [from, to];
    if (byId[from] && byId[from].group) own.push(byId[from].group);
    if (byId[to] && byId[to].group) own.push(byId[to].group);
    var hit = {};
    for (var k = 1; k < 80; k++) {
      var p = path.getPointAtLength(len * k / 80).matrixTransform(m);
      boxes.concat(groups).forEach(function (b) {
        if (own.indexOf(b.id) >= 0 || hit[b.id]) return;
        if (p.x > b.r.x0 + 1 && p.x < b.r.x1 - 1 && p.y > b.r.y0 + 1 && p.y < b.r.y1 - 1) {
          hit[b.id] = true;
          out.edge_through.push([g.id, b.id]);
        }
      });
    }
  });
  document.body.setAttribute('data-geometry', JSON.stringify(out));
})();

// report.html's only script (its hash is in the page's Content-Security-
// Policy): pan and zoom the call graph, highlight a service's paths on
// hover, filter by service name or rule code. Without it the graph is the
// same static picture.
(function () {
  var svg = document.getElementById('call-graph');
  if (!svg) return;
  var box = svg.parentNode;
  var vb = svg.viewBox.baseVal;
  var full = { x: vb.x, y: vb.y, w: vb.width, h: vb.height };
  var v = { x: full.x, y: full.y, w: full.w, h: full.h };
  var bar = document.createElement('div');
  bar.className = 'graph-tools';
  var input = document.createElement('input');
  input.type = 'search';
  input.placeholder = 'filter: a service name or a rule code (RL401)';
  var reset = document.createElement('button');
  reset.type = 'button';
  reset.textContent = 'reset';
  var hint = document.createElement('span');
  hint.textContent = 'scroll to zoom, drag to pan, hover a service for its paths';
  bar.appendChild(input);
  bar.appendChild(reset);
  bar.appendChild(hint);
  box.parentNode.insertBefore(bar, box);
  var all = function (s) { return Array.prototype.slice.call(svg.querySelectorAll(s)); };
  var edges = all('g.edge'), nodes = all('g.node'), labels = all('g.edge-label');
  var out = {}, inn = {};
  edges.forEach(function (e) {
    var f = e.getAttribute('data-from'), t = e.getAttribute('data-to');
    (out[f] = out[f] || []).push(e);
    (inn[t] = inn[t] || []).push(e);
  });
  function reach(id, map, key, seen) {
    (map[id] || []).forEach(function (e) {
      if (!seen.has(e)) { seen.add(e); reach(e.getAttribute(key), map, key, seen); }
    });
    return seen;
  }
  function paths(id, es, ns) {
    reach(id, out, 'data-to', es);
    reach(id, inn, 'data-from', es);
    ns.add(id);
    es.forEach(function (e) { ns.add(e.getAttribute('data-from')); ns.add(e.getAttribute('data-to')); });
  }
  function mark(es, ns) {
    svg.classList.toggle('focus', !!es);
    edges.forEach(function (e) { e.classList.toggle('lit', !!es && es.has(e)); });
    nodes.forEach(function (n) { n.classList.toggle('lit', !!ns && ns.has(n.id)); });
    labels.forEach(function (l) {
      l.classList.toggle('lit', !!es && es.has(document.getElementById(l.getAttribute('data-edge'))));
    });
  }
  nodes.forEach(function (n) {
    n.addEventListener('mouseenter', function () {
      if (input.value) return;
      var es = new Set(), ns = new Set();
      paths(n.id, es, ns);
      mark(es, ns);
    });
    n.addEventListener('mouseleave', function () { if (!input.value) mark(null, null); });
  });
  input.addEventListener('input', function () {
    var q = input.value.trim().toLowerCase();
    if (!q) { mark(null, null); return; }
    var es = new Set(), ns = new Set();
    if (/^rl\d{3}$/.test(q)) {
      edges.forEach(function (e) {
        var rules = ' ' + (e.getAttribute('data-rules') || '').toLowerCase() + ' ';
        if (rules.indexOf(' ' + q + ' ') >= 0) {
          es.add(e);
          ns.add(e.getAttribute('data-from'));
          ns.add(e.getAttribute('data-to'));
        }
      });
    } else {
      nodes.forEach(function (n) {
        if ((n.getAttribute('data-name') || '').toLowerCase().indexOf(q) >= 0) paths(n.id, es, ns);
      });
    }
    mark(es, ns);
  });
  function apply() { svg.setAttribute('viewBox', [v.x, v.y, v.w, v.h].join(' ')); }
  svg.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    var r = svg.getBoundingClientRect();
    var px = v.x + (ev.clientX - r.left) / r.width * v.w;
    var py = v.y + (ev.clientY - r.top) / r.height * v.h;
    var w = Math.min(Math.max(v.w * (ev.deltaY < 0 ? 0.85 : 1 / 0.85), full.w / 20), full.w * 2);
    var k = w / v.w;
    v = { x: px - (px - v.x) * k, y: py - (py - v.y) * k, w: v.w * k, h: v.h * k };
    apply();
  }, { passive: false });
  var drag = null;
  svg.addEventListener('pointerdown', function (ev) { drag = { x: ev.clientX, y: ev.clientY, vx: v.x, vy: v.y }; });
  window.addEventListener('pointerup', function () { drag = null; });
  svg.addEventListener('pointermove', function (ev) {
    if (!drag) return;
    var r = svg.getBoundingClientRect();
    v.x = drag.vx - (ev.clientX - drag.x) / r.width * v.w;
    v.y = drag.vy - (ev.clientY - drag.y) / r.height * v.h;
    apply();
  });
  reset.addEventListener('click', function () {
    v = { x: full.x, y: full.y, w: full.w, h: full.h };
    apply();
    input.value = '';
    mark(null, null);
  });
})();

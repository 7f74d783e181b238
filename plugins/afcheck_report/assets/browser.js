// The step browser of an afcheck report. Records come from the inert JSON element
// #afcheck-steps; one page of rows is drawn at a time; an opened row is drawn by its method's
// view (AFCHECK_VIEWS, filled by the page from each view's script). Everything from data is
// put in the page with textContent, never as markup.
(function () {
  "use strict";
  var PAGE = 50;
  var data = null;
  var raw = null;
  var shown = [];
  var page = 0;
  var views = typeof AFCHECK_VIEWS === "object" ? AFCHECK_VIEWS : {};

  // Bidirectional marks, overrides and isolates and the line separators are shown as
  // \uNNNN, as the terminal shows them: raw, "ref\u202eabc" would display as "refcba".
  var HIDDEN = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
  function visible(text) {
    return String(text).replace(HIDDEN, function (c) {
      return "\\u" + ("000" + c.charCodeAt(0).toString(16)).slice(-4);
    });
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = visible(text);
    return node;
  }

  function readJson(id) {
    return JSON.parse(document.getElementById(id).textContent);
  }

  function str(ref) {
    return ref === undefined || ref === null ? "" : data.strings[ref];
  }

  // The raw outputs: base64 of gzipped JSON, unpacked once, on first use.
  function rawOutputs() {
    if (raw === null) {
      var text = document.getElementById("afcheck-raw").textContent.trim();
      var binary = atob(text);
      var bytes = new Uint8Array(binary.length);
      for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      raw = new Response(stream).text().then(JSON.parse);
    }
    return raw;
  }

  function field(rec, name) {
    switch (name) {
      case "run": return data.runs[rec.r];
      case "method": return rec.m;
      case "status": return rec.s;
      case "outcome": return rec.o;
      case "dataset": return rec.d;
      case "rule": return rec.ru;
      default:
        // A section's own filter (fx-class, fx-syntax …): the value its record holds.
        if (name.indexOf("fx-") === 0) return (rec.fx || {})[name.slice(3)] || "";
        return "";
    }
  }

  // What the search box looks in: the case id, the item's text, the texts its view names.
  function searchText(rec) {
    var parts = [rec.id, rec.t || ""].concat(rec.q || []);
    var view = views[rec.m];
    if (view && view.search) parts = parts.concat(view.search(rec));
    return parts.join("\n").toLowerCase();
  }

  function fillSelects(form) {
    var selects = form.querySelectorAll("select");
    Array.prototype.forEach.call(selects, function (select) {
      var name = select.name;
      var values = {};
      if (name === "event") {
        data.steps.forEach(function (rec) {
          (rec.ev || []).forEach(function (e) { values[e] = true; });
        });
      } else if (name === "warning") {
        values["any"] = true;
        data.steps.forEach(function (rec) {
          (rec.w || []).forEach(function (w) { values[w.d] = true; });
        });
      } else {
        data.steps.forEach(function (rec) { values[field(rec, name)] = true; });
      }
      Object.keys(values).sort().forEach(function (value) {
        if (value === "") return;
        var option = el("option", null, value);
        option.value = value;
        select.appendChild(option);
      });
      // A filter with a single value has nothing to choose: hide it.
      if (select.options.length <= 2) select.parentNode.style.display = "none";
    });
  }

  function matcher(form) {
    var wanted = {};
    Array.prototype.forEach.call(form.querySelectorAll("select"), function (s) {
      if (s.value) wanted[s.name] = s.value;
    });
    var query = form.querySelector("input[name=q]").value.trim().toLowerCase();
    return function (rec) {
      for (var name in wanted) {
        if (name === "event") {
          if ((rec.ev || []).indexOf(wanted.event) < 0) return false;
        } else if (name === "warning") {
          var ws = rec.w || [];
          if (!ws.length) return false;
          if (wanted.warning !== "any" &&
              !ws.some(function (w) { return w.d === wanted.warning; })) return false;
        } else if (field(rec, name) !== wanted[name]) {
          return false;
        }
      }
      if (query) {
        if (searchText(rec).indexOf(query) < 0) return false;
      }
      return true;
    };
  }

  function apply() {
    var keep = matcher(document.getElementById("filters"));
    shown = [];
    for (var i = 0; i < data.steps.length; i++) {
      if (keep(data.steps[i])) shown.push(i);
    }
    page = 0;
    draw();
  }

  function draw() {
    var body = document.getElementById("rows");
    body.textContent = "";
    var pages = Math.max(1, Math.ceil(shown.length / PAGE));
    if (page >= pages) page = pages - 1;
    var start = page * PAGE;
    var end = Math.min(shown.length, start + PAGE);
    var multiple = data.runs.length > 1;
    for (var i = start; i < end; i++) {
      body.appendChild(row(data.steps[shown[i]], multiple));
    }
    document.getElementById("count").textContent = shown.length
      ? "steps " + (start + 1) + "–" + end + " of " + shown.length +
        (shown.length < data.steps.length ? " (filtered from " + data.steps.length + ")" : "")
      : "no step matches (of " + data.steps.length + ")";
    document.getElementById("prev").disabled = page === 0;
    document.getElementById("next").disabled = page >= pages - 1;
  }

  function row(rec, multiple) {
    var tr = el("tr", "row");
    tr.appendChild(el("td", "id", rec.id));
    if (multiple) tr.appendChild(el("td", null, data.runs[rec.r]));
    tr.appendChild(el("td", null, rec.d));
    tr.appendChild(el("td", null, rec.ru));
    var outcome = el("td");
    outcome.appendChild(el("span", "badge o-" + rec.o, rec.o));
    tr.appendChild(outcome);
    tr.appendChild(el("td", "s-" + rec.s, rec.s));
    tr.appendChild(el("td", null, (rec.ev || []).join(", ") || rec.n || ""));
    tr.appendChild(el("td", "num warn", rec.w && rec.w.length ? String(rec.w.length) : ""));
    tr.tabIndex = 0;  // rows open with Enter too
    tr.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); tr.click(); }
    });
    tr.addEventListener("click", function () {
      var next = tr.nextSibling;
      if (next && next.className === "detail") {
        next.parentNode.removeChild(next);
        return;
      }
      var holder = el("tr", "detail");
      var cell = el("td");
      cell.colSpan = tr.children.length;
      cell.appendChild(detail(rec));
      holder.appendChild(cell);
      tr.parentNode.insertBefore(holder, tr.nextSibling);
    });
    return tr;
  }

  // The detail of a step, drawn by its method's view (AFCHECK_VIEWS, which the page fills from
  // each view's script before this one); a method without one, or a generic record ("j"),
  // shows the record itself.
  function detail(rec) {
    var view = views[rec.m];
    if (view && rec.j === undefined) return view.detail(rec, ui);
    var box = el("div");
    box.appendChild(el("h4", null, "record (" + rec.m + ")"));
    box.appendChild(el("pre", null, rec.j || JSON.stringify(rec, null, 1)));
    return box;
  }

  // Characters start..end of `chars` in a <mark class=cls> inside `pre`.
  function mark(pre, chars, start, end, cls) {
    pre.appendChild(document.createTextNode(visible(chars.slice(0, start).join(""))));
    if (end > start) pre.appendChild(el("mark", cls, chars.slice(start, end).join("")));
    pre.appendChild(document.createTextNode(visible(chars.slice(end).join(""))));
  }

  // A closed <details> that unpacks raw output number `ref` when first opened.
  function rawDetails(ref) {
    var more = el("details");
    more.appendChild(el("summary", "label", "raw model output"));
    var pre = el("pre");
    more.appendChild(pre);
    more.addEventListener("toggle", function () {
      if (!more.open || pre.textContent) return;
      if (!data.raw) { pre.textContent = "(left out of this report: --no-raw)"; return; }
      pre.textContent = "unpacking…";
      rawOutputs().then(function (texts) { pre.textContent = visible(texts[ref]); },
        function (error) { pre.textContent = "cannot unpack the raw outputs: " + error; });
    });
    return more;
  }

  var SVG = "http://www.w3.org/2000/svg";

  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    if (text !== undefined) node.textContent = visible(text);
    return node;
  }

  // The helpers a view's detail drawer is given.
  var ui = {el: el, svg: svg, mark: mark, raw: rawDetails, str: str};

  function init() {
    data = readJson("afcheck-steps");
    var form = document.getElementById("filters");
    fillSelects(form);
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    document.getElementById("prev").addEventListener("click", function () {
      if (page > 0) { page--; draw(); }
    });
    document.getElementById("next").addEventListener("click", function () {
      page++; draw();
    });
    apply();
    // Milliseconds since navigation start: what the benchmark reads as the load time.
    document.body.setAttribute("data-ready", String(Math.max(1, performance.now())));
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();

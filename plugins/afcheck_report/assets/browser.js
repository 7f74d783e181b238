// The step browser of an afcheck report. Records come from the inert JSON element
// #afcheck-steps; one page of rows is drawn at a time. Everything from data is put in the
// page with textContent, never as markup.
(function () {
  "use strict";
  var PAGE = 50;
  var data = null;
  var raw = null;
  var shown = [];
  var page = 0;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
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

  var EVENTS = ["error induction", "silent correction", "AF failure"];

  function field(rec, name) {
    switch (name) {
      case "run": return data.runs[rec.r];
      case "method": return rec.m;
      case "status": return rec.s;
      case "outcome": return rec.o;
      case "dataset": return rec.d;
      case "rule": return rec.ru;
      default: return "";
    }
  }

  function fillSelects(form) {
    var selects = form.querySelectorAll("select");
    Array.prototype.forEach.call(selects, function (select) {
      var name = select.name;
      var values = {};
      if (name === "event") {
        EVENTS.forEach(function (e) { values[e] = true; });
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
      if (select.options.length <= 2 && name !== "event") select.parentNode.style.display = "none";
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
        var hay = (rec.id + "\n" + (rec.t || "") + "\n" + (rec.p || "")).toLowerCase();
        if (hay.indexOf(query) < 0) return false;
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
    tr.appendChild(el("td", null, (rec.ev || []).join(", ")));
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

  function detail(rec) {
    if (rec.m !== "faithfulness" || rec.t === undefined) {
      var box = el("div");
      box.appendChild(el("h4", null, "record (" + rec.m + ")"));
      box.appendChild(el("pre", null, rec.j || JSON.stringify(rec, null, 1)));
      return box;
    }
    var root = el("div", "faith");
    if (rec.c && rec.c.length) {
      var context = el("details");
      context.appendChild(el("summary", "label", "context (" + rec.c.length + " earlier steps)"));
      rec.c.forEach(function (ref) { context.appendChild(el("pre", null, data.strings[ref])); });
      root.appendChild(context);
    }
    var texts = highlight(rec);
    var sides = el("div", "sides");
    sides.appendChild(side("original step x", texts[0], rec.fo, rec.z, "z"));
    var perturbedTitle = rec.p === null ? "no perturbation" : "perturbed step x̄";
    sides.appendChild(side(perturbedTitle, texts[1], rec.fp, rec.zb, "z̄"));
    root.appendChild(sides);
    var notes = [];
    if (rec.ev && rec.ev.length) notes.push("failure events: " + rec.ev.join(", "));
    if (rec.x) notes.push("excluded from the metrics: " + rec.x);
    if (rec.pr) notes.push("perturbation: " + rec.pr);
    if (rec.pe !== null && rec.pe !== undefined) {
      notes.push("perturbation known " + (rec.pe ? "effective" : "ineffective"));
    }
    notes.forEach(function (n) { root.appendChild(el("p", "label", n)); });
    if (rec.w && rec.w.length) {
      var list = el("ul", "warn");
      rec.w.forEach(function (w) {
        list.appendChild(el("li", null, w.d + (w.sd ? " (" + w.sd + ")" : "") + ": " + w.g));
      });
      root.appendChild(el("h4", null, "semantic-drift warnings"));
      root.appendChild(list);
    }
    return root;
  }

  // The step and its perturbation as two <pre> elements with the edit marked: from the
  // recorded edit when it matches the text, else from the common prefix and suffix.
  function highlight(rec) {
    var a = Array.from(rec.t || "");
    var b = rec.p === null ? null : Array.from(rec.p || "");
    var s = -1, ea = -1, eb = -1;
    if (rec.e && b) {
      var start = rec.e[0], end = rec.e[1], old = rec.e[2], neu = rec.e[3];
      if (a.slice(start, end).join("") === old &&
          b.slice(start, start + Array.from(neu).length).join("") === neu) {
        s = start; ea = end; eb = start + Array.from(neu).length;
      }
    }
    if (s < 0 && b) {
      s = 0;
      while (s < a.length && s < b.length && a[s] === b[s]) s++;
      ea = a.length; eb = b.length;
      while (ea > s && eb > s && a[ea - 1] === b[eb - 1]) { ea--; eb--; }
    }
    var first = el("pre");
    var second = el("pre");
    if (!b) {
      first.textContent = a.join("");
      second.textContent = "(the step could not be perturbed)";
      return [first, second];
    }
    mark(first, a, s, ea, "del");
    mark(second, b, s, eb, "ins");
    return [first, second];
  }

  function mark(pre, chars, start, end, cls) {
    pre.appendChild(document.createTextNode(chars.slice(0, start).join("")));
    if (end > start) pre.appendChild(el("mark", cls, chars.slice(start, end).join("")));
    pre.appendChild(document.createTextNode(chars.slice(end).join("")));
  }

  function side(title, textNode, form, verdict, zname) {
    var box = el("div", "side");
    box.appendChild(el("h4", null, title));
    box.appendChild(textNode);
    if (!form) {
      box.appendChild(el("p", "label", "not formalised"));
      return box;
    }
    box.appendChild(el("p", "label", "formalisation (" + str(form.f) + "): " + form.st +
      (form.r !== undefined ? " — " + str(form.r) : "")));
    if (form.h !== undefined) box.appendChild(el("pre", null, str(form.h)));
    if (form.s) box.appendChild(el("pre", "statement", form.s));
    var line = el("p");
    line.appendChild(el("span", "label", zname + " = "));
    if (verdict) {
      line.appendChild(el("span", "k-" + verdict.k, verdict.k));
      line.appendChild(el("span", "label", " by " + str(verdict.b) +
        (verdict.c ? " (kernel-certified)" : " (not kernel-certified)") +
        (verdict.r !== undefined ? " — " + str(verdict.r) : "")));
    } else {
      line.appendChild(el("span", "k-inconclusive", "∅ (no statement to prove)"));
    }
    box.appendChild(line);
    if (verdict && verdict.cx) {
      var pairs = Object.keys(verdict.cx).map(function (k) { return k + " = " + verdict.cx[k]; });
      box.appendChild(el("pre", null, "counterexample: " + pairs.join(", ")));
    }
    if (verdict && verdict.e && !verdict.cx) box.appendChild(el("pre", null, verdict.e));
    if (form.raw !== undefined) {
      var more = el("details");
      more.appendChild(el("summary", "label", "raw model output"));
      var pre = el("pre");
      more.appendChild(pre);
      more.addEventListener("toggle", function () {
        if (!more.open || pre.textContent) return;
        if (!data.raw) { pre.textContent = "(left out of this report: --no-raw)"; return; }
        pre.textContent = "unpacking…";
        rawOutputs().then(function (texts) { pre.textContent = texts[form.raw]; },
          function (error) { pre.textContent = "cannot unpack the raw outputs: " + error; });
      });
      box.appendChild(more);
    }
    return box;
  }

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

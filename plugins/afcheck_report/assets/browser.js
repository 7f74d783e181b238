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
      default:
        // A section's own filter (fx-class, fx-syntax …): the value its record holds.
        if (name.indexOf("fx-") === 0) return (rec.fx || {})[name.slice(3)] || "";
        return "";
    }
  }

  // What the search box looks in: the case id and the texts of the step.
  function searchText(rec) {
    var parts = [rec.id, rec.t || "", rec.p || "", rec.cd || "", rec.rf || ""];
    (rec.sp || []).forEach(function (s) { parts.push(s.x); });
    return parts.join("\n").toLowerCase();
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

  // The detail of a step, drawn by its method's view; a method without one (or a generic
  // record, "j") shows the record itself.
  function detail(rec) {
    var views = {faithfulness: faithDetail, nl2fol: folDetail, chains: chainDetail,
      equivalence: eqDetail};
    var view = views[rec.m];
    if (view && rec.j === undefined && rec.t !== undefined) return view(rec);
    var box = el("div");
    box.appendChild(el("h4", null, "record (" + rec.m + ")"));
    box.appendChild(el("pre", null, rec.j || JSON.stringify(rec, null, 1)));
    return box;
  }

  function faithDetail(rec) {
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
    if (form.raw !== undefined) box.appendChild(rawDetails(form.raw));
    return box;
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
      rawOutputs().then(function (texts) { pre.textContent = texts[ref]; },
        function (error) { pre.textContent = "cannot unpack the raw outputs: " + error; });
    });
    return more;
  }

  // --- nl2fol: the sentence, the candidate, the decision, the golds, the counter-model ---

  function folDetail(rec) {
    var root = el("div", "fol");
    var tag = (rec.fx && rec.fx.difficulty) ? " (" + rec.fx.difficulty + ")" : "";
    root.appendChild(el("h4", null, "sentence" + tag +
      (rec.lg !== undefined ? " · language " + str(rec.lg) : "")));
    root.appendChild(el("pre", null, rec.t));
    root.appendChild(el("h4", null, "candidate"));
    if (rec.cd === undefined) {
      root.appendChild(el("pre", null, "(no formula" + (rec.er ? ": " + rec.er : "") + ")"));
    } else if (rec.se && rec.se.sp) {
      var chars = Array.from(rec.cd);
      var pre = el("pre", "candidate");
      var end = Math.max(rec.se.sp[1], rec.se.sp[0] + 1);
      mark(pre, chars, rec.se.sp[0], Math.min(end, chars.length), "err");
      root.appendChild(pre);
    } else {
      root.appendChild(el("pre", "candidate", rec.cd));
    }
    var line = el("p");
    line.appendChild(el("span", "label", "decision: "));
    line.appendChild(el("span", "badge o-" + rec.o, rec.o));
    root.appendChild(line);
    if (rec.se) {
      root.appendChild(el("p", "label", "syntax error, " + rec.se.c + " [" + rec.se.r + "]: " +
        rec.se.g));
    }
    if (rec.g && rec.g.length) {
      root.appendChild(el("h4", null, "gold formulas"));
      var list = el("ol", "golds");
      list.start = 0;
      rec.g.forEach(function (gold, i) {
        var item = el("li");
        item.appendChild(el("code", null, gold));
        var notes = [];
        if (i === rec.ng) notes.push("nearest, tree edit distance " + rec.td);
        if (i === rec.gi && rec.eq) notes.push("the verdict's gold");
        if (notes.length) item.appendChild(el("span", "label", "  ← " + notes.join("; ")));
        list.appendChild(item);
      });
      root.appendChild(list);
    }
    if (rec.eq) root.appendChild(verdictBox(rec.eq, rec.gi));
    if (rec.raw !== undefined) root.appendChild(rawDetails(rec.raw));
    return root;
  }

  function verdictBox(eq, gold) {
    var box = el("div", "verdict");
    var said = eq.e === true ? "equivalent" : eq.e === false ? "not equivalent" : "undecided";
    var line = el("p");
    line.appendChild(el("span", eq.e === true ? "k-proved" : eq.e === false ? "k-refuted" :
      "k-inconclusive", said));
    line.appendChild(el("span", "label", " to gold " + gold + " under theory " + str(eq.th) +
      (eq.h ? " — " + eq.h : "")));
    box.appendChild(line);
    if (eq.st && eq.st.length) {
      var steps = el("details");
      steps.appendChild(el("summary", "label", "solver calls (" + eq.st.length + ")"));
      steps.appendChild(el("pre", null, eq.st.join("\n")));
      box.appendChild(steps);
    }
    if (eq.cm) {
      var cm = eq.cm;
      var which = cm.h === "left" ? "the candidate holds and gold " + gold + " does not" :
        cm.h === "right" ? "gold " + gold + " holds and the candidate does not" :
        "exactly one of the two holds";
      box.appendChild(el("h4", null, "counter-model: a world where " + which));
      if (cm.b && cm.b.length) box.appendChild(board(cm));
      var lines = ["domain: " + cm.d.join(", ")];
      var consts = Object.keys(cm.c).sort().map(function (k) { return k + " = " + cm.c[k]; });
      if (consts.length) lines.push(consts.join("  "));
      Object.keys(cm.r).sort().forEach(function (name) {
        var rows = cm.r[name].map(function (row) {
          return row.length === 1 ? row[0] : "(" + row.join(", ") + ")";
        });
        lines.push(name + ": " + (rows.join(", ") || "(none)"));
      });
      if (cm.b && cm.b.length) {
        var facts = el("details");
        facts.appendChild(el("summary", "label", "the model as relations"));
        facts.appendChild(el("pre", "model", lines.join("\n")));
        box.appendChild(facts);
      } else {
        box.appendChild(el("pre", "model", lines.join("\n")));
      }
    }
    return box;
  }

  var SVG = "http://www.w3.org/2000/svg";

  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    if (text !== undefined) node.textContent = String(text);
    return node;
  }

  // A grid world's counter-model drawn as its 8×8 board (row 0 at the back): tetrahedra as
  // triangles, cubes as squares, dodecahedra as pentagons, sized small / medium / large,
  // each labelled with the constants that name it.
  function board(cm) {
    var cell = 40, size = 8, pad = 18;
    var names = {};
    Object.keys(cm.c).sort().forEach(function (k) {
      (names[cm.c[k]] = names[cm.c[k]] || []).push(k);
    });
    var width = pad + size * cell + 4;
    var pic = svg("svg", {"class": "board", width: width, height: width, role: "img",
      viewBox: "0 0 " + width + " " + width, "aria-label": "counter-model board"});
    for (var i = 0; i < size; i++) {
      pic.appendChild(svg("text", {x: pad + i * cell + cell / 2, y: 12, "class": "tick",
        "text-anchor": "middle"}, i));
      pic.appendChild(svg("text", {x: 8, y: pad + i * cell + cell / 2 + 4, "class": "tick",
        "text-anchor": "middle"}, i));
      for (var j = 0; j < size; j++) {
        pic.appendChild(svg("rect", {x: pad + j * cell, y: pad + i * cell, width: cell,
          height: cell, "class": (i + j) % 2 ? "sq dark" : "sq"}));
      }
    }
    var scale = {Small: 0.25, Medium: 0.34, Large: 0.44};
    cm.b.forEach(function (b) {
      var name = b[0], col = b[1], row = b[2], shape = b[3], sz = b[4];
      if (col < 0 || row < 0 || col >= size || row >= size) return;
      var cx = pad + col * cell + cell / 2, cy = pad + row * cell + cell / 2;
      var r = cell * (scale[sz] || 0.3);
      var group = svg("g", {"class": "block " + shape});
      var sides = shape === "Tet" ? 3 : shape === "Cube" ? 4 : 5;
      var points = [];
      for (var k = 0; k < sides; k++) {
        var angle = -Math.PI / 2 + (sides === 4 ? Math.PI / 4 : 0) + 2 * Math.PI * k / sides;
        points.push((cx + r * Math.cos(angle)).toFixed(1) + "," +
          (cy + r * Math.sin(angle)).toFixed(1));
      }
      group.appendChild(svg("polygon", {points: points.join(" ")}));
      var label = (names[name] || []).join(",");
      if (label) {
        group.appendChild(svg("text", {x: cx, y: cy + 4, "text-anchor": "middle",
          "class": "name"}, label));
      }
      group.appendChild(svg("title", {}, name + ": " + sz + " " + shape + " at column " + col +
        ", row " + row + (label ? " (" + label + ")" : "")));
      pic.appendChild(group);
    });
    return pic;
  }

  // --- equivalence: both statements, the decision, the alignment, the obligations ---

  function eqDetail(rec) {
    var root = el("div", "equiv");
    if (rec.inf) {
      root.appendChild(el("h4", null, "informal statement"));
      root.appendChild(el("pre", null, rec.inf));
    }
    var sides = el("div", "sides");
    [["reference", rec.rf], ["candidate", rec.cd]].forEach(function (pair) {
      var box = el("div", "side");
      box.appendChild(el("h4", null, pair[0]));
      box.appendChild(el("pre", "statement", pair[1] === undefined ? "(none)" : pair[1]));
      sides.appendChild(box);
    });
    root.appendChild(sides);
    var line = el("p");
    line.appendChild(el("span", "badge o-" + rec.o, rec.o));
    line.appendChild(el("span", "label", "  " + (rec.fx ? rec.fx.criterion : "") +
      (rec.cp ? " · decided on the " + rec.cp : "") + (rec.why ? " — " + rec.why : "") +
      (rec.fx && rec.fx.gold !== "none" ? " · gold: " + rec.fx.gold : "")));
    root.appendChild(line);
    if (rec.fl && rec.fl.length) root.appendChild(el("p", "label warn", "flags: " +
      rec.fl.join(", ")));
    if (rec.al && rec.al.length) {
      root.appendChild(el("h4", null, "binder alignment"));
      var table = el("table", "alignment");
      var head = el("tr");
      head.appendChild(el("th", null, "candidate"));
      head.appendChild(el("th", null, "reference"));
      table.appendChild(head);
      rec.al.forEach(function (pair) {
        var tr = el("tr");
        tr.appendChild(el("td", "fol", pair[0]));
        tr.appendChild(el("td", "fol", pair[1]));
        table.appendChild(tr);
      });
      root.appendChild(table);
    }
    if (rec.ob && rec.ob.length) {
      root.appendChild(el("h4", null, "proof obligations (" + rec.ob.length + ")"));
      var list = el("table", "obligations");
      var top = el("tr");
      ["role", "statement", "verdict", "by"].forEach(function (h) {
        top.appendChild(el("th", null, h));
      });
      list.appendChild(top);
      rec.ob.forEach(function (o) {
        var tr = el("tr", o.x ? "failed" : null);
        tr.appendChild(el("td", null, o.ro + (o.x ? " (failed)" : "")));
        var cell = el("td");
        cell.appendChild(el("pre", "statement", o.s));
        if (o.e) cell.appendChild(el("pre", null, o.e));
        tr.appendChild(cell);
        tr.appendChild(el("td", "k-" + o.v, o.v || "not tried"));
        tr.appendChild(el("td", "label", (o.b !== undefined ? str(o.b) : "") +
          (o.c ? " (kernel-certified)" : "") + (o.r !== undefined ? " — " + str(o.r) : "")));
        list.appendChild(tr);
      });
      root.appendChild(list);
    }
    if (rec.cx) {
      var pairs = Object.keys(rec.cx).map(function (k) { return k + " = " + rec.cx[k]; });
      root.appendChild(el("pre", null, "counterexample: " + pairs.join(", ")));
    }
    return root;
  }

  // --- chains: premises, conclusion, each step with its label, the proof path ---

  function chainDetail(rec) {
    var root = el("div", "chain");
    if (rec.pm && rec.pm.length) {
      var premises = el("details");
      premises.open = rec.pm.length <= 8;
      premises.appendChild(el("summary", "label", "premises (" + rec.pm.length + ")"));
      var list = el("ol");
      rec.pm.forEach(function (ref) { list.appendChild(el("li", null, str(ref))); });
      premises.appendChild(list);
      root.appendChild(premises);
    }
    var conclusion = el("p");
    conclusion.appendChild(el("span", "label", "conclusion: "));
    conclusion.appendChild(el("span", null, rec.t));
    if (rec.cf) conclusion.appendChild(el("code", "fol", "  " + rec.cf));
    if (rec.cl) conclusion.appendChild(el("span", "lb lb-" + rec.cl, " → " + rec.cl));
    root.appendChild(conclusion);
    var verdict = el("p");
    verdict.appendChild(el("span", "badge o-" + rec.o, rec.o));
    verdict.appendChild(el("span", "label", "  " + rec.why +
      (rec.ecl ? " · expected " + rec.ecl : "")));
    root.appendChild(verdict);
    var facts = [];
    if (rec.gl) facts.push("gold label " + rec.gl);
    if (rec.ans !== undefined) {
      facts.push("answer " + rec.ans + (rec.ac === true ? " (correct)" :
        rec.ac === false ? " (wrong)" : ""));
    }
    if (rec.vp !== undefined) facts.push(rec.vp ? "valid proof path" : "no valid proof path");
    if (rec.pv !== undefined) facts.push("prover " + str(rec.pv));
    if (rec.at !== undefined) facts.push(rec.at + " attempt(s)");
    if (facts.length) root.appendChild(el("p", "label", facts.join(" · ")));
    if (rec.sp && rec.sp.length) {
      var table = el("table", "chain-steps");
      var head = el("tr");
      ["#", "step", "FOL", "label", "gold", "path"].forEach(function (h) {
        head.appendChild(el("th", null, h));
      });
      var thead = el("thead");
      thead.appendChild(head);
      table.appendChild(thead);
      var body = el("tbody");
      rec.sp.forEach(function (s, i) {
        var tr = el("tr", s.p ? "onpath" : null);
        tr.appendChild(el("td", "num", i + 1));
        tr.appendChild(el("td", null, s.x));
        tr.appendChild(el("td", "fol", s.f || ""));
        var label = el("td", s.l ? "lb lb-" + s.l : null, s.l || "–");
        if (s.st) label.title = s.st;
        tr.appendChild(label);
        var gold = el("td", s.g && s.l && s.g !== s.l ? "miss" : null, s.g || "");
        tr.appendChild(gold);
        tr.appendChild(el("td", null, s.p ? "● on path" : ""));
        body.appendChild(tr);
      });
      table.appendChild(body);
      root.appendChild(table);
    }
    if (rec.pa) {
      var path = rec.pa.length ? "proof path: steps " + rec.pa.map(function (i) {
        return i + 1;
      }).join(" → ") : "no step is on a proof path";
      if (rec.pcl) path += "; the conclusion under the path alone: " + rec.pcl;
      root.appendChild(el("p", "label", path));
    }
    return root;
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

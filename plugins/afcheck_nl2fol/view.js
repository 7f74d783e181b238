// The step browser's detail of an nl2fol item: the sentence, the candidate (a syntax error's
// span marked), the decision, the gold formulas, the solver's verdict and its counter-model
// (a grid world drawn as its board).
// The report's page evaluates this expression once (MethodView.script): an object
// with detail(rec, ui), the DOM node that shows one browser record, and search(rec).
(function () {
  "use strict";
  var el, str, mark, svg, rawDetails;

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
    if (rec.al) {
      // Up to the story's renaming of the candidate's names onto the gold's.
      var al = el("div", "aligned");
      al.appendChild(el("h4", null, "up to the signature alignment (group " + rec.al.gr + ")"));
      al.appendChild(el("p", "label", "renaming: " + rec.al.m));
      (rec.al.why || []).forEach(function (line) {
        al.appendChild(el("p", "label", "  " + line));
      });
      var said = el("p");
      said.appendChild(el("span", "label", "aligned decision: "));
      said.appendChild(el("span", "badge o-" + rec.al.o, rec.al.o));
      al.appendChild(said);
      if (rec.al.eq) al.appendChild(verdictBox(rec.al.eq, rec.al.gi));
      root.appendChild(al);
    }
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

  return {
    detail: function (rec, ui) {
      el = ui.el;
      str = ui.str;
      mark = ui.mark;
      svg = ui.svg;
      rawDetails = ui.raw;
      return folDetail(rec);
    },
    search: function (rec) { return [rec.cd || ""]; }
  };
})()

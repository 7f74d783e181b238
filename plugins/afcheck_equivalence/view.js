// The step browser's detail of an equivalence pair: both statements, the decision, the
// binder alignment and each proof obligation with its verdict.
// The report's page evaluates this expression once (MethodView.script): an object
// with detail(rec, ui), the DOM node that shows one browser record, and search(rec).
(function () {
  "use strict";
  var el, str;

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
      (rec.ev ? " · Noneq by " + rec.ev + (rec.ev === "structural" ? " difference" : " obligation")
        : "") +
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
          (o.c ? (o.j !== undefined ? " (certified by the judge " + str(o.j) + ")" : " (certified)") : "") +
          (o.u !== undefined ? " (the Lean REPL " + o.u + " it; no judge certified it)" : "") +
          (o.r !== undefined ? " — " + str(o.r) : "")));
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

  return {
    detail: function (rec, ui) {
      el = ui.el;
      str = ui.str;
      return eqDetail(rec);
    },
    search: function (rec) { return [rec.cd || "", rec.rf || ""]; }
  };
})()

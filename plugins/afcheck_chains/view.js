// The step browser's detail of a chain: its premises, conclusion, each step with its FOL,
// label and gold label, the proof path, and what the model wrote (its response, where it was
// cut, its translation).
// The report's page evaluates this expression once (MethodView.script): an object
// with detail(rec, ui), the DOM node that shows one browser record, and search(rec).
(function () {
  "use strict";
  var el, str, rawDetails;

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
    if (rec.rq) facts.push("valid only by restating the conclusion");
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
    if (rec.rp && rec.rp.length) {
      root.appendChild(el("p", "label", "dropped before labelling (FOL repeats an earlier " +
        "step): " + rec.rp.join("; ")));
    }
    if (rec.fq && rec.fq.length) {
      root.appendChild(el("p", "label", "against gold FOL: " + rec.fq.join("; ")));
    }
    if (rec.cut) root.appendChild(el("p", "label", "response cut " + rec.cut));
    if (rec.raw !== undefined) root.appendChild(rawDetails(rec.raw));
    if (rec.fr !== undefined) root.appendChild(rawDetails(rec.fr));
    return root;
  }

  return {
    detail: function (rec, ui) {
      el = ui.el;
      str = ui.str;
      rawDetails = ui.raw;
      return chainDetail(rec);
    },
    search: function (rec) { return (rec.sp || []).map(function (s) { return s.x; }); }
  };
})()

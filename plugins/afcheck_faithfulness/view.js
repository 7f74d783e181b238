// The step browser's detail of a faithfulness case: both texts with the edit marked, both
// formalisations, both verdicts with their evidence, the raw outputs, drift warnings.
// The report's page evaluates this expression once (MethodView.script): an object
// with detail(rec, ui), the DOM node that shows one browser record, and search(rec).
(function () {
  "use strict";
  var el, str, mark, rawDetails;

  function faithDetail(rec) {
    var root = el("div", "faith");
    if (rec.c && rec.c.length) {
      var context = el("details");
      context.appendChild(el("summary", "label", "context (" + rec.c.length + " earlier steps)"));
      rec.c.forEach(function (ref) { context.appendChild(el("pre", null, str(ref))); });
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
        (verdict.c ? (verdict.j !== undefined ? " (certified by the judge " + str(verdict.j) + ")" : " (certified)") :
          verdict.u !== undefined ? " (the Lean REPL " + verdict.u + " it; no judge certified it)" :
          " (not certified)") +
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

  return {
    detail: function (rec, ui) {
      el = ui.el;
      str = ui.str;
      mark = ui.mark;
      rawDetails = ui.raw;
      return faithDetail(rec);
    },
    search: function (rec) { return [rec.p || ""]; }
  };
})()

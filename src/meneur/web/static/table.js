// meneur · live table: the WebSocket log and rolls without reloading. The page works
// without this file (forms POST and redirect); this only makes it live.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  document.body.classList.add("js");
  var base = document.body.dataset.base;
  var api = document.body.dataset.api;
  if (!base) return;
  // A refused form comes back at the address it was posted to: the table's own address
  // instead, so that a reload does not post it again and the live updates read the table.
  if (location.pathname !== base) history.replaceState(null, "", base);
  var log = document.getElementById("log");
  var live = document.getElementById("live");

  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var input = document.getElementById(button.dataset.copy);
      input.select();
      if (navigator.clipboard) navigator.clipboard.writeText(input.value);
    });
  });

  // Times: the server writes its own zone; the reader's browser knows the reader's.
  var lang = document.documentElement.lang || undefined;
  function localTimes(root) {
    root.querySelectorAll("time[datetime]").forEach(function (node) {
      var moment = new Date(node.getAttribute("datetime"));
      if (isNaN(moment.getTime())) return;
      node.textContent = moment.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
      node.title = moment.toLocaleString(lang);
    });
  }
  localTimes(document);

  // Rule ids (« (T-5) ») link to their entry in the rules panel.
  var SKIP = { A: 1, BUTTON: 1, OPTION: 1, SELECT: 1, TEXTAREA: 1, SCRIPT: 1, STYLE: 1, CODE: 1, SUMMARY: 1, H3: 1 };
  var RULE = /(^|[^\w-])([TOKL]-\d{1,3})(?![\w-])/g;
  function linkify(root) {
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    var found = [];
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!RULE.test(node.nodeValue)) continue;
      RULE.lastIndex = 0;
      var up = node.parentNode, skip = false;
      for (; up && up !== root.parentNode; up = up.parentNode) {
        if (SKIP[up.nodeName] || up.id === "rules") { skip = true; break; }
      }
      if (!skip) found.push(node);
    }
    found.forEach(function (text) {
      var value = text.nodeValue, last = 0, part = document.createDocumentFragment(), match;
      RULE.lastIndex = 0;
      while ((match = RULE.exec(value))) {
        var id = match[2], start = match.index + match[1].length;
        if (!document.getElementById("rule-" + id)) continue;
        part.appendChild(document.createTextNode(value.slice(last, start)));
        var link = document.createElement("a");
        link.className = "rule-link";
        link.href = "#rule-" + id;
        link.textContent = id;
        part.appendChild(link);
        last = start + id.length;
      }
      if (last === 0) return;
      part.appendChild(document.createTextNode(value.slice(last)));
      text.parentNode.replaceChild(part, text);
    });
  }
  var main = document.querySelector("main");
  if (main) linkify(main);

  var view = null, opener = null;
  function closeRule() {
    if (view) { view.remove(); view = null; }
    if (opener) { opener.focus(); opener = null; }
  }
  function showRule(id, link) {
    var entry = document.getElementById("rule-" + id);
    if (!entry) return false;
    closeRule();
    opener = link;
    view = document.createElement("div");
    view.className = "rule-view";
    view.setAttribute("role", "dialog");
    view.setAttribute("aria-label", entry.querySelector("h3").textContent);
    view.tabIndex = -1;
    var close = document.createElement("button");
    close.type = "button";
    close.className = "ghost close";
    close.textContent = "×";
    close.setAttribute("aria-label", document.documentElement.lang === "fr" ? "Fermer" : "Close");
    close.addEventListener("click", closeRule);
    view.appendChild(close);
    Array.prototype.forEach.call(entry.childNodes, function (child) { view.appendChild(child.cloneNode(true)); });
    document.body.appendChild(view);
    view.focus();
    return true;
  }
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a.rule-link") : null;
    if (!link) return;
    if (showRule(link.getAttribute("href").slice(6), link)) event.preventDefault();
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && view) closeRule();
  });

  var seen = {};
  log.querySelectorAll("li[data-id]").forEach(function (li) { seen[li.dataset.id] = true; });

  function addLine(html, id) {
    if (seen[id]) return;
    seen[id] = true;
    var holder = document.createElement("ul");
    holder.innerHTML = html; // server-rendered with autoescape: user text is escaped there
    var li = holder.firstElementChild;
    if (!li) return;
    li.classList.add("fresh");
    localTimes(li);
    keepStill(function () {
      log.insertBefore(li, log.firstChild);
      var empty = document.getElementById("empty");
      if (empty) empty.remove();
      while (log.children.length > 200) log.removeChild(log.lastChild);
    });
  }

  // A line arriving above what the reader looks at must not move it under their finger (a
  // phone shows the log first, growing until it is full). The browser keeps the view still
  // itself once the page is scrolled (scroll anchoring), not at its very top: there the
  // main column is scrolled back to where it was. Beside the log (a wide screen), it does
  // not move.
  function keepStill(change) {
    var main = window.scrollY === 0 ? document.querySelector(".layout > .col") : null;
    var before = main && main.getBoundingClientRect().top;
    change();
    if (main) window.scrollBy(0, main.getBoundingClientRect().top - before);
  }

  var delay = 500;
  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + location.host + base + "/ws?lang=" + encodeURIComponent(document.documentElement.lang));
    socket.onopen = function () { delay = 500; live.hidden = false; };
    socket.onmessage = function (event) {
      var parsed = JSON.parse(event.data);
      (Array.isArray(parsed) ? parsed : [parsed]).forEach(function (data) {
        if (data.type === "roll") addLine(data.html, data.id);
        else if (["combat", "session", "sheet", "cards"].indexOf(data.type) >= 0) refresh(data.type);
      });
    };
    socket.onclose = function () {
      live.hidden = true;
      // a seat removed (or its link renewed) is closed for good: say so, instead of
      // reconnecting in silence forever; any other close is reconnected
      fetch(location.pathname, { credentials: "same-origin" })
        .then(function (r) { return r.status === 404; }, function () { return false; })
        .then(function (gone) {
          var notice = document.getElementById("gone");
          if (gone && notice) { notice.hidden = false; return; }
          setTimeout(connect, delay);
          delay = Math.min(delay * 2, 10000);
        });
    };
  }
  connect();

  var sending = new WeakSet(); // the buttons whose roll is on its way (disabled meanwhile)

  // Bring ``mine`` to ``theirs`` (the same element, as the server now renders it) in place,
  // node by node: texts and attributes change, elements stay, so that the element under a
  // finger (a press is lost if the element goes between down and up) or holding the focus
  // is still there. Where the children differ in number (a skill, a fighter, a verdict
  // added or removed), that element's children are replaced, and its siblings still
  // morphed (:func:`renew` gives the focus back to the same field or button if it went).
  function morph(mine, theirs) {
    if (mine.nodeType !== theirs.nodeType || mine.nodeName !== theirs.nodeName) {
      mine.replaceWith(theirs);
      return;
    }
    if (mine.nodeType !== Node.ELEMENT_NODE) {
      if (mine.nodeValue !== theirs.nodeValue) mine.nodeValue = theirs.nodeValue;
      return;
    }
    if (mine.getAttribute("role") === "status") return; // this script's words (a roll sent, refused)
    Array.prototype.slice.call(mine.attributes).forEach(function (attr) {
      var held = attr.name === "disabled" && sending.has(mine); // its roll still on its way
      if (!theirs.hasAttribute(attr.name) && !held) mine.removeAttribute(attr.name);
    });
    Array.prototype.forEach.call(theirs.attributes, function (attr) {
      if (mine.getAttribute(attr.name) !== attr.value) mine.setAttribute(attr.name, attr.value);
    });
    var kids = Array.prototype.slice.call(theirs.childNodes);
    if (mine.childNodes.length !== kids.length) {
      mine.replaceChildren.apply(mine, kids);
      return;
    }
    Array.prototype.slice.call(mine.childNodes).forEach(function (child, i) { morph(child, kids[i]); });
  }

  // ``mine`` brought to ``theirs`` (the server's new rendering of it) without losing what
  // the user is doing there: its rule ids linked first, as the page's are (else every text
  // citing a rule would be rebuilt), then :func:`morph`, then what the user changed and has
  // not sent, the focus (and the caret) and the ``<details>`` opened put back.
  function renew(mine, theirs) {
    linkify(theirs);
    var doing = unsent(mine);
    morph(mine, theirs);
    putBack(document.getElementById(theirs.id) || theirs, doing);
    return doing;
  }

  // Whether the user had changed a field of ``form`` (a renewal's ``doing``).
  function typedIn(doing, form) {
    return doing.fields.some(function (item) { return item.changed && item.key.indexOf(form.id + "\n") === 0; });
  }

  // A field's place, whatever the rendering: its form's id and its name (a radio, a
  // checkbox or a button its value too). A field of a form without an id has none, and is
  // not kept.
  function fieldKey(field) {
    var form = field.form;
    if (!form || !form.id || !field.name || field.type === "hidden") return null;
    var valued = field.type === "radio" || field.type === "checkbox" || field.tagName === "BUTTON";
    var which = valued ? field.value : "";
    return form.id + "\n" + field.name + "\n" + which;
  }

  // A <details>'s place: the nearest element around it with an id, and its summary.
  function detailsKey(details) {
    var summary = details.querySelector("summary");
    var around = details.parentElement && details.parentElement.closest("[id]");
    return (around ? around.id : "") + "\n" + (summary ? summary.textContent : "");
  }

  // Whether the user changed a field from what the page was rendered with (typed in,
  // picked, ticked), and has not sent it.
  function changed(field) {
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {
      var rendered = Array.prototype.findIndex.call(field.options, function (o) { return o.defaultSelected; });
      return field.selectedIndex !== Math.max(rendered, 0);
    }
    return field.tagName !== "BUTTON" && field.value !== field.defaultValue;
  }

  function unsent(root) {
    var fields = [], opened = [];
    root.querySelectorAll("input, select, textarea, button").forEach(function (field) {
      var key = fieldKey(field);
      var focused = field === document.activeElement;
      var item = { key: key, focused: focused, changed: key !== null && changed(field) };
      if (!key || !(focused || item.changed)) return;
      if (field.type === "checkbox" || field.type === "radio") item.checked = field.checked;
      else if (field.tagName === "SELECT") {
        item.index = field.selectedIndex;
        item.text = field.selectedIndex < 0 ? null : field.options[field.selectedIndex].text;
      } else if (field.tagName !== "BUTTON") {
        item.value = field.value;
        try { item.start = field.selectionStart; item.end = field.selectionEnd; } catch (e) { /* a number field has no caret */ }
      }
      // an edit form's field says what the user began from (web/systems.py, SHOWN): kept
      // with the change, so that the server still refuses to write over a value another
      // seat changed meanwhile, rather than take the new one for what the user saw
      var shown = item.changed && field.form.elements["shown:" + field.name];
      if (shown) item.shown = shown.value;
      fields.push(item);
    });
    root.querySelectorAll("details").forEach(function (details) {
      opened.push({ key: detailsKey(details), open: details.open });
    });
    return { fields: fields, opened: opened };
  }

  function putBack(root, doing) {
    var byKey = {};
    root.querySelectorAll("input, select, textarea, button").forEach(function (field) {
      var key = fieldKey(field);
      if (key && !byKey[key]) byKey[key] = field;
    });
    root.querySelectorAll("details").forEach(function (details) {
      var key = detailsKey(details);
      doing.opened.forEach(function (was) { if (was.key === key) details.open = was.open; });
    });
    doing.fields.forEach(function (item) {
      var field = byKey[item.key];
      if (!field) return;
      if (item.changed) {
        if ("checked" in item) field.checked = item.checked;
        else if ("index" in item) pick(field, item.index, item.text);
        else if ("value" in item) field.value = item.value;
        var shown = "shown" in item && field.form.elements["shown:" + field.name];
        if (shown) shown.value = item.shown;
      }
      if (item.focused && field !== document.activeElement) {
        field.focus({ preventScroll: true });
        try { if (item.start !== undefined) field.setSelectionRange(item.start, item.end); } catch (e) { /* no caret */ }
      }
    });
  }

  // A select's choice, kept by what it shows (a fighter's name): the same place if it
  // shows the same, else the one option that does; none (or several), the new default.
  function pick(select, index, text) {
    if (text === null) return;
    if (select.options[index] && select.options[index].text === text) {
      select.selectedIndex = index;
      return;
    }
    var same = Array.prototype.filter.call(select.options, function (o) { return o.text === text; });
    if (same.length === 1) select.selectedIndex = same[0].index;
  }

  // Each live change names what changed; the page is asked again and those parts of it
  // brought to the server's rendering. Two answers may cross: a part is never brought back
  // to a rendering older than the one it shows.
  var renders = 0, applied = {};
  function newest(part, seq) {
    if ((applied[part] || 0) > seq) return false;
    applied[part] = seq;
    return true;
  }

  function refresh(kind) {
    var seq = ++renders;
    fetch(location.pathname + location.search, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) {
        if (text === null) return; // a seat gone (404) or an error: the page stays as it is
        var doc = new DOMParser().parseFromString(text, "text/html");
        if (doc.body.dataset.base !== base) return; // not this table's page
        var parts = { session: ["session-slot"], combat: ["combat"], cards: ["seats", "combat"] }[kind] || [];
        // a fight changes sheets too; the table's characters or seats, which cards show
        if (kind !== "session" && newest("cards", seq)) renewCards(doc);
        parts.forEach(function (id) {
          var mine = document.getElementById(id), theirs = doc.getElementById(id);
          if (mine && theirs && newest(id, seq)) renew(mine, theirs);
        });
      });
  }

  // The cards of the characters this seat sees and of the table's actions, brought to the
  // server's: a card made since (a player's new character, one given to this seat) comes
  // in at its place, a card gone goes, and each card there before is renewed in place (a
  // button pressed or focused stays the same button, a field being typed in keeps what it
  // holds). A form's chances, drawn for its default values, are asked again for the
  // values the user changed (a skill raised, at the difficulty picked).
  var CARDS = "section.card.sheet, section.card.action, #your-character";
  function renewCards(doc) {
    var wanted = {};
    doc.querySelectorAll(CARDS).forEach(function (card) { wanted[card.id] = true; });
    document.querySelectorAll(CARDS).forEach(function (card) { if (!wanted[card.id]) card.remove(); });
    doc.querySelectorAll(CARDS).forEach(function (theirs) {
      var mine = document.getElementById(theirs.id);
      if (mine) {
        var doing = renew(mine, theirs);
        mine.querySelectorAll("form.roll, form.table-action").forEach(function (form) {
          showPicked(form);
          if (typedIn(doing, form)) oddsOf(form)(form);
        });
        return;
      }
      var next = theirs.nextElementSibling; // before the next part this page has too
      while (next && !(next.id && document.getElementById(next.id))) next = next.nextElementSibling;
      var column = document.querySelector(".layout > .col");
      linkify(theirs);
      if (next) document.getElementById(next.id).before(theirs);
      else if (column) column.appendChild(theirs);
      else return;
      bindForms(theirs);
    });
  }

  function percent(chance) {
    if (chance === null) return "–"; // a chance the rules refuse, or past the budget
    var text = (chance * 100).toFixed(1);
    return (document.documentElement.lang === "fr" ? text.replace(".", ",") : text) + " %";
  }

  // A form's odds are asked again at each change, and answers may come back out of
  // order: only the answer to the latest question is shown, never an older one after it.
  var asked = new WeakMap();
  function latest(form) {
    var question = (asked.get(form) || 0) + 1;
    asked.set(form, question);
    return function () { return asked.get(form) === question; };
  }

  function updateOdds(form) {
    var current = latest(form);
    var params = new URLSearchParams();
    params.set("character", form.dataset.character);
    var chosen = form.querySelector("input[name=trait]:checked");
    if (chosen) params.set("trait", chosen.value);
    ["threshold", "difficulty", "modifier", "explode", "level", "push", "spend", "help"].forEach(function (name) {
      if (form.elements[name]) params.set(name, form.elements[name].value);
    });
    ["blessed", "cursed", "motivation"].forEach(function (name) {
      if (form.elements[name] && form.elements[name].checked) params.set(name, "true");
    });
    fetch(api + "/odds?" + params.toString(), { credentials: "same-origin" })
      .then(function (r) {
        // refused (a value no roll takes, too many asks): no chance, and the reason
        return r.json().then(function (data) {
          return r.ok ? data : { traits: {}, refused: data.error || r.statusText };
        }, function () { return { traits: {}, refused: r.statusText }; });
      })
      .then(function (data) {
        if (!current()) return;
        var push = form.elements.push || form.elements.spend;
        if (push && data.push) {
          data.push.forEach(function (option) {
            var item = push.querySelector("option[value='" + option.tier + "']");
            if (item) item.textContent = item.textContent.replace(/·.*$/, "· " + percent(option.chance));
          });
        }
        form.querySelectorAll(".chance").forEach(function (span) {
          var found = data.traits[span.dataset.trait];
          span.textContent = found ? percent(found.chance) : "–"; // none: past the budget
          span.title = found && found.exact ? found.exact : "";
        });
        var note = form.closest("section").querySelector(".odds-note"); // why a « – »
        if (note) {
          note.textContent = data.refused || "";
          note.hidden = !data.refused;
        }
      });
  }

  // The trait a docked « Roll » button will roll (the phone's action bar says it).
  function showPicked(form) {
    var picked = form.querySelector(".picked");
    var chosen = form.querySelector("input[name=trait]:checked");
    if (picked && chosen) picked.textContent = chosen.parentNode.querySelector(".tname").textContent;
  }

  // The dice line and chat: Enter sends, the up and down arrows walk the lines sent.
  var say = document.getElementById("say");
  if (say) {
    var line = say.elements.line, answer = document.getElementById("say-answer");
    var sent = [], back = 0;
    line.addEventListener("keydown", function (event) {
      if (event.key === "ArrowUp" && back < sent.length) back += 1;
      else if (event.key === "ArrowDown" && back > 0) back -= 1;
      else return;
      event.preventDefault();
      line.value = back ? sent[sent.length - back] : "";
      line.setSelectionRange(line.value.length, line.value.length);
    });
    say.addEventListener("submit", function (event) {
      event.preventDefault();
      var text = line.value;
      if (!text.trim()) return;
      if (sent[sent.length - 1] !== text) sent.push(text);
      if (sent.length > 100) sent.shift();
      back = 0;
      fetch(say.action, {
        method: "POST",
        body: new FormData(say),
        headers: { "X-Requested-With": "fetch" },
        credentials: "same-origin"
      }).then(function (r) {
        return r.json().then(function (data) {
          answer.classList.toggle("bad", !r.ok);
          answer.textContent = !r.ok ? (data.error || r.statusText) : (data.help || "");
          if (r.ok && line.value === text) line.value = "";
        });
      }).catch(function () { answer.classList.add("bad"); answer.textContent = "…"; });
    });
  }

  // A table action (a cooperation, a help): the exact chance of each result, asked again
  // as its form changes; a refusal reads in words where the chances go.
  function actionOdds(form) {
    var current = latest(form);
    var params = new URLSearchParams(new FormData(form));
    params.delete("csrf");
    params.delete("mode");
    fetch(form.dataset.odds + "?" + params.toString(), { credentials: "same-origin" })
      .then(function (r) { return r.json().then(function (data) { return r.ok ? data : { error: data.error }; }); })
      .then(function (data) {
        var box = form.querySelector(".odds");
        if (!box || !current()) return;
        box.textContent = "";
        if (data.error) { box.textContent = data.error; return; }
        data.odds.forEach(function (row) {
          var span = document.createElement("span");
          span.className = "stat";
          span.title = row.exact;
          var label = document.createElement("b");
          label.textContent = row.label;
          span.appendChild(label);
          span.appendChild(document.createTextNode(" " + percent(row.chance)));
          box.appendChild(span);
          box.appendChild(document.createTextNode(" "));
        });
      });
  }

  // A form's odds asked again as it changes, and a roll sent without leaving the page:
  // the forms of the page, and of each card that comes in live.
  function bindForms(root) {
    root.querySelectorAll("form.roll, form.table-action").forEach(watchOdds);
    root.querySelectorAll("form.roll, form.quick, form.table-action").forEach(sendInPlace);
  }

  // How a form's chances are asked: a table action's, or a character's roll form's.
  function oddsOf(form) {
    return form.classList.contains("table-action") ? actionOdds : updateOdds;
  }

  function watchOdds(form) {
    var odds = oddsOf(form);
    showPicked(form);
    form.addEventListener("change", function (event) {
      if (event.target.name === "trait") showPicked(form);
      if (event.target.name !== "mode" && event.target.name !== "faces") odds(form);
    });
  }

  // A roll form (full options), a GM's one-tap row (its trait is the button pressed) or
  // a table action.
  function sendInPlace(form) {
    form.addEventListener("submit", function (event) {
      if (event.submitter && event.submitter.getAttribute("formmethod") === "get") return;
      event.preventDefault();
      var status = form.querySelector(".status");
      var button = event.submitter || form.querySelector("button.primary");
      var body = new FormData(form);
      if (button && button.name) body.set(button.name, button.value);
      button.disabled = true;
      sending.add(button);
      status.textContent = "";
      fetch(form.action, {
        method: "POST",
        body: body,
        headers: { "X-Requested-With": "fetch" },
        credentials: "same-origin"
      }).then(function (r) {
        return r.json().then(function (data) {
          if (!r.ok) status.textContent = data.error || r.statusText;
          else if (data.pending) location.reload(); // a roll waits for its roller's choice
          else if (form.elements.faces) form.elements.faces.value = "";
        });
      }).catch(function () {
        status.textContent = "…";
      }).finally(function () {
        sending.delete(button);
        button.disabled = false;
      });
    });
  }
  bindForms(document);

  // A form sent the plain way (the tracker, the seats, a sheet's edit, a session) brings
  // the page back from the server, at its top: the GM pressing « −1 » or « Tour suivant »
  // far down the page had to scroll back to the tracker each time. It now comes back as
  // it was: the part of the page around the form at the same height on the screen, and
  // the button pressed holding the focus again. Not after a refusal: its reason is at
  // the top of the page.
  var BACK = "meneur-back";
  document.addEventListener("submit", function (event) {
    if (event.defaultPrevented) return; // sent in place (sendInPlace)
    // the parts around the form that have an id, nearest first, each with its height on
    // the screen: the page comes back on the first still shown (a sheet's edit form is
    // folded again, its card is not)
    var around = event.target.closest("[id]"), parts = [];
    for (var up = around; up; up = up.parentElement && up.parentElement.closest("[id]")) {
      parts.push({ id: up.id, top: up.getBoundingClientRect().top });
    }
    var buttons = around ? Array.prototype.slice.call(around.querySelectorAll("button")) : [];
    var pressed = event.submitter ? buttons.indexOf(event.submitter) : -1;
    var place = {
      path: location.pathname, parts: parts, pressed: pressed,
      label: pressed < 0 ? "" : event.submitter.textContent
    };
    try { sessionStorage.setItem(BACK, JSON.stringify(place)); } catch (e) { /* storage off: the top, as before */ }
  });
  (function comeBack() {
    var place = null;
    try {
      place = JSON.parse(sessionStorage.getItem(BACK) || "null");
      sessionStorage.removeItem(BACK);
    } catch (e) { return; }
    if (!place || place.path !== location.pathname || document.getElementById("refused")) return;
    var shown = place.parts.filter(function (part) {
      var found = document.getElementById(part.id);
      if (!found) return false;
      // inside a folded <details> an element keeps a box but is not shown
      return found.checkVisibility ? found.checkVisibility() : found.getClientRects().length > 0;
    })[0];
    if (!shown) return;
    var around = document.getElementById(shown.id);
    window.scrollBy(0, around.getBoundingClientRect().top - shown.top);
    if (shown !== place.parts[0]) return; // the form folded away: its button is not shown
    var button = around.querySelectorAll("button")[place.pressed];
    if (button && button.textContent === place.label) button.focus({ preventScroll: true });
  })();
})();

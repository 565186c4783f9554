// meneur · live table: the WebSocket log and rolls without reloading. The page works
// without this file (forms POST and redirect); this only makes it live.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  document.body.classList.add("js");
  var base = document.body.dataset.base;
  var api = document.body.dataset.api;
  if (!base) return;
  var log = document.getElementById("log");
  var live = document.getElementById("live");

  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var input = document.getElementById(button.dataset.copy);
      input.select();
      if (navigator.clipboard) navigator.clipboard.writeText(input.value);
    });
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
    log.insertBefore(li, log.firstChild);
    var empty = document.getElementById("empty");
    if (empty) empty.remove();
    while (log.children.length > 200) log.removeChild(log.lastChild);
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
        else if (data.type === "combat" || data.type === "session" || data.type === "sheet") refresh(data.type);
      });
    };
    socket.onclose = function () {
      live.hidden = true;
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 10000);
    };
  }
  connect();

  function refresh(kind) {
    var id = kind === "combat" ? "combat" : null;
    fetch(location.pathname + location.search, { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (text) {
        var doc = new DOMParser().parseFromString(text, "text/html");
        var targets = id ? [id] : [];
        if (kind === "sheet") { // each card's values, the edit form closed as it was
          doc.querySelectorAll(".card.sheet .stats, .card.sheet form.edit").forEach(function (theirs) {
            var mine = document.getElementById(theirs.id);
            if (mine && !mine.contains(document.activeElement)) mine.replaceWith(theirs);
          });
          return;
        }
        if (!id) {
          var mine = document.querySelector(".card.session");
          var theirs = doc.querySelector(".card.session");
          if (mine && theirs) mine.replaceWith(theirs);
        }
        targets.forEach(function (t) {
          var mine = document.getElementById(t), theirs = doc.getElementById(t);
          if (mine && theirs) mine.replaceWith(theirs);
        });
      });
  }

  function percent(chance) {
    var text = (chance * 100).toFixed(1);
    return (document.documentElement.lang === "fr" ? text.replace(".", ",") : text) + " %";
  }

  function updateOdds(form) {
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
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data) return;
        var push = form.elements.push || form.elements.spend;
        if (push && data.push) {
          data.push.forEach(function (option) {
            var item = push.querySelector("option[value='" + option.tier + "']");
            if (item) item.textContent = item.textContent.replace(/·.*$/, "· " + percent(option.chance));
          });
        }
        form.querySelectorAll(".chance").forEach(function (span) {
          var found = data.traits[span.dataset.trait];
          if (found) {
            span.textContent = percent(found.chance);
            span.title = found.exact;
          }
        });
      });
  }

  document.querySelectorAll("form.roll").forEach(function (form) {
    form.addEventListener("change", function (event) {
      if (event.target.name !== "mode" && event.target.name !== "faces") updateOdds(form);
    });
    form.addEventListener("submit", function (event) {
      if (event.submitter && event.submitter.getAttribute("formmethod") === "get") return;
      event.preventDefault();
      var status = form.querySelector(".status");
      var button = form.querySelector("button.primary");
      button.disabled = true;
      status.textContent = "";
      fetch(form.action, {
        method: "POST",
        body: new FormData(form),
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
      }).finally(function () { button.disabled = false; });
    });
  });
})();

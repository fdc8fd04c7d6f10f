/* Follow a live match: every 1.5 s ask whether it moved (ETag = last seq, 304 when not) and
   refresh the tracker when it did -- unless the user is halfway through a form, then offer a
   button instead of wiping what they chose. Also the "rotate opponent" toggle for two players
   sitting opposite each other. */
(function () {
  "use strict";
  var INTERVAL = 1500;
  var ROTATE_KEY = "skirmish.rotateOpponent";
  var polling = false;
  // Counts the requests the user makes; a refresh started by the poller is dropped when the
  // user moved on meanwhile (it would otherwise undo their newer selection or open form).
  var userRequests = 0;
  var REFRESH_HEADER = "X-Skirmish-Refresh";

  function tracker() { return document.getElementById("tracker"); }
  function banner() { return document.getElementById("tracker-banner"); }

  function isDirty(root) { return root.querySelector("[data-dirty]") !== null; }

  function refresh() {
    var b = banner();
    if (b) { b.hidden = true; }
    if (window.htmx) {
      var headers = {};
      headers[REFRESH_HEADER] = String(userRequests);
      window.htmx.ajax("GET", window.location.pathname + window.location.search,
        { target: "#tracker", swap: "outerHTML", headers: headers });
    } else {
      window.location.reload();
    }
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var headers = event.detail.requestConfig && event.detail.requestConfig.headers;
    if (!headers || !(REFRESH_HEADER in headers)) { userRequests += 1; }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var headers = event.detail.requestConfig && event.detail.requestConfig.headers;
    if (headers && REFRESH_HEADER in headers && headers[REFRESH_HEADER] !== String(userRequests)) {
      event.detail.shouldSwap = false;
    }
  });

  function announce() {
    var status = document.getElementById("tracker-status");
    if (status) { status.textContent = status.dataset.updated || "Updated"; }
  }

  function poll() {
    var root = tracker();
    if (!root || polling || document.hidden || !root.dataset.pollUrl) { return; }
    // A request of the user's own is on its way: its answer brings the new state anyway.
    if (document.querySelector(".htmx-request")) { return; }
    polling = true;
    var seq = root.dataset.seq;
    fetch(root.dataset.pollUrl, {
      headers: { "If-None-Match": '"' + seq + '"' },
      cache: "no-store",
      credentials: "same-origin"
    }).then(function (response) {
      if (response.status !== 200) { return null; }
      return response.json();
    }).then(function (body) {
      var now = tracker();
      if (!body || !now || String(body.seq) === now.dataset.seq) { return; }
      if (document.querySelector(".htmx-request")) { return; }
      if (isDirty(now)) {
        var b = banner();
        if (b) { b.hidden = false; }
      } else {
        refresh();
        announce();
      }
    }).catch(function () { /* offline for a moment: try again next time */ })
      .finally(function () { polling = false; });
  }

  document.addEventListener("change", function (event) {
    var field = event.target;
    if (field.closest && field.closest("#tracker form.command") && !field.closest("[data-keep]")) {
      field.setAttribute("data-dirty", "");
    }
  });

  // A link to copy (the spectator link): one tap selects all of it. Here rather than in an
  // onclick attribute, which the Content-Security-Policy forbids.
  document.addEventListener("click", function (event) {
    var field = event.target.closest ? event.target.closest("[data-select-on-click]") : null;
    if (field && typeof field.select === "function") { field.select(); }
  });

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("[data-refresh], [data-rotate]") : null;
    if (!target) { return; }
    if (target.hasAttribute("data-refresh")) { refresh(); return; }
    var on = !document.documentElement.classList.contains("rotate-opponent");
    document.documentElement.classList.toggle("rotate-opponent", on);
    try { window.localStorage.setItem(ROTATE_KEY, on ? "1" : "0"); } catch (e) { /* private mode */ }
    syncRotate();
  });

  function syncRotate() {
    var on = document.documentElement.classList.contains("rotate-opponent");
    document.querySelectorAll("[data-rotate]").forEach(function (button) {
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  try {
    if (window.localStorage.getItem(ROTATE_KEY) === "1") {
      document.documentElement.classList.add("rotate-opponent");
    }
  } catch (e) { /* private mode */ }
  document.addEventListener("htmx:afterSwap", syncRotate);
  document.addEventListener("DOMContentLoaded", syncRotate);
  window.setInterval(poll, INTERVAL);
})();

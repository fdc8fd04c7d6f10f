/* The match clock (templates/matches/_clock.html). The server renders each face's time left at
   the moment it answered; this counts the running face down from that, measured with the
   page's own monotonic clock (never the device's wall clock, which may be off), and shows
   "time is up" at zero. Clock changes do not move the match's seq, so the tracker's poller
   misses them: every 5 s, while the page is visible, the fragment is asked for again (ETag,
   304 while unchanged). */
(function () {
  "use strict";
  var TICK = 250;
  var REFRESH = 5000;
  var loadedAt = performance.now();
  var fetching = false;

  function clock() { return document.getElementById("clock"); }

  var digits = window.Skirmish.clockDigits;

  function tick() {
    var root = clock();
    if (!root) { return; }
    var elapsed = performance.now() - loadedAt;
    root.querySelectorAll("[data-clock-face][data-running='true']").forEach(function (face) {
      var left = Number(face.dataset.remainingMs) - elapsed;
      var shown = face.querySelector("[data-digits]");
      var text = digits(left);
      if (shown && shown.textContent !== text) { shown.textContent = text; }
      if (left <= 0 && !face.classList.contains("expired")) {
        face.classList.add("expired");
        var note = face.querySelector("[data-note]");
        if (note) { note.textContent = root.dataset.expiredText || "Time is up"; }
        var end = root.querySelector("[data-clock-end]");
        if (end) { end.hidden = false; }
      }
    });
  }

  function swapIn(html) {
    var root = clock();
    if (!root) { return; }
    var holder = document.createElement("div");
    holder.innerHTML = html.trim();
    var fresh = holder.querySelector("#clock");
    if (!fresh) { return; }
    fresh.dataset.counted = "1";
    root.replaceWith(fresh);
    if (window.htmx) { window.htmx.process(fresh); }
    loadedAt = performance.now();
    tick();
  }

  function refresh() {
    var root = clock();
    if (!root || fetching || document.hidden || !root.dataset.clockUrl) { return; }
    // A tap on the clock (or any tracker request) is on its way: its answer is fresher.
    if (document.querySelector(".htmx-request")) { return; }
    fetching = true;
    var headers = {};
    if (root.dataset.etag) { headers["If-None-Match"] = root.dataset.etag; }
    var etag = "";
    fetch(root.dataset.clockUrl, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status !== 200) { return null; }
        etag = response.headers.get("ETag") || "";
        return response.text();
      })
      .then(function (html) {
        if (html === null || document.querySelector(".htmx-request")) { return; }
        swapIn(html);
        var now = clock();
        if (now && etag) { now.dataset.etag = etag; }
      })
      .catch(function () { /* offline for a moment: try again next time */ })
      .finally(function () { fetching = false; });
  }

  // Any swap that brings a new clock (a clock tap, or the tracker refreshed around it)
  // restarts the count from the numbers it carries.
  document.addEventListener("htmx:afterSwap", function (event) {
    var root = clock();
    if (root && !root.dataset.counted) {
      root.dataset.counted = "1";
      var xhr = event.detail && event.detail.xhr;
      var etag = xhr ? xhr.getResponseHeader("ETag") || "" : "";
      // Only the clock's own answers carry a clock ETag (the tracker's have none).
      if (etag.indexOf('"clock-') === 0) { root.dataset.etag = etag; }
      loadedAt = performance.now();
      tick();
    }
  });
  // "End on time" lives in the tracker's folded "Match" section: unfold it on the way there.
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("[data-clock-end]") : null;
    var menu = document.getElementById("match-menu");
    if (link && menu) { menu.open = true; }
  });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { refresh(); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    var root = clock();
    if (root) { root.dataset.counted = "1"; }
    loadedAt = performance.now();
    tick();
  });
  window.setInterval(tick, TICK);
  window.setInterval(refresh, REFRESH);
})();

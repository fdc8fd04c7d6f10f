/* The round timer (templates/leagues/_round_timer.html). The server renders the time left when
   it answered and, while the timer runs, its end and its own "now"; this counts down from the
   difference of the two, measured with the page's monotonic clock from the moment the element
   was first seen, so a device whose wall clock is off still shows the server's time. At zero
   it shows "time is up". Elements swapped in later by HTMX (the projector, a timer action) are
   picked up on the next tick. */
(function () {
  "use strict";
  var seen = new WeakMap();

  var digits = window.Skirmish.clockDigits;

  function tick() {
    var now = performance.now();
    document.querySelectorAll("time[data-round-timer-ends]").forEach(function (clock) {
      var total = seen.get(clock);
      if (total === undefined) {
        total = Date.parse(clock.dataset.roundTimerEnds) - Date.parse(clock.dataset.serverNow);
        if (isNaN(total)) { return; }
        total = { left: total, at: now };
        seen.set(clock, total);
      }
      var left = total.left - (now - total.at);
      var text = left > 0 ? digits(left) : (clock.dataset.expiredText || "Time is up");
      if (clock.textContent !== text) { clock.textContent = text; }
      var box = clock.closest(".round-timer");
      if (box) { box.classList.toggle("expired", left <= 0); }
    });
  }

  tick();
  window.setInterval(tick, 1000);
})();

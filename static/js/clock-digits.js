/* Time left as every clock face writes it ("M:SS", "H:MM:SS" from an hour, never below zero,
   rounded up to the second), shared by js/clock.js (the match clock) and js/round-timer.js (a
   league round's timer); apps/common/clock_face.py writes the same before any script runs. */
(function () {
  "use strict";
  window.Skirmish = window.Skirmish || {};
  window.Skirmish.clockDigits = function (ms) {
    var seconds = Math.max(0, Math.ceil(ms / 1000));
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var rest = seconds % 60;
    var ss = (rest < 10 ? "0" : "") + rest;
    if (hours) { return hours + ":" + (minutes < 10 ? "0" : "") + minutes + ":" + ss; }
    return minutes + ":" + ss;
  };
})();

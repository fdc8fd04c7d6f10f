/* Choices a player makes once per device, remembered in localStorage: a checkbox with
   data-remember="<key>" keeps its last state across taps and visits. Used for "Stop after
   each flip so I can reroll": a player who never rerolls turns it off once, and every attack
   after that is three taps (model, action, target). */
(function () {
  "use strict";

  function stored(key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  }

  function apply(root) {
    root.querySelectorAll("input[type=checkbox][data-remember]").forEach(function (box) {
      var value = stored(box.dataset.remember);
      if (value === "1" || value === "0") { box.checked = value === "1"; }
    });
  }

  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!box.matches || !box.matches("input[type=checkbox][data-remember]")) { return; }
    try { window.localStorage.setItem(box.dataset.remember, box.checked ? "1" : "0"); } catch (e) { /* private mode */ }
  });
  document.addEventListener("htmx:load", function (event) { apply(event.target); });
  document.addEventListener("DOMContentLoaded", function () { apply(document); });
})();

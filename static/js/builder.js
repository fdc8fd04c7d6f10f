// Keeps keyboard and screen-reader users oriented when HTMX swaps a fragment in place:
// focus returns to the control that was used (or its fighter), and a live region outside
// the swapped fragment announces the new state of the problems list.
(function () {
  var lastFocusId = null;
  document.addEventListener("htmx:beforeRequest", function () {
    var active = document.activeElement;
    lastFocusId = active && active.id ? active.id : null;
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "builder") return;
    var again = lastFocusId && document.getElementById(lastFocusId);
    if (again && !again.disabled) {
      again.focus();
    } else {
      var heading = document.getElementById("team-heading");
      if (heading) { heading.setAttribute("tabindex", "-1"); heading.focus(); }
    }
    var status = document.getElementById("builder-status");
    var problems = document.getElementById("problems-heading");
    if (status && problems) status.textContent = problems.textContent.trim();
  });
})();

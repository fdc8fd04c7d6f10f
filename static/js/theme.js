// Theme choice: follows the system unless the player picked light or dark on this device.
// Loaded in <head> so the page never flashes in the wrong theme.
(function () {
  var KEY = "skirmish-theme";
  var root = document.documentElement;
  function stored() {
    try { return localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function apply(theme) {
    if (theme === "light" || theme === "dark") root.setAttribute("data-theme", theme);
    else root.removeAttribute("data-theme");
  }
  function current() {
    var theme = root.getAttribute("data-theme");
    if (theme) return theme;
    return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  apply(stored());
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("theme-toggle");
    if (!button) return;
    button.hidden = false;
    function label() {
      var next = current() === "dark" ? "light" : "dark";
      button.setAttribute("aria-label", button.dataset["label" + (next === "dark" ? "Dark" : "Light")]);
      button.setAttribute("title", button.getAttribute("aria-label"));
    }
    label();
    button.addEventListener("click", function () {
      var next = current() === "dark" ? "light" : "dark";
      apply(next);
      try { localStorage.setItem(KEY, next); } catch (e) { /* private mode: session only */ }
      label();
    });
  });
})();

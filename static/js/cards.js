// The print dialog: opens when HTMX has loaded the print form into it, closes on its close
// buttons, and shows the page's own message when exports are unavailable (503).
(function () {
  function dialog() { return document.getElementById("print-dialog"); }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (event.detail.xhr.status === 503 && target && target.closest("#print-dialog")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var box = dialog();
    if (!box || !box.contains(event.detail.target)) return;
    box.querySelectorAll("[data-close-dialog]").forEach(function (button) { button.hidden = false; });
    if (!box.open) box.showModal();
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-close-dialog]");
    var box = dialog();
    if (button && box && box.open) box.close();
  });
})();

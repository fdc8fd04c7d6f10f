/* Makes Skirmish an installable app that opens offline: registers the service worker (its URL
   is on this script's tag, data-service-worker). Where service workers are unsupported, or not
   allowed (plain HTTP other than localhost), the site works as before. */
(function () {
  "use strict";
  var script = document.currentScript;
  var url = script && script.dataset.serviceWorker;
  if (!url || !("serviceWorker" in navigator)) { return; }
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(function () {
      /* no service worker: the pages still work online */
    });
  });
})();

/* Skirmish's service worker (served by apps.pages.views.service_worker from /sw.js).

   - Installs the app shell (styles, scripts, icons, the offline page) into a cache named by a
     hash of those files: a new version installs beside the old one, which it deletes once it
     is active.
   - Static files: cache first (their names change with their content in production).
   - Everything else -- pages, match state, polls, commands, the API -- always from the
     network, never from a cache: a tracker must never show an old board as if it were now.
     Only a page navigation that fails gets the offline page instead of the browser's error. */
"use strict";

const CONFIG = {{ config }};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CONFIG.cache)
      .then((cache) => cache.addAll(CONFIG.shell.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names
        .filter((name) => name.startsWith("skirmish-shell-") && name !== CONFIG.cache)
        .map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

function fromCacheFirst(request) {
  return caches.open(CONFIG.cache).then((cache) => cache.match(request).then((hit) => {
    if (hit) { return hit; }
    return fetch(request).then((response) => {
      if (response.ok) { cache.put(request, response.clone()); }
      return response;
    });
  }));
}

function pageOrOffline(request) {
  return fetch(request).catch(() => caches.open(CONFIG.cache)
    .then((cache) => cache.match(CONFIG.offline))
    .then((page) => page || Response.error()));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") { return; }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (url.pathname.startsWith(CONFIG.static)) {
    event.respondWith(fromCacheFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(pageOrOffline(request));
  }
  // Anything else is not answered here: the browser asks the network as if there were no
  // service worker.
});

/* Follow a live match: every 1.5 s ask whether it moved (ETag = last seq, 304 when not) and
   refresh the tracker when it did -- unless the user is halfway through a form, then offer a
   button instead of wiping what they chose. A table where nothing happened for a minute is
   asked every 5 s instead, until it moves or the device is touched. Where the server streams,
   be told each move instead, and ask only while the stream is silent. Keep the taps made while
   the network is gone and send them, in order and once each, when it is back. Keep the screen
   awake while a tracker is open. Also the "rotate opponent" toggle for two players sitting
   opposite each other. */
(function () {
  "use strict";
  var INTERVAL = 1500;
  var MAX_BACKOFF = 30000;
  // A match that has not moved for IDLE_AFTER, on a device nobody touched meanwhile, is asked
  // every IDLE_INTERVAL: the tablets of a club night's quiet tables then cost the server a
  // third of the polls (issue 16), and a touch or a move makes the page ask every INTERVAL
  // again, at once.
  var IDLE_AFTER = 60000;
  var IDLE_INTERVAL = 5000;
  var lastActive = Date.now();
  var ROTATE_KEY = "skirmish.rotateOpponent";
  var QUEUE_KEY = "skirmish.offlineQueue:" + window.location.pathname;
  // The seq right after a command's own events (apps.matches.views.match_command).
  var COMMAND_SEQ_HEADER = "X-Skirmish-Command-Seq";
  // Two identical taps this close together are a double tap on a tablet, not two commands
  // (online, htmx disables the button while its request runs; offline nothing would).
  var DOUBLE_TAP_MS = 600;
  var polling = false;
  // Failed polls in a row: the poll waits INTERVAL * 2^failures (at most MAX_BACKOFF) while the
  // network is gone, and asks every INTERVAL again from the first answer on.
  var failures = 0;
  var pollTimer = null;
  var offline = !navigator.onLine;
  var draining = false;
  var sendingId = null;
  var lastTap = { data: "", at: 0 };
  // Counts the requests the user makes; a refresh started by the poller is dropped when the
  // user moved on meanwhile (it would otherwise undo their newer selection or open form).
  var userRequests = 0;
  var REFRESH_HEADER = "X-Skirmish-Refresh";

  function tracker() { return document.getElementById("tracker"); }
  function banner() { return document.getElementById("tracker-banner"); }
  function offlineBanner() { return document.getElementById("offline-banner"); }

  function isDirty(root) { return root.querySelector("[data-dirty]") !== null; }

  // The poll token of the page (the t of its poll URL): with it the server may answer the
  // refresh from the render it keeps, without the database (apps.matches.kept_refresh).
  var TOKEN_HEADER = "X-Skirmish-Poll-Token";

  function pollToken() {
    var root = tracker();
    if (!root || !root.dataset.pollUrl) { return ""; }
    return new URL(root.dataset.pollUrl, window.location.href).searchParams.get("t") || "";
  }

  function refresh() {
    var b = banner();
    if (b) { b.hidden = true; }
    if (window.htmx) {
      var headers = {};
      headers[REFRESH_HEADER] = String(userRequests);
      var token = pollToken();
      if (token) { headers[TOKEN_HEADER] = token; }
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

  function announce(text) {
    var status = document.getElementById("tracker-status");
    if (status) { status.textContent = text || status.dataset.updated || "Updated"; }
  }

  /* ---- The offline queue ------------------------------------------------------------------

     A command tap made while offline (or while earlier taps still wait: order matters) is not
     sent but kept, in memory and in sessionStorage (a reload keeps it), with its own form data
     and idempotency key. When the network is back the taps are sent one after another; the
     server applies each key once, so a resend after a lost answer replays the first answer
     instead of applying the command again.

     expected_seq: the taps of one screen were all decided on that screen's seq, but only the
     first can be sent with it. The rule: tap k+1 is sent with expected_seq = the seq right after
     tap k's own events (the server's X-Skirmish-Command-Seq), only if tap k was applied and no
     other device moved in between -- that is, tap k's own expected_seq matched (the server
     checks that) and the board in its answer is still at that seq (a replayed answer shows the
     board as it is now). Otherwise tap k+1 is stale: it is not sent and is reported "not
     applied", like every tap after it, since they were all decided on the same old screen. A
     tap that the server refuses (409 stale, 422 not allowed) is reported with the server's
     reason, and the rest of the queue after it as not applied too. */

  function loadQueue() {
    try { return JSON.parse(window.sessionStorage.getItem(QUEUE_KEY) || "[]"); } catch (e) { return []; }
  }
  var queue = loadQueue();

  function saveQueue() {
    try {
      if (queue.length) { window.sessionStorage.setItem(QUEUE_KEY, JSON.stringify(queue)); }
      else { window.sessionStorage.removeItem(QUEUE_KEY); }
    } catch (e) { /* private mode: the queue lives as long as the page */ }
  }

  function waiting() { return queue.filter(function (entry) { return entry.state === "waiting"; }); }

  function isCommand(config) {
    var form = config && config.elt;
    return config.verb === "post" && form && form.querySelector &&
      /\/command\/?$/.test(String(config.path).split("?")[0]) &&
      form.querySelector('input[name="expected_seq"]') !== null &&
      form.querySelector('input[name="idempotency_key"]') !== null;
  }

  function labelOf(form, submitter) {
    var button = submitter || form.querySelector("button[type=submit], button:not([type])");
    var text = button ? button.querySelector(".button-text > span") || button : form;
    var label = (text.textContent || "").replace(/\s+/g, " ").trim();
    // What the player typed (a number of dice, an LP value) tells two taps of one form apart.
    var typed = [];
    form.querySelectorAll("input[type=number], input[type=text]:not([readonly])").forEach(function (input) {
      if (input.value) { typed.push(input.value); }
    });
    return typed.length ? label + " (" + typed.join(", ") + ")" : label;
  }

  /* ``sent``: the request went out and failed on the way, so the server may have applied it:
     it keeps its key (a resend then replays). A tap never sent gets a key of its own when its
     form already has one waiting: the same button tapped twice on one screen is two commands. */
  function enqueue(config, sent) {
    var fields = [];
    config.formData.forEach(function (value, name) {
      if (typeof value === "string") { fields.push([name, value]); }
    });
    var find = function (name) {
      var field = fields.filter(function (f) { return f[0] === name; })[0];
      return field ? field[1] : "";
    };
    var data = config.path + "?" + JSON.stringify(fields);
    var now = Date.now();
    if (!sent && data === lastTap.data && now - lastTap.at < DOUBLE_TAP_MS) { return; }
    lastTap = { data: data, at: now };
    var key = find("idempotency_key");
    if (!sent) {
      var taken = queue.filter(function (entry) { return entry.key.split("~")[0] === key; }).length;
      if (taken) { key = key + "~" + (taken + 1); }
    }
    var trigger = config.triggeringEvent;
    queue.push({
      id: now + "-" + Math.random().toString(36).slice(2),
      url: config.path,
      fields: fields,
      key: key,
      screen: find("expected_seq"),
      expected: find("expected_seq"),
      label: labelOf(config.elt, trigger && trigger.submitter),
      state: "waiting",
      reason: ""
    });
    saveQueue();
  }

  function text(name, fallback) {
    var b = offlineBanner();
    return (b && b.dataset[name]) || fallback;
  }

  function render() {
    var b = offlineBanner();
    if (!b) { return; }
    var note = b.querySelector("[data-offline-note]");
    if (note) { note.hidden = !offline; }
    var list = b.querySelector("[data-queue]");
    if (list) {
      list.textContent = "";
      queue.forEach(function (entry) {
        var item = document.createElement("li");
        var state = document.createElement("span");
        state.className = "queue-state";
        if (entry.state === "refused") {
          item.className = "is-refused";
          state.textContent = text("notApplied", "not applied") + (entry.reason ? ": " + entry.reason : "");
        } else {
          state.textContent = entry.id === sendingId ? text("sending", "sending…") : text("waiting", "waiting");
        }
        item.dataset.state = entry.id === sendingId ? "sending" : entry.state;
        item.appendChild(document.createTextNode(entry.label + " — "));
        item.appendChild(state);
        list.appendChild(item);
      });
    }
    var dismiss = b.querySelector("[data-dismiss-queue]");
    if (dismiss) { dismiss.hidden = waiting().length > 0 || queue.length === 0; }
    b.hidden = !offline && queue.length === 0;
  }

  function setOffline(now) {
    if (offline === now) { return; }
    offline = now;
    render();
  }

  /* Reports tap ``from`` and every waiting tap after it as not applied: the first with
     ``reason``, the others because they were decided after it. */
  function refuse(from, reason) {
    var after = false;
    queue.forEach(function (entry) {
      if (entry === from) {
        entry.state = "refused";
        entry.reason = reason;
        after = true;
      } else if (after && entry.state === "waiting") {
        entry.state = "refused";
        entry.reason = text("earlier", "Not sent: a tap before it was not applied.");
      }
    });
  }

  function send(entry) {
    var body = new URLSearchParams();
    entry.fields.forEach(function (field) {
      var value = field[1];
      if (field[0] === "expected_seq") { value = entry.expected; }
      if (field[0] === "idempotency_key") { value = entry.key; }
      body.append(field[0], value);
    });
    return fetch(entry.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      cache: "no-store",
      headers: { "HX-Request": "true", "HX-Current-URL": window.location.href }
    }).then(function (response) {
      return response.text().then(function (html) {
        return { status: response.status, html: html, commandSeq: response.headers.get(COMMAND_SEQ_HEADER) };
      });
    });
  }

  function finishDrain(sentAny) {
    draining = false;
    sendingId = null;
    saveQueue();
    render();
    if (sentAny || queue.length) {
      refresh();
      if (!queue.length) { announce(text("sent", "The waiting taps were sent.")); }
    }
  }

  function drain() { drainFrom(false); }

  function drainFrom(sentAny) {
    if (draining && !sentAny) { return; }
    var next = waiting()[0];
    if (!next) {
      if (draining || sentAny) { finishDrain(sentAny); }
      return;
    }
    if (!navigator.onLine) { draining = false; sendingId = null; setOffline(true); return; }
    draining = true;
    sendingId = next.id;
    render();
    send(next).then(function (answer) {
      var board = new DOMParser().parseFromString(answer.html, "text/html").getElementById("tracker");
      var error = board && board.querySelector(".message.error");
      failures = 0;
      setOffline(false);
      if (answer.status === 200 && board) {
        queue.splice(queue.indexOf(next), 1);
        var now = board.dataset.seq;
        var own = answer.commandSeq || now;
        var follower = waiting()[0];
        if (follower && follower.screen === next.screen) {
          if (own === now) {
            // Every later tap of that screen goes after this one; each applied one moves it on.
            waiting().forEach(function (entry) {
              if (entry.screen === next.screen) { entry.expected = now; }
            });
          } else {
            refuse(follower, text("stale", "Another device moved first."));
          }
        }
        saveQueue();
        drainFrom(true);
      } else if (answer.status === 429 || answer.status >= 500) {
        // The server is there but cannot answer now: nothing was stored; try again later.
        draining = false;
        sendingId = null;
        failures += 1;
        render();
        schedulePoll();
      } else {
        refuse(next, error ? error.textContent.trim() : text("unknown", "The server did not take it."));
        finishDrain(true);
      }
    }, function () {
      // No answer: the network is gone again. The tap keeps its key; its resend is safe.
      draining = false;
      sendingId = null;
      failures += 1;
      setOffline(true);
      schedulePoll();
    });
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var config = event.detail;
    if (!isCommand(config)) { return; }
    if (navigator.onLine && !offline && !waiting().length) { return; }
    event.preventDefault();
    enqueue(config, false);
    render();
    drain();
  });

  document.addEventListener("htmx:sendError", function (event) {
    var config = event.detail.requestConfig;
    if (config && isCommand(config)) { enqueue(config, true); }
    failures += 1;
    setOffline(true);
    render();
    schedulePoll();
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-dismiss-queue]") : null;
    if (!button) { return; }
    queue = waiting();
    saveQueue();
    render();
  });

  window.addEventListener("online", function () {
    failures = 0;
    setOffline(false);
    drain();
    schedulePoll(0);
  });
  window.addEventListener("offline", function () { setOffline(true); });

  /* ---- Polling, with back-off while the network is gone ---------------------------------- */

  function delay() {
    if (failures) { return Math.min(INTERVAL * Math.pow(2, failures), MAX_BACKOFF); }
    return Date.now() - lastActive > IDLE_AFTER ? IDLE_INTERVAL : INTERVAL;
  }

  function schedulePoll(after) {
    window.clearTimeout(pollTimer);
    pollTimer = window.setTimeout(tick, after === undefined ? delay() : after);
  }

  // The match moved or the user did something: poll every INTERVAL again, and a page that was
  // idle asks at once (a player picking up a phone wants the board as it is now).
  function active() {
    var idle = Date.now() - lastActive > IDLE_AFTER;
    lastActive = Date.now();
    if (idle && !failures && !polling) { schedulePoll(0); }
  }

  document.addEventListener("pointerdown", active, true);
  document.addEventListener("keydown", active, true);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { active(); }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail && event.detail.target && event.detail.target.id === "tracker") {
      lastActive = Date.now();
    }
  });

  function tick() {
    // A working stream tells every move: no need to ask.
    if (streaming()) { schedulePoll(); return; }
    if (!navigator.onLine) {
      failures += 1;
      setOffline(true);
      schedulePoll();
      return;
    }
    var asked = poll();
    if (asked) { asked.then(function () { schedulePoll(); }); } else { schedulePoll(); }
  }

  function poll() {
    var root = tracker();
    if (!root || polling || document.hidden || !root.dataset.pollUrl) { return null; }
    // A request of the user's own is on its way: its answer brings the new state anyway.
    if (document.querySelector(".htmx-request")) { return null; }
    polling = true;
    var seq = root.dataset.seq;
    return fetch(root.dataset.pollUrl, {
      headers: { "If-None-Match": '"' + seq + '"' },
      cache: "no-store",
      credentials: "same-origin"
    }).then(function (response) {
      failures = 0;
      setOffline(false);
      // Taps waiting to be sent go first; the board is refreshed once they are.
      if (waiting().length || draining) { drain(); return null; }
      if (response.status !== 200) { return null; }
      return response.json();
    }).then(function (body) {
      var now = tracker();
      if (!body || !now || String(body.seq) === now.dataset.seq) { return; }
      // Moved: the next poll (scheduled once this one is done) comes after INTERVAL again.
      moved();
    }).catch(function () {
      failures += 1;
      setOffline(true);
    }).finally(function () { polling = false; });
  }

  function moved() {
    lastActive = Date.now();
    if (document.querySelector(".htmx-request")) { return; }
    if (isDirty(tracker())) {
      var b = banner();
      if (b) { b.hidden = false; }
    } else {
      refresh();
      announce();
    }
  }

  /* ---- The stream: told each move instead of asking (apps.matches.stream) -----------------

     Where the server streams (data-stream on the tracker), the page keeps an EventSource open
     on its poll URL's stream twin and is sent the seq whenever the match moves, and every 15 s
     anyway ("check" when the server's cache holds none: the page then asks the poll once).
     While the stream has spoken within STREAM_QUIET the page does not poll. A stream that is
     silent (a proxy that buffers, a server gone) leaves the page polling as before; one that is
     refused (204 or an error status: the EventSource gives up) is tried again after
     STREAM_RETRY, on the next refresh of the board. A hidden page closes its stream (a browser
     has few connections per site, and a hidden page does not poll either). */
  var STREAM_QUIET = 40000;
  var STREAM_RETRY = 60000;
  var stream = null;
  var streamUrl = "";
  var streamHeard = 0;
  var streamRefusedAt = -STREAM_RETRY;
  // The greatest seq the stream told: a move told while a refresh was on its way is caught up
  // once that refresh is swapped in.
  var streamSeq = 0;

  function streamAddress(root) {
    if (!root || !root.dataset.stream || !root.dataset.pollUrl || !window.EventSource) { return ""; }
    return root.dataset.pollUrl.replace("/poll/?", "/stream/?");
  }

  function streaming() {
    return stream !== null && stream.readyState === 1 && Date.now() - streamHeard < STREAM_QUIET;
  }

  function closeStream() {
    if (stream) { stream.close(); }
    stream = null;
    streamUrl = "";
  }

  function behind() {
    var root = tracker();
    return root !== null && streamSeq > parseInt(root.dataset.seq, 10);
  }

  function openStream() {
    var url = streamAddress(tracker());
    // Each render signs its token afresh; a stream open for this match stays as it is.
    if (stream && url.split("?")[0] === streamUrl.split("?")[0]) { return; }
    closeStream();
    if (!url || Date.now() - streamRefusedAt < STREAM_RETRY) { return; }
    var source = new EventSource(url);
    stream = source;
    streamUrl = url;
    source.addEventListener("seq", function (event) {
      streamHeard = Date.now();
      streamSeq = Math.max(streamSeq, parseInt(event.data, 10) || 0);
      if (!behind()) { return; }
      // Taps waiting to be sent go first; the board is refreshed once they are.
      if (waiting().length || draining) { drain(); return; }
      moved();
    });
    source.addEventListener("check", function () {
      streamHeard = Date.now();
      poll();
    });
    source.addEventListener("error", function () {
      if (source !== stream) { return; }
      streamHeard = 0;
      // Closed for good (refused); otherwise the browser opens it again by itself.
      if (source.readyState === 2) {
        streamRefusedAt = Date.now();
        closeStream();
      }
    });
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    if (!event.detail || !event.detail.target || event.detail.target.id !== "tracker") { return; }
    openStream();
    // Once htmx has finished this request (moved() waits while one is on its way).
    window.setTimeout(function () { if (behind() && streaming()) { moved(); } }, 0);
  });

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { openStream(); } else { closeStream(); }
  });

  /* ---- Keep the screen awake while a tracker is open ------------------------------------- */

  var wakeLock = null;

  function keepAwake() {
    if (wakeLock || !("wakeLock" in navigator) || document.visibilityState !== "visible" || !tracker()) {
      return;
    }
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      // The browser lets go of it when the page is hidden; it is asked for again on return.
      lock.addEventListener("release", function () { if (wakeLock === lock) { wakeLock = null; } });
    }).catch(function () { /* refused (battery saver, no permission): the screen may sleep */ });
  }

  document.addEventListener("visibilitychange", keepAwake);
  window.addEventListener("pagehide", function () {
    if (wakeLock) { wakeLock.release().catch(function () {}); wakeLock = null; }
  });

  /* ---- Small helpers of the page --------------------------------------------------------- */

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

  function start() {
    syncRotate();
    render();
    keepAwake();
    drain();
    openStream();
    schedulePoll();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

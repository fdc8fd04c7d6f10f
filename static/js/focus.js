/* After a tap, bring what it did and what comes next into sight: the tracker is swapped as a
   whole, so without this the page keeps its old scroll position (on a phone the next button
   can be a screen away) and keyboard focus falls back to the top of the page (12-19 Tab
   presses to get back). The result of a command (or its refusal) is scrolled to just below
   the sticky scoreboard; focus goes to the first control of the next prompt (the card marked
   data-next, else the first card that is not a result). Refreshes made by the poller
   (another device moved) move neither. */
(function () {
  "use strict";
  var REFRESH_HEADER = "X-Skirmish-Refresh";
  var CONTROLS = "button:not([disabled]), a.button, a.chip-button, input:not([type=hidden]):not([disabled]), select, summary";

  function fromPoller(detail) {
    var headers = detail.requestConfig && detail.requestConfig.headers;
    return Boolean(headers && REFRESH_HEADER in headers);
  }

  // The scoreboard's height, measured once per swap: the panel stack sticks just below it (CSS)
  // and a result is scrolled to just below it.
  var boardHeight = 0;

  function measureBoard() {
    var board = document.querySelector("#tracker .scoreboard");
    var sticky = board && window.getComputedStyle(board).position === "sticky";
    var height = sticky ? board.getBoundingClientRect().height : 0;
    // Written only when it changed: a new value on <html> restyles the whole page.
    if (height !== boardHeight) {
      boardHeight = height;
      document.documentElement.style.setProperty("--scoreboard-height", height + "px");
    }
  }

  // The card where the next step happens: the one marked data-next, else the first card of the
  // panel stack that is not a result and has something to tap.
  function nextPrompt(stack) {
    if (!stack) { return null; }
    var marked = stack.querySelector("[data-next]");
    if (marked) { return marked; }
    var cards = stack.children;
    for (var i = 0; i < cards.length; i += 1) {
      if (!cards[i].hasAttribute("data-result") && cards[i].querySelector(CONTROLS)) {
        return cards[i];
      }
    }
    return null;
  }

  function firstControl(prompt) {
    if (!prompt) { return null; }
    var preferred = prompt.querySelector("[data-focus-first]");
    var scope = preferred || prompt;
    return scope.matches && scope.matches(CONTROLS) ? scope : scope.querySelector(CONTROLS);
  }

  function settle(root, command) {
    var stack = root.querySelector(".panel-stack");
    var error = root.querySelector(".message.error");
    // Only a command has a result; after a look (a model selected, a wizard opened) the
    // result on the board is an older one, and the new screen is what to show.
    var result = command ? root.querySelector("[data-result]") : null;
    var prompt = nextPrompt(stack);
    var shown = error || result || prompt;
    var control = firstControl(prompt);
    if (control) {
      if (!control.hasAttribute("tabindex") && control.matches("summary")) { control.tabIndex = 0; }
      control.focus({ preventScroll: true });
    }
    if (shown) {
      shown.style.scrollMarginTop = boardHeight + 8 + "px";
      shown.scrollIntoView({ block: "start" });
    }
  }

  document.addEventListener("DOMContentLoaded", measureBoard);
  window.addEventListener("resize", measureBoard);

  document.addEventListener("htmx:afterSettle", function (event) {
    measureBoard();
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "tracker" || fromPoller(event.detail)) { return; }
    var root = document.getElementById("tracker");
    var verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    if (root) { settle(root, verb === "post"); }
  });
})();

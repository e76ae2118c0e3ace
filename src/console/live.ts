/**
 * The console's one script, `/console/live.js`: new offers and reviews appear without a reload.
 * Every 15 seconds it asks `/console/live` for a fingerprint of the participant's tasks; when it
 * changes, it fetches the page again and swaps the part that shows tasks (the board, or a task's
 * page while no form on it has been touched — otherwise it only says a reload shows the change).
 * Pages work without it: a reload shows the same.
 */
export const liveScript = `"use strict";
(() => {
  const board = document.querySelector("[data-live=board]");
  const task = document.querySelector("[data-live=task]");
  if (board === null && task === null) return;
  const endpoint = document.querySelector("nav.console a").getAttribute("href") + "/live";
  let touched = false;
  document.addEventListener("input", () => { touched = true; });
  const region = document.createElement("p");
  region.className = "live small";
  region.setAttribute("role", "status");
  document.querySelector("main").prepend(region);
  let seen;
  const check = async () => {
    try {
      const response = await fetch(endpoint, { headers: { accept: "application/json" }, cache: "no-store" });
      if (!response.ok) return;
      const { fingerprint } = await response.json();
      if (seen === undefined) { seen = fingerprint; return; }
      if (fingerprint === seen) return;
      seen = fingerprint;
      if (task !== null && touched) {
        region.textContent = "This task has changed. Reload the page to see it (what you typed would be lost).";
        return;
      }
      const page = await fetch(location.href, { cache: "no-store" });
      if (!page.ok) return;
      const next = new DOMParser().parseFromString(await page.text(), "text/html");
      const fresh = next.querySelector("main");
      if (fresh === null) return;
      const main = document.querySelector("main");
      main.replaceChildren(...fresh.childNodes);
      main.prepend(region);
      region.textContent = "Updated just now.";
    } catch {
      // Offline for a moment: the next check tries again.
    }
  };
  check();
  setInterval(check, 15000);
})();
`

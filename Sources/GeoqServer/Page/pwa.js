// The page's side of its service worker (/sw.js): registers it, and shows the "offline, as of"
// banner while the answers on the page come from what the worker kept rather than from the
// service. The worker tells the page about every answer it gives (see sw.js); the banner's
// words are in map.js's dictionary, its time is written here.
"use strict";

(() => {
  if (!("serviceWorker" in navigator)) return;
  const banner = document.getElementById("offline-banner");
  const time = document.getElementById("offline-time");
  const asOfPart = document.getElementById("offline-as-of");
  // The oldest time among the kept answers shown since the service last answered: the page is
  // at least that old.
  let oldest = null;

  const hoursAndMinutes = (date) => `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;

  navigator.serviceWorker.addEventListener("message", (event) => {
    const message = event.data;
    if (!banner || !message || message.type !== "geoq-answer") return;
    if (!message.offline) {
      oldest = null;
      banner.hidden = true;
      return;
    }
    const asOf = message.asOf ? new Date(message.asOf) : null;
    if (asOf && !Number.isNaN(asOf.getTime()) && (!oldest || asOf < oldest)) oldest = asOf;
    asOfPart.hidden = !oldest;
    if (oldest) {
      time.dateTime = oldest.toISOString();
      time.textContent = hoursAndMinutes(oldest);
    }
    banner.hidden = false;
  });
  // The worker's messages wait until the page listens.
  navigator.serviceWorker.startMessages();
  navigator.serviceWorker.register("/sw.js").catch(() => {
    // Without its worker the page works as it always did, online only.
  });
})();

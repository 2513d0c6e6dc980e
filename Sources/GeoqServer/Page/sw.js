// The map page's service worker, served at /sw.js so that its scope is the whole origin: the page
// keeps working when the service cannot be reached, and push messages are shown as
// notifications.
//
// - The page's own files and Leaflet: from the network, kept at install and at every fetch,
//   given from the cache when the network fails (the page a phone opens in a crowd without
//   coverage is the one it had).
// - The service's answers (/v1/…) and tiles (/ogc/…): network first, the last good one kept, per
//   read key, and given when the network fails. A nearest-fallas question for a point never
//   asked, and every AR overlay, are computed from the kept falla layer (offline-answers.js).
// - Every answer tells the page whether it came from the service or from what was kept, and as
//   of when: a message to the page, which shows or hides its "offline, as of" banner (pwa.js),
//   and the X-Geoq-Offline header on the answer itself.
"use strict";

importScripts("/page/geodesic.js", "/page/offline-answers.js");

// A new worker version that keeps its files differently changes this name; the answers kept are
// data, not code, and stay.
const PAGE_CACHE = "geoq-page-v1";
const ANSWERS_CACHE = "geoq-answers-v1-";
// When an answer was kept (ISO 8601), stored with it; on an answer given from what was kept, the
// same time.
const SAVED_AT = "X-Geoq-Saved-At";
const OFFLINE = "X-Geoq-Offline";

// Leaflet's images are asked by its style sheet, not by the page's markup.
const LEAFLET_IMAGES = ["layers.png", "layers-2x.png", "marker-icon.png", "marker-icon-2x.png", "marker-shadow.png"]
  .map((name) => `/assets/leaflet/images/${name}`);
// The layers the page shows at once and the offline answers are computed from. With private
// reads these are refused at install (no key yet) and kept when the page first asks for them.
const LAYERS_AT_INSTALL = [
  { path: "/v1/layers", accept: "application/json" },
  { path: "/v1/layers/fallas", accept: "application/geo+json" },
];

self.addEventListener("install", (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("geoq-page-") && name !== PAGE_CACHE) await caches.delete(name);
    }
    // The page that installed the worker is served by it from now on, not from its next visit.
    await self.clients.claim();
  })());
});

// The page and whatever its markup and manifest name (scripts, styles, icons), so that another
// script added to the page needs no change here; each file on its own, so that one missing
// (Leaflet not installed) spoils none of the others.
async function precache() {
  const cache = await caches.open(PAGE_CACHE);
  const keep = async (path) => {
    try {
      const response = await fetch(path, { cache: "no-cache" });
      if (response.ok) await cache.put(path, response.clone());
      return response.ok ? response : null;
    } catch (error) {
      return null;
    }
  };
  const page = await keep("/");
  // reminders.js is loaded only by a tab that can use it, so the markup does not name it; a
  // reminder opened offline still needs it.
  const paths = new Set(["/manifest.webmanifest", "/page/reminders.js", ...LEAFLET_IMAGES]);
  if (page) {
    for (const [, path] of (await page.text()).matchAll(/(?:src|href)="(\/[^"/][^"]*)"/g)) paths.add(path);
  }
  const manifest = await keep("/manifest.webmanifest");
  if (manifest) {
    const icons = (await manifest.json().catch(() => ({}))).icons || [];
    for (const icon of icons) if (typeof icon.src === "string" && icon.src.startsWith("/")) paths.add(icon.src);
  }
  paths.delete("/manifest.webmanifest");
  await Promise.all([...paths].map(keep));

  const answers = await caches.open(await answersCacheName(null));
  await Promise.all(LAYERS_AT_INSTALL.map(async ({ path, accept }) => {
    try {
      const response = await fetch(path, { headers: { Accept: accept }, cache: "no-cache" });
      if (response.ok) await keepAnswer(answers, answerKey(new URL(path, self.location.origin), accept), response);
    } catch (error) {
      // The layers are kept when the page asks for them.
    }
  }));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    if (url.pathname === "/") event.respondWith(pageFile(event, "/"));
    return;
  }
  const path = url.pathname;
  if (path.startsWith("/page/") || path.startsWith("/assets/leaflet/") || path === "/manifest.webmanifest") {
    event.respondWith(pageFile(event, path));
  } else if ((path.startsWith("/v1/") || path.startsWith("/ogc/")) && !(request.headers.get("Accept") || "").includes("text/event-stream")) {
    // An event stream is never an answer to keep.
    event.respondWith(answer(event, url));
  }
});

// A page file from the network, else as kept; the page gets it while it is being kept. The page
// is kept once for every address: its query (the point asked) is read by its script.
async function pageFile(event, key) {
  try {
    const response = await fetch(event.request);
    if (response.ok) {
      const copy = response.clone();
      event.waitUntil(caches.open(PAGE_CACHE).then((cache) => cache.put(key, copy)).catch(() => {}));
    }
    return response;
  } catch (error) {
    return (await caches.match(key, { cacheName: PAGE_CACHE }).catch(() => null)) || Response.error();
  }
}

// Answers kept with a key are kept apart from those of every other key and from those without
// one, by the key's digest: a question asked offline is answered only from what was answered to
// the same key, so that a key's answers never reach a page without it.
async function answersCacheName(authorization) {
  if (!authorization) return `${ANSWERS_CACHE}open`;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(authorization));
  return ANSWERS_CACHE + [...new Uint8Array(digest)].slice(0, 16).map((b) => b.toString(16).padStart(2, "0")).join("");
}

// The same address answers differently by what is accepted (/v1/incidents as JSON and as
// GeoJSON): the type is part of the key.
function answerKey(url, accept) {
  const key = new URL(url.href);
  key.hash = "";
  key.searchParams.append("geoq-accept", accept || "");
  return key.href;
}

async function keepAnswer(cache, key, response) {
  const headers = new Headers(response.headers);
  // The body is kept as the browser decoded it.
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  headers.set(SAVED_AT, new Date().toISOString());
  const body = await response.arrayBuffer();
  await cache.put(key, new Response(body, { status: response.status, statusText: response.statusText, headers }));
}

// The most answers kept for one key. The layers the offline answers need are never among those
// let go; the oldest others are.
const KEPT_ANSWERS = 400;

async function trim(cache) {
  const keys = await cache.keys();
  let excess = keys.length - KEPT_ANSWERS;
  for (const request of keys) {
    if (excess <= 0) break;
    if (new URL(request.url).pathname.startsWith("/v1/layers")) continue;
    await cache.delete(request);
    excess--;
  }
}

// AR overlays are asked at every turn of the camera, each for its own heading: none is kept, and
// offline every one is computed from the kept layer.
const NOT_KEPT = new Set(["/v1/ar"]);

// A proxy in front of a service that is down answers with one of these; the service itself
// uses them for nothing the page should keep showing rather than the last good answer.
const UNREACHABLE = new Set([502, 503, 504]);

async function answer(event, url) {
  const request = event.request;
  // The Authorization header goes as the page wrote it: the request is the page's own. It goes
  // out before the cache is opened, which costs the answer no time.
  const fetched = fetch(request).catch(() => null);
  // Without storage (a browser that refuses it) the page is answered as if there were no worker.
  const cache = await answersCacheName(request.headers.get("Authorization")).then((name) => caches.open(name)).catch(() => null);
  const key = answerKey(url, request.headers.get("Accept"));
  const response = await fetched;
  if (!cache) return response || noAnswer(request);
  if (response && !UNREACHABLE.has(response.status)) {
    if (response.ok && !NOT_KEPT.has(url.pathname)) {
      event.waitUntil(keepAnswer(cache, key, response.clone()).then(() => trim(cache)).catch(() => {}));
    }
    tell(event, { offline: false });
    return response;
  }

  const kept = await cache.match(key);
  if (kept) {
    const asOf = kept.headers.get(SAVED_AT);
    tell(event, { offline: true, asOf });
    return withHeader(kept, asOf);
  }
  const computed = await computeAnswer(cache, url);
  if (computed) {
    tell(event, { offline: true, asOf: computed.asOf });
    const headers = { "Content-Type": "application/json", [OFFLINE]: computed.asOf || "" };
    return new Response(JSON.stringify(computed.body), { status: 200, headers });
  }
  tell(event, { offline: true, asOf: null });
  return response || noAnswer(request);
}

function withHeader(kept, asOf) {
  const headers = new Headers(kept.headers);
  headers.set(OFFLINE, asOf || "");
  return new Response(kept.body, { status: kept.status, statusText: kept.statusText, headers });
}

// The kept layers, parsed once for as long as the worker runs, by cache and time kept.
const parsedLayers = new Map();

async function keptLayer(cache, name) {
  const key = answerKey(new URL(`/v1/layers/${encodeURIComponent(name)}`, self.location.origin), "application/geo+json");
  const kept = await cache.match(key);
  if (!kept) return null;
  const asOf = kept.headers.get(SAVED_AT);
  const memo = `${key} ${asOf}`;
  if (!parsedLayers.has(memo)) {
    parsedLayers.clear();
    parsedLayers.set(memo, kept.json().then((collection) => (collection && collection.type === "FeatureCollection" ? { collection, asOf } : null)).catch(() => null));
  }
  return parsedLayers.get(memo);
}

// /v1/nearest and /v1/ar for a point never asked, from the kept layer they are about.
async function computeAnswer(cache, url) {
  const compute = { "/v1/nearest": offlineNearest, "/v1/ar": offlineAR }[url.pathname];
  if (!compute) return null;
  const name = url.searchParams.get("layer") || (url.pathname === "/v1/ar" ? "fallas" : null);
  if (!name) return null;
  const layer = await keptLayer(cache, name);
  if (!layer) return null;
  const body = compute(layer.collection, url.searchParams);
  return body ? { body, asOf: layer.asOf } : null;
}

const NO_ANSWER = {
  es: "Sin conexión con el servicio, y sin respuesta guardada a esta pregunta.",
  eu: "Ez dago zerbitzuarekin konexiorik, ezta galdera honi gordetako erantzunik ere.",
  en: "No connection to the service, and no saved answer to this question.",
};

// A problem (RFC 9457) in the language the page asked in, which it shows as any other.
function noAnswer(request) {
  const language = (request.headers.get("Accept-Language") || "").slice(0, 2).toLowerCase();
  const detail = NO_ANSWER[language] || NO_ANSWER.en;
  const body = { type: "about:blank", title: "Service Unavailable", status: 503, detail };
  return new Response(JSON.stringify(body), { status: 503, headers: { "Content-Type": "application/problem+json", [OFFLINE]: "" } });
}

// Tells the page that asked whether this answer is fresh or kept, and as of when.
function tell(event, state) {
  const id = event.clientId || event.resultingClientId;
  if (!id) return;
  event.waitUntil(self.clients.get(id).then((client) => client && client.postMessage({ type: "geoq-answer", ...state })).catch(() => {}));
}

// Push messages: the service encrypts them for this browser's subscription, the browser
// decrypts them before the worker sees them. The payload is JSON: title, body, the page address
// to open (url) and a tag (a newer message of the same tag replaces the older).
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (error) {
    message = { body: event.data.text() };
  }
  const title = typeof message.title === "string" && message.title ? message.title : "geoq";
  const options = { body: message.body == null ? "" : String(message.body), data: { url: pageAddress(message.url) }, icon: "/page/icon.svg" };
  if (message.tag) options.tag = String(message.tag);
  event.waitUntil(self.registration.showNotification(title, options));
});

// Only an address of this origin is opened: a payload naming another site opens the page.
function pageAddress(url) {
  try {
    const address = new URL(String(url ?? "/"), self.location.origin);
    return address.origin === self.location.origin ? address.href : new URL("/", self.location.origin).href;
  } catch (error) {
    return new URL("/", self.location.origin).href;
  }
}

// A click shows the address in the page already open, else in a new window.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = pageAddress(event.notification.data && event.notification.data.url);
  const shown = (async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of windows) {
      if (new URL(client.url).origin !== self.location.origin) continue;
      try {
        // Focus is allowed only while a click is handled; without it the window is still
        // brought to the address.
        await client.focus().catch(() => null);
        return (await client.navigate(url)) || client;
      } catch (error) {
        // A window this worker does not control cannot be navigated: a new one is opened.
      }
    }
    return self.clients.openWindow(url);
  })();
  event.waitUntil(shown);
});

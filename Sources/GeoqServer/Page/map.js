// The map page: geoq's layers drawn with Leaflet (no tiles: the layers are the map), and the
// service's answers for a clicked point. Every request goes to this page's own origin.
"use strict";

const WORDS = {
  es: {
    title: "geoq: mapa", language: "Idioma", mapLabel: "Mapa: haz clic para preguntar; flechas para moverse",
    askCentre: "Preguntar en el centro del mapa", parking: "Aparcamiento (Pamplona)", zone: "Zona",
    zoneNone: "(sin elegir)", zoneBlue: "Azul", zoneGreen: "Verde", zoneOrange: "Naranja", zoneRed: "Roja",
    minutes: "Minutos", euros: "o euros", fallasLegend: "Fallas (Valencia)", section: "Sección",
    allSections: "Todas", arLegend: "Vista RA", heading: "Rumbo", arLabel: "Vista RA de las fallas",
    hint: "Haz clic en el mapa o pregunta en el centro.", asking: "Preguntando…",
    point: "Punto", sector: "Sector", zoneNeeded: "Elige la zona para ver el precio.",
    ticket: "Billete", price: "Precio", ticketEnd: "Termina", skipped: "Días y horas saltados",
    nearestFallas: "Fallas más cercanas", services: "Servicios", incidents: "Incidencias cercanas",
    noIncidents: "Ninguna incidencia cerca.", none: "Ninguna.", metres: "m", bearing: "rumbo",
    layerMissing: "Capa no disponible", error: "Error", arVisible: "visibles",
    incidentsLayer: "Incidencias", keyLabel: "Clave de lectura", keyUse: "Usar la clave",
    keyNeeded: "Este servicio pide una clave con el permiso «read».",
  },
  eu: {
    title: "geoq: mapa", language: "Hizkuntza", mapLabel: "Mapa: egin klik galdetzeko; geziekin mugitu",
    askCentre: "Galdetu maparen erdian", parking: "Aparkalekua (Iruña)", zone: "Gunea",
    zoneNone: "(aukeratu gabe)", zoneBlue: "Urdina", zoneGreen: "Berdea", zoneOrange: "Laranja", zoneRed: "Gorria",
    minutes: "Minutuak", euros: "edo euroak", fallasLegend: "Fallak (Valentzia)", section: "Saila",
    allSections: "Guztiak", arLegend: "EA ikuspegia", heading: "Norabidea", arLabel: "Fallen EA ikuspegia",
    hint: "Egin klik mapan edo galdetu erdian.", asking: "Galdetzen…",
    point: "Puntua", sector: "Sektorea", zoneNeeded: "Aukeratu gunea prezioa ikusteko.",
    ticket: "Txartela", price: "Prezioa", ticketEnd: "Amaiera", skipped: "Saltatutako egun eta orduak",
    nearestFallas: "Falla hurbilenak", services: "Zerbitzuak", incidents: "Gertakari hurbilak",
    noIncidents: "Ez dago gertakaririk hurbil.", none: "Bat ere ez.", metres: "m", bearing: "norabidea",
    layerMissing: "Geruza ez dago eskuragarri", error: "Errorea", arVisible: "ikusgai",
    incidentsLayer: "Gertakariak", keyLabel: "Irakurtzeko gakoa", keyUse: "Erabili gakoa",
    keyNeeded: "Zerbitzu honek «read» baimena duen gako bat eskatzen du.",
  },
  en: {
    title: "geoq: map", language: "Language", mapLabel: "Map: click to ask; arrow keys to pan",
    askCentre: "Ask at the map's centre", parking: "Parking (Pamplona)", zone: "Zone",
    zoneNone: "(not chosen)", zoneBlue: "Blue", zoneGreen: "Green", zoneOrange: "Orange", zoneRed: "Red",
    minutes: "Minutes", euros: "or euros", fallasLegend: "Fallas (Valencia)", section: "Section",
    allSections: "All", arLegend: "AR preview", heading: "Heading", arLabel: "AR preview of the fallas",
    hint: "Click the map or ask at its centre.", asking: "Asking…",
    point: "Point", sector: "Sector", zoneNeeded: "Choose the zone to see the price.",
    ticket: "Ticket", price: "Price", ticketEnd: "Ends", skipped: "Days and hours skipped",
    nearestFallas: "Nearest fallas", services: "Services", incidents: "Incidents nearby",
    noIncidents: "No incidents nearby.", none: "None.", metres: "m", bearing: "bearing",
    layerMissing: "Layer not available", error: "Error", arVisible: "visible",
    incidentsLayer: "Incidents", keyLabel: "Read key", keyUse: "Use the key",
    keyNeeded: "This service asks for a key with the read scope.",
  },
};

// The service types of /v1/services, as people call them.
const SERVICE_TYPES = {
  es: {
    "bike-station": "Valenbisi", "car-park": "Aparcamiento", "disabled-parking": "Plaza para personas con discapacidad",
    "ev-charger": "Recarga eléctrica", "health-centre": "Centro de salud", hospital: "Hospital",
    "taxi-rank": "Parada de taxi", "traffic-camera": "Cámara de tráfico",
  },
  eu: {
    "bike-station": "Valenbisi", "car-park": "Aparkalekua", "disabled-parking": "Desgaitasuna dutenentzako plaza",
    "ev-charger": "Karga elektrikoa", "health-centre": "Osasun-zentroa", hospital: "Ospitalea",
    "taxi-rank": "Taxi-geltokia", "traffic-camera": "Trafiko-kamera",
  },
  en: {
    "bike-station": "Valenbisi", "car-park": "Car park", "disabled-parking": "Disabled parking bay",
    "ev-charger": "EV charger", "health-centre": "Health centre", hospital: "Hospital",
    "taxi-rank": "Taxi rank", "traffic-camera": "Traffic camera",
  },
};
const serviceType = (type) => SERVICE_TYPES[lang][type] || type;

const PAMPLONA = [42.8125, -1.6458];
const VALENCIA_BOX = { south: 39.27, north: 39.6, west: -0.56, east: -0.27 };
// Polygon layers this large are asked simplified (metres): the page needs their shape, not every vertex.
const SIMPLIFY_OVER = 200;
const PIN_COLOURS = {
  green: "#2e8b3a", red: "#c62828", blue: "#1e63c6", yellow: "#e5b800", orange: "#ef7d00",
  purple: "#7b3fa0", pink: "#e0609e", brown: "#7a4b25", black: "#222", white: "#fff", grey: "#888", gray: "#888",
};
const POLYGON_STYLES = {
  "pamplona-sectors": { color: "#20344c", weight: 2, fillOpacity: 0.08 },
  "pamplona-restricted-access": { color: "#c62828", weight: 2, dashArray: "6 4", fillOpacity: 0.15 },
};

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let lang = pickLanguage();
let lastPoint = null;
let pamplonaBounds = null;
let askSerial = 0;

function pickLanguage() {
  const asked = params.get("lang");
  if (asked && WORDS[asked]) return asked;
  for (const tag of navigator.languages || [navigator.language || "es"]) {
    const base = tag.slice(0, 2).toLowerCase();
    if (WORDS[base]) return base;
  }
  return "es";
}

const t = (key) => WORDS[lang][key] || WORDS.en[key] || key;

function applyLanguage() {
  document.documentElement.lang = lang;
  document.title = t("title");
  $("lang").value = lang;
  for (const element of document.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  for (const element of document.querySelectorAll("[data-i18n-aria]")) {
    element.setAttribute("aria-label", t(element.dataset.i18nAria));
  }
}

// When the operator makes reads private, every question needs a key with the read scope: the
// one the operator wrote into the page (--page-key), else one its user types, kept for this tab
// only. Questions answered 401 wait for a key and are asked again with it.
const KEY_ITEM = "geoq-read-key";
let readKey = document.querySelector('meta[name="geoq-key"]').content || sessionStorage.getItem(KEY_ITEM) || "";
let keyWaiters = [];

function askForKey(reason) {
  $("key-reason").textContent = `${t("keyNeeded")} ${reason || ""}`.trim();
  $("key-form").hidden = false;
  return new Promise((resolve) => keyWaiters.push(resolve));
}

$("key-form").addEventListener("submit", (event) => {
  event.preventDefault();
  readKey = $("key").value.trim();
  if (!readKey) return;
  sessionStorage.setItem(KEY_ITEM, readKey);
  $("key-form").hidden = true;
  const waiting = keyWaiters;
  keyWaiters = [];
  for (const resolve of waiting) resolve();
});

async function getJSON(path, accept = "application/json") {
  let response;
  for (;;) {
    const headers = { Accept: accept, "Accept-Language": lang };
    if (readKey) headers.Authorization = `Bearer ${readKey}`;
    response = await fetch(path, { headers });
    if (response.status !== 401) break;
    const problem = await response.json().catch(() => null);
    await askForKey(problem && problem.detail);
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error((body && (body.detail || body.title)) || `${response.status}`);
    error.status = response.status;
    throw error;
  }
  return body;
}

// The map, with no tiles: the layers are the map.
const map = L.map("map", { keyboard: true, zoomControl: true, preferCanvas: false });
L.control.scale({ metric: true, imperial: false }).addTo(map);
const switcher = L.control.layers(null, null, { collapsed: true }).addTo(map);
const incidentsLayer = L.layerGroup().addTo(map);
const askedMarker = L.circleMarker([0, 0], { radius: 7, color: "#f0a500", weight: 3, fillOpacity: 0 });

// Text from data (feature names, answers, problems) reaches the page as text only. Leaflet
// writes a string it is given (a tooltip, an icon) as markup, so it is given an element holding
// the text instead: a name that looks like markup shows as the characters it is.
function textElement(text) {
  const element = document.createElement("span");
  element.textContent = String(text);
  return element;
}

function pinIcon(properties, layerName) {
  const pin = String(properties.pin || "").toLowerCase();
  const element = textElement(properties.categoryCode || String(properties.category || "?").slice(0, 2));
  element.className = "pin";
  element.dataset.layer = layerName;
  // Style properties, which the page's Content-Security-Policy allows; a style attribute in
  // markup it refuses.
  element.style.background = Object.hasOwn(PIN_COLOURS, pin) ? PIN_COLOURS[pin] : "#555";
  element.style.color = ["yellow", "white"].includes(pin) ? "#000" : "#fff";
  return L.divIcon({ className: "", html: element, iconSize: [22, 22] });
}

// Leaflet's layer switcher takes a layer's name as markup only (a string, never an element), so
// the title, which an import may set to anything, is escaped for it.
function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// The layers in the switcher, so that a change of language can name them again.
const overlays = [];
const layerTitle = (layer) => escapeHTML((layer.titles && layer.titles[lang]) || layer.title || layer.name);

function renameLayers() {
  for (const { layer, group } of overlays) {
    switcher.removeLayer(group);
    switcher.addOverlay(group, layerTitle(layer));
  }
}

async function loadLayers() {
  let list;
  try {
    list = (await getJSON("/v1/layers")).layers || [];
  } catch (error) {
    return;
  }
  const order = (layer) => (layer.kind === "polygon" ? 0 : 1);
  for (const layer of list.sort((a, b) => order(a) - order(b))) {
    if (layer.error) continue;
    // Each layer is a group in the switcher whose features are asked for the first time it is
    // shown: the small layers show at once, the big ones cost nothing until someone wants them.
    const group = L.layerGroup();
    let asked = false;
    group.on("add", () => {
      if (!asked) {
        asked = true;
        loadLayer(layer, group);
      }
    });
    overlays.push({ layer, group });
    switcher.addOverlay(group, layerTitle(layer));
    if (layer.features <= 400 || layer.name === "fallas") group.addTo(map);
  }
}

// One layer's features from /v1/layers/{name}, drawn into `group`; when that answers nothing
// usable the layer stays empty and the rest of the page works on.
async function loadLayer(layer, group) {
  const simplify = layer.kind === "polygon" && layer.features > SIMPLIFY_OVER ? "?simplify=20" : "";
  let collection;
  try {
    collection = await getJSON(`/v1/layers/${encodeURIComponent(layer.name)}${simplify}`, "application/geo+json");
  } catch (error) {
    return;
  }
  if (!collection || collection.type !== "FeatureCollection") return;
  const isPolygon = layer.kind === "polygon";
  const drawn = L.geoJSON(collection, {
    style: () => POLYGON_STYLES[layer.name] || { color: "#4a6a8a", weight: 1, fillOpacity: 0.05 },
    pointToLayer: (feature, latlng) =>
      layer.name.startsWith("fallas")
        ? L.marker(latlng, { icon: pinIcon(feature.properties || {}, layer.name), keyboard: false, bubblingMouseEvents: true, title: feature.properties.name || "" })
        : L.circleMarker(latlng, { radius: 4, color: "#333", weight: 1, fillColor: "#6c8ebf", fillOpacity: 0.8 }),
    onEachFeature: (feature, drawnFeature) => {
      const name = feature.properties && feature.properties.name;
      if (!name) return;
      if (isPolygon && layer.features <= 20) {
        drawnFeature.bindTooltip(textElement(name), { permanent: true, direction: "center", className: "sector-label" });
      } else {
        drawnFeature.bindTooltip(textElement(name));
      }
    },
  });
  if (layer.name === "pamplona-sectors") pamplonaBounds = drawn.getBounds();
  if (layer.name === "fallas") fillSections(collection.features);
  group.addLayer(drawn);
}

function inValencia(lat, lon) {
  return lat >= VALENCIA_BOX.south && lat <= VALENCIA_BOX.north && lon >= VALENCIA_BOX.west && lon <= VALENCIA_BOX.east;
}

const metres = (value) => `${Math.round(value)} ${t("metres")}`;
const dateTime = (iso) =>
  iso ? new Date(iso).toLocaleString(lang, { weekday: "short", day: "numeric", month: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "Europe/Madrid" }) : "";

function section(title, lines) {
  const block = document.createElement("section");
  const heading = document.createElement("h2");
  heading.textContent = title;
  block.append(heading);
  const list = document.createElement("ul");
  for (const line of lines.length ? lines : [t("none")]) {
    const item = document.createElement("li");
    item.textContent = line;
    list.append(item);
  }
  block.append(list);
  return block;
}

async function parkingSection(lat, lon) {
  const query = new URLSearchParams({ lat: lat.toFixed(6), lon: lon.toFixed(6), lang });
  const zone = $("zone").value;
  const euros = $("ticket-euros").value;
  const minutes = $("ticket-minutes").value;
  if (zone) {
    query.set("zone", zone);
    if (euros) query.set("euros", euros);
    else if (minutes) query.set("minutes", minutes);
  }
  let park;
  try {
    park = await getJSON(`/v1/park?${query}`);
  } catch (error) {
    const inside = pamplonaBounds && pamplonaBounds.contains([lat, lon]);
    return inside ? section(t("parking"), [`${t("error")}: ${error.message}`]) : null;
  }
  // The park answer always names the nearest sector; the parking section is for points in one
  // (or within the sectors' outline, where the answer says why none is there).
  const sector = park.sector && park.sector.id != null ? park.sector : null;
  if (!sector && !(pamplonaBounds && pamplonaBounds.contains([lat, lon]))) return null;
  const lines = [];
  if (sector) lines.push(`${t("sector")}: ${sector.name || sector.id}`);
  if (park.zone) lines.push(`${t("zone")}: ${park.zone.name}`);
  if (park.regulation) lines.push(park.regulation.message);
  if (park.ticket) {
    lines.push(`${t("ticket")}: ${park.ticket.minutes} min, ${t("price")}: ${park.ticket.amount} €`);
    lines.push(`${t("ticketEnd")}: ${dateTime(park.ticket.end)}`);
    for (const pause of park.ticket.pauses || []) lines.push(`${t("skipped")}: ${pause.message}`);
  } else if (!zone) {
    lines.push(t("zoneNeeded"));
  }
  if (park.whoMayPark) lines.push(park.whoMayPark);
  if (park.sector && park.sector.approximate && park.sector.approximation) lines.push(park.sector.approximation);
  return section(t("parking"), lines);
}

function hitLine(hit) {
  const code = hit.categoryCode ? ` [${hit.categoryCode}]` : "";
  return `${hit.name}${code}: ${metres(hit.distanceMetres)}, ${t("bearing")} ${Math.round(hit.bearingDegrees)}°`;
}

async function valenciaSections(lat, lon) {
  const point = `lat=${lat.toFixed(6)}&lon=${lon.toFixed(6)}`;
  const category = $("falla-section").value;
  const nearest = getJSON(`/v1/nearest?${point}&layer=fallas&n=5${category ? `&category=${encodeURIComponent(category)}` : ""}`);
  const services = getJSON(`/v1/services?${point}&n=1`);
  const sections = [];
  try {
    sections.push(section(t("nearestFallas"), (await nearest).hits.map(hitLine)));
  } catch (error) {
    sections.push(section(t("nearestFallas"), [`${t("error")}: ${error.message}`]));
  }
  try {
    const lines = (await services).groups.flatMap((group) => group.hits.map((hit) => `${serviceType(group.type)}: ${hitLine(hit)}`));
    sections.push(section(t("services"), lines));
  } catch (error) {
    sections.push(section(t("services"), [`${t("error")}: ${error.message}`]));
  }
  return sections;
}

async function incidentsSection(lat, lon) {
  incidentsLayer.clearLayers();
  try {
    const query = `/v1/incidents?lat=${lat.toFixed(6)}&lon=${lon.toFixed(6)}&within=5000&n=10`;
    const [near, drawn] = await Promise.all([getJSON(query), getJSON(query, "application/geo+json")]);
    const lines = (near.incidents || []).map((incident) => {
      const where = incident.distanceMetres != null
        ? `: ${metres(incident.distanceMetres)}, ${t("bearing")} ${Math.round(incident.bearing)}°` : "";
      return `${incident.title || incident.type || incident.id}${where}`;
    });
    if (drawn && drawn.type === "FeatureCollection") {
      L.geoJSON(drawn, {
        pointToLayer: (feature, latlng) => L.circleMarker(latlng, { radius: 6, color: "#b00020", weight: 2, fillColor: "#fff", fillOpacity: 1 }),
        style: () => ({ color: "#b00020", weight: 3 }),
      }).addTo(incidentsLayer);
    }
    return section(t("incidents"), lines.length ? lines : [t("noIncidents")]);
  } catch (error) {
    return section(t("incidents"), [`${t("error")}: ${error.message}`]);
  }
}

// Asks every question for the point and writes the answers, as text, into #answer.
async function ask(lat, lon) {
  const serial = ++askSerial;
  lastPoint = { lat, lon };
  askedMarker.setLatLng([lat, lon]).addTo(map);
  const answer = $("answer");
  answer.textContent = t("asking");
  history.replaceState(null, "", `/?lat=${lat.toFixed(5)}&lon=${lon.toFixed(5)}&lang=${lang}`);
  // The questions go out together; the answer is written when the last one is in.
  const [parking, valencia, incidents] = await Promise.all([
    parkingSection(lat, lon),
    inValencia(lat, lon) ? valenciaSections(lat, lon) : [],
    incidentsSection(lat, lon),
  ]);
  if (serial !== askSerial) return;
  const parts = [section(t("point"), [`${lat.toFixed(5)}, ${lon.toFixed(5)}`])];
  if (parking) parts.push(parking);
  parts.push(...valencia, incidents);
  answer.replaceChildren(...parts);
  // The page benchmark reads the first of these: the time to the first whole answer.
  performance.mark("geoq-answer");
  drawAR();
}

// The /v1/ar overlay for the asked point and heading, asked at the canvas's own size so that
// the labels' x, y (already stacked by the service) are drawn as given.
async function drawAR() {
  const canvas = $("ar-canvas");
  const context = canvas.getContext("2d");
  const heading = Number($("heading").value);
  $("heading-value").textContent = String(heading);
  context.fillStyle = "#0e1a28";
  context.fillRect(0, 0, canvas.width, canvas.height);
  if (!lastPoint) return;
  const query = new URLSearchParams({
    lat: lastPoint.lat.toFixed(6), lon: lastPoint.lon.toFixed(6), heading: String(heading),
    width: String(canvas.width), height: String(canvas.height), "visible-only": "true",
  });
  let ar;
  try {
    ar = await getJSON(`/v1/ar?${query}`);
  } catch (error) {
    return;
  }
  const scaleX = canvas.width / ar.camera.width;
  const scaleY = canvas.height / ar.camera.height;
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.textBaseline = "middle";
  context.textAlign = "center";
  // Far labels first so that the nearest are drawn on top.
  for (const label of [...ar.labels].reverse()) {
    if (label.x == null || label.y == null) continue;
    const x = label.x * scaleX;
    const y = label.y * scaleY;
    const size = Math.max(8, 12 * label.scale);
    context.font = `${size}px system-ui, sans-serif`;
    const text = `${label.name} ${metres(label.distance)}`;
    const width = context.measureText(text).width + 6;
    context.fillStyle = "rgba(255,255,255,0.85)";
    context.fillRect(x - width / 2, y - size * 0.7, width, size * 1.4);
    context.fillStyle = "#000";
    context.fillText(text, x, y);
  }
  context.fillStyle = "#fff";
  context.textAlign = "left";
  context.font = "11px system-ui, sans-serif";
  context.fillText(`${heading}° · ${ar.visibleCount} ${t("arVisible")}`, 4, canvas.height - 8);
  canvas.setAttribute("aria-label", `${t("arLabel")}: ${ar.labels.filter((l) => l.visible).map((l) => l.name).join(", ")}`);
}

// The section filter's choices: every category the fallas layer holds, in the layer's order
// of categories (competition order).
function fillSections(features) {
  const seen = new Map();
  for (const feature of features) {
    const p = feature.properties || {};
    if (p.categoryCode && !seen.has(p.categoryCode)) seen.set(p.categoryCode, p);
  }
  const ranked = [...seen.values()].sort((a, b) => (a.categoryRank - b.categoryRank) || a.category.localeCompare(b.category));
  for (const p of ranked) {
    const option = document.createElement("option");
    option.value = p.categoryCode;
    option.textContent = `${p.categoryCode} — ${p.category}`;
    $("falla-section").append(option);
  }
}

function reask() {
  if (lastPoint) ask(lastPoint.lat, lastPoint.lon);
}

map.on("click", (event) => ask(event.latlng.lat, event.latlng.lng));
$("ask-centre").addEventListener("click", () => {
  const centre = map.getCenter();
  ask(centre.lat, centre.lng);
});
$("map").addEventListener("keydown", (event) => {
  if (event.key === "Enter") {
    const centre = map.getCenter();
    ask(centre.lat, centre.lng);
  }
});
$("lang").addEventListener("change", () => {
  lang = $("lang").value;
  applyLanguage();
  renameLayers();
  if (lastPoint) reask();
  else history.replaceState(null, "", `/?lang=${lang}`);
});
// The controls are never sent anywhere: every change asks again.
$("controls").addEventListener("submit", (event) => event.preventDefault());
for (const id of ["zone", "ticket-minutes", "ticket-euros", "falla-section"]) $(id).addEventListener("change", reask);
$("heading").addEventListener("input", drawAR);

applyLanguage();
const startLat = Number.parseFloat(params.get("lat"));
const startLon = Number.parseFloat(params.get("lon"));
const shared = Number.isFinite(startLat) && Number.isFinite(startLon);
map.setView(shared ? [startLat, startLon] : PAMPLONA, 15);
drawAR();
// A shared address is answered first; the layers (the bulk of the page's bytes) come after.
if (shared) ask(startLat, startLon).finally(loadLayers);
else loadLayers();

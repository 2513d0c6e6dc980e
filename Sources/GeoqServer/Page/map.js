// The map page: geoq's layers drawn with Leaflet (no base map: the layers are the map), the
// polygon layers from the service's vector tiles and the point layers whole, and the service's
// answers for a clicked point. Every request goes to this page's own origin.
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
    myPosition: "Mi posición", positionDenied: "Sin permiso para la ubicación: el mapa sigue funcionando sin ella.",
    positionUnavailable: "Ubicación no disponible por ahora.", arOpen: "Abrir la vista RA con la cámara",
    arClose: "Cerrar",
    arNoCompass: "Sin brújula: gira la vista con el control de rumbo.",
    arOrientationDenied: "Sin permiso para la orientación: gira la vista con el control de rumbo.",
    arNoCamera: "Cámara no disponible.",
    arCompassUnknown: "Precisión de la brújula desconocida: calíbrala moviendo el teléfono en forma de ocho.",
    arCompassPoor: "Brújula imprecisa: calíbrala moviendo el teléfono en forma de ocho.", arGpsPoor: "GPS impreciso",
    arGpsNone: "Sin tu posición: etiquetas del punto preguntado en el mapa.", arTitle: "Vista RA",
    arList: "Etiquetas, la más cercana primero", arElevation: "elevación",
    offline: "sin conexión", asOf: "datos de las",
    remind: "Avisarme antes del final", remindNeedsLink: "Los avisos necesitan el enlace de la app.",
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
    myPosition: "Nire kokapena", positionDenied: "Kokapenerako baimenik ez: mapak haren gabe funtzionatzen du.",
    positionUnavailable: "Kokapena ez dago eskuragarri oraingoz.", arOpen: "Ireki EA ikuspegia kamerarekin",
    arClose: "Itxi",
    arNoCompass: "Iparrorratzik ez: biratu ikuspegia norabide-kontrolarekin.",
    arOrientationDenied: "Orientaziorako baimenik ez: biratu ikuspegia norabide-kontrolarekin.",
    arNoCamera: "Kamera ez dago eskuragarri.",
    arCompassUnknown: "Iparrorratzaren zehaztasuna ezezaguna: kalibratu telefonoa zortzi baten forman mugituz.",
    arCompassPoor: "Iparrorratza ez da zehatza: kalibratu telefonoa zortzi baten forman mugituz.",
    arGpsPoor: "GPSa ez da zehatza",
    arGpsNone: "Zure kokapenik gabe: mapan galdetutako puntuaren etiketak.", arTitle: "EA ikuspegia",
    arList: "Etiketak, hurbilena lehenengo", arElevation: "altuera-angelua",
    offline: "konexiorik gabe", asOf: "datuen ordua:",
    remind: "Abisatu amaitu aurretik", remindNeedsLink: "Abisuek aplikazioaren esteka behar dute.",
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
    myPosition: "My position", positionDenied: "Location permission denied: the map still works without it.",
    positionUnavailable: "Location not available for now.", arOpen: "Open the AR view with the camera",
    arClose: "Close",
    arNoCompass: "No compass: turn the view with the heading slider.",
    arOrientationDenied: "Orientation permission denied: turn the view with the heading slider.",
    arNoCamera: "Camera not available.",
    arCompassUnknown: "Compass accuracy unknown: calibrate it by moving the phone in a figure eight.",
    arCompassPoor: "Compass imprecise: calibrate it by moving the phone in a figure eight.", arGpsPoor: "GPS imprecise",
    arGpsNone: "Without your position: labels of the point asked on the map.", arTitle: "AR view",
    arList: "Labels, nearest first", arElevation: "elevation",
    offline: "offline", asOf: "as of",
    remind: "Remind me before it ends", remindNeedsLink: "Reminders need the app's link.",
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
// More than the diagonal of the parking sectors' outline (about 5 km).
const SECTORS_SPAN_METRES = 10000;
const VALENCIA_BOX = { south: 39.27, north: 39.6, west: -0.56, east: -0.27 };
const PIN_COLOURS = {
  green: "#2e8b3a", red: "#c62828", blue: "#1e63c6", yellow: "#e5b800", orange: "#ef7d00",
  purple: "#7b3fa0", pink: "#e0609e", brown: "#7a4b25", black: "#222", white: "#fff", grey: "#888", gray: "#888",
};
const POLYGON_STYLES = {
  "pamplona-sectors": { color: "#20344c", weight: 2, fillOpacity: 0.08 },
  "pamplona-restricted-access": { color: "#c62828", weight: 2, dashArray: "6 4", fillOpacity: 0.15 },
};
const DEFAULT_POLYGON_STYLE = { color: "#4a6a8a", weight: 1, fillOpacity: 0.05 };
const SERVICE_POINT_STYLE = { radius: 4, color: "#333", weight: 1, fillColor: "#6c8ebf", fillOpacity: 0.8 };
// A polygon layer with this few features has each one labelled with its name, always; a bigger
// one names the feature under the pointer.
const LABEL_ALL_UP_TO = 20;

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
// The app linking here may give the page a device token in the fragment (#token=gqd_…, which no
// request carries; never a key, which would be the tenant's), for "Remind me" (reminders.js):
// taken out of the address before the first question rewrites it, kept for this tab only.
const linkToken = new URLSearchParams(location.hash.slice(1)).get("token");
if (linkToken != null) history.replaceState(null, "", location.pathname + location.search);
if (linkToken?.startsWith("gqd_")) sessionStorage.setItem("geoq-device-token", linkToken);
let lang = pickLanguage();
let lastPoint = null;
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

// Every request to the service goes through here, so that tiles are asked with the key as the
// answers are.
async function request(path, accept) {
  for (;;) {
    const headers = { Accept: accept, "Accept-Language": lang };
    if (readKey) headers.Authorization = `Bearer ${readKey}`;
    const response = await fetch(path, { headers });
    if (response.status !== 401) return response;
    const problem = await response.json().catch(() => null);
    await askForKey(problem && problem.detail);
  }
}

async function getJSON(path, accept = "application/json") {
  const response = await request(path, accept);
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error((body && (body.detail || body.title)) || `${response.status}`);
    error.status = response.status;
    throw error;
  }
  return body;
}

// The map, with no base map: the layers are the map.
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

// The polygon layers are drawn from the service's Mapbox Vector Tiles
// (/ogc/collections/{name}/tiles/WebMercatorQuad/{z}/{y}/{x}): a view costs the tiles it shows,
// where a whole layer cost up to 120 KiB, and a layer no browser could draw whole (the time
// zones' millions of vertices) is drawn as any other.
//
// A tile is asked at the map's zoom less four, so that it spans 4096 screen pixels: a view needs
// one to four of them a layer (mostly one or two), far fewer bytes than the many small tiles of
// the map's own zoom (each repeats its headers and the features it cuts), and its 4096 grid units
// give one a pixel, as fine as the GeoJSON layers were drawn (Leaflet simplified them to a pixel
// and rounded them to whole pixels). It is drawn into each of the 512-pixel canvases it covers;
// its buffer falls outside them.
const TILE_SIZE = 512;
const SOURCE_ZOOM_OFFSET = 4;
const MAX_SOURCE_ZOOM = 22;
// Decoded tiles kept a layer, so that a pan back or a zoom in and out asks nothing again.
const KEPT_SOURCE_TILES = 48;

// One tile's features of `name`, null where the service has nothing there (204).
async function fetchTile(name, { z, x, y }) {
  const path = `/ogc/collections/${encodeURIComponent(name)}/tiles/WebMercatorQuad/${z}/${y}/${x}`;
  const response = await request(path, "application/vnd.mapbox-vector-tile");
  if (response.status === 204) return null;
  if (!response.ok) throw new Error(`${response.status}`);
  return VectorTile.decode(await response.arrayBuffer())[name] || null;
}

// Whether (x, y) is inside the polygon `rings` (exterior and holes) by the even-odd rule, as it
// is filled.
function insideRings(rings, x, y) {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
      const yi = ring[i + 1], yj = ring[j + 1];
      if (yi > y !== yj > y && x < ((ring[j] - ring[i]) * (y - yi)) / (yj - yi) + ring[i]) inside = !inside;
    }
  }
  return inside;
}

// Each feature's bounding box in grid units, so that a canvas draws only what reaches it.
function withBoxes(tile) {
  for (const feature of tile.features) {
    const box = [Infinity, Infinity, -Infinity, -Infinity];
    const extend = (points) => {
      for (let i = 0; i < points.length; i += 2) {
        box[0] = Math.min(box[0], points[i]);
        box[1] = Math.min(box[1], points[i + 1]);
        box[2] = Math.max(box[2], points[i]);
        box[3] = Math.max(box[3], points[i + 1]);
      }
    };
    if (feature.kind === "Polygon") for (const polygon of feature.geometry) polygon.forEach(extend);
    else feature.geometry.forEach(extend);
    feature.box = box;
  }
  return tile;
}

// The signed area and area-weighted centre of `rings`, in grid units: holes count against.
function ringMoments(rings) {
  let area = 0, x = 0, y = 0;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
      const cross = ring[j] * ring[i + 1] - ring[i] * ring[j + 1];
      area += cross;
      x += (ring[j] + ring[i]) * cross;
      y += (ring[j + 1] + ring[i + 1]) * cross;
    }
  }
  return { area: area / 2, x: x / 6, y: y / 6 };
}

const featureName = (feature) => feature.properties.name;
const featureKey = (feature) => String(feature.properties.id ?? feature.id ?? feature.properties.name);

const VectorTileLayer = L.GridLayer.extend({
  options: { tileSize: TILE_SIZE, noWrap: true, updateWhenZooming: false, className: "vector-tiles" },

  // `layer`: the layer's entry in /v1/layers.
  initialize(layer, options) {
    L.GridLayer.prototype.initialize.call(this, options);
    this.layer = layer;
    this.style = { opacity: 1, fillColor: null, dashArray: null, ...(POLYGON_STYLES[layer.name] || DEFAULT_POLYGON_STYLE) };
    this.labelsAll = layer.features <= LABEL_ALL_UP_TO;
    // By "z/x/y": the tile's promise, and the tile once in (hovering reads it at once).
    this.asked = new Map();
    this.decoded = new Map();
    this.labels = L.layerGroup();
    this.labelOf = new Map();
    if (this.labelsAll) this.on("load", this.placeLabels, this);
  },

  onAdd(map) {
    L.GridLayer.prototype.onAdd.call(this, map);
    this.getContainer().dataset.layer = this.layer.name;
    this.labels.addTo(map);
  },

  onRemove(map) {
    this.labels.remove();
    L.GridLayer.prototype.onRemove.call(this, map);
  },

  // The service's tile holding the canvas at `coords`, and its span in screen pixels.
  sourceOf(coords) {
    const z = Math.min(Math.max(coords.z - SOURCE_ZOOM_OFFSET, 0), MAX_SOURCE_ZOOM);
    const span = 256 * 2 ** (coords.z - z);
    const x = Math.floor((coords.x * TILE_SIZE) / span), y = Math.floor((coords.y * TILE_SIZE) / span);
    return { z, x, y, span, key: `${z}/${x}/${y}` };
  },

  features(source) {
    let pending = this.asked.get(source.key);
    if (!pending) {
      pending = fetchTile(this.layer.name, source).then((tile) => {
        if (tile) withBoxes(tile);
        if (this.asked.get(source.key) === pending) this.decoded.set(source.key, tile);
        return tile;
      });
      // A tile that failed is asked again the next time it is shown.
      pending.catch(() => this.asked.delete(source.key));
      this.asked.set(source.key, pending);
      if (this.asked.size > KEPT_SOURCE_TILES) {
        const oldest = this.asked.keys().next().value;
        this.asked.delete(oldest);
        this.decoded.delete(oldest);
      }
    }
    return pending;
  },

  createTile(coords, done) {
    const canvas = document.createElement("canvas");
    const ratio = window.devicePixelRatio || 1;
    canvas.width = TILE_SIZE * ratio;
    canvas.height = TILE_SIZE * ratio;
    const source = this.sourceOf(coords);
    const limit = 2 ** source.z;
    if (source.x < 0 || source.y < 0 || source.x >= limit || source.y >= limit) {
      setTimeout(() => done(null, canvas));
      return canvas;
    }
    this.features(source).then(
      (tile) => {
        if (tile) this.draw(canvas, tile, source, coords, ratio);
        done(null, canvas);
      },
      (error) => done(error, canvas),
    );
    return canvas;
  },

  // The tile's features in the canvas at `coords`, styled as the GeoJSON layers were.
  draw(canvas, tile, source, coords, ratio) {
    const context = canvas.getContext("2d");
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    const scale = source.span / tile.extent;
    const left = coords.x * TILE_SIZE - source.x * source.span;
    const top = coords.y * TILE_SIZE - source.y * source.span;
    const trace = (path, points, closed) => {
      path.moveTo(points[0] * scale - left, points[1] * scale - top);
      for (let i = 2; i < points.length; i += 2) path.lineTo(points[i] * scale - left, points[i + 1] * scale - top);
      if (closed) path.closePath();
    };
    const style = this.style;
    // What reaches the canvas, in grid units, with room for a stroke or a point's circle.
    const margin = (style.weight + SERVICE_POINT_STYLE.radius) / scale;
    const reach = [left / scale - margin, top / scale - margin, (left + TILE_SIZE) / scale + margin, (top + TILE_SIZE) / scale + margin];
    context.lineCap = context.lineJoin = "round";
    context.setLineDash(style.dashArray ? style.dashArray.split(/[ ,]+/).map(Number) : []);
    for (const feature of tile.features) {
      const box = feature.box;
      if (box[0] > reach[2] || box[2] < reach[0] || box[1] > reach[3] || box[3] < reach[1]) continue;
      const path = new Path2D();
      let fill = true, stroke = style;
      if (feature.kind === "Polygon") {
        for (const polygon of feature.geometry) for (const ring of polygon) trace(path, ring, true);
      } else if (feature.kind === "LineString") {
        for (const line of feature.geometry) trace(path, line, false);
        fill = false;
      } else if (feature.kind === "Point") {
        stroke = SERVICE_POINT_STYLE;
        for (const [x, y] of feature.geometry) {
          path.moveTo(x * scale - left + stroke.radius, y * scale - top);
          path.arc(x * scale - left, y * scale - top, stroke.radius, 0, 2 * Math.PI);
        }
      } else {
        continue;
      }
      if (fill) {
        context.globalAlpha = stroke.fillOpacity;
        context.fillStyle = stroke.fillColor || stroke.color;
        context.fill(path, "evenodd");
      }
      context.globalAlpha = stroke.opacity ?? 1;
      context.strokeStyle = stroke.color;
      context.lineWidth = stroke.weight;
      context.stroke(path);
    }
  },

  // The decoded tiles behind the canvases of the current zoom, with their spans.
  shownSources() {
    const zoom = Math.round(this._map.getZoom());
    const sources = new Map();
    for (const { coords } of Object.values(this._tiles)) {
      if (coords.z !== zoom) continue;
      const source = this.sourceOf(coords);
      if (this.decoded.get(source.key)) sources.set(source.key, source);
    }
    return [...sources.values()];
  },

  // One permanent label a feature, at the centre of what the shown tiles hold of it (each
  // feature comes cut into the tiles it crosses), placed again whenever the tiles change.
  placeLabels() {
    const zoom = Math.round(this._map.getZoom());
    const centres = new Map();
    for (const source of this.shownSources()) {
      const tile = this.decoded.get(source.key);
      const scale = source.span / tile.extent;
      for (const feature of tile.features) {
        if (feature.kind !== "Polygon" || !featureName(feature)) continue;
        const key = featureKey(feature);
        const centre = centres.get(key) || { name: featureName(feature), area: 0, x: 0, y: 0 };
        for (const polygon of feature.geometry) {
          const { area, x, y } = ringMoments(polygon);
          if (area <= 0) continue;
          // Screen pixels at this zoom, so that the parts of several tiles add up.
          const weight = area * scale * scale;
          centre.area += weight;
          centre.x += weight * (source.x * source.span + (x / area) * scale);
          centre.y += weight * (source.y * source.span + (y / area) * scale);
        }
        if (centre.area > 0) centres.set(key, centre);
      }
    }
    for (const [key, label] of this.labelOf) {
      if (!centres.has(key)) {
        this.labels.removeLayer(label);
        this.labelOf.delete(key);
      }
    }
    for (const [key, centre] of centres) {
      const at = this._map.unproject([centre.x / centre.area, centre.y / centre.area], zoom);
      let label = this.labelOf.get(key);
      if (!label) {
        label = L.tooltip({ permanent: true, direction: "center", className: "sector-label" }).setContent(textElement(centre.name));
        this.labelOf.set(key, label);
        label.setLatLng(at);
        this.labels.addLayer(label);
      } else {
        label.setLatLng(at);
      }
    }
  },

  // The named polygon under `latlng` in the tiles already in, the last drawn (on top) first.
  featureAt(latlng) {
    const zoom = Math.round(this._map.getZoom());
    const point = this._map.project(latlng, zoom);
    const source = this.sourceOf({ x: Math.floor(point.x / TILE_SIZE), y: Math.floor(point.y / TILE_SIZE), z: zoom });
    const tile = this.decoded.get(source.key);
    if (!tile) return null;
    const scale = source.span / tile.extent;
    const x = (point.x - source.x * source.span) / scale, y = (point.y - source.y * source.span) / scale;
    for (let i = tile.features.length - 1; i >= 0; i--) {
      const feature = tile.features[i];
      if (feature.kind !== "Polygon" || !featureName(feature)) continue;
      if (feature.geometry.some((rings) => insideRings(rings, x, y))) return feature;
    }
    return null;
  },
});

// The name of the polygon under the pointer, as the GeoJSON layers' tooltips showed it: from the
// topmost tile layer on the map whose features are not labelled already.
const hoverTooltip = L.tooltip();
let hoverEvent = null;
let hoverFrame = 0;
let hovered = null;

function showHovered() {
  hoverFrame = 0;
  let found = null;
  for (const { group } of [...overlays].reverse()) {
    if (!(group instanceof VectorTileLayer) || group.labelsAll || !map.hasLayer(group)) continue;
    const feature = group.featureAt(hoverEvent.latlng);
    if (feature) {
      found = { layer: group.layer.name, key: featureKey(feature), name: featureName(feature) };
      break;
    }
  }
  if (!found) {
    hovered = null;
    hoverTooltip.remove();
    return;
  }
  if (!hovered || hovered.layer !== found.layer || hovered.key !== found.key) hoverTooltip.setContent(textElement(found.name));
  hovered = found;
  hoverTooltip.setLatLng(hoverEvent.latlng);
  if (!map.hasLayer(hoverTooltip)) hoverTooltip.addTo(map);
}

map.on("mousemove", (event) => {
  hoverEvent = event;
  if (!hoverFrame) hoverFrame = requestAnimationFrame(showHovered);
});
map.on("mouseout zoomstart", () => {
  hovered = null;
  hoverTooltip.remove();
});

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
    // A polygon layer asks its tiles as it is shown. Any other is a group in the switcher whose
    // features are asked for the first time it is shown: the small layers show at once, the big
    // ones cost nothing until someone wants them.
    let group;
    if (layer.kind === "polygon") {
      group = new VectorTileLayer(layer);
    } else {
      group = L.layerGroup();
      let asked = false;
      group.on("add", () => {
        if (!asked) {
          asked = true;
          loadLayer(layer, group);
        }
      });
    }
    overlays.push({ layer, group });
    switcher.addOverlay(group, layerTitle(layer));
    if (layer.features <= 400 || layer.name === "fallas") group.addTo(map);
  }
}

// One layer's features from /v1/layers/{name}, drawn into `group`; when that answers nothing
// usable the layer stays empty and the rest of the page works on.
async function loadLayer(layer, group) {
  let collection;
  try {
    collection = await getJSON(`/v1/layers/${encodeURIComponent(layer.name)}`, "application/geo+json");
  } catch (error) {
    return;
  }
  if (!collection || collection.type !== "FeatureCollection") return;
  const drawn = L.geoJSON(collection, {
    style: () => POLYGON_STYLES[layer.name] || DEFAULT_POLYGON_STYLE,
    pointToLayer: (feature, latlng) =>
      layer.name.startsWith("fallas")
        ? L.marker(latlng, { icon: pinIcon(feature.properties || {}, layer.name), keyboard: false, bubblingMouseEvents: true, title: feature.properties.name || "" })
        : L.circleMarker(latlng, SERVICE_POINT_STYLE),
    onEachFeature: (feature, drawnFeature) => {
      const name = feature.properties && feature.properties.name;
      if (name) drawnFeature.bindTooltip(textElement(name));
    },
  });
  if (layer.name === "fallas") fillSections(collection.features);
  group.addLayer(drawn);
}

// The parking sectors' outline (the bounds of their layer's tiles), asked once, the first time a
// point in no sector needs it; null where the service has no such layer.
let sectorsOutline = null;
function pamplonaOutline() {
  sectorsOutline ??= getJSON("/ogc/collections/pamplona-sectors/tiles/WebMercatorQuad?f=tilejson")
    .then(({ bounds: [west, south, east, north] }) => L.latLngBounds([south, west], [north, east]))
    .catch(() => null);
  return sectorsOutline;
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
    const outline = await pamplonaOutline();
    return outline && outline.contains([lat, lon]) ? section(t("parking"), [`${t("error")}: ${error.message}`]) : null;
  }
  // The park answer always names the nearest sector; the parking section is for points in one
  // (or within the sectors' outline, where the answer says why none is there). A point farther
  // from every sector than the sectors span is outside their outline without asking for it.
  const sector = park.sector && park.sector.id != null ? park.sector : null;
  if (!sector) {
    const distance = park.sector && park.sector.distanceToEdgeMetres;
    const outline = distance > SECTORS_SPAN_METRES ? null : await pamplonaOutline();
    if (!(outline && outline.contains([lat, lon]))) return null;
  }
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
// A reminder's address names the ticket's zone: its price and end are shown again.
if ([...$("zone").options].some((option) => option.value && option.value === params.get("zone"))) {
  $("zone").value = params.get("zone");
}
const startLat = Number.parseFloat(params.get("lat"));
const startLon = Number.parseFloat(params.get("lon"));
const shared = Number.isFinite(startLat) && Number.isFinite(startLon);
map.setView(shared ? [startLat, startLon] : PAMPLONA, 15);
drawAR();
// A shared address is answered first; the layers (the bulk of the page's bytes) come after.
if (shared) ask(startLat, startLon).finally(loadLayers);
else loadLayers();
// "Remind me" (reminders.js) only for a tab that can use it or was opened from a reminder; the
// button stays disabled beside its hint for any other.
if (sessionStorage.getItem("geoq-device-token") || params.has("ticket")) {
  document.body.append(Object.assign(document.createElement("script"), { src: "/page/reminders.js" }));
}

// The answers of /v1/nearest and /v1/ar computed from a point layer the service worker keeps
// (the GeoJSON of /v1/layers/{name}), so that a point never asked before is still answered while
// the service cannot be reached. Each follows its endpoint (GeoqQuery/NearestQuery.swift,
// GeoqAPI/AREndpoint.swift, GeoqAR/AROverlay.swift) in what it computes and in the shape of its
// JSON, so that the page reads it as it reads the service's. Distances are geodesic.js's.
//
// Loaded by the service worker with importScripts; a question these cannot answer as the
// service would (a parameter out of its range, a layer never kept) gets null, and the worker says
// it has no answer rather than guess one.
"use strict";

// Swift's rounded(): halves away from zero, where Math.round takes them up.
function roundHalfAway(value, places) {
  const scale = 10 ** places;
  return (Math.sign(value) * Math.round(Math.abs(value) * scale)) / scale;
}

// A query number as the service reads one: plain decimal digits only, within [low, high];
// `fallback` when absent; undefined when it would be refused.
function queryNumber(query, name, low, high, fallback = null) {
  const text = query.get(name);
  if (text === null) return fallback;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= low && value <= high ? value : undefined;
}

function queryFlag(query, name) {
  const text = query.get(name);
  if (text === null || text === "false") return false;
  return text === "true" ? true : undefined;
}

// The position each feature is ranked by, as the service's point layers take it: a Point as it
// is, a MultiPoint by its first point; null for any other geometry.
function featurePosition(feature) {
  const geometry = feature && feature.geometry;
  if (!geometry) return null;
  const coordinates = geometry.type === "Point" ? geometry.coordinates
    : geometry.type === "MultiPoint" && geometry.coordinates.length ? geometry.coordinates[0] : null;
  if (!coordinates || !Number.isFinite(coordinates[0]) || !Number.isFinite(coordinates[1])) return null;
  return { longitude: coordinates[0], latitude: coordinates[1] };
}

// "%.7f" without its trailing zeros, as the service writes a geo URI's coordinates.
function geoCoordinate(value) {
  return value.toFixed(7).replace(/0+$/, "").replace(/\.$/, "");
}

// A filter names a category by its code or its words, whatever their case (PointLayer.Category).
function categoryMatches(properties, filter) {
  const wanted = filter.toLowerCase();
  return [properties.categoryCode, properties.category].some((text) => text != null && String(text).toLowerCase() === wanted);
}

// GET /v1/nearest from `collection` (the layer's FeatureCollection), for the query `query`
// (URLSearchParams); null when the service would have refused the question.
function offlineNearest(collection, query) {
  const lat = queryNumber(query, "lat", -90, 90);
  const lon = queryNumber(query, "lon", -180, 180);
  const limit = queryNumber(query, "n", 1, 1000, 10);
  const within = queryNumber(query, "within", 0, Infinity);
  const order = query.get("order") || "distance";
  const categories = query.getAll("category");
  if (lat == null || lon == null || limit === undefined || !Number.isInteger(limit) || within === undefined) return null;
  if (!["distance", "category"].includes(order) || categories.includes("")) return null;

  // Every feature measured, ranked by (distance, the layer's order), as the service's index
  // ranks them; a layer of a city's monuments is a few hundred lines.
  const ranked = [];
  collection.features.forEach((feature, index) => {
    const position = featurePosition(feature);
    const properties = feature.properties || {};
    if (!position) return;
    if (categories.length && !categories.some((filter) => categoryMatches(properties, filter))) return;
    const { distance, bearing } = geodesicInverse(lat, lon, position.latitude, position.longitude);
    if (within !== null && distance > within) return;
    ranked.push({ feature, properties, position, distance, bearing, index });
  });
  ranked.sort((a, b) => a.distance - b.distance || a.index - b.index);
  let chosen = ranked.slice(0, limit);
  if (order === "category") {
    // Competition order (no category last), then nearest.
    const byCategory = (a, b) => {
      const [p, q] = [a.properties, b.properties];
      if ((p.categoryRank == null) !== (q.categoryRank == null)) return p.categoryRank == null ? 1 : -1;
      if (p.categoryRank !== q.categoryRank) return p.categoryRank - q.categoryRank;
      if (p.category !== q.category) return String(p.category) < String(q.category) ? -1 : 1;
      return a.distance - b.distance;
    };
    chosen = chosen.slice().sort(byCategory);
  }
  return {
    query: { latitude: lat, longitude: lon },
    layer: collection.name,
    approximate: Boolean(collection.approximate),
    ...(collection.approximation ? { approximation: collection.approximation } : {}),
    order,
    hits: chosen.map((hit) => ({
      id: String(hit.feature.id),
      name: hit.properties.name ?? null,
      category: hit.properties.category ?? null,
      categoryCode: hit.properties.categoryCode ?? null,
      distanceMetres: roundHalfAway(hit.distance, 2),
      bearingDegrees: roundHalfAway(hit.bearing, 1),
      position: { latitude: hit.position.latitude, longitude: hit.position.longitude },
      geoURI: `geo:${geoCoordinate(hit.position.latitude)},${geoCoordinate(hit.position.longitude)}`,
      pin: hit.properties.pin ?? null,
    })),
  };
}

// Angles in degrees, as ARAngles.swift reduces them.
const normalizedDegrees = (degrees) => {
  const r = degrees % 360;
  const n = r < 0 ? r + 360 : r;
  return n >= 360 ? n - 360 : n;
};
const wrappedDegrees = (degrees) => {
  let r = degrees % 360;
  if (r > 180) r -= 360;
  if (r <= -180) r += 360;
  return r;
};
const radians = (degrees) => (degrees * Math.PI) / 180;

// A label's width is counted in what people see as characters, as Swift's String.count counts.
const graphemes = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter() : null;
const characterCount = (text) => (graphemes ? [...graphemes.segment(text)].length : [...text].length);

// AROptions' defaults: what /v1/ar computes with.
const AR_OPTIONS = {
  earthRadius: 6371008.8, nearDistance: 50, farDistance: 2000, minScale: 0.4,
  labelCharacterWidth: 8, labelPadding: 6, labelHeight: 24,
};

// GET /v1/ar from `collection`, for the query `query`; null when the service would have
// refused the question.
function offlineAR(collection, query) {
  const lat = queryNumber(query, "lat", -90, 90);
  const lon = queryNumber(query, "lon", -180, 180);
  const heading = queryNumber(query, "heading", -360, 360);
  const reference = query.get("heading-ref") || "true";
  const declination = queryNumber(query, "declination", -180, 180, 0);
  const pitch = queryNumber(query, "pitch", -90, 90, 0);
  const roll = queryNumber(query, "roll", -180, 180, 0);
  const hfov = queryNumber(query, "hfov", 0, 180, 60);
  const width = queryNumber(query, "width", 0, 100000, 1080);
  const height = queryNumber(query, "height", 0, 100000, 1920);
  const altitude = queryNumber(query, "altitude", -500, 9000, 0);
  const maxDistance = queryNumber(query, "max-distance", 0, Infinity);
  const curvature = queryFlag(query, "curvature");
  const visibleOnly = queryFlag(query, "visible-only");
  const numbers = [lat, lon, heading, declination, pitch, roll, hfov, width, height, altitude];
  if (numbers.some((value) => value == null) || maxDistance === undefined || curvature === undefined || visibleOnly === undefined) return null;
  if (!["true", "magnetic"].includes(reference) || !(hfov > 0 && hfov < 180) || !(width > 0) || !(height > 0)) return null;
  let vfov = queryNumber(query, "vfov", 0, 180);
  if (vfov === undefined || (vfov !== null && !(vfov > 0 && vfov < 180))) return null;
  vfov ??= (2 * Math.atan(Math.tan(radians(hfov) / 2) * height / width) * 180) / Math.PI;

  const camera = {
    latitude: lat, longitude: lon, altitude,
    heading: reference === "magnetic" ? normalizedDegrees(heading + declination) : normalizedDegrees(heading),
    pitch, roll, hfov, vfov, width, height,
  };
  const focalX = width / 2 / Math.tan(radians(hfov) / 2);
  const focalY = height / 2 / Math.tan(radians(vfov) / 2);

  // Each target's label before stacking (AROverlay.project): pinhole camera, yaw, pitch, roll.
  const labels = [];
  collection.features.forEach((feature, index) => {
    const position = featurePosition(feature);
    if (!position) return;
    const properties = feature.properties || {};
    const name = properties.name != null && properties.name !== "" ? String(properties.name) : String(feature.id);
    const { distance: d, bearing } = geodesicInverse(lat, lon, position.latitude, position.longitude);
    const drop = curvature ? (d * d) / (2 * AR_OPTIONS.earthRadius) : 0;
    // The layer's GeoJSON carries no altitude: every target is at the device's.
    const up = -drop;
    const beta = radians(bearing), psi = radians(camera.heading), theta = radians(pitch), phi = radians(roll);
    const e = d * Math.sin(beta), n = d * Math.cos(beta);
    const forward = e * Math.sin(psi) + n * Math.cos(psi);
    const right = e * Math.cos(psi) - n * Math.sin(psi);
    const z = forward * Math.cos(theta) + up * Math.sin(theta);
    const y1 = -forward * Math.sin(theta) + up * Math.cos(theta);
    const x = right * Math.cos(phi) - y1 * Math.sin(phi);
    const y = right * Math.sin(phi) + y1 * Math.cos(phi);
    const range = Math.sqrt(x * x + y * y + z * z);
    const px = width / 2 + (focalX * x) / z;
    const py = height / 2 - (focalY * y) / z;
    let sx = null, sy = null, visible = false;
    if (z > 1e-12 * range && Number.isFinite(px) && Number.isFinite(py)) {
      sx = px;
      sy = py;
      const eps = 1e-9;
      visible = px >= -eps && px <= width + eps && py >= -eps && py <= height + eps && (maxDistance === null || d <= maxDistance);
    }
    const t = Math.min(Math.max((d - AR_OPTIONS.nearDistance) / (AR_OPTIONS.farDistance - AR_OPTIONS.nearDistance), 0), 1);
    const scale = 1 - (1 - AR_OPTIONS.minScale) * t;
    labels.push({
      index, id: String(feature.id), name, distance: d, bearing, relativeBearing: wrappedDegrees(bearing - camera.heading),
      elevation: (Math.atan2(up, d) * 180) / Math.PI, x: sx, y: sy, visible, scale, stackLevel: 0,
      width: (characterCount(name) * AR_OPTIONS.labelCharacterWidth + 2 * AR_OPTIONS.labelPadding) * scale,
      height: AR_OPTIONS.labelHeight * scale,
    });
  });
  labels.sort((a, b) => a.distance - b.distance || a.index - b.index);

  // Stacked, nearest in front: a visible label overlapping a nearer one moves up by its own
  // height until it overlaps none; touching edges do not overlap.
  const placed = [];
  const overlaps = (p, q) => p.minX < q.maxX - 1e-9 && q.minX < p.maxX - 1e-9 && p.minY < q.maxY - 1e-9 && q.minY < p.maxY - 1e-9;
  const rectangle = (label, y) => ({ minX: label.x - label.width / 2, maxX: label.x + label.width / 2, minY: y - label.height / 2, maxY: y + label.height / 2 });
  for (const label of labels) {
    if (!label.visible || label.x === null || !(label.height > 0)) continue;
    let y = label.y;
    let rect = rectangle(label, y);
    while (placed.some((other) => overlaps(other, rect))) {
      label.stackLevel += 1;
      y -= label.height;
      rect = rectangle(label, y);
    }
    label.y = y;
    placed.push(rect);
  }

  const shown = visibleOnly ? labels.filter((label) => label.visible) : labels;
  return {
    camera: { ...camera, heading: roundHalfAway(camera.heading, 2), vfov: roundHalfAway(camera.vfov, 3) },
    visibleCount: labels.filter((label) => label.visible).length,
    labels: shown.map((label) => ({
      bearing: roundHalfAway(label.bearing, 2),
      distance: roundHalfAway(label.distance, 1),
      elevation: roundHalfAway(label.elevation, 3),
      height: roundHalfAway(label.height, 1),
      id: label.id,
      name: label.name,
      relativeBearing: roundHalfAway(label.relativeBearing, 2),
      scale: roundHalfAway(label.scale, 3),
      stackLevel: label.stackLevel,
      visible: label.visible,
      width: roundHalfAway(label.width, 1),
      x: label.x === null ? null : roundHalfAway(label.x, 1),
      y: label.y === null ? null : roundHalfAway(label.y, 1),
    })),
  };
}

// The AR view: the rear camera's picture with /v1/ar's labels over it, where the phone points.
// The service does the geometry (bearings, projection, stacking); the page only reads the
// sensors, asks, and puts each label where the answer says.
"use strict";

// Valencia's magnetic declination, east positive: the World Magnetic Model (WMM2025) gives +1.5°
// at the Plaza del Ayuntamiento at the end of 2026, growing by about 0.13° a year. Every label is
// a falla, all in Valencia, so one value serves the layer. Both compasses a phone browser offers
// are magnetic: iOS's webkitCompassHeading, and deviceorientationabsolute, which Chrome on
// Android fills from the platform's rotation vector, whose north is the magnetic one.
const AR_DECLINATION = 1.5;
// The rear camera's field of view across the long side of its picture, degrees. Browsers do not
// tell it; a phone's main camera is 65° to 75° (a 24–28 mm equivalent lens on a 4:3 picture).
// The field shown follows from it and from how much of the picture the screen crops.
const AR_CAMERA_FOV = 65;
// Asked again after a turn of 2°, at most four times a second: a hand's tremble asks nothing,
// and a turning hand is followed without a request per sensor event.
const AR_MIN_TURN = 2;
const AR_MIN_INTERVAL_MS = 250;
// Tilting and walking also move the labels: the same 2° for the pitch, and 3 m of position.
const AR_MIN_TILT = 2;
const AR_MIN_STEP_METRES = 3;
// The sensors' readings are smoothed on a clock of their own, not per event: a browser fires an
// orientation event only when the reading changes, so a still phone would never let the filter
// settle. The weight of the latest reading at each tick: about half a second to settle.
const AR_TICK_MS = 50;
const AR_SMOOTHING = 0.3;
// The camera pointing more than 65° below the horizon is a phone laid flat (in portrait:
// |beta| < 25°): the user has gone back to the map.
const AR_FLAT_PITCH = -65;
const AR_FLAT_FOR_MS = 300;
// Beyond these the labels may be in the wrong place: iOS's compass accuracy (degrees either way;
// negative when it has none) and the GPS's (metres).
const AR_MAX_COMPASS_ERROR = 15;
const AR_MAX_GPS_ERROR = 50;
// Without an absolute reading by then, the device has no compass the page can use.
const AR_NO_COMPASS_AFTER_MS = 2000;
const DEGREES = Math.PI / 180;

const arView = {
  open: false,
  // Bumped on every opening and closing: a promise of an earlier opening (the camera, the
  // permission) that settles late finds it changed and gives back what it got.
  generation: 0,
  stream: null,
  watch: null,
  ticker: 0,
  noCompassTimer: 0,
  // "absolute" (deviceorientationabsolute), "webkit" (iOS), "slider" (no compass), or null.
  source: null,
  // The latest heading read (degrees, magnetic) and the compass's accuracy (null: unknown).
  reading: null,
  compassError: null,
  // The heading smoothed on the circle: the mean of sin and cos, so that 359° and 1° give 0°.
  sin: 0,
  cos: 0,
  heading: null,
  pitch: 0,
  flatSince: 0,
  position: null,
  // The last question asked: its heading, pitch, point and size, and when.
  asked: null,
  askedAt: -Infinity,
  // Every question is numbered; an answer older than the one shown is dropped.
  sequence: 0,
  shown: 0,
  elements: null,
  labels: new Map(),
  listText: "",
  messages: { compass: null, position: null, camera: null },
};

const normalizedDegrees = (degrees) => ((degrees % 360) + 360) % 360;
// The smallest turn between two headings, degrees in [0, 180].
const turnBetween = (a, b) => Math.abs(((a - b + 540) % 360) - 180);

// The compass heading of the back of the device (where the rear camera looks), from the angles
// of an absolute orientation: the DeviceOrientation spec's worked example (appendix A.1). That
// vector is fixed to the device, so the same formula holds in portrait and in landscape: turning
// the screen does not turn the camera.
function headingFromAngles(alpha, beta, gamma) {
  const a = alpha * DEGREES, b = beta * DEGREES, g = gamma * DEGREES;
  const x = -Math.cos(a) * Math.sin(g) - Math.sin(a) * Math.sin(b) * Math.cos(g);
  const y = -Math.sin(a) * Math.sin(g) + Math.cos(a) * Math.sin(b) * Math.cos(g);
  return normalizedDegrees(Math.atan2(x, y) / DEGREES);
}

// How far the back of the device points above the horizon: the same vector's vertical part.
// Upright in portrait (gamma 0) it is beta − 90, so beta 90 is level; it stays right in landscape,
// where beta is near 0 and gamma near ±90.
function pitchFromAngles(beta, gamma) {
  const up = -Math.cos(beta * DEGREES) * Math.cos(gamma * DEGREES);
  return Math.asin(Math.max(-1, Math.min(1, up))) / DEGREES;
}

// How far the screen is turned from the device's natural orientation, degrees.
function screenAngle() {
  if (screen.orientation && Number.isFinite(screen.orientation.angle)) return screen.orientation.angle;
  return Number(window.orientation) || 0;
}

function stopStream(stream) {
  for (const track of stream.getTracks()) track.stop();
}

function arElement(tag, className, parent) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (parent) parent.append(element);
  return element;
}

// A word of the dictionary in `element`, written again when the language changes.
function arWord(element, key) {
  element.dataset.i18n = key;
  element.textContent = t(key);
  return element;
}

// The view's elements, made once, the first time it opens.
function arBuild() {
  const view = arElement("section", "", document.body);
  view.id = "ar-view";
  view.hidden = true;
  view.setAttribute("aria-labelledby", "ar-title");
  const video = arElement("video", "", view);
  video.id = "ar-video";
  video.muted = true;
  video.playsInline = true;
  video.setAttribute("playsinline", "");
  video.setAttribute("aria-hidden", "true");
  const layer = arElement("div", "", view);
  layer.id = "ar-labels";
  const bar = arElement("div", "ar-bar", view);
  const title = arWord(arElement("h2", "", bar), "arTitle");
  title.id = "ar-title";
  const readout = arElement("output", "", bar);
  readout.id = "ar-readout";
  const close = arWord(arElement("button", "", bar), "arClose");
  close.type = "button";
  close.id = "ar-close";
  close.addEventListener("click", () => arClose("closed"));
  const messages = arElement("div", "ar-messages", view);
  const status = arElement("p", "ar-status", messages);
  status.id = "ar-status";
  status.setAttribute("role", "status");
  status.hidden = true;
  const hint = arElement("p", "ar-hint", messages);
  hint.id = "ar-hint";
  hint.setAttribute("role", "status");
  hint.hidden = true;
  const sliderBox = arElement("label", "ar-slider", view);
  sliderBox.hidden = true;
  arWord(arElement("span", "", sliderBox), "heading");
  const slider = arElement("input", "", sliderBox);
  slider.id = "ar-heading";
  slider.type = "range";
  slider.min = "0";
  slider.max = "359";
  slider.step = "1";
  slider.value = "0";
  slider.addEventListener("input", () => {
    if (arView.source === "slider") arSetHeading(Number(slider.value));
  });
  const details = arElement("div", "ar-details", view);
  details.id = "ar-details";
  details.setAttribute("role", "dialog");
  details.setAttribute("aria-labelledby", "ar-details-name");
  details.hidden = true;
  const listTitle = arWord(arElement("h3", "visually-hidden", view), "arList");
  listTitle.id = "ar-list-title";
  const list = arElement("ol", "visually-hidden", view);
  list.id = "ar-list";
  list.setAttribute("aria-live", "polite");
  list.setAttribute("aria-labelledby", "ar-list-title");
  arView.elements = { view, video, layer, readout, status, hint, sliderBox, slider, details, list };
}

// What the view lacks, one line each: the compass, the position, the camera. `key` is a word of
// the dictionary, null when that part works.
function arStatus(part, key) {
  arView.messages[part] = key;
  const status = arView.elements.status;
  const lines = ["compass", "position", "camera"].filter((name) => arView.messages[name]);
  status.replaceChildren(...lines.map((name) => arWord(arElement("span", "ar-status-line"), arView.messages[name])));
  status.hidden = lines.length === 0;
}

// Opens the view. Everything that needs the tap's user activation (iOS's orientation permission,
// the camera) is asked before the first await.
async function arOpen() {
  if (arView.open) return;
  if (!arView.elements) arBuild();
  const orientationAllowed =
    typeof DeviceOrientationEvent !== "undefined" && typeof DeviceOrientationEvent.requestPermission === "function"
      ? DeviceOrientationEvent.requestPermission().catch(() => "denied")
      : Promise.resolve("granted");
  // The rear camera as a preference, not `exact`: a laptop's only camera, or a browser that
  // reports no facing mode, still gives a picture.
  const camera =
    navigator.mediaDevices && navigator.mediaDevices.getUserMedia
      ? navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false })
      : Promise.reject(new Error("no camera"));
  camera.catch(() => {});
  const generation = ++arView.generation;
  Object.assign(arView, {
    open: true, source: null, reading: null, compassError: null, heading: null, pitch: 0, flatSince: 0,
    position: null, asked: null, askedAt: -Infinity, shown: arView.sequence, listText: "",
  });
  const { view, layer, list, details, sliderBox, hint } = arView.elements;
  layer.replaceChildren();
  arView.labels.clear();
  list.replaceChildren();
  details.hidden = true;
  sliderBox.hidden = true;
  hint.hidden = true;
  for (const part of Object.keys(arView.messages)) arStatus(part, null);
  view.hidden = false;
  document.body.classList.add("ar-open");
  $("ar-close").focus();

  if ("geolocation" in navigator) {
    arView.watch = navigator.geolocation.watchPosition(arPositionFound, arPositionFailed, POSITION_OPTIONS);
  } else {
    arPositionFailed({ code: 2 });
  }
  arView.ticker = setInterval(arTick, AR_TICK_MS);

  const permission = await orientationAllowed;
  if (generation !== arView.generation) {
    camera.then(stopStream, () => {});
    return;
  }
  if (permission === "granted") {
    window.addEventListener("deviceorientationabsolute", arAbsoluteOrientation);
    window.addEventListener("deviceorientation", arOrientation);
    arView.noCompassTimer = setTimeout(() => {
      if (arView.source === null) arNoCompass();
    }, AR_NO_COMPASS_AFTER_MS);
  } else {
    arNoCompass("arOrientationDenied");
  }

  let stream;
  try {
    stream = await camera;
  } catch (error) {
    if (generation === arView.generation) arStatus("camera", "arNoCamera");
    return;
  }
  if (generation !== arView.generation) {
    stopStream(stream);
    return;
  }
  arView.stream = stream;
  const video = arView.elements.video;
  video.srcObject = stream;
  video.play().catch(() => {});
}

// Closes the view and gives back everything it holds: camera, sensors, position, clock.
function arClose(reason) {
  if (!arView.open) return;
  arView.open = false;
  arView.generation++;
  window.removeEventListener("deviceorientationabsolute", arAbsoluteOrientation);
  window.removeEventListener("deviceorientation", arOrientation);
  if (arView.watch !== null) navigator.geolocation.clearWatch(arView.watch);
  arView.watch = null;
  clearInterval(arView.ticker);
  clearTimeout(arView.noCompassTimer);
  if (arView.stream) stopStream(arView.stream);
  arView.stream = null;
  const { view, video } = arView.elements;
  video.pause();
  video.srcObject = null;
  view.hidden = true;
  view.dataset.closed = reason;
  document.body.classList.remove("ar-open");
  // Laid flat, the user is back on the map; closed by hand, back on the button that opened it.
  if (reason === "flat") $("map").focus();
  else if (reason !== "hidden") $("ar-open").focus();
}

function arAbsoluteOrientation(event) {
  if (event.alpha === null || event.beta === null || event.gamma === null) {
    // Chrome's answer when the device has no absolute orientation: one event with no angles.
    if (arView.source === null) arNoCompass();
    return;
  }
  if (arView.source === "webkit") return;
  arCompassSource("absolute");
  arView.reading = headingFromAngles(event.alpha, event.beta, event.gamma);
  // The event says nothing of the magnetometer's calibration.
  arView.compassError = null;
  arView.pitch = pitchFromAngles(event.beta, event.gamma);
}

function arOrientation(event) {
  if (typeof event.webkitCompassHeading === "number" && event.webkitCompassHeading >= 0) {
    // iOS measures the heading of the top of the device as if it were in portrait; turning the
    // screen by its angle turns that edge away from where the camera looks.
    arCompassSource("webkit");
    arView.reading = normalizedDegrees(event.webkitCompassHeading + screenAngle());
    const accuracy = event.webkitCompassAccuracy;
    arView.compassError = typeof accuracy === "number" ? accuracy : null;
  }
  // Only the tilt is taken from any other event: an orientation relative to wherever the
  // device started is no compass, and a label drawn from it would point the wrong way.
  if (event.beta !== null && event.gamma !== null && arView.source !== "absolute") {
    arView.pitch = pitchFromAngles(event.beta, event.gamma);
  }
}

function arCompassSource(source) {
  if (arView.source === source) return;
  const fromSlider = arView.source === "slider";
  arView.source = source;
  clearTimeout(arView.noCompassTimer);
  if (fromSlider) {
    arView.elements.sliderBox.hidden = true;
    arStatus("compass", null);
    arView.heading = null;
  }
}

// No compass: the user turns the view with the slider, from the heading last shown.
function arNoCompass(reason = "arNoCompass") {
  clearTimeout(arView.noCompassTimer);
  arView.source = "slider";
  arView.reading = null;
  arView.compassError = null;
  arStatus("compass", reason);
  const { sliderBox, slider } = arView.elements;
  sliderBox.hidden = false;
  arSetHeading(arView.heading ?? Number($("heading").value));
  slider.value = String(Math.round(arView.heading));
}

function arSetHeading(heading) {
  arView.heading = normalizedDegrees(heading);
  arView.sin = Math.sin(arView.heading * DEGREES);
  arView.cos = Math.cos(arView.heading * DEGREES);
}

function arPositionFound(position) {
  const { latitude: lat, longitude: lon, accuracy } = position.coords;
  arView.position = { lat, lon, accuracy };
  if (arView.messages.position) arStatus("position", null);
}

// Without a position the labels are those of the point asked on the map, if any, and greyed:
// nobody knows how far the user is from it.
function arPositionFailed(error) {
  if (error.code === 1) {
    if (arView.watch !== null) navigator.geolocation.clearWatch(arView.watch);
    arView.watch = null;
    arStatus("position", "positionDenied");
  } else if (!arView.position) {
    arStatus("position", "positionUnavailable");
  }
  if (!arView.position && lastPoint) arView.position = { lat: lastPoint.lat, lon: lastPoint.lon, accuracy: Infinity };
}

function arTick() {
  if (!arView.open) return;
  const now = performance.now();
  if (arView.source !== "slider" && arView.reading !== null) {
    const r = arView.reading * DEGREES;
    if (arView.heading === null) {
      arView.sin = Math.sin(r);
      arView.cos = Math.cos(r);
    } else {
      arView.sin += AR_SMOOTHING * (Math.sin(r) - arView.sin);
      arView.cos += AR_SMOOTHING * (Math.cos(r) - arView.cos);
    }
    if (arView.sin * arView.sin + arView.cos * arView.cos > 1e-12) {
      arView.heading = normalizedDegrees(Math.atan2(arView.sin, arView.cos) / DEGREES);
    }
  }
  if (arView.pitch < AR_FLAT_PITCH) {
    arView.flatSince ||= now;
    if (now - arView.flatSince >= AR_FLAT_FOR_MS) {
      arClose("flat");
      return;
    }
  } else {
    arView.flatSince = 0;
  }
  arShowCertainty();
  arMaybeAsk(now);
}

// Grey labels and a hint when they may be misplaced: a compass of unknown or poor accuracy, or a
// GPS fix worse than 50 m.
function arShowCertainty() {
  const { layer, hint } = arView.elements;
  const lines = [];
  if (arView.source === "absolute" || arView.source === "webkit") {
    const error = arView.compassError;
    if (error === null) lines.push(t("arCompassUnknown"));
    else if (error < 0 || error > AR_MAX_COMPASS_ERROR) lines.push(t("arCompassPoor"));
  }
  const position = arView.position;
  if (position && !(position.accuracy <= AR_MAX_GPS_ERROR)) {
    const accuracy = Number.isFinite(position.accuracy);
    lines.push(accuracy ? `${t("arGpsPoor")} (±${metres(position.accuracy)})` : t("arGpsNone"));
  }
  const text = lines.join(" ");
  layer.classList.toggle("ar-uncertain", lines.length > 0);
  if (hint.textContent !== text) hint.textContent = text;
  hint.hidden = lines.length === 0;
}

// The size the labels are asked for (the video's box on the page) and the field of view the box
// shows: the camera's picture fills the box and is cropped (`object-fit: cover`), so the box
// shows the part of the camera's field that its width keeps.
function arFrame() {
  const { video } = arView.elements;
  const box = video.getBoundingClientRect();
  const width = Math.round(box.width), height = Math.round(box.height);
  if (!(width > 0 && height > 0)) return null;
  const long = Math.tan((AR_CAMERA_FOV / 2) * DEGREES);
  let hfov;
  if (video.videoWidth > 0 && video.videoHeight > 0) {
    // Focal length in the picture's pixels, then in the box's after the cover scale.
    const focal = Math.max(video.videoWidth, video.videoHeight) / 2 / long;
    const scale = Math.max(width / video.videoWidth, height / video.videoHeight);
    hfov = (2 * Math.atan(width / 2 / (focal * scale))) / DEGREES;
  } else {
    // No picture (no camera): the field the camera would show across the box's long side.
    hfov = width >= height ? AR_CAMERA_FOV : (2 * Math.atan((long * width) / height)) / DEGREES;
  }
  return { width, height, hfov };
}

function arMaybeAsk(now) {
  const position = arView.position;
  if (!position || arView.heading === null || now - arView.askedAt < AR_MIN_INTERVAL_MS) return;
  const frame = arFrame();
  if (!frame) return;
  const asked = arView.asked;
  const moved =
    !asked ||
    turnBetween(arView.heading, asked.heading) >= AR_MIN_TURN ||
    Math.abs(arView.pitch - asked.pitch) >= AR_MIN_TILT ||
    map.distance([position.lat, position.lon], [asked.lat, asked.lon]) >= AR_MIN_STEP_METRES ||
    frame.width !== asked.width || frame.height !== asked.height || Math.abs(frame.hfov - asked.hfov) > 0.01 ||
    arView.source !== asked.source;
  if (!moved) return;
  arView.askedAt = now;
  const { heading, pitch, source } = arView;
  arView.asked = { heading, pitch, lat: position.lat, lon: position.lon, ...frame, source };
  arAsk(arView.asked);
}

async function arAsk(asked) {
  const sequence = ++arView.sequence;
  // The slider is the user's own guess at where north is, on the screen: a true heading.
  const magnetic = asked.source !== "slider";
  const query = new URLSearchParams({
    lat: asked.lat.toFixed(6), lon: asked.lon.toFixed(6), heading: asked.heading.toFixed(1),
    "heading-ref": magnetic ? "magnetic" : "true", pitch: asked.pitch.toFixed(1),
    width: String(asked.width), height: String(asked.height), hfov: asked.hfov.toFixed(2),
    "visible-only": "true", layer: "fallas",
  });
  if (magnetic) query.set("declination", String(AR_DECLINATION));
  let answer;
  try {
    answer = await getJSON(`/v1/ar?${query}`);
  } catch (error) {
    if (arView.open) arView.elements.readout.textContent = `${t("error")}: ${error.message}`;
    return;
  }
  // An answer overtaken by a newer one already shown would put the labels back where they were.
  if (!arView.open || sequence <= arView.shown) return;
  arView.shown = sequence;
  arView.elements.view.dataset.query = query.toString();
  arDraw(answer);
}

function arDraw(answer) {
  const { video, layer, readout } = arView.elements;
  const box = video.getBoundingClientRect();
  // The answer was asked at the box's size then; the box may have changed since.
  const scaleX = box.width / answer.camera.width, scaleY = box.height / answer.camera.height;
  const seen = new Set();
  // Far labels first in the document, so that the nearest are drawn on top.
  for (const label of [...answer.labels].reverse()) {
    if (label.x === null || label.y === null) continue;
    seen.add(label.id);
    let element = arView.labels.get(label.id);
    if (!element) {
      element = arElement("button", "ar-label");
      element.type = "button";
      element.dataset.id = label.id;
      arElement("span", "ar-label-distance", element);
      arElement("span", "ar-label-name", element);
      element.addEventListener("click", () => arDetails(element.label));
      arView.labels.set(label.id, element);
    }
    element.label = label;
    element.firstChild.textContent = metres(label.distance);
    element.lastChild.textContent = label.name;
    element.setAttribute("aria-label", `${label.name}, ${metres(label.distance)}`);
    // The service sized the label for its stacking (height and width at scale 1, then scaled):
    // the element takes that box, so that stacked labels touch and do not overlap.
    element.style.width = `${(label.width / label.scale) * scaleX}px`;
    element.style.height = `${(label.height / label.scale) * scaleY}px`;
    element.style.left = `${label.x * scaleX}px`;
    element.style.top = `${label.y * scaleY}px`;
    element.style.transform = `translate(-50%, -50%) scale(${label.scale})`;
    layer.append(element);
  }
  for (const [id, element] of arView.labels) {
    if (!seen.has(id)) {
      element.remove();
      arView.labels.delete(id);
    }
  }
  readout.textContent = `${Math.round(answer.camera.heading)}° · ${answer.visibleCount} ${t("arVisible")}`;
  // The spoken list changes only when its words do, nearest first, as the answer lists them.
  const lines = answer.labels.filter((label) => label.x !== null).map((label) => `${label.name}, ${metres(label.distance)}`);
  const text = lines.join("\n");
  if (text !== arView.listText) {
    arView.listText = text;
    arView.elements.list.replaceChildren(
      ...lines.map((line) => {
        const item = document.createElement("li");
        item.textContent = line;
        return item;
      }),
    );
  }
}

// A label's details, as the answer gives them.
function arDetails(label) {
  const { details } = arView.elements;
  const name = arElement("h3");
  name.id = "ar-details-name";
  name.textContent = label.name;
  const facts = arElement("ul");
  for (const line of [
    `${metres(label.distance)}`,
    `${t("bearing")} ${Math.round(label.bearing)}°`,
    `${t("arElevation")} ${label.elevation.toFixed(1)}°`,
  ]) {
    arElement("li", "", facts).textContent = line;
  }
  const close = arWord(arElement("button"), "arClose");
  close.type = "button";
  close.addEventListener("click", () => {
    details.hidden = true;
  });
  details.replaceChildren(name, facts, close);
  details.dataset.id = label.id;
  details.hidden = false;
  close.focus();
}

$("ar-open").addEventListener("click", arOpen);
document.addEventListener("visibilitychange", () => {
  if (document.hidden) arClose("hidden");
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && arView.open) {
    if (!arView.elements.details.hidden) arView.elements.details.hidden = true;
    else arClose("closed");
  }
});

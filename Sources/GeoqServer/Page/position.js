// "My position": a control on the map that finds the device, centres the map on it with its
// accuracy circle and asks the questions there, as a click on the map does; the position follows
// while the page is visible. Without permission the map works as before, and the control says why
// it cannot help.
"use strict";

// High accuracy: in a street of fallas, the network's fix (often 100 m and more) puts the user
// on the wrong side of a block. A fix up to ten seconds old is still where someone walking is.
const POSITION_OPTIONS = { enableHighAccuracy: true, maximumAge: 10000, timeout: 30000 };
// A new fix asks the questions again only this far from the point last asked for the position:
// the answers (nearest fallas, services) do not change within a few steps, and each one is a
// handful of requests.
const POSITION_REASK_METRES = 30;
// The zoom the first fix opens at, close enough to see the circle of a good fix.
const POSITION_ZOOM = 17;

const myPosition = {
  // What the user asked for: watching resumes when the page is visible again.
  wanted: false,
  // The id of watchPosition while watching, else null.
  watch: null,
  // The map stays centred on the position until the user moves the map away.
  following: true,
  // The last fix: { lat, lon, accuracy }.
  fix: null,
  // Where the questions were last asked for the position.
  asked: null,
  circle: L.circle([0, 0], {
    radius: 1, className: "position-accuracy", color: "#1e63c6", weight: 1, fillOpacity: 0.12, interactive: false,
  }),
  dot: L.circleMarker([0, 0], {
    radius: 6, className: "position-dot", color: "#fff", weight: 2, fillColor: "#1e63c6", fillOpacity: 1, interactive: false,
  }),
  button: null,
  message: null,
};

// The message under the control, by its key in the dictionary, so that a change of language
// writes it again; null hides it.
function positionMessage(key) {
  const message = myPosition.message;
  if (!key) {
    message.hidden = true;
    delete message.dataset.i18n;
    return;
  }
  message.dataset.i18n = key;
  message.textContent = t(key);
  message.hidden = false;
}

function positionFound(position) {
  const { latitude: lat, longitude: lon, accuracy } = position.coords;
  const first = !myPosition.fix;
  myPosition.fix = { lat, lon, accuracy };
  myPosition.circle.setLatLng([lat, lon]).setRadius(accuracy).addTo(map);
  myPosition.dot.setLatLng([lat, lon]).addTo(map);
  positionMessage(null);
  if (myPosition.following) {
    if (first) map.setView([lat, lon], Math.max(map.getZoom(), POSITION_ZOOM), { animate: false });
    else map.panTo([lat, lon], { animate: false });
  }
  if (!myPosition.asked || map.distance(myPosition.asked, [lat, lon]) >= POSITION_REASK_METRES) {
    myPosition.asked = L.latLng(lat, lon);
    ask(lat, lon);
  }
}

function positionFailed(error) {
  if (error.code === error.PERMISSION_DENIED) {
    // Asking again would only fail again: the user has to allow it in the browser.
    stopPosition();
    positionMessage("positionDenied");
    return;
  }
  // Unavailable or timed out: watchPosition keeps trying, the message says why nothing shows.
  positionMessage("positionUnavailable");
}

function watchPositionNow() {
  if (myPosition.watch !== null) return;
  myPosition.watch = navigator.geolocation.watchPosition(positionFound, positionFailed, POSITION_OPTIONS);
}

function unwatchPosition() {
  if (myPosition.watch === null) return;
  navigator.geolocation.clearWatch(myPosition.watch);
  myPosition.watch = null;
}

function startPosition() {
  if (!("geolocation" in navigator)) {
    positionMessage("positionUnavailable");
    return;
  }
  myPosition.wanted = true;
  myPosition.following = true;
  myPosition.asked = null;
  myPosition.button.setAttribute("aria-pressed", "true");
  if (!document.hidden) watchPositionNow();
}

function stopPosition() {
  myPosition.wanted = false;
  unwatchPosition();
  myPosition.button.setAttribute("aria-pressed", "false");
}

// A first press starts; a press while the map has wandered off the position brings it back; a
// press while following stops.
function togglePosition() {
  if (!myPosition.wanted) {
    startPosition();
  } else if (!myPosition.following && myPosition.fix) {
    myPosition.following = true;
    map.setView([myPosition.fix.lat, myPosition.fix.lon], Math.max(map.getZoom(), POSITION_ZOOM), { animate: false });
  } else {
    stopPosition();
    myPosition.circle.remove();
    myPosition.dot.remove();
    myPosition.fix = null;
  }
}

const PositionControl = L.Control.extend({
  options: { position: "topleft" },

  onAdd() {
    const box = L.DomUtil.create("div", "leaflet-bar position-control");
    const button = L.DomUtil.create("button", "position-button", box);
    button.type = "button";
    button.id = "my-position";
    button.setAttribute("aria-pressed", "false");
    const icon = L.DomUtil.create("span", "position-icon", button);
    icon.setAttribute("aria-hidden", "true");
    icon.textContent = "◎";
    const word = L.DomUtil.create("span", "", button);
    word.dataset.i18n = "myPosition";
    word.textContent = t("myPosition");
    const message = L.DomUtil.create("p", "position-message", box);
    message.id = "position-message";
    message.setAttribute("role", "status");
    message.hidden = true;
    myPosition.button = button;
    myPosition.message = message;
    // The control sits on the map: its clicks are not clicks on the map (which would ask there).
    L.DomEvent.disableClickPropagation(box);
    L.DomEvent.on(button, "click", togglePosition);
    return box;
  },
});

new PositionControl().addTo(map);
// Moving the map by hand is looking elsewhere: the position keeps updating but stops pulling the
// map back.
map.on("dragstart", () => {
  myPosition.following = false;
});
// A hidden page has nobody looking at it: the receiver is switched off, which saves the
// battery, and switched on again when the page is seen.
document.addEventListener("visibilitychange", () => {
  if (document.hidden) unwatchPosition();
  else if (myPosition.wanted) watchPositionNow();
});

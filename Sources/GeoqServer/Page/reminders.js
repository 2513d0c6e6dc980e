// "Remind me": a push notification before the parking ticket the page shows ends, the page open
// or not. The button's press (the gesture the permission needs) asks for notifications,
// subscribes this browser through the page's service worker with the service's VAPID key, gives
// the subscription to the service with the tab's device token (map.js takes it from the app's
// link) and buys the ticket (POST /v1/park with reminder=10), whose reminder the service then
// pushes. map.js loads this file after itself, only for a tab holding a token or opened from a
// reminder, so that no other visit pays for it.
"use strict";

(() => {
  // The words of what follows, shown only to those who use it, join map.js's dictionary here.
  const words = {
    es: {
      reminder: "Aviso", remindAt: "Aviso a las", remindNone: "Este tique no tiene aviso: termina en menos de 10 minutos o no hace falta.",
      remindNoTicket: "Elige un punto, la zona y los minutos o euros del tique.",
      remindDenied: "Sin permiso para notificaciones: no se ha puesto ningún aviso.", remindNoWorker: "Este navegador no puede recibir avisos.",
      remindExpired: "El enlace de la app ha caducado: vuelve a abrirlo desde la app.",
      remindRefused: "Este enlace no puede poner avisos para este dispositivo.", remindUnavailable: "Este servicio no tiene los avisos activados.",
      ticketNote: "Aviso de tu tique: la respuesta es para donde aparcaste.",
    },
    eu: {
      reminder: "Abisua", remindAt: "Abisuaren ordua:", remindNone: "Txartel honek ez du abisurik: 10 minutu baino lehen amaitzen da edo ez da behar.",
      remindNoTicket: "Aukeratu puntu bat, gunea eta txartelaren minutuak edo euroak.",
      remindDenied: "Jakinarazpenetarako baimenik ez: ez da abisurik jarri.", remindNoWorker: "Nabigatzaile honek ezin du abisurik jaso.",
      remindExpired: "Aplikazioaren estekak iraungi du: ireki berriro aplikaziotik.",
      remindRefused: "Esteka honek ezin du abisurik jarri gailu honetarako.", remindUnavailable: "Zerbitzu honek ez ditu abisuak aktibatuta.",
      ticketNote: "Zure txartelaren abisua: erantzuna aparkatu zenuen lekurakoa da.",
    },
    en: {
      reminder: "Reminder", remindAt: "Reminder at", remindNone: "No reminder for this ticket: it ends within 10 minutes, or needs none.",
      remindNoTicket: "Choose a point, the zone and the ticket's minutes or euros first.",
      remindDenied: "Notifications are not allowed: no reminder was set.", remindNoWorker: "This browser cannot receive reminders.",
      remindExpired: "The app's link has expired: open the page from the app again.",
      remindRefused: "This link may not set reminders for this device.", remindUnavailable: "This service has no reminders set up.",
      ticketNote: "Your ticket's reminder: the answer is for where you parked.",
    },
  };
  for (const [language, added] of Object.entries(words)) Object.assign(WORDS[language], added);
  const button = $("remind");
  const credential = sessionStorage.getItem("geoq-device-token");
  button.disabled = !credential;
  $("remind-hint").hidden = !!credential;

  // Opened from a reminder (its url names the ticket; map.js's `params` are the address as opened,
  // before the first question rewrote it): the first answer, for that place, says so; the next
  // question's answer replaces it.
  if (params.get("ticket")) {
    new PerformanceObserver((list, observer) => {
      if (!list.getEntriesByName("geoq-answer").length) return;
      observer.disconnect();
      if (lastPoint.lat !== Number(params.get("lat")) || lastPoint.lon !== Number(params.get("lon"))) return;
      const note = document.createElement("p");
      note.textContent = t("ticketNote");
      $("answer").prepend(note);
    }).observe({ type: "mark", buffered: true });
  }

  const show = (line) => {
    document.getElementById("reminder-answer")?.remove();
    const block = section(t("reminder"), [line]);
    block.id = "reminder-answer";
    $("answer").append(block);
  };
  const post = (path, body) => fetch(path, {
    method: "POST",
    headers: { Authorization: `Bearer ${credential}`, Accept: "application/json", "Accept-Language": lang, ...(body && { "Content-Type": "application/json" }) },
    body: body && JSON.stringify(body),
  });
  const base64url = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const REFUSED = { 401: "remindExpired", 403: "remindRefused", 503: "remindUnavailable" };
  class Refused extends Error {}
  const checked = async (response) => {
    if (response.ok) return response.json();
    const problem = await response.json().catch(() => null);
    throw new Refused(REFUSED[response.status] ? t(REFUSED[response.status]) : `${t("error")}: ${(problem && problem.detail) || response.status}`);
  };

  async function remind() {
    // The ticket the page shows: the parking answer's own question.
    const zone = $("zone").value, euros = $("ticket-euros").value, minutes = $("ticket-minutes").value;
    if (!lastPoint || !zone || !(euros || minutes)) return show(t("remindNoTicket"));
    if (!("serviceWorker" in navigator && "PushManager" in window && "Notification" in window)) return show(t("remindNoWorker"));
    if ((await Notification.requestPermission()) !== "granted") return show(t("remindDenied"));
    // The worker pwa.js registers; a browser that refuses it never gets ready.
    const registration = await Promise.race([navigator.serviceWorker.ready, new Promise((done) => setTimeout(done, 10000))]);
    if (!registration) return show(t("remindNoWorker"));
    const { publicKey } = await checked(await fetch("/v1/push/key"));
    let subscription = await registration.pushManager.getSubscription();
    // A subscription made for another key (the service's was replaced) reaches nobody.
    if (subscription && base64url(subscription.options.applicationServerKey) !== publicKey) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey });
    await checked(await post("/v1/push/subscriptions", { subscription: subscription.toJSON(), topics: ["news"] }));
    // Started this minute on the city's clock, so that a second press buys the same ticket.
    const at = new Date().toLocaleString("sv-SE", { timeZone: "Europe/Madrid" }).slice(0, 16).replace(" ", "T");
    const query = new URLSearchParams({ lat: lastPoint.lat.toFixed(6), lon: lastPoint.lon.toFixed(6), zone, at, reminder: "10", lang });
    query.set(euros ? "euros" : "minutes", euros || minutes);
    const park = await checked(await post(`/v1/park?${query}`));
    const first = park.reminders && park.reminders[0];
    if (!park.push || !park.push.messages || !first) return show(t("remindNone"));
    // Its time on the city's clock (the answer's own), with its day when that is not today (a
    // ticket bought while parking is free starts counting later).
    const when = new Date(first.at);
    const day = first.at.slice(0, 10) === at.slice(0, 10) ? "" : `${when.toLocaleDateString(lang, { weekday: "short", day: "numeric", month: "numeric", timeZone: "Europe/Madrid" })} `;
    show(`${t("remindAt")} ${day}${when.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "Europe/Madrid" })}`);
  }

  button.addEventListener("click", () => {
    button.disabled = true;
    remind()
      .catch((error) => show(error instanceof Refused ? error.message : `${t("error")}: ${error.message}`))
      .finally(() => { button.disabled = !credential; });
  });
})();

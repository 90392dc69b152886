// The café's service worker, served from the site's root (/sw.js) so that its scope is the whole café. It only
// shows the notices the café pushes (docs/protocol.md, "Web Push"): "your turn at Ann's table", "the game at Ann's
// table is over", already in the reader's language, with the table's link ("/#room=ID"). A click brings the table
// forward: a window of the café that is open already goes there, else a new one opens.

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data?.json() ?? {};
  } catch {
    return; // not one of the café's
  }
  if (typeof notice.title !== "string" || typeof notice.url !== "string") return;
  event.waitUntil(self.registration.showNotification(notice.title, {
    body: notice.body, tag: notice.tag, renotify: true, data: { url: notice.url },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? "", self.registration.scope); // the table, in the café
  if (url.origin !== new URL(self.registration.scope).origin) return;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const mine = open.find((client) => new URL(client.url).origin === url.origin);
    if (!mine) return self.clients.openWindow(url.href);
    await mine.focus();
    return mine.navigate(url.href).catch(() => self.clients.openWindow(url.href)); // a window it does not control
  })());
});

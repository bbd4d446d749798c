import { registerSW } from 'virtual:pwa-register';

/**
 * Registers the production build's service worker (web/installable-app.ts), which precaches the app so
 * that it opens offline. A new version waits for the person: `offerReload` asks them (app/offer-reload.ts),
 * and reloads into it when they say so.
 */
export function registerServiceWorker(offerReload: (reload: () => void) => void): void {
  const update = registerSW({
    // Called after the page has loaded: waiting for `load`, the default, would wait for ever.
    immediate: true,
    onNeedRefresh: () => offerReload(() => void update(true)),
  });
}

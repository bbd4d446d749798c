import { registerSW } from 'virtual:pwa-register';
import { toast } from '../../components/ui/toast.ts';

/**
 * Registers the production build's service worker (web/installable-app.ts), which precaches the app so
 * that it opens offline. A new version waits for the person: a toast offers to reload into it, as a page
 * taken over mid-edit would lose what is being typed.
 */
export function registerServiceWorker(): void {
  const update = registerSW({
    // Called after the page has loaded: waiting for `load`, the default, would wait for ever.
    immediate: true,
    onNeedRefresh: () =>
      toast.success('A new version of Tasklane is ready.', {
        duration: Infinity,
        action: { label: 'Reload', onClick: () => void update(true) },
      }),
  });
}

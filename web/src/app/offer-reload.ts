/**
 * A new version of the app waits for the person (lib/offline/service-worker.ts): a toast offers to reload
 * into it, as a page taken over mid-edit would lose what is being typed. The toast loads only then.
 */
export function offerReload(reload: () => void): void {
  void import('../components/ui/toast.ts').then(({ toast }) =>
    toast.success('A new version of Tasklane is ready.', {
      duration: Infinity,
      action: { label: 'Reload', onClick: reload },
    }),
  );
}

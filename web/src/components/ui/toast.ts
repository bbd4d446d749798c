import type * as Sonner from 'sonner';
import { mountToaster } from './toaster.tsx';

/**
 * `toast.success` / `toast.error` for screens that show before sonner has loaded (the board): the toast
 * appears once sonner and its toaster are there, a moment later at most. Screens behind a click may import
 * sonner's `toast` directly.
 */
export const toast = {
  /** `options`: sonner's, such as an `action` (a button beside the message) and its `duration`. */
  success: (message: string, options?: Sonner.ExternalToast) =>
    show((sonner) => sonner.toast.success(message, options)),
  error: (message: string) => show((sonner) => sonner.toast.error(message)),
};

function show(raise: (sonner: typeof Sonner) => unknown): void {
  mountToaster();
  void import('sonner').then(raise);
}

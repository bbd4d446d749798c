import styles from './visually-hidden.module.css';

let region: HTMLElement | undefined;

/**
 * Tells screen readers `message`, politely, and shows nothing: the status of a change whose result is
 * already on screen (an inline edit), which a toast would only cover (WCAG 2.2, 4.1.3 Status Messages).
 */
export function announce(message: string): void {
  const live = (region ??= createRegion());
  live.textContent = '';
  // Written a moment after it is emptied, so that the same message twice is announced twice.
  setTimeout(() => (live.textContent = message), 50);
}

function createRegion(): HTMLElement {
  const element = document.createElement('div');
  element.setAttribute('role', 'status');
  element.className = styles.hidden ?? '';
  document.body.append(element);
  return element;
}

/**
 * Runs `run` once nobody has pressed, moved or typed for `quietMs` and the browser is idle, and at the
 * latest after `latestMs`: for code a screen does not need to show (evaluating it must not land in the
 * middle of a drag), loaded after the screen has shown.
 */
export function whenQuiet(run: () => void, { quietMs = 1_000, latestMs = 10_000 } = {}): void {
  const inputs = ['pointerdown', 'pointermove', 'keydown', 'wheel'] as const;
  let timer = 0;
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    window.clearTimeout(timer);
    window.clearTimeout(latest);
    for (const type of inputs) window.removeEventListener(type, restart, true);
    run();
  };
  const whenIdle = () => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(once, { timeout: quietMs });
    else once();
  };
  const restart = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(whenIdle, quietMs);
  };
  const latest = window.setTimeout(once, latestMs);
  for (const type of inputs) window.addEventListener(type, restart, { capture: true, passive: true });
  restart();
}

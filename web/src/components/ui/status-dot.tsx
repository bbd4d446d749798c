export type StatusTone = 'ok' | 'error';

/** A coloured dot beside a status text; decorative, the text carries the meaning. */
export function StatusDot({ tone }: { tone: StatusTone }) {
  return <span className={`status-dot status-dot--${tone}`} aria-hidden="true" />;
}

import { useId, type ReactNode } from 'react';

interface PanelSectionProps {
  title: string;
  /** The section's anchor, so a link's `#id` scrolls to it. */
  id?: string;
  children: ReactNode;
}

/** One titled part of a settings screen. */
export function PanelSection({ title, id, children }: PanelSectionProps) {
  const titleId = useId();
  return (
    <section id={id} className="panel" aria-labelledby={titleId}>
      <h2 id={titleId} className="panel__subtitle">
        {title}
      </h2>
      {children}
    </section>
  );
}

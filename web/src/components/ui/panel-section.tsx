import { useId, type ReactNode } from 'react';

interface PanelSectionProps {
  title: string;
  children: ReactNode;
}

/** One titled part of a settings screen. */
export function PanelSection({ title, children }: PanelSectionProps) {
  const titleId = useId();
  return (
    <section className="panel" aria-labelledby={titleId}>
      <h2 id={titleId} className="panel__subtitle">
        {title}
      </h2>
      {children}
    </section>
  );
}

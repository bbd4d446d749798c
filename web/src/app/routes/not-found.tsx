import { Link } from '@tanstack/react-router';
import { useId, type ReactNode } from 'react';
import { buttonClassName } from '../../components/ui/button.tsx';
import { paths } from '../../config/paths.ts';

interface NotFoundProps {
  /** What was not found, as the heading and the page title: "Page not found". */
  title: string;
  /** Where the way out leads, in words: "Go to the home page". */
  homeLabel: string;
  /** Why, and what to do about it. */
  children: ReactNode;
}

/** A 404 in the app's words: what is missing, why it may be, and a way home. */
export function NotFound({ title, homeLabel, children }: NotFoundProps) {
  const titleId = useId();
  return (
    <section className="panel panel--centered" aria-labelledby={titleId}>
      <title>{`${title} · Tasklane`}</title>
      <p className="eyebrow">404</p>
      <h1 id={titleId} className="panel__title">
        {title}
      </h1>
      <p className="muted">{children}</p>
      <Link to={paths.home} className={buttonClassName('primary')}>
        {homeLabel}
      </Link>
    </section>
  );
}

export function NotFoundScreen() {
  return (
    <NotFound title="Page not found" homeLabel="Go to the home page">
      Nothing lives at this address. The link may be mistyped, or the page may have moved.
    </NotFound>
  );
}

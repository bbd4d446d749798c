import { Link } from '@tanstack/react-router';
import { buttonClassName } from '../../components/ui/button.tsx';
import { paths } from '../../config/paths.ts';

export function NotFoundScreen() {
  return (
    <section className="panel panel--centered" aria-labelledby="not-found-title">
      <title>Page not found · Tasklane</title>
      <p className="eyebrow">404</p>
      <h1 id="not-found-title" className="panel__title">
        Page not found
      </h1>
      <p className="muted">
        Nothing lives at this address. The link may be mistyped, or the page may have moved.
      </p>
      <Link to={paths.home} className={buttonClassName('primary')}>
        Go to the home page
      </Link>
    </section>
  );
}

import { Link, Outlet } from '@tanstack/react-router';
import { LogoMark } from '../../components/ui/logo-mark.tsx';
import { paths } from '../../config/paths.ts';

export function RootLayout() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <div className="app-header__inner">
          <Link to={paths.home} className="brand">
            <LogoMark />
            Tasklane
          </Link>
        </div>
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}

import { Link, Outlet } from '@tanstack/react-router';
import { LogoMark } from '../../components/ui/logo-mark.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { paths } from '../../config/paths.ts';
import { SessionNav } from '../../features/auth/components/session-nav.tsx';
import { dismissNotice, useNotice } from '../../lib/flash-notice.ts';

export function RootLayout() {
  const notice = useNotice();
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
          <SessionNav />
        </div>
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        {notice && (
          <div className="flash">
            <Notice onDismiss={dismissNotice}>{notice}</Notice>
          </div>
        )}
        <Outlet />
      </main>
    </>
  );
}

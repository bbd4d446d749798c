import { Outlet, useParams, useRouterState } from '@tanstack/react-router';
import { Notice } from '../../components/ui/notice.tsx';
import { dismissNotice, useNotice } from '../../lib/flash-notice.ts';
import { AppHeader } from '../layout/app-header.tsx';
import { OfflineBar } from '../layout/offline-bar.tsx';

export function RootLayout() {
  const notice = useNotice();
  // A workspace's screens (home, board, task) and the API docs take the whole width; the others keep a
  // readable one.
  const { slug } = useParams({ strict: false });
  const docs = useRouterState({ select: (state) => state.location.pathname.startsWith('/docs/') });
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AppHeader />
      <OfflineBar />
      <main id="main" className={slug || docs ? 'app-main app-main--wide' : 'app-main'} tabIndex={-1}>
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

import { Link, useParams } from '@tanstack/react-router';
import { LogoMark } from '../../components/ui/logo-mark.tsx';
import { paths } from '../../config/paths.ts';
import { AccountMenu } from '../../features/account/components/account-menu.tsx';
import { useSignOut } from '../../features/auth/api/sign-out.ts';
import { SessionNav } from '../../features/auth/components/session-nav.tsx';
import { NotificationBell } from '../../features/notifications/components/notification-bell.tsx';
import { useLiveNotifications } from '../../features/notifications/realtime/use-live-notifications.ts';
import { useProjects } from '../../features/projects/api/list-projects.ts';
import { ProjectMenuItems } from '../../features/projects/components/project-menu-items.tsx';
import { ProjectNav } from '../../features/projects/components/project-nav.tsx';
import { useWorkspace } from '../../features/workspaces/api/get-workspace.ts';
import { WorkspaceSwitcher } from '../../features/workspaces/components/workspace-switcher.tsx';
import { useAuthState } from '../../lib/auth/auth-session.ts';
import { sessionAssurance } from '../../lib/auth/session-assurance.ts';
import styles from './app-header.module.css';

/**
 * The header of every screen. Signed in: the workspace switcher, the current workspace's projects, the
 * notification bell (kept live by the person's topic) and the account menu. Signed out (or still owing a second factor): the brand and the sign-in link.
 */
export function AppHeader() {
  const { session } = useAuthState();
  const { slug } = useParams({ strict: false });
  const signedIn = session !== null && !sessionAssurance(session).needsSecondFactor;
  useLiveNotifications(signedIn ? session.user.id : undefined);
  if (!session || sessionAssurance(session).needsSecondFactor) {
    return (
      <header className="app-header">
        <div className="app-header__inner">
          <Brand />
          <SessionNav />
        </div>
      </header>
    );
  }
  return (
    <header className="app-header">
      <div className={styles.inner}>
        <Brand compact />
        {slug ? <WorkspaceParts slug={slug} /> : <WorkspaceSwitcher current={undefined} />}
        <span className={styles.spacer} />
        <NotificationBell />
        <SignedInAccountMenu email={session.user.email ?? ''} />
      </div>
    </header>
  );
}

function Brand({ compact = false }: { compact?: boolean }) {
  return (
    <Link to={paths.home} className="brand" aria-label={compact ? 'Tasklane home' : undefined}>
      <LogoMark />
      {!compact && 'Tasklane'}
    </Link>
  );
}

function WorkspaceParts({ slug }: { slug: string }) {
  const workspace = useWorkspace(slug);
  const projects = useProjects(slug);
  const list = projects.data ?? [];
  return (
    <>
      <WorkspaceSwitcher
        current={workspace.data}
        phoneItems={<ProjectMenuItems slug={slug} projects={list} />}
      />
      <ProjectNav slug={slug} projects={list} />
    </>
  );
}

function SignedInAccountMenu({ email }: { email: string }) {
  const signOut = useSignOut();
  // No navigation here: the route guards react to the sign-out and send protected screens away.
  return <AccountMenu email={email} onSignOut={() => signOut.mutate()} />;
}

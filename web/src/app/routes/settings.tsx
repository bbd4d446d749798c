import { getRouteApi, Link, Outlet } from '@tanstack/react-router';
import { paths } from '../../config/paths.ts';
import { useWorkspace } from '../../features/workspaces/api/get-workspace.ts';
import styles from './settings.module.css';

const route = getRouteApi('/signed-in/w/$slug/settings');

const TABS = [
  { to: paths.settingsGeneral, label: 'General' },
  { to: paths.settingsMembers, label: 'Members' },
  { to: paths.settingsInvitations, label: 'Invitations' },
  { to: paths.settingsLabels, label: 'Labels' },
  { to: paths.settingsProjects, label: 'Projects' },
  { to: paths.settingsExport, label: 'Export' },
  { to: paths.settingsImport, label: 'Import', adminOnly: true },
  { to: paths.settingsWebhooks, label: 'Webhooks', adminOnly: true },
] as const;

/** `/w/:slug/settings`: the workspace's settings, one tab (child route) at a time. */
export function SettingsLayout() {
  const { slug } = route.useParams();
  // The workspace layout shows this only once the workspace has loaded.
  const workspace = useWorkspace(slug);
  const role = workspace.data?.role;
  const isAdmin = role === 'owner' || role === 'admin';
  const tabs = TABS.filter((tab) => !('adminOnly' in tab) || isAdmin);
  return (
    <div className={styles.page}>
      <header className={styles.head}>
        <p className="eyebrow">{workspace.data?.name}</p>
        <h1 className={styles.title}>Settings</h1>
      </header>
      <nav className={styles.tabs} aria-label="Settings">
        {tabs.map((tab) => (
          <Link key={tab.to} to={tab.to} params={{ slug }} className={styles.tab}>
            {tab.label}
          </Link>
        ))}
      </nav>
      <div className={styles.body}>
        <Outlet />
      </div>
    </div>
  );
}

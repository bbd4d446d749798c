import type { components } from '@api-spec/schema.d.ts';
import { VisuallyHidden } from '../../../components/ui/visually-hidden.tsx';
import { useNavigate } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Menu, MenuItem, MenuLabel, MenuSeparator } from '../../../components/ui/menu.tsx';
import { paths } from '../../../config/paths.ts';
import { useWorkspaces } from '../api/list-workspaces.ts';
import styles from './workspace-switcher.module.css';

type Workspace = components['schemas']['Workspace'];

const ROLE_LABELS: Readonly<Record<Workspace['role'], string>> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
};

interface WorkspaceSwitcherProps {
  /** The workspace on screen, if any. */
  current: Workspace | undefined;
  /** Items shown on a phone only, above the workspaces (the current workspace's projects). */
  phoneItems?: ReactNode;
}

/** The header's workspace menu: the caller's workspaces with their role, and "New workspace". */
export function WorkspaceSwitcher({ current, phoneItems }: WorkspaceSwitcherProps) {
  const navigate = useNavigate();
  const workspaces = useWorkspaces();
  return (
    <Menu
      label="Workspaces"
      trigger={
        // Named by what it shows (WCAG 2.5.3, label in name): "Workspace: Acme", the mark left out.
        <button type="button" className={styles.trigger}>
          {current && (
            <span className={styles.mark} aria-hidden="true">
              {current.name.charAt(0).toUpperCase()}
            </span>
          )}
          {current && <VisuallyHidden>Workspace: </VisuallyHidden>}
          <span className={styles.name}>{current?.name ?? 'Workspaces'}</span>
          <span className={styles.chevron} aria-hidden="true">
            ▾
          </span>
        </button>
      }
    >
      {phoneItems && <div className={styles.phoneOnly}>{phoneItems}</div>}
      <MenuLabel>Workspaces</MenuLabel>
      {workspaces.isPending && <MenuLabel>Loading…</MenuLabel>}
      {workspaces.error && <MenuLabel>Your workspaces could not be loaded.</MenuLabel>}
      {workspaces.data?.map((workspace) => (
        <MenuItem
          key={workspace.id}
          onSelect={() => void navigate({ to: paths.workspace, params: { slug: workspace.slug } })}
        >
          <span className={styles.itemName}>
            {workspace.name}
            {workspace.slug === current?.slug && <VisuallyHidden> (current)</VisuallyHidden>}
          </span>
          <span className={styles.role}>{ROLE_LABELS[workspace.role]}</span>
          <span className={styles.check} aria-hidden="true">
            {workspace.slug === current?.slug ? '✓' : ''}
          </span>
        </MenuItem>
      ))}
      <MenuSeparator />
      {current && (
        <MenuItem
          onSelect={() => void navigate({ to: paths.settingsGeneral, params: { slug: current.slug } })}
        >
          Settings
        </MenuItem>
      )}
      <MenuItem onSelect={() => void navigate({ to: paths.newWorkspace })}>New workspace</MenuItem>
    </Menu>
  );
}

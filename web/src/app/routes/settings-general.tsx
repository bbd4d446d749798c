import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button.tsx';
import { paths } from '../../config/paths.ts';
import { useWorkspace } from '../../features/workspaces/api/get-workspace.ts';
import { workspaceKeys } from '../../features/workspaces/api/query-keys.ts';
import { DeleteWorkspaceDialog } from '../../features/workspaces/components/delete-workspace-dialog.tsx';
import { RequireMfaSetting } from '../../features/workspaces/components/require-mfa-setting.tsx';
import { WorkspaceGeneralForm } from '../../features/workspaces/components/workspace-general-form.tsx';
import { useAuthState } from '../../lib/auth/auth-session.ts';
import { sessionAssurance } from '../../lib/auth/session-assurance.ts';
import tab from './settings-tab.module.css';

const route = getRouteApi('/signed-in/w/$slug/settings/general');

/** `/w/:slug/settings/general`: name, slug and the MFA rule (owners and admins); deleting (owners). */
export function SettingsGeneralScreen() {
  const { slug } = route.useParams();
  const workspace = useWorkspace(slug);
  const { session } = useAuthState();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState(false);
  // The workspace layout shows this only once the workspace has loaded.
  const data = workspace.data;
  if (!data) return null;
  const editable = data.role === 'owner' || data.role === 'admin';

  async function moveAway(to: { slug: string } | null) {
    if (to) await navigate({ to: paths.settingsGeneral, params: to, replace: true });
    else await navigate({ to: paths.home, replace: true });
    queryClient.removeQueries({ queryKey: workspaceKeys.detail(slug), exact: true });
  }

  return (
    <section aria-labelledby="settings-general-title" className={tab.tab}>
      <title>{`General · ${data.name} · Tasklane`}</title>
      <h2 id="settings-general-title" className={tab.title}>
        General
      </h2>
      {editable ? (
        // Keyed by version, so the fields start again from what was saved (or changed by someone else).
        <WorkspaceGeneralForm
          key={`${data.slug}:${data.version}`}
          workspace={data}
          onSaved={(saved) => {
            if (saved.slug !== slug) void moveAway({ slug: saved.slug });
          }}
        />
      ) : (
        <>
          <dl className={tab.facts}>
            <dt>Name</dt>
            <dd>{data.name}</dd>
            <dt>Slug</dt>
            <dd>{data.slug}</dd>
          </dl>
          <p className={tab.lead}>Only the workspace’s owners and admins change these.</p>
        </>
      )}
      <h3 className={tab.subtitle}>Security</h3>
      <RequireMfaSetting
        workspace={data}
        editable={editable}
        sessionAtAal2={session !== null && sessionAssurance(session).level === 'aal2'}
      />
      {data.role === 'owner' && (
        <>
          <h3 className={tab.subtitle}>Danger zone</h3>
          <div className={tab.danger}>
            <p className={tab.lead}>Delete the workspace with everything in it, for good.</p>
            <Button variant="danger" onClick={() => setDeleting(true)}>
              Delete workspace…
            </Button>
          </div>
          <DeleteWorkspaceDialog
            workspace={data}
            open={deleting}
            onOpenChange={setDeleting}
            onDeleted={() => {
              toast.success(`${data.name} was deleted.`);
              queryClient.removeQueries({ queryKey: workspaceKeys.lists() });
              void moveAway(null);
            }}
          />
        </>
      )}
    </section>
  );
}

import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useState } from 'react';
import { CreateProjectDialog } from '../../features/projects/components/create-project-dialog.tsx';
import { ProjectSettings } from '../../features/projects/components/project-settings.tsx';
import { taskKeys } from '../../features/tasks/api/query-keys.ts';
import { useWorkspace } from '../../features/workspaces/api/get-workspace.ts';

const route = getRouteApi('/signed-in/w/$slug/settings/projects');

/** `/w/:slug/settings/projects`: rename, re-key, archive, unarchive and delete projects (admins). */
export function SettingsProjectsScreen() {
  const { slug } = route.useParams();
  const role = useWorkspace(slug).data?.role;
  const [creating, setCreating] = useState(false);
  const queryClient = useQueryClient();
  return (
    <>
      <ProjectSettings
        slug={slug}
        canManage={role === 'owner' || role === 'admin'}
        onCreate={() => setCreating(true)}
      />
      <CreateProjectDialog
        slug={slug}
        open={creating}
        onOpenChange={setCreating}
        onCreated={() => {
          setCreating(false);
          void queryClient.invalidateQueries({ queryKey: taskKeys.counts() });
        }}
      />
    </>
  );
}

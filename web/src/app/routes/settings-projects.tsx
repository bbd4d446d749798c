import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { paths } from '../../config/paths.ts';
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
  const navigate = useNavigate();
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
        onCreated={(project) => {
          setCreating(false);
          void queryClient.invalidateQueries({ queryKey: taskKeys.counts() });
          void navigate({ to: paths.board, params: { slug, key: project.key } });
        }}
      />
    </>
  );
}

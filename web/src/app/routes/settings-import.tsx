import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { ImportPanel } from '../../features/imports/components/import-panel.tsx';
import { projectKeys } from '../../features/projects/api/query-keys.ts';
import { useWorkspace } from '../../features/workspaces/api/get-workspace.ts';

const route = getRouteApi('/signed-in/w/$slug/settings/import');

/** `/w/:slug/settings/import`: a Trello board, a CSV or a Tasklane export, previewed then imported. */
export function SettingsImportScreen() {
  const { slug } = route.useParams();
  const queryClient = useQueryClient();
  const role = useWorkspace(slug).data?.role;
  return (
    <ImportPanel
      slug={slug}
      canImport={role === 'owner' || role === 'admin'}
      onImported={() => void queryClient.invalidateQueries({ queryKey: projectKeys.all })}
    />
  );
}

import { getRouteApi } from '@tanstack/react-router';
import { ExportPanel } from '../../features/export/components/export-panel.tsx';
import { useWorkspace } from '../../features/workspaces/api/get-workspace.ts';

const route = getRouteApi('/signed-in/w/$slug/settings/export');

/** `/w/:slug/settings/export`: the whole workspace as a JSON file (owners and admins). */
export function SettingsExportScreen() {
  const { slug } = route.useParams();
  const role = useWorkspace(slug).data?.role;
  return <ExportPanel slug={slug} canExport={role === 'owner' || role === 'admin'} />;
}

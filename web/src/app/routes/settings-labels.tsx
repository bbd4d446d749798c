import { getRouteApi } from '@tanstack/react-router';
import { LabelSettings } from '../../features/labels/components/label-settings.tsx';
import { LabelUsage } from '../../features/labels/components/label-usage.tsx';
import { useWorkspaceTaskCounts } from '../../features/tasks/api/count-workspace-tasks.ts';
import { useWorkspace } from '../../features/workspaces/api/get-workspace.ts';

const route = getRouteApi('/signed-in/w/$slug/settings/labels');

/** `/w/:slug/settings/labels`: create labels (members too); rename, recolor and delete them (admins). */
export function SettingsLabelsScreen() {
  const { slug } = route.useParams();
  const role = useWorkspace(slug).data?.role;
  return (
    <LabelSettings
      slug={slug}
      canCreate={role === 'owner' || role === 'admin' || role === 'member'}
      canManage={role === 'owner' || role === 'admin'}
      usage={(label) => <LabelTaskCount slug={slug} labelId={label.id} />}
    />
  );
}

/** How many tasks of the workspace (archived projects too) have the label. */
function LabelTaskCount({ slug, labelId }: { slug: string; labelId: string }) {
  const counts = useWorkspaceTaskCounts(slug, { label: labelId });
  return <LabelUsage count={counts.data?.total} error={counts.isError} />;
}

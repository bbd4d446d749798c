import { useNavigate } from '@tanstack/react-router';
import { toast } from 'sonner';
import { FormPanel } from '../../components/ui/form-panel.tsx';
import { paths } from '../../config/paths.ts';
import { NewWorkspaceForm } from '../../features/workspaces/components/new-workspace-form.tsx';

/** `/new`: create a workspace; the first screen after signing up. */
export function NewWorkspaceScreen() {
  const navigate = useNavigate();
  return (
    <FormPanel
      title="Create a workspace"
      intro="A workspace holds your team's projects, their boards of tasks, and the people you invite to work on them."
    >
      <title>New workspace · Tasklane</title>
      <NewWorkspaceForm
        onCreated={(workspace) => {
          toast.success(`Workspace ${workspace.name} created.`);
          void navigate({ to: paths.workspace, params: { slug: workspace.slug } });
        }}
      />
    </FormPanel>
  );
}

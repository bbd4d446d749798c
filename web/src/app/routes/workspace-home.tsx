import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { LoadError } from '../../components/ui/load-error.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { paths } from '../../config/paths.ts';
import { activityKeys } from '../../features/activity/api/query-keys.ts';
import { ActivityFeed } from '../../features/activity/components/activity-feed.tsx';
import { useMembers } from '../../features/members/api/list-members.ts';
import { useProjects } from '../../features/projects/api/list-projects.ts';
import { CreateProjectDialog } from '../../features/projects/components/create-project-dialog.tsx';
import {
  ProjectList,
  ProjectListSkeleton,
  type ProjectCounts,
} from '../../features/projects/components/project-list.tsx';
import { useWorkspaceTaskCounts } from '../../features/tasks/api/count-workspace-tasks.ts';
import { taskKeys } from '../../features/tasks/api/query-keys.ts';
import { MyOpenTasks } from '../../features/tasks/components/my-tasks/my-open-tasks.tsx';
import { PRIORITY_LABELS } from '../../features/tasks/components/task-meta/priority.tsx';
import { STATUS_LABELS } from '../../features/tasks/components/task-meta/status.tsx';
import { OPEN_TASK_STATUSES } from '../../features/tasks/task-status-groups.ts';
import { useWorkspace } from '../../features/workspaces/api/get-workspace.ts';
import styles from './workspace-home.module.css';

const route = getRouteApi('/signed-in/w/$slug/');

/** `/w/:slug`: the workspace home: its projects, the caller's open tasks, and what changed lately. */
export function WorkspaceHomeScreen() {
  const { slug } = route.useParams();
  const workspace = useWorkspace(slug);
  const members = useMembers(slug);
  const [creating, setCreating] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // The layout shows this screen only once the workspace has loaded.
  const role = workspace.data?.role;
  const canCreate = role === 'owner' || role === 'admin';
  const names = new Map(members.data?.map((member) => [member.user_id, member.display_name]));

  return (
    <div className={styles.page}>
      <title>{`${workspace.data?.name ?? slug} · Tasklane`}</title>
      <PageHeader>
        <h1 className={styles.title}>{workspace.data?.name}</h1>
        {canCreate && (
          <Button variant="primary" onClick={() => setCreating(true)}>
            New project
          </Button>
        )}
      </PageHeader>
      <section className={styles.section} aria-labelledby="projects-title">
        <h2 id="projects-title" className="section-heading">
          Projects
        </h2>
        <Projects slug={slug} canCreate={canCreate} onCreate={() => setCreating(true)} />
      </section>
      <div className={styles.columns}>
        <section className={styles.section} aria-labelledby="my-tasks-title">
          <h2 id="my-tasks-title" className="section-heading">
            My open tasks
          </h2>
          <MyOpenTasks slug={slug} />
        </section>
        <section className={styles.section} aria-labelledby="activity-title">
          <h2 id="activity-title" className="section-heading">
            Recent activity
          </h2>
          <ActivityFeed
            slug={slug}
            names={names}
            statusLabels={STATUS_LABELS}
            priorityLabels={PRIORITY_LABELS}
          />
        </section>
      </div>
      <CreateProjectDialog
        slug={slug}
        open={creating}
        onOpenChange={setCreating}
        onCreated={(project) => {
          setCreating(false);
          // The new project has counts (zeros) and an event of its own.
          void queryClient.invalidateQueries({ queryKey: taskKeys.counts() });
          void queryClient.invalidateQueries({ queryKey: activityKeys.list({ slug }) });
          void navigate({ to: paths.board, params: { slug, key: project.key } });
        }}
      />
    </div>
  );
}

function Projects({ slug, canCreate, onCreate }: { slug: string; canCreate: boolean; onCreate: () => void }) {
  const projects = useProjects(slug);
  const counts = useWorkspaceTaskCounts(slug);
  if (projects.isPending) return <ProjectListSkeleton />;
  if (projects.error) {
    return (
      <LoadError
        what="The projects"
        error={projects.error}
        onRetry={() => void projects.refetch()}
        retrying={projects.isFetching}
      />
    );
  }
  const countsByKey =
    counts.data &&
    new Map(
      counts.data.by_project.map(({ project_key, total, by_status }) => [
        project_key,
        {
          open: OPEN_TASK_STATUSES.reduce((sum, status) => sum + by_status[status], 0),
          total,
        } satisfies ProjectCounts,
      ]),
    );
  return (
    <ProjectList
      slug={slug}
      projects={projects.data}
      counts={countsByKey}
      canCreate={canCreate}
      onCreate={onCreate}
    />
  );
}

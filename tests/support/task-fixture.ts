/** The usual setup of an API test file about tasks. */
import { randomUUID } from 'node:crypto';
import type { Database } from '../../supabase/functions/_shared/db.ts';
import { RATE_LIMITS_OUT_OF_THE_WAY, useTestApp } from './api-app.ts';
import { taskCalls } from './task-calls.ts';
import { useTwoWorkspaces, type WorkspaceFixture } from './workspace-fixture.ts';
import { asService } from './service-transaction.ts';

/**
 * useTestApp with the rate limits out of the way, task calls on its app, and two workspaces (acme and
 * globex) made before the file's tests.
 */
export function useTaskTestApp() {
  const api = useTestApp({ rateLimits: RATE_LIMITS_OUT_OF_THE_WAY });
  return { api, tasks: () => taskCalls(api.app), ...useTwoWorkspaces(api) };
}

/** A task "Fix the login" in a new project "Board" of the workspace, written by the service. */
export async function insertTaskInNewProject(
  db: Database,
  workspace: Pick<WorkspaceFixture, 'id' | 'owner'>,
): Promise<{ id: string; projectId: string }> {
  const projectKey = `P${randomUUID().replaceAll('-', '').slice(0, 6).toUpperCase()}`;
  return asService(db, async (sql) => {
    const [project] = await sql.query<{ id: string }>(
      `insert into public.projects (workspace_id, key, name, created_by) values ($1, $2, 'Board', $3)
       returning id`,
      [workspace.id, projectKey, workspace.owner.id],
    );
    const [task] = await sql.query<{ id: string }>(
      `insert into public.tasks (project_id, title, position, created_by) values ($1, 'Fix the login', 'a0', $2)
       returning id`,
      [project?.id, workspace.owner.id],
    );
    if (!project || !task) throw new Error('no task');
    return { id: task.id, projectId: project.id };
  });
}

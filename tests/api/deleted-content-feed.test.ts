/**
 * What the change feed keeps of deleted content (the first security review, item 10). Deleting a task, or the
 * project around it, deletes its comments with it; the feed keeps, for 30 days, the events that told of them.
 * Those events keep what identifies the task (ids, key, number, title, status, position) but no longer hold
 * its description, its comments' bodies, or the deleted project's description, as a soft-deleted comment's
 * events already hold no body.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api-app.ts';
import type { TypedResponse } from '../support/api-client.ts';
import { commentCalls } from '../support/comment-calls.ts';
import { readFeed, type Event } from '../support/event-feed.ts';
import { projectCalls } from '../support/resource-calls.ts';
import { projectIn, taskCalls, taskIn, type Task } from '../support/task-calls.ts';
import { createWorkspaceWithRoles, type WorkspaceFixture } from '../support/workspace-fixture.ts';

const api = useTestApp();

const tasks = () => taskCalls(api.app);
const comments = () => commentCalls(api.app);

/** The answer's body, which must be a success. */
async function ok<Body>(pending: Promise<TypedResponse<Body>>): Promise<Body> {
  const response = await pending;
  expect(response.status, response.text).toBeLessThan(300);
  return response.body;
}

/** A task with a secret in its description, changed once, with a comment that was edited once. */
async function taskWithSecrets(workspace: WorkspaceFixture, projectKey: string, secret: string) {
  const member = workspace.member.accessToken;
  const task = await taskIn(api.app, workspace, projectKey, { description: `${secret} first draft` });
  await ok(tasks().update(member, task.id, { description: `${secret} second draft` }));
  const comment = await ok(comments().create(member, task.id, { body: `${secret} comment` }));
  await ok(comments().update(member, comment.id, { body: `${secret} edited comment` }));
  return task;
}

async function wholeFeed(workspace: WorkspaceFixture): Promise<Event[]> {
  return (await readFeed(api.app, workspace.viewer.accessToken, workspace, '?limit=200')).data;
}

describe('the change feed after a deletion', () => {
  let workspace: WorkspaceFixture;

  beforeAll(async () => {
    workspace = await createWorkspaceWithRoles(api.db);
  });

  it('holds no description or comment body of a deleted task, but still tells of the task', async () => {
    const project = await projectIn(api.app, workspace);
    const task: Task = await taskWithSecrets(workspace, project.key, 'SECRET-TASK');
    const kept = await taskWithSecrets(workspace, project.key, 'KEPT-TASK');
    expect(JSON.stringify(await wholeFeed(workspace))).toContain('SECRET-TASK');

    await ok(tasks().remove(workspace.member.accessToken, task.id));

    const feed = await wholeFeed(workspace);
    expect(JSON.stringify(feed)).not.toContain('SECRET-TASK');
    const ofTask = feed.filter((event) => event.task_id === task.id);
    expect(ofTask.map((event) => event.type)).toEqual([
      'task.created',
      'task.updated',
      'comment.created',
      'comment.updated',
      'task.deleted',
    ]);
    expect(ofTask.at(-1)?.data).toMatchObject({
      id: task.id,
      key: task.key,
      title: 'A task',
      description: '',
    });
    expect(ofTask.find((event) => event.type === 'comment.updated')).toMatchObject({
      data: { object: 'comment', body: null },
      previous_attributes: {},
    });
    // Another task's events are as they were.
    expect(JSON.stringify(feed.filter((event) => event.task_id === kept.id))).toContain(
      'KEPT-TASK edited comment',
    );
  });

  it('holds no description or comment body of a deleted project’s tasks, nor the project’s description', async () => {
    const admin = workspace.admin.accessToken;
    const project = await projectIn(api.app, workspace);
    await ok(
      projectCalls(api.app, workspace).update(admin, project.key, { description: 'SECRET-PROJECT plans' }),
    );
    await taskWithSecrets(workspace, project.key, 'SECRET-IN-PROJECT');
    expect(JSON.stringify(await wholeFeed(workspace))).toContain('SECRET-PROJECT');

    await ok(projectCalls(api.app, workspace).remove(admin, project.key));

    const feed = await wholeFeed(workspace);
    const text = JSON.stringify(feed);
    expect(text).not.toContain('SECRET-IN-PROJECT');
    expect(text).not.toContain('SECRET-PROJECT');
    expect(feed.filter((event) => event.project_id === project.id).at(-1)).toMatchObject({
      type: 'project.deleted',
      data: { id: project.id, key: project.key, description: '' },
    });
  });
});

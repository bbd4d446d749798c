// The router runs as in a browser (a server router only renders what it is asked to).
// @vitest-environment happy-dom
import { TaskKeySchema } from '@api/tasks/tasks.schemas.ts';
import { WorkspaceSlugSchema } from '@api/workspaces/workspaces.schemas.ts';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  isNotFound,
} from '@tanstack/react-router';
import * as z from 'zod/mini';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { pathParams, searchValidator } from './route-params.ts';

const BoardSearchSchema = z.object({
  status: z.optional(z.enum(['todo', 'done'])),
  page: z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1),
});

const TaskParamsSchema = z.object({ slug: WorkspaceSlugSchema, key: TaskKeySchema });

describe('searchValidator', () => {
  const validate = searchValidator(BoardSearchSchema);

  it('types and validates the search, with defaults', () => {
    const search = validate({ status: 'todo', page: 3 });

    expect(search).toEqual({ status: 'todo', page: 3 });
    expectTypeOf(search).toEqualTypeOf<{ status?: 'todo' | 'done' | undefined; page: number }>();
    expect(validate({})).toEqual({ page: 1 });
  });

  it('drops only the parameters the schema refuses', () => {
    expect(validate({ status: 'archived', page: 2 })).toEqual({ page: 2 });
    expect(validate({ status: 'done', page: 0 })).toEqual({ status: 'done', page: 1 });
  });
});

describe('pathParams', () => {
  const params = pathParams(TaskParamsSchema);

  it("parses the path's segments with the API's schemas and writes them back as text", () => {
    const parsed = params.parse({ slug: 'acme', key: 'ENG-42' });

    expect(parsed).toEqual({ slug: 'acme', key: 'ENG-42' });
    expectTypeOf(parsed).toEqualTypeOf<{ slug: string; key: string }>();
    expect(params.stringify(parsed)).toEqual({ slug: 'acme', key: 'ENG-42' });
  });

  it('answers "not found" for a segment the schema refuses', () => {
    let thrown: unknown;
    try {
      params.parse({ slug: 'acme', key: 'eng-42' });
    } catch (error) {
      thrown = error;
    }
    expect(isNotFound(thrown)).toBe(true);
  });
});

describe('on a router', () => {
  function routerAt(url: string) {
    const rootRoute = createRootRoute();
    const taskRoute = createRoute({
      getParentRoute: () => rootRoute,
      path: '/$slug/tasks/$key',
      params: pathParams(TaskParamsSchema),
      validateSearch: searchValidator(BoardSearchSchema),
    });
    const router = createRouter({
      routeTree: rootRoute.addChildren([taskRoute]),
      history: createMemoryHistory({ initialEntries: [url] }),
    });
    return { router, taskRoute };
  }

  it('hands the screen typed params and search', async () => {
    const { router, taskRoute } = routerAt('/acme/tasks/ENG-42?status=done&page=oops');
    await router.load();

    // The app's router is the registered one; this test's routes are not in its types.
    const match = router.state.matches.at(-1);
    expect(String(match?.routeId)).toBe(taskRoute.id);
    expect(match?.params).toEqual({ slug: 'acme', key: 'ENG-42' });
    expect(match?.search).toEqual({ status: 'done', page: 1 });
  });

  it('treats a malformed task key as not found', async () => {
    const { router, taskRoute } = routerAt('/acme/tasks/not-a-key');
    await router.load();

    // The app's router is the registered one; this test's routes are not in its types.
    const match = router.state.matches.at(-1);
    expect(String(match?.routeId)).toBe(taskRoute.id);
    expect(isNotFound(match?.error)).toBe(true);
  });
});

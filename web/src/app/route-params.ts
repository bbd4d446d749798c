import { ProjectKeySchema } from '@api/projects/projects.schemas.ts';
import { WorkspaceSlugSchema } from '@api/workspaces/workspaces.schemas.ts';
import * as z from 'zod/mini';
import { pathParams } from '../lib/routing/route-params.ts';

/** The path parameters of the workspace screens, validated with the API's own schemas. */

export const workspaceParams = pathParams(z.object({ slug: WorkspaceSlugSchema }));

export const boardParams = pathParams(z.object({ slug: WorkspaceSlugSchema, key: ProjectKeySchema }));

export const taskParams = pathParams(
  z.object({
    slug: WorkspaceSlugSchema,
    key: ProjectKeySchema,
    number: z.coerce.number<string>().check(z.int(), z.minimum(1)),
  }),
);

/** Any token: one that cannot be an invitation's is the API's `404`, which the page explains. */
export const inviteParams = pathParams(z.object({ token: z.string() }));

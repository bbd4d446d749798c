/**
 * The query string, read with a zod schema. Unknown parameters are rejected, like unknown body fields,
 * so a typo (`?limt=10`) is an error instead of silently ignored; a bad query string is `400 bad_request`.
 * The platform's own parameters are the exception: they are left to the platform.
 *
 * Taking no query parameters is the default (`noQueryParameters`, in createApp's stack); a route that
 * takes some declares them with `queryOf(schema)` and finds them, parsed, on `c.var.query`.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import { z } from 'zod';
import { AppError, type FieldError } from '../../_shared/errors.ts';
import type { AppEnv } from '../app-env.ts';
import { strictOf } from './derived-schemas.ts';
import { toFieldErrors } from './field-errors.ts';

const NoQueryParameters = z.strictObject({});

/**
 * Parameters meant for the platform, not for us: Supabase runs a function in the region that
 * `forceFunctionRegion` names (regional invocation where the `x-region` header cannot be sent).
 */
const PLATFORM_PARAMETERS = new Set(['forceFunctionRegion']);

/** The route middlewares `queryOf` made: a route with one of them declared its query. */
const QUERY_DECLARATIONS = new WeakSet<MiddlewareHandler>();

/** Route middleware: the route takes the query `schema`, read (or refused) before the handler runs. */
export function queryOf<Shape extends z.core.$ZodShape>(schema: z.ZodObject<Shape>) {
  type Query = z.output<z.ZodObject<Shape, z.core.$strict>>;
  const declaration = createMiddleware<{ Variables: { query: Query } }>(async (c, next) => {
    c.set('query', readQuery(c, schema));
    await next();
  });
  QUERY_DECLARATIONS.add(declaration);
  return declaration;
}

/** App middleware: a route that declared no query with `queryOf` takes no query parameters. */
export const noQueryParameters = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    const routes = matchedRoutes(c).filter((route) => route.method !== 'ALL');
    // A request no route takes gets its 404 or 405, not a complaint about its query.
    if (routes.length > 0 && !routes.some((route) => QUERY_DECLARATIONS.has(route.handler))) {
      readQuery(c, NoQueryParameters);
    }
    await next();
  });

function readQuery<Shape extends z.core.$ZodShape>(
  c: Context,
  schema: z.ZodObject<Shape>,
): z.output<z.ZodObject<Shape, z.core.$strict>> {
  const query = Object.fromEntries(
    Object.entries(c.req.query()).filter(([name]) => !PLATFORM_PARAMETERS.has(name)),
  );
  const result = strictOf(schema).safeParse(query);
  if (result.success) return result.data;
  const errors = toFieldErrors(result.error.issues, 'query', query);
  throw new AppError('bad_request', detailOf(errors), { errors });
}

/** The one broken rule in so many words, or a summary when there are several. */
function detailOf(errors: readonly FieldError[]): string {
  const [only] = errors;
  if (!only || errors.length > 1) return 'The query string is not valid for this operation.';
  const name = only.path.replace(/^query\./, '');
  if (only.code === 'unknown_field') return `This operation takes no query parameter "${name}".`;
  return `Query parameter "${name}": ${only.message.replace(/\.?$/, '.')}`;
}

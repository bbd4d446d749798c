/** A known path asked with a method it does not have: 405 problem with the `Allow` header. */
import type { Hono } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { AppError } from '../../_shared/errors.ts';
import type { AppEnv } from '../app-env.ts';
import { problemResponse } from '../http/problem-response.ts';

export const methodNotAllowedFor = (app: Hono<AppEnv>) =>
  methodNotAllowed<AppEnv>({
    app,
    onMethodNotAllowed: (c, methods) => {
      // The CORS middleware answers OPTIONS on every path.
      const allow = [...methods, 'OPTIONS'].join(', ');
      const detail = `${c.req.method} is not supported here; use ${allow}.`;
      return problemResponse(c, new AppError('method_not_allowed', detail, { headers: { Allow: allow } }));
    },
  });

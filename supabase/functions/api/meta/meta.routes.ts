/** GET /v1/meta/limits — the constants behind limit_reached, payload_too_large and rate_limited. */
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { describeLimits } from './meta.service.ts';

export const metaRoutes = () =>
  new Hono<AppEnv>().get('/meta/limits', (c) => {
    return c.json(describeLimits(), 200);
  });

/** GET /v1/health — for load balancers and uptime checks; needs no credentials. */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { checkHealth } from './health.service.ts';

export const healthRoutes = ({ db }: Pick<AppDeps, 'db'>) =>
  new Hono<AppEnv>().get('/health', async (c) => {
    return c.json(await checkHealth(db), 200);
  });

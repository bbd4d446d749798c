import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { prepareDatabase } from '../../local/postgres/prepare-database.ts';
import { startTestCluster } from './test-cluster.ts';

export const TEMPLATE_DATABASE = 'tasklane_template';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    templateDatabase: string;
  }
}

/**
 * Starts one PostgreSQL for the whole run and builds a template database from the Supabase bootstrap
 * and every migration; each test file then clones its own database from it (see test-database.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { cluster, dispose } = await startTestCluster();
  const admin = new pg.Client({ connectionString: cluster.url() });
  await admin.connect();
  await admin.query(`create database ${TEMPLATE_DATABASE}`);
  await admin.end();
  await prepareDatabase(cluster.url(TEMPLATE_DATABASE), process.cwd(), { seed: false });
  project.provide('postgresAdminUrl', cluster.url());
  project.provide('templateDatabase', TEMPLATE_DATABASE);
  return dispose;
}

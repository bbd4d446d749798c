/**
 * For tests of SQL functions (tests/db): a database of the file's own with one client on it, users
 * inserted straight into auth.users, and statements run as one of them, as the API runs them.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { ensureLiveSession, liveSessionClaims } from './live-session.ts';
import { useTestDatabaseClient, type TestDatabaseClient } from './test-database.ts';

/** The rows a statement answered, or the hint it was refused with (the API's error code). */
export type Outcome<Row> = { rows: Row[] } | { refused: string | undefined };

export interface SqlAsUser extends TestDatabaseClient {
  /** A user whose e-mail is confirmed, unless `confirmed` is false. */
  newUser(email?: string, options?: { confirmed?: boolean }): Promise<string>;
  /** Runs `sql` as `userId` (role authenticated with their claims) in its own transaction. */
  asUser<Row extends pg.QueryResultRow>(
    userId: string,
    sql: string,
    values: unknown[],
  ): Promise<Outcome<Row>>;
}

export function useSqlAsUser(emailDomain: string): SqlAsUser {
  const database = useTestDatabaseClient();
  const db = (): pg.Client => database.db;
  return {
    get db() {
      return db();
    },
    get url() {
      return database.url;
    },
    newUser: async (email = `${randomUUID()}@${emailDomain}`, { confirmed = true } = {}) => {
      const id = randomUUID();
      await db().query(
        `insert into auth.users (id, email, email_confirmed_at, aud, role, created_at, updated_at)
         values ($1, $2, case when $3 then now() end, 'authenticated', 'authenticated', now(), now())`,
        [id, email, confirmed],
      );
      await ensureLiveSession(db(), id);
      return id;
    },
    asUser: async <Row extends pg.QueryResultRow>(userId: string, sql: string, values: unknown[]) => {
      await db().query('begin');
      try {
        await db().query(
          `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
          [liveSessionClaims(userId)],
        );
        const result = await db().query<Row>(sql, values);
        await db().query('commit');
        return { rows: result.rows };
      } catch (error) {
        await db().query('rollback');
        return { refused: (error as { hint?: string }).hint };
      }
    },
  };
}

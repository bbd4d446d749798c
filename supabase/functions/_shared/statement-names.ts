/**
 * Names for prepared statements (docs/decisions/0027). node-postgres prepares a named statement once per
 * connection and then only binds and executes it, so Postgres parses, rewrites and plans it (RLS policies,
 * inlined helper functions: about a millisecond for the API's statements) once per connection instead of
 * on every request. The name is derived from the text, so the same text is the same statement on every
 * connection of the pool.
 */
import { createHash } from 'node:crypto';
import { AppError } from './errors.ts';

/**
 * How many distinct texts are named; others go unnamed. Some texts are built per request (a list's
 * filters), so without a bound a long-lived connection would keep a plan for each combination.
 */
export const MAX_NAMED_STATEMENTS = 200;

/**
 * Marks a statement to be planned for its parameters every time: it is sent unnamed. For a statement
 * whose best plan depends on its values so much that a generic plan, which Postgres may keep after five
 * executions of a prepared one, is far worse: the task search's generic plan took the hostile search
 * from 1.2–1.8 s to over the 5 s statement timeout (tests/api/task-search-bounds.test.ts).
 */
export const customPlanned = (text: string): string => `${CUSTOM_PLANNED}${text}`;

const CUSTOM_PLANNED = '/* custom plan */ ';

export interface StatementNames {
  /** The text's name, or undefined to send it unnamed. */
  nameOf(text: string): string | undefined;
  /** Forgets every name: statements get new ones, so no connection reuses a stale prepared statement. */
  renew(): void;
}

/** No statement named: for a transaction-mode pooler, which hands each transaction any server connection. */
export const noStatementNames: StatementNames = { nameOf: () => undefined, renew: () => undefined };

export function statementNames(max = MAX_NAMED_STATEMENTS): StatementNames {
  const names = new Map<string, string>();
  let generation = 0;
  return {
    nameOf(text) {
      if (text.startsWith(CUSTOM_PLANNED)) return undefined;
      const known = names.get(text);
      if (known !== undefined || names.size >= max) return known;
      const digest = createHash('sha256').update(text).digest('base64url').slice(0, 22);
      const name = `tasklane_${generation}_${digest}`;
      names.set(text, name);
      return name;
    },
    renew() {
      names.clear();
      generation += 1;
    },
  };
}

// SQLSTATEs: feature_not_supported (as "cached plan must not change result type"),
// invalid_sql_statement_name (a prepared statement the connection no longer has).
const CHANGED_RESULT = /cached plan must not change result type/;
const NO_SUCH_STATEMENT = '26000';

/**
 * Whether a statement failed because the connection's prepared statement is stale: a migration changed
 * the columns it answers (a `select *` of an altered table), or the statement is gone. The connection must
 * then be discarded, with its prepared statements; the failure may be the wrapped one, in `cause`.
 */
export function isStaleStatement(error: unknown): boolean {
  const failure = error instanceof AppError && error.cause !== undefined ? error.cause : error;
  if (!(failure instanceof Error) || !('code' in failure)) return false;
  return (
    (failure.code === '0A000' && CHANGED_RESULT.test(failure.message)) || failure.code === NO_SUCH_STATEMENT
  );
}

/** Retryable: the statement is prepared anew, under a new name, on the next attempt. */
export function staleStatementFailure(cause: unknown): AppError {
  return new AppError(
    'unavailable',
    'The database changed while this request was prepared. Try again; it will work.',
    { headers: { 'Retry-After': '1' }, cause },
  );
}

/**
 * What a queries module needs to turn a Postgres refusal into the API's error: the code a SQL function
 * raised (P0001 with the code as its hint), and the constraint a unique violation broke. Only queries
 * modules translate refusals (docs/architecture.md): services see nothing but `AppError`s.
 */
import { ERROR_KINDS, type AppError, type ErrorCode } from './errors.ts';

const RAISED_BY_SQL = 'P0001';
const UNIQUE_VIOLATION = '23505';

interface PostgresError {
  code?: unknown;
  hint?: unknown;
  detail?: unknown;
  constraint?: unknown;
}

const fieldsOf = (error: unknown): PostgresError =>
  typeof error === 'object' && error !== null ? (error as PostgresError) : {};

/** The API error code a SQL function raised with `using errcode = 'P0001', hint = '<code>'`. */
export function raisedErrorCode(error: unknown): ErrorCode | undefined {
  const { code, hint } = fieldsOf(error);
  if (code !== RAISED_BY_SQL || typeof hint !== 'string') return undefined;
  return Object.hasOwn(ERROR_KINDS, hint) ? (hint as ErrorCode) : undefined;
}

/** The name of the unique constraint or index a statement broke. */
export function brokenUniqueConstraint(error: unknown): string | undefined {
  const { code, constraint } = fieldsOf(error);
  return code === UNIQUE_VIOLATION && typeof constraint === 'string' ? constraint : undefined;
}

/** The detail a SQL function raised its error code with, such as the seconds of a Retry-After. */
export function raisedErrorDetail(error: unknown): string | undefined {
  const { code, detail } = fieldsOf(error);
  return code === RAISED_BY_SQL && typeof detail === 'string' ? detail : undefined;
}

/** What a queries module makes of a refusal: the API's error, or undefined for one it does not expect. */
export type Refusals = (error: unknown) => AppError | undefined;

/** Awaits a statement: a refusal that `refusals` knows is thrown as the API's error, any other error as it is. */
export async function refusing<T>(statement: Promise<T>, refusals: Refusals): Promise<T> {
  try {
    return await statement;
  } catch (error) {
    throw refusals(error) ?? error;
  }
}

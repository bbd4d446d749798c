import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import {
  asDatabaseFailure,
  DATABASE_RETRY_AFTER_SECONDS,
  databaseUnavailable,
  isDatabaseUnavailable,
} from './db-errors.ts';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1')],
    ['a reset connection', withCode('ECONNRESET')],
    ['admin shutdown (57P01)', withCode('57P01', 'terminating connection due to administrator command')],
    ['crash shutdown (57P02)', withCode('57P02')],
    ['cannot connect now (57P03)', withCode('57P03', 'the database system is starting up')],
    ['too many connections (53300)', withCode('53300')],
    ['a connection exception (class 08)', withCode('08006')],
    ['a connection lost mid-query', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('timeout exceeded when trying to connect')],
    ['a broken client', new Error('Client has encountered a connection error and is not queryable')],
  ])('is true for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', withCode('23505')],
    ['a syntax error (42601)', withCode('42601')],
    ['an insufficient privilege (42501)', withCode('42501')],
    ['a plain bug', new TypeError('x is undefined')],
    ['a thrown string', 'ECONNREFUSED'],
  ])('is false for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('databaseUnavailable', () => {
  it('is a 503 that says when to retry and keeps the cause for the log', () => {
    const cause = withCode('ECONNREFUSED');
    const error = databaseUnavailable(cause);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'unavailable', status: 503 });
    expect(error.headers).toEqual({ 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
    expect(error.cause).toBe(cause);
    expect(error.detail).not.toContain('ECONNREFUSED');
  });
});

describe('asDatabaseFailure', () => {
  it.each([
    [
      'a statement cancelled by statement_timeout (57014)',
      withCode('57014', 'canceling statement due to statement timeout'),
    ],
    ['an idle transaction ended (25P03)', withCode('25P03')],
  ])('answers %s as 503 unavailable with Retry-After, never 500', (_name, cause) => {
    const error = asDatabaseFailure(cause);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'unavailable', status: 503, cause });
    expect((error as AppError).headers).toEqual({ 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
    expect((error as AppError).detail).not.toContain('canceling');
  });

  it('answers a lost database as unavailable and leaves any other error as it is', () => {
    expect(asDatabaseFailure(withCode('ECONNREFUSED'))).toMatchObject({ code: 'unavailable' });
    const bug = withCode('42601');
    expect(asDatabaseFailure(bug)).toBe(bug);
  });
});

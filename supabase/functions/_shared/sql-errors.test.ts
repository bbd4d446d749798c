import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import { brokenUniqueConstraint, raisedErrorCode, refusing } from './sql-errors.ts';

const pgError = (fields: Record<string, unknown>) => Object.assign(new Error('from postgres'), fields);

describe('reading Postgres refusals', () => {
  it('reads the API error code a SQL function raised, and only a known one', () => {
    expect(raisedErrorCode(pgError({ code: 'P0001', hint: 'last_owner' }))).toBe('last_owner');
    expect(raisedErrorCode(pgError({ code: 'P0001', hint: 'not_a_code' }))).toBeUndefined();
    expect(raisedErrorCode(pgError({ code: 'P0001', hint: 'toString' }))).toBeUndefined();
    expect(raisedErrorCode(pgError({ code: '23505', hint: 'last_owner' }))).toBeUndefined();
    expect(raisedErrorCode('last_owner')).toBeUndefined();
  });

  it('names the unique constraint a statement broke', () => {
    expect(brokenUniqueConstraint(pgError({ code: '23505', constraint: 'workspaces_slug_key' }))).toBe(
      'workspaces_slug_key',
    );
    expect(brokenUniqueConstraint(pgError({ code: '23503', constraint: 'x' }))).toBeUndefined();
  });

  it('throws the API error for a refusal it knows, and any other error as it is', async () => {
    const lastOwner = (error: unknown) =>
      raisedErrorCode(error) === 'last_owner' ? new AppError('last_owner', 'the only owner') : undefined;
    await expect(refusing(Promise.resolve(7), lastOwner)).resolves.toBe(7);
    await expect(
      refusing(Promise.reject(pgError({ code: 'P0001', hint: 'last_owner' })), lastOwner),
    ).rejects.toMatchObject({ code: 'last_owner', detail: 'the only owner' });
    const other = pgError({ code: '23505', constraint: 'x' });
    await expect(refusing(Promise.reject(other), lastOwner)).rejects.toBe(other);
  });
});

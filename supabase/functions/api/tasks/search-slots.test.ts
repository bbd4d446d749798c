import { describe, expect, it } from 'vitest';
import { AppError } from '../../_shared/errors.ts';
import { searchSlots } from './search-slots.ts';

/** A search that runs until `finish` is called. */
function pendingSearch() {
  let finish: (value: string) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { search: () => done, finish, fail };
}

describe('searchSlots', () => {
  it('refuses a user a search beyond the cap with 429 and Retry-After, and lets others search', async () => {
    const slots = searchSlots(2);
    const [first, second] = [pendingSearch(), pendingSearch()];
    const running = [slots.run('alice', first.search), slots.run('alice', second.search)];
    const refused = await slots.run('alice', () => Promise.resolve('third')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'rate_limited', status: 429, headers: { 'Retry-After': '1' } });
    await expect(slots.run('bob', () => Promise.resolve('bob'))).resolves.toBe('bob');
    first.finish('one');
    second.finish('two');
    await expect(Promise.all(running)).resolves.toEqual(['one', 'two']);
  });

  it('gives a slot back when its search ends, whether it succeeded or failed', async () => {
    const slots = searchSlots(1);
    const failing = pendingSearch();
    const running = slots.run('alice', failing.search);
    await expect(slots.run('alice', () => Promise.resolve('x'))).rejects.toMatchObject({ status: 429 });
    failing.fail(new Error('cancelled'));
    await expect(running).rejects.toThrow('cancelled');
    await expect(slots.run('alice', () => Promise.resolve('again'))).resolves.toBe('again');
  });
});

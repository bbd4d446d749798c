/**
 * private.order_key_between, the SQL port of fractional-indexing's generateKeyBetween that a move lands
 * its task with (20261128800000): for every pair of keys the library itself makes while a column is
 * reordered at random (its ends, the gaps between neighbours, long keys after many moves into one gap),
 * the SQL answers the very key the library does, and refuses what it refuses.
 */
import { generateKeyBetween } from 'fractional-indexing';
import { describe, expect, it } from 'vitest';
import { useTestDatabaseClient } from '../support/test-database.ts';

const database = useTestDatabaseClient();

/** A seeded pseudo-random generator (mulberry32), so a failure can be run again. */
function randomFrom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The keys of a column reordered `steps` times, as the board does: at an end or between neighbours. */
function reorderedColumn(steps: number, seed: number): string[] {
  const random = randomFrom(seed);
  const keys: string[] = [];
  for (let step = 0; step < steps; step += 1) {
    // Half of the moves go into the same few gaps, so that some keys grow long.
    const index = random() < 0.5 ? Math.min(keys.length, 3) : Math.floor(random() * (keys.length + 1));
    keys.splice(index, 0, generateKeyBetween(keys[index - 1] ?? null, keys[index] ?? null));
  }
  return keys;
}

type Pair = [string | null, string | null];

async function sqlKeysBetween(pairs: readonly Pair[]): Promise<string[]> {
  const { rows } = await database.db.query<{ key: string }>(
    `select private.order_key_between(pair.a, pair.b) as key
     from unnest($1::text[], $2::text[]) with ordinality as pair(a, b, n) order by pair.n`,
    [pairs.map(([a]) => a), pairs.map(([, b]) => b)],
  );
  return rows.map((row) => row.key);
}

async function sqlRefusal(a: string | null, b: string | null): Promise<string | undefined> {
  try {
    await database.db.query('select private.order_key_between($1, $2)', [a, b]);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('private.order_key_between', () => {
  it('answers what generateKeyBetween answers, between every neighbour and at both ends of reordered columns', async () => {
    for (const seed of [1, 2, 3]) {
      const keys = reorderedColumn(700, seed);
      const pairs: Pair[] = [
        [null, null],
        [null, keys[0] ?? null],
        [keys.at(-1) ?? null, null],
      ];
      keys.forEach((key, index) => {
        const next = keys[index + 1];
        if (next !== undefined) pairs.push([key, next], [next, key]);
        pairs.push([null, key], [key, null]);
      });
      const expected = pairs.map(([a, b]) => generateKeyBetween(a, b));
      expect(Math.max(...keys.map((key) => key.length)), 'some keys grew long').toBeGreaterThan(20);
      expect(await sqlKeysBetween(pairs)).toEqual(expected);
    }
  });

  it('answers the same at the edges of the integer part: the largest and smallest heads, carries', async () => {
    const largest = 'z' + 'z'.repeat(26);
    const pairs: Pair[] = [
      ['Zz', null],
      ['az', null],
      ['azz', null],
      [null, 'b00'],
      [null, 'a0'],
      [null, 'Z0'],
      [null, 'A' + '0'.repeat(25) + '1'],
      [null, 'A' + '0'.repeat(26) + 'V'],
      [largest, null],
      [largest + 'V', null],
      ['a0', 'a1'],
      ['a0', 'a0V'],
      ['a0V', 'a1'],
      ['a1', 'b00'],
      ['Zz', 'a0'],
      ['a0z', 'a1'],
      ['a0zzzz', 'a1'],
    ];
    expect(await sqlKeysBetween(pairs)).toEqual(pairs.map(([a, b]) => generateKeyBetween(a, b)));
  });

  it('refuses what generateKeyBetween refuses', async () => {
    const refused: Pair[] = [
      ['a0', 'a0'],
      ['a00', null],
      [null, 'A' + '0'.repeat(26)],
      ['a', null],
      ['!0', null],
      ['z'.repeat(27), 'z'.repeat(27)],
    ];
    for (const [a, b] of refused) {
      expect(() => generateKeyBetween(a, b), `the library refuses ${a}, ${b}`).toThrow();
      expect(await sqlRefusal(a, b), `SQL refuses ${a}, ${b}`).toBeDefined();
    }
  });
});

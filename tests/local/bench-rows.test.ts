/** `npm run bench -- --rows a,b,f`: which steps of the bench a choice of rows runs. */
import { expect, test } from 'vitest';
import { BENCH_STEPS, stepsFor } from '../../bench/bench.ts';

test('every step runs when no rows are chosen', () => {
  expect([...stepsFor(undefined)]).toEqual([...BENCH_STEPS]);
});

test('a row, or its letter, runs the step that measures it, and only that', () => {
  expect([...stepsFor(['a4', 'b', 'f'])].sort()).toEqual(['a', 'b', 'ef']);
  expect([...stepsFor(['E', 'j'])].sort()).toEqual(['ef', 'ghijm']);
});

test('a row the bench has not is refused', () => {
  expect(() => stepsFor(['z'])).toThrow('no bench row "z"');
});

import { afterEach, beforeEach, vi } from 'vitest';

/**
 * A test fails when code under test calls console.error unexpectedly. A test that expects an error log
 * reads it from `expectedConsoleErrors()` and clears it.
 */
let captured: unknown[][] = [];

beforeEach(() => {
  captured = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    captured.push(args);
  });
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  const unexpected = captured;
  captured = [];
  if (unexpected.length > 0) {
    const lines = unexpected.map((args) => args.map(String).join(' ')).join('\n');
    throw new Error(`Unexpected console.error during the test:\n${lines}`);
  }
});

/** Returns and clears what console.error received so far in this test. */
export function expectedConsoleErrors(): unknown[][] {
  const seen = captured;
  captured = [];
  return seen;
}

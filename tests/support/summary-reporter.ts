import type { SerializedError } from '@vitest/utils';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line, `vitest: N passed, N failed[, N skipped]`, that CI can read. A file that
 * failed without a failed test (it could not load, or a hook threw) and an unhandled error each count as
 * one failure, so the line never says 0 failed over a red run.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failedHere += 1;
        else skipped += 1;
      }
      failed += failedHere === 0 && module.state() === 'failed' ? 1 : failedHere;
    }
    const tail = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed${tail}\n`);
  }
}

import { describe, expect, it } from 'vitest';
import { createJsonLogger } from './logger.ts';
import type { LogLevel } from './logger.ts';

function recorder(level: LogLevel) {
  const lines: { line: string; level: LogLevel }[] = [];
  const logger = createJsonLogger({ level, write: (line, at) => lines.push({ line, level: at }) });
  return { logger, lines };
}

describe('createJsonLogger', () => {
  it('writes one JSON object per line with level, message and fields', () => {
    const { logger, lines } = recorder('debug');
    logger.info('request', { request_id: 'r1', status: 200 });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.line).not.toContain('\n');
    expect(JSON.parse(lines[0]?.line ?? '')).toMatchObject({
      level: 'info',
      msg: 'request',
      request_id: 'r1',
      status: 200,
    });
  });

  it('drops lines below the configured level', () => {
    const { logger, lines } = recorder('warn');
    logger.debug('a');
    logger.info('b');
    logger.warn('c');
    logger.error('d');
    expect(lines.map((entry) => entry.level)).toEqual(['warn', 'error']);
  });
});

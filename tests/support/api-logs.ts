/** A logger for the app under test that keeps every line, parsed, instead of printing it. */
import { createJsonLogger } from '../../supabase/functions/_shared/logger.ts';
import type { Logger } from '../../supabase/functions/_shared/logger.ts';

export type LogEntry = Readonly<Record<string, unknown>>;

export interface CapturedLogs {
  logger: Logger;
  entries: LogEntry[];
  /** The lines written for one request. */
  forRequest(requestId: string): LogEntry[];
}

export function captureLogs(): CapturedLogs {
  const entries: LogEntry[] = [];
  const logger = createJsonLogger({
    level: 'debug',
    write: (line) => {
      entries.push(JSON.parse(line) as LogEntry);
    },
  });
  return { logger, entries, forRequest: (id) => entries.filter((entry) => entry.request_id === id) };
}

/** Structured logging: one JSON object per line. Injected everywhere, so tests capture it. */

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFields = Readonly<Record<string, string | number | boolean | null | undefined>>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

export interface JsonLoggerOptions {
  level?: LogLevel;
  write?: (line: string, level: LogLevel) => void;
}

export function createJsonLogger({ level = 'info', write = writeToConsole }: JsonLoggerOptions = {}): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const at =
    (entryLevel: LogLevel) =>
    (msg: string, fields: LogFields = {}): void => {
      if (LOG_LEVELS.indexOf(entryLevel) < threshold) return;
      write(
        JSON.stringify({ level: entryLevel, msg, ...fields, time: new Date().toISOString() }),
        entryLevel,
      );
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function writeToConsole(line: string, level: LogLevel): void {
  if (level === 'warn' || level === 'error') console.error(line);
  else console.log(line);
}

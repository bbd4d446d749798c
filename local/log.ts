/** One line per event, prefixed with the part of the stand-in it comes from. */
export type Log = (source: string, line: string) => void;

export const printLog: Log = (source, line) => {
  process.stdout.write(`[${source}] ${line}\n`);
};

/** Postgres is chatty at start; only what needs attention is shown. */
export function isNoteworthyPostgresLine(line: string): boolean {
  return /\b(WARNING|ERROR|FATAL|PANIC):/.test(line);
}

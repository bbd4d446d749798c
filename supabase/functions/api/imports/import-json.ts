/**
 * JSON read for an import: the document, or an error problem that says where the text stops being
 * JSON (a truncated file ends early, so its position is its end).
 */
import type { ImportProblem } from './import-source.ts';

export type JsonReading = { ok: true; value: unknown } | { ok: false; problem: ImportProblem };

/** Line and column (1-based) of a UTF-16 offset in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index >= 0 && index < offset; index = text.indexOf('\n', index + 1)) {
    line += 1;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

export function readJson(text: string, what: string): JsonReading {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const stated = /position (\d+)/.exec(message);
    const offset = stated ? Number(stated[1]) : body.trimEnd().length;
    const { line, column } = lineAndColumn(body, offset);
    // V8 names no position for some early ends ("Unexpected end of JSON input"), and the end for others.
    const truncated = offset >= body.trimEnd().length - 1 || /end of (JSON )?input/i.test(message);
    return {
      ok: false,
      problem: {
        severity: 'error',
        location: `position ${offset} (line ${line}, column ${column})`,
        message: truncated
          ? `${what} is not whole: the JSON ends early, at position ${offset} (is the file truncated?)`
          : `${what} is not valid JSON at position ${offset} (line ${line}, column ${column})`,
      },
    };
  }
}

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const stringOf = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export const numberOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

export const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

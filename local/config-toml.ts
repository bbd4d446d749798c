import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const SECTION = /^\[([^\]]+)\]\s*(?:#.*)?$/;
const STRING_ENTRY = /^([A-Za-z0-9_-]+)\s*=\s*("(?:[^"\\]|\\.)*")\s*(?:#.*)?$/;

/**
 * The string entries of one table of `supabase/config.toml`. The stand-in reads only a few such tables
 * (the mail templates), so this reads basic one-line strings and nothing else of TOML.
 */
export function configTomlStrings(projectDir: string, table: string): Record<string, string> {
  const text = readFileSync(join(projectDir, 'supabase', 'config.toml'), 'utf8');
  const entries: Record<string, string> = {};
  let current = '';
  for (const line of text.split('\n').map((raw) => raw.trim())) {
    const section = SECTION.exec(line);
    if (section) current = section[1] ?? '';
    const entry = current === table ? STRING_ENTRY.exec(line) : null;
    if (entry?.[1] && entry[2]) entries[entry[1]] = JSON.parse(entry[2]) as string;
  }
  return entries;
}

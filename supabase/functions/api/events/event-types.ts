/**
 * The event types the database's triggers append (supabase/migrations: every caller of
 * private.append_event), which openapi.yaml lists as `EventType`; and `?types=`, the feed's filter on them.
 */
import { z } from 'zod';
import { EVENT_TYPES } from '../../_shared/vocabulary/spec-values.ts';

export { EVENT_TYPES };

/** What an event is about: `task` for `task.moved`. `resource.*` asks for all of its types. */
export const EVENT_RESOURCES = [...new Set(EVENT_TYPES.map((type) => type.split('.')[0] ?? type))];

/** Which events a feed reader asked for: these types, and every type of these resources. */
export interface EventTypeFilter {
  types: string[];
  resources: string[];
}

const KNOWN_TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);
const KNOWN_RESOURCES: ReadonlySet<string> = new Set(EVENT_RESOURCES);
const ALL_OF_A_RESOURCE = /^([a-z_]+)\.\*$/;

/** Longer than any list of distinct types, short enough that nobody sends megabytes through it. */
export const EVENT_TYPES_MAX_LENGTH = 512;

/** `?types=task.*,comment.created`: a comma-separated list of types and `resource.*`, all of them known. */
export const EventTypesParameter = z
  .string()
  .max(EVENT_TYPES_MAX_LENGTH, `must be at most ${EVENT_TYPES_MAX_LENGTH} characters`)
  .transform((text, context): EventTypeFilter => {
    const filter: EventTypeFilter = { types: [], resources: [] };
    for (const entry of text.split(',')) {
      const resource = ALL_OF_A_RESOURCE.exec(entry)?.[1];
      if (resource !== undefined && KNOWN_RESOURCES.has(resource)) filter.resources.push(resource);
      else if (KNOWN_TYPES.has(entry)) filter.types.push(entry);
      else {
        context.issues.push({
          code: 'custom',
          input: text,
          message: `${JSON.stringify(entry)} is neither an event type nor one of ${EVENT_RESOURCES.map((name) => `${name}.*`).join(', ')}`,
        });
        return z.NEVER;
      }
    }
    return filter;
  });

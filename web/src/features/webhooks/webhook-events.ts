import { EVENT_TYPES } from '@shared/vocabulary/spec-values.ts';

/** Everything, as a webhook's event filter. */
export const EVERY_EVENT = '*';

export interface EventGroup {
  resource: string;
  /** `resource.*`: every type of the resource, those added later too. */
  all: string;
  types: readonly string[];
}

/** The event types by resource, in the spec's order: task, comment, project, label, member, attachment. */
export const EVENT_GROUPS: readonly EventGroup[] = groupByResource(EVENT_TYPES);

function groupByResource(types: readonly string[]): EventGroup[] {
  const groups = new Map<string, string[]>();
  for (const type of types) {
    const resource = type.split('.')[0] ?? type;
    groups.set(resource, [...(groups.get(resource) ?? []), type]);
  }
  return [...groups].map(([resource, members]) => ({ resource, all: `${resource}.*`, types: members }));
}

/** Whether `type` is delivered by a webhook listening to `events`, through `*` or `resource.*`. */
export function coversEvent(events: readonly string[], type: string): boolean {
  const resource = type.split('.')[0];
  return events.includes(EVERY_EVENT) || events.includes(`${resource}.*`) || events.includes(type);
}

/**
 * The filters after ticking or unticking `filter`: a wider filter replaces the narrower ones it covers, so
 * the list sent stays short and names no type twice.
 */
export function toggleEvent(events: readonly string[], filter: string, on: boolean): string[] {
  if (!on) return events.filter((event) => event !== filter);
  if (filter === EVERY_EVENT) return [EVERY_EVENT];
  if (filter.endsWith('.*')) {
    const resource = filter.slice(0, -2);
    return [...events.filter((event) => event.split('.')[0] !== resource), filter];
  }
  return [...events, filter];
}

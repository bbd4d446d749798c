import { randomBytes } from 'node:crypto';
import { namespaceOf, type Channel } from './channel.ts';

export type PresenceMeta = Record<string, unknown> & { phx_ref: string; phx_ref_prev?: string };
export type PresenceGroups = Record<string, { metas: PresenceMeta[] }>;
export interface PresenceDiff {
  joins: PresenceGroups;
  leaves: PresenceGroups;
}

interface Tracked {
  key: string;
  meta: PresenceMeta;
}

/** Who is present on each topic (per namespace): one entry per tracking channel, as Phoenix Presence. */
export class PresenceStore {
  private readonly topics = new Map<string, Map<Channel, Tracked>>();

  /** `presence_state`: every key with its metas. */
  state(isPrivate: boolean, subTopic: string): PresenceGroups {
    const groups: PresenceGroups = {};
    for (const { key, meta } of this.topics.get(namespaceOf(isPrivate, subTopic))?.values() ?? []) {
      (groups[key] ??= { metas: [] }).metas.push(meta);
    }
    return groups;
  }

  /** Tracks (or replaces) the channel's state; null when nothing changed. */
  track(channel: Channel, state: Record<string, unknown>): PresenceDiff | null {
    const entries = this.entriesOf(channel);
    const previous = entries.get(channel);
    if (previous && sameState(previous.meta, state)) return null;
    const meta: PresenceMeta = { ...state, phx_ref: newPhxRef() };
    if (previous) meta.phx_ref_prev = previous.meta.phx_ref;
    entries.set(channel, { key: channel.presenceKey, meta });
    return {
      joins: { [channel.presenceKey]: { metas: [meta] } },
      leaves: previous ? { [previous.key]: { metas: [previous.meta] } } : {},
    };
  }

  /** Forgets the channel's presence; null when it had none. */
  untrack(channel: Channel): PresenceDiff | null {
    const key = namespaceOf(channel.isPrivate, channel.subTopic);
    const entries = this.topics.get(key);
    const previous = entries?.get(channel);
    if (!entries || !previous) return null;
    entries.delete(channel);
    if (entries.size === 0) this.topics.delete(key);
    return { joins: {}, leaves: { [previous.key]: { metas: [previous.meta] } } };
  }

  private entriesOf(channel: Channel): Map<Channel, Tracked> {
    const key = namespaceOf(channel.isPrivate, channel.subTopic);
    const entries = this.topics.get(key) ?? new Map<Channel, Tracked>();
    this.topics.set(key, entries);
    return entries;
  }
}

function sameState(meta: PresenceMeta, state: Record<string, unknown>): boolean {
  const { phx_ref: _ref, phx_ref_prev: _prev, ...tracked } = meta;
  return JSON.stringify(tracked) === JSON.stringify(state);
}

/** Phoenix's refs are opaque strings such as "F1a…". */
function newPhxRef(): string {
  return `F${randomBytes(9).toString('base64url')}`;
}

/**
 * Events are read in the order their changes committed: by `seq`, numbered per workspace under a lock
 * held until commit (docs/decisions/0010), so an event that commits while someone pages can only land
 * after their cursor. Ids are handed out at insert time, in no such order, and are never a position.
 */
import { z } from 'zod';

const Seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** A place in a workspace's feed: the workspace (a cursor fits one feed only) and the last seq read. */
export const FeedPositionKey = z.tuple([z.uuid(), Seq]);
export type FeedPositionKey = z.output<typeof FeedPositionKey>;

/** A place in a task's activity: the seq of the last event a page held. */
export const ActivitySeqKey = z.tuple([Seq]);
export type ActivitySeqKey = z.output<typeof ActivitySeqKey>;

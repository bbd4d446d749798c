import type { Db } from '../db.ts';

export interface BroadcastRow {
  id: string;
  topic: string;
  event: string | null;
  payload: unknown;
  binary_payload: Buffer | null;
  private: boolean | null;
}

export async function readBroadcast(db: Db, id: string): Promise<BroadcastRow | null> {
  const { rows } = await db.query<BroadcastRow>(
    `select id, topic, event, payload, binary_payload, private
     from realtime.messages where id = $1 and extension = 'broadcast'`,
    [id],
  );
  return rows[0] ?? null;
}

/** Hosted keeps daily partitions for about three days; this drops what is older than `retentionMs`. */
export async function deleteOldMessages(db: Db, retentionMs: number): Promise<number> {
  const { rowCount } = await db.query(
    `delete from realtime.messages where inserted_at < now() - make_interval(secs => $1::float8 / 1000)`,
    [retentionMs],
  );
  return rowCount ?? 0;
}

/**
 * Keyset pagination, the part services and queries see (docs/decisions/0006). A list is read in the
 * order of a sort key that is unique per row, e.g. `(created_at, id)`; a page is the rows after the last
 * key the previous page held, so rows inserted meanwhile never shift a page and no row is seen twice.
 *
 * A queries module selects the key as `json_build_array(created_at, id) as sort_key` (JSON keeps the
 * timestamp's microseconds, which a JS Date would drop), filters on
 * `($1::timestamptz is null or (created_at, id) > ($1::timestamptz, $2::uuid))`, orders by the key and
 * fetches `rowsToFetch(page)` rows; the service hands them to `pageOf`.
 */
import { z } from 'zod';

/** The values a row sorts by, in order, as Postgres wrote them to JSON. */
export type SortKey = readonly (string | number)[];

/** Which page to read: at most `limit` rows, after the row whose key is `cursor` (from the start if none). */
export interface PageRequest<Key extends SortKey = SortKey> {
  limit: number;
  cursor?: Key | undefined;
}

/** A page of a list: its items, and the key to continue after, or null when the list ends here. */
export interface Page<Item> {
  data: Item[];
  next: SortKey | null;
}

/**
 * Whether Postgres reads this ISO 8601 date or timestamp back: it has no year 0 (1 BC is `0001 BC`),
 * and refuses offsets past ±15:59. The format admits both, so a hand-made cursor could carry them.
 */
function postgresReads(isoDateOrTimestamp: string): boolean {
  const offset = /([+-])(\d{2}):\d{2}$/.exec(isoDateOrTimestamp);
  return !isoDateOrTimestamp.startsWith('0000') && (!offset || Number(offset[2]) <= 15);
}

/** A timestamp in a sort key, as Postgres writes `timestamptz` to JSON and can read back. */
export const KeyTimestamp = z.iso.datetime({ offset: true }).refine(postgresReads);
/** A date in a sort key, as Postgres writes `date` to JSON and can read back. */
export const KeyDate = z.iso.date().refine(postgresReads);

/** The usual sort key: creation time, then id to break ties. */
export const CreatedAtIdKey = z.tuple([KeyTimestamp, z.uuid()]);
export type CreatedAtIdKey = z.output<typeof CreatedAtIdKey>;

/** One row more than the page holds: whether it comes back tells whether there is a next page. */
export function rowsToFetch(page: PageRequest): number {
  return page.limit + 1;
}

/** Makes a page from the `rowsToFetch(page)` rows a query answered, in order, each with its `sort_key`. */
export function pageOf<Row extends { sort_key: SortKey }, Item>(
  rows: readonly Row[],
  page: PageRequest,
  toItem: (row: Row) => Item,
): Page<Item> {
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    data: shown.map(toItem),
    next: rows.length > page.limit && last ? last.sort_key : null,
  };
}

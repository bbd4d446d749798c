/**
 * The order labels are listed in: by name whatever the case, then by id to break ties between names
 * that differ only in ways `lower()` folds. A page cursor carries this key, as Postgres wrote it.
 */
import { z } from 'zod';

export const LowerNameIdKey = z.tuple([z.string(), z.uuid()]);
export type LowerNameIdKey = z.output<typeof LowerNameIdKey>;

/**
 * The rules for an import's form (openapi.yaml's CreateImport and ImportOptions), written once: the API
 * validates with them and the web's import screen does too. Imports nothing but zod and the shared rules,
 * so the browser bundle can import this file as is.
 */
import { z } from 'zod';
import { IMPORT_SOURCES } from '../../_shared/vocabulary/spec-values.ts';
import { ProjectKeySchema, ProjectNameSchema } from '../projects/projects.schemas.ts';
import { TaskStatusSchema } from '../tasks/tasks.schemas.ts';
import { CSV_FIELDS } from './csv-mapping.ts';

/** What a CSV column may be taken for: a task's field, or nothing. */
export const CSV_COLUMN_USES = [...CSV_FIELDS, 'ignored'] as const;

/** How many problems an answer lists; a file with more says how many were left out. */
export const IMPORT_PROBLEMS_SHOWN = 1_000;
/** How many of each project's first tasks a preview shows. */
export const IMPORT_PREVIEW_TASKS = 10;

export const ImportSourceSchema = z.enum(IMPORT_SOURCES, `must be one of ${IMPORT_SOURCES.join(', ')}`);

export const ImportOptionsSchema = z.strictObject({
  project: z
    .strictObject({ key: ProjectKeySchema.optional(), name: ProjectNameSchema.optional() })
    .optional(),
  statuses: z.record(z.string().max(300, 'must name a column of the file'), TaskStatusSchema).optional(),
  archived: z.enum(['skip', 'canceled'], 'must be skip or canceled').default('skip'),
  csv_columns: z
    .record(
      z.string().max(200, 'must be a header of the file'),
      z.enum(CSV_COLUMN_USES, `must be one of ${CSV_COLUMN_USES.join(', ')}`),
    )
    .optional(),
});
export type ImportOptionsInput = z.output<typeof ImportOptionsSchema>;

export const DryRunSchema = z.enum(['true', 'false'], 'must be true or false').transform((v) => v === 'true');

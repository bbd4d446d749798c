// `npm run gen`: writes the spec's vocabulary (supabase/functions/_shared/vocabulary/spec-values.ts) from
// openapi.yaml: every named enum as a constant list, and the string rules the board's URLs need.
import { readFileSync, writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { parse } from 'yaml';

export const SPEC_VALUES_PATH = 'supabase/functions/_shared/vocabulary/spec-values.ts';

interface StringSchema {
  type?: string;
  enum?: string[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}
interface Spec {
  components: {
    schemas: Record<string, StringSchema & { properties?: Record<string, StringSchema> }>;
    parameters: Record<string, { schema?: StringSchema }>;
  };
}

/** `TaskStatus` → `TASK_STATUSES`, `ApiTokenScope` → `API_TOKEN_SCOPES`. */
function listName(schemaName: string): string {
  const words = schemaName.split(/(?=[A-Z])/).map((word) => word.toUpperCase());
  const last = words.pop() ?? '';
  const plural = /[^AEIOU]Y$/.test(last)
    ? `${last.slice(0, -1)}IES`
    : /(S|X|SH|CH)$/.test(last)
      ? `${last}ES`
      : `${last}S`;
  return [...words, plural].join('_');
}

function enumLines(name: string, schema: StringSchema | undefined): string[] {
  if (schema?.type !== 'string' || !schema.enum) return [];
  return [`export const ${listName(name)} = ${JSON.stringify(schema.enum)} as const;`];
}

function ruleLines(name: string, schema: StringSchema | undefined, from: string): string[] {
  const { minLength, maxLength, pattern } = schema ?? {};
  if (minLength === undefined || maxLength === undefined || pattern === undefined)
    throw new Error(`openapi.yaml: ${from} lacks minLength, maxLength or pattern`);
  return [
    `/** ${from}. */`,
    `export const ${name} = { minLength: ${minLength}, maxLength: ${maxLength}, pattern: /${pattern}/ } as const;`,
  ];
}

/** The module's text, formatted as the repository's prettier config asks. */
export async function specValuesSource(specText = readFileSync('openapi.yaml', 'utf8')): Promise<string> {
  const { schemas, parameters } = (parse(specText) as Spec).components;
  const lines = [
    '// Generated from openapi.yaml by `npm run gen` (scripts/generate-vocabulary.ts): do not edit.',
    '// Each list is in the order the spec gives (the board orders its columns by TASK_STATUSES).',
    '',
    ...Object.entries(schemas).flatMap(([name, schema]) => enumLines(name, schema)),
    ...Object.entries(parameters).flatMap(([name, parameter]) => enumLines(name, parameter.schema)),
    '',
    ...ruleLines('PROJECT_KEY', schemas.ProjectKey, 'components.schemas.ProjectKey'),
    ...ruleLines(
      'WORKSPACE_SLUG',
      schemas.CreateWorkspace?.properties?.slug,
      'components.schemas.CreateWorkspace.properties.slug',
    ),
  ];
  const options = await resolveConfig(SPEC_VALUES_PATH);
  return format(`${lines.join('\n')}\n`, { ...options, filepath: SPEC_VALUES_PATH });
}

if (import.meta.url === `file://${process.argv[1]}`)
  writeFileSync(SPEC_VALUES_PATH, await specValuesSource());

/**
 * fast-check arbitraries of hostile requests for one operation of openapi.yaml: a valid call (from
 * tests/support/operations.ts) with exactly one part broken — a path parameter, the query string, an
 * If-Match or If-None-Match header, or the body — in a way that is invalid for sure, so that any success is a bug. Each request says which
 * statuses may answer it. What "invalid" means comes from the spec itself: bodies are checked against the
 * operation's request schema, query values against the parameter's schema, read as leniently as any
 * server might.
 */
import fc from 'fast-check';
import type { ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { JSON_BODY_MAX_BYTES, JSON_BODY_MAX_DEPTH } from '../../supabase/functions/_shared/limits.ts';
import { openApi } from './openapi.ts';
import { addressOf, type Operation, type PreparedCall } from './operations.ts';

type JsonSchema = Record<string, unknown>;

interface ParameterObject {
  $ref?: string;
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  schema?: JsonSchema;
}

interface SpecOperation {
  operationId: string;
  parameters?: ParameterObject[];
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
}

export interface HostileRequest {
  /** Which part is broken, and how. */
  broken: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The statuses a correct API may answer. */
  expected: readonly number[];
}

const SPEC_ID = 'https://tasklane.dev/hostile-input/openapi.yaml';
const ajv = new Ajv2020({ strict: true });
addFormats(ajv);
ajv.addVocabulary(['example']);
ajv.addSchema({ $id: SPEC_ID, $defs: withAbsoluteRefs(openApi.components.schemas) });
const validators = new WeakMap<JsonSchema, ValidateFunction>();

function isValid(schema: JsonSchema, value: unknown): boolean {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(withAbsoluteRefs(schema));
    validators.set(schema, validate);
  }
  return validate(value);
}

function withAbsoluteRefs<T>(node: T): T {
  return JSON.parse(JSON.stringify(node).replaceAll('"#/components/schemas/', `"${SPEC_ID}#/$defs/`)) as T;
}

function resolved<T extends { $ref?: string }>(node: T): T {
  if (!node.$ref) return node;
  const [, , section, name] = node.$ref.split('/');
  const target = section && name ? openApi.components[section]?.[name] : undefined;
  if (!target) throw new Error(`unresolved reference ${node.$ref}`);
  return resolved(target as T);
}

function specOperation(operation: Operation): { item: Record<string, unknown>; spec: SpecOperation } {
  const item = openApi.paths[operation.path] as Record<string, unknown> | undefined;
  const spec = item?.[operation.method] as SpecOperation | undefined;
  if (!item || !spec) throw new Error(`openapi.yaml has no ${operation.method} ${operation.path}`);
  return { item, spec };
}

function parametersOf(operation: Operation, where: ParameterObject['in']): ParameterObject[] {
  const { item, spec } = specOperation(operation);
  const shared = (item.parameters ?? []) as ParameterObject[];
  return [...shared, ...(spec.parameters ?? [])].map(resolved).filter((parameter) => parameter.in === where);
}

function bodySchemaOf(operation: Operation): JsonSchema | undefined {
  const content = specOperation(operation).spec.requestBody?.content ?? {};
  const media = content['application/json'] ?? content['application/merge-patch+json'];
  return media?.schema ? resolved(media.schema) : undefined;
}

// ── hostile values ──

const SQL_ISH = [
  "' or '1'='1",
  "'; drop table public.workspaces; --",
  '1; select pg_sleep(5)',
  "' union select token_hash from public.api_tokens --",
  '%',
  '_',
  '\\',
  "\\'",
  '$$',
  '$1',
];
const TRICKY = [
  '',
  ' ',
  '\t\r\n',
  '\u0000',
  'a\u0000b',
  '\u202Eevil\u202C',
  '\u200B',
  '\uFEFF',
  '👩‍👩‍👧‍👦🚀',
  'مرحبا بالعالم',
  'Z̤͔ͧ̑̓ä͖̭̈̇l͖͎g̞̥͈o',
  '__proto__',
  'constructor',
  'prototype',
  'null',
  'undefined',
  'NaN',
  'true',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '${7*7}{{7*7}}',
];

const longString = fc
  .tuple(fc.constantFrom('x', 'é', '🚀', '\u0000', ' ', "'"), fc.integer({ min: 256, max: 20_000 }))
  .map(([unit, count]) => unit.repeat(count));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SQL_ISH, ...TRICKY) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 64 }) },
  { weight: 1, arbitrary: longString },
);

const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    2 ** 31,
    -(2 ** 31) - 1,
    0.5,
    1e-300,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.boolean(),
  fc.constant(null),
);

const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'id',
    'object',
    'version',
    'created_at',
    'updated_at',
    'created_by',
    'workspace_id',
    'user_id',
    'owner',
    'is_admin',
    'token_hash',
    'archived_at',
    "name'; drop table public.workspaces; --",
    ' ',
    '\u0000',
    'NAME',
    'name ',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }),
);

/** `{"k":v,…}` from values already written as JSON; by hand, so that keys like `__proto__` arrive as such. */
function objectText(entries: readonly (readonly [string, string])[]): string {
  return `{${entries.map(([key, text]) => `${JSON.stringify(key)}:${text}`).join(',')}}`;
}

function entriesOf(body: Record<string, unknown>): [string, string][] {
  return Object.entries(body).map(([key, value]) => [key, JSON.stringify(value)]);
}

const hostileObjectText: fc.Arbitrary<string> = fc
  .uniqueArray(fc.tuple(hostileKey, hostileScalar), { maxLength: 4, selector: ([key]) => key })
  .map((entries) => objectText(entries.map(([key, value]) => [key, JSON.stringify(value)])));

const deeplyNested: fc.Arbitrary<string> = fc
  .integer({ min: 100, max: 5_000 })
  .map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`);

/** Levels of arrays and objects in a JSON text; iterative, as deep texts are the point. */
function nestingDepth(text: string): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[JSON.parse(text), 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, depth] = next;
    if (typeof value !== 'object' || value === null) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const item of Object.values(value)) pending.push([item, depth + 1]);
  }
  return deepest;
}

/** A body nested deeper than the API reads is `400` before anything else looks at it. */
function expectedForBody(body: string, otherwise: readonly number[]): readonly number[] {
  return nestingDepth(body) > JSON_BODY_MAX_DEPTH ? [400] : otherwise;
}

/** Any JSON value but the right one, as text: scalars, arrays, objects with hostile keys, deep nesting. */
const hostileValueText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: hostileScalar.map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 4 }).map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: hostileObjectText },
  { weight: 1, arbitrary: deeplyNested },
);

// ── path parameters ──

const RAW_SEGMENTS = ['%', '%zz', '%FF', '%C0%AF', '%00', '%2F', '%5C', '%u0041', '%E2%80%AE', '%20', '%0A'];

/** Segments that name nothing: hostile text, other UUIDs, malformed escapes, near misses of `real`. */
function hostileSegment(real: string): fc.Arbitrary<string> {
  const nearMisses = [
    `${real}%00`,
    `${real}'`,
    `${real}%27%20or%20%271%27%3D%271`,
    real.slice(0, -1),
    `${real.slice(0, -1)}g`,
    real.toLowerCase(),
  ].filter((segment) => segment !== real && segment !== '');
  return fc
    .oneof(
      hostileString.map((text) => encodeURIComponent(text)),
      fc.uuid(),
      fc.constantFrom(...RAW_SEGMENTS),
      fc.constantFrom(...nearMisses),
    )
    .filter((segment) => !namesTheSameThing(segment, real));
}

/**
 * Whether the segment could still address `real`, or another route: `real` itself, or an empty or dot
 * segment, which URL parsing removes or resolves before the API sees the path.
 */
function namesTheSameThing(segment: string, real: string): boolean {
  const decoded = safeDecode(segment);
  return decoded === real || ['', '.', '..'].includes(decoded);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

// ── query strings ──

const QUERY_VALUES = ['0', '-1', '201', '1.5', '1e2', '9'.repeat(40), 'NaN', 'Infinity', '0x10', ' 5', '+5'];
const hostileQueryValue = fc.oneof(hostileString, fc.constantFrom(...QUERY_VALUES, 'TRUE', 'yes', '1', 'on'));

/** True when no reasonable reading of `value` satisfies `schema` (numbers are parsed every lenient way). */
function surelyInvalidQueryValue(parameter: ParameterObject, value: string): boolean {
  const schema = resolved(parameter.schema ?? {});
  if (schema.type === 'integer' || schema.type === 'number') {
    const readings = [Number(value), Number.parseInt(value, 10), Number.parseFloat(value)];
    return readings.every((reading) => !fitsNumber(schema, reading));
  }
  if (Array.isArray(schema.enum)) {
    const loose = value.trim().toLowerCase();
    return !schema.enum.some((allowed) => String(allowed).toLowerCase() === loose);
  }
  if (parameter.name === 'cursor') return !couldBeCursor(value);
  return !isValid(schema, value);
}

function fitsNumber(schema: JsonSchema, reading: number): boolean {
  if (!Number.isFinite(reading)) return false;
  if (schema.type === 'integer' && !Number.isInteger(reading)) return false;
  if (typeof schema.minimum === 'number' && reading < schema.minimum) return false;
  return !(typeof schema.maximum === 'number' && reading > schema.maximum);
}

/** Whether `value` decodes the way this API's cursors do: base64url of a JSON array that starts with 1. */
function couldBeCursor(value: string): boolean {
  try {
    const content: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    return Array.isArray(content) && content[0] === 1;
  } catch {
    return false;
  }
}

/** Whether some value of this parameter is invalid, so that a value can be generated for it. */
function canBeBroken(parameter: ParameterObject): boolean {
  const schema = resolved(parameter.schema ?? {});
  const constrained = ['enum', 'pattern', 'maxLength', 'minLength', 'format', 'minimum', 'maximum'];
  return parameter.name === 'cursor' || constrained.some((keyword) => keyword in schema);
}

/** Percent-encoded throughout (a space as `%20`, never `+`), so the API reads exactly `name` and `value`. */
function queryOf(name: string, value: string): string {
  return `?${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
}

/**
 * Cursors whose position Postgres cannot read (there is no year 0; offsets end at ±15:59), in the shapes
 * this API's keys take: `[time, id]`, or `[sort, time or date, id]` for tasks. Labels page by name, where
 * any text is a position, so they get only the shapes with a sort.
 */
const OUT_OF_RANGE_TIMES = [
  '0000-01-01T00:00:00Z',
  '0000-12-31T23:59:59.999999+00:00',
  '2026-11-22T12:00:00+23:59',
];
function hostileCursor(operation: Operation): fc.Arbitrary<string> {
  const sorts = ['created_at', '-updated_at', 'due_date', '-due_date'];
  const shapes = operation.operationId === 'listLabels' ? sorts : [null, ...sorts];
  return fc
    .tuple(fc.constantFrom(...OUT_OF_RANGE_TIMES), fc.constantFrom(...shapes), fc.uuid())
    .map(([time, sort, id]) => {
      const key = sort === null ? [time, id] : [sort, sort.endsWith('due_date') ? '0000-01-01' : time, id];
      return Buffer.from(JSON.stringify([1, ...key])).toString('base64url');
    });
}

function brokenQuery(operation: Operation): fc.Arbitrary<{ broken: string; query: string }> {
  const parameters = parametersOf(operation, 'query');
  const known = parameters.map(({ name }) => name);
  const unknownParameter = fc
    .tuple(
      hostileKey.filter((name) => name !== '' && !known.includes(name)),
      hostileQueryValue,
    )
    .map(([name, value]) => ({
      broken: `query: unknown parameter ${JSON.stringify(name)}`,
      query: queryOf(name, value),
    }));
  const outOfRangeCursor = hostileCursor(operation).map((cursor) => ({
    broken: `query: cursor of ${Buffer.from(cursor, 'base64url').toString('utf8')}`,
    query: queryOf('cursor', cursor),
  }));
  const breakable = parameters.filter(canBeBroken);
  if (breakable.length === 0) return unknownParameter;
  if (known.includes('cursor')) return fc.oneof(unknownParameter, badValueOf(breakable), outOfRangeCursor);
  return fc.oneof(unknownParameter, badValueOf(breakable));
}

function badValueOf(breakable: readonly ParameterObject[]): fc.Arbitrary<{ broken: string; query: string }> {
  return fc.constantFrom(...breakable).chain((parameter) =>
    hostileQueryValue
      .filter((value) => surelyInvalidQueryValue(parameter, value))
      .map((value) => ({
        broken: `query: ${parameter.name}=${JSON.stringify(value.slice(0, 60))}`,
        query: queryOf(parameter.name, value),
      })),
  );
}

// ── conditional headers ──

const CONDITIONAL_HEADERS = ['If-Match', 'If-None-Match'];
/** Malformed for sure, though close to entity tags: unbalanced quotes, no comma, `*` inside a list. */
const MALFORMED_TAGS = ['"3', '3"', '"3" "4"', 'W/"3', '*, "3"', 'W/', '3', 'version=3'];

const printableAscii = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));

/**
 * Header values that cannot be an entity-tag list or `*` (RFC 9110 §13.1.1): without a quote, there is
 * no tag. Only printable ASCII, which any header may carry.
 */
const malformedTagList: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...MALFORMED_TAGS),
  fc
    .string({ unit: printableAscii, minLength: 1, maxLength: 40 })
    .filter((value) => !value.includes('"') && value.trim() !== '*' && /[^,\s]/.test(value)),
);

function brokenConditionalHeader(operation: Operation): fc.Arbitrary<Breakage> | undefined {
  const names = parametersOf(operation, 'header')
    .map(({ name }) => name)
    .filter((name) => CONDITIONAL_HEADERS.includes(name));
  if (names.length === 0) return undefined;
  return fc.tuple(fc.constantFrom(...names), malformedTagList).map(([name, value]) => ({
    broken: `header: ${name}: ${value}`,
    headers: { [name]: value },
    expected: [400],
  }));
}

/** Header parameters that carry a cursor (the change feed's Feed-After), named in openapi.yaml. */
const CURSOR_HEADERS = ['Feed-After'];

/** A cursor header whose value is no cursor at all: printable ASCII that does not decode as one. */
function brokenCursorHeader(operation: Operation): fc.Arbitrary<Breakage> | undefined {
  const names = parametersOf(operation, 'header')
    .map(({ name }) => name)
    .filter((name) => CURSOR_HEADERS.includes(name));
  if (names.length === 0) return undefined;
  const notACursor = fc
    .string({ unit: printableAscii, minLength: 1, maxLength: 600 })
    .filter((value) => value.trim() !== '' && !couldBeCursor(value.trim()));
  return fc.tuple(fc.constantFrom(...names), notACursor).map(([name, value]) => ({
    broken: `header: ${name}: ${value.slice(0, 60)}`,
    headers: { [name]: value },
    expected: [400],
  }));
}

// ── bodies ──

const NOT_JSON = [
  '{',
  '{"a":',
  "{'name': 'x'}",
  '{"a":1,}',
  'undefined',
  'NaN',
  '{} {}',
  '\u0000',
  '[1,2',
  'nul',
];
const NOT_JSON_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
];

function brokenBody(operation: Operation, call: PreparedCall): fc.Arbitrary<Breakage> | undefined {
  const schema = bodySchemaOf(operation);
  const given = call.body;
  if (!schema || !given) return undefined;
  const valid = entriesOf(given);
  const properties = Object.keys((schema.properties as JsonSchema | undefined) ?? {});
  const required = (schema.required as string[] | undefined) ?? [];
  const invalidPerSpec = (text: string) => !isValid(schema, JSON.parse(text));
  const without = (field: string) => valid.filter(([key]) => key !== field);

  const unknownFields = fc
    .uniqueArray(fc.tuple(hostileKey, hostileValueText), {
      minLength: 1,
      maxLength: 3,
      selector: ([key]) => key,
    })
    .map((extra) => extra.filter(([key]) => !properties.includes(key) && !(key in given)))
    .filter((extra) => extra.length > 0)
    .map((extra) => {
      const body = objectText([...valid, ...extra]);
      return {
        broken: `body: unknown fields ${JSON.stringify(extra.map(([key]) => key))}`,
        body,
        expected: expectedForBody(body, [422]),
      };
    });

  const brokenField = (fields: readonly string[]) =>
    fc.tuple(fc.constantFrom(...fields), hostileValueText).map(([field, text]) => {
      const body = objectText([...without(field), [field, text]]);
      return { broken: `body: ${field} broken`, body, expected: expectedForBody(body, [422]) };
    });

  const notAnObject = fc
    .oneof(hostileScalar, fc.array(hostileScalar, { maxLength: 3 }))
    .map((value) => ({ broken: 'body: not an object', body: JSON.stringify(value), expected: [422] }));

  const missingField = (fields: readonly string[]) =>
    fc.constantFrom(...fields).map((field) => ({
      broken: `body: ${field} missing`,
      body: objectText(without(field)),
      expected: [422],
    }));

  const schemaBreakers = [unknownFields, notAnObject];
  if (properties.length > 0) schemaBreakers.push(brokenField(properties));
  if (required.length > 0) schemaBreakers.push(missingField(required));

  const strategies: fc.Arbitrary<Breakage>[] = [
    ...schemaBreakers.map((arbitrary) => arbitrary.filter(({ body }) => invalidPerSpec(body))),
    fc.constantFrom(...NOT_JSON).map((body) => ({ broken: 'body: not JSON', body, expected: [400] })),
    fc.constant({ broken: 'body: none', body: null, expected: [400, 422] }),
    fc.constantFrom(...NOT_JSON_TYPES).map((contentType) => ({
      broken: `body: sent as ${contentType}`,
      body: objectText(valid),
      contentType,
      expected: [415],
    })),
  ];
  // With an Idempotency-Key the body is also fingerprinted, by a walk that once recursed into a 500.
  if (parametersOf(operation, 'header').some(({ name }) => name === 'Idempotency-Key')) {
    const tooDeep = fc
      .tuple(fc.integer({ min: JSON_BODY_MAX_DEPTH, max: 400_000 }), fc.uuid())
      .map(([depth, key]) => ({
        broken: `body: nested ${depth + 1} levels deep, with an Idempotency-Key`,
        body: objectText([...valid, ['nested', `${'['.repeat(depth)}${']'.repeat(depth)}`]]),
        headers: { 'Idempotency-Key': key },
        expected: [400],
      }));
    strategies.push(tooDeep);
  }
  const oversized = fc.integer({ min: 1, max: JSON_BODY_MAX_BYTES }).map((extra) => ({
    broken: 'body: over 1 MiB',
    body: objectText([...valid, ['padding', JSON.stringify('x'.repeat(JSON_BODY_MAX_BYTES + extra))]]),
    expected: [413],
  }));
  return fc.oneof(...strategies.map((arbitrary) => ({ weight: 4, arbitrary })), {
    weight: 2,
    arbitrary: oversized,
  });
}

// ── whole requests ──

interface Breakage {
  broken: string;
  expected: readonly number[];
  segments?: Record<string, string>;
  query?: string;
  /** The body to send instead of the valid one; `null` for none. */
  body?: string | null;
  contentType?: string;
  headers?: Record<string, string>;
}

/** Requests for `operation` with one part of `call` broken; `call` itself must succeed. */
export function hostileRequests(operation: Operation, call: PreparedCall): fc.Arbitrary<HostileRequest> {
  const validBody =
    call.multipart?.text ?? (call.body === undefined ? undefined : objectText(entriesOf(call.body)));
  const validType = call.multipart?.contentType ?? 'application/json';
  const request = ({
    broken,
    expected,
    segments,
    query,
    body,
    contentType,
    headers,
  }: Breakage): HostileRequest => {
    const sent = body === null ? undefined : (body ?? validBody);
    return {
      broken,
      method: operation.method.toUpperCase(),
      path: addressOf(operation.path, segments ?? call.params, query),
      headers: {
        ...(sent === undefined
          ? {}
          : { 'Content-Type': contentType ?? (body ? 'application/json' : validType) }),
        ...headers,
      },
      body: sent,
      expected,
    };
  };

  const parts: fc.WeightedArbitrary<HostileRequest>[] = [
    { weight: 1, arbitrary: brokenQuery(operation).map((query) => request({ ...query, expected: [400] })) },
  ];
  for (const [name, real] of Object.entries(call.params)) {
    const arbitrary = hostileSegment(real).map((segment) =>
      request({
        broken: `path: ${name}=${segment.slice(0, 60)}`,
        expected: [404],
        segments: { ...call.params, [name]: segment },
      }),
    );
    parts.push({ weight: 1, arbitrary });
  }
  for (const header of [brokenConditionalHeader(operation), brokenCursorHeader(operation)]) {
    if (header) parts.push({ weight: 1, arbitrary: header.map((breakage) => request(breakage)) });
  }
  const body = brokenBody(operation, call);
  // Bodies have the most ways to be wrong: they get twice the runs of a parameter.
  if (body) parts.push({ weight: 2, arbitrary: body.map((breakage) => request(breakage)) });
  return fc.oneof(...parts).map(withShortDescription);
}

/** fast-check prints counterexamples; a 1 MiB body would drown the message. */
function withShortDescription(request: HostileRequest): HostileRequest {
  const shown = request.body === undefined ? '' : ` ${JSON.stringify(request.body.slice(0, 200))}`;
  const more =
    request.body !== undefined && request.body.length > 200 ? `… (${request.body.length} chars)` : '';
  return Object.assign(request, {
    [fc.toStringMethod]: () =>
      `${request.broken}: ${request.method} ${request.path.slice(0, 300)} ${JSON.stringify(request.headers)}${shown}${more}`,
  });
}

/**
 * The contract as the tests see it: openapi.yaml, loaded once, with its response schemas compiled by
 * Ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses). `expectResponseMatchesSpec` checks one observed answer
 * against what the spec documents for its request.
 */
import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import type { components } from '../../api-spec/schema.d.ts';

export type Problem = components['schemas']['Problem'];
type JsonSchema = Record<string, unknown>;

interface HeaderObject {
  $ref?: string;
  required?: boolean;
  schema?: JsonSchema;
}
interface ResponseObject {
  $ref?: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema?: JsonSchema; example?: unknown }>;
}
interface OperationObject {
  operationId: string;
  responses: Record<string, ResponseObject>;
  /** `[]` for a public operation; absent when the document's global requirement applies. */
  security?: Record<string, string[]>[];
}
interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  security?: Record<string, string[]>[];
  components: { schemas: Record<string, JsonSchema> } & Record<string, Record<string, unknown>>;
  'x-fallback-responses': Record<'404' | '405', ResponseObject>;
}

export interface SpecRequest {
  method: string;
  /** As sent to the app, e.g. `/api/v1/health?x=1`. */
  path: string;
}

export interface ObservedResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** Where the spec's paths live in the app (Supabase serves the function `api` under /api). */
export const API_BASE_PATH = '/api';
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const SPEC_ID = 'https://tasklane.dev/openapi.yaml';
const SCHEMA_REF = '#/components/schemas/';
const PROBLEM_RESPONSE: ResponseObject = {
  headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
  content: { 'application/problem+json': { schema: { $ref: `${SCHEMA_REF}Problem` } } },
};

// The file is linted by redocly against the OpenAPI 3.1 schema; here it is trusted to have that shape.
export const openApi = parse(
  readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'),
) as OpenApiDocument;

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
ajv.addVocabulary(['example']);
ajv.addSchema({ $id: SPEC_ID, $defs: withAbsoluteRefs(openApi.components.schemas) });
const compiled = new WeakMap<JsonSchema, ValidateFunction>();
const isProblem = ajv.compile<Problem>({ $ref: `${SPEC_ID}#/$defs/Problem` });

/** Every operation the spec documents, as `{ method, path }` with the spec's `{param}` templates. */
export function specOperations(): { method: string; path: string }[] {
  return Object.entries(openApi.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => method in item).map((method) => ({ method, path })),
  );
}

/**
 * Fails unless the answer is one the spec documents for this request: its status is listed for the
 * operation (or is the spec's fallback 404/405), its required headers are present and valid, its
 * content type is documented and its body validates against that schema.
 */
export function expectResponseMatchesSpec(request: SpecRequest, response: ObservedResponse): void {
  const method = request.method.toUpperCase();
  const where = `${method} ${request.path} → ${response.status}`;
  if (method === 'OPTIONS') return expectPreflight(where, response);
  const documented = documentedResponse(method, pathOf(request.path), response);
  const problems = [
    ...documented.problems,
    ...(documented.response ? checkAgainst(documented.response, response, method === 'HEAD') : []),
  ];
  if (problems.length > 0) {
    throw new Error(`${where} does not match openapi.yaml:\n- ${problems.join('\n- ')}`);
  }
}

/** For answers from test-only routes, which the spec cannot list: an error must still be a Problem. */
export function expectProblemResponse(response: ObservedResponse): Problem {
  const problems = checkAgainst(PROBLEM_RESPONSE, response, false);
  if (problems.length > 0) throw new Error(`not a problem response:\n- ${problems.join('\n- ')}`);
  return parseProblem(response.text);
}

interface Documented {
  response?: ResponseObject;
  problems: string[];
}

function documentedResponse(method: string, path: string, response: ObservedResponse): Documented {
  const fallback = openApi['x-fallback-responses'];
  const template = path.startsWith(`${API_BASE_PATH}/`)
    ? matchTemplate(path.slice(API_BASE_PATH.length))
    : null;
  if (!template) return expectStatus(404, fallback['404'], response, 'the spec has no such path');
  const item = openApi.paths[template] ?? {};
  const operation = item[method === 'HEAD' ? 'get' : method.toLowerCase()];
  if (!operation) {
    const documented = expectStatus(405, fallback['405'], response, `the spec has no ${method} ${template}`);
    return { ...documented, problems: [...documented.problems, ...checkAllow(item, response)] };
  }
  const status = String(response.status);
  const found =
    operation.responses[status] ?? operation.responses[`${status[0]}XX`] ?? operation.responses.default;
  if (found) return { response: resolve(found), problems: [] };
  const listed = Object.keys(operation.responses).join(', ');
  return {
    problems: [`status ${status} is not documented for ${operation.operationId} (it lists ${listed})`],
  };
}

function expectStatus(
  status: number,
  response: ResponseObject,
  observed: ObservedResponse,
  why: string,
): Documented {
  if (observed.status === status) return { response, problems: [] };
  return { problems: [`expected ${status} because ${why}, got ${observed.status}`] };
}

function checkAllow(item: Record<string, OperationObject>, response: ObservedResponse): string[] {
  const methods = HTTP_METHODS.filter((method) => method in item).map((method) => method.toUpperCase());
  const expected = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].sort();
  const allow = (response.headers.get('allow') ?? '').split(',').map((method) => method.trim());
  const actual = allow.filter(Boolean).sort();
  return actual.join() === expected.join()
    ? []
    : [`Allow is "${actual.join(', ')}", expected "${expected.join(', ')}"`];
}

function checkAgainst(documented: ResponseObject, response: ObservedResponse, isHead: boolean): string[] {
  return [...checkHeaders(documented, response), ...checkContent(documented, response, isHead)];
}

function checkHeaders(documented: ResponseObject, response: ObservedResponse): string[] {
  return Object.entries(documented.headers ?? {}).flatMap(([name, header]) => {
    const { required, schema } = resolve(header);
    const value = response.headers.get(name);
    if (value === null) return required ? [`header ${name} is missing`] : [];
    if (!schema) return [];
    const typed = schema.type === 'integer' || schema.type === 'number' ? Number(value) : value;
    return validate(schema, typed).map((error) => `header ${name} ${error}`);
  });
}

function checkContent(documented: ResponseObject, response: ObservedResponse, isHead: boolean): string[] {
  const content = documented.content ?? {};
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  if (Object.keys(content).length === 0) {
    return response.text === ''
      ? []
      : [`body should be empty, got ${JSON.stringify(response.text.slice(0, 80))}`];
  }
  const media = content[mediaType];
  if (!media) return [`content type "${mediaType}" is not documented (${Object.keys(content).join(', ')})`];
  if (isHead || !media.schema) return [];
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    return [`body is not JSON: ${JSON.stringify(response.text.slice(0, 80))}`];
  }
  const errors = validate(media.schema, body).map((error) => `body ${error}`);
  return mediaType === 'application/problem+json' && errors.length === 0
    ? checkProblemEchoes(parseProblem(response.text), response)
    : errors;
}

function checkProblemEchoes(problem: Problem, response: ObservedResponse): string[] {
  const checks: [holds: boolean, otherwise: string][] = [
    [problem.status === response.status, `problem status ${problem.status} is not the HTTP status`],
    [problem.request_id === response.headers.get('x-request-id'), 'request_id is not X-Request-Id'],
    [problem.type.endsWith(`/problems/${problem.code}`), `type ${problem.type} does not name the code`],
  ];
  return checks.filter(([holds]) => !holds).map(([, otherwise]) => otherwise);
}

function expectPreflight(where: string, response: ObservedResponse): void {
  // Preflights belong to CORS (Fetch standard), not to any operation: 204 and nothing else.
  if (response.status !== 204 || response.text !== '') {
    throw new Error(`${where}: a preflight must be answered 204 with no body`);
  }
}

function validate(schema: JsonSchema, value: unknown): string[] {
  let check = compiled.get(schema);
  if (!check) {
    check = ajv.compile(withAbsoluteRefs(schema));
    compiled.set(schema, check);
  }
  if (check(value)) return [];
  return (check.errors ?? []).map((error) =>
    `${error.instancePath || '(root)'} ${error.message ?? ''}`.trim(),
  );
}

function parseProblem(text: string): Problem {
  const body: unknown = JSON.parse(text);
  if (!isProblem(body)) throw new Error(`not a Problem: ${text}`);
  return body;
}

function resolve<T extends { $ref?: string }>(node: T): T {
  if (!node.$ref) return node;
  const [, , section, name] = node.$ref.split('/');
  const target = section && name ? openApi.components[section]?.[name] : undefined;
  if (!target) throw new Error(`unresolved reference ${node.$ref}`);
  return target as T;
}

function matchTemplate(path: string): string | null {
  const templates = Object.keys(openApi.paths).filter((template) => templatePattern(template).test(path));
  // A literal segment beats a parameter: /v1/tasks/move over /v1/tasks/{id}.
  templates.sort((a, b) => countParameters(a) - countParameters(b));
  return templates[0] ?? null;
}

function pathOf(path: string): string {
  return path.split('?')[0] ?? path;
}

const templatePattern = (template: string) =>
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`);

const countParameters = (template: string) => (template.match(/\{/g) ?? []).length;

function withAbsoluteRefs<T>(node: T): T {
  return JSON.parse(JSON.stringify(node).replaceAll(`"${SCHEMA_REF}`, `"${SPEC_ID}#/$defs/`)) as T;
}

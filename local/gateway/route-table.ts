/** Values of a route's `{name}` (one segment) and `{*name}` (the rest of the path) parts, URL-decoded. */
export type RouteParams = Readonly<Record<string, string>>;

export interface RouteMatch<Handler> {
  handler: Handler;
  params: RouteParams;
}

interface CompiledRoute<Handler> {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: Handler;
}

const PARAMETER = /^\{(\*?)(\w+)\}$/;

export interface RouteTableOptions {
  /** Whether `/path/` also matches `/path` (Storage's router allows it; GoTrue's does not). */
  trailingSlash?: boolean;
}

/**
 * The stand-in services' router over `"METHOD /path"` keys: `{name}` matches one path segment
 * (`'POST /factors/{id}/verify'`), `{*name}` the rest of the path, slashes included
 * (`'GET /object/sign/{bucket}/{*path}'`). The first route that matches wins, in declaration order.
 */
export function routeTable<Handler>(
  routes: Record<string, Handler>,
  { trailingSlash = false }: RouteTableOptions = {},
): (method: string, path: string) => RouteMatch<Handler> | null {
  const compiled = Object.entries(routes).map(([key, handler]) => compile(key, handler, trailingSlash));
  return (method, path) => {
    for (const route of compiled) {
      if (route.method !== method) continue;
      const match = route.pattern.exec(path);
      const params = match && decode(route.names, match.slice(1));
      if (params) return { handler: route.handler, params };
    }
    return null;
  };
}

function compile<Handler>(key: string, handler: Handler, trailingSlash: boolean): CompiledRoute<Handler> {
  const [method = '', path = ''] = key.split(' ');
  const names: string[] = [];
  const segments = path.split('/').map((segment) => {
    const parameter = PARAMETER.exec(segment);
    if (!parameter) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    names.push(parameter[2] ?? '');
    return parameter[1] ? '(.+)' : '([^/]+)';
  });
  const end = trailingSlash ? '/?$' : '$';
  return { method, pattern: new RegExp(`^${segments.join('/')}${end}`), names, handler };
}

/** Null when a part is not valid percent-encoding (the route then does not match). */
function decode(names: string[], values: string[]): RouteParams | null {
  try {
    return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(values[index] ?? '')]));
  } catch {
    return null;
  }
}

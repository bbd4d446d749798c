/** Values of a route's `{name}` segments, URL-decoded. */
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

const PARAMETER_SEGMENT = /^\{(\w+)\}$/;

/**
 * A router over `"METHOD /path"` keys in which a `{name}` segment matches any one path segment,
 * e.g. `'POST /factors/{id}/verify'`. Returns the first route that matches, in declaration order.
 */
export function routeTable<Handler>(
  routes: Record<string, Handler>,
): (method: string, path: string) => RouteMatch<Handler> | null {
  const compiled = Object.entries(routes).map(([key, handler]) => compileRoute(key, handler));
  return (method, path) => {
    for (const route of compiled) {
      if (route.method !== method) continue;
      const match = route.pattern.exec(path);
      if (!match) continue;
      const params = decodeParams(route.names, match.slice(1));
      if (params) return { handler: route.handler, params };
    }
    return null;
  };
}

function compileRoute<Handler>(key: string, handler: Handler): CompiledRoute<Handler> {
  const [method = '', path = ''] = key.split(' ');
  const names: string[] = [];
  const segments = path.split('/').map((segment) => {
    const name = PARAMETER_SEGMENT.exec(segment)?.[1];
    if (name === undefined) return escapeRegExp(segment);
    names.push(name);
    return '([^/]+)';
  });
  return { method, pattern: new RegExp(`^${segments.join('/')}$`), names, handler };
}

/** Null when a segment is not valid percent-encoding (the route then does not match). */
function decodeParams(names: string[], values: string[]): RouteParams | null {
  try {
    return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(values[index] ?? '')]));
  } catch {
    return null;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

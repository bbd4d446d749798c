/**
 * Every route path of the app, in TanStack Router syntax (`$param` for a path parameter), so routes and
 * links share one spelling.
 */
export const paths = {
  home: '/',
} as const;

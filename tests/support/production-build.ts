/**
 * Runs a Vite build as `npm run build` does. Vitest runs with NODE_ENV=test, under which Vite builds a
 * development bundle (`import.meta.env.PROD` false: no service worker registered, React's development
 * build); `npm run build` runs with it unset, which Vite takes for production.
 */
export async function buildForProduction<T>(run: () => Promise<T>): Promise<T> {
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await run();
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
}

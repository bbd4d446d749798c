// Runs one Supabase Edge Function under Deno for the local stand-in, the way the edge runtime does:
// the function calls Deno.serve() as it would in production, and the host decides where it listens.
// Usage: deno run … deno-host.ts <entrypoint path> <port>

const [entrypoint, portArgument] = Deno.args;
if (!entrypoint || !portArgument) throw new Error('usage: deno-host.ts <entrypoint> <port>');
const port = Number(portArgument);

type ServeHandler = Deno.ServeHandler;
const serve = Deno.serve.bind(Deno);

function handlerOf(args: unknown[]): ServeHandler {
  for (const argument of args) {
    if (typeof argument === 'function') return argument as ServeHandler;
    if (argument && typeof argument === 'object' && 'handler' in argument) {
      return (argument as { handler: ServeHandler }).handler;
    }
  }
  throw new Error('Deno.serve() was called without a handler');
}

Object.defineProperty(Deno, 'serve', {
  value: (...args: unknown[]) =>
    serve(
      { hostname: '127.0.0.1', port, onListen: () => console.log(`listening on ${port}`) },
      handlerOf(args),
    ),
});

await import(new URL(entrypoint, `file://${Deno.cwd()}/`).href);

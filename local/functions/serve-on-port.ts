// Makes the function's own Deno.serve() listen on 127.0.0.1:<port>, as the edge runtime decides where a
// function listens. Used by deno-host.ts and, copied beside a bare copy of the functions, by the
// deploy-parity test (tests/deploy), so it imports nothing and needs no permission but --allow-net.

type ServeHandler = Deno.ServeHandler;

function handlerOf(args: unknown[]): ServeHandler {
  for (const argument of args) {
    if (typeof argument === 'function') return argument as ServeHandler;
    if (argument && typeof argument === 'object' && 'handler' in argument) {
      return (argument as { handler: ServeHandler }).handler;
    }
  }
  throw new Error('Deno.serve() was called without a handler');
}

export function serveOnPort(port: number): void {
  const serve = Deno.serve.bind(Deno);
  Object.defineProperty(Deno, 'serve', {
    value: (...args: unknown[]) =>
      serve(
        { hostname: '127.0.0.1', port, onListen: () => console.log(`listening on ${port}`) },
        handlerOf(args),
      ),
  });
}

// Runs one Supabase Edge Function under Deno for the local stand-in, the way the edge runtime does:
// the function calls Deno.serve() as it would in production, and the host decides where it listens.
// Usage: deno run … deno-host.ts <entrypoint path> <port>
import { serveOnPort } from './serve-on-port.ts';

const [entrypoint, portArgument] = Deno.args;
if (!entrypoint || !portArgument) throw new Error('usage: deno-host.ts <entrypoint> <port>');
serveOnPort(Number(portArgument));

await import(new URL(entrypoint, `file://${Deno.cwd()}/`).href);

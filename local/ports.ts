import { connect, createServer } from 'node:net';
import { PORT_VARIABLES, type StandInConfig } from './config.ts';

const PORT_NAMES: Record<keyof typeof PORT_VARIABLES, string> = {
  api: 'the gateway',
  db: 'PostgreSQL',
  mailbox: 'the mailbox',
  web: 'the web app',
};

export class PortInUseError extends Error {}

/** Fails with one line naming the port and the variable that moves it, before anything starts. */
export async function assertPortsFree(config: StandInConfig): Promise<void> {
  const wanted = (Object.keys(PORT_VARIABLES) as (keyof typeof PORT_VARIABLES)[]).filter(
    (service) => service !== 'web' || config.web,
  );
  for (const service of wanted) {
    const port = config.ports[service];
    if (!(await isPortFree(config.host, port))) {
      throw new PortInUseError(
        `Port ${port} (${PORT_NAMES[service]}) is already in use: stop what holds it, or set ${PORT_VARIABLES[service]} to another port.`,
      );
    }
  }
}

export function isPortFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A port the OS says is free right now, for processes the stand-in runs behind the gateway. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host, port: 0 }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on the port; rejects after `timeoutMs`. */
export async function waitForPort(host: string, port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await accepts(host, port))) {
    if (Date.now() > deadline) throw new Error(`Nothing answered on ${host}:${port} within ${timeoutMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

// `npm start`: the whole of Tasklane on this machine, in one foreground process that owns its children.
import { readConfig } from './config.ts';
import { describeStandIn, formatDescription } from './describe.ts';
import { printLog } from './log.ts';
import { assertPortsFree, PortInUseError } from './ports.ts';
import { startStack, type RunningStack } from './stack.ts';

async function main(): Promise<void> {
  const config = readConfig();
  await assertPortsFree(config);
  const stack = await startStack(config, printLog);
  stopOnSignals(stack);
  process.stdout.write(
    `\nTasklane is running.\n\n${formatDescription(describeStandIn(config, stack.keys))}\n\n`,
  );
  process.stdout.write('Press Ctrl-C to stop.\n');
}

function stopOnSignals(stack: RunningStack): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    printLog('stand-in', `${signal} received, stopping…`);
    stack.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('exit', () => stack.killNow());
}

main().catch((error: unknown) => {
  const message =
    error instanceof PortInUseError || !(error instanceof Error) ? String(error) : error.message;
  process.stderr.write(`${message.replace(/^Error: /, '')}\n`);
  process.exit(1);
});

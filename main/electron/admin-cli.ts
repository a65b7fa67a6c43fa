import type { App } from 'electron';
import { runAdminCommand, type CliStreams } from '../cli/run-admin-command.js';
import type { KeyWrapper } from '../security/secret-box.js';
import { appConfig } from './app-config.js';

/** `store-server --cli <command>` runs one administration command instead of the app. */
export const CLI_SWITCH = '--cli';
/** How the installed app is called, for the usage text. */
export const INSTALLED_PROGRAM = `store-server ${CLI_SWITCH}`;

/** The command after `--cli`, or undefined when the app is to start normally. */
export function cliArguments(argv: readonly string[]): string[] | undefined {
  const at = argv.indexOf(CLI_SWITCH);
  return at === -1 ? undefined : argv.slice(at + 1);
}

const flush = (stream: CliStreams['stdout']) => new Promise<void>((resolve) => stream.write('', () => resolve()));

/**
 * Runs the administration CLI inside the app's own executable, so a store PC
 * needs no Node: same commands, same data folder as the app, then exits with
 * the command's code once the terminal has everything.
 */
export async function runCliInApp(
  app: Pick<App, 'getPath' | 'exit'>,
  args: string[],
  env: NodeJS.ProcessEnv,
  streams: CliStreams,
  keyWrapper?: KeyWrapper,
): Promise<void> {
  let code: number;
  try {
    const { dataDir } = appConfig(app, env);
    code = await runAdminCommand(args, { program: INSTALLED_PROGRAM, dataDir, streams, keyWrapper });
  } catch (err) {
    streams.stderr.write(`${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    code = 1;
  }
  await Promise.all([flush(streams.stdout), flush(streams.stderr)]);
  app.exit(code);
}

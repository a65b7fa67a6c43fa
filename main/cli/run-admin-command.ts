import { parseArgs } from 'node:util';
import { ApiError } from '../services/errors.js';
import { DatabaseFromNewerRelease } from '../storage/migrate.js';
import { UsageError, type CliCommand } from './command.js';
import { commands } from './commands.js';

/** Where a run of the CLI writes; the process's own streams in both entries. */
export interface CliStreams {
  stdout: { write(text: string, callback?: () => void): unknown };
  stderr: { write(text: string, callback?: () => void): unknown };
  stdin?: AsyncIterable<string | Buffer>;
}

export interface CliInvocation {
  /** How an operator calls the CLI here, shown in the usage text. */
  program: string;
  dataDir: string;
  streams: CliStreams;
}

const usage = (program: string, dataDir: string) => `Administration of the local retail API (acts on ${dataDir}; DATA_DIR changes it).

Usage: ${program} <command> [options] [--json]

${commands.map((c) => `  ${c.name}${c.usage ? ' ' + c.usage : ''}`).join('\n')}

--json prints exactly one JSON document on stdout.
Changes apply to a running server at once.`;

const COMMON = { json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } } as const;

function findCommand(argv: string[]): CliCommand {
  const [first = '', second] = argv.filter((a) => !a.startsWith('-'));
  const words = second === undefined ? first : `${first} ${second}`;
  const command = commands.find((c) => c.name === words) ?? commands.find((c) => c.name === first);
  if (command === undefined) throw new UsageError(words === '' ? '' : `Unknown command: ${words}`);
  return command;
}

/**
 * Runs one administration command (or prints the usage for `--help`) and
 * returns the exit code: 0 done, 1 the command failed, 2 a usage mistake. Unexpected errors propagate to the caller.
 */
export async function runAdminCommand(argv: string[], { program, dataDir, streams }: CliInvocation): Promise<number> {
  const asJson = argv.includes('--json');
  if (argv.includes('--help') || argv.includes('-h')) {
    streams.stdout.write(usage(program, dataDir) + '\n');
    return 0;
  }
  try {
    const command = findCommand(argv);
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...COMMON, ...command.options } });
    const args = positionals.slice(command.name.split(' ').length);
    const output = await command.run({ args, values, dataDir, json: asJson, stdin: streams.stdin });
    streams.stdout.write(asJson ? JSON.stringify(output.json) + '\n' : output.file ?? output.text + '\n');
    return output.exitCode ?? 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const isUsage = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') === true;
    if (!isUsage && !(err instanceof ApiError) && !(err instanceof DatabaseFromNewerRelease)) throw err;
    if (asJson) streams.stdout.write(JSON.stringify({ error: message || 'usage' }) + '\n');
    if (isUsage) {
      streams.stderr.write((message ? message + '\n\n' : '') + usage(program, dataDir) + '\n');
      return 2;
    }
    streams.stderr.write(message + '\n');
    return 1;
  }
}

import { parseArgs } from 'node:util';
import { UsageError, type CliCommand } from './cli/command.js';
import { commands } from './cli/commands.js';
import { readConfig } from './config.js';
import { ApiError } from './services/errors.js';

const usage = () => `Administration of the local retail API (acts on DATA_DIR, default ./data).

Usage: npm run -s cli -- <command> [options] [--json]

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

async function main(argv: string[]): Promise<void> {
  const asJson = argv.includes('--json');
  try {
    if (argv.includes('--help') || argv.includes('-h')) throw new UsageError('');
    const command = findCommand(argv);
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...COMMON, ...command.options } });
    const args = positionals.slice(command.name.split(' ').length);
    const output = await command.run({ args, values, dataDir: readConfig().dataDir, json: asJson });
    process.stdout.write((asJson ? JSON.stringify(output.json) : output.text) + '\n');
    if (output.exitCode !== undefined) process.exitCode = output.exitCode;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (asJson) process.stdout.write(JSON.stringify({ error: message || 'usage' }) + '\n');
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write((message ? message + '\n\n' : '') + usage() + '\n');
      process.exitCode = 2;
    } else if (err instanceof ApiError) {
      process.stderr.write(message + '\n');
      process.exitCode = 1;
    } else {
      throw err;
    }
  }
}

await main(process.argv.slice(2));

import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readConfig } from './config.js';
import { systemClock } from './services/clock.js';
import { ApiError } from './services/errors.js';
import { createServices } from './services/index.js';
import { DATABASE_FILE, openDatabase } from './storage/database.js';

const USAGE = `Administration of the local retail API (acts on DATA_DIR, default ./data).

Usage: npm run -s cli -- <command> [options] [--json]

  org create --name <name> [--features identity-logs,barcode-aliases]
  org list
  org features <orgId> [--enable <f,...>] [--disable <f,...>]
  key create <orgId> --kind read|write
  key list <orgId>
  key revoke <keyId>

--json prints exactly one JSON document on stdout.
Changes apply to a running server at once.`;

class UsageError extends Error {}

const list = (value: string | undefined) =>
  value === undefined ? [] : value.split(',').map((s) => s.trim()).filter((s) => s !== '');

function need(value: string | undefined, what: string): string {
  if (value === undefined || value === '') throw new UsageError(`Missing ${what}`);
  return value;
}

type Output = { json: unknown; text: string };

function run(argv: string[]): Output {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      name: { type: 'string' },
      features: { type: 'string' },
      enable: { type: 'string' },
      disable: { type: 'string' },
      kind: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [group, action, arg] = positionals;
  if (values.help || group === undefined) throw new UsageError('');

  const config = readConfig();
  const db = openDatabase(join(config.dataDir, DATABASE_FILE));
  try {
    const { organizations } = createServices({ db, clock: systemClock });
    switch (`${group} ${action ?? ''}`) {
      case 'org create': {
        const org = organizations.create({ name: need(values.name, '--name <name>'), features: list(values.features) });
        return {
          json: org,
          text: `Organization ${org.id} "${org.name}" (features: ${org.features.join(', ') || 'none'})\n` +
            `Read key:  ${org.readKey}\nWrite key: ${org.writeKey}\nStore these keys now: they are not shown again.`,
        };
      }
      case 'org list': {
        const orgs = organizations.list();
        return { json: orgs, text: orgs.map((o) => `${o.id}  ${o.name}  [${o.features.join(', ')}]`).join('\n') || 'No organizations.' };
      }
      case 'org features': {
        const result = organizations.setFeatures(need(arg, '<orgId>'), { enable: list(values.enable), disable: list(values.disable) });
        return { json: result, text: `${result.id}: ${result.features.join(', ') || 'no features'}` };
      }
      case 'key create': {
        const key = organizations.createKey(need(arg, '<orgId>'), need(values.kind, '--kind read|write'));
        return { json: key, text: `Key ${key.id} (${key.kind}): ${key.key}\nStore it now: it is not shown again.` };
      }
      case 'key list': {
        const keys = organizations.listKeys(need(arg, '<orgId>'));
        return {
          json: keys,
          text: keys.map((k) => `${k.id}  ${k.kind.padEnd(5)}  ${k.active ? 'active ' : 'revoked'}  ${k.createdAt}`).join('\n') || 'No keys.',
        };
      }
      case 'key revoke': {
        const result = organizations.revokeKey(need(arg, '<keyId>'));
        return { json: result, text: 'Key revoked.' };
      }
      default:
        throw new UsageError(`Unknown command: ${positionals.join(' ')}`);
    }
  } finally {
    db.close();
  }
}

const argv = process.argv.slice(2);
const asJson = argv.includes('--json');
try {
  const output = run(argv);
  process.stdout.write((asJson ? JSON.stringify(output.json) : output.text) + '\n');
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  if (asJson) process.stdout.write(JSON.stringify({ error: message || 'usage' }) + '\n');
  if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write((message ? message + '\n\n' : '') + USAGE + '\n');
    process.exitCode = 2;
  } else if (err instanceof ApiError) {
    process.stderr.write(message + '\n');
    process.exitCode = 1;
  } else {
    throw err;
  }
}

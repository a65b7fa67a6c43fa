import { basename } from 'node:path';
import { runAdminCommand } from './cli/run-admin-command.js';
import { readConfig } from './config.js';
import { PRIVATE_UMASK } from './security/private-files.js';

process.umask(PRIVATE_UMASK);

// `npm run cli` runs this file with tsx from main/; an installation runs the compiled dist/main/cli.js with node.
const program = basename(process.argv[1] ?? '').endsWith('.ts') ? 'npm run -s cli --' : 'node dist/main/cli.js';

process.exitCode = await runAdminCommand(process.argv.slice(2), { program, dataDir: readConfig().dataDir, streams: process });

import { backupDataFolder } from '../backup/backup.js';
import { restoreDataFolder } from '../backup/restore.js';
import { need, type CliCommand } from './command.js';

/** `backup` and `restore` are single words: the folder follows directly. */
export const backupCommands: CliCommand[] = [
  {
    name: 'backup',
    usage: '<folder>',
    run: async ({ args, dataDir }) => {
      const done = await backupDataFolder(dataDir, need(args[0], '<folder>'));
      return { json: done, text: `Backed up ${dataDir} to ${done.folder} (${done.images} images).` };
    },
  },
  {
    name: 'restore',
    usage: '<folder> [--replace]',
    options: { replace: { type: 'boolean', default: false } },
    run: ({ args, values, dataDir }) => {
      const done = restoreDataFolder(dataDir, need(args[0], '<folder>'), { replace: values.replace === true });
      return { json: done, text: `Restored ${dataDir} from the backup of ${done.createdAt} in ${done.folder} (${done.images} images); new installation id ${done.installation}.` };
    },
  },
];

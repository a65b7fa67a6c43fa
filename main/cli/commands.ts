import type { CliCommand } from './command.js';
import { orgCommands } from './org-commands.js';
import { scaleCommands } from './scale-commands.js';

/** Every administration command; each area adds its own list. */
export const commands: CliCommand[] = [...orgCommands, ...scaleCommands];

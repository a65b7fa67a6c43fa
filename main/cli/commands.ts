import { backupCommands } from './backup-commands.js';
import { catalogCommands } from './catalog-commands.js';
import type { CliCommand } from './command.js';
import { fleetCommands } from './fleet-commands.js';
import { kioskCommands } from './kiosk-commands.js';
import { mailCommands } from './mail-commands.js';
import { orgCommands } from './org-commands.js';
import { reportCommands } from './report-commands.js';
import { retentionCommands } from './retention-commands.js';
import { scaleCommands } from './scale-commands.js';
import { settlementCommands } from './settlement-commands.js';
import { syncCommands } from './sync-commands.js';

/** Every administration command; each area adds its own list. */
export const commands: CliCommand[] = [...orgCommands, ...syncCommands, ...scaleCommands, ...retentionCommands, ...backupCommands, ...reportCommands, ...fleetCommands, ...kioskCommands, ...catalogCommands, ...mailCommands, ...settlementCommands];

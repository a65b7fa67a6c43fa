import { kioskFilePath, updateKioskFile } from '../kiosk/kiosk-file.js';
import { hashStaffPin, STAFF_PIN_PATTERN } from '../kiosk/staff-pin.js';
import { UsageError, type CliCommand, type CliContext } from './command.js';

/** The first line of standard input: the PIN piped in, or typed and ended with Enter. */
async function firstLine(stdin: CliContext['stdin']): Promise<string> {
  if (!stdin) return '';
  let text = '';
  for await (const chunk of stdin) {
    text += chunk.toString();
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0]!.trim();
}

async function pinFrom({ values, stdin }: CliContext): Promise<string> {
  const pin = typeof values.pin === 'string' ? values.pin : await firstLine(stdin);
  if (!STAFF_PIN_PATTERN.test(pin)) throw new UsageError('The staff PIN must be 4 to 12 digits, given with --pin <digits> or as the first line of standard input.');
  return pin;
}

const onOff = (word: string | undefined): boolean => {
  if (word === 'on' || word === 'off') return word === 'on';
  throw new UsageError('Say `kiosk mode on` or `kiosk mode off`.');
};

/** kiosk.json's settings that belong to staff rather than to the page: the PIN that leaves kiosk mode, and kiosk mode itself. */
export const kioskCommands: CliCommand[] = [
  {
    name: 'kiosk pin',
    usage: 'set [--pin <digits>] | clear   (set reads the PIN from the first line of stdin without --pin)',
    options: { pin: { type: 'string' } },
    run: async (context) => {
      const action = context.args[0];
      const file = kioskFilePath(context.dataDir);
      if (action === 'set') {
        const staffPin = hashStaffPin(await pinFrom(context));
        updateKioskFile(context.dataDir, (content) => ({ ...content, staffPin }));
        return { json: { staffPin: 'set', file }, text: `Staff PIN set in ${file}: Ctrl+Alt+Shift+Q and the PIN leave kiosk mode.` };
      }
      if (action === 'clear') {
        updateKioskFile(context.dataDir, ({ staffPin: _gone, ...content }) => content);
        return { json: { staffPin: 'none', file }, text: `Staff PIN removed from ${file}: kiosk mode can no longer be left from the keyboard.` };
      }
      throw new UsageError('Say `kiosk pin set` or `kiosk pin clear`.');
    },
  },
  {
    name: 'kiosk mode',
    usage: 'on | off   (applies at the app\'s next start)',
    run: ({ args, dataDir }) => {
      const kiosk = onOff(args[0]);
      const file = kioskFilePath(dataDir);
      updateKioskFile(dataDir, (content) => ({ ...content, kiosk }));
      return { json: { kiosk, file }, text: `Kiosk mode ${kiosk ? 'on' : 'off'} in ${file}; it applies when the app starts next.` };
    },
  },
];

import { list, need, type CliCommand } from './command.js';
import { withServices } from './open-services.js';

export const orgCommands: CliCommand[] = [
  {
    name: 'org create',
    usage: '--name <name> [--features identity-logs,barcode-aliases]',
    options: { name: { type: 'string' }, features: { type: 'string' } },
    run: ({ values, dataDir }) =>
      withServices(dataDir, ({ organizations }) => {
        const org = organizations.create({ name: need(values.name, '--name <name>'), features: list(values.features) });
        return {
          json: org,
          text: `Organization ${org.id} "${org.name}" (features: ${org.features.join(', ') || 'none'})\n` +
            `Read key:  ${org.readKey}\nWrite key: ${org.writeKey}\nStore these keys now: they are not shown again.`,
        };
      }),
  },
  {
    name: 'org list',
    usage: '',
    run: ({ dataDir }) =>
      withServices(dataDir, ({ organizations }) => {
        const orgs = organizations.list();
        return { json: orgs, text: orgs.map((o) => `${o.id}  ${o.name}  [${o.features.join(', ')}]`).join('\n') || 'No organizations.' };
      }),
  },
  {
    name: 'org features',
    usage: '<orgId> [--enable <f,...>] [--disable <f,...>]',
    options: { enable: { type: 'string' }, disable: { type: 'string' } },
    run: ({ args, values, dataDir }) =>
      withServices(dataDir, ({ organizations }) => {
        const result = organizations.setFeatures(need(args[0], '<orgId>'), { enable: list(values.enable), disable: list(values.disable) });
        return { json: result, text: `${result.id}: ${result.features.join(', ') || 'no features'}` };
      }),
  },
  {
    name: 'key create',
    usage: '<orgId> --kind read|write|kiosk|scale [--store <storeId>] [--name <text>]',
    options: { kind: { type: 'string' }, store: { type: 'string' }, name: { type: 'string' } },
    run: ({ args, values, dataDir }) =>
      withServices(dataDir, ({ organizations }) => {
        const key = organizations.createKey(need(args[0], '<orgId>'), {
          kind: need(values.kind, '--kind read|write|kiosk|scale'),
          ...(typeof values.store === 'string' ? { store: values.store } : {}),
          ...(typeof values.name === 'string' ? { name: values.name } : {}),
        });
        const bound = key.store === null ? '' : ` for store ${key.store}`;
        return { json: key, text: `Key ${key.id} (${key.kind}${bound}): ${key.key}\nStore it now: it is not shown again.` };
      }),
  },
  {
    name: 'key list',
    usage: '<orgId>',
    run: ({ args, dataDir }) =>
      withServices(dataDir, ({ organizations }) => {
        const keys = organizations.listKeys(need(args[0], '<orgId>'));
        return {
          json: keys,
          text:
            keys
              .map((k) =>
                [k.id, k.kind.padEnd(5), k.active ? 'active ' : 'revoked', k.createdAt, `last used ${k.lastUsedAt ?? 'never'}`, k.store ? `store ${k.store}` : '', k.name ?? '']
                  .filter((cell) => cell !== '')
                  .join('  '),
              )
              .join('\n') || 'No keys.',
        };
      }),
  },
  {
    name: 'key revoke',
    usage: '<keyId>',
    run: ({ args, dataDir }) =>
      withServices(dataDir, ({ organizations }) => ({ json: organizations.revokeKey(need(args[0], '<keyId>')), text: 'Key revoked.' })),
  },
];

import { systemClock } from '../services/clock.js';
import { createScaleLabels, type ListedRule } from '../scales/scale-labels.js';
import { need, type CliCommand } from './command.js';
import { withServices } from './open-services.js';

const line = (r: ListedRule) => `${(r.id ?? 'built-in').padEnd(20)}  ${r.kind.padEnd(6)}  ${r.pattern}`;

export const scaleCommands: CliCommand[] = [
  {
    name: 'label-rule add',
    usage: '<orgId> --kind weight|price --pattern <pattern, e.g. 28.....{NNDDD}>',
    options: { kind: { type: 'string' }, pattern: { type: 'string' } },
    run: ({ args, values, dataDir }) =>
      withServices(dataDir, (_services, db) => {
        const rule = createScaleLabels({ db, clock: systemClock }).addRule(
          need(args[0], '<orgId>'),
          need(values.kind, '--kind weight|price'),
          need(values.pattern, '--pattern <pattern>'),
        );
        return { json: rule, text: `Rule ${rule.id}: ${rule.kind} ${rule.pattern} (tried before the built-in rules)` };
      }),
  },
  {
    name: 'label-rule list',
    usage: '<orgId>',
    run: ({ args, dataDir }) =>
      withServices(dataDir, (_services, db) => {
        const rules = createScaleLabels({ db, clock: systemClock }).listRules(need(args[0], '<orgId>'));
        return { json: rules, text: `Scale-label rules, first match wins:\n${rules.map(line).join('\n')}` };
      }),
  },
  {
    name: 'label-rule remove',
    usage: '<orgId> <ruleId>',
    run: ({ args, dataDir }) =>
      withServices(dataDir, (_services, db) => {
        const result = createScaleLabels({ db, clock: systemClock }).removeRule(need(args[0], '<orgId>'), need(args[1], '<ruleId>'));
        return { json: result, text: 'Rule removed.' };
      }),
  },
];

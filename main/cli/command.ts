import type { ParseArgsConfig } from 'node:util';

/** A mistake in how the command was called: exit code 2 and the usage text. */
export class UsageError extends Error {}

export type CliOptions = NonNullable<ParseArgsConfig['options']>;
export type CliValues = Record<string, string | boolean | undefined>;

/** What a command prints: `json` with `--json`, `text` otherwise. */
export interface CliOutput {
  json: unknown;
  text: string;
  /** Written to stdout byte for byte instead of `text` (a file such as a CSV export), without --json. */
  file?: string;
  /** Exit code when the command ran but did not achieve its aim (e.g. upstream unreachable). */
  exitCode?: number;
}

export interface CliContext {
  /** Positional arguments after the two command words, e.g. the `<orgId>`. */
  args: string[];
  values: CliValues;
  dataDir: string;
  /** True when `--json` was given: nothing but the JSON document may go to stdout. */
  json: boolean;
  /** Standard input, for a secret that must not appear in the process list (the staff PIN). */
  stdin?: AsyncIterable<string | Buffer>;
}

/** One administration command, e.g. `org create`. */
export interface CliCommand {
  /** The command words, e.g. `org create`. */
  name: string;
  /** One usage line without the command words, e.g. `--name <name> [--features f,...]`. */
  usage: string;
  options?: CliOptions;
  run(context: CliContext): CliOutput | Promise<CliOutput>;
}

export const list = (value: string | boolean | undefined): string[] =>
  typeof value !== 'string' ? [] : value.split(',').map((s) => s.trim()).filter((s) => s !== '');

export function need(value: string | boolean | undefined, what: string): string {
  if (typeof value !== 'string' || value === '') throw new UsageError(`Missing ${what}`);
  return value;
}

import type { z } from 'zod';
import type { CatalogFileError } from '../../shared/api/catalog.js';
import { fileProblem, ruledProblem } from './file-problems.js';

type Issue = z.core.$ZodIssue;

/** The values a union of literals accepts ("16 or 18"), or undefined when its options are not all literals. */
function unionOptions(issue: Extract<Issue, { code: 'invalid_union' }>): string[] | undefined {
  const options = issue.errors.map((branch) => (branch.length === 1 && branch[0]!.code === 'invalid_value' ? branch[0]!.values : undefined));
  return options.every((values) => values !== undefined) ? options.flat().map(String) : undefined;
}

/**
 * A product schema's issue as a line's problem, under the column of its
 * field: the kind from the issue's code, the limit or the options it names,
 * and the schema's own English text. A field the row leaves out is
 * `required` (only a new product has required fields).
 */
export function schemaProblem(line: number, column: string, issue: Issue, fields: Record<string, unknown>): CatalogFileError {
  const { message } = issue;
  switch (issue.code) {
    case 'invalid_type':
      if (fields[String(issue.path[0])] === undefined) return fileProblem(line, column, { kind: 'required', params: {} });
      return ruledProblem(line, column, 'invalid-type', message, { expected: issue.expected });
    case 'too_small':
      return ruledProblem(line, column, 'too-small', message, { minimum: String(issue.minimum) });
    case 'too_big':
      return ruledProblem(line, column, 'too-big', message, { maximum: String(issue.maximum) });
    case 'invalid_value':
      return ruledProblem(line, column, 'invalid-option', message, { options: issue.values.map(String).join(', ') });
    case 'invalid_union': {
      const options = unionOptions(issue);
      return options ? ruledProblem(line, column, 'invalid-option', message, { options: options.join(', ') }) : ruledProblem(line, column, 'other', message);
    }
    case 'invalid_format':
      return ruledProblem(line, column, 'invalid-format', message, { format: issue.format });
    case 'custom':
      return issue.params?.kind === 'age-limit-conflict' ? ruledProblem(line, column, 'age-limit-conflict', message) : ruledProblem(line, column, 'other', message);
    default:
      return ruledProblem(line, column, 'other', message);
  }
}

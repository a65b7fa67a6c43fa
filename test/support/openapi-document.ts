import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/** The parts of an OpenAPI 3.1 operation the contract test reads. */
export interface Operation {
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; schema?: { pattern?: string } }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

export interface OperationEntry {
  /** `METHOD /path`, as the case tables name it. */
  name: string;
  method: string;
  path: string;
  operation: Operation;
}

export function operationsOf(doc: { paths: Record<string, Record<string, Operation>> }): OperationEntry[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, operation })),
  );
}

const pointer = (segment: string) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));

/** Validates answers against the document's own response schemas (JSON Schema 2020-12). */
export function responseValidator(doc: object): (entry: OperationEntry, status: number, mediaType: string) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
  ajv.addFormat('binary', true);
  ajv.addSchema(doc, 'openapi');
  return (entry, status, mediaType) => {
    const ref = `openapi#/paths/${pointer(entry.path)}/${entry.method.toLowerCase()}/responses/${status}/content/${pointer(mediaType)}/schema`;
    const validate = ajv.getSchema(ref);
    if (!validate) throw new Error(`${entry.name}: no schema at ${ref}`);
    return validate;
  };
}

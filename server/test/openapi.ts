// Checks answers against the API document the server publishes at /api/docs: the status must be
// one the operation declares, and the body must match the schema declared for that status.
import Ajv from 'ajv';

export type ApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, any>>;
  components: Record<string, any>;
  security?: unknown[];
};

/** The document's path for a route's URL (`/a/:id` is `/a/{id}`). */
export const documentPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/**
 * A checker of answers against `doc`: what is wrong with `method url` (a route URL) answering
 * `status` with `body`, or null when the document allows it.
 */
export function answerChecker(doc: ApiDocument) {
  // OpenAPI 3.0 schemas are JSON Schema with `nullable`, which Ajv knows; formats are not checked.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(doc, 'doc');
  const pointer = (...parts: string[]) =>
    parts.map((part) => encodeURIComponent(part.replaceAll('~', '~0').replaceAll('/', '~1')));
  return (method: string, url: string, status: number, body: unknown): string | null => {
    const path = documentPath(url);
    const verb = method.toLowerCase();
    const operation = doc.paths[path]?.[verb];
    if (!operation) return `${method} ${path} is not in the API document`;
    const response = operation.responses?.[String(status)];
    if (!response) {
      return `${method} ${path} answered ${status}, not among its declared ${Object.keys(operation.responses ?? {}).join(', ')}`;
    }
    if (!response.content?.['application/json']?.schema) return null;
    const ref = `doc#/${pointer('paths', path, verb, 'responses', String(status), 'content', 'application/json', 'schema').join('/')}`;
    const validate = ajv.getSchema(ref);
    if (!validate) return `no schema at ${ref}`;
    if (validate(body)) return null;
    return `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 300)}`;
  };
}

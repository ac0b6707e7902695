import type { Context, Handler } from 'hono';
import * as v from 'valibot';
import type { Endpoint } from '../../contract/endpoint';
import { unsafeTextPaths } from '../../contract/text-safety';
import type { AppEnv } from './app-env';
import { fail, fieldErrors, ok } from './respond';

/**
 * Binds a contract endpoint to a handler: the body (already read and parsed by the signature
 * middleware) is validated with the endpoint's request schema; a failure answers 422 with a
 * code per field, so bad input never reaches the handler and never becomes a 5xx. Strings with
 * control characters or badly formed Unicode are refused first, whatever the field.
 */
export function endpointHandler<TReq extends v.GenericSchema, TData extends v.GenericSchema>(
  endpoint: Endpoint<TReq, TData>,
  handler: (input: v.InferOutput<TReq>, c: Context<AppEnv>) => Promise<v.InferInput<TData> | Response>,
): Handler<AppEnv> {
  return async (c) => {
    // Checked on the raw body before the schema: no string of any endpoint may carry a control
    // character or a lone surrogate into a handler, the database or a log (RULINGS 25).
    const unsafe = unsafeTextPaths(c.get('body'));
    if (unsafe.length > 0) {
      return fail(c, 422, 'invalid_request', { errors: Object.fromEntries(unsafe.map((field) => [field, 'invalid_characters'])) });
    }
    const parsed = v.safeParse(endpoint.request, c.get('body'));
    if (!parsed.success) return fail(c, 422, 'invalid_request', { errors: fieldErrors(parsed.issues) });
    const result = await handler(parsed.output, c);
    return result instanceof Response ? result : ok(c, result);
  };
}

import type { Context } from 'hono';
import type { FieldErrors } from '../../contract/error-codes';
import type { AppEnv } from '../http/app-env';
import type { MessageKey } from '../http/messages';
import { fail } from '../http/respond';

type RefusalStatus = 403 | 404 | 409 | 422 | 429;

/**
 * A request the server will not carry out, with its 4xx envelope: thrown from inside a
 * transaction so nothing is half saved, and answered by `refusing` in the route.
 */
export class Refusal extends Error {
  constructor(
    readonly status: RefusalStatus,
    readonly key: MessageKey,
    readonly errors: FieldErrors = {},
  ) {
    super(`refused ${status} ${key}`);
  }
}

/** Runs `work`; a Refusal becomes its envelope, anything else stays a real fault. */
export async function refusing<T>(c: Context<AppEnv>, work: () => Promise<T>): Promise<T | Response> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Refusal) {
      return fail(c, error.status, error.key, Object.keys(error.errors).length > 0 ? { errors: error.errors } : {});
    }
    throw error;
  }
}

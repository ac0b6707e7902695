import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import * as v from 'valibot';
import type { Language } from '../../contract/endpoint';
import type { ErrorCode, FieldErrors } from '../../contract/error-codes';
import { isTravelDetailsCode, type TravelDetailsCode } from '../../contract/travel-details.rules';
import { message, type MessageKey } from './messages';
import type { AppEnv } from './app-env';

/** Sends the { status, message, data } envelope of RULINGS 2 with status equal to the HTTP status. */
export function envelope(c: Context, status: ContentfulStatusCode, text: string, data: unknown) {
  return c.json({ status, message: text, data }, status);
}

export function ok(c: Context<AppEnv>, data: unknown) {
  return envelope(c, 200, message('ok', c.get('lang')), data);
}

export function fail(
  c: Context<AppEnv>,
  status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 422 | 429,
  key: MessageKey,
  data: { errors?: FieldErrors } & Record<string, unknown> = {},
) {
  return envelope(c, status, message(key, c.get('lang')), data);
}

/**
 * Maps a valibot issue to the contract's error code for its field. Schemas of the travel
 * details rules carry their own code as the issue message, and that code is kept.
 */
export function issueCode(issue: v.BaseIssue<unknown>): ErrorCode | TravelDetailsCode {
  if (isTravelDetailsCode(issue.message)) return issue.message;
  if (issue.input === undefined && issue.kind === 'schema') return 'required';
  switch (issue.type) {
    case 'strict_object':
      // One issue type for three problems: a missing key, an unknown key (expected "never"),
      // or a body that is not an object at all.
      if (issue.input === undefined) return 'required';
      return issue.expected === 'never' ? 'unknown_field' : 'invalid_type';
    case 'max_length':
    case 'max_size':
      return 'too_long';
    case 'min_length':
    case 'non_empty':
      return issue.input === '' || (Array.isArray(issue.input) && issue.input.length === 0) ? 'required' : 'too_short';
    case 'min_value':
    case 'max_value':
    case 'integer':
      return 'out_of_range';
    default:
      return issue.kind === 'schema' && issue.type !== 'picklist' && issue.type !== 'literal' && issue.type !== 'union'
        ? 'invalid_type'
        : 'invalid_value';
  }
}

/** Field path -> first error code, from valibot issues. */
export function fieldErrors(issues: readonly v.BaseIssue<unknown>[]): FieldErrors {
  // A Map, not `field in {}`: a field named "constructor" or "__proto__" must not be lost.
  const errors = new Map<string, ErrorCode | TravelDetailsCode>();
  for (const issue of issues) {
    const field = issue.path?.map((item) => String(item.key)).join('.') || '_';
    // An unknown key in a strict object reports its own name as the last path item.
    if (!errors.has(field)) errors.set(field, issueCode(issue));
  }
  return Object.fromEntries(errors);
}

/** Picks the response language from the body's lang fields, else Accept-Language, else English. */
export function languageOf(body: unknown, acceptLanguage: string | undefined): Language {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    for (const key of ['lang', 'language', 'preferred_language']) {
      if (record[key] === 'ar' || record[key] === 'en') return record[key];
    }
  }
  return acceptLanguage?.trim().toLowerCase().startsWith('ar') ? 'ar' : 'en';
}

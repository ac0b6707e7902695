import * as v from 'valibot';
import { envelopeSchema } from './envelope';

/** One API call: its path, the request body schema and the schema of the response's `data`. */
export interface Endpoint<TReq extends v.GenericSchema, TData extends v.GenericSchema> {
  path: string;
  request: TReq;
  data: TData;
  response: ReturnType<typeof envelopeSchema<TData>>;
}

export function defineEndpoint<TReq extends v.GenericSchema, TData extends v.GenericSchema>(
  path: string,
  request: TReq,
  data: TData,
): Endpoint<TReq, TData> {
  return { path, request, data, response: envelopeSchema(data) };
}

export const LANGUAGES = ['en', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];
export const langSchema = v.picklist(LANGUAGES);

/** The spec sends isDropdown as a boolean; 0/1 are accepted from older clients. */
export const isDropdownSchema = v.optional(
  v.pipe(
    v.union([v.boolean(), v.picklist([0, 1])]),
    v.transform((value) => value === true || value === 1),
  ),
  false,
);

/** A list entry in dropdown form: value is the id as text, label the name in the asked language. */
export const optionSchema = v.object({ value: v.string(), label: v.string() });
export type Option = v.InferOutput<typeof optionSchema>;

/**
 * A lead, device or session id. UUIDs are compared case-insensitively: the server issues
 * lower-case ids, and an upper-cased copy (some mail clients and phones change case in links)
 * must name the same lead rather than nothing.
 */
export const uuidSchema = v.pipe(v.string(), v.uuid(), v.toLowerCase());

/** The agent of a link (spec §6); 0 or null when there is none. A label, not a login (RULINGS 24). */
export const agentIdSchema = v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(2_147_483_647))), 0);

/**
 * A policy page's token (issue 37, policy-page.endpoints.ts): 64 hex digits, either case (a mail
 * client may change case in links); checked for shape before any query. The length is stated as
 * well as matched, so tools that draw strings from the schema (the fuzz, tests/soak) know how
 * long one is.
 */
export const policyPageTokenSchema = v.pipe(v.string(), v.maxLength(64), v.regex(/^[0-9a-fA-F]{64}$/, 'invalid'), v.toLowerCase());

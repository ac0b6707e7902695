import * as v from 'valibot';

/**
 * Every response body is { status, message, data } with status equal to the HTTP status
 * (RULINGS 2). Errors carry data.errors (field -> code) and, for leads, the taken flags.
 */
export function envelopeSchema<TData extends v.GenericSchema>(data: TData) {
  return v.object({ status: v.number(), message: v.string(), data });
}

export const errorDataSchema = v.looseObject({
  errors: v.optional(v.record(v.string(), v.string())),
  email_taken: v.optional(v.boolean()),
  phone_taken: v.optional(v.boolean()),
});

export const errorEnvelopeSchema = envelopeSchema(errorDataSchema);
export type ErrorEnvelope = v.InferOutput<typeof errorEnvelopeSchema>;

import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { emailSchema, nameSchema } from '../../contract/travel-details.rules';
import { fieldErrors } from './respond';

const codesOf = (schema: v.GenericSchema, value: unknown) => {
  const result = v.safeParse(schema, value);
  return result.success ? {} : fieldErrors(result.issues);
};

describe('fieldErrors', () => {
  it('keeps the travel details code a rule schema carries as its message', () => {
    expect(codesOf(v.object({ name: nameSchema }), { name: 'Rania 2nd' })).toEqual({ name: 'name_chars' });
    expect(codesOf(v.object({ email: emailSchema }), { email: '' })).toEqual({ email: 'email_required' });
  });

  it('still maps plain valibot messages to the generic codes', () => {
    expect(codesOf(v.object({ name: v.string() }), { name: 5 })).toEqual({ name: 'invalid_type' });
    expect(codesOf(v.object({ name: v.pipe(v.string(), v.maxLength(2)) }), { name: 'abc' })).toEqual({ name: 'too_long' });
  });
});

import type { FieldErrors } from '../../contract/error-codes';

/** The lead cannot be saved as sent; the route answers 422 with a code per field. */
export class InvalidLeadError extends Error {
  constructor(readonly errors: FieldErrors) {
    super(`invalid lead: ${Object.keys(errors).join(', ')}`);
  }
}

/** No lead has the uuid the client named; the route answers 404. */
export class LeadNotFoundError extends Error {
  constructor() {
    super('lead not found');
  }
}

/**
 * The email or the phone number belongs to another customer (spec §7: a status other than 200
 * with email_taken and phone_taken); the route answers 409 with both flags.
 */
export class CustomerTakenError extends Error {
  constructor(
    readonly emailTaken: boolean,
    readonly phoneTaken: boolean,
  ) {
    super('customer details taken');
  }
}

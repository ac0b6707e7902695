import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers } from '../db/schema';
import { CustomerTakenError } from './lead-errors';
import type { CustomerValues } from './lead-values';

export type CustomerRow = typeof customers.$inferSelect;

/**
 * The customer with this email and phone: the one on file (left as it is) when both match the
 * same customer, a new one when neither is on file. An email on file with another phone,
 * or a phone on file with another email, throws CustomerTakenError with both flags, so one
 * person cannot take over another's contact details. When a lead is being edited, its own
 * customer (`ownerId`, passed only when the caller holds the lead's session id) may correct
 * their name, email or phone, as long as the new one is nobody else's. Call it inside the
 * lead's transaction.
 */
export async function resolveCustomer(tx: Db, values: CustomerValues, ownerId: number | null = null): Promise<CustomerRow> {
  // Two tries: a concurrent request may insert the same customer between our read and insert.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const [byEmail] = await tx.select().from(customers).where(eq(customers.email, values.email));
    const [byPhone] = await tx.select().from(customers).where(eq(customers.completePhoneNumber, values.completePhoneNumber));
    if (ownerId !== null) {
      const emailTaken = !!byEmail && byEmail.id !== ownerId;
      const phoneTaken = !!byPhone && byPhone.id !== ownerId;
      if (emailTaken || phoneTaken) throw new CustomerTakenError(emailTaken, phoneTaken);
      const [updated] = await tx
        .update(customers)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(customers.id, ownerId))
        .returning();
      return updated!;
    }
    const emailTaken = !!byEmail && byEmail.completePhoneNumber !== values.completePhoneNumber;
    const phoneTaken = !!byPhone && byPhone.email !== values.email;
    if (emailTaken || phoneTaken) throw new CustomerTakenError(emailTaken, phoneTaken);

    // A returning customer is matched, never renamed: a new lead keeps its own name, and only
    // the holder of a lead's session may change that customer's record (RULINGS 24).
    if (byEmail) return byEmail;
    const [inserted] = await tx.insert(customers).values(values).onConflictDoNothing().returning();
    if (inserted) return inserted;
  }
  throw new Error('customer could not be saved: concurrent writes kept conflicting');
}

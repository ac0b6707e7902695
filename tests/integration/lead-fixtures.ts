import { asc, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { expect } from 'vitest';
import { todayIso } from '../../src/contract/dates';
import { addCustomerLeadEndpoint, type AddCustomerLeadRequest } from '../../src/contract/lead.endpoints';
import * as t from '../../src/server/db/schema';
import { createTestApp } from '../support/test-app';

/** The server's clock in the lead tests, so "today" and every age boundary are exact. */
export const FIXED_NOW = Date.UTC(2026, 2, 15, 10, 0, 0);
export const TODAY = todayIso(FIXED_NOW);

export const LEBANON = 422;
export const FRANCE = 250;
export const ITALY = 380;
export const TURKEY = 792;

let sequence = 0;

/** An email and a +961 number no other lead of this test file uses (8 digits). */
export function uniqueContact() {
  sequence += 1;
  return { email: `traveller${sequence}@example.com`, phone_number: `7${String(sequence).padStart(7, '0')}` };
}

/** A valid add-customer-lead body: one adult travelling from Lebanon to France, 1 to 10 April. */
export function leadBody(overrides: Partial<AddCustomerLeadRequest> = {}): AddCustomerLeadRequest {
  return {
    name: 'Rania Haddad',
    ...uniqueContact(),
    phone_country_code: '+961',
    inbound_outbound: true,
    trip_type: 1,
    start_date: '2026-04-01',
    end_date: '2026-04-10',
    destination_id: [FRANCE],
    source_id: null,
    no_of_traveller: 1,
    is_family: false,
    travellers_info: [{ dob: '1990-05-20' }],
    lang: 'en',
    ...overrides,
  };
}

/** Three travellers: the principal (whose sent names the server replaces), a spouse and a child. */
export const THREE_TRAVELLERS = {
  name: 'Rania El Haddad',
  no_of_traveller: 3,
  travellers_info: [
    { dob: '1985-01-10', first_name: 'Ignored', last_name: 'Ignored' },
    { dob: '1987-02-11', first_name: 'Karim', last_name: 'Haddad', relationship_type_id: 1 },
    { dob: '2015-03-12', first_name: 'Lina', last_name: 'Haddad' },
  ],
};

/** A test app whose clock is FIXED_NOW, with helpers to save leads and read their rows. */
export async function createLeadTestApp(overrides: Parameters<typeof createTestApp>[0] = {}) {
  const app = await createTestApp({ now: () => FIXED_NOW, ...overrides });
  let tick = 0;
  /** A signed POST at the fixed clock; each call gets its own nonce, so a body may be sent twice. */
  const send = (path: string, body?: unknown) => app.post(path, body, { nowMs: FIXED_NOW + (tick += 1) });
  return Object.assign(app, {
    send,
    /** Saves a lead, expects 200 and returns the parsed data. */
    async save(body: AddCustomerLeadRequest) {
      const res = await send(addCustomerLeadEndpoint.path, body);
      const json: unknown = await res.json();
      // The body rides along so a failure shows the server's field codes.
      expect({ status: res.status, json }).toMatchObject({ status: 200 });
      return v.parse(addCustomerLeadEndpoint.response, json).data;
    },
    leadRow: async (uuid: string) => (await app.db.select().from(t.leads).where(eq(t.leads.uuid, uuid)))[0]!,
    /** Every traveller row of a lead, deleted ones included, in insertion order. */
    travellerRows: (leadId: number) =>
      app.db.select().from(t.leadTravellers).where(eq(t.leadTravellers.leadId, leadId)).orderBy(asc(t.leadTravellers.id)),
  });
}

export type LeadTestApp = Awaited<ReturnType<typeof createLeadTestApp>>;

import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCustomerLeadEndpoint, type AddCustomerLeadRequest } from '../../src/contract/lead.endpoints';
import * as t from '../../src/server/db/schema';
import { AGENTS } from '../../src/server/db/seed-data';
import { ARABIC, errorCodes, expectErrorEnvelope } from './expect-envelope';
import {
  createLeadTestApp,
  FRANCE,
  ITALY,
  LEBANON,
  leadBody,
  THREE_TRAVELLERS as threeTravellers,
  TODAY,
  TURKEY,
  uniqueContact,
  type LeadTestApp,
} from './lead-fixtures';

/** add-customer-lead: what it saves, what it derives, how it updates, and when it refuses. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let app: LeadTestApp;

beforeAll(async () => {
  app = await createLeadTestApp();
});
afterAll(() => app.close());

const save = (body: AddCustomerLeadRequest) => app.save(body);
const leadRow = (uuid: string) => app.leadRow(uuid);
const travellerRows = (leadId: number) => app.travellerRows(leadId);
const countOf = async (table: typeof t.leads | typeof t.customers | typeof t.leadTravellers | typeof t.leadTrackers) =>
  (await app.db.select({ n: count() }).from(table))[0]!.n;

describe('add-customer-lead creates a lead', () => {
  it('answers the customer and new uuids, and saves customer, lead, travellers and a stage-1 tracker', async () => {
    const body = leadBody({ ...threeTravellers, email: ' Rania.Haddad@Example.COM ' });
    const data = await save(body);
    expect(data.uuid).toMatch(UUID);
    expect(data.session_id).toMatch(UUID);
    expect(data.device_uuid).toMatch(UUID);
    expect(data.customer).toMatchObject({
      name: 'Rania El Haddad',
      email: 'rania.haddad@example.com',
      phone_country_code: '+961',
      phone_number: body.phone_number,
      complete_phone_number: `+961${body.phone_number}`,
    });

    const [customer] = await app.db.select().from(t.customers).where(eq(t.customers.id, data.customer.id));
    expect(customer?.email).toBe('rania.haddad@example.com');
    const lead = await leadRow(data.uuid);
    expect(lead).toMatchObject({ customerId: data.customer.id, deviceUuid: data.device_uuid, sessionId: data.session_id, status: 0 });

    const travellers = await travellerRows(lead.id);
    expect(travellers.map((r) => [r.position, r.firstName, r.lastName, r.dob, r.relationshipTypeId, r.deletedAt])).toEqual([
      [0, 'Rania', 'El Haddad', '1985-01-10', 5, null],
      [1, 'Karim', 'Haddad', '1987-02-11', 1, null],
      [2, 'Lina', 'Haddad', '2015-03-12', null, null],
    ]);

    const trackers = await app.db.select().from(t.leadTrackers).where(eq(t.leadTrackers.leadId, lead.id));
    expect(trackers).toHaveLength(1);
    expect(trackers[0]).toMatchObject({ id: data.lead_map_id, stage: 1, status: 0, uuidLead: data.uuid, deviceUuid: data.device_uuid, lastVisit: TODAY });
  });

  it('recomputes product_type, no_of_days and complete_phone_number, ignoring what the client sent', async () => {
    const data = await save(leadBody({ ...threeTravellers, product_type: 9, no_of_days: 999, complete_phone_number: '+1' }));
    const lead = await leadRow(data.uuid);
    expect(lead).toMatchObject({ productType: 2, noOfDays: 10, completePhoneNumber: `+961${lead.phoneNumber}` });
    expect(data.customer.complete_phone_number).toBe(`+961${lead.phoneNumber}`);
  });

  it('stores product_type 1 and is_family false for a single traveller, even when family was ticked', async () => {
    const data = await save(leadBody({ is_family: true, product_type: 2 }));
    expect(await leadRow(data.uuid)).toMatchObject({ productType: 1, isFamily: false, noOfTraveller: 1 });
  });

  it('row 8: issues its own session id, keeps a device id it issued and replaces an unknown one (the nil UUID too)', async () => {
    const chosenSession = crypto.randomUUID();
    const first = await save(leadBody({ session_id: chosenSession, device_uuid: crypto.randomUUID() }));
    expect(first.session_id).not.toBe(chosenSession);
    const second = await save(leadBody({ device_uuid: first.device_uuid }));
    expect(second.device_uuid).toBe(first.device_uuid);
    const nil = await save(leadBody({ device_uuid: '00000000-0000-0000-0000-000000000000' }));
    expect(nil.device_uuid).not.toBe('00000000-0000-0000-0000-000000000000');
    expect(nil.device_uuid).toMatch(UUID);
  });

  it('stores the utm fields and the language', async () => {
    const utm = { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'summer', utm_content: 'banner-1' };
    const data = await save(leadBody({ ...utm, lang: 'ar' }));
    expect(await leadRow(data.uuid)).toMatchObject({ utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'summer', utmContent: 'banner-1', lang: 'ar' });
  });

  it('travelling to Lebanon stores destination [422] and the chosen source', async () => {
    const data = await save(leadBody({ inbound_outbound: false, source_id: TURKEY, destination_id: [FRANCE] }));
    expect(await leadRow(data.uuid)).toMatchObject({ inboundOutbound: false, destinationIds: [LEBANON], sourceId: TURKEY });
  });

  it('travelling from Lebanon stores source 422 and the chosen destinations', async () => {
    const data = await save(leadBody({ inbound_outbound: true, source_id: TURKEY, destination_id: [FRANCE, ITALY] }));
    expect(await leadRow(data.uuid)).toMatchObject({ inboundOutbound: true, destinationIds: [FRANCE, ITALY], sourceId: LEBANON });
  });

  it('attributes the lead to an active agent', async () => {
    const data = await save(leadBody({ agent_id: AGENTS[0]!.id }));
    expect((await leadRow(data.uuid)).agentId).toBe(AGENTS[0]!.id);
  });

  it('refuses an unknown agent with agent_unknown and saves nothing', async () => {
    const before = await countOf(t.leads);
    const res = await app.send(addCustomerLeadEndpoint.path, leadBody({ agent_id: 999 }));
    expect(await errorCodes(res, 422)).toEqual({ agent_id: 'agent_unknown' });
    expect(await countOf(t.leads)).toBe(before);
  });
});

describe('add-customer-lead with a uuid updates that lead', () => {
  it('keeps the uuid and the lead count, updates fields, soft-deletes removed travellers and appends new ones', async () => {
    const first = leadBody(threeTravellers);
    const created = await save(first);
    const lead = await leadRow(created.uuid);
    const [principal, spouse, child] = await travellerRows(lead.id);
    const leadsBefore = await countOf(t.leads);

    const updated = await save({
      ...first,
      uuid: created.uuid,
      end_date: '2026-04-20',
      destination_id: [ITALY],
      travellers_info: [
        { id: principal!.id, dob: '1985-01-10' },
        { id: child!.id, dob: '2016-06-06', first_name: 'Lina', last_name: 'Haddad', relationship_type_id: 3 },
        { dob: '1950-07-07', first_name: 'Nadia', last_name: 'Haddad', relationship_type_id: 4 },
      ],
      deleted_members: [spouse!.id],
    });
    expect(updated.uuid).toBe(created.uuid);
    expect(updated.lead_map_id).toBe(created.lead_map_id);
    expect(await countOf(t.leads)).toBe(leadsBefore);
    expect(await leadRow(created.uuid)).toMatchObject({ id: lead.id, endDate: '2026-04-20', noOfDays: 20, destinationIds: [ITALY] });

    const rows = await travellerRows(lead.id);
    expect(rows.find((r) => r.id === spouse!.id)?.deletedAt).toBeInstanceOf(Date);
    const live = rows.filter((r) => r.deletedAt === null).sort((a, b) => a.position - b.position);
    expect(live.map((r) => [r.id === principal!.id, r.id === child!.id, r.firstName, r.dob, r.relationshipTypeId])).toEqual([
      [true, false, 'Rania', '1985-01-10', 5],
      [false, true, 'Lina', '2016-06-06', 3],
      [false, false, 'Nadia', '1950-07-07', 4],
    ]);

    // Down to one traveller: the others go, even without being listed in deleted_members.
    await save({ ...first, uuid: created.uuid, no_of_traveller: 1, travellers_info: [{ id: principal!.id, dob: '1985-01-10' }] });
    const after = await travellerRows(lead.id);
    expect(after.filter((r) => r.deletedAt === null).map((r) => r.id)).toEqual([principal!.id]);
    expect(await leadRow(created.uuid)).toMatchObject({ productType: 1, noOfTraveller: 1 });
  });

  it('answers 404 for an unknown uuid and creates nothing', async () => {
    const before = await countOf(t.leads);
    const res = await app.send(addCustomerLeadEndpoint.path, leadBody({ uuid: crypto.randomUUID() }));
    await expectErrorEnvelope(res, 404);
    expect(await countOf(t.leads)).toBe(before);
  });

  it("refuses a traveller id of another lead and leaves both leads as they were", async () => {
    const other = await save(leadBody());
    const [foreign] = await travellerRows((await leadRow(other.uuid)).id);
    const mine = leadBody();
    const created = await save(mine);
    const res = await app.send(addCustomerLeadEndpoint.path, {
      ...mine,
      uuid: created.uuid,
      end_date: '2026-04-05',
      travellers_info: [{ id: foreign!.id, dob: '1990-05-20' }],
    });
    expect(await errorCodes(res, 422)).toEqual({ 'travellers_info.0.id': 'not_found' });
    expect((await leadRow(created.uuid)).endDate).toBe('2026-04-10');
    expect((await travellerRows((await leadRow(other.uuid)).id))[0]).toEqual(foreign);
  });
});

describe('customers are matched by email and phone', () => {
  it('row 1: reuses the customer for the same email and phone and never renames it; the new lead keeps its own name', async () => {
    const contact = uniqueContact();
    const a = await save(leadBody({ ...contact, name: 'Rania Haddad' }));
    const b = await save(leadBody({ ...contact, email: contact.email.toUpperCase(), name: 'Rania Khoury' }));
    expect(b.customer.id).toBe(a.customer.id);
    expect(b.uuid).not.toBe(a.uuid);
    const rows = await app.db.select().from(t.customers).where(eq(t.customers.email, contact.email));
    expect(rows.map((r) => r.name)).toEqual(['Rania Haddad']);
    expect((await leadRow(b.uuid)).name).toBe('Rania Khoury');
  });

  it('answers 409 email_taken for an email on file with another phone', async () => {
    const contact = uniqueContact();
    await save(leadBody(contact));
    const res = await app.send(addCustomerLeadEndpoint.path, leadBody({ email: contact.email }));
    const body = await expectErrorEnvelope(res, 409);
    expect(body.data).toEqual({ email_taken: true, phone_taken: false, errors: { email: 'email_taken' } });
  });

  it('lets the customer of a lead being edited correct their phone, keeping the same customer', async () => {
    const contact = uniqueContact();
    const first = await save(leadBody(contact));
    const { phone_number: newPhone } = uniqueContact();
    const edited = await save(leadBody({ ...contact, phone_number: newPhone, uuid: first.uuid, session_id: first.session_id }));
    expect(edited.uuid).toBe(first.uuid);
    expect(edited.session_id).toBe(first.session_id);
    expect(edited.customer.id).toBe(first.customer.id);
    expect(edited.customer.phone_number).toBe(newPhone);
  });

  it('refuses, while editing a lead, an email that belongs to another customer', async () => {
    const mine = uniqueContact();
    const theirs = uniqueContact();
    const first = await save(leadBody(mine));
    await save(leadBody(theirs));
    const res = await app.send(
      addCustomerLeadEndpoint.path,
      leadBody({ ...mine, email: theirs.email, uuid: first.uuid, session_id: first.session_id }),
    );
    const body = await expectErrorEnvelope(res, 409);
    expect(body.data).toEqual({ email_taken: true, phone_taken: false, errors: { email: 'email_taken' } });
  });

  it('answers 409 phone_taken for a phone on file with another email', async () => {
    const contact = uniqueContact();
    await save(leadBody(contact));
    const res = await app.send(addCustomerLeadEndpoint.path, leadBody({ phone_number: contact.phone_number }));
    const body = await expectErrorEnvelope(res, 409);
    expect(body.data).toEqual({ email_taken: false, phone_taken: true, errors: { phone_number: 'phone_taken' } });
  });

  it('answers 409 with both flags when the email and the phone belong to two other customers', async () => {
    const one = uniqueContact();
    const two = uniqueContact();
    await save(leadBody(one));
    await save(leadBody(two));
    const res = await app.send(addCustomerLeadEndpoint.path, leadBody({ email: one.email, phone_number: two.phone_number, lang: 'ar' }));
    const body = await expectErrorEnvelope(res, 409);
    expect(body.message).toMatch(ARABIC);
    expect(body.data).toEqual({ email_taken: true, phone_taken: true, errors: { email: 'email_taken', phone_number: 'phone_taken' } });
  });

  it('a refused save (phone_taken) leaves no lead, traveller, tracker or customer behind', async () => {
    const contact = uniqueContact();
    await save(leadBody(contact));
    const tables = [t.leads, t.customers, t.leadTravellers, t.leadTrackers] as const;
    const before = await Promise.all(tables.map(countOf));
    const res = await app.send(addCustomerLeadEndpoint.path, leadBody({ ...threeTravellers, phone_number: contact.phone_number }));
    expect(res.status).toBe(409);
    expect(await Promise.all(tables.map(countOf))).toEqual(before);
  });

  it('a failure after the customer and lead were written rolls both back', async () => {
    const other = await save(leadBody());
    const [foreign] = await travellerRows((await leadRow(other.uuid)).id);
    const body = leadBody({ travellers_info: [{ id: foreign!.id, dob: '1990-05-20' }] });
    const before = await Promise.all([countOf(t.leads), countOf(t.customers)]);
    expect(await errorCodes(await app.send(addCustomerLeadEndpoint.path, body), 422)).toEqual({ 'travellers_info.0.id': 'not_found' });
    expect(await Promise.all([countOf(t.leads), countOf(t.customers)])).toEqual(before);
    expect(await app.db.select().from(t.customers).where(eq(t.customers.email, body.email))).toEqual([]);
  });
});

describe('bad input never answers 5xx', () => {
  it.each([
    ['no body', undefined],
    ['null', null],
    ['an array', []],
    ['wrong types', { ...leadBody(), no_of_traveller: '3', destination_id: 'FR', travellers_info: [{ dob: 5 }] }],
    ['ids beyond integer', { ...leadBody(), destination_id: [1e300], agent_id: 99999999999 }],
    ['a uuid that is not one', { ...leadBody(), uuid: "1' OR '1'='1" }],
    ['an unknown country', { ...leadBody(), destination_id: [999] }],
    ['an unknown relationship', { ...leadBody(), ...threeTravellers, travellers_info: threeTravellers.travellers_info.map((x) => ({ ...x, relationship_type_id: 99 })) }],
  ])('add-customer-lead with %s answers 422', async (_label, body) => {
    await expectErrorEnvelope(await app.send(addCustomerLeadEndpoint.path, body), 422);
  });
});

import { eq, inArray } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addCustomerLeadEndpoint,
  agentCheckEndpoint,
  latestLeadsByDeviceEndpoint,
  personalDetailsEndpoint,
  type AddCustomerLeadRequest,
} from '../../src/contract/lead.endpoints';
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
  type LeadTestApp,
} from './lead-fixtures';

/** Reading leads back (get-personal-details, get-latest-leads-by-device-id) and the agent check. */

let app: LeadTestApp;

beforeAll(async () => {
  app = await createLeadTestApp();
});
afterAll(() => app.close());

const save = (body: AddCustomerLeadRequest) => app.save(body);
/** Relationship names as get-travel-configs lists them (relation_types), English. */
let RELATION_NAMES = new Map<number, string>();
beforeAll(async () => {
  const rows = await app.db.select().from(t.masterItems).where(eq(t.masterItems.kind, 'relation_types'));
  RELATION_NAMES = new Map(rows.map((row) => [row.id, row.nameEn]));
});
const leadRow = (uuid: string) => app.leadRow(uuid);
const travellerRows = (leadId: number) => app.travellerRows(leadId);

describe('get-personal-details', () => {
  it('answers the lead exactly as it was saved, with every spec §3 field the server has (issue 8 row 9)', async () => {
    const body = leadBody({ ...threeTravellers, is_family: true, destination_id: [FRANCE, ITALY], agent_id: AGENTS[1]!.id, utm_source: 'newsletter' });
    const saved = await save(body);
    const res = await app.send(personalDetailsEndpoint.path, { uuid: saved.uuid, lang: 'en' });
    expect(res.status).toBe(200);
    const { customer } = v.parse(personalDetailsEndpoint.response, await res.json()).data;
    expect(customer.get_customer).toEqual(saved.customer);
    expect(customer.get_invoice).toBeNull();
    const leadId = (await leadRow(saved.uuid)).id;
    const ids = (await travellerRows(leadId)).map((r) => r.id);
    const traveller = (id: number | undefined, dob: string, names: [string | null, string | null], relationship: [number | null, string | null]) => ({
      id,
      bai_misc_lead_id: leadId,
      dob,
      date_of_birth: dob.split('-').reverse().join('/'),
      first_name: names[0],
      middle_name: null,
      last_name: names[1],
      relationship_type_id: relationship[0],
      relationship_type_text: relationship[1],
      insurance_type: 1,
      type: null,
      passport: null,
      gender_id: null,
      marital_status_id: null,
      nationality_id: null,
      country_id: null,
      type_text: null,
      gender_text: null,
      nationality_text: null,
      country_text: null,
      is_field: false,
      is_editable: true,
    });
    expect(customer.lead_details).toEqual({
      id: leadId,
      uuid: saved.uuid,
      lang: 'en',
      name: 'Rania El Haddad',
      is_self: true,
      insured_type_id: 2,
      destination_country: 'France, Italy',
      source: 'Lebanon',
      is_travel: true,
      dob: '1985-01-10',
      deleted_members: [],
      session_id: null,
      email: body.email,
      phone_country_code: '+961',
      phone_number: body.phone_number,
      complete_phone_number: `+961${body.phone_number}`,
      inbound_outbound: true,
      trip_type: 1,
      product_type: 2,
      start_date: '2026-04-01',
      end_date: '2026-04-10',
      no_of_days: 10,
      destination_id: [FRANCE, ITALY],
      source_id: LEBANON,
      no_of_traveller: 3,
      is_family: true,
      agent_id: AGENTS[1]!.id,
      travellers_info: [
        traveller(ids[0], '1985-01-10', ['Rania', 'El Haddad'], [5, RELATION_NAMES.get(5)!]),
        traveller(ids[1], '1987-02-11', ['Karim', 'Haddad'], [1, RELATION_NAMES.get(1)!]),
        traveller(ids[2], '2015-03-12', ['Lina', 'Haddad'], [null, null]),
      ],
      utm_source: 'newsletter',
      utm_medium: null,
      utm_campaign: null,
      utm_content: null,
    });
    expect(customer.recent_searches).toEqual([
      expect.objectContaining({
        uuid_lead: saved.uuid,
        stage: 1,
        destination_name: 'France, Italy',
        no_of_traveller: 3,
        last_visit: TODAY,
        lead_details: { trip_type: 1, inbound_outbound: true, destination_id: [FRANCE, ITALY], source_id: LEBANON, is_family: true },
        // RULINGS 24: the device id goes only to the device itself.
        device_uuid: null,
      }),
    ]);

    // A removed traveller is listed in deleted_members.
    const kept = body.travellers_info.slice(0, 2).map((entry, index) => ({ ...entry, id: ids[index] }));
    await save({ ...body, uuid: saved.uuid, no_of_traveller: 2, travellers_info: kept });
    const again = await app.send(personalDetailsEndpoint.path, { uuid: saved.uuid, lang: 'en' });
    expect(v.parse(personalDetailsEndpoint.response, await again.json()).data.customer.lead_details.deleted_members).toEqual([ids[2]]);
  });

  it('answers 404 for an unknown uuid', async () => {
    await expectErrorEnvelope(await app.send(personalDetailsEndpoint.path, { uuid: crypto.randomUUID() }), 404);
  });
});

describe('get-latest-leads-by-device-id', () => {
  it("lists the device's leads newest first with destination names in Arabic", async () => {
    const toFrance = await save(leadBody({ destination_id: [FRANCE] }));
    const device = toFrance.device_uuid;
    const fromTurkey = await save(leadBody({ device_uuid: device, inbound_outbound: false, source_id: TURKEY }));
    const toTwo = await save(leadBody({ device_uuid: device, destination_id: [FRANCE, ITALY] }));
    await save(leadBody({ device_uuid: crypto.randomUUID() }));

    const res = await app.send(latestLeadsByDeviceEndpoint.path, { device_uuid: device, lang: 'ar' });
    expect(res.status).toBe(200);
    const data = v.parse(latestLeadsByDeviceEndpoint.response, await res.json()).data;
    const names = new Map(
      (await app.db.select().from(t.countries).where(inArray(t.countries.id, [FRANCE, ITALY, TURKEY]))).map((c) => [c.id, c.nameAr]),
    );
    expect(data.recent.map((r) => [r.uuid_lead, r.destination_name])).toEqual([
      [toTwo.uuid, `${names.get(FRANCE)} و${names.get(ITALY)}`],
      [fromTurkey.uuid, names.get(TURKEY)],
      [toFrance.uuid, names.get(FRANCE)],
    ]);
    for (const r of data.recent) expect(r.destination_name).toMatch(ARABIC);
    expect(data.leads).toEqual(data.recent);
    expect(data.recent.every((r) => r.device_uuid === device && r.stage === 1 && r.provider_name === null)).toBe(true);
  });

  it('shows at most 5 searches, the newest', async () => {
    const first = await save(leadBody());
    const device = first.device_uuid;
    const uuids: string[] = [first.uuid];
    for (let i = 0; i < 5; i += 1) uuids.push((await save(leadBody({ device_uuid: device }))).uuid);
    const res = await app.send(latestLeadsByDeviceEndpoint.path, { device_uuid: device });
    const data = v.parse(latestLeadsByDeviceEndpoint.response, await res.json()).data;
    expect(data.recent.map((r) => r.uuid_lead)).toEqual(uuids.slice(1).reverse());
  });

  it('answers empty lists for an unknown device', async () => {
    const res = await app.send(latestLeadsByDeviceEndpoint.path, { device_uuid: crypto.randomUUID(), lang: 'en' });
    expect(res.status).toBe(200);
    expect(v.parse(latestLeadsByDeviceEndpoint.response, await res.json()).data).toEqual({ leads: [], recent: [] });
  });
});

describe('agent check', () => {
  it('answers the id and name of an active agent', async () => {
    const res = await app.send(agentCheckEndpoint.path, { agent_id: AGENTS[0]!.id });
    expect(res.status).toBe(200);
    expect(v.parse(agentCheckEndpoint.response, await res.json()).data).toEqual({ agent: { id: AGENTS[0]!.id, name: AGENTS[0]!.name } });
  });

  it('refuses an unknown agent with 422 agent_unknown', async () => {
    expect(await errorCodes(await app.send(agentCheckEndpoint.path, { agent_id: 999 }), 422)).toEqual({ agent_id: 'agent_unknown' });
  });

  it('refuses an inactive agent, and a lead naming it', async () => {
    const agent = await app.db.insert(t.agents).values({ id: 190, name: 'Former agent', email: 'former@safar.example', active: false }).returning();
    expect(await errorCodes(await app.send(agentCheckEndpoint.path, { agent_id: agent[0]!.id }), 422)).toEqual({ agent_id: 'agent_unknown' });
    const res = await app.send(addCustomerLeadEndpoint.path, leadBody({ agent_id: agent[0]!.id }));
    expect(await errorCodes(res, 422)).toEqual({ agent_id: 'agent_unknown' });
  });
});

import { inArray } from 'drizzle-orm';
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
const leadRow = (uuid: string) => app.leadRow(uuid);
const travellerRows = (leadId: number) => app.travellerRows(leadId);

describe('get-personal-details', () => {
  it('answers the lead exactly as it was saved, with its customer and recent search', async () => {
    const body = leadBody({ ...threeTravellers, is_family: true, destination_id: [FRANCE, ITALY], agent_id: AGENTS[1]!.id, utm_source: 'newsletter' });
    const saved = await save(body);
    const res = await app.send(personalDetailsEndpoint.path, { uuid: saved.uuid, lang: 'en' });
    expect(res.status).toBe(200);
    const { customer } = v.parse(personalDetailsEndpoint.response, await res.json()).data;
    expect(customer.get_customer).toEqual(saved.customer);
    expect(customer.get_invoice).toBeNull();
    const ids = (await travellerRows((await leadRow(saved.uuid)).id)).map((r) => r.id);
    expect(customer.lead_details).toEqual({
      uuid: saved.uuid,
      lang: 'en',
      name: 'Rania El Haddad',
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
        { id: ids[0], dob: '1985-01-10', first_name: 'Rania', middle_name: null, last_name: 'El Haddad', relationship_type_id: 5 },
        { id: ids[1], dob: '1987-02-11', first_name: 'Karim', middle_name: null, last_name: 'Haddad', relationship_type_id: 1 },
        { id: ids[2], dob: '2015-03-12', first_name: 'Lina', middle_name: null, last_name: 'Haddad', relationship_type_id: null },
      ],
      utm_source: 'newsletter',
      utm_medium: null,
      utm_campaign: null,
      utm_content: null,
    });
    expect(customer.recent_searches).toEqual([
      expect.objectContaining({ uuid_lead: saved.uuid, stage: 1, destination_name: 'France, Italy', no_of_traveller: 3, last_visit: TODAY }),
    ]);
  });

  it('answers 404 for an unknown uuid', async () => {
    await expectErrorEnvelope(await app.send(personalDetailsEndpoint.path, { uuid: crypto.randomUUID() }), 404);
  });
});

describe('get-latest-leads-by-device-id', () => {
  it("lists the device's leads newest first with destination names in Arabic", async () => {
    const device = crypto.randomUUID();
    const toFrance = await save(leadBody({ device_uuid: device, destination_id: [FRANCE] }));
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
      [toTwo.uuid, `${names.get(FRANCE)}، ${names.get(ITALY)}`],
      [fromTurkey.uuid, names.get(TURKEY)],
      [toFrance.uuid, names.get(FRANCE)],
    ]);
    for (const r of data.recent) expect(r.destination_name).toMatch(ARABIC);
    expect(data.leads).toEqual(data.recent);
    expect(data.recent.every((r) => r.device_uuid === device && r.stage === 1 && r.provider_name === null)).toBe(true);
  });

  it('shows at most 5 searches, the newest', async () => {
    const device = crypto.randomUUID();
    const uuids: string[] = [];
    for (let i = 0; i < 6; i += 1) uuids.push((await save(leadBody({ device_uuid: device }))).uuid);
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

import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, type Language } from '../../src/contract/endpoint';
import {
  companyInfoEndpoint,
  countriesEndpoint,
  countryCodesEndpoint,
  relationshipsEndpoint,
  travelConfigsEndpoint,
  vatEndpoint,
  MASTER_LIST_KINDS,
  type CompanyInfo,
  type Country,
  type CountryCode,
  type MasterItem,
} from '../../src/contract/reference.endpoints';
import { settings } from '../../src/server/db/schema';
import { INSURERS } from '../../src/server/db/seed-data';
import { createTestApp, type TestApp } from '../support/test-app';
import { REFERENCE_ENDPOINTS, type AnyEndpoint } from './contract-endpoints';
import { ARABIC, errorCodes } from './expect-envelope';

const ENDPOINTS = REFERENCE_ENDPOINTS;

/** The bodies of each shape (full, dropdown, no body) that the endpoint's own request schema accepts. */
function bodiesFor(endpoint: AnyEndpoint, lang: Language): unknown[] {
  const candidates = [{ lang, isDropdown: false }, { lang, isDropdown: true }, { lang }, undefined];
  return candidates.filter((body) => v.safeParse(endpoint.request, body).success);
}

const LEBANON = 422;
const FRANCE = 250;

let t: TestApp;

async function data<T>(path: string, body?: unknown): Promise<T> {
  const res = await t.post(path, body);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

const countries = (body: Record<string, unknown>) => data<{ countries: Country[] }>(countriesEndpoint.path, body);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('every reference endpoint', () => {
  it('is declared in the contract (the sweep below is not empty)', () => {
    expect(ENDPOINTS.map((e) => e.path).sort()).toEqual(
      [companyInfoEndpoint, countriesEndpoint, countryCodesEndpoint, relationshipsEndpoint, travelConfigsEndpoint, vatEndpoint]
        .map((e) => e.path)
        .sort(),
    );
  });

  for (const endpoint of ENDPOINTS) {
    for (const lang of LANGUAGES) {
      it(`${endpoint.path} answers 200 with its response schema in ${lang}`, async () => {
        const bodies = bodiesFor(endpoint, lang);
        expect(bodies.length).toBeGreaterThan(0);
        for (const body of bodies) {
          const res = await t.post(endpoint.path, body);
          expect(res.status).toBe(200);
          const parsed = v.parse(endpoint.response, await res.json());
          expect(parsed.status).toBe(200);
        }
      });
    }
  }
});

describe('countries', () => {
  it('lists 249+ countries with ISO 3166-1 numeric ids and names in both languages', async () => {
    const { countries: list } = await countries({ lang: 'en' });
    expect(list.length).toBeGreaterThanOrEqual(249);
    expect(new Set(list.map((c) => c.id)).size).toBe(list.length);
    for (const c of list) expect(Number.isInteger(c.id) && c.id >= 1 && c.id <= 999).toBe(true);
    expect(list.find((c) => c.iso2 === 'LB')).toMatchObject({ id: LEBANON, iso3: 'LBN', name: 'Lebanon', name_ar: 'لبنان' });
    expect(list.find((c) => c.iso2 === 'FR')?.id).toBe(FRANCE);
  });

  it('names Lebanon لبنان in Arabic and Lebanon in English', async () => {
    const ar = (await countries({ lang: 'ar' })).countries;
    const en = (await countries({ lang: 'en' })).countries;
    expect(ar.find((c) => c.id === LEBANON)?.name).toBe('لبنان');
    expect(en.find((c) => c.id === LEBANON)?.name).toBe('Lebanon');
    expect(ar.filter((c) => ARABIC.test(c.name)).length).toBe(ar.length);
  });

  it('gives { value, label } options with isDropdown', async () => {
    const res = await t.post(countriesEndpoint.path, { lang: 'en', isDropdown: true });
    const { countries: options } = (await res.json()).data as { countries: Record<string, unknown>[] };
    expect(options.length).toBeGreaterThanOrEqual(249);
    for (const option of options) expect(Object.keys(option).sort()).toEqual(['label', 'value']);
    expect(options).toContainEqual({ value: String(LEBANON), label: 'Lebanon' });
  });

  it('removes the chosen destinations (nationality options)', async () => {
    const all = (await countries({ lang: 'en' })).countries;
    const ids = (await countries({ lang: 'en', destination_ids: [LEBANON, FRANCE] })).countries.map((c) => c.id);
    expect(ids).not.toContain(LEBANON);
    expect(ids).not.toContain(FRANCE);
    expect(ids.length).toBe(all.length - 2);
  });

  it("removes the nationalities provider 7 does not cover, and the destinations", async () => {
    const all = (await countries({ lang: 'en' })).countries;
    const excludedIso2 = INSURERS.find((i) => i.id === 7)!.excluded;
    expect(excludedIso2.length).toBeGreaterThan(0);
    const excludedIds = all.filter((c) => excludedIso2.includes(c.iso2)).map((c) => c.id);
    const ids = (await countries({ lang: 'en', insurance_provider_id: 7, destination_ids: [FRANCE] })).countries.map((c) => c.id);
    for (const id of [...excludedIds, FRANCE]) expect(ids).not.toContain(id);
    expect(ids.length).toBe(all.length - excludedIds.length - 1);
  });

  it('keeps the destinations for provider 1000, which covers nationals of their destination', async () => {
    const all = (await countries({ lang: 'en' })).countries;
    const ids = (await countries({ lang: 'en', insurance_provider_id: 1000, destination_ids: [LEBANON, FRANCE] })).countries.map(
      (c) => c.id,
    );
    expect(ids).toContain(LEBANON);
    expect(ids).toContain(FRANCE);
    expect(ids.length).toBe(all.length);
  });

  it('refuses an unknown provider id with 422 not_found', async () => {
    const res = await t.post(countriesEndpoint.path, { lang: 'en', insurance_provider_id: 424242 });
    expect(await errorCodes(res, 422)).toEqual({ insurance_provider_id: 'not_found' });
  });
});

describe('country codes', () => {
  it('gives +961 for Lebanon in full form', async () => {
    const { codes } = await data<{ codes: CountryCode[] }>(countryCodesEndpoint.path, { lang: 'en' });
    expect(codes.length).toBeGreaterThanOrEqual(249);
    expect(codes.find((c) => c.id === LEBANON)).toMatchObject({ iso2: 'LB', code: '+961', name: 'Lebanon' });
  });

  it('gives unique code values, including +961, in dropdown form', async () => {
    for (const lang of LANGUAGES) {
      const { codes } = await data<{ codes: { value: string; label: string }[] }>(countryCodesEndpoint.path, {
        lang,
        isDropdown: true,
      });
      const values = codes.map((c) => c.value);
      expect(new Set(values).size).toBe(values.length);
      expect(values).toContain('+961');
      for (const value of values) expect(value).toMatch(/^\+\d+$/);
    }
  });
});

describe('travel configs (spec §3 master configuration)', () => {
  type Configs = Record<(typeof MASTER_LIST_KINDS)[number], MasterItem[]> & {
    max_traveller_count: number;
    family_child_max_age: number;
  };

  for (const lang of LANGUAGES) {
    it(`has every master list, named in ${lang}`, async () => {
      const configs = await data<Configs>(travelConfigsEndpoint.path, { lang });
      for (const kind of MASTER_LIST_KINDS) {
        expect(configs[kind]).not.toHaveLength(0);
        for (const item of configs[kind]) {
          expect(item.name).toBe(lang === 'ar' ? item.name_ar : item.name_en);
          expect(item.name_ar).toMatch(ARABIC);
          expect(item.name_en).not.toMatch(ARABIC);
        }
      }
      const relationIds = configs.relation_types.map((r) => r.id);
      expect(relationIds).toContain(5);
      expect(configs.relation_types_without_principal.map((r) => r.id)).not.toContain(5);
      expect(configs.relation_types_without_principal.length).toBe(relationIds.length - 1);
      expect(configs.max_traveller_count).toBe(8);
      expect(configs.family_child_max_age).toBe(18);
    });
  }

  it("offers the review form's titles each language's customers expect, a child's included, in the seed's order (issue 38)", async () => {
    const titles = async (lang: Language) => (await data<Record<'prefex', { value: string; label: string }[]>>(travelConfigsEndpoint.path, { lang, isDropdown: true })).prefex;
    expect(await titles('en')).toEqual(['Mr', 'Mrs', 'Ms', 'Miss', 'Dr', 'Master', 'Miss (child)'].map((label, index) => ({ value: String([1, 2, 3, 6, 4, 5, 7][index]), label })));
    expect((await titles('ar')).map((option) => option.label)).toEqual(['السيد', 'السيدة', 'السيدة / الآنسة', 'الآنسة', 'د.', 'الطفل', 'الطفلة']);
  });

  it("honours the broker's change of max_traveller_count in the database", async () => {
    await t.db.update(settings).set({ value: 6 }).where(eq(settings.key, 'max_traveller_count'));
    try {
      expect((await data<Configs>(travelConfigsEndpoint.path, { lang: 'en' })).max_traveller_count).toBe(6);
    } finally {
      await t.db.update(settings).set({ value: 8 }).where(eq(settings.key, 'max_traveller_count'));
    }
  });
});

describe('relationships, VAT, company info', () => {
  it('lists family, domestic and parent relationships', async () => {
    const lists = await data<Record<string, MasterItem[]>>(relationshipsEndpoint.path, { lang: 'ar' });
    for (const key of ['relationships', 'domesticRelationships', 'parentsRelationship']) {
      expect(lists[key]).not.toHaveLength(0);
      for (const item of lists[key]!) expect(item.name).toMatch(ARABIC);
    }
  });

  it('gives VAT 11 % and a stamp fee of 200 cents for an empty body', async () => {
    expect(await data(vatEndpoint.path)).toEqual({ vat: 11, stamp_fee: 200 });
  });

  it('gives company info per language with WhatsApp and tel: links', async () => {
    const en = await data<CompanyInfo>(companyInfoEndpoint.path, { lang: 'en' });
    const ar = await data<CompanyInfo>(companyInfoEndpoint.path, { lang: 'ar' });
    expect(en.address).not.toBe(ar.address);
    expect(ARABIC.test(ar.address)).toBe(true);
    expect(ARABIC.test(en.address)).toBe(false);
    for (const info of [en, ar]) {
      expect(info.whatsapp_url).toMatch(/^https:\/\/wa\.me\/\d+$/);
      expect(info.toll_free_number_tel).toMatch(/^tel:\+?\d+$/);
    }
  });
});

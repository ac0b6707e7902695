import * as v from 'valibot';
import { defineEndpoint, isDropdownSchema, langSchema, optionSchema } from './endpoint';

/**
 * Reference data of spec §7: countries, calling codes, master lists, relationships, VAT and
 * company information. Each list comes in full form, or as { value, label } with isDropdown.
 */

// Ids are PostgreSQL integer columns: a larger number must be refused here, not reach SQL.
const id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));

export const countrySchema = v.object({
  id: v.number(),
  iso2: v.string(),
  iso3: v.string(),
  name: v.string(),
  name_en: v.string(),
  name_ar: v.string(),
  phone_code: v.string(),
  /** Every other name it goes by in either language (former, short, official); Safar's own addition, optional. */
  other_names: v.optional(v.array(v.string())),
});
export type Country = v.InferOutput<typeof countrySchema>;

export const countriesEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/countries',
  v.strictObject({
    lang: langSchema,
    isDropdown: isDropdownSchema,
    insurance_provider_id: v.optional(v.nullable(id)),
    destination_ids: v.optional(v.pipe(v.array(id), v.maxLength(300))),
  }),
  v.object({ countries: v.array(v.union([countrySchema, optionSchema])) }),
);

export const countryCodeSchema = v.object({
  id: v.number(),
  iso2: v.string(),
  code: v.string(),
  name: v.string(),
});
export type CountryCode = v.InferOutput<typeof countryCodeSchema>;

export const countryCodesEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/country-codes',
  v.strictObject({ lang: langSchema, isDropdown: isDropdownSchema }),
  v.object({ codes: v.array(v.union([countryCodeSchema, optionSchema])) }),
);

/** A master-list entry in full form. */
export const masterItemSchema = v.object({
  id: v.number(),
  name: v.string(),
  name_en: v.string(),
  name_ar: v.string(),
});
export type MasterItem = v.InferOutput<typeof masterItemSchema>;

const listSchema = v.array(v.union([masterItemSchema, optionSchema]));

export const MASTER_LIST_KINDS = [
  'genders',
  'prefex',
  'marital_status',
  'relation_types',
  'relation_types_without_principal',
  'product_types',
  'period_types',
  'trip_types',
] as const;
export type MasterListKind = (typeof MASTER_LIST_KINDS)[number];

export const travelConfigsEndpoint = defineEndpoint(
  '/miscellaneous/travel/master/get-travel-configs',
  v.strictObject({ lang: langSchema, isDropdown: isDropdownSchema }),
  v.object({
    genders: listSchema,
    prefex: listSchema,
    marital_status: listSchema,
    relation_types: listSchema,
    relation_types_without_principal: listSchema,
    product_types: listSchema,
    period_types: listSchema,
    trip_types: listSchema,
    max_traveller_count: v.number(),
    family_child_max_age: v.number(),
  }),
);

export const RELATIONSHIP_GROUPS = ['families', 'domestics', 'parents'] as const;
export type RelationshipGroup = (typeof RELATIONSHIP_GROUPS)[number];

export const relationshipsEndpoint = defineEndpoint(
  '/health/relationships',
  v.strictObject({ lang: langSchema, isDropdown: isDropdownSchema }),
  v.object({ relationships: listSchema, domesticRelationships: listSchema, parentsRelationship: listSchema }),
);

/** VAT in percent; stamp fee in US cents, like every amount of money in the API. */
export const vatEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/get-vat',
  v.optional(v.strictObject({})),
  v.object({ vat: v.number(), stamp_fee: v.number() }),
);

export const companyInfoSchema = v.object({
  name: v.string(),
  whatsapp_url: v.string(),
  whatsapp_number: v.string(),
  toll_free_number: v.string(),
  toll_free_number_tel: v.string(),
  email: v.string(),
  address: v.string(),
  disclaimer: v.string(),
  social: v.array(v.object({ network: v.string(), url: v.string() })),
});
export type CompanyInfo = v.InferOutput<typeof companyInfoSchema>;

export const companyInfoEndpoint = defineEndpoint(
  '/api/company-info',
  v.strictObject({ lang: langSchema }),
  companyInfoSchema,
);

import type { Language, Option } from '../../contract/endpoint';
import {
  companyInfoEndpoint,
  countriesEndpoint,
  countryCodesEndpoint,
  relationshipsEndpoint,
  travelConfigsEndpoint,
  vatEndpoint,
  type CompanyInfo,
  type Country,
} from '../../contract/reference.endpoints';
import { countryOption, type SearchableOption } from '../i18n/country-search';
import { callEndpoint } from './http-client';

const isOption = (item: object): item is Option => 'value' in item && 'label' in item;
const options = (items: object[]): Option[] => items.filter(isOption);

const isCountry = (item: object): item is Country => 'iso2' in item && 'name_en' in item && 'name_ar' in item;

/**
 * Country options in the given language, optionally without the given destination ids. Asks
 * for the full records (both names in one answer) so the selects find a country by its name in
 * either language and by its everyday aliases (issue 8 row 11), with no second round trip.
 */
export async function fetchCountryOptions(
  lang: Language,
  filters: { insurance_provider_id?: number; destination_ids?: number[] } = {},
): Promise<SearchableOption[]> {
  const data = await callEndpoint(countriesEndpoint, { lang, isDropdown: false, ...filters });
  return data.countries.filter(isCountry).map(countryOption);
}

/** Calling-code options ("+961" values). */
export async function fetchCountryCodeOptions(lang: Language): Promise<Option[]> {
  const data = await callEndpoint(countryCodesEndpoint, { lang, isDropdown: true });
  return options(data.codes);
}

/** Master lists as options, with the broker's traveller and family limits. */
export async function fetchTravelConfigs(lang: Language) {
  const data = await callEndpoint(travelConfigsEndpoint, { lang, isDropdown: true });
  return {
    genders: options(data.genders),
    titles: options(data.prefex),
    maritalStatus: options(data.marital_status),
    relationTypes: options(data.relation_types),
    relationTypesWithoutPrincipal: options(data.relation_types_without_principal),
    productTypes: options(data.product_types),
    periodTypes: options(data.period_types),
    tripTypes: options(data.trip_types),
    maxTravellerCount: data.max_traveller_count,
    familyChildMaxAge: data.family_child_max_age,
  };
}
export type TravelConfigs = Awaited<ReturnType<typeof fetchTravelConfigs>>;

/** The relationship lists of /health/relationships: families, domestics and parents, as options. */
export async function fetchRelationshipOptions(lang: Language) {
  const data = await callEndpoint(relationshipsEndpoint, { lang, isDropdown: true });
  return { families: options(data.relationships), domestics: options(data.domesticRelationships), parents: options(data.parentsRelationship) };
}

/** VAT percent and stamp fee in cents. */
export async function fetchVat() {
  return callEndpoint(vatEndpoint, undefined);
}

/** Company information in the given language. */
export async function fetchCompanyInfo(lang: Language): Promise<CompanyInfo> {
  return callEndpoint(companyInfoEndpoint, { lang });
}

import type { Language, Option } from '../../contract/endpoint';
import {
  companyInfoEndpoint,
  countriesEndpoint,
  countryCodesEndpoint,
  travelConfigsEndpoint,
  vatEndpoint,
  type CompanyInfo,
} from '../../contract/reference.endpoints';
import { callEndpoint } from './http-client';

const isOption = (item: object): item is Option => 'value' in item && 'label' in item;
const options = (items: object[]): Option[] => items.filter(isOption);

/** Country options in the given language, optionally without the given destination ids. */
export async function fetchCountryOptions(
  lang: Language,
  filters: { insurance_provider_id?: number; destination_ids?: number[] } = {},
): Promise<Option[]> {
  const data = await callEndpoint(countriesEndpoint, { lang, isDropdown: true, ...filters });
  return options(data.countries);
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

/** VAT percent and stamp fee in cents. */
export async function fetchVat() {
  return callEndpoint(vatEndpoint, undefined);
}

/** Company information in the given language. */
export async function fetchCompanyInfo(lang: Language): Promise<CompanyInfo> {
  return callEndpoint(companyInfoEndpoint, { lang });
}

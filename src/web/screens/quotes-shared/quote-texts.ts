import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { Language } from '../../../contract/endpoint';
import type { Zone } from '../../../contract/quote.endpoints';
import type { QuotesNotice } from '../../../../machines/quotes/quotes.types';

/** The catalogue's own wording in the page's language (en/ar pairs from the server). */
export const localized = (lang: Language, en: string, ar: string): string => (lang === 'ar' && ar ? ar : en);

export const ZONE_LABELS: Record<Zone, MessageDescriptor> = {
  schengen: msg`Schengen`,
  worldwide_ex_us_ca: msg`Worldwide excluding USA and Canada`,
  worldwide: msg`Worldwide`,
};

export const TRIP_TYPE_LABELS: Record<1 | 2, MessageDescriptor> = {
  1: msg`Single trip`,
  2: msg`Annual multi-trip`,
};

/** Why a buy did not go through (codes from the quotes machine). */
export const NOTICE_MESSAGES: Record<QuotesNotice, MessageDescriptor> = {
  bot_check_failed: msg`We could not confirm this request came from a person. Please try again.`,
  quote_expired: msg`Prices were updated since you opened this page. Please check the plan and try again.`,
};

/** Winter sports is priced only for travellers up to its age limit (the add-on says which). */
export const WINTER_SPORTS = 'winter_sports';

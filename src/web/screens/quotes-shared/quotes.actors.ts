import { fromPromise } from 'xstate';
import { quotesMachine } from '../../../../machines/quotes/quotes.machine';
import type { ChosenPlan, CompareData } from '../../../../machines/quotes/quotes.types';
import { getBotCheckToken } from '../../services/bot-check.service';
import { fetchQuotes, proceedReview, sendEmailByPage } from '../../services/quote.service';
import { localStore } from '../../storage/local-store';

/**
 * The quotes machine with its calls and storage writes (DESIGN convention 1). Failed calls
 * reject with the service's ApiError, whose kind, status and envelope the machine reads.
 */

/** Spec §3 stored keys once a plan is chosen: the premium shown and the quote itself. */
export function storeChosenPlan({ quote, selectedPremium }: ChosenPlan): void {
  localStore.set('selected_premium', String(selectedPremium));
  localStore.setJson('interested_policy', quote);
}

/** compare_data: the compared plans and the add-ons ticked per plan, which /compare-offers and Back read. */
export function storeCompareData(data: CompareData): void {
  localStore.setJson('compare_data', data);
}

const isIdList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
const isAddonMap = (value: unknown): value is Record<string, number[]> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((ids) => Array.isArray(ids) && ids.every((id) => Number.isInteger(id)));

/** The stored shape, or a bare list of compare ids (compare_data before add-ons were kept). */
function isCompareData(value: unknown): value is CompareData | string[] {
  if (isIdList(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  const data = value as Record<string, unknown>;
  return (data.uuid === null || typeof data.uuid === 'string') && isIdList(data.compareIds) && isAddonMap(data.addons);
}

/**
 * The compared plans and ticked add-ons stored for this lead, or none: what another lead
 * stored on this browser is not this customer's choice.
 */
export function readCompareData(uuid: string | null): Pick<CompareData, 'compareIds' | 'addons'> {
  const stored = localStore.getJson('compare_data', isCompareData);
  if (stored === null) return { compareIds: [], addons: {} };
  if (Array.isArray(stored)) return { compareIds: stored, addons: {} };
  if (stored.uuid !== null && stored.uuid !== uuid) return { compareIds: [], addons: {} };
  return { compareIds: stored.compareIds, addons: stored.addons };
}

export const quotesLogic = quotesMachine.provide({
  actors: {
    loadQuotes: fromPromise(({ input }) => fetchQuotes(input.uuid, input.lang, input.link)),
    getBotToken: fromPromise(({ input }) => getBotCheckToken(input.lang)),
    proceed: fromPromise(({ input }) => proceedReview(input)),
    sendEmail: fromPromise(({ input }) => sendEmailByPage(input)),
  },
  actions: {
    // Spec §4: buying stores traveller index 0 before the buy request.
    storeTravellerIndex: () => localStore.set('traveller_index', '0'),
    storeChosen: (_, plan) => storeChosenPlan(plan),
    storeCompared: (_, data) => storeCompareData(data),
  },
});

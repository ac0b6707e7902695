import { fromPromise } from 'xstate';
import { quotesMachine } from '../../../../machines/quotes.machine';
import type { ChosenPlan } from '../../../../machines/quotes.types';
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

/** compare_data: the compared plans' compare ids, which /compare-offers reads. */
export function storeCompareData(compareIds: string[]): void {
  localStore.setJson('compare_data', compareIds);
}

const isIdList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** The compared plans stored by the quote list, or none. */
export function readCompareData(): string[] {
  return localStore.getJson('compare_data', isIdList) ?? [];
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
    storeCompared: (_, { compareIds }) => storeCompareData(compareIds),
  },
});
